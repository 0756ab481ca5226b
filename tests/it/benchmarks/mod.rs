//! The ForEx benchmark suite (`../shared/benchmarks/forex`, EXPECTED.tsv).

mod forex_load;
mod hypertest;
mod prove_suite;
mod refute_hypro;
