//! Input tuples for hypertests: random values, mutation, and Z3-backed generation and
//! repair so that every tested input satisfies `pre`.
//!
//! An input tuple holds an initial value for every tuple variable (∀ and ∃ copies
//! alike: `pre` may relate them, and the ∃ copies' initial states are universally
//! quantified too).

use crate::cancel::Cancel;
use crate::interp::{eval_bool, InterpError};
use crate::ir::{Expr, Tuple};
use crate::smt::encode;
use crate::smt::session::{self, Sat};
use crate::value::Value;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;
use z3::ast::{Bool, Dynamic};
use z3::{Params, Solver};

/// A deterministic resource limit per query (unlike a timeout, the same on every run,
/// so a seed reproduces its result). No Z3 `timeout` parameter: Z3 4.8.12's timer can
/// deadlock as a check ends (seen in the soundness audit); the batch's interrupt
/// watcher stops queries at the deadline instead.
const Z3_RLIMIT: u32 = 5_000_000;

/// Each input query's wall-clock limit, within the test's own deadline (checked through
/// [`session::check`], under the interrupt watch).
const QUERY_LIMIT: Duration = Duration::from_secs(2);

fn limited_solver() -> Solver {
    // `PreSolver` reads unsat cores.
    let s = crate::smt::session::core_solver();
    let mut p = Params::new();
    p.set_u32("rlimit", Z3_RLIMIT);
    s.set_params(&p);
    s
}

/// Decides closed formulas on concrete states: by evaluation, or by Z3 when the formula
/// has quantifiers. `None`: Z3 could not decide (never guessed).
pub fn holds(cancel: &Cancel, e: &Expr, state: &[Value]) -> Option<bool> {
    match eval_bool(e, state) {
        Ok(b) => Some(b),
        Err(InterpError::Quantifier) => {
            let lookup = |v: crate::ir::VarId| encode::value_term(&state[v.index()]);
            let f = encode::encode_bool(e, &lookup);
            let s = limited_solver();
            s.assert(f.not());
            if session::check(&s, &[], cancel, Some(QUERY_LIMIT)).is_unsat() {
                return Some(true);
            }
            s.reset();
            s.assert(&f);
            if session::check(&s, &[], cancel, Some(QUERY_LIMIT)).is_unsat() {
                return Some(false);
            }
            None
        }
        Err(_) => None,
    }
}

/// Z3 with `pre` asserted over one constant per tuple variable: finds input tuples that
/// satisfy `pre`, as close to wished-for values as it can.
pub struct PreSolver<'t> {
    tuple: &'t Tuple,
    solver: Solver,
    consts: Vec<Dynamic>,
    cancel: Cancel,
    /// Pairs of variables a top-level conjunct `x == y` of `pre` makes equal, in order:
    /// copying values along them repairs most wishes without a solver call (NI's
    /// `a.l == b.l`), which made Z3 the cost of nearly every test.
    equal: Vec<(usize, usize)>,
}

/// The `x == y` conjuncts of `pre` over variables, as index pairs.
fn equated_vars(pre: &Expr) -> Vec<(usize, usize)> {
    use crate::ir::{BinOp, ExprKind};
    pre.conjuncts()
        .into_iter()
        .filter_map(|c| match &c.kind {
            ExprKind::Binary(BinOp::Eq | BinOp::Ident, a, b) => match (&a.kind, &b.kind) {
                (ExprKind::Var(x), ExprKind::Var(y)) => Some((x.index(), y.index())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

impl<'t> PreSolver<'t> {
    pub fn new(tuple: &'t Tuple, cancel: &Cancel) -> PreSolver<'t> {
        let consts: Vec<Dynamic> = tuple
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| encode::named(&format!("ht!{i}"), &v.ty))
            .collect();
        let solver = limited_solver();
        solver.assert(encode::encode_bool(&tuple.pre, &|v| consts[v.index()].clone()));
        let equal = equated_vars(&tuple.pre);
        PreSolver { tuple, solver, consts, cancel: cancel.clone(), equal }
    }

    /// An input tuple satisfying `pre`: variables in `fixed` keep their values in
    /// `wish`; the others keep theirs where `pre` allows (dropped one unsat core
    /// member at a time, at random, so the result stays diverse). `None` when no such
    /// tuple exists or Z3 gave up.
    pub fn solve(
        &self,
        wish: &[Value],
        fixed: &[usize],
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<Value>> {
        if holds(&self.cancel, &self.tuple.pre, wish) == Some(true) {
            return Some(wish.to_vec());
        }
        if let Some(copied) = self.copy_equals(wish, fixed) {
            if holds(&self.cancel, &self.tuple.pre, &copied) == Some(true) {
                return Some(copied);
            }
        }
        self.solver.push();
        let result = self.solve_in_scope(wish, fixed, rng);
        self.solver.pop(1);
        let values = result?;
        // Model values are re-checked concretely: only inputs known to satisfy `pre`
        // may be tested.
        (holds(&self.cancel, &self.tuple.pre, &values) == Some(true)).then_some(values)
    }

    /// `wish` with one value per class of `pre`'s equated variables: a fixed member's
    /// (the wish of the class's first member otherwise); `None` when two fixed members
    /// differ, which only the solver may judge.
    fn copy_equals(&self, wish: &[Value], fixed: &[usize]) -> Option<Vec<Value>> {
        if self.equal.is_empty() {
            return None;
        }
        let mut class: Vec<usize> = (0..wish.len()).collect();
        fn root(class: &mut [usize], mut i: usize) -> usize {
            while class[i] != i {
                class[i] = class[class[i]];
                i = class[i];
            }
            i
        }
        for &(x, y) in &self.equal {
            let (rx, ry) = (root(&mut class, x), root(&mut class, y));
            class[rx.max(ry)] = rx.min(ry);
        }
        let mut value: Vec<Option<&Value>> = vec![None; wish.len()];
        for &f in fixed {
            let r = root(&mut class, f);
            match value[r] {
                Some(v) if v != &wish[f] => return None,
                _ => value[r] = Some(&wish[f]),
            }
        }
        let mut out = wish.to_vec();
        for i in 0..wish.len() {
            let r = root(&mut class, i);
            // The root is the class's smallest index, so it comes first.
            let v = *value[r].get_or_insert(&wish[i]);
            out[i] = v.clone();
        }
        Some(out)
    }

    fn solve_in_scope(
        &self,
        wish: &[Value],
        fixed: &[usize],
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<Value>> {
        let eq = |i: usize| self.consts[i].eq(encode::value_term(&wish[i]));
        for &i in fixed {
            self.solver.assert(eq(i));
        }
        let mut active: Vec<(usize, Bool)> = Vec::new();
        for i in (0..wish.len()).filter(|i| !fixed.contains(i)) {
            let lit = Bool::new_const(format!("ht!want{i}"));
            self.solver.assert(lit.implies(eq(i)));
            active.push((i, lit));
        }
        for round in 0.. {
            let lits: Vec<Bool> = active.iter().map(|(_, l)| l.clone()).collect();
            match session::check(&self.solver, &lits, &self.cancel, Some(QUERY_LIMIT)) {
                Sat::Sat => break,
                Sat::Unknown(_) => return None,
                Sat::Unsat => {
                    let core: Vec<String> =
                        self.solver.get_unsat_core().iter().map(|b| b.to_string()).collect();
                    let in_core: Vec<usize> = (0..active.len())
                        .filter(|&k| core.contains(&active[k].1.to_string()))
                        .collect();
                    if in_core.is_empty() {
                        return None; // `pre` with the fixed values is unsatisfiable
                    }
                    if round < 16 {
                        let k = *in_core.choose(rng).expect("non-empty");
                        active.remove(k);
                    } else {
                        active.retain(|(_, l)| !core.contains(&l.to_string()));
                    }
                }
            }
        }
        let model = self.solver.get_model()?;
        let mut out = Vec::with_capacity(wish.len());
        for (i, c) in self.consts.iter().enumerate() {
            let ty = &self.tuple.vars[i].ty;
            let v = model.eval(c, true).and_then(|t| encode::term_value(&t, ty));
            // An array model Z3 gives as a function cannot be read back: keep the wish
            // and let the concrete re-check decide.
            out.push(v.unwrap_or_else(|| wish[i].clone()));
        }
        Some(out)
    }
}
