long double widen(long double x) { return x; }
double rem(double x, double y) { return x % y; }
int bits(double x) { return ~x; }
/*@forex
tuple t1 = refines(rem, rem, in: [x, y], out: [ret]);
tuple t2 = refines(bits, bits, in: [x], out: [ret]);
*/
