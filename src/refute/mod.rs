//! The refuter: bounded ∀∃ symbolic execution that finds concrete, replayed
//! counterexamples (the lazy algorithm of Correnson, Nießen, Finkbeiner and
//! Weissenbacher, OOPSLA 2024, as described in ../shared/DESIGN.md §3).
//!
//! For a growing loop bound k (1, 2, 4, …: iterative deepening, up to `--unroll` if
//! given, else until the time limit or the path budget), the ∀ copies' symbolic paths
//! are enumerated one at a time (their product; infeasible prefixes are pruned by the
//! solver as soon as a branch is taken; iterations whose exit is impossible are stepped
//! without branching). At the end of each ∀ path, the ∃ copies are encoded completely:
//! "no explored ∃ path satisfies post", where ∃ loops longer than k continue through a
//! sound summary, so the explored paths cover every terminating ∃ run. One SMT query per
//! ∀ path then asks for initial values and ∀ choices satisfying `pre`, the path
//! condition and that formula. A model becomes a [`Counterexample`], which is replayed
//! concretely (interpreter for the ∀ copies, [`exists::exists_run`] with the same
//! summaries for the ∃ side) before `violated` is reported.
//!
//! When a round explored every ∀ run (no ∀ loop can run past k, no query undecided, the
//! path budget not hit) and each ∀ path is covered by exact (unsummarised) ∃ runs
//! satisfying `post`, the search is a proof: `verified`, with the bound in the
//! [`Proof`].

use crate::cancel::Cancel;
use crate::ir::{Tuple, VarId};
use crate::verdict::{
    Counterexample, Engine, ExhaustiveSearch, Outcome, Proof, Stats, UnknownReason, Verdict,
};
use std::time::{Duration, Instant};

pub mod certify;
mod cex;
pub mod exists;
mod replay;
mod rounds;
pub mod temporal;

pub use replay::replay_counterexample;

#[derive(Clone, Debug)]
pub struct RefuteOptions {
    /// Largest loop-unrolling bound tried (`--unroll`); `None`: deepen until the time
    /// limit, the path budget or an exhaustive round stops the search.
    pub max_unroll: Option<u32>,
    /// Time limit of one SMT query; an undecided query gives that path no verdict.
    pub query_timeout: Duration,
    /// Largest number of symbolic paths (∀ and ∃) explored at one bound (`--max-paths`);
    /// beyond it the search stops deepening.
    pub max_paths: u64,
    /// `--dump-smt`: write every SMT check of the refuter into this folder.
    pub dump_smt: Option<std::path::PathBuf>,
    /// An exhaustive search's `verified` carries its obligations and ∃ strategy
    /// (`certify`; `--explain`, JSON, certificates), as the prover's `record` does.
    pub record: bool,
}

impl RefuteOptions {
    /// The default options with the unrolling bound fixed at `max_unroll` (`--unroll`):
    /// for callers that want the search to end on its own, without a time limit.
    pub fn bounded(max_unroll: u32) -> Self {
        RefuteOptions { max_unroll: Some(max_unroll), ..RefuteOptions::default() }
    }

    /// The exploration limits these options set.
    pub fn limits(&self) -> crate::symex::Limits {
        crate::symex::Limits { query_limit: self.query_timeout, max_paths: self.max_paths }
    }
}

impl Default for RefuteOptions {
    fn default() -> Self {
        RefuteOptions {
            max_unroll: None,
            query_timeout: Duration::from_secs(2),
            max_paths: 2_000,
            dump_smt: None,
            record: false,
        }
    }
}

/// Tries to show `tuple` invalid with a replayed counterexample.
pub fn refute(tuple: &Tuple, opts: &RefuteOptions, cancel: &Cancel) -> Outcome {
    crate::smt::session::guarded(Engine::Refute, cancel, || refute_guarded(tuple, opts, cancel))
}

fn refute_guarded(tuple: &Tuple, opts: &RefuteOptions, cancel: &Cancel) -> Outcome {
    let _scope =
        crate::smt::session::engine_scope(cancel, opts.dump_smt.as_ref(), &tuple.name, "refute");
    if tuple.is_reactive() {
        let mut outcome = crate::refute::temporal::refute(tuple, opts.max_unroll, cancel);
        recorded(tuple, opts, &mut outcome, cancel);
        return outcome;
    }
    let start = Instant::now();
    let mut stats = Stats::default();
    let verdict = search(tuple, opts, cancel, &mut stats);
    let mut outcome = Outcome { verdict, engine: Engine::Refute, time: start.elapsed(), stats };
    recorded(tuple, opts, &mut outcome, cancel);
    outcome
}

/// With `opts.record`, an exhaustive search's `verified` gets its obligations and ∃
/// strategy (`certify`), when every claim was confirmed within the time left (else a
/// certificate writes them later, saying what is missing).
fn recorded(tuple: &Tuple, opts: &RefuteOptions, outcome: &mut Outcome, cancel: &Cancel) {
    let Verdict::Verified { proof } = &mut outcome.verdict else { return };
    if !opts.record || !certify::is_exhaustive(proof) {
        return;
    }
    let start = Instant::now();
    let found = certify::obligations(tuple, proof, cancel);
    if found.missing.is_empty() {
        proof.recorded = found.recorded;
    }
    outcome.time += start.elapsed();
}

/// The refuter's one-check-per-query pass ([`crate::refute::temporal::refute_light`]): a
/// definitive outcome for loop-free reactive tuples whose ∃ choices the light
/// quantifier elimination removes, else `None`.
pub fn refute_light(tuple: &Tuple, opts: &RefuteOptions, cancel: &Cancel) -> Option<Outcome> {
    let _scope =
        crate::smt::session::engine_scope(cancel, opts.dump_smt.as_ref(), &tuple.name, "refute");
    let mut outcome = crate::refute::temporal::refute_light(tuple, cancel)?;
    recorded(tuple, opts, &mut outcome, cancel);
    Some(outcome)
}

/// What one round (one loop bound) of the search found.
enum Round {
    /// A counterexample from a model (not yet replayed).
    Found(Box<Counterexample>),
    /// No counterexample at this bound.
    None {
        /// Some ∀ path reached the bound: a larger bound may find more.
        bound_hit: bool,
        /// Some ∀ path was not shown covered by exact ∃ runs (only summaries or runs
        /// past the bound might match it): not exhaustive, a larger bound may help.
        uncovered: bool,
        /// A reason when some query was undecided (then "none" is not exhaustive).
        unknown: Option<String>,
        /// ∀ paths that ended (each one checked).
        forall_paths: u64,
    },
    /// The path budget ran out.
    TooManyPaths,
    /// The model could not be turned into concrete values.
    Unreadable(String),
    Cancelled,
}

/// The loop bounds of the deepening: 1, 2, 4, … up to `max` (included), or without end.
fn deepening(max: Option<u32>) -> Box<dyn Iterator<Item = u32>> {
    match max {
        Some(m) => Box::new(exists::bound_schedule(m.max(1)).into_iter()),
        None => Box::new(std::iter::successors(Some(1u32), |k| k.checked_mul(2))),
    }
}

/// A query limit four times `limit` for asking an undecided round again, capped at half
/// the time left; `None` when that is not longer than `limit` or no deadline is set (an
/// engine without a deadline keeps its limit: it would otherwise never give up).
fn longer_queries(limit: Duration, cancel: &Cancel) -> Option<Duration> {
    let longer = (limit * 4).min(cancel.remaining()? / 2);
    (longer > limit && !cancel.is_cancelled()).then_some(longer)
}

fn search(tuple: &Tuple, opts: &RefuteOptions, cancel: &Cancel, stats: &mut Stats) -> Verdict {
    let mut last_unknown = None;
    let mut incomplete = false;
    let mut last_bound_done = 0;
    let searched = |done: u32| {
        if done == 0 {
            String::new()
        } else {
            format!("no counterexample with loops unrolled up to {done} times; ")
        }
    };
    let mut rounds = rounds::Rounds::new(deepening(opts.max_unroll));
    let mut opts = opts.clone();
    while let Some((bound, merge_all)) = rounds.next_round() {
        let mut round = cex::round(tuple, bound, &opts, merge_all, cancel, stats);
        // Deeper rounds re-ask an undecided query and more, so the same round is asked
        // again with longer queries while the time left allows (a merged 2,000-branch
        // chain's query takes more than the first 2 s; the prover may have said it is
        // not valid, and only this search can show how).
        while let Round::None { unknown: Some(_), .. } = &round {
            let Some(longer) = longer_queries(opts.query_timeout, cancel) else { break };
            opts.query_timeout = longer;
            round = cex::round(tuple, bound, &opts, merge_all, cancel, stats);
        }
        if matches!(round, Round::TooManyPaths) && rounds.out_of_paths(bound) {
            continue;
        }
        match round {
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
                    "{}timed out or cancelled at loop bound {bound}",
                    searched(last_bound_done)
                )))
            }
            Round::TooManyPaths => {
                return unknown(UnknownReason::PathLimit(format!(
                    "{}at loop bound {bound} the copies have more than {} symbolic paths \
                     (raise `--max-paths` to search further)",
                    searched(last_bound_done),
                    opts.max_paths
                )));
            }
            Round::None { bound_hit, uncovered, unknown: undecided, forall_paths } => {
                last_bound_done = bound;
                if undecided.is_some() {
                    last_unknown = undecided;
                    // Deeper rounds re-ask the undecided queries (and more): stop here.
                    break;
                }
                if !bound_hit && !uncovered {
                    let warnings = vacuity(tuple, forall_paths, cancel);
                    return Verdict::Verified {
                        proof: Proof {
                            exhaustive: Some(ExhaustiveSearch { unroll: bound, forall_paths }),
                            obligations: stats.queries,
                            warnings,
                            ..Proof::default()
                        },
                    };
                }
                incomplete = uncovered && !bound_hit;
            }
        }
    }
    let reason = match last_unknown {
        Some(u) => UnknownReason::SolverUnknown(format!(
            "no counterexample found up to loop bound {last_bound_done}; some paths were \
             undecided by the solver ({u})"
        )),
        None if incomplete => UnknownReason::BoundReached(format!(
            "no counterexample with loops unrolled up to {last_bound_done} times, and not \
             every ∀ run was matched by an ∃ run within that bound (raise `--unroll` to \
             search further)"
        )),
        None => UnknownReason::BoundReached(format!(
            "no counterexample with loops unrolled up to {last_bound_done} times (raise \
             `--unroll` to search further)"
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

/// The vacuity warnings of an exhaustive search: `pre` unsatisfiable (a path is only
/// pruned at a branch, so an unsatisfiable `pre` may still leave ∀ paths counted), or no
/// feasible ∀ path at all (every run blocked).
fn vacuity(tuple: &Tuple, forall_paths: u64, cancel: &Cancel) -> Vec<crate::verdict::Warning> {
    let initial: std::collections::HashMap<_, _> = (0..tuple.vars.len() as u32)
        .map(|i| {
            let v = crate::ir::VarId(i);
            (v, crate::smt::encode::fresh(&format!("{}@0", tuple.var_display(v)), &tuple.var(v).ty))
        })
        .collect();
    let pre = crate::smt::encode::encode_bool(&tuple.pre, &|v| initial[&v].clone());
    if forall_paths == 0 {
        crate::vacuity::no_forall_run(&pre, cancel)
    } else {
        crate::vacuity::warnings(&pre, &crate::vacuity::Ends::default(), cancel)
    }
}
