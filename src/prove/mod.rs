//! The ForEx prover: parametric strongest postconditions (genpp), loop alignment by an
//! invariant/counter lattice, and ∀∃∀ queries to Z3 (../shared/DESIGN.md §2).
//! Beside the lattice: a deterministic loop held and run again against a second loop
//! (`replay`: fission and fusion) and the atoms of loops that return early (`exits`:
//! the postcondition on the copies that returned, locksteps split where they stop,
//! permuted copies).
//!
//! Soundness rests on three rules: every symbol has one global id and is never renamed;
//! every obligation of a path (∃-side restrictions, initiations, merged consecutions and
//! the postcondition) is checked in one ∀∃∀ query, so the parameters are chosen once;
//! and only `Valid` answers count — `unknown` and timeouts make the verdict `unknown`.

mod exists_only;
mod exits;
mod genpp;
mod houdini;
mod last_iteration;
mod loops;
mod mine;
mod offset;
mod prophecy;
mod rank;
mod replay;
mod state;
mod temporal;
mod temporal_mine;

use crate::cancel::Cancel;
use crate::ir::{BinOp, Expr, Tuple};
use crate::verdict::{Engine, Outcome, Proof, Stats, UnknownReason, Verdict};
use genpp::{Cfg, End, Fail, FailKind, Item, Prover};
use state::{Acc, Kind, Scope, SymState};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug, Default)]
pub struct ProveOptions {
    /// Record candidates tried per loop point in the proof (`--explain`).
    pub explain: bool,
    /// Write every SMT query as SMT-LIB into this folder (`--dump-smt`).
    pub dump_smt: Option<PathBuf>,
    /// Record the ∃ strategy and every obligation as an SMT-LIB script on the proof
    /// (`proof.recorded`: `--explain`, JSON, `--certificate`).
    pub record: bool,
    /// With `record`: only what the ∃ strategy needs (obligations with ∃ parameters),
    /// no scripts of the others (`--explain`, JSON, the editor; certificates need all).
    pub strategy_only: bool,
}

/// Tries to prove `tuple` valid. The deadline and cancellation come with `cancel`.
///
/// The proof always lists every loop point with its candidates tried, so `explain`
/// needs no extra work here.
pub fn prove(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Outcome {
    crate::smt::session::guarded(Engine::Prove, cancel, || prove_guarded(tuple, opts, cancel))
}

fn prove_guarded(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Outcome {
    let recording = crate::smt::record::scope_with(opts.record, !opts.strategy_only);
    let start = Instant::now();
    let mut outcome = if tuple.has_float() {
        prove_floats(tuple, opts, cancel)
    } else {
        prove_unrecorded(tuple, opts, cancel)
    };
    // Every attempt counts (without axioms, with the guesses rewritten, as written).
    outcome.time = start.elapsed();
    if let Verdict::Verified { proof } = &mut outcome.verdict {
        if opts.record && !proof.recorded.on {
            let floats = proof.recorded.float_encoding;
            proof.recorded = crate::smt::record::into_proof(crate::smt::record::take());
            proof.recorded.float_encoding = floats;
        }
    }
    drop(recording);
    outcome
}

/// Floats cheap first (DESIGN.md §11): the whole proof with floats abstracted
/// (`smt::encode::FloatMode::Abstract`, whose module doc argues why its `verified` is
/// sound), in half the time left (at most [`AXIOM_FREE_SLICE`]); when that is not a
/// proof, again with the exact IEEE encoding. The proof says which one decided it.
fn prove_floats(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Outcome {
    use crate::smt::encode::{float_mode_scope, FloatMode};
    use crate::verdict::FloatEncoding;
    let mark = |mut o: Outcome, how: FloatEncoding| {
        if let Verdict::Verified { proof } = &mut o.verdict {
            proof.recorded.float_encoding = Some(how);
        }
        o
    };
    let half = (cancel.remaining().unwrap_or(AXIOM_FREE_SLICE * 2) / 2).min(AXIOM_FREE_SLICE);
    let cheap = {
        let _abstract = float_mode_scope(FloatMode::Abstract);
        prove_unrecorded(tuple, opts, &cancel.with_timeout(half))
    };
    if matches!(cheap.verdict, Verdict::Verified { .. }) {
        return mark(cheap, FloatEncoding::Abstract);
    }
    crate::smt::record::clear();
    let _exact = float_mode_scope(FloatMode::Exact);
    mark(prove_unrecorded(tuple, opts, cancel), FloatEncoding::Exact)
}

fn prove_unrecorded(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Outcome {
    if let Some(outcome) = prove_without_axioms(tuple, opts, cancel) {
        return outcome;
    }
    // An ∃ copy that guesses a loop's count up front is tried first with the guess made
    // at each loop head (`prophecy`), in half the time: where it applies, the tuple as
    // written mostly fails only after a long search (measured: 955 queries against 8).
    if let Some(rewritten) = prophecy::rewrite(tuple) {
        match prove_first_in_half(&rewritten, opts, cancel, None) {
            Ok(proved) => return proved,
            Err(first) if cancel.is_cancelled() => return *first,
            Err(_) => {}
        }
    }
    prove_with_pre(tuple, opts, cancel)
}

/// A variant of the tuple whose proof proves it (a weaker `pre`, an ∃ copy with fewer
/// runs), tried in half the time left (at most `cap`): `Ok` with its proof, or `Err`
/// with its other outcome, recorded obligations cleared for the attempt that follows.
fn prove_first_in_half(
    variant: &Tuple,
    opts: &ProveOptions,
    cancel: &Cancel,
    cap: Option<std::time::Duration>,
) -> Result<Outcome, Box<Outcome>> {
    let mut half = cancel.remaining().unwrap_or(AXIOM_FREE_SLICE * 2) / 2;
    if let Some(cap) = cap {
        half = half.min(cap);
    }
    let outcome = prove_with_pre(variant, opts, &cancel.with_timeout(half));
    if matches!(outcome.verdict, Verdict::Verified { .. }) {
        return Ok(outcome);
    }
    crate::smt::record::clear();
    Err(Box::new(outcome))
}

/// Quantified conjuncts of `pre` (axioms about library functions, `forall x :: mix(x) >=
/// x`) turn every obligation on the path into a quantified query, which Z3 often
/// answers `unknown` or not at all, even when the proof never uses the axiom. So a tuple
/// whose `pre` has them is first proved without them, in half its time: weakening `pre`
/// is sound (the tuple quantifies over every initial state satisfying `pre`, ∃ copies'
/// included, so a proof for more initial states covers fewer). Only a proof counts;
/// any other outcome gives way to the attempt with the whole `pre`.
fn prove_without_axioms(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Option<Outcome> {
    let conjuncts = tuple.pre.conjuncts();
    if !conjuncts.iter().any(|c| c.has_quantifier()) || tuple.is_reactive() {
        return None;
    }
    let kept: Vec<Expr> = conjuncts.into_iter().filter(|c| !c.has_quantifier()).cloned().collect();
    let mut weaker = tuple.clone();
    weaker.pre =
        kept.into_iter().reduce(|a, b| Expr::binary(BinOp::And, a, b)).unwrap_or(Expr::bool(true));
    prove_first_in_half(&weaker, opts, cancel, Some(AXIOM_FREE_SLICE)).ok()
}

/// The longest first attempt without `pre`'s quantified conjuncts.
const AXIOM_FREE_SLICE: std::time::Duration = std::time::Duration::from_secs(30);

/// For each variable, the first variable `pre` equates it with through top-level
/// conjuncts `x == y` (`x === y` on floats, whose `==` is not identity: NaN, ±0) (itself
/// if none): such variables start with one symbol. The
/// initial states are the same (pre keeps the conjunct), but two copies of one program
/// then compute one term instead of two that only the solver can show equal (NI over a
/// 3000-arm chain: 21.5 s for the postcondition's query, see the commit log).
fn equated_initial_values(tuple: &Tuple) -> Vec<crate::ir::VarId> {
    use crate::ir::{ExprKind, VarId};
    let mut rep: Vec<VarId> = (0..tuple.vars.len() as u32).map(VarId).collect();
    fn find(rep: &mut [VarId], v: VarId) -> VarId {
        let mut r = v;
        while rep[r.index()] != r {
            r = rep[r.index()];
        }
        rep[v.index()] = r;
        r
    }
    for c in tuple.pre.conjuncts() {
        let ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ident), a, b) = &c.kind else { continue };
        if *op == BinOp::Eq && matches!(a.ty, crate::ir::Type::Float(_)) {
            continue;
        }
        let (ExprKind::Var(x), ExprKind::Var(y)) = (&a.kind, &b.kind) else { continue };
        if tuple.var(*x).ty != tuple.var(*y).ty {
            continue;
        }
        let (rx, ry) = (find(&mut rep, *x), find(&mut rep, *y));
        if rx != ry {
            // The smaller id represents the class, so that it is created first.
            let (lo, hi) = if rx.0 < ry.0 { (rx, ry) } else { (ry, rx) };
            rep[hi.index()] = lo;
        }
    }
    (0..tuple.vars.len() as u32).map(|i| find(&mut rep, VarId(i))).collect()
}

fn prove_with_pre(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Outcome {
    let _scope =
        crate::smt::session::engine_scope(cancel, opts.dump_smt.as_ref(), &tuple.name, "prove");
    if tuple.is_reactive() {
        // Sequential temporal tuples mean `post φ` (`observation::sequential` argues why).
        if let Some(post) = crate::observation::sequential::as_post_tuple(tuple) {
            return prove(&post, opts, cancel);
        }
        return temporal::prove(tuple, opts, cancel);
    }
    let start = Instant::now();
    let mut p = Prover::new(tuple, cancel);
    let main = Scope { floor: 0, conj: false };
    let mut vars: im::HashMap<crate::ir::VarId, z3::ast::Dynamic> = im::HashMap::new();
    let same = equated_initial_values(tuple);
    for (i, tv) in tuple.vars.iter().enumerate() {
        let v = crate::ir::VarId(i as u32);
        let sym = match vars.get(&same[i]) {
            Some(sym) => sym.clone(),
            None => p.syms.fresh(main, &tuple.var_display(v), &tv.ty, Kind::Univ),
        };
        vars.insert(v, sym);
    }
    let mut st = SymState { vars, pc: im::Vector::new() };
    let pre = st.eval_bool(&tuple.pre);
    st.pc.push_back(pre.clone());
    let conts = tuple.copies.iter().map(|c| c.body.iter().map(Item::S).collect()).collect();
    let cfg = Cfg::new(conts, st);
    let loop_free = tuple.copies.iter().all(|c| !genpp::has_loop(&c.body));
    p.assumes_at_end = loop_free;
    let mut result = p.run(cfg.clone(), Acc::new(), main, &End::Post);
    // ∃ code is stepped as soon as it is reached, so its choices cannot depend on what a
    // later ∀ loop computes. When that fails, try again with the ∃ copies waiting for the
    // ∀ loops (sound either way: ∃ choices may depend on the whole ∀ runs).
    if let Err(first) = &result {
        if first.kind != FailKind::Stopped && reorder_may_help(tuple) {
            p.proof.clear();
            crate::smt::record::clear();
            p.ends = Default::default();
            p.defer_exists = true;
            p.budget_from = p.smt.queries();
            let closest = p.closest.take();
            match p.run(cfg, Acc::new(), main, &End::Post) {
                Ok(a) => result = Ok(a),
                Err(f) if f.kind == FailKind::Stopped => result = Err(f),
                Err(_) => p.closest = closest,
            }
            p.defer_exists = false;
        }
    }
    let verdict = match result {
        Ok(_) => Verdict::Verified {
            proof: Proof {
                loop_points: describe_locksteps(p.proof.clone()),
                obligations: p.obligations,
                exhaustive: None,
                warnings: crate::vacuity::warnings_on(&pre, &p.ends, p.smt.session()),
                observation_bound: None,
                recorded: Default::default(),
                summary: None,
            },
        },
        Err(f) => {
            let undecided =
                |f: &Fail| format!("the prover could not decide a proof obligation: {}", f.msg);
            let reason = match f.kind {
                FailKind::Stopped if p.exhausted => {
                    UnknownReason::NoInvariant(f.msg + &tried(&p, opts))
                }
                FailKind::Stopped => UnknownReason::Cancelled(undecided(&f)),
                FailKind::Undecided => UnknownReason::SolverUnknown(undecided(&f)),
                FailKind::Invalid | FailKind::NoInvariant if loop_free => {
                    UnknownReason::NotProved(format!(
                        "not valid: {} fails for some ∀ runs whatever the ∃ copies choose (the \
                     encoding of loop-free programs is exact); the refuter can produce a \
                     counterexample",
                        f.msg
                    ))
                }
                FailKind::NoInvariant => UnknownReason::NoInvariant(f.msg + &tried(&p, opts)),
                FailKind::Invalid => UnknownReason::NotProved(f.msg + &tried(&p, opts)),
            };
            Verdict::Unknown { reason }
        }
    };
    Outcome {
        verdict,
        engine: Engine::Prove,
        time: start.elapsed(),
        stats: Stats { queries: p.smt.queries(), candidates: p.candidates, ..Stats::default() },
    }
}

/// Each lockstep's loop point names how its copies finished: `lockstep while every guard
/// holds, then c0 runs no more, then c1 alone`.
fn describe_locksteps(
    mut points: Vec<crate::verdict::LoopPointProof>,
) -> Vec<crate::verdict::LoopPointProof> {
    for k in 0..points.len() {
        let Some(of) = points[k].leftover_of else { continue };
        let what = points[k]
            .alignment
            .as_deref()
            .and_then(|a| a.split_once(": "))
            .map(|(_, w)| w.to_string());
        if let (Some(w), Some(Some(a))) = (what, points.get_mut(of).map(|p| p.alignment.as_mut())) {
            a.push_str(", then ");
            a.push_str(&w);
        }
    }
    points
}

/// Whether deferring the ∃ copies changes the schedule: some ∀ copy has a loop and some
/// ∃ copy has code that would run before it.
fn reorder_may_help(tuple: &Tuple) -> bool {
    use crate::ir::Quantifier;
    let forall_loop =
        tuple.copies.iter().any(|c| c.quantifier == Quantifier::Forall && genpp::has_loop(&c.body));
    forall_loop
        && tuple.copies.iter().any(|c| c.quantifier == Quantifier::Exists && !c.body.is_empty())
}

/// With `--explain`, the candidates tried, one per line, for the `unknown` reason.
fn tried(p: &Prover<'_>, opts: &ProveOptions) -> String {
    if !opts.explain || p.tried.is_empty() {
        return String::new();
    }
    let mut s = format!("\ncandidates tried ({} logged):", p.tried.len());
    for t in &p.tried {
        s.push_str("\n  ");
        s.push_str(t);
    }
    s
}
