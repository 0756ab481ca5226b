/* Lexicographic comparators over arrays that return at the first differing element. */
/*@forex
tuple ok_lex_anti { forall a: lex_cmp, b: lex_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_lex_trans { forall a: lex_cmp, b: lex_cmp, c: lex_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.y == b.x && a.x == c.x && b.y == c.y;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple ok_len_anti { forall a: len_cmp, b: len_cmp;
  pre a.la == b.lb && a.lb == b.la && a.la >= 0 && a.lb >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_len_trans { forall a: len_cmp, b: len_cmp, c: len_cmp;
  pre a.la >= 0 && a.lb >= 0 && b.lb >= 0
    && a.lb == b.la && a.la == c.la && b.lb == c.lb
    && a.y == b.x && a.x == c.x && b.y == c.y;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple ok_while_anti { forall a: while_cmp, b: while_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_while_trans { forall a: while_cmp, b: while_cmp, c: while_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.y == b.x && a.x == c.x && b.y == c.y;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple bad_tie_anti { forall a: tie_cmp, b: tie_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple bad_le_anti { forall a: le_cmp, b: le_cmp;
  pre a.n == b.n && a.n >= 0 && a.x == b.y && a.y == b.x;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_le_trans { forall a: le_cmp, b: le_cmp, c: le_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.y == b.x && a.x == c.x && b.y == c.y;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
*/

int lex_cmp(int n, int x[n], int y[n]) {
  for (int i = 0; i < n; i++) {
    if (x[i] < y[i]) return -1;
    if (x[i] > y[i]) return 1;
  }
  return 0;
}

/* ArrayInt-like: the shorter array first, then element by element. */
int len_cmp(int la, int x[la], int lb, int y[lb]) {
  if (la < lb) return -1;
  if (la > lb) return 1;
  for (int i = 0; i < la; i++) {
    if (x[i] != y[i]) {
      if (x[i] < y[i]) return -1;
      else return 1;
    }
  }
  return 0;
}

int while_cmp(int n, int x[n], int y[n]) {
  int i = 0;
  while (i < n) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    i++;
  }
  return 0;
}

/* Buggy: equal arrays compare as greater both ways (not antisymmetric). */
int tie_cmp(int n, int x[n], int y[n]) {
  for (int i = 0; i < n; i++) {
    if (x[i] < y[i]) return -1;
    if (x[i] > y[i]) return 1;
  }
  return 1;
}

/* Buggy: `<=` where `<` was meant: equal elements say "less" both ways. */
int le_cmp(int n, int x[n], int y[n]) {
  for (int i = 0; i < n; i++) {
    if (x[i] <= y[i]) return -1;
    if (x[i] > y[i]) return 1;
  }
  return 0;
}
