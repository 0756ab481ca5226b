// expect: verified
int mc(int n) {
  if (n <= 100) {
    int t = mc(n + 11);
    return mc(t);
  }
  return n - 10;
}
