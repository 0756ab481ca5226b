// expect: verified
/* The constant-time fix of pin_early_exit.c: every digit is compared, the differences
 * are accumulated with `|` and `^`, and the answer is read once at the end. The cost is
 * always DIGITS, and the answer says only whether the guess is right: the delimited
 * release holds. Machine integers (the default for @forex files).
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
  unsigned diff = 0;
  cost[0] = 0;
  for (int i = 0; i < DIGITS; i++) {
    cost[0]++;
    diff |= (unsigned)(guess[i] ^ pin[i]);
  }
  return diff == 0;
}
