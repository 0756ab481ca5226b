// expect-each: verified violated
/* A compiler optimisation checked as refinement: strength reduction replaces the
 * multiplication `4 * i` in a loop by an induction variable `k` that grows by 4.
 * `reduced` refines `original` when for every input there is a run of the original with
 * the same result (both are deterministic, so: the same result). The second tuple
 * (the `refines` shorthand, in a second `@forex` comment) checks a broken variant whose
 * induction variable starts one step late: violated for every n >= 1. Machine integers (the default for @forex files): overflow wraps in both
 * alike, as with `gcc -fwrapv`.
 */

/*@forex
  tuple optimised {
    forall a: reduced;
    exists b: original;
    pre  a.n == b.n && a.base == b.base;
    post a.ret == b.ret;
    invariant a.i == b.i && a.sum == b.sum && a.k == 4 * b.i;
  }
*/
/* @forex tuple broken = refines(reduced_late, original, in: [n, base], out: [ret]); */

int original(int n, int base) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    sum += base + 4 * i;
  }
  return sum;
}

int reduced(int n, int base) {
  int sum = 0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    sum += base + k;
    k += 4;
  }
  return sum;
}

int reduced_late(int n, int base) {
  int sum = 0;
  int k = 4; /* bug: should start at 0 */
  for (int i = 0; i < n; i++) {
    sum += base + k;
    k += 4;
  }
  return sum;
}
