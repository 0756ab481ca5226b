// expect: violated
int f(int n) { if (n <= 1) return n; return n + f(n - 1); }
