// Machine-model-only checks (bitwise operators need a width): tests/it/frontend/c_semantics.rs.
/*@forex tuple det = deterministic(shifts, in: [x], out: [ret]); */
int shifts(int x) {
  unsigned u = x;
  return (x >> 1) + (int)(u >> 28) + (1 << 4);
}
