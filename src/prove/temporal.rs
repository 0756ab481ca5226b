//! Temporal (`always φ`) tuples, for every observation index n (DESIGN.md §7).
//!
//! Copies are aligned at their observation points. Each copy's `observe;` statements,
//! wherever they are (branches, loops, several per iteration), are its *points*, and
//! the code between two observations its *silent segments* (`observation::graph`):
//! the *first segment* runs from the program's start to observation 1, and from each
//! point one *step* runs to the next observation, whichever point that is. A copy with
//! several points gets a ghost point variable `@at` (which point it observed at last),
//! so the invariant can talk about where each copy is. One joint step runs every
//! copy's step: ∀ copies first (they come first in the tuple), then ∃ copies with their
//! choices as parameters, through genpp (`Prover::run`), so silent loops go through the
//! ordinary loop rules. Consecution is checked per combination of points the copies
//! can be at (a case split on the state before the step), with one invariant that has
//! the point variables as data.
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
//! ends or blocks before its next observation observes no more: there is no longer ∀
//! prefix and nothing to check, which is why a loop guard (`assume g`) and the end of
//! the program (`assume false`) are only assumptions for ∀ copies. For an ∃ copy, they
//! and every `assume` on its way are obligations on the parameters (genpp's ∃-side
//! assume), and its silent loops must be shown to exit by genpp's loop rules (aligned
//! termination, ∃-only exit or ranking): it always reaches its next observation.
//! Only `Valid` answers count, as everywhere in the prover.
//!
//! **Stuttering.** Copies that observe at different rates, or an ∃ copy that repeats an
//! observation (a `while (*) { observe; }`), need no rule of their own: a joint step
//! moves every copy exactly one observation, as the semantics compares the k-th
//! observations of all copies. Repeating an observation is one of the ∃ copy's steps
//! (from the point inside the loop back to itself, writing nothing), and whether it
//! takes it or moves on is a branch choice of its step, a parameter like any other ∃
//! choice, made per joint step after the ∀ copies' steps are known. So the stuttering
//! product is the lockstep product of the observation graphs with the ∃ strategy
//! choosing each ∃ copy's edge, and the soundness argument above covers it unchanged:
//! every ∃ step the proof uses is a real path of the program from one observation to
//! the next (unfolding observing loops is exact, `observation::graph`), and the
//! point-combination case split only splits on the state before the step, which is
//! fixed before anything is chosen. `--explain` shows per copy its points, where each
//! step can go and where it can stay, and the invariant per combination of points.
//!
//! **Looking ahead.** When no invariant is found in lockstep, the proof is tried again
//! with the ∃ copies one observation behind the ∀ copies, so that the ∃ choices of
//! each step can depend on the ∀ copies' next step (DESIGN.md §7). Ghosts `v@prev` hold
//! each ∀ variable at the previous observation. The lagged invariant J(a, a@prev, e)
//! relates the ∀ copies at observation k + 1, their ghosts at k and the ∃ copies at k,
//! and its obligations are
//! 1. n = 1 on its own: from `pre`, the first segments establish φ (∀ runs first);
//! 2. lagged start: from `pre`, the ∀ first segments, the save `a@prev = a`, the ∀ steps
//!    to observation 2, then the ∃ first segments establish J;
//! 3. lagged consecution: from J, the save, the ∀ steps, then the ∃ steps establish J;
//! 4. the last step: from J, the ∃ steps alone (the ∀ copies stay) establish φ;
//! 5. J ⇒ φ(a@prev, e): φ over the ghosts is a conjunct of J.
//!
//! Soundness, for any n and ∀ prefixes with n observations a₁..aₙ: n = 1 is (1). For
//! n ≥ 2, (2) gives ∃ states e₁ with J(a₂, a₁, e₁); (3) for k = 2..n−1 (it uses the ∀
//! step from aₖ to aₖ₊₁, which the prefix has since k + 1 ≤ n) gives eₖ with
//! J(aₖ₊₁, aₖ, eₖ); by (5) φ(aₖ, eₖ) for k ≤ n − 1, and (4) from J(aₙ, aₙ₋₁, eₙ₋₁) gives
//! eₙ with φ(aₙ, eₙ). The e's are consecutive steps of real ∃ runs, so they form an ∃
//! prefix with n observations satisfying φ at every index. The ∃ choices up to step k
//! depend on a₁..aₖ₊₁, all part of the given ∀ prefix: in the finite-prefix semantics
//! the whole ∀ prefix is fixed before the ∃ side chooses, so this is allowed.

mod segments;
mod text;

pub(super) use segments::Segments;
use segments::{combinations, is_at, segments};
use text::{invariant_text, per_combination, point_text};

use super::genpp::{Cfg, End, Fail, FailKind, Item, Prover, Res};
use super::state::{Acc, Kind, Scope, SymState};
use crate::cancel::Cancel;
use crate::ir::{Expr, Loc, Quantifier, Stmt, Tuple, TupleVar, VarId};
use crate::verdict::{Engine, LoopPointProof, Outcome, Proof, Stats, UnknownReason, Verdict};
use std::time::Instant;
use z3::ast::Bool;

/// Tries to prove a reactive tuple for every n; `unknown` with a reason otherwise.
pub fn prove(tuple: &Tuple, _opts: &super::ProveOptions, cancel: &Cancel) -> Outcome {
    let start = Instant::now();
    let (ext, seg) = match segments(tuple) {
        Ok(s) => s,
        Err(why) => return Outcome::unsupported(Engine::Prove, &why),
    };
    let lag_tuple;
    let lag;
    let mut p = Prover::new(&ext, cancel);
    let mut result = search(&mut p, &seg, None);
    let mut tuple = &ext;
    let mut behind = false;
    let has = |q: Quantifier| ext.copies.iter().any(|c| c.quantifier == q);
    if let Err(f) = &result {
        if f.kind != FailKind::Stopped && has(Quantifier::Forall) && has(Quantifier::Exists) {
            // Looking ahead: the ∃ copies one observation behind (module comment).
            (lag_tuple, lag) = lagged(&ext);
            let mut q = Prover::new(&lag_tuple, cancel);
            q.candidates = p.candidates;
            let lagged_result = search(&mut q, &seg, Some(&lag));
            match lagged_result {
                Ok(r) => {
                    q.obligations += p.obligations;
                    p = q;
                    tuple = &lag_tuple;
                    behind = true;
                    result = Ok(r);
                }
                Err(g) if g.kind == FailKind::Stopped => {
                    p.exhausted = q.exhausted;
                    result = Err(g)
                }
                Err(g) => {
                    p.candidates = q.candidates;
                    let first = result.expect_err("failed");
                    result = Err(Fail {
                        kind: first.kind,
                        msg: format!("{}; looking one observation ahead: {}", first.msg, g.msg),
                    });
                }
            }
        }
    }
    let verdict = match result {
        Ok((invariant, pre)) => {
            let loops = tuple
                .copies
                .iter()
                .zip(&seg.graphs)
                .map(|(c, g)| {
                    let text = point_text(tuple, &c.name, g);
                    if behind && c.quantifier == Quantifier::Exists {
                        format!("{text} (one observation behind: its choices see the ∀ copies' next step)")
                    } else {
                        text
                    }
                })
                .collect();
            let mut loop_points = vec![LoopPointProof {
                loops,
                counts: vec![1; tuple.copies.len()],
                invariant: invariant_text(tuple, &invariant),
                candidates_tried: p.candidates,
                alignment: None,
                leftover_of: None,
            }];
            loop_points.extend(per_combination(tuple, &seg, &invariant));
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
                FailKind::Stopped if p.exhausted => UnknownReason::NoInvariant(f.msg),
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

/// Houdini over the candidates: the largest jointly initial prefix-closed set, then
/// conjuncts not preserved on their own are dropped, then the last optional conjunct
/// while the set is not preserved jointly. Returns the invariant, whose initiation and
/// consecution (with one choice of parameters for all its conjuncts) were both valid,
/// with the encoding of `pre`; `p.proof` then holds the inner loop points of those two
/// checks and `p.ends` the path conditions at the first observations.
fn search<'t>(
    p: &mut Prover<'t>,
    seg: &'t Segments,
    lag: Option<&'t Lag>,
) -> Res<(Vec<Expr>, Bool)> {
    // Only the final checks are the proof (`smt::record`): a failed search leaves none.
    let rec = crate::smt::record::mark();
    let r = search_recorded(p, seg, lag);
    if r.is_err() {
        crate::smt::record::rewind(rec);
    }
    r
}

/// [`search`], its filters and failed attempts rewound from the obligation log.
fn search_recorded<'t>(
    p: &mut Prover<'t>,
    seg: &'t Segments,
    lag: Option<&'t Lag>,
) -> Res<(Vec<Expr>, Bool)> {
    let (cands, required) = match lag {
        None => super::temporal_mine::candidates(p.tuple, seg),
        Some(l) => super::temporal_mine::lag_candidates(p.tuple, seg, &l.prev),
    };
    let phi = invariant_text(p.tuple, &cands[..required]);
    let mut set = cands.clone();
    p.candidates += 1;
    // Initiation here only filters the candidates: the final one is checked again.
    let filter = |p: &mut Prover<'t>, set: &[Expr]| {
        let rec = crate::smt::record::mark();
        let r = start(p, seg, lag, &End::Inv(set.to_vec()));
        crate::smt::record::rewind(rec);
        r
    };
    if filter(p, &set).is_err() {
        stop_if_cancelled(p)?;
        set.clear();
        for (k, a) in cands.iter().enumerate() {
            let mut trial = set.clone();
            trial.push(a.clone());
            p.candidates += 1;
            match filter(p, &trial) {
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
            let rec = crate::smt::record::mark();
            let probed = consecution(p, seg, lag, &set, &End::Probe(set.clone()));
            crate::smt::record::rewind(rec);
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
        let rec = crate::smt::record::mark();
        match consecution(p, seg, lag, &set, &End::Inv(set.clone())) {
            Ok(()) => {
                // The final check, kept in the proof with its inner loop points; its ends
                // are the first observations, for the vacuity warnings.
                let inner = p.proof.split_off(mark);
                p.proof.clear();
                p.ends = Default::default();
                p.record_inv_ends = true;
                let Some(l) = lag else {
                    let pre = initiation(p, seg, &End::Inv(set.clone()));
                    p.record_inv_ends = false;
                    p.proof.extend(inner);
                    return Ok((set, pre?));
                };
                // Lagged: n = 1 on its own, then the lagged start, then the last ∃ step
                // (module comment, "Looking ahead").
                let phi: Vec<Expr> = p.tuple.post.conjuncts().into_iter().cloned().collect();
                let pre = initiation(p, seg, &End::Inv(phi.clone()));
                p.record_inv_ends = false;
                let pre = pre.map_err(|f| Fail {
                    msg: format!("the first observation on its own ({})", f.msg),
                    ..f
                })?;
                start(p, seg, lag, &End::Inv(set.clone()))?;
                closing(p, seg, l, &set, &End::Inv(phi)).map_err(|f| Fail {
                    msg: format!("the ∃ copies' last step without looking ahead ({})", f.msg),
                    ..f
                })?;
                p.proof.extend(inner);
                return Ok((set, pre));
            }
            Err(f) => {
                p.proof.truncate(mark);
                crate::smt::record::rewind(rec);
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

/// From any state satisfying `hyp`, one joint step establishes `end`: for each
/// combination of points the copies can be at, from there (a case split on the state
/// before the step, where nothing is chosen yet), or, with too many combinations, every
/// copy's dispatch at once.
fn consecution<'t>(
    p: &mut Prover<'t>,
    seg: &'t Segments,
    lag: Option<&'t Lag>,
    hyp: &[Expr],
    end: &End,
) -> Res<()> {
    let forall = |i: usize| p.tuple.copies[i].quantifier == Quantifier::Forall;
    let saved = |i: usize| -> Vec<Item<'t>> {
        match lag {
            Some(l) if forall(i) => l.save[i].iter().map(Item::S).collect(),
            _ => Vec::new(),
        }
    };
    let saves: Vec<Vec<Item<'t>>> = (0..seg.graphs.len()).map(saved).collect();
    let Some(combos) = combinations(seg) else {
        let conts = seg
            .step
            .iter()
            .zip(saves)
            .map(|(b, s)| s.into_iter().chain(b.iter().map(Item::S)).collect())
            .collect();
        return step_from(p, hyp, &[], conts, end);
    };
    for combo in combos {
        let at: Vec<Expr> =
            seg.at.iter().zip(&combo).filter_map(|(v, &k)| v.map(|v| is_at(v, k + 1))).collect();
        let conts =
            seg.graphs.iter().zip(&combo).zip(&saves).map(|((g, &k), s)| {
                s.iter().copied().chain(g.from[k].iter().map(Item::S)).collect()
            });
        step_from(p, hyp, &at, conts.collect(), end)?;
    }
    Ok(())
}

/// Lagged: from a state satisfying `hyp`, the ∃ copies alone take their step (the ∀
/// copies stay at their last observation) and establish `end`.
fn closing<'t>(
    p: &mut Prover<'t>,
    seg: &'t Segments,
    _lag: &'t Lag,
    hyp: &[Expr],
    end: &End,
) -> Res<()> {
    let exists: Vec<bool> =
        p.tuple.copies.iter().map(|c| c.quantifier == Quantifier::Exists).collect();
    let Some(combos) = combinations(seg) else {
        let conts = seg
            .step
            .iter()
            .zip(&exists)
            .map(|(b, &e)| if e { b.iter().map(Item::S).collect() } else { im::Vector::new() })
            .collect();
        return step_from(p, hyp, &[], conts, end);
    };
    for combo in combos {
        let at: Vec<Expr> =
            seg.at.iter().zip(&combo).filter_map(|(v, &k)| v.map(|v| is_at(v, k + 1))).collect();
        let conts = seg.graphs.iter().zip(&combo).zip(&exists).map(|((g, &k), &e)| {
            if e {
                g.from[k].iter().map(Item::S).collect()
            } else {
                im::Vector::new()
            }
        });
        step_from(p, hyp, &at, conts.collect(), end)?;
    }
    Ok(())
}

/// Where the invariant must first hold: at observation 1 ([`initiation`]), or, lagged,
/// with the ∀ copies at observation 2 and the ∃ copies at observation 1.
fn start<'t>(p: &mut Prover<'t>, seg: &'t Segments, lag: Option<&'t Lag>, end: &End) -> Res<Bool> {
    let Some(l) = lag else { return initiation(p, seg, end) };
    let (mut st, scope) = fresh_state(p, Kind::Univ);
    let pre = st.eval_bool(&p.tuple.pre);
    st.pc.push_back(pre.clone());
    let conts = (0..seg.first.len())
        .map(|i| {
            let first = seg.first[i].iter().map(Item::S);
            if p.tuple.copies[i].quantifier == Quantifier::Forall {
                let then = l.save[i].iter().chain(&seg.step[i]).map(Item::S);
                first.chain(then).collect()
            } else {
                first.collect()
            }
        })
        .collect();
    p.run(Cfg::new(conts, st), Acc::new(), scope, end).map(|_| pre)
}

/// The lagged proof's extra state (module comment, "Looking ahead"): each ∀ variable's
/// value at the previous observation, in a ghost `v@prev`, saved before each ∀ step.
pub(super) struct Lag {
    /// Per copy, `v@prev = v;` for each of its variables (∀ copies; empty for ∃ ones).
    save: Vec<Vec<Stmt>>,
    /// ∀ variable → its ghost.
    pub(super) prev: std::collections::HashMap<VarId, VarId>,
}

/// `ext` with a ghost per ∀ variable, and the statements that save them.
fn lagged(ext: &Tuple) -> (Tuple, Lag) {
    let mut out = ext.clone();
    let mut lag = Lag { save: vec![Vec::new(); ext.copies.len()], prev: Default::default() };
    for (i, c) in ext.copies.iter().enumerate() {
        if c.quantifier != Quantifier::Forall {
            continue;
        }
        for &v in &c.vars {
            let tv = ext.var(v).clone();
            let g = VarId(out.vars.len() as u32);
            out.vars.push(TupleVar {
                copy: i,
                name: format!("{}@prev", tv.name),
                ty: tv.ty.clone(),
            });
            out.copies[i].vars.push(g);
            lag.prev.insert(v, g);
            lag.save[i].push(Stmt::Assign {
                var: g,
                value: Expr::var(v, tv.ty),
                loc: Loc::default(),
            });
        }
    }
    (out, lag)
}

fn step_from<'t>(
    p: &mut Prover<'t>,
    hyp: &[Expr],
    at: &[Expr],
    conts: Vec<im::Vector<Item<'t>>>,
    end: &End,
) -> Res<()> {
    let (mut st, scope) = fresh_state(p, Kind::Head);
    let h = st.eval_all(hyp);
    st.pc.push_back(h);
    for a in at {
        let b = st.eval_bool(a);
        st.pc.push_back(b);
    }
    p.run(Cfg::new(conts, st), Acc::new(), scope, end).map(|_| ())
}
