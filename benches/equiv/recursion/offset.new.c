// expect: verified
int f(int n) { if (n <= 1) return n < 0 ? 0 : n; return n + f(n - 1); }
