/* Comparators over structs' fields in priority order, and ones that count first. */
struct item { int prio; int id; int size; };

/*@forex
tuple ok_item_anti { forall a: item_cmp, b: item_cmp;
  pre a.p == b.q && a.q == b.p;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_item_trans { forall a: item_cmp, b: item_cmp, c: item_cmp;
  pre a.q == b.p && a.p == c.p && b.q == c.q;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple bad_skew_anti { forall a: skew_cmp, b: skew_cmp;
  pre a.p == b.q && a.q == b.p;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_count_anti { forall a: count_cmp, b: count_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_count_trans { forall a: count_cmp, b: count_cmp, c: count_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.y == b.x && a.x == c.x && b.y == c.y;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple ok_count2_anti { forall a: count2_cmp, b: count2_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_count2_trans { forall a: count2_cmp, b: count2_cmp, c: count2_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.y == b.x && a.x == c.x && b.y == c.y;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple bad_countge_anti { forall a: countge_cmp, b: countge_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
*/

int item_cmp(struct item p, struct item q) {
  if (p.prio < q.prio) return -1;
  else if (p.prio > q.prio) return 1;
  else if (p.id != q.id) return p.id < q.id ? -1 : 1;
  if (p.size < q.size) return -1;
  if (p.size > q.size) return 1;
  return 0;
}

/* Buggy: ties on priority are broken by the first argument's id alone. */
int skew_cmp(struct item p, struct item q) {
  if (p.prio < q.prio) return -1;
  if (p.prio > q.prio) return 1;
  if (p.id > 0) return 1;
  return 0;
}

/* Counts the positive elements of each array, then compares the counts. */
int count_cmp(int n, int x[n], int y[n]) {
  int ca = 0;
  int cb = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) ca++;
    if (y[i] > 0) cb++;
  }
  return ca - cb;
}

/* The same with one loop per array. */
int count2_cmp(int n, int x[n], int y[n]) {
  int ca = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0) ca++;
  int cb = 0;
  for (int j = 0; j < n; j++)
    if (y[j] > 0) cb++;
  if (ca < cb) return -1;
  if (ca > cb) return 1;
  return 0;
}

/* Buggy: `>=` counts zeros in one array and not in the other. */
int countge_cmp(int n, int x[n], int y[n]) {
  int ca = 0;
  int cb = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] >= 0) ca++;
    if (y[i] > 0) cb++;
  }
  return ca - cb;
}
