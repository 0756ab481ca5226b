//! The ForEx prover: parametric strongest postconditions (genpp), loop alignment by an
//! invariant/counter lattice, and ∀∃∀ queries to Z3. (Stub: issue "Prove".)

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::verdict::{Engine, Outcome, Stats, Verdict};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug, Default)]
pub struct ProveOptions {
    /// Record candidates tried per loop point in the proof (`--explain`).
    pub explain: bool,
    /// Write every SMT query as SMT-LIB into this folder (`--dump-smt`).
    pub dump_smt: Option<PathBuf>,
}

/// Tries to prove `tuple` valid. The deadline and cancellation come with `cancel`.
pub fn prove(_tuple: &Tuple, _opts: &ProveOptions, _cancel: &Cancel) -> Outcome {
    let start = Instant::now();
    Outcome {
        verdict: Verdict::Unknown { reason: "the prover is not implemented yet".into() },
        engine: Engine::Prove,
        time: start.elapsed(),
        stats: Stats::default(),
    }
}
