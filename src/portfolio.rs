//! Runs prover and refuter on one tuple concurrently; the first definitive answer wins
//! and the other engine is cancelled. (Stub: issue "Refute" makes it concurrent.)

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::prove::{prove, ProveOptions};
use crate::refute::{refute, RefuteOptions};
use crate::verdict::Outcome;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EngineChoice {
    Prove,
    Refute,
    #[default]
    Both,
}

#[derive(Clone, Debug)]
pub struct DecideOptions {
    pub engine: EngineChoice,
    /// Wall-clock limit for the tuple.
    pub timeout: Duration,
    pub prove: ProveOptions,
    pub refute: RefuteOptions,
}

impl Default for DecideOptions {
    fn default() -> Self {
        DecideOptions {
            engine: EngineChoice::Both,
            timeout: Duration::from_secs(60),
            prove: ProveOptions::default(),
            refute: RefuteOptions::default(),
        }
    }
}

/// Decides one tuple with the chosen engines under `opts.timeout` and `cancel`.
pub fn decide(tuple: &Tuple, opts: &DecideOptions, cancel: &Cancel) -> Outcome {
    let cancel = cancel.with_timeout(opts.timeout);
    match opts.engine {
        EngineChoice::Prove => prove(tuple, &opts.prove, &cancel),
        EngineChoice::Refute => refute(tuple, &opts.refute, &cancel),
        EngineChoice::Both => {
            let proved = prove(tuple, &opts.prove, &cancel);
            if proved.verdict.is_definitive() {
                return proved;
            }
            refute(tuple, &opts.refute, &cancel)
        }
    }
}
