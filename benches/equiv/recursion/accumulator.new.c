// expect: verified
int tri(int n, int acc) { if (n <= 0) return acc; return n + tri(n - 1, acc); }
