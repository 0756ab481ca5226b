// expect: verified
/* Code sinking, as a compiler does it: `flush_sunk` moves the store after the loop into
 * the loop's last iteration. `sample(x)` is a library call that keeps or drops a
 * reading: in the ∀ copy any of 0 or 1, in the ∃ copy a choice `keep` that must follow
 * the ∀ copy's. The hints are written as Elaenia's files write them, with quantifiers
 * bounded by the array's size; arrays are total maps and `=a=` compares every cell, so
 * forex also tries each bounded hint without its bounds (`k != 0` alone): the loops
 * write nothing outside the array, and that is what the whole-array post needs.
 */

/* @ELAENIA
 * pre: flush.n == flush_sunk.n && flush.n > 0 && flush.a =a= flush_sunk.a;
 * forall: flush;
 * exists: flush_sunk;
 * post: flush.a =a= flush_sunk.a;
 * aspecs:
 *   sample(x) {
 *     pre: true;
 *     post: ret! == 0 || ret! == 1;
 *   }
 * especs:
 *   sample(x) {
 *     choiceVars: keep;
 *     pre: keep == 0 || keep == 1;
 *     post: ret! == keep;
 *   }
 */

int sample(int x);

void flush(int n, int a[n]) {
  int s = 0;
  int i = 0;
  while (i < n) {
    _invariant("l_i == r_i && 0 <= l_i && l_i <= l_n && l_s == r_s");
    _invariant("l_i < l_n ==> l_a =a= r_a");
    _invariant("l_i == l_n ==> r_a[0] == l_s");
    _invariant("l_i == l_n ==> forall k: int :: (k >= 0 && k < l_n && k != 0) ==> l_a[k] == r_a[k]");
    int f = sample(a[i]);
    if (f == 1) {
      s = s + a[i];
    }
    i = i + 1;
  }
  a[0] = s;
}

void flush_sunk(int n, int a[n]) {
  int s = 0;
  int i = 0;
  while (i < n) {
    int f = sample(a[i]);
    if (f == 1) {
      s = s + a[i];
    }
    if (i == n - 1) {
      a[0] = s;
    }
    i = i + 1;
  }
}
