// expect: violated
/* A PIN check that stops at the first wrong digit, as string compares do.
 *
 * Policy (delimited release): a caller may learn whether the guess is right, nothing
 * more. Two runs with the same guess, whose guesses are both right or both wrong, must
 * look the same to the caller: same answer and same cost (the work done, which an
 * attacker measures as time). The early return makes the cost the length of the right
 * prefix of the guess, so an attacker finds the PIN digit by digit: violated.
 * Compare pin_constant_time.c. Machine integers (the default for @forex files).
 */
#include <stdbool.h>

#define DIGITS 4

/*@forex
  tuple release {
    forall a: check_pin, b: check_pin;
    pre  a.guess[0] == b.guess[0] && a.guess[1] == b.guess[1]
      && a.guess[2] == b.guess[2] && a.guess[3] == b.guess[3]
      && ((a.guess[0] == a.pin[0] && a.guess[1] == a.pin[1]
           && a.guess[2] == a.pin[2] && a.guess[3] == a.pin[3])
          <==> (b.guess[0] == b.pin[0] && b.guess[1] == b.pin[1]
                && b.guess[2] == b.pin[2] && b.guess[3] == b.pin[3]));
    post a.ret == b.ret && a.cost[0] == b.cost[0];
  }
*/

/* Returns whether `guess` equals `pin`; cost[0] counts the digits compared. */
bool check_pin(int guess[DIGITS], int pin[DIGITS], int cost[1]) {
  cost[0] = 0;
  for (int i = 0; i < DIGITS; i++) {
    cost[0]++;
    if (guess[i] != pin[i]) {
      return false; /* early exit: the cost tells how many digits were right */
    }
  }
  return true;
}
