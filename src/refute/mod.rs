//! The refuter: bounded ∀∃ symbolic execution that finds concrete, replayed
//! counterexamples (the lazy algorithm of Correnson, Nießen, Finkbeiner and
//! Weissenbacher, OOPSLA 2024, as described in ../shared/DESIGN.md §3).
//!
//! For a growing loop bound k, the ∀ copies' symbolic paths are enumerated one at a
//! time (their product; infeasible prefixes are pruned by the solver as soon as a branch
//! is taken). At the end of each ∀ path, the ∃ copies are encoded completely: "no
//! explored ∃ path satisfies post, and no ∃ path reaches the bound" (the second half
//! makes the first mean "no terminating ∃ run"). One SMT query per ∀ path then asks for
//! initial values and ∀ choices satisfying `pre`, the path condition and that formula.
//! A model becomes a [`Counterexample`], which is replayed concretely (interpreter for
//! the ∀ copies, [`exists::exists_run`] for the ∃ side) before `violated` is reported.

use crate::cancel::Cancel;
use crate::ir::{Tuple, VarId};
use crate::verdict::{Counterexample, Engine, Outcome, Stats, UnknownReason, Verdict};
use std::time::{Duration, Instant};

mod cex;
pub mod exists;
mod replay;

pub use replay::replay_counterexample;

#[derive(Clone, Debug)]
pub struct RefuteOptions {
    /// Largest loop-unrolling bound tried.
    pub max_unroll: u32,
    /// Time limit of one SMT query; an undecided query gives that path no verdict.
    pub query_timeout: Duration,
    /// Largest number of symbolic paths (∀ and ∃) explored at one bound; beyond it the
    /// search stops deepening.
    pub max_paths: u64,
    /// `--dump-smt`: write every SMT check of the refuter into this folder.
    pub dump_smt: Option<std::path::PathBuf>,
}

impl RefuteOptions {
    /// The exploration limits these options set.
    pub fn limits(&self) -> crate::symex::Limits {
        crate::symex::Limits { query_limit: self.query_timeout, max_paths: self.max_paths }
    }
}

impl Default for RefuteOptions {
    fn default() -> Self {
        RefuteOptions {
            max_unroll: 8,
            query_timeout: Duration::from_secs(2),
            max_paths: 2_000,
            dump_smt: None,
        }
    }
}

/// Tries to show `tuple` invalid with a replayed counterexample.
pub fn refute(tuple: &Tuple, opts: &RefuteOptions, cancel: &Cancel) -> Outcome {
    if tuple.is_reactive() {
        return crate::reactive::refute(tuple, cancel);
    }
    let start = Instant::now();
    let mut stats = Stats::default();
    let verdict = search(tuple, opts, cancel, &mut stats);
    Outcome { verdict, engine: Engine::Refute, time: start.elapsed(), stats }
}

/// What one round (one loop bound) of the search found.
enum Round {
    /// A counterexample from a model (not yet replayed).
    Found(Box<Counterexample>),
    /// No counterexample at this bound.
    None {
        /// Some ∀ or ∃ path reached the bound: a larger bound may find more.
        bound_hit: bool,
        /// A reason when some query was undecided (then "none" is not exhaustive).
        unknown: Option<String>,
    },
    /// The path budget ran out.
    TooManyPaths,
    /// The model could not be turned into concrete values.
    Unreadable(String),
    Cancelled,
}

fn search(tuple: &Tuple, opts: &RefuteOptions, cancel: &Cancel, stats: &mut Stats) -> Verdict {
    let mut last_unknown = None;
    let mut bound_hit = false;
    let mut last_bound = 0;
    let mut last_bound_done = 0;
    for bound in exists::bound_schedule(opts.max_unroll) {
        last_bound = bound;
        match cex::round(tuple, bound, opts, cancel, stats) {
            Round::Found(cex) => {
                return match replay_counterexample(tuple, &cex, cancel) {
                    Ok(()) => Verdict::Violated { counterexample: *cex },
                    Err(why) => unknown(UnknownReason::ReplayFailed(format!(
                        "a counterexample candidate did not replay concretely ({why}); not \
                         reporting it"
                    ))),
                };
            }
            Round::Unreadable(why) => return unknown(UnknownReason::Internal(why)),
            Round::Cancelled => {
                return unknown(UnknownReason::Cancelled(format!(
                    "timed out or cancelled at loop bound {bound} without a counterexample"
                )))
            }
            Round::TooManyPaths => {
                let searched = if last_bound_done == 0 {
                    String::new()
                } else {
                    format!("no counterexample up to loop bound {last_bound_done}; ")
                };
                return unknown(UnknownReason::PathLimit(format!(
                    "{searched}at loop bound {bound} the copies have more than {} symbolic \
                     paths",
                    opts.max_paths
                )));
            }
            Round::None { bound_hit: hit, unknown } => {
                bound_hit = hit;
                last_bound_done = bound;
                if unknown.is_some() {
                    last_unknown = unknown;
                }
                // Deeper rounds re-ask the undecided queries (and more): stop here.
                if !hit || last_unknown.is_some() {
                    break;
                }
            }
        }
    }
    let reason = match (last_unknown, bound_hit) {
        (Some(u), _) => UnknownReason::SolverUnknown(format!(
            "no counterexample found up to loop bound {last_bound}; some paths were \
             undecided by the solver ({u})"
        )),
        (None, true) => UnknownReason::BoundReached(format!(
            "no counterexample with loops unrolled up to {last_bound} times (raise the \
             unrolling bound to search further)"
        )),
        (None, false) => UnknownReason::SearchExhausted(format!(
            "no counterexample; the search covered every run (every loop exits within \
             {last_bound} iterations)"
        )),
    };
    unknown(reason)
}

/// The refuter's `unknown`, labelled "refuter: ".
fn unknown(reason: UnknownReason) -> Verdict {
    Verdict::Unknown { reason: reason.from_engine(Engine::Refute) }
}

/// Names a tuple variable's copy and variable for counterexample maps.
fn var_name(tuple: &Tuple, v: VarId) -> String {
    tuple.var(v).name.clone()
}

#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;
