//! forex's integration tests: one test crate, one module per layer.
//!
//! - `frontend`: parsing, checking, diagnostics (snapshots), IR invariants, `.fe` printing;
//! - `engines`: prover, refuter, hypertesting and the portfolio on examples and hand-made
//!   tuples, the soundness audit;
//! - `cli`: the `forex` binary (check, run, test, prove, refute) and its reports;
//! - `oracle`: the brute-force oracle, the random tuple generator, differential soundness
//!   hunts (the long ones are `#[ignore]`d and run by `scripts/soundness.sh`);
//! - `benchmarks`: the ForEx benchmark suite next to the project (`../shared`), skipped
//!   with a notice when absent.
//!
//! `common` holds the shared support: the oracle, generators, an IR builder, and the one
//! discovery of the examples and benchmark folders.

mod common;

mod architecture;
mod benchmarks;
mod cli;
mod engines;
mod frontend;
mod oracle;
mod reactive;
