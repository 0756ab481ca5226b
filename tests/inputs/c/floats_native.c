/* Float pairs that differ, for `forex prove --native-check`: every tuple is violated and
   the compiled code (gcc -ffp-contract=off) must compute the counterexample's values bit
   for bit. tests/it/oracle/c_native_floats.rs checks them. */
#include <math.h>

double add3(double a, double b, double c) { return (a + b) + c; }
double add3r(double a, double b, double c) { return a + (b + c); }
double tenth1(double x) { return x * 0.1; }
double tenth2(double x) { return x / 10; }
int ge1(double x, double y) { return !(x < y); }
int ge2(double x, double y) { return x >= y; }
double dtrip(double x) { return (double)(float)x; }
double dident(double x) { return x; }
double fabs1(double x) { return fabs(x); }
double fabs2(double x) { return x < 0 ? -x : x; }
double selfdiv(double x) { return x / x; }
double one(double x) { return 1.0; }
float addf(float a, float b, float c) { return (a + b) + c; }
float addw(float a, float b, float c) { return (float)((double)a + b + c); }
float sumf(float a[3]) { float s = 0.0f; for (int i = 0; i < 3; i++) s += a[i]; return s; }
float sumr(float a[3]) { float s = 0.0f; for (int i = 2; i >= 0; i--) s += a[i]; return s; }
double lib1(double x) { return sin(x) - sin(x + 0.0); }
double zero(double x) { return 0.0; }
int tr1(double x) { return fabs(x) < 1e6 ? (int)x : 0; }
int tr2(double x) { return fabs(x) < 1e6 ? (int)round(x) : 0; }

/*@forex
tuple ne_assoc = refines(add3, add3r, in: [a, b, c], out: [ret]);
tuple ne_tenth = refines(tenth1, tenth2, in: [x], out: [ret]);
tuple ne_cmp = refines(ge1, ge2, in: [x, y], out: [ret]);
tuple ne_dtrip = refines(dtrip, dident, in: [x], out: [ret]);
tuple ne_negzero = refines(fabs1, fabs2, in: [x], out: [ret]);
tuple ne_nan = refines(selfdiv, one, in: [x], out: [ret]);
tuple ne_widen = refines(addf, addw, in: [a, b, c], out: [ret]);
tuple ne_order = refines(sumf, sumr, in: [a], out: [ret]);
tuple ne_lib = refines(lib1, zero, in: [x], out: [ret]);
tuple ne_round = refines(tr1, tr2, in: [x], out: [ret]);
*/
