// expect: verified
/* Delimited release of an average: a payroll report publishes the average of three
 * salaries, which reveals their sum and nothing else. Any two payrolls with the same
 * sum give the same report, whatever the individual salaries (GNI-style ∀∃ in the
 * Elaenia annotation; mathematical integers, the default for @ELAENIA files). The
 * rounding (C's `/` truncates toward zero) is a function of the sum alone, so it leaks
 * nothing either.
 * @ELAENIA header below: `forall.x` names the ∀ copy's x, `exists.x` the ∃ copy's.
 */

/* @ELAENIA
 * pre: forall.s1 + forall.s2 + forall.s3 == exists.s1 + exists.s2 + exists.s3
 *   && forall.s1 >= 0 && forall.s2 >= 0 && forall.s3 >= 0;
 * forall: payroll_average;
 * exists: payroll_average;
 * post: forall.ret == exists.ret;
 * aspecs:
 * especs:
 */
#include <stdio.h>

#define STAFF 3

int payroll_average(int s1, int s2, int s3) {
  int total = 0;
  total += s1;
  total += s2;
  total += s3;
  int average = total / STAFF;
  if (total % STAFF * 2 >= STAFF) {
    average++; /* round half up */
  }
  return average;
}

/* The original tool's test driver: ignored by forex (its name starts with `_`). */
int _main_driver(void) {
  printf("%d\n", payroll_average(3000, 4100, 5200));
  return 0;
}
