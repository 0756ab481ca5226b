/* string.h functions (tests/it/frontend/c_stdlib.rs): each tuple's name says the verdict
 * it must get (`ok_…` verified, `bad_…` violated). */
#include <string.h>

/*@forex
tuple ok_memcpy { forall a: copy4, b: copy4; pre a.x == b.x; post a.ret == b.ret; }
tuple ok_memcpy_same { forall a: copy4; post a.ret == 1; }
tuple bad_memcpy_same { forall a: copy4_last; post a.ret == 4; }
tuple ok_memcpy_n { forall a: copy_n; pre a.n >= 1 && a.n <= 4; post a.ret == a.x; }
tuple bad_memcpy_past_end { forall a: copy_past; post a.ret == a.x; }
tuple ok_memmove { forall a: shift; post a.ret == 1; }
tuple bad_memcpy_overlap { forall a: overlap; post a.ret == 1; }
tuple ok_memset { forall a: clear; post a.ret == 0; }
tuple ok_memset_bytes { forall a: fill; post a.ret == 16843009; }
tuple bad_memset_bytes { forall a: fill; post a.ret == 1; }
tuple ok_memcmp_eq { forall a: same_arrays; post a.ret == 0; }
tuple ok_memcmp_det { forall a: cmp_ints, b: cmp_ints; pre a.x == b.x && a.y == b.y; post a.ret == b.ret; }
tuple ok_memcmp_sign { forall a: cmp_ints; pre a.x < a.y; post a.ret < 0; }
tuple bad_memcmp_order { forall a: cmp_wide; pre a.x > a.y && a.y >= 0; post a.ret > 0; }
tuple ok_strlen { forall a: len3, b: len3; pre a.c == b.c; post a.ret == b.ret; }
tuple ok_strlen_val { forall a: len3; pre a.c != 0; post a.ret == 3; }
tuple bad_strlen_val { forall a: len3; post a.ret == 3; }
tuple ok_strcmp { forall a: cmp_str; pre a.x == a.y; post a.ret == 0; }
tuple bad_strcmp { forall a: cmp_str; post a.ret == 0; }
tuple ok_strncmp { forall a: ncmp_str; post a.ret == 0; }
tuple ok_strcpy { forall a: copy_str; pre a.c != 0; post a.ret == 2; }
tuple bad_strcpy_overflow { forall a: copy_str_small; post a.ret == 0; }
tuple ok_strlen_param { forall a: plen, b: plen; pre a.s != 0 && b.s != 0 && a.s[0] == b.s[0] && a.s[0] == 0; post a.ret == b.ret; }
tuple bad_strncmp { forall a: ncmp3; post a.ret == 0; }
tuple bad_memmove { forall a: shift; post a.ret == 0; }
tuple ok_cp_param { forall a: cp, b: cp;
  pre a.dst != 0 && b.dst != 0 && a.src != 0 && b.src != 0 && a.n == b.n && a.n >= 0 && a.n <= 3
      && (forall i: int :: a.src[i] == b.src[i]);
  post forall i: int :: (0 <= i && i < a.n) ==> a.dst[i] == b.dst[i]; }
tuple bad_cp_param { forall a: cp, b: cp;
  pre a.dst != 0 && b.dst != 0 && a.src != 0 && b.src != 0 && a.n == b.n && a.n >= 0 && a.n <= 3
      && (forall i: int :: a.src[i] == b.src[i]);
  post forall i: int :: (0 <= i && i <= a.n) ==> a.dst[i] == b.dst[i]; }
tuple bad_cp_null { forall a: cp; pre a.n == 1; post 1 == 1; }
tuple ok_strcmp_param { forall a: eqs, b: eqs;
  pre a.s != 0 && a.t != 0 && b.s != 0 && b.t != 0 && a.s[0] == 0
      && (forall i: int :: a.s[i] == b.s[i] && a.t[i] == b.t[i]);
  post a.ret == b.ret; }
tuple ok_struct_copy { forall a: copy_points; post a.ret == 7; }
*/

int copy4(int x) {
  int a[4] = {x, 2, 3, 4};
  int b[4];
  memcpy(b, a, 4 * sizeof(int));
  return b[0] == x && b[3] == 4;
}

int copy4_last(int x) {
  int a[4] = {x, 2, 3, 4};
  int b[4] = {0};
  memcpy(b, a, 3 * sizeof(int));
  return b[3];
}

int copy_n(int x, int n) {
  int a[4] = {x, x, x, x};
  int b[4];
  memcpy(b, a, n * sizeof(int));
  return b[n - 1];
}

int copy_past(int x) {
  int a[4] = {x, 2, 3, 4};
  int b[4];
  memcpy(b, a, 5 * sizeof(int));
  return b[0];
}

int shift(void) {
  int a[5] = {1, 2, 3, 4, 5};
  memmove(a + 1, a, 4 * sizeof(int));
  return a[1] == 1 && a[2] == 2 && a[4] == 4;
}

int overlap(void) {
  int a[5] = {1, 2, 3, 4, 5};
  memcpy(a + 1, a, 4 * sizeof(int));
  return 1;
}

int clear(int x) {
  int a[3] = {x, x, x};
  memset(a, 0, sizeof(a));
  return a[0] + a[1] + a[2];
}

int fill(void) {
  int a[2];
  memset(a, 1, sizeof a);
  return a[1];
}

int same_arrays(int x) {
  char a[3] = {1, 2, 3};
  char b[3] = {1, 2, 3};
  return memcmp(a, b, 3);
}

int cmp_ints(unsigned char x, unsigned char y) {
  int a[1] = {x};
  int b[1] = {y};
  return memcmp(a, b, sizeof(int));
}

unsigned long len3(char c) {
  char s[5] = {'a', 'b', c, 0, 'z'};
  return strlen(s);
}

int cmp_str(char x, char y) {
  char s[3] = {'a', x, 0};
  char t[3] = {'a', y, 0};
  return strcmp(s, t);
}

int ncmp_str(char x, char y) {
  char s[4] = {'a', 'b', x, 0};
  char t[4] = {'a', 'b', y, 0};
  return strncmp(s, t, 2);
}

unsigned long copy_str(char c) {
  char s[3] = {c, c, 0};
  char d[8];
  strcpy(d, s);
  return strlen(d);
}

int copy_str_small(char c) {
  char s[4] = {'a', 'b', 'c', 0};
  char d[2];
  strcpy(d, s);
  return 0;
}

unsigned long plen(char *s) {
  return strlen(s);
}

int cmp_wide(int x, int y) {
  return memcmp(&x, &y, sizeof x);
}

int ncmp3(void) {
  char s[4] = {'a', 'b', 'c', 0};
  char t[4] = {'a', 'b', 'd', 0};
  return strncmp(s, t, 3);
}

void cp(int *dst, int *src, int n) { memcpy(dst, src, n * sizeof(int)); }

int eqs(char *s, char *t) { return strcmp(s, t); }

struct pt { int x; int y; };

int copy_points(void) {
  struct pt p[2] = {{1, 2}, {3, 4}};
  struct pt q[2];
  memcpy(q, p, sizeof p);
  return q[0].x + q[1].x + q[0].y - q[1].y + 5;
}

/* String literals as arguments of the str* functions (tuples after the definitions, so that
   the lines above keep their numbers). */
int cmp_lit(char c) {
  char s[3] = {'a', c, 0};
  return strcmp(s, "ab");
}

int ncmp_lit(char c) {
  char s[4] = {'a', 'b', c, 0};
  return strncmp(s, "abz", 2);
}

int ncmp_lit3(char c) {
  char s[4] = {'a', 'b', c, 0};
  return strncmp("abz", s, 3);
}

unsigned long len_lit(void) { return strlen("a\tb\x41") + strlen("x\0yz"); }

int lits(void) { return strcmp("a\n", "ab"); }

/*@forex
tuple ok_strcmp_lit { forall a: cmp_lit; pre a.c == 'b'; post a.ret == 0; }
tuple bad_strcmp_lit { forall a: cmp_lit; post a.ret == 0; }
tuple ok_strcmp_lit_sign { forall a: cmp_lit; pre a.c == 'c'; post a.ret == 1; }
tuple ok_strncmp_lit { forall a: ncmp_lit; post a.ret == 0; }
tuple bad_strncmp_lit { forall a: ncmp_lit3; post a.ret == 0; }
tuple ok_strlen_lit { forall a: len_lit; post a.ret == 5; }
tuple ok_lits { forall a: lits; post a.ret == -88; }
*/
