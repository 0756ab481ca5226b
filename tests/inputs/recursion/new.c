/* The new versions of old.c's functions. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int sum(int n) { if (n <= 0) return 0; return sum(n - 1) + n; }
int fib(int n) {
  if (n >= 2) {
    int b = fib(n - 2);
    int a = fib(n - 1);
    return a + b;
  }
  return n;
}
int gcd(int a, int b) {
  if (a == b) return a;
  else if (a < b) return gcd(a, b - a);
  else return gcd(a - b, b);
}
int ack(int m, int n) {
  if (m != 0) {
    if (n != 0) {
      int inner = ack(m, n - 1);
      return ack(m - 1, inner);
    }
    return ack(m - 1, 1);
  }
  return 1 + n;
}
int mc91(int n) {
  if (n <= 100) {
    int t = mc91(n + 11);
    return mc91(t);
  }
  return n - 10;
}
int tri(int n, int acc) { if (n <= 0) return acc; return n + tri(n - 1, acc); }
int checked(int n) {
  if (n <= 0) return 0;
  assert(n > 0);
  return checked(n - 1) + n;
}
int mix(int x);
int lib(int n) { if (n > 0) return lib(n - 1) + mix(n); return mix(0); }
int inloop(int n) {
  int s = 1;
  for (int i = 1; i <= 2 && i <= n; i++) s += inloop(n - i);
  return s;
}
int off(int n) { if (n <= 1) return n < 0 ? 0 : n; return n + off(n - 1); }

int base(int n) { if (n <= 0) return 1; return n + base(n - 1); }
int fib3(int n) { if (n < 2) return n; return fib3(n - 1) + fib3(n - 3); }
int zero(int n) { if (n <= 0) return 0; return 0 * zero(n + 1); }
int noisy(int n) { if (n <= 0) return __VERIFIER_nondet_int(); return 1 + noisy(n - 1); }
int odd(int n);
int even(int n) { if (n == 0) return 1; return odd(n - 1); }
int odd(int n) { if (n == 0) return 0; return even(n - 1); }
int count(int n) { int r = 0; while (n > 0) { r = r + 1; n = n - 1; } return r; }
