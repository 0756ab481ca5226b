/* Globals, static locals, structs and pointers (tests/it/frontend/c_memory.rs): each
 * tuple's name says the verdict it must get (`ok_…` verified, `bad_…` violated). */
#include <stdlib.h>

/*@forex
tuple ok_global = deterministic(bump, in: [x, total], out: [ret, total]);
tuple bad_global = deterministic(bump, in: [x], out: [ret]);
tuple ok_static = deterministic(next, in: [n], out: [ret]);
tuple bad_static = deterministic(next, in: [], out: [ret]);
tuple ok_main { forall a: main; post a.ret == 6; }
tuple bad_main { forall a: main; post a.ret == 5; }

tuple ok_struct { forall a: withdraw, b: withdraw;
  pre a.acc == b.acc && a.amount == b.amount; post a.ret == b.ret; }
tuple bad_struct { forall a: withdraw, b: withdraw;
  pre a.acc.balance == b.acc.balance && a.amount == b.amount; post a.ret == b.ret; }
tuple ok_nested { forall a: width, b: width;
  pre a.s.lo.x == b.s.lo.x && a.s.hi.x == b.s.hi.x; post a.ret == b.ret; }
tuple bad_nested { forall a: width, b: width;
  pre a.s.lo.x == b.s.lo.x && a.s.hi.y == b.s.hi.y; post a.ret == b.ret; }
tuple ok_points { forall a: centroid_x; post a.ret == 3; }
tuple bad_points { forall a: centroid_x; post a.ret == 4; }
tuple ok_copy { forall a: copy_back; post a.ret == a.v; }

tuple ok_out = deterministic(sum_by_ptr, in: [x, y], out: [ret]);
tuple ok_swap { forall a: use_swap; post a.ret == a.y0 - a.x0; }
tuple bad_swap { forall a: use_swap; post a.ret == a.x0 - a.y0; }
tuple ok_param { forall a: twice, b: twice;
  pre a.v == b.v && a.out != 0 && b.out != 0; post *a.out == *b.out; }
tuple bad_param_null { forall a: twice, b: twice; pre a.v == b.v; post a.ret == b.ret; }
tuple ok_guarded { forall a: guarded, b: guarded; pre a.v == b.v; post a.ret == b.ret; }
tuple ok_member_ptr { forall a: deposit, b: deposit;
  pre a.acc != 0 && b.acc != 0 && a.acc->balance == b.acc->balance && a.n == b.n;
  post a.acc->balance == b.acc->balance; }
tuple ok_array_ptr { forall a: local_sum; post a.ret == 10; }
tuple bad_array_ptr { forall a: local_sum; post a.ret == 11; }
tuple ok_arith { forall a: second; post a.ret == 2; }
tuple bad_oob { forall a: past_end; post a.ret == 0; }
tuple ok_heap { forall a: heap; post a.ret == a.x + 1; }
tuple bad_use_after_free { forall a: after_free; post a.ret == a.x; }
tuple bad_double_free { forall a: double_free; post a.ret == 0; }
tuple ok_calloc { forall a: zeroed; post a.ret == 0; }
tuple ok_assert { forall a: checked; pre a.x > 0 && a.x < 1000; post a.ret > 0; }
tuple bad_assert { forall a: checked; pre a.x < 1000; post 1 == 1; }
tuple ok_comma { forall a: comma; post a.ret == a.x + 1; }
*/

int total;
int bump(int x) {
  total += x;
  return total;
}

int next(void) {
  static int n;
  n++;
  return n;
}

int g = 5;
int main(void) {
  g = g + 1;
  return g;
}

typedef struct { int balance; int limit; } Account;

int withdraw(Account acc, int amount) {
  if (amount <= acc.balance + acc.limit) {
    acc.balance -= amount;
  }
  return acc.balance;
}

struct point { int x; int y; };
struct seg { struct point lo, hi; };

int width(struct seg s) {
  struct seg t = s;
  return t.hi.x - t.lo.x;
}

int centroid_x(void) {
  struct point pts[3] = {{1, 9}, {3, 9}, {5, 9}};
  int sx = 0;
  for (int i = 0; i < 3; i++) sx += pts[i].x;
  return sx / 3;
}

struct point make(int v) {
  struct point p = {v, -v};
  return p;
}

int copy_back(int v) {
  struct point p = make(v);
  struct point q;
  q = p;
  return q.x;
}

void add_to(int *out, int a, int b) { *out = a + b; }

int sum_by_ptr(int x, int y) {
  int s;
  add_to(&s, x, y);
  return s;
}

void swap(int *p, int *q) {
  int t = *p;
  *p = *q;
  *q = t;
}

int use_swap(int x0, int y0) {
  int x = x0, y = y0;
  swap(&x, &y);
  return x - y;
}

int twice(int *out, int v) {
  *out = v * 2;
  return *out;
}

int guarded(int *out, int v) {
  if (out != NULL) *out = v;
  return v;
}

void deposit(Account *acc, int n) { acc->balance += n; }

int total_of(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

int local_sum(void) {
  int xs[4] = {1, 2, 3, 4};
  return total_of(xs, 4);
}

int second(void) {
  int xs[3] = {1, 2, 3};
  int *p = xs;
  p = p + 1;
  return *p;
}

int past_end(void) {
  int xs[2] = {0, 0};
  int *p = &xs[1];
  p++;
  return *p;
}

int heap(int x) {
  int *p = malloc(sizeof(int));
  *p = x + 1;
  int r = *p;
  free(p);
  return r;
}

int after_free(int x) {
  int *p = (int *)malloc(sizeof(int));
  *p = x;
  free(p);
  return *p;
}

int double_free(void) {
  int *p = malloc(2 * sizeof(int));
  free(p);
  free(p);
  return 0;
}

int zeroed(void) {
  int *p = calloc(4, sizeof(int));
  int r = p[3];
  free(p);
  return r;
}

int checked(int x) {
  if (x <= 0) {
    assert(0);
  }
  return x;
}

int comma(int x) {
  int y = (x++, x + 1);
  (void)y;
  return y;
}
