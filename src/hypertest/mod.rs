//! Hypertesting: fuzzing and hypercoverage-guided evolutionary search for violations.
//! Never concludes `verified`. (Stub: issue "Test".)

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::verdict::{Engine, Outcome, Stats, Verdict};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Strategy {
    /// HyperFuzz: random generation.
    Fuzz,
    /// HyperEvo: many-objective evolutionary search over hypercoverage goals.
    #[default]
    Evo,
}

#[derive(Clone, Debug)]
pub struct TestOptions {
    pub strategy: Strategy,
    pub budget: Duration,
    pub seed: u64,
}

impl Default for TestOptions {
    fn default() -> Self {
        TestOptions { strategy: Strategy::Evo, budget: Duration::from_millis(2000), seed: 0 }
    }
}

/// Searches for a violation of `tuple` within the budget.
pub fn hypertest(_tuple: &Tuple, _opts: &TestOptions, _cancel: &Cancel) -> Outcome {
    let start = Instant::now();
    Outcome {
        verdict: Verdict::Unknown { reason: "hypertesting is not implemented yet".into() },
        engine: Engine::Test,
        time: start.elapsed(),
        stats: Stats::default(),
    }
}
