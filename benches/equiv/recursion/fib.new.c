// expect: verified
int fib(int n) {
  if (n >= 2) {
    int b = fib(n - 2);
    return fib(n - 1) + b;
  }
  return n;
}
