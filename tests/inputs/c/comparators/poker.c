/* A poker-hand-like comparator: count the ranks of each hand into local arrays, then
 * compare the counts from the highest rank down. */
/*@forex
tuple ok_hand_anti { forall a: hand_cmp, b: hand_cmp;
  pre a.h == b.g && a.g == b.h
    && (forall k: int :: 0 <= k && k < 5 ==> 0 <= a.h[k] && a.h[k] < 13 && 0 <= a.g[k] && a.g[k] < 13);
  post (a.ret > 0 <==> b.ret < 0) && (a.ret < 0 <==> b.ret > 0); }
tuple ok_hand_trans { forall a: hand_cmp, b: hand_cmp, c: hand_cmp;
  pre a.g == b.h && a.h == c.h && b.g == c.g
    && (forall k: int :: 0 <= k && k < 5 ==> 0 <= a.h[k] && a.h[k] < 13 && 0 <= a.g[k] && a.g[k] < 13
         && 0 <= b.g[k] && b.g[k] < 13);
  post (a.ret > 0 && b.ret > 0) ==> c.ret > 0; }
*/

int hand_cmp(int h[5], int g[5]) {
  int ch[13] = {0};
  int cg[13] = {0};
  for (int i = 0; i < 5; i++) {
    ch[h[i]]++;
    cg[g[i]]++;
  }
  for (int r = 12; r >= 0; r--) {
    if (ch[r] < cg[r]) return -1;
    if (ch[r] > cg[r]) return 1;
  }
  return 0;
}
