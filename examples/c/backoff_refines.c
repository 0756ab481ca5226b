// expect: verified
/* A nondeterministic specification refined by an implementation. The spec of a retry
 * delay (exponential backoff with jitter) allows any delay in [0, window], where the
 * window doubles with each attempt; the library function `jitter` is only specified
 * (aspecs for the ∀ side, especs for the ∃ side, which picks the choice variable v).
 * The implementation is deterministic: half the window. It refines the spec: for every
 * input, some run of the spec returns the same delay (the ∃ side picks v = window / 2).
 * Mathematical integers (the default for @ELAENIA files).
 */

/* @ELAENIA
 * pre: forall.attempt == exists.attempt && forall.base == exists.base
 *   && forall.attempt >= 0 && forall.base >= 0;
 * forall: backoff_impl;
 * exists: backoff_spec;
 * post: forall.ret == exists.ret;
 * aspecs:
 *   jitter(lo, hi) {
 *     pre:  lo <= hi;
 *     post: lo <= ret! && ret! <= hi;
 *   }
 * especs:
 *   jitter(lo, hi) {
 *     choiceVars: v;
 *     pre:  lo <= v && v <= hi;
 *     post: ret! == v;
 *   }
 */
#include <stdlib.h>

int jitter(int lo, int hi);

/* How the original tool drew jitter in tests; ignored by forex. */
int _jitter(int lo, int hi) {
  return lo + rand() % (hi - lo + 1);
}

int backoff_spec(int attempt, int base) {
  int window = base;
  for (int i = 0; i < attempt; i++) {
    _invariant("l_i == r_i && l_window == r_window && l_window >= 0");
    window = window * 2;
  }
  return jitter(0, window);
}

int backoff_impl(int attempt, int base) {
  int window = base;
  int i = 0;
  while (i < attempt) {
    window = window + window;
    i++;
  }
  return window / 2;
}
