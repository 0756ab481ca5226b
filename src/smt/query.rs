//! The one builder for ∀∃∀ validity queries `∀A. ∃P. ∀B. φ`, with a per-run result
//! cache, deadlines from [`Cancel`] and optional SMT-LIB dumps.
//!
//! Callers hand over the matrix φ and a classification of its free constants into
//! A (universal, outermost), P (existential) and B (universal, innermost). Validity is
//! decided as unsatisfiability of the negation `∀P. ∃B. ¬φ` with A left free, which is
//! quantifier-free when P is empty (the common case: k-safety and every check without
//! parameters). An `unknown` or a timeout is reported as [`Answer::Unknown`], never as
//! valid.

use crate::cancel::Cancel;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic};
use z3::{SatResult, Solver};

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
    /// The solver gave up (timeout, incompleteness, cancellation); the text says why.
    Unknown(String),
}

/// Longest time one query may take when the caller set no deadline.
const DEFAULT_QUERY_CAP: Duration = Duration::from_secs(60);

/// Issues queries for one prover run. Holds the cache and counters.
pub struct QueryEngine {
    /// Keyed by the assertion itself: Z3 hash-conses terms, so hashing and equality are
    /// by node identity and cost O(1). (Printing the query as text, as an earlier version
    /// did, is exponential on a shared DAG and cannot be interrupted.)
    cache: HashMap<Bool, Answer>,
    /// Queries sent to Z3 (cache hits excluded).
    pub queries: u64,
    /// Queries answered from the cache.
    pub cache_hits: u64,
    dump_dir: Option<PathBuf>,
    dump_prefix: String,
    cancel: Cancel,
    /// One solver for all plain queries, each in its own push/pop scope (lazily made).
    solver: Option<Solver>,
}

impl QueryEngine {
    pub fn new(cancel: &Cancel, dump_dir: Option<PathBuf>, dump_prefix: &str) -> QueryEngine {
        if let Some(dir) = &dump_dir {
            // A failure here shows up again (and is ignored) when writing each query.
            let _ = std::fs::create_dir_all(dir);
        }
        let dump_prefix: String = dump_prefix
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
            .collect();
        QueryEngine {
            cache: HashMap::new(),
            queries: 0,
            cache_hits: 0,
            dump_dir,
            dump_prefix,
            cancel: cancel.clone(),
            solver: None,
        }
    }

    /// Decides `∀A. ∃P. ∀B. phi`, classifying each free constant of `phi` with `class`.
    ///
    /// `known` lists constants the caller created (with names that need `|…|` quoting in
    /// SMT-LIB, so that their printed names cannot clash); it is consulted only when `phi`
    /// contains quantifiers, whose bodies this walk cannot enter.
    pub fn valid(
        &mut self,
        phi: &Bool,
        class: &dyn Fn(&Dynamic) -> Class,
        known: &[Dynamic],
    ) -> Answer {
        let phi = phi.simplify();
        if let Some(b) = phi.as_bool() {
            return if b { Answer::Valid } else { Answer::Invalid };
        }
        if self.cancel.is_cancelled() {
            return Answer::Unknown(self.cancel_reason());
        }
        let mut params = Vec::new();
        let mut inner = Vec::new();
        let (mut consts, quantified) = free_constants(&phi);
        if quantified {
            let text = phi.to_string();
            for k in known {
                if !consts.contains(k) && text.contains(&k.to_string()) {
                    consts.push(k.clone());
                }
            }
        }
        // Quantifier elimination pays off on linear integer arithmetic only (measured:
        // on bit-vector queries Z3's default MBQI is faster).
        let arithmetic = consts
            .iter()
            .all(|c| matches!(c.get_sort().kind(), z3::SortKind::Int | z3::SortKind::Bool));
        for c in consts {
            match class(&c) {
                Class::A => {}
                Class::P => params.push(c),
                Class::B => inner.push(c),
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
            self.cache_hits += 1;
            return answer.clone();
        }
        let t0 = std::time::Instant::now();
        let answer = self.solve(&assertion, !params.is_empty() && arithmetic);
        let key = assertion;
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
            self.cache.insert(key, answer.clone());
        }
        answer
    }

    fn cancel_reason(&self) -> String {
        if self.cancel.timed_out() {
            "the time limit was reached".into()
        } else {
            "the prover was cancelled".into()
        }
    }

    /// Sends one assertion to Z3: unsat means the query is valid.
    ///
    /// Measured on the ForEx suite (Z3 4.8.12): quantified integer queries (with
    /// parameters) are decided 3–4× faster by quantifier elimination followed by `smt`
    /// than by the default solver's MBQI, so they (`use_qe`) try `qe` first for a short
    /// while and fall back to the default solver for the rest of the budget. Bit-vector
    /// and quantifier-free queries go straight to the default solver.
    fn solve(&mut self, assertion: &Bool, use_qe: bool) -> Answer {
        let budget = self.cancel.remaining().unwrap_or(DEFAULT_QUERY_CAP).min(DEFAULT_QUERY_CAP);
        if budget.is_zero() {
            return Answer::Unknown(self.cancel_reason());
        }
        self.queries += 1;
        if let Some(dir) = &self.dump_dir {
            let s = Solver::new();
            s.assert(assertion);
            let path = dir.join(format!("{}_{:05}.smt2", self.dump_prefix, self.queries));
            let _ = std::fs::write(path, format!("{}(check-sat)\n", s.to_smt2()));
        }
        if use_qe {
            let quick = budget.min(QE_SLICE);
            // The slice is enforced by the interrupt watcher, not Z3's timer (see below).
            let qe = z3::Tactic::new("qe").and_then(&z3::Tactic::new("smt"));
            let solver = qe.solver();
            solver.assert(assertion);
            match check_interruptible(&solver, &self.cancel.with_timeout(quick)) {
                SatResult::Unsat => return Answer::Valid,
                SatResult::Sat => return Answer::Invalid,
                SatResult::Unknown => {}
            }
        }
        let left = self.cancel.remaining().unwrap_or(budget).min(budget);
        if left.is_zero() {
            return Answer::Unknown(self.cancel_reason());
        }
        // No `timeout` parameter: Z3 4.8's timer is a process-wide pool guarded by one
        // mutex, and ending a timed check spin-yields until the pool's thread has woken
        // up. With two batch workers that cost about a quarter of the CPU time (measured:
        // 10× the futex calls, ~20 000 `sched_yield`s per suite run). The query's own
        // token carries the limit instead, and the interrupt watcher enforces it.
        // One solver per engine, each query in its own scope. A fresh `Solver` per query
        // paid Z3's non-incremental set-up every time (measured: ~5 ms for a trivial
        // query against ~0.1 ms in a scope; on the ForEx suite `--jobs 1` went from
        // 1.9 s to 0.5 s with identical verdicts), and that set-up reads Z3's global
        // parameter tables under a process-wide lock, so it also serialised batch workers.
        let solver = self.solver.get_or_insert_with(Solver::new);
        solver.push();
        solver.assert(assertion);
        let limited = self.cancel.with_timeout(left);
        let result = check_interruptible(solver, &limited);
        let why = solver.get_reason_unknown();
        solver.pop(1);
        match result {
            SatResult::Unsat => Answer::Valid,
            SatResult::Sat => Answer::Invalid,
            SatResult::Unknown => {
                if self.cancel.is_cancelled() {
                    Answer::Unknown(self.cancel_reason())
                } else if limited.is_cancelled() {
                    Answer::Unknown(format!(
                        "Z3 found no answer within the query limit ({} s)",
                        left.as_secs_f64()
                    ))
                } else {
                    let why = why.unwrap_or_else(|| "unknown".into());
                    Answer::Unknown(format!("Z3 returned unknown ({why})"))
                }
            }
        }
    }
}

/// `solver.check()`, interrupted as soon as `cancel` fires (the portfolio cancels the
/// losing engine explicitly; Z3's own timer only knows the deadline). The token is
/// registered with the process-wide interrupt watcher ([`crate::interrupt`]) for the
/// duration of the call, rather than polled by a thread of its own: a thread per query
/// cost each parallel batch worker stack mappings, unmappings and futex traffic
/// (measured with `strace -f -c` on the ForEx suite: hundreds of threads per batch).
fn check_interruptible(solver: &Solver, cancel: &Cancel) -> SatResult {
    let _watch = crate::interrupt::watch(cancel);
    solver.check()
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;

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
        let mut q = QueryEngine::new(&Cancel::new(), None, "t");
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
        let sent = q.queries;
        assert_eq!(q.valid(&p.eq(&(&a + 1)), &classify, &[]), Answer::Valid);
        assert_eq!(q.queries, sent, "the second identical query is answered from the cache");
    }

    #[test]
    fn timeout_is_unknown_not_valid() {
        let cancel = Cancel::new().with_timeout(Duration::from_millis(0));
        let mut q = QueryEngine::new(&cancel, None, "t");
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
        let mut q = QueryEngine::new(&cancel, None, "t");
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
