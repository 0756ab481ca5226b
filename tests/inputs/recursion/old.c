/* forex equiv old.c new.c: recursive functions, paired by their mutual summaries
   (tests/it/cli/equiv_recursion.rs). */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

/* Equivalent in new.c. */
int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int gcd(int a, int b) {
  if (a == b) return a;
  if (a > b) return gcd(a - b, b);
  return gcd(a, b - a);
}
int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}
int mc91(int n) { if (n > 100) return n - 10; return mc91(mc91(n + 11)); }
int tri(int n, int acc) { if (n <= 0) return acc; return tri(n - 1, acc + n); }
int checked(int n) {
  if (n <= 0) return 0;
  assert(n > 0);
  return n + checked(n - 1);
}
int mix(int x);
int lib(int n) { if (n <= 0) return mix(0); return mix(n) + lib(n - 1); }
int inloop(int n) {
  int s = 0;
  for (int i = 1; i <= 2 && i <= n; i++) s += inloop(n - i);
  return s + 1;
}
int off(int n) { if (n <= 0) return 0; return n + off(n - 1); }

/* Not equivalent in new.c (or not provable by mutual summaries). */
int base(int n) { if (n <= 0) return 0; return n + base(n - 1); }
int fib3(int n) { if (n < 2) return n; return fib3(n - 1) + fib3(n - 2); }
int zero(int n) { if (n <= 0) return 0; return 0 * zero(n - 1); }
int noisy(int n) { if (n <= 0) return __VERIFIER_nondet_int(); return noisy(n - 1) + 1; }
int odd(int n);
int even(int n) { if (n == 0) return 1; return odd(n - 1); }
int odd(int n) { if (n == 0) return 0; return even(n - 1); }
int count(int n) { if (n <= 0) return 0; return 1 + count(n - 1); }
