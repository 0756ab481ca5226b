// expect: violated
int f(int n) { if (n <= 1) return n; return f(n - 1) + n; }
