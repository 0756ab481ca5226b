//! Temporal (`always φ`) tuples over reactive programs: bounded ∀∃ refutation over
//! observation prefixes (DESIGN.md §7, finite-prefix semantics of LANGUAGE.md).
//!
//! For n = 1, 2, … up to the tuple's `observations` bound (or the time limit), one query
//! per unrolling bound asks for a ∀ prefix with n observations that no ∃ prefix with n
//! observations matches ([`prefix`]). Both sides are merged symbolic formulas
//! ([`symex`]): the ∃ side is one formula with choice constants under a universal
//! quantifier, never a path enumeration. A model is replayed ([`replay`]) before
//! `violated` is reported.

use crate::cancel::Cancel;
use crate::ir::{ExprKind, Quantifier, Stmt, Tuple};
use crate::verdict::UnknownReason;
use crate::verdict::{
    CopyRun, Counterexample, Engine, ObservationTrace, Outcome, Proof, Stats, Verdict,
};
use std::collections::BTreeMap;
use std::time::Instant;

pub mod prefix;
pub mod replay;
pub mod symex;

use prefix::{check_prefix, Candidate, Effort, Prefix};

/// Loop unrolling bounds tried per observation index (beyond the iterations that
/// observe): larger ones only when a silent ∃ loop could not be bounded or a ∀ loop
/// was cut. The encoding is linear in the bound, so doubling it doubles a query's size;
/// the deepest bounds reach silent loops of a few hundred iterations (a counter up to a
/// chosen limit) within the time limit.
pub(crate) const UNROLLS: [u32; 8] = [4, 8, 16, 32, 64, 128, 256, 512];

/// Refutes a reactive tuple: `violated` with a replayed counterexample, `verified` when
/// the bounded search was exhaustive (no ∀ run reaches the next observation and every
/// shorter prefix had an ∃ witness), else `unknown`.
///
/// `max_unroll` (`--unroll N`) bounds the search so that it ends on its own: loops
/// unrolled at most N times, and, where the tuple sets no `observations` bound, prefixes
/// of at most N observations.
pub fn refute(tuple: &Tuple, max_unroll: Option<u32>, cancel: &Cancel) -> Outcome {
    let start = Instant::now();
    let mut stats = Stats::default();
    let bounds = Bounds::new(tuple, max_unroll);
    let verdict = search(tuple, Effort::Full, &bounds, cancel, &mut stats);
    Outcome { verdict, engine: Engine::Refute, time: start.elapsed(), stats }
}

/// [`refute`] where it costs one quantifier-free check per query: a loop-free reactive
/// tuple whose ∃ choices the light quantifier elimination removes (most of hyena0's
/// ORHLE files). A definitive outcome, or `None` (then nothing else was learnt). The
/// portfolio asks this first: on such tuples it decides both ways in about the time of
/// the prover's one query, and a violation needs no proof attempt before it.
pub fn refute_light(tuple: &Tuple, cancel: &Cancel) -> Option<Outcome> {
    if !tuple.is_reactive() || tuple.copies.iter().any(|c| crate::ir::has_loop(&c.body)) {
        return None;
    }
    let start = Instant::now();
    let mut stats = Stats::default();
    let verdict = search(tuple, Effort::Light, &Bounds::new(tuple, None), cancel, &mut stats);
    verdict.is_definitive().then(|| Outcome {
        verdict,
        engine: Engine::Refute,
        time: start.elapsed(),
        stats,
    })
}

/// Whether a prefix answer should be asked again at a deeper unrolling bound.
fn deepen(p: &Prefix) -> bool {
    matches!(
        p,
        Prefix::ExistsUnbounded
            | Prefix::None { forall_truncated: true }
            | Prefix::NoForallPrefix { truncated: true }
    )
}

/// How far the search goes: the unrolling bounds it deepens through and the longest
/// prefix it checks (`None`: until the time limit).
struct Bounds {
    unrolls: Vec<u32>,
    observations: Option<usize>,
}

impl Bounds {
    fn new(tuple: &Tuple, max_unroll: Option<u32>) -> Bounds {
        let unrolls = match max_unroll {
            None => UNROLLS.to_vec(),
            Some(k) => {
                let mut v: Vec<u32> = UNROLLS.iter().copied().filter(|&u| u < k).collect();
                v.push(k.max(1));
                v
            }
        };
        let observations =
            tuple.observations.map(|b| b as usize).or(max_unroll.map(|k| k.max(1) as usize));
        Bounds { unrolls, observations }
    }

    fn deepest(&self) -> u32 {
        *self.unrolls.last().expect("one unrolling bound at least")
    }
}

/// Asks `ask` at growing unrolling bounds until the answer needs no deeper one.
fn deepening(
    stats: &mut Stats,
    bounds: &Bounds,
    cancel: &Cancel,
    ask: impl Fn(u32) -> Prefix,
) -> Prefix {
    let mut last = None;
    for &unroll in &bounds.unrolls {
        stats.queries += 1;
        let p = ask(unroll);
        let again = deepen(&p);
        last = Some(p);
        if !again || cancel.is_cancelled() {
            break;
        }
    }
    last.expect("one unrolling bound at least")
}

fn search(
    tuple: &Tuple,
    effort: Effort,
    bounds: &Bounds,
    cancel: &Cancel,
    stats: &mut Stats,
) -> Verdict {
    let bound = bounds.observations;
    let deepest = bounds.deepest();
    // Indices at which the answer was not exhaustive, with why.
    let mut gaps: Vec<String> = Vec::new();
    let mut n = 1;
    loop {
        if bound.is_some_and(|b| n > b) {
            break;
        }
        if cancel.is_cancelled() {
            return unknown(tuple, n - 1, &gaps, "the time limit was reached");
        }
        match deepening(stats, bounds, cancel, |unroll| {
            check_prefix(tuple, n, unroll, effort, cancel)
        }) {
            Prefix::Found(cand) => {
                return match replay::replay(tuple, &cand, cancel) {
                    Ok(()) => Verdict::Violated { counterexample: counterexample(tuple, &cand) },
                    Err(why) => refuter_unknown(UnknownReason::ReplayFailed(format!(
                        "a counterexample candidate with {n} observations did not replay \
                         concretely ({why}); not reporting it"
                    ))),
                };
            }
            Prefix::None { forall_truncated } => {
                if forall_truncated {
                    gaps.push(format!("{n} (∀ loops cut after {deepest} iterations)"));
                }
            }
            Prefix::NoForallPrefix { truncated: false } => return no_forall_run(n, &gaps, stats),
            Prefix::NoForallPrefix { truncated: true } => {
                gaps.push(format!("{n} (∀ loops cut after {deepest} iterations)"));
            }
            Prefix::ExistsUnbounded => gaps.push(format!(
                "{n} (an ∃ copy may loop more than {deepest} times without observing)"
            )),
            Prefix::Unknown(why) => {
                if cancel.is_cancelled() {
                    return unknown(tuple, n - 1, &gaps, "the time limit was reached");
                }
                gaps.push(format!("{n} ({why})"));
            }
        }
        n += 1;
    }
    // The bound is reached. If every index so far was answered exhaustively and no ∀
    // run reaches the next one, nothing remains to check at any index: a proof.
    if gaps.is_empty() {
        if let Prefix::NoForallPrefix { truncated: false } =
            deepening(stats, bounds, cancel, |unroll| {
                prefix::forall_reaches(tuple, n, unroll, cancel)
            })
        {
            return no_forall_run(n, &gaps, stats);
        }
    }
    unknown(tuple, n - 1, &gaps, "")
}

/// No ∀ run reaches observation `n` (exhaustively): `verified` when every index before
/// had an ∃ witness for every ∀ prefix, else `unknown`.
fn no_forall_run(n: usize, gaps: &[String], stats: &Stats) -> Verdict {
    if gaps.is_empty() {
        return Verdict::Verified {
            proof: Proof {
                observation_bound: Some(n as u32 - 1),
                obligations: stats.queries,
                ..Proof::default()
            },
        };
    }
    refuter_unknown(UnknownReason::SearchExhausted(format!(
        "no violation: no ∀ run reaches observation {n}, and none with fewer \
         observations violates the property{}",
        gap_text(gaps)
    )))
}

fn gap_text(gaps: &[String]) -> String {
    if gaps.is_empty() {
        String::new()
    } else {
        format!("; not exhaustive at observation {}", gaps.join(", "))
    }
}

fn unknown(_tuple: &Tuple, searched: usize, gaps: &[String], why: &str) -> Verdict {
    let stop = if why.is_empty() { String::new() } else { format!(" ({why})") };
    refuter_unknown(UnknownReason::BoundReached(format!(
        "no violation with up to {searched} observations{stop}{}",
        gap_text(gaps)
    )))
}

fn refuter_unknown(reason: UnknownReason) -> Verdict {
    Verdict::Unknown { reason: reason.from_engine(crate::verdict::Engine::Refute) }
}

/// The report for a replayed candidate.
pub(crate) fn counterexample(tuple: &Tuple, cand: &Candidate) -> Counterexample {
    let mut copies = Vec::new();
    let mut observations = BTreeMap::new();
    for (c, copy) in tuple.copies.iter().enumerate() {
        let names = |row: &[crate::value::Value]| {
            copy.vars
                .iter()
                .zip(row)
                .map(|(v, x)| (tuple.var(*v).name.clone(), x.clone()))
                .collect::<BTreeMap<_, _>>()
        };
        let initial: Vec<_> = copy.vars.iter().map(|v| cand.init[v.index()].clone()).collect();
        let forall = copy.quantifier == Quantifier::Forall;
        copies.push(CopyRun {
            copy: copy.name.clone(),
            program: copy.program.clone(),
            quantifier: copy.quantifier,
            initial: names(&initial),
            choices: cand.choices[c].clone(),
            final_state: None,
        });
        if forall {
            observations
                .insert(copy.name.clone(), cand.observed[c].iter().map(|r| names(r)).collect());
        }
    }
    let exists: Vec<&str> = tuple.exists_copies().map(|(_, c)| c.name.as_str()).collect();
    // Short enough for one line of the human report next to the observation table.
    let n = cand.n;
    let explanation = if exists.is_empty() {
        format!("the property fails at observation {n}")
    } else {
        format!(
            "no run of {} reaches observation {n} with the property at every index up to {n}",
            exists.join(", ")
        )
    };
    let infinite_extension = tuple.forall_copies().all(|(_, c)| observes_forever(tuple, &c.body));
    Counterexample {
        copies,
        explanation,
        violated_conjunct: None,
        c_types: None,
        observations: Some(ObservationTrace {
            failing_index: cand.n as u32,
            copies: observations,
            infinite_extension,
        }),
    }
}

/// Whether every run of a body can always reach another observation: it ends in
/// `while (true) { … }` whose body observes at its top level, and nothing on the way
/// can block or loop silently (no inner loops; every `assume` directly follows a `x = *`
/// and constrains only `x` against constants in a satisfiable way).
fn observes_forever(tuple: &Tuple, body: &[Stmt]) -> bool {
    let Some((Stmt::While { cond, body: inner, .. }, before)) = body.split_last() else {
        return false;
    };
    cond.kind == ExprKind::Bool(true)
        && inner.iter().any(|s| matches!(s, Stmt::Observe { .. }))
        && cannot_block(tuple, before)
        && cannot_block(tuple, inner)
}

fn cannot_block(tuple: &Tuple, block: &[Stmt]) -> bool {
    block.iter().enumerate().all(|(i, s)| match s {
        Stmt::While { .. } => false,
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            cannot_block(tuple, then_branch) && cannot_block(tuple, else_branch)
        }
        Stmt::Assume { cond, .. } => {
            let Some(Stmt::Havoc { var, .. }) = i.checked_sub(1).map(|j| &block[j]) else {
                return false;
            };
            let mut only_var = true;
            cond.for_each_var(&mut |v| only_var &= v == *var);
            only_var && satisfiable_alone(tuple, cond)
        }
        _ => true,
    })
}

/// `cond` over one variable (and constants) has a solution.
fn satisfiable_alone(tuple: &Tuple, cond: &crate::ir::Expr) -> bool {
    let consts = std::cell::RefCell::new(BTreeMap::new());
    let f = crate::smt::encode::encode_bool(cond, &|v| {
        consts
            .borrow_mut()
            .entry(v)
            .or_insert_with(|| crate::smt::encode::fresh("x", &tuple.var(v).ty))
            .clone()
    });
    let s = crate::smt::session::solver();
    s.assert(&f);
    let limit = Some(std::time::Duration::from_secs(2));
    crate::smt::session::check(&s, &[], &crate::cancel::Cancel::new(), limit).is_sat()
}

#[cfg(test)]
mod tests;
