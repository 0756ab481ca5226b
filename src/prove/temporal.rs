//! Temporal (`always φ`) tuples, for every observation index n (DESIGN.md §7).
//!
//! Copies are aligned at their observation points. Each copy must have the shape
//! `P; while (g) { A; observe; B } R` with `P`, `A`, `B`, `R` free of `observe;` (inner
//! loops allowed). Its run is then `P; assume g; A` up to observation 1 (the *first
//! segment*) and `B; assume g; A` from each observation to the next (the *step*). One
//! joint step runs every copy's step: ∀ copies first (they come first in the tuple),
//! then ∃ copies with their choices as parameters, through genpp (`Prover::run`), so
//! inner loops go through the ordinary loop rules.
//!
//! The proof is a relational invariant I over all copies' variables with
//! - initiation: for all initial states satisfying `pre` and all ∀ runs of the first
//!   segments, the ∃ parameters can be chosen so that the ∃ copies reach observation 1
//!   and I holds there;
//! - consecution: from any state satisfying I, for all ∀ runs of the step, the ∃
//!   parameters can be chosen so that the ∃ copies reach their next observation and I
//!   holds again;
//! - I ⇒ φ: φ's conjuncts are always conjuncts of I.
//!
//! Why this is sound for the finite-prefix semantics (LANGUAGE.md): take any n and any
//! ∀ prefixes with n observations. Induction over k = 1..n builds ∃ prefixes with k
//! observations whose k-th states, with the ∀ copies' k-th states, satisfy I (hence φ):
//! initiation for k = 1, consecution from k to k + 1. The ∃ choices of step k depend only
//! on the ∀ prefixes, which are given before the ∃ side chooses. A ∀ copy whose run
//! leaves the loop (¬g) or blocks observes no more: there is no longer ∀ prefix and
//! nothing to check, which is why `assume g` is only an assumption for ∀ copies. For an
//! ∃ copy, `assume g` and every `assume` on its way are obligations on the parameters
//! (genpp's ∃-side assume), and its inner loops must be shown to exit by genpp's loop
//! rules (aligned termination, ∃-only exit or ranking): it always reaches its next
//! observation. Only `Valid` answers count, as everywhere in the prover.

use super::genpp::{Cfg, End, Fail, FailKind, Item, Prover, Res};
use super::state::{Acc, Kind, Scope, SymState};
use crate::cancel::Cancel;
use crate::ir::{has_observe, BinOp, Expr, ExprKind, Loc, Stmt, Tuple, VarId};
use crate::verdict::{Engine, LoopPointProof, Outcome, Proof, Stats, UnknownReason, Verdict};
use itertools::Itertools;
use std::time::Instant;
use z3::ast::Bool;

/// Per copy, the statements of its first segment and of its step (module comment).
pub(super) struct Segments {
    pub(super) first: Vec<Vec<Stmt>>,
    pub(super) step: Vec<Vec<Stmt>>,
    /// Where each copy observes (for the proof's alignment).
    observe_at: Vec<Loc>,
}

/// Splits every copy at its observation point, or says which copy has another shape.
fn segments(tuple: &Tuple) -> Result<Segments, String> {
    let mut seg = Segments { first: Vec::new(), step: Vec::new(), observe_at: Vec::new() };
    for c in &tuple.copies {
        let shape_error = || {
            format!(
                "the temporal prover needs every copy to observe exactly once per iteration \
                 of one loop, at the top level of its body, and nowhere else (copy {} does \
                 not)",
                c.name
            )
        };
        let observing: Vec<usize> =
            (0..c.body.len()).filter(|&k| has_observe(&c.body[k..=k])).collect();
        let [k] = observing[..] else { return Err(shape_error()) };
        let Stmt::While { cond, body, loc, .. } = &c.body[k] else { return Err(shape_error()) };
        let tops: Vec<usize> = (0..body.len()).filter(|&j| has_observe(&body[j..=j])).collect();
        let [j] = tops[..] else { return Err(shape_error()) };
        let Stmt::Observe { loc: obs } = &body[j] else { return Err(shape_error()) };
        let guard = Stmt::Assume { cond: cond.clone(), loc: *loc };
        let (before, after) = (&body[..j], &body[j + 1..]);
        let mut first: Vec<Stmt> = c.body[..k].to_vec();
        let mut step: Vec<Stmt> = after.to_vec();
        if cond.kind != ExprKind::Bool(true) {
            first.push(guard.clone());
            step.push(guard);
        }
        first.extend_from_slice(before);
        step.extend_from_slice(before);
        seg.first.push(first);
        seg.step.push(step);
        seg.observe_at.push(*obs);
    }
    Ok(seg)
}

/// Tries to prove a reactive tuple for every n; `unknown` with a reason otherwise.
pub fn prove(tuple: &Tuple, _opts: &super::ProveOptions, cancel: &Cancel) -> Outcome {
    let start = Instant::now();
    let seg = match segments(tuple) {
        Ok(s) => s,
        Err(why) => return Outcome::unsupported(Engine::Prove, &why),
    };
    let mut p = Prover::new(tuple, cancel);
    let result = search(&mut p, &seg);
    let verdict = match result {
        Ok((invariant, pre)) => {
            let loops = tuple
                .copies
                .iter()
                .zip(&seg.observe_at)
                .map(|(c, at)| format!("{}@{}:{} (observation)", c.name, tuple.file, at))
                .collect();
            let mut loop_points = vec![LoopPointProof {
                loops,
                counts: vec![1; tuple.copies.len()],
                invariant: invariant_text(tuple, &invariant),
                candidates_tried: p.candidates,
                alignment: None,
                leftover_of: None,
            }];
            loop_points.append(&mut p.proof);
            let warnings = crate::vacuity::first_observation_warnings(&pre, &p.ends, cancel);
            Verdict::Verified {
                proof: Proof {
                    loop_points,
                    obligations: p.obligations,
                    warnings,
                    ..Proof::default()
                },
            }
        }
        Err(f) => Verdict::Unknown {
            reason: match f.kind {
                FailKind::Stopped => UnknownReason::Cancelled(f.msg),
                FailKind::Undecided => UnknownReason::SolverUnknown(f.msg),
                FailKind::NoInvariant => UnknownReason::NoInvariant(f.msg),
                FailKind::Invalid => UnknownReason::NotProved(f.msg),
            },
        },
    };
    Outcome {
        verdict,
        engine: Engine::Prove,
        time: start.elapsed(),
        stats: Stats { queries: p.smt.queries(), candidates: p.candidates, ..Stats::default() },
    }
}

fn invariant_text(tuple: &Tuple, atoms: &[Expr]) -> String {
    if atoms.is_empty() {
        return "true".into();
    }
    let text = |a: &Expr| {
        let t = crate::pretty::tuple_expr(tuple, a);
        // Conjuncts binding more loosely than `&&` are bracketed.
        match &a.kind {
            ExprKind::Binary(BinOp::Or | BinOp::Implies | BinOp::Iff, ..) => format!("({t})"),
            _ => t,
        }
    };
    atoms.iter().map(text).join(" && ")
}

/// Houdini over the candidates: the largest jointly initial prefix-closed set, then
/// conjuncts not preserved on their own are dropped, then the last optional conjunct
/// while the set is not preserved jointly. Returns the invariant, whose initiation and
/// consecution (with one choice of parameters for all its conjuncts) were both valid,
/// with the encoding of `pre`; `p.proof` then holds the inner loop points of those two
/// checks and `p.ends` the path conditions at the first observations.
fn search<'t>(p: &mut Prover<'t>, seg: &'t Segments) -> Res<(Vec<Expr>, Bool)> {
    let (cands, required) = super::temporal_mine::candidates(p.tuple, seg);
    let phi = invariant_text(p.tuple, &cands[..required]);
    let mut set = cands.clone();
    p.candidates += 1;
    if initiation(p, seg, &End::Inv(set.clone())).is_err() {
        stop_if_cancelled(p)?;
        set.clear();
        for (k, a) in cands.iter().enumerate() {
            let mut trial = set.clone();
            trial.push(a.clone());
            p.candidates += 1;
            match initiation(p, seg, &End::Inv(trial.clone())) {
                Ok(_) => set = trial,
                Err(f) if k < required => {
                    return Err(Fail {
                        kind: if f.is_unknown() { f.kind } else { FailKind::Invalid },
                        msg: format!(
                            "the property `{phi}` could not be established at the first \
                             observation ({})",
                            f.msg
                        ),
                    });
                }
                Err(_) => stop_if_cancelled(p)?,
            }
        }
    }
    let mut last: Option<Fail> = None;
    loop {
        stop_if_cancelled(p)?;
        if set.len() > required {
            let saved = std::mem::replace(&mut p.probe_failed, vec![false; set.len()]);
            let mark = p.proof.len();
            let probed = consecution(p, seg, &set, &End::Probe(set.clone()));
            p.proof.truncate(mark);
            let failed = std::mem::replace(&mut p.probe_failed, saved);
            if probed.is_ok() && failed.iter().any(|f| *f) {
                if failed[..required].iter().any(|f| *f) {
                    break;
                }
                set = set
                    .iter()
                    .zip(&failed)
                    .filter(|(_, f)| !**f)
                    .map(|(a, _)| a)
                    .cloned()
                    .collect();
                continue;
            }
        }
        p.candidates += 1;
        let mark = p.proof.len();
        match consecution(p, seg, &set, &End::Inv(set.clone())) {
            Ok(()) => {
                // The final check, kept in the proof with its inner loop points; its ends
                // are the first observations, for the vacuity warnings.
                let inner = p.proof.split_off(mark);
                p.proof.clear();
                p.ends = Default::default();
                p.record_inv_ends = true;
                let pre = initiation(p, seg, &End::Inv(set.clone()));
                p.record_inv_ends = false;
                p.proof.extend(inner);
                return Ok((set, pre?));
            }
            Err(f) => {
                p.proof.truncate(mark);
                if f.kind == FailKind::Stopped {
                    return Err(f);
                }
                last = Some(f);
                if set.len() <= required {
                    break;
                }
                set.pop();
            }
        }
    }
    let why = last.map(|f| format!(" (last failure: {})", f.msg)).unwrap_or_default();
    Err(Fail {
        kind: if p.saw_unknown.is_some() { FailKind::Undecided } else { FailKind::NoInvariant },
        msg: format!(
            "no invariant among {} candidates implies `{phi}` at every observation and is \
             preserved from one observation to the next{why}",
            p.candidates
        ),
    })
}

fn stop_if_cancelled(p: &Prover<'_>) -> Res<()> {
    if p.cancel.is_cancelled() {
        Err(Fail::stopped())
    } else {
        Ok(())
    }
}

/// A state of fresh symbols for every tuple variable, in a new query scope.
fn fresh_state(p: &mut Prover<'_>, kind: Kind) -> (SymState, Scope) {
    let scope = Scope { floor: p.syms.next_id(), conj: false };
    let mut vars = im::HashMap::new();
    for (i, tv) in p.tuple.vars.iter().enumerate() {
        let v = VarId(i as u32);
        vars.insert(v, p.syms.fresh(scope, &p.tuple.var_display(v), &tv.ty, kind));
    }
    (SymState { vars, pc: im::Vector::new() }, scope)
}

/// From `pre`, the first segments establish `end`. Returns the encoding of `pre`.
fn initiation<'t>(p: &mut Prover<'t>, seg: &'t Segments, end: &End) -> Res<Bool> {
    let (mut st, scope) = fresh_state(p, Kind::Univ);
    let pre = st.eval_bool(&p.tuple.pre);
    st.pc.push_back(pre.clone());
    let conts = seg.first.iter().map(|b| b.iter().map(Item::S).collect()).collect();
    p.run(Cfg::new(conts, st), Acc::new(), scope, end).map(|_| pre)
}

/// From any state satisfying `hyp`, one joint step establishes `end`.
fn consecution<'t>(p: &mut Prover<'t>, seg: &'t Segments, hyp: &[Expr], end: &End) -> Res<()> {
    let (mut st, scope) = fresh_state(p, Kind::Head);
    let h = st.eval_all(hyp);
    st.pc.push_back(h);
    let conts = seg.step.iter().map(|b| b.iter().map(Item::S).collect()).collect();
    p.run(Cfg::new(conts, st), Acc::new(), scope, end).map(|_| ())
}
