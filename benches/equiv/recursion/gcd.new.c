// expect: verified
int gcd(int a, int b) {
  if (a < b) return gcd(a, b - a);
  if (a > b) return gcd(a - b, b);
  return b;
}
