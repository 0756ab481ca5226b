/* Words compared character by character, stopping at the first difference or the end. */
/*@forex
tuple ok_word_anti { forall a: word_cmp, b: word_cmp;
  pre a.n == b.n && a.n >= 0 && a.s == b.t && a.t == b.s;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_word_trans { forall a: word_cmp, b: word_cmp, c: word_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.t == b.s && a.s == c.s && b.t == c.t;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple ok_diff_anti { forall a: diff_cmp, b: diff_cmp;
  pre a.n == b.n && a.n >= 0 && a.s == b.t && a.t == b.s;
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_diff_trans { forall a: diff_cmp, b: diff_cmp, c: diff_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.t == b.s && a.s == c.s && b.t == c.t;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
tuple bad_nocase_trans { forall a: nocase_cmp, b: nocase_cmp, c: nocase_cmp;
  pre a.n == b.n && a.n == c.n && a.n >= 0 && a.t == b.s && a.s == c.s && b.t == c.t;
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
*/

int word_cmp(int n, char s[n], char t[n]) {
  for (int i = 0; i < n; i++) {
    if (s[i] < t[i]) return -1;
    if (s[i] > t[i]) return 1;
    if (s[i] == 0) return 0;
  }
  return 0;
}

/* The difference of the first differing characters, as strcmp returns. */
int diff_cmp(int n, char s[n], char t[n]) {
  int i = 0;
  while (i < n && s[i] != 0 && s[i] == t[i]) i++;
  if (i == n) return 0;
  return s[i] - t[i];
}

/* Buggy: a "case-insensitive" compare that folds only one side's letters. */
int nocase_cmp(int n, char s[n], char t[n]) {
  for (int i = 0; i < n; i++) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = c + 32;
    if (c < t[i]) return -1;
    if (c > t[i]) return 1;
  }
  return 0;
}
