#!/usr/bin/env bash
# Long differential soundness hunts against the brute-force oracle (not part of
# `cargo test`, which runs 500-case versions of the same properties):
#   - 10,000 random loop-free bit-vector tuples: the prover says `verified` exactly
#     when the tuple is valid;
#   - 3,000 random tuples with loops: no engine contradicts the oracle.
# Takes about 10–15 minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test it -- --ignored \
  oracle::differential::prover_verifies_exactly_the_valid_loop_free_tuples_10k \
  oracle::differential::engines_are_sound_with_loops_3k
