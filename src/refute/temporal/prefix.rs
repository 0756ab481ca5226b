//! One query of the bounded ∀∃ search: is there a ∀ prefix with n observations that no
//! ∃ prefix with n observations matches (φ at every index 1..n)?
//!
//! All copies are encoded by [`symex`] as merged formulas. The query asks for initial
//! values and ∀ choices such that `pre` holds, every ∀ copy reaches its n-th observation,
//! and for ALL ∃ choices: the ∃ copies do not all reach their n-th observation with φ at
//! every index, and no ∃ copy is still inside a loop past the unrolling bound (such a
//! run might still become a witness later, so it must be impossible, not ignored).

use super::symex::{encode_copy, Encoded};
use crate::cancel::Cancel;
use crate::ir::{Quantifier, Tuple, VarId};
use crate::smt::encode::{encode_bool, fresh, term_value, value_term};
use crate::smt::incremental::{Eval, IncrementalModel, IncrementalSolver};
use crate::value::Value;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Dynamic};
use z3::{Model, SatResult, Solver};

/// A model from whichever solver answered: the first rounds' kept kernels, the later
/// rounds' solvers, or QSAT.
pub enum AnyModel {
    Kept(IncrementalModel),
    Z3(Model),
}

impl Eval for AnyModel {
    fn value_of<T: Ast>(&self, t: &T) -> Option<T> {
        match self {
            AnyModel::Kept(m) => m.value_of(t),
            AnyModel::Z3(m) => m.value_of(t),
        }
    }
}

/// A model of the query, read back as concrete values (not yet replayed).
pub struct Candidate {
    pub n: usize,
    pub unroll: u32,
    /// Initial value of every tuple variable.
    pub init: Vec<Value>,
    /// Per copy: the choices of its concrete path, in execution order (∃ copies: empty).
    pub choices: Vec<Vec<Value>>,
    /// Per copy: observed values 1..n in `Copy::vars` order (∃ copies: empty).
    pub observed: Vec<Vec<Vec<Value>>>,
}

pub enum Prefix {
    Found(Box<Candidate>),
    /// No counterexample with n observations among the explored ∀ runs;
    /// `forall_truncated`: some ∀ run was cut at the unrolling bound.
    None {
        forall_truncated: bool,
    },
    /// No ∀ run reaches its n-th observation (`truncated`: among those explored).
    NoForallPrefix {
        truncated: bool,
    },
    /// An ∃ copy may stay in a loop beyond the unrolling bound without its n-th
    /// observation: "no ∃ prefix" cannot be claimed at this bound.
    ExistsUnbounded,
    Unknown(String),
}

/// φ at every index 1..n, reading each copy's i-th observation through `obs(copy, i)`.
pub fn phi_all(tuple: &Tuple, n: usize, obs: &dyn Fn(usize, usize) -> Vec<Dynamic>) -> Bool {
    let mut parts = Vec::new();
    for i in 0..n {
        let per_copy: Vec<Vec<Dynamic>> = (0..tuple.copies.len()).map(|c| obs(c, i)).collect();
        let lookup = |v: VarId| {
            let c = tuple.var(v).copy;
            let pos = tuple.copies[c].vars.iter().position(|w| *w == v).expect("copy variable");
            per_copy[c][pos].clone()
        };
        parts.push(encode_bool(&tuple.post, &lookup));
    }
    Bool::and(&parts)
}

/// The ∃ side: (witness: all ∃ copies reach observation n with φ at every index,
/// residual: some ∃ copy is still looping past the bound), with the ∀ observations
/// read through `forall_obs(copy, i)`.
pub fn exists_side(
    tuple: &Tuple,
    enc: &[Encoded],
    n: usize,
    forall_obs: &dyn Fn(usize, usize) -> Vec<Dynamic>,
) -> (Bool, Bool) {
    let mut guards = Vec::new();
    let mut residuals = Vec::new();
    let mut all_done = true;
    for (c, _) in tuple.exists_copies() {
        residuals.push(enc[c].residual.clone());
        match &enc[c].done {
            Some(d) => guards.push(d.guard.clone()),
            None => all_done = false,
        }
    }
    let residual = Bool::or(&residuals).simplify();
    if !all_done {
        return (Bool::from_bool(false), residual);
    }
    let phi = phi_all(tuple, n, &|c, i| match tuple.copies[c].quantifier {
        Quantifier::Forall => forall_obs(c, i),
        Quantifier::Exists => enc[c].done.as_ref().expect("all done").obs[i].clone(),
    });
    guards.push(phi);
    (Bool::and(&guards).simplify(), residual)
}

/// Encodes every ∃ copy from `init` (∀ copies are not encoded: their entries are unused).
pub fn encode_exists(
    tuple: &Tuple,
    init: &[Dynamic],
    n: usize,
    unroll: u32,
    cancel: &Cancel,
) -> Vec<Encoded> {
    (0..tuple.copies.len())
        .map(|c| match tuple.copies[c].quantifier {
            Quantifier::Exists => encode_copy(tuple, c, init, n, unroll, cancel),
            Quantifier::Forall => placeholder(),
        })
        .collect()
}

pub fn placeholder() -> Encoded {
    let none = Bool::from_bool(false);
    Encoded { done: None, residual: none.clone(), approx: none, choices: Vec::new() }
}

/// Checks `solver` under `cancel` (interrupted when it fires; dumped under
/// `--dump-smt`).
pub fn check(solver: &Solver, cancel: &Cancel) -> SatResult {
    check_within(solver, cancel, None)
}

/// [`check`] that also gives up after `limit`.
fn check_within(solver: &Solver, cancel: &Cancel, limit: Option<std::time::Duration>) -> SatResult {
    crate::smt::session::check(solver, &[], cancel, limit).to_z3()
}

/// How hard [`check_prefix`] tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// Only where the light quantifier elimination leaves a quantifier-free query (one
    /// check); otherwise the answer is `Unknown` at once.
    Light,
    /// Counterexample-guided rounds and QSAT tries until the time limit.
    Full,
}

/// The query for observation index `n` at unrolling bound `unroll`.
pub fn check_prefix(
    tuple: &Tuple,
    n: usize,
    unroll: u32,
    effort: Effort,
    cancel: &Cancel,
) -> Prefix {
    let init: Vec<Dynamic> =
        tuple.vars.iter().enumerate().map(|(i, v)| fresh(&format!("init{i}"), &v.ty)).collect();
    let mut enc = encode_exists(tuple, &init, n, unroll, cancel);
    for (c, _) in tuple.forall_copies() {
        enc[c] = encode_copy(tuple, c, &init, n, unroll, cancel);
    }
    let forall: Vec<usize> = tuple.forall_copies().map(|(c, _)| c).collect();
    let forall_truncated = forall.iter().any(|c| enc[*c].residual.as_bool() != Some(false));
    let mut reach = Vec::new();
    for c in &forall {
        match &enc[*c].done {
            Some(d) => reach.push(d.guard.clone()),
            None => return Prefix::NoForallPrefix { truncated: forall_truncated },
        }
    }
    let forall_obs = |c: usize, i: usize| enc[c].done.as_ref().expect("∀ done").obs[i].clone();
    let (witness, residual) = exists_side(tuple, &enc, n, &forall_obs);
    let pre = encode_bool(&tuple.pre, &|v: VarId| init[v.index()].clone());
    let no_match = Bool::and(&[witness.not(), residual.not()]);
    let mut inexact = vec![residual.clone()];
    inexact.extend(tuple.exists_copies().map(|(c, _)| enc[c].approx.clone()));
    let inexact = Bool::or(&inexact).simplify();
    let e_choices: Vec<Dynamic> = tuple
        .exists_copies()
        .flat_map(|(c, _)| enc[c].choices.iter().map(|(k, _)| k.clone()))
        .collect();
    // The ∀ side's unknowns: initial values and ∀ choices.
    let mut outer: Vec<Dynamic> = init.clone();
    for c in &forall {
        outer.extend(enc[*c].choices.iter().map(|(k, _)| k.clone()));
    }
    let mut base = vec![pre.clone()];
    base.extend(reach.iter().cloned());
    let t0 = std::time::Instant::now();
    let (result, model) = exists_forall(&base, &no_match, &outer, &e_choices, effort, cancel);
    // Unsat because no ∀ run reaches observation n at all? Then nothing is checked at n,
    // nor at any later index: the search can end there (exhaustively, if not truncated).
    if result == SatResult::Unsat && jointly_unreachable(&base, cancel) {
        return Prefix::NoForallPrefix { truncated: forall_truncated };
    }
    // A development aid for measuring how Z3 fares with each query.
    if std::env::var_os("FOREX_DEBUG_SMT").is_some() {
        eprintln!("reactive: n = {n}, unroll {unroll}: {result:?} in {:?}", t0.elapsed());
    }
    match result {
        SatResult::Sat => {
            let Some(model) = model else {
                return Prefix::Unknown("Z3 gave no model".into());
            };
            match read_candidate(tuple, &enc, &init, &model, n, unroll) {
                Some(c) => Prefix::Found(Box::new(c)),
                None => Prefix::Unknown("the model has values forex cannot read".into()),
            }
        }
        SatResult::Unknown => Prefix::Unknown(match model {
            _ if cancel.is_cancelled() => "the time limit was reached".into(),
            _ => "Z3 returned unknown".into(),
        }),
        SatResult::Unsat if inexact.as_bool() == Some(false) => Prefix::None { forall_truncated },
        SatResult::Unsat => {
            // Unsat may be due to the residue or to summarised (over-approximated) ∃
            // runs alone: can an ∃ copy loop past the bound?
            let s = crate::smt::session::solver();
            s.assert(&pre);
            for g in &reach {
                s.assert(g);
            }
            s.assert(&inexact);
            match check(&s, cancel) {
                SatResult::Unsat => Prefix::None { forall_truncated },
                SatResult::Sat => Prefix::ExistsUnbounded,
                SatResult::Unknown => Prefix::Unknown(unknown_reason(&s, cancel)),
            }
        }
    }
}

/// Whether `base` (pre and every ∀ copy reaching its n-th observation) is unsat.
fn jointly_unreachable(base: &[Bool], cancel: &Cancel) -> bool {
    let s = crate::smt::session::solver();
    for b in base {
        s.assert(b);
    }
    check(&s, cancel) == SatResult::Unsat
}

/// Whether the ∀ copies can (jointly, from a state satisfying `pre`) reach their n-th
/// observation: `NoForallPrefix` when they cannot (`truncated`: among the runs explored
/// up to `unroll` loop iterations), `None` when they can.
pub fn forall_reaches(tuple: &Tuple, n: usize, unroll: u32, cancel: &Cancel) -> Prefix {
    let init: Vec<Dynamic> =
        tuple.vars.iter().enumerate().map(|(i, v)| fresh(&format!("init{i}"), &v.ty)).collect();
    let mut base = vec![encode_bool(&tuple.pre, &|v: VarId| init[v.index()].clone())];
    let mut truncated = false;
    let mut reachable = true;
    for (c, _) in tuple.forall_copies() {
        let enc = encode_copy(tuple, c, &init, n, unroll, cancel);
        truncated |= enc.residual.as_bool() != Some(false);
        match enc.done {
            Some(d) => base.push(d.guard),
            None => reachable = false,
        }
    }
    if !reachable {
        return Prefix::NoForallPrefix { truncated };
    }
    let s = crate::smt::session::solver();
    for b in &base {
        s.assert(b);
    }
    match check(&s, cancel) {
        SatResult::Unsat => Prefix::NoForallPrefix { truncated },
        SatResult::Sat => Prefix::None { forall_truncated: truncated },
        SatResult::Unknown => Prefix::Unknown(unknown_reason(&s, cancel)),
    }
}

/// Counterexample-guided rounds before the query also goes to Z3 as one quantified
/// formula (most queries end within them, or are unsat and need the whole formula).
const FIRST_ROUNDS: usize = 8;

/// Rounds before a short QSAT try ([`QUICK_QSAT`]): where the ∃ witness is a function of
/// the ∀ values, rounds never converge, and on small queries QSAT answers in a few
/// milliseconds (hyena0's ORHLE files: 2–9 ms after 8 fruitless rounds of ~0.5 ms).
const QUICK_ROUNDS: usize = 3;
const QUICK_QSAT: Duration = Duration::from_millis(15);

/// Decides `∃ outer. base ∧ ∀ inner. body` and returns a model of the outer unknowns.
///
/// Counterexample-guided: a candidate for the outer unknowns from the instantiations
/// so far, then a quantifier-free search for an `inner` value refuting `body` for it,
/// which becomes the next instantiation. On the ∃ side of ∀∃ tuples one or two
/// dominant ∃ runs usually refute every ∀ candidate that is no counterexample, which
/// Z3's own quantifier instantiation on the whole formula found much more slowly
/// (measured on `escalating` at n = 10: 0.9 s for its one query). After
/// [`FIRST_ROUNDS`] rounds the whole formula goes to Z3's QSAT tactic (linear integer
/// arithmetic) for a bounded time, alternating with more rounds ([`QSAT_SCHEDULE`]),
/// then the rounds go on until the time limit: each blocks one refuted candidate, which
/// reaches a counterexample that is rare among the candidates (a prime among the ∀
/// values where the ∃ side factors) where quantifier instantiation in Z3 does not.
/// Other sorts go to Z3's general solver whole.
fn exists_forall(
    base: &[Bool],
    body: &Bool,
    outer: &[Dynamic],
    inner: &[Dynamic],
    effort: Effort,
    cancel: &Cancel,
) -> (SatResult, Option<AnyModel>) {
    let candidates = crate::smt::session::solver();
    for b in base {
        candidates.assert(b);
    }
    if inner.is_empty() {
        candidates.assert(body);
        let r = check(&candidates, cancel);
        return (r, candidates.get_model().map(AnyModel::Z3));
    }
    let bound: Vec<&dyn Ast> = inner.iter().map(|k| k as &dyn Ast).collect();
    let quantified = z3::ast::forall_const(&bound, &[], body);
    if let Some(done) = eliminated(&candidates, body, inner, &quantified, cancel) {
        return done;
    }
    if effort == Effort::Light {
        return (SatResult::Unknown, None);
    }
    let mut rounds = Rounds::new(candidates, body, outer, inner);
    let int_or_bool = outer.iter().chain(inner).all(is_int_or_bool);
    if let Some(done) = rounds.run(QUICK_ROUNDS, None, cancel) {
        return done;
    }
    if int_or_bool {
        if let Some(done) = qsat(base, &quantified, QUICK_QSAT, cancel) {
            return done;
        }
    }
    if let Some(done) = rounds.run(FIRST_ROUNDS - QUICK_ROUNDS, None, cancel) {
        return done;
    }
    rounds.kept = None;
    // Where an ∃ witness is a function of the ∀ values (x = 2·b + 1), instantiating
    // with points never converges. Z3's QSAT tactic (model-based projection) decides
    // ∃∀ linear integer arithmetic; its models are replayed like any other. Bounded,
    // and interleaved with more rounds: a short try first, since where it does not
    // answer within half a second the rounds often do (a rare counterexample among many
    // candidates), then a longer one, then rounds until the time limit.
    if int_or_bool {
        for (qsat_limit, rounds_budget) in QSAT_SCHEDULE {
            if let Some(done) = qsat(base, &quantified, qsat_limit, cancel) {
                return done;
            }
            if let Some(done) = rounds.run(usize::MAX, Some(rounds_budget), cancel) {
                return done;
            }
        }
        return rounds.run(usize::MAX, None, cancel).unwrap_or((SatResult::Unknown, None));
    }
    rounds.candidates.assert(&quantified);
    let r = check(&rounds.candidates, cancel);
    (r, rounds.candidates.get_model().map(AnyModel::Z3))
}

/// `base ∧ quantified` without quantifiers, when Z3's light quantifier elimination
/// removes them all (`crate::smt::light`): most ∃ choices are fixed by equalities with
/// ∀ values, and one quantifier-free check then answers the query. `∀inner. body` is
/// `¬∃inner. ¬body`, whose positive form (an ∃ copy's run matching) the elimination
/// handles best; the universal form is the fallback.
fn eliminated(
    base: &Solver,
    body: &Bool,
    inner: &[Dynamic],
    quantified: &Bool,
    cancel: &Cancel,
) -> Option<(SatResult, Option<AnyModel>)> {
    let light = match crate::smt::light::exists_free(inner, &body.not()) {
        Some(matching) => matching.not(),
        None => crate::smt::light::eliminate_light(quantified)?,
    };
    if crate::smt::light::has_quantifier(&light) {
        return None;
    }
    base.push();
    base.assert(&light);
    let answer = check(base, cancel);
    let model = (answer == SatResult::Sat).then(|| base.get_model().map(AnyModel::Z3)).flatten();
    base.pop(1);
    match answer {
        SatResult::Unknown if !cancel.is_cancelled() => None,
        _ => Some((answer, model)),
    }
}

/// The QSAT tries of [`exists_forall`]: each one's time limit, then the time for the
/// counterexample-guided rounds that follow it. The sum bounds the time spent before
/// the rounds go on alone (a QSAT answer has been seen to take up to 2 s, on hyena0's
/// `loop-refinement`). `no_primes_above_31397` needs exactly 65 rounds of 45–70 ms
/// (2.8–4.5 s): with 4 s for them, a loaded machine tipped it into the 3 s QSAT try,
/// which never answers there (measured under load, 4 runs each: 6.0–11.3 s with 4 s,
/// 6.1–7.4 s with 8 s; hyena0's folder with `--engine refute --jobs 1` gave the same
/// verdicts either way).
const QSAT_SCHEDULE: [(Duration, Duration); 2] = [
    (Duration::from_millis(500), Duration::from_secs(8)),
    (Duration::from_secs(3), Duration::ZERO),
];

/// `base ∧ quantified` by Z3's QSAT tactic within `limit`; `None` when it gave no answer
/// (and the time limit was not reached).
fn qsat(
    base: &[Bool],
    quantified: &Bool,
    limit: Duration,
    cancel: &Cancel,
) -> Option<(SatResult, Option<AnyModel>)> {
    // Limited through the interrupt watch, not `try_for`: Z3's own timer can deadlock as
    // a check ends (see `smt::session`).
    let qsat = z3::Tactic::new("qsat").solver();
    for b in base {
        qsat.assert(b);
    }
    qsat.assert(quantified);
    let t0 = std::time::Instant::now();
    let answer = check_within(&qsat, cancel, Some(limit));
    if std::env::var_os("FOREX_DEBUG_SMT").is_some() {
        eprintln!("reactive: qsat {answer:?} in {:?}", t0.elapsed());
    }
    match answer {
        SatResult::Sat => Some((SatResult::Sat, qsat.get_model().map(AnyModel::Z3))),
        SatResult::Unsat => Some((SatResult::Unsat, None)),
        SatResult::Unknown if cancel.is_cancelled() => Some((SatResult::Unknown, None)),
        SatResult::Unknown => None,
    }
}

/// The two solvers of [`exists_forall`]'s counterexample-guided rounds.
///
/// The first rounds (until [`exists_forall`] drops `kept`) go to two incremental
/// kernels, which keep what they learnt from one round to the next: a round costs
/// ~0.2 ms instead of ~0.5 ms (hyena0's small ORHLE queries end within them). The long
/// search for a rare counterexample goes to solvers that solve every check afresh: the
/// kept kernels' candidates varied less, and `no_primes_above_31397` was not refuted
/// within 20 s (3.6 s afresh).
struct Rounds<'a> {
    /// The base and every instantiation so far: its models are the candidates.
    candidates: Solver,
    /// `¬body`: a model for a fixed candidate is an inner value refuting it.
    refuter: Solver,
    /// The same two, as incremental kernels, while the first rounds last.
    kept: Option<(IncrementalSolver, IncrementalSolver)>,
    body: &'a Bool,
    outer: &'a [Dynamic],
    inner: &'a [Dynamic],
}

impl<'a> Rounds<'a> {
    fn new(
        candidates: Solver,
        body: &'a Bool,
        outer: &'a [Dynamic],
        inner: &'a [Dynamic],
    ) -> Rounds<'a> {
        let refuter = crate::smt::session::solver();
        refuter.assert(body.not());
        let kept = IncrementalSolver::new().zip(IncrementalSolver::new()).map(|(c, r)| {
            for a in candidates.get_assertions() {
                c.assert(a);
            }
            r.assert(body.not());
            (c, r)
        });
        Rounds { candidates, refuter, kept, body, outer, inner }
    }

    /// A candidate for the outer unknowns, or why there is none.
    fn candidate(&self, cancel: &Cancel) -> Result<AnyModel, SatResult> {
        match &self.kept {
            Some((c, _)) => match crate::smt::session::check(c, &[], cancel, None) {
                crate::smt::session::Sat::Sat => {
                    c.model().map(AnyModel::Kept).ok_or(SatResult::Unknown)
                }
                other => Err(other.to_z3()),
            },
            None => match check(&self.candidates, cancel) {
                SatResult::Sat => {
                    self.candidates.get_model().map(AnyModel::Z3).ok_or(SatResult::Unknown)
                }
                other => Err(other),
            },
        }
    }

    /// Whether some inner value refutes `body` for the outer values `fixed`, and which.
    fn refute(&self, fixed: &[Bool], cancel: &Cancel) -> (SatResult, Option<AnyModel>) {
        match &self.kept {
            Some((_, r)) => {
                let answer = crate::smt::session::check(r, fixed, cancel, None).to_z3();
                let w = if answer == SatResult::Sat { r.model().map(AnyModel::Kept) } else { None };
                (answer, w)
            }
            None => {
                self.refuter.push();
                for f in fixed {
                    self.refuter.assert(f);
                }
                let answer = check(&self.refuter, cancel);
                let w = if answer == SatResult::Sat {
                    self.refuter.get_model().map(AnyModel::Z3)
                } else {
                    None
                };
                self.refuter.pop(1);
                (answer, w)
            }
        }
    }

    /// Up to `max` rounds and at most `budget` of time; `None` when they did not decide
    /// the query (the time limit reached is `Unknown`).
    fn run(
        &mut self,
        max: usize,
        budget: Option<Duration>,
        cancel: &Cancel,
    ) -> Option<(SatResult, Option<AnyModel>)> {
        let start = Instant::now();
        for _ in 0..max {
            if budget.is_some_and(|b| start.elapsed() >= b) {
                return None;
            }
            let m = match self.candidate(cancel) {
                Ok(m) => m,
                Err(answer) => return Some((answer, None)),
            };
            let fixed: Vec<Bool> =
                self.outer.iter().filter_map(|a| Some(a.eq(&m.value_of(a)?))).collect();
            match self.refute(&fixed, cancel) {
                (SatResult::Unsat, _) => return Some((SatResult::Sat, Some(m))),
                (SatResult::Sat, Some(w)) => {
                    let values: Vec<Dynamic> = self
                        .inner
                        .iter()
                        .map(|e| w.value_of(e).unwrap_or_else(|| e.clone()))
                        .collect();
                    let pairs: Vec<(&Dynamic, &Dynamic)> = self.inner.iter().zip(&values).collect();
                    // Simplified: with the inner values fixed, most of the ∃ encoding
                    // folds to constants, which keeps later candidate checks cheap.
                    let instance = self.body.substitute(&pairs).simplify();
                    if let Some((c, _)) = &self.kept {
                        c.assert(&instance);
                    }
                    self.candidates.assert(instance);
                }
                _ => return Some((SatResult::Unknown, None)),
            }
        }
        None
    }
}

fn is_int_or_bool(k: &Dynamic) -> bool {
    matches!(k.get_sort().kind(), z3::SortKind::Int | z3::SortKind::Bool)
}

pub fn unknown_reason(solver: &Solver, cancel: &Cancel) -> String {
    if cancel.is_cancelled() {
        "the time limit was reached".into()
    } else {
        format!("Z3 returned unknown ({})", solver.get_reason_unknown().unwrap_or_default())
    }
}

fn value(model: &impl Eval, t: &Dynamic, ty: &crate::ir::Type) -> Option<Value> {
    term_value(&model.value_of(t)?, ty)
}

fn read_candidate(
    tuple: &Tuple,
    enc: &[Encoded],
    init: &[Dynamic],
    model: &impl Eval,
    n: usize,
    unroll: u32,
) -> Option<Candidate> {
    let init_values = tuple
        .vars
        .iter()
        .zip(init)
        .map(|(v, t)| value(model, t, &v.ty))
        .collect::<Option<Vec<Value>>>()?;
    let mut choices = vec![Vec::new(); tuple.copies.len()];
    let mut observed = vec![Vec::new(); tuple.copies.len()];
    for (c, copy) in tuple.forall_copies() {
        for (k, guard) in &enc[c].choices {
            if model.value_of(guard)?.as_bool()? {
                let ty =
                    if k.as_bool().is_some() { crate::ir::Type::Bool } else { type_of(tuple, k)? };
                choices[c].push(value(model, k, &ty)?);
            }
        }
        let done = enc[c].done.as_ref()?;
        for obs in &done.obs {
            let row = copy
                .vars
                .iter()
                .zip(obs)
                .map(|(v, t)| value(model, t, &tuple.var(*v).ty))
                .collect::<Option<Vec<Value>>>()?;
            observed[c].push(row);
        }
    }
    Some(Candidate { n, unroll, init: init_values, choices, observed })
}

/// The IR type of a choice constant, from its sort (choices are scalars: `x = *` on a
/// scalar variable, or an `if (*)` boolean).
fn type_of(_tuple: &Tuple, k: &Dynamic) -> Option<crate::ir::Type> {
    use z3::SortKind;
    let sort = k.get_sort();
    match sort.kind() {
        SortKind::Int => Some(crate::ir::Type::Int),
        SortKind::Bool => Some(crate::ir::Type::Bool),
        SortKind::Bv => Some(crate::ir::Type::Bv(k.as_bv()?.get_size())),
        _ => None,
    }
}

/// Terms for concrete values (replay substitutes them for symbolic ones).
pub fn terms(values: &[Value]) -> Vec<Dynamic> {
    values.iter().map(value_term).collect()
}
