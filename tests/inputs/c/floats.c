/* Float pairs of LANGUAGE.md "Floating point": each tuple's verdict is in its name
   (eq_: verified, ne_: violated). tests/it/frontend/c_floats.rs checks them. */
#include <math.h>
#include <stdlib.h>

double add3(double a, double b, double c) { return (a + b) + c; }
double add3r(double a, double b, double c) { return a + (b + c); }
double addc(double a, double b) { return a + b; }
double addc2(double a, double b) { return b + a; }
double half1(double x) { return x / 2; }
double half2(double x) { return x * 0.5; }
double twice1(double x) { return x * 2.0; }
double twice2(double x) { return x + x; }
float rtrip(float x) { return (float)(double)x; }
float ident(float x) { return x; }
double dtrip(double x) { return (double)(float)x; }
double dident(double x) { return x; }
double fabs1(double x) { return fabs(x); }
double fabs2(double x) { return x < 0 ? -x : x; }
double fabs3(double x) { return copysign(x, 1.0); }
double sqrt1(double x) { return sqrt(x * x); }
int nan1(double x) { return x != x; }
int nan2(double x) { return isnan(x); }
int cmp1(double x, double y) { return !(x < y); }
int cmp2(double x, double y) { return x >= y; }
double kahan(double a[4]) {
  double s = 0.0, c = 0.0;
  for (int i = 0; i < 4; i++) {
    double y = a[i] - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}
double naive(double a[4]) {
  double s = 0.0;
  for (int i = 0; i < 4; i++) s += a[i];
  return s;
}
int trunc1(double x) { return (int)x; }
int trunc2(double x) { return (int)trunc(x); }
double lib1(double x) { return sin(x) + cos(x); }
double lib2(double x) { return cos(x) + sin(x); }
double lib3(double x) { return sin(-x); }
double lib4(double x) { return -sin(x); }
double hexlit(void) { return 0x1.8p+1 + 1e-1f; }
double declit(void) { return 3.0 + (double)0.1f; }
int absa(int x) { return abs(x); }
int absb(int x) { return x < 0 ? -x : x; }
int ex1(int x) { if (x < 0) exit(3); return x; }
int ex2(int x) { if (x < 0) return 3; return x; }
int rnd(void) { return rand() <= RAND_MAX && rand() >= 0; }
int one(void) { return 1; }

/*@forex
tuple ne_assoc = refines(add3, add3r, in: [a, b, c], out: [ret]);
tuple eq_commute = refines(addc, addc2, in: [a, b], out: [ret]);
tuple eq_half = refines(half1, half2, in: [x], out: [ret]);
tuple eq_twice = refines(twice1, twice2, in: [x], out: [ret]);
tuple eq_rtrip = refines(rtrip, ident, in: [x], out: [ret]);
tuple ne_dtrip = refines(dtrip, dident, in: [x], out: [ret]);
tuple ne_fabs = refines(fabs1, fabs2, in: [x], out: [ret]);
tuple eq_fabs = refines(fabs1, fabs3, in: [x], out: [ret]);
tuple ne_sqrt = refines(sqrt1, fabs1, in: [x], out: [ret]);
tuple eq_nan = refines(nan1, nan2, in: [x], out: [ret]);
tuple ne_cmp = refines(cmp1, cmp2, in: [x, y], out: [ret]);
tuple ne_kahan = refines(kahan, naive, in: [a], out: [ret]);
tuple eq_trunc = refines(trunc1, trunc2, in: [x], out: [ret]);
tuple eq_lib = refines(lib1, lib2, in: [x], out: [ret]);
tuple ne_lib = refines(lib3, lib4, in: [x], out: [ret]);
tuple eq_lit = refines(hexlit, declit, out: [ret]);
tuple eq_abs = refines(absa, absb, in: [x], out: [ret]);
tuple eq_exit = refines(ex1, ex2, in: [x], out: [ret]);
tuple eq_rand = refines(rnd, one, out: [ret]);
*/
