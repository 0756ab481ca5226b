//! The refuter: bounded ∀∃ symbolic execution that finds concrete, replayed
//! counterexamples. (Stub: issue "Refute".)

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::verdict::{Engine, Outcome, Stats, Verdict};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct RefuteOptions {
    /// Largest loop-unrolling bound tried.
    pub max_unroll: u32,
}

impl Default for RefuteOptions {
    fn default() -> Self {
        RefuteOptions { max_unroll: 8 }
    }
}

/// Tries to show `tuple` invalid with a replayed counterexample.
pub fn refute(_tuple: &Tuple, _opts: &RefuteOptions, _cancel: &Cancel) -> Outcome {
    let start = Instant::now();
    Outcome {
        verdict: Verdict::Unknown { reason: "the refuter is not implemented yet".into() },
        engine: Engine::Refute,
        time: start.elapsed(),
        stats: Stats::default(),
    }
}

pub mod exists;

/// Re-checks a counterexample against `tuple`: replays the ∀ copies concretely with its
/// initial values and choices, compares their final states, and re-proves that no ∃ run
/// matches. `Ok(())` only when all of that holds.
pub fn replay_counterexample(
    _tuple: &Tuple,
    _cex: &crate::verdict::Counterexample,
    _cancel: &Cancel,
) -> Result<(), String> {
    Err("counterexample replay is not implemented yet".into())
}
