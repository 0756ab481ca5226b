// expect: violated
int tri(int n, int acc) { if (n <= 0) return acc; return tri(n - 1, acc + n); }
