// expect: verified
int ack(int m, int n) {
  if (m != 0 && n != 0) {
    int inner = ack(m, n - 1);
    return ack(m - 1, inner);
  }
  return m == 0 ? 1 + n : ack(m - 1, 1);
}
