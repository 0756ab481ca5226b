// Semantics checks for the C front end, run with `forex run` (tests/it/frontend/c_semantics.rs).
/*@forex tuple det = deterministic(divmod, in: [x, y], out: [ret]); */
#include <stdbool.h>
#define TEN 10

int divmod(int x, int y) {
  int q = x / y;
  int r = x % y;
  return q * TEN + r;
}

int conversions(int x) {
  long y = x;
  unsigned u = x;
  unsigned char c = x;
  return (u > 5) + (y < 0) * 2 + (c == 255) * 4;
}

int wrap(int x) {
  return x + 1;
}

int shadow(int x) {
  int s = 0;
  { int x = 5; s += x; }
  for (int i = 0; i < 3; i++) { int x = i; s += x; }
  return s + x;
}

int early(int n) {
  int i = 0;
  int steps = 0;
  while (1) {
    steps++;
    if (i == n) { return steps; }
    i++;
    if (i > 100) break;
  }
  return -1;
}

int guarded(int x, int y) {
  int ok = y != 0 && x / y > 1;
  int alt = y == 0 || x % y == 0;
  int pick = y ? x / y : 7;
  return ok * 100 + alt * 10 + (pick == 7);
}

int loops(int n) {
  int s = 0;
  int i = 0;
  do { s += i; i++; } while (i < n);
  for (int j = 0; j < 10; j++) {
    if (j % 2 == 0) continue;
    if (j > 7) break;
    s += 100;
  }
  return s;
}

void fill(int n, int a[n]) {
  for (int i = 0; i < n; i++) a[i] = i * i;
}

int arrays(int k) {
  int b[4] = {7};
  int total = 0;
  fill(3, b);
  for (int i = 0; i < 4; i++) total = total * 10 + b[i];
  return total + k;
}
