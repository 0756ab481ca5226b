// expect: verified
/* Loop unrolling as a refinement: `scan_unrolled` handles two readings per iteration,
 * `scan` one. For every run of the unrolled version there is a run of the plain one
 * with the same total and the same cleared buffer (the unrolled code runs half as many
 * iterations, so the copies are aligned 1:2, and `k` stays even for the bound to be
 * checked only once per pair). `weigh` is a library function with no body: forex
 * treats it as an uninterpreted function, the same in both copies. The axiom about it
 * in `pre` is not needed for this proof; forex tries the tuple without quantified
 * assumptions first, since they make every solver query harder.
 */

/* @ELAENIA
 * pre: scan_unrolled.len == scan.len && scan.len >= 0 && scan.len % 2 == 0
 *   && scan.buf =a= scan_unrolled.buf
 *   && (forall r: int :: weigh(r) >= 0);
 * forall: scan_unrolled;
 * exists: scan;
 * post: scan.total == scan_unrolled.total && scan.buf =a= scan_unrolled.buf;
 * aspecs:
 * especs:
 */

int weigh(int reading);

void scan(int len, int buf[len]) {
  int total = 0;
  for (int k = 0; k < len; k++) {
    total = total + weigh(buf[k]);
    buf[k] = 0;
  }
}

void scan_unrolled(int len, int buf[len]) {
  int total = 0;
  for (int k = 0; k < len; k += 2) {
    total = total + weigh(buf[k]);
    buf[k] = 0;
    total = total + weigh(buf[k + 1]);
    buf[k + 1] = 0;
  }
}
