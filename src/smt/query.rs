//! The one builder for ∀∃∀ validity queries `∀A. ∃P. ∀B. φ`, with a per-run result
//! cache, deadlines from [`Cancel`] and optional SMT-LIB dumps.
//!
//! Callers hand over the matrix φ and a classification of its free constants into
//! A (universal, outermost), P (existential) and B (universal, innermost). Validity is
//! decided as unsatisfiability of the negation `∀P. ∃B. ¬φ` with A left free, which is
//! quantifier-free when P is empty (the common case: k-safety and every check without
//! parameters). An `unknown` or a timeout is reported as [`Answer::Unknown`], never as
//! valid.

use super::light::{binds_any, equated_terms, has_quantifier, lighten, solve_equalities};
use super::session::{stopped, Sat, Session, Why};
use crate::cancel::Cancel;
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic};

/// Where a free constant sits in the quantifier prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Universal, outermost (initial values, ∀-side choices).
    A,
    /// Existential (parameters: ∃-side choices).
    P,
    /// Universal, innermost (∃-side values summarised by loop invariants).
    B,
}

/// The answer to one validity query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Valid,
    Invalid,
    /// The solver gave up (timeout, incompleteness, cancellation, memory).
    Unknown(Why),
}

/// Longest time one query may take when the caller set no deadline.
const DEFAULT_QUERY_CAP: Duration = Duration::from_secs(60);

/// Issues validity queries for one prover run through its [`Session`]; holds the cache.
pub struct QueryEngine {
    /// Keyed by the assertion itself: Z3 hash-conses terms, so hashing and equality are
    /// by node identity and cost O(1). (Printing the query as text, as an earlier version
    /// did, is exponential on a shared DAG and cannot be interrupted.)
    cache: HashMap<Bool, Answer>,
    session: Session,
}

impl QueryEngine {
    pub fn new(cancel: &Cancel) -> QueryEngine {
        QueryEngine { cache: HashMap::new(), session: Session::new(cancel) }
    }

    /// The session the queries go to, for other checks of the same run.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Queries sent to Z3 (cache hits excluded).
    pub fn queries(&self) -> u64 {
        self.session.stats.queries
    }

    /// Queries answered from the cache.
    pub fn cache_hits(&self) -> u64 {
        self.session.stats.cache_hits
    }

    /// Decides `∀A. ∃P. ∀B. phi`, classifying each free constant of `phi` with `class`.
    ///
    /// `known` lists constants the caller created; it is consulted only when `phi`
    /// contains quantifiers, whose bodies the z3 crate's walk cannot enter: such a
    /// constant is looked for in the bodies through Z3's own API (a DAG walk, no text).
    pub fn valid(
        &mut self,
        phi: &Bool,
        class: &dyn Fn(&Dynamic) -> Class,
        known: &[Dynamic],
    ) -> Answer {
        let answer = self.decide(phi, class, known);
        // Certificates (`smt::record`, opt-in per thread): every valid obligation.
        if answer == Answer::Valid {
            super::record::obligation(phi, class, known);
        }
        answer
    }

    fn decide(
        &mut self,
        phi: &Bool,
        class: &dyn Fn(&Dynamic) -> Class,
        known: &[Dynamic],
    ) -> Answer {
        // Z3's simplifier shares work across the DAG (it caches per node), so this is
        // linear in the term; trivial obligations are settled even past the deadline.
        let phi = phi.simplify();
        if let Some(b) = phi.as_bool() {
            return if b { Answer::Valid } else { Answer::Invalid };
        }
        if self.session.cancel().is_cancelled() {
            return Answer::Unknown(stopped(self.session.cancel()));
        }
        let mut params = Vec::new();
        let mut inner = Vec::new();
        let (mut consts, quantified) = free_constants(&phi);
        // Outer arrays only inside quantifiers (`post forall k :: a.t[k] == b.t[k]`) are
        // witness candidates too, though not free constants of the query's prefix.
        let mut arrays_inside = Vec::new();
        if quantified {
            let inside = all_constants(&phi);
            for k in known {
                if !consts.contains(k) && inside.contains(k) {
                    consts.push(k.clone());
                }
            }
            arrays_inside = inside
                .into_iter()
                .filter(|c| is_array(c) && !consts.contains(c) && class(c) == Class::A)
                .collect();
        }
        // Quantifier elimination pays off on linear integer arithmetic only (measured:
        // on bit-vector queries Z3's default MBQI is faster).
        let arithmetic = consts
            .iter()
            .all(|c| matches!(c.get_sort().kind(), z3::SortKind::Int | z3::SortKind::Bool));
        let mut outer_strings = Vec::new();
        let mut outer_arrays = Vec::new();
        for c in consts {
            match class(&c) {
                // String literals are nullary applications too: they land here, and are
                // as good witness candidates as the ∀ side's strings.
                Class::A if is_string(&c) => outer_strings.push(c),
                Class::A if is_array(&c) => outer_arrays.push(c),
                Class::A => {}
                Class::P => params.push(c),
                Class::B => inner.push(c),
            }
        }
        if params.iter().any(is_string) {
            if let Some(answer) = self.string_witnesses(&phi, &params, &inner, &outer_strings) {
                return answer;
            }
        }
        outer_arrays.extend(arrays_inside);
        if params.iter().any(is_array) {
            if let Some(answer) = self.array_witnesses(&phi, &params, &inner, &outer_arrays) {
                return answer;
            }
        }
        let negated = phi.not();
        let assertion = if params.is_empty() {
            // ∀A∀B. φ: B can stay free as well.
            negated
        } else {
            let body = if inner.is_empty() {
                negated
            } else {
                let bs: Vec<&dyn Ast> = inner.iter().map(|c| c as &dyn Ast).collect();
                z3::ast::exists_const(&bs, &[], &negated)
            };
            let ps: Vec<&dyn Ast> = params.iter().map(|c| c as &dyn Ast).collect();
            z3::ast::forall_const(&ps, &[], &body)
        };
        if let Some(answer) = self.cache.get(&assertion) {
            self.session.stats.cache_hits += 1;
            return answer.clone();
        }
        let t0 = std::time::Instant::now();
        let answer = if params.is_empty() {
            let solved = solve_equalities(&assertion);
            self.solve(solved.as_ref().unwrap_or(&assertion), false, false, None)
        } else {
            let lighter = lighten(&phi, &params, &inner, &assertion);
            let quantified = has_quantifier(&lighter);
            let guessed = if quantified && binds_any(&lighter, &params) {
                self.equality_witnesses(&phi, &params, &inner)
            } else {
                None
            };
            // Array parameters no outer array witnesses: MBQI rarely decides these
            // (measured: `incomplete (theory array)` at once, or no answer at all).
            let cap = if params.iter().any(is_array) { Some(ARRAY_PARAM_SLICE) } else { None };
            guessed
                .unwrap_or_else(|| self.solve(&lighter, arithmetic && quantified, quantified, cap))
        };
        // A development aid for measuring how Z3 fares with each query shape.
        if std::env::var_os("FOREX_DEBUG_SMT").is_some() {
            eprintln!(
                "smt: {} params, {} inner, {:?}, {:?}",
                params.len(),
                inner.len(),
                answer,
                t0.elapsed(),
            );
        }
        // Unknowns depend on the time left; only definitive answers are reusable.
        if !matches!(answer, Answer::Unknown(_)) {
            self.cache.insert(assertion, answer.clone());
        }
        answer
    }

    /// Z3's sequence solver rarely finds an ∃ string by itself under quantifiers (MBQI
    /// has no candidate terms for it), so before the full query this tries witnesses
    /// built from the ∀ side: every string parameter replaced by one of the outer strings
    /// (∀ values and literals), `""`, or (for a single string parameter) a concatenation
    /// of two of them. See [`QueryEngine::witnesses`].
    fn string_witnesses(
        &mut self,
        phi: &Bool,
        params: &[Dynamic],
        inner: &[Dynamic],
        outer: &[Dynamic],
    ) -> Option<Answer> {
        let (strs, rest): (Vec<&Dynamic>, Vec<&Dynamic>) =
            params.iter().partition(|p| is_string(p));
        let mut base: Vec<Dynamic> = vec![Dynamic::from_ast(&super::encode::str_literal(""))];
        base.extend(outer.iter().take(MAX_WITNESS_BASE).cloned());
        base.dedup();
        let per_param: Vec<Dynamic> = if strs.len() == 1 {
            let mut all = base.clone();
            for a in &base[1..] {
                for b in &base[1..] {
                    let (a, b) = (a.as_string()?, b.as_string()?);
                    all.push(Dynamic::from_ast(&z3::ast::String::concat(&[a, b])));
                }
            }
            all
        } else {
            base
        };
        let candidates = vec![per_param; strs.len()];
        self.witnesses(phi, &strs, &candidates, &rest, inner, "string")
    }

    /// Z3's array theory is incomplete under quantifiers (`(incomplete (theory array))`),
    /// which an ∃ copy that chooses a whole array (`t = *;`) or stores chosen values
    /// meets at once. Before the full query this tries every array parameter as one of
    /// the outer arrays of its sort (the ∀ copies' arrays, initial or final). See
    /// [`QueryEngine::witnesses`].
    fn array_witnesses(
        &mut self,
        phi: &Bool,
        params: &[Dynamic],
        inner: &[Dynamic],
        outer: &[Dynamic],
    ) -> Option<Answer> {
        let (arrays, rest): (Vec<&Dynamic>, Vec<&Dynamic>) =
            params.iter().partition(|p| is_array(p));
        let candidates: Vec<Vec<Dynamic>> = arrays
            .iter()
            .map(|p| {
                outer
                    .iter()
                    .filter(|o| o.get_sort() == p.get_sort())
                    .take(MAX_WITNESS_BASE)
                    .cloned()
                    .collect()
            })
            .collect();
        if candidates.iter().any(|c| c.is_empty()) {
            return None;
        }
        self.witnesses(phi, &arrays, &candidates, &rest, inner, "array")
    }

    /// The light elimination leaves a parameter quantified when it is fixed only on some
    /// paths (`¬(j < n ∧ …) ∨ ret == choice`, a choice confined to `{9, 10, 11}` when
    /// the call is made): MBQI then searches for it (measured: no answer in 20 s for
    /// Elaenia's `code-sinking`). Before the full query this tries the terms each
    /// integer parameter is equated with in φ as its witness: other parameters and
    /// numerals. See [`QueryEngine::witnesses`].
    fn equality_witnesses(
        &mut self,
        phi: &Bool,
        params: &[Dynamic],
        inner: &[Dynamic],
    ) -> Option<Answer> {
        let (mut chosen, mut candidates, mut rest) = (Vec::new(), Vec::new(), Vec::new());
        for p in params {
            let terms = if p.as_int().is_some() { equated_terms(phi, p) } else { Vec::new() };
            if terms.is_empty() || terms.len() > MAX_WITNESS_BASE {
                rest.push(p);
            } else {
                chosen.push(p);
                candidates.push(terms);
            }
        }
        if chosen.is_empty() {
            return None;
        }
        self.witnesses(phi, &chosen, &candidates, &rest, inner, "equated")
    }

    /// Whether some combination of `candidates` (one list per parameter of `chosen`)
    /// witnesses `phi`, the other parameters (`rest`) still existential: the query then
    /// has fewer quantified parameters of a hard sort, and its validity implies the
    /// original's (a witness was exhibited). Anything else falls through to the full query
    /// (`None`), so this never answers `Invalid` or `Unknown`.
    fn witnesses(
        &mut self,
        phi: &Bool,
        chosen: &[&Dynamic],
        candidates: &[Vec<Dynamic>],
        rest: &[&Dynamic],
        inner: &[Dynamic],
        what: &str,
    ) -> Option<Answer> {
        // Every combination of candidates, one per chosen parameter (bounded).
        let mut combos: Vec<Vec<Dynamic>> = vec![Vec::new()];
        for per_param in candidates {
            combos = combos
                .iter()
                .flat_map(|c| {
                    per_param.iter().map(move |t| {
                        let mut c = c.clone();
                        c.push(t.clone());
                        c
                    })
                })
                .collect();
            if combos.len() > MAX_WITNESS_COMBINATIONS {
                return None;
            }
        }
        // ¬(some candidate works): each candidate fails for some inner values.
        let failures: Vec<Bool> = combos
            .iter()
            .map(|ts| {
                let subst: Vec<(&Dynamic, &Dynamic)> = chosen.iter().copied().zip(ts).collect();
                // A candidate may be another chosen parameter (`ret == choice`): substitute
                // until none is left (a cycle leaves some free, which only makes the
                // query stronger: every value of them must then work).
                let mut witnessed = phi.substitute(&subst);
                for _ in 1..chosen.len() {
                    witnessed = witnessed.substitute(&subst);
                }
                let fails = witnessed.not();
                if inner.is_empty() {
                    fails
                } else {
                    let bs: Vec<&dyn Ast> = inner.iter().map(|c| c as &dyn Ast).collect();
                    z3::ast::exists_const(&bs, &[], &fails)
                }
            })
            .collect();
        let mut assertion = Bool::and(&failures);
        if !rest.is_empty() {
            let ps: Vec<&dyn Ast> = rest.iter().map(|c| *c as &dyn Ast).collect();
            assertion = z3::ast::forall_const(&ps, &[], &assertion);
        }
        let cancel = self.session.cancel().clone();
        let slice = cancel.remaining().unwrap_or(DEFAULT_QUERY_CAP).min(WITNESS_SLICE);
        let answer = self.session.check_scoped(&assertion, Some(slice));
        if std::env::var_os("FOREX_DEBUG_SMT").is_some() {
            eprintln!("smt: {} {what} witness candidates: {answer:?}", combos.len());
        }
        let valid = matches!(answer, Sat::Unsat);
        self.session.stats.witnessed += u64::from(valid);
        valid.then_some(Answer::Valid)
    }

    /// Sends one assertion to Z3: unsat means the query is valid.
    ///
    /// Quantified integer queries (with parameters, `use_qe`) first get a short try by
    /// the session's kernel (MBQI, [`MBQI_UNITS`]), then quantifier elimination followed
    /// by `smt` for a while, then the session's kernel for the rest of the budget. On
    /// the ForEx suite (Z3 4.8.12) quantifier elimination decided them 3–4× faster than
    /// the default solver's MBQI, but most small ones (hyena0's ORHLE files) MBQI
    /// decides in a fraction of that. Bit-vector and quantifier-free queries go straight
    /// to the session's kernel.
    ///
    /// A `quantified` query gets at most a third of the time left (but
    /// [`QUANTIFIED_FLOOR`]): Z3's MBQI can run without end on a query it cannot decide
    /// (an invariant over arrays that some ∃ choice would have to anticipate), and the
    /// prover has other candidates and schedules to try with the rest.
    fn solve(
        &mut self,
        assertion: &Bool,
        use_qe: bool,
        quantified: bool,
        cap: Option<Duration>,
    ) -> Answer {
        let cancel = self.session.cancel().clone();
        let budget = cancel.remaining().unwrap_or(DEFAULT_QUERY_CAP).min(DEFAULT_QUERY_CAP);
        if budget.is_zero() {
            return Answer::Unknown(stopped(&cancel));
        }
        if use_qe {
            match self.session.check_scoped_within(assertion, MBQI_UNITS) {
                Sat::Unsat => return Answer::Valid,
                Sat::Sat => return Answer::Invalid,
                Sat::Unknown(Why::MemoryOut) => return Answer::Unknown(Why::MemoryOut),
                Sat::Unknown(_) => {}
            }
            let quick = budget.min(QE_SLICE);
            let solver = qe_then_smt();
            solver.assert(assertion);
            match self.session.check_other(&solver, Some(quick)) {
                Sat::Unsat => return Answer::Valid,
                Sat::Sat => return Answer::Invalid,
                Sat::Unknown(Why::MemoryOut) => return Answer::Unknown(Why::MemoryOut),
                Sat::Unknown(_) => {}
            }
        }
        let mut left = cancel.remaining().unwrap_or(budget).min(budget);
        if left.is_zero() {
            return Answer::Unknown(stopped(&cancel));
        }
        if quantified {
            left = left.min((left / 3).max(QUANTIFIED_FLOOR));
        }
        if let Some(cap) = cap {
            left = left.min(cap);
        }
        // One solver for the whole run, each query in its own scope. A fresh `Solver`
        // per query paid Z3's non-incremental set-up every time (measured: ~5 ms for a
        // trivial query against ~0.1 ms in a scope; on the ForEx suite `--jobs 1` went
        // from 1.9 s to 0.5 s with identical verdicts), and that set-up reads Z3's global
        // parameter tables under a process-wide lock, so it also serialised batch workers.
        // A quantifier-free query the kept kernel has not decided in a moment is sent to
        // a fresh solver that simplifies and solves equalities first. Measured: a 2.5 KB
        // bit-vector consecution query of a comparator (array indices through `bv2int`,
        // `a.i == b.i` among the hypotheses) ran out 10 s in the kernel after some earlier
        // queries (with `--explain`, every time) and is decided at once when fresh.
        if !quantified && cap.is_none() && left > FRESH_AFTER * 2 {
            match self.session.check_scoped(assertion, Some(FRESH_AFTER)) {
                Sat::Unsat => return Answer::Valid,
                Sat::Sat => return Answer::Invalid,
                Sat::Unknown(Why::Timeout) if !cancel.is_cancelled() => {}
                Sat::Unknown(why) => return Answer::Unknown(why),
            }
            let left = cancel.remaining().unwrap_or(budget).min(budget);
            if left.is_zero() {
                return Answer::Unknown(stopped(&cancel));
            }
            let solver = simplify_then_smt();
            solver.assert(assertion);
            return match self.session.check_other(&solver, Some(left)) {
                Sat::Unsat => Answer::Valid,
                Sat::Sat => Answer::Invalid,
                Sat::Unknown(why) => Answer::Unknown(why),
            };
        }
        match self.session.check_scoped(assertion, Some(left)) {
            Sat::Unsat => Answer::Valid,
            Sat::Sat => Answer::Invalid,
            Sat::Unknown(why) => Answer::Unknown(why),
        }
    }
}

/// How long a quantifier-free query stays with the session's kernel before a fresh
/// solver gets it (`solve`).
const FRESH_AFTER: Duration = Duration::from_millis(500);

/// Simplification and equality solving, then Z3's SMT core: a fresh solver, without the
/// state the session's kernel keeps between queries.
fn simplify_then_smt() -> z3::Solver {
    z3::Tactic::new("simplify")
        .and_then(&z3::Tactic::new("solve-eqs"))
        .and_then(&z3::Tactic::new("smt"))
        .solver()
}

/// Quantifier elimination, then Z3's SMT core on what is left.
///
/// `qe_rec`, not `qe`: Z3 4.8.12's `qe` tactic crashes the process (SIGSEGV) when it is
/// stopped, by an interrupt or a resource limit alike, which every time limit and every
/// lost portfolio race does. Reproduced outside forex (2 threads, the prover's
/// quantified queries on tests/inputs/soundness, an interrupt every few hundred µs):
/// `qe` crashed within 0.3 s every time; `qe_rec` ran 22,000 interrupted checks, and as
/// many under resource limits, without a fault, with the same verdicts and speed on the
/// ForEx suite. `tests/it/engines/qe_interrupts.rs` keeps it that way.
pub fn qe_then_smt() -> z3::Solver {
    z3::Tactic::new("qe_rec").and_then(&z3::Tactic::new("smt")).solver()
}

/// Outer strings (besides `""`) that witness candidates are built from.
const MAX_WITNESS_BASE: usize = 6;
/// Largest number of candidate witness tuples tried in one query.
const MAX_WITNESS_COMBINATIONS: usize = 64;
/// How long the witness candidates may take before the full query.
const WITNESS_SLICE: Duration = Duration::from_secs(1);

fn is_string(c: &Dynamic) -> bool {
    c.as_string().is_some()
}

fn is_array(c: &Dynamic) -> bool {
    c.get_sort().kind() == z3::SortKind::Array
}

/// Z3 resource units (`rlimit`) for the short MBQI try of quantified integer queries.
/// Measured (the prover's quantified queries, `--engine prove --jobs 1`; median and total
/// time per query against quantifier elimination first): ForEx suite, 99 queries,
/// median 2.09 -> 1.04 ms, total 289 -> 271-283 ms; hyena0's ORHLE files, 1153
/// queries, median 3.27 -> 1.80 ms, total 4.66 -> 3.01 s; verdicts unchanged. 3,000
/// units left too many to quantifier elimination (ORHLE total 5.36 s), 30,000 and more
/// spent too long on the queries MBQI does not decide (100,000: ForEx total 649 ms).
const MBQI_UNITS: u32 = 10_000;

/// The longest a query with array parameters may take once witnesses failed.
const ARRAY_PARAM_SLICE: Duration = Duration::from_secs(1);

/// The least time a quantified query gets (see [`QueryEngine::solve`]).
const QUANTIFIED_FLOOR: Duration = Duration::from_secs(1);

/// How long quantified queries try quantifier elimination before the default solver.
const QE_SLICE: Duration = Duration::from_secs(2);

/// The uninterpreted constants occurring in `t` outside quantifiers, and whether `t`
/// contains a quantifier (whose body the z3 crate does not let us walk).
pub fn free_constants(t: &Bool) -> (Vec<Dynamic>, bool) {
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut out = Vec::new();
    let mut quantified = false;
    let mut stack: Vec<Dynamic> = vec![Dynamic::from_ast(t)];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        if d.kind() == z3::AstKind::Quantifier {
            quantified = true;
        } else if d.is_const() {
            // `DeclKind` numbering differs between Z3 versions (the crate's table is newer
            // than 4.8.12), so recognise constants structurally: a nullary application that
            // is not a literal.
            let literal = d.as_bool().is_some_and(|b| b.as_bool().is_some());
            if d.kind() == z3::AstKind::App && !literal {
                out.push(d);
            }
        } else if d.is_app() {
            stack.extend(d.children());
        }
    }
    (out, quantified)
}

/// Every constant occurring in `t`, inside quantifier bodies too (through Z3's API:
/// the z3 crate does not expose quantifier bodies). A DAG walk, linear in the term.
pub(crate) fn all_constants(t: &dyn Ast) -> HashSet<Dynamic> {
    let ctx = z3::Context::thread_local();
    let raw = ctx.get_z3_context();
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut out = HashSet::new();
    let mut stack: Vec<Dynamic> = vec![Dynamic::from_ast(t)];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        if d.kind() == z3::AstKind::Quantifier {
            // SAFETY: `d` is a live quantifier of this thread's context; the body is
            // wrapped (and so reference-counted) before anything else runs.
            let body = unsafe { z3_sys::Z3_get_quantifier_body(raw, d.get_z3_ast()) };
            if let Some(body) = body {
                stack.push(unsafe { Dynamic::wrap(&ctx, body) });
            }
        } else if d.is_const() {
            out.insert(d);
        } else if d.is_app() {
            stack.extend(d.children());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Bool, Int};

    fn classify(c: &Dynamic) -> Class {
        let name = c.to_string();
        if name.starts_with('p') {
            Class::P
        } else if name.starts_with('b') {
            Class::B
        } else {
            Class::A
        }
    }

    #[test]
    fn decides_alternating_queries() {
        let mut q = QueryEngine::new(&Cancel::new());
        let a = Int::new_const("a");
        let p = Int::new_const("p");
        let b = Int::new_const("b");
        // ∀a ∃p. p == a + 1: valid.
        assert_eq!(q.valid(&p.eq(&(&a + 1)), &classify, &[]), Answer::Valid);
        // ∀a ∃p ∀b. p == b: invalid.
        assert_eq!(q.valid(&p.eq(&b), &classify, &[]), Answer::Invalid);
        // ∀a ∃p ∀b. (b == a ⇒ p == b): valid (p = a).
        assert_eq!(q.valid(&b.eq(&a).implies(p.eq(&b)), &classify, &[]), Answer::Valid);
        // ∀a. a > 0: invalid, quantifier-free.
        assert_eq!(q.valid(&a.gt(Int::from_i64(0)), &classify, &[]), Answer::Invalid);
        let sent = q.queries();
        assert_eq!(q.valid(&p.eq(&(&a + 1)), &classify, &[]), Answer::Valid);
        assert_eq!(q.queries(), sent, "the second identical query is answered from the cache");
    }

    #[test]
    fn a_choice_fixed_on_one_path_is_witnessed_by_the_values_it_is_equated_with() {
        // ∀a, c, t. (∀j. t[j] ≥ 0) → ∃n, r. (c → n ∈ {9, 10, 11}) ∧ (c → r == n) ∧
        // (c → (r < 10 ↔ a < 0)) ∧ (∀j. t[j] ≥ 0): valid (n = 9 or 10), but the
        // elimination leaves n and r quantified (both are fixed only where c holds).
        let mut q = QueryEngine::new(&Cancel::new());
        let (a, n, r) = (Int::new_const("a"), Int::new_const("p_n"), Int::new_const("p_r"));
        let c = z3::ast::Bool::new_const("c");
        let t = z3::ast::Array::new_const("t", &z3::Sort::int(), &z3::Sort::int());
        let j = Int::new_const("j");
        let inv = z3::ast::forall_const(&[&j], &[], &t.select(&j).as_int().unwrap().ge(0));
        let choice = |claim: Bool| {
            inv.implies(Bool::and(&[
                c.implies(Bool::or(&[n.eq(9), n.eq(10), n.eq(11)])),
                c.implies(r.eq(&n)),
                c.implies(claim),
                inv.clone(),
            ]))
        };
        assert_eq!(q.valid(&choice(r.lt(10).iff(a.lt(0))), &classify, &[]), Answer::Valid);
        assert_eq!(q.session.stats.witnessed, 1);
        // No choice makes r exceed 11: not valid (c may hold), and no witness says so.
        assert_ne!(q.valid(&choice(r.gt(11)), &classify, &[]), Answer::Valid);
        assert_eq!(q.session.stats.witnessed, 1);
    }

    #[test]
    fn timeout_is_unknown_not_valid() {
        let cancel = Cancel::new().with_timeout(Duration::from_millis(0));
        let mut q = QueryEngine::new(&cancel);
        let a = Int::new_const("a");
        assert!(matches!(q.valid(&a.eq(&a).not().not(), &classify, &[]), Answer::Valid));
        let x = Int::new_const("x");
        assert!(matches!(q.valid(&x.gt(Int::from_i64(0)), &classify, &[]), Answer::Unknown(_)));
    }

    /// Manual check that an explicit cancel interrupts Z3 (timing is not asserted):
    /// `cargo test --release --lib smt::query -- --ignored --nocapture`.
    #[test]
    #[ignore = "prints timing; for manual inspection"]
    fn explicit_cancel_interrupts_a_hard_query() {
        let cancel = Cancel::new();
        let mut q = QueryEngine::new(&cancel);
        let (x, y, z) = (Int::new_const("x"), Int::new_const("y"), Int::new_const("z"));
        let cube = |v: &Int| Int::mul(&[v, v, v]);
        let zero = Int::from_i64(0);
        let phi = Bool::and(&[x.gt(&zero), y.gt(&zero), z.gt(&zero)])
            .implies(Int::add(&[cube(&x), cube(&y)]).eq(cube(&z)).not());
        let c2 = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            c2.cancel();
        });
        let t = std::time::Instant::now();
        let answer = q.valid(&phi, &classify, &[]);
        eprintln!("{answer:?} after {:?}", t.elapsed());
        assert!(matches!(answer, Answer::Unknown(_)));
    }
}
