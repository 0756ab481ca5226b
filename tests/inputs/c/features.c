/* C as people write it, judged by `forex run` (tests/it/frontend/c_semantics.rs): a
   local header, function-like macros, switch with fall-through, enums, sizeof, typedefs,
   casts, the comma operator, (void)e, forward goto. */
#include "features.h"
#include <limits.h>

int fallthrough(int x) {
  int r = 0;
  switch (x) {
  case 0:
    r += 1;
  case 1:
    r += 10;
    break;
  default:
    r += 100;
  case 5:
    r += 1000;
  }
  return r;
}

int enums(int x) {
  enum color c = GREEN;
  return c * 100 + BLUE + x;
}

long sizes(int x) {
  int a[10];
  return sizeof(a) + sizeof(long) * 100 + sizeof x * 10000 + sizeof(pair) * 1000000;
}

int narrow(num x) {
  num y = (unsigned char) x;
  return y + (x > INT_MAX - 1);
}

int comma(int x) {
  int y = (x++, x * 2);
  (void) y;
  return (y, x + y);
}

int jumps(int x) {
  int r = 0;
  if (x < 0)
    goto negative;
  r = 1;
  goto done;
negative:
  r = -1;
done:
  return r * 10;
}

int square(int x) {
  return SQUARE(x + 1) + LIMIT;
}

int find(int n) {
  int i;
  for (i = 0; i < 100; i++) {
    if (i == n)
      goto out;
  }
  i = -1;
out:
  return i;
}

int cases_in_loop(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    switch (i % 3) {
    case 0:
      continue;
    case 1:
      s += 1;
      break;
    default:
      s += 10;
    }
    s += 100;
  }
  return s;
}
