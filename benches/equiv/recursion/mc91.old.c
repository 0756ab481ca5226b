// expect: verified
int mc(int n) { if (n > 100) return n - 10; return mc(mc(n + 11)); }
