//! Z3's incremental SMT solver (`Z3_mk_simple_solver`), which the z3 crate does not
//! expose: one SMT kernel kept across checks, each query in its own push/pop scope.
//!
//! Why not the crate's solvers: a solver built from the `smt` tactic (`session::solver`)
//! builds a fresh SMT kernel on every check, ~0.25 ms even for `x > 3`; the crate's
//! `Solver::new()` is incremental once pushed but costs ~4 ms to make (it builds Z3's
//! whole default strategy). The kept kernel answers a small query in ~0.05 ms (Z3
//! 4.8.12, 200 checks of a two-constraint query in C: 0.25 ms against 0.035–0.07 ms per
//! check). The prover sends hundreds of small validity queries per tuple through one
//! session, and building a kernel also reads Z3's global parameters under a process-wide
//! lock, which batch workers contended for.

use z3::ast::{Ast, Bool};
use z3::SatResult;
use z3_sys::*;

/// An incremental solver of the calling thread's Z3 context. Not `Send`: the context is
/// the thread's own.
pub struct IncrementalSolver {
    ctx: z3::Context,
    raw: Z3_solver,
}

impl IncrementalSolver {
    /// A fresh solver, or `None` if Z3 could not make one (out of memory).
    pub fn new() -> Option<IncrementalSolver> {
        let ctx = z3::Context::thread_local();
        // SAFETY: a valid context; the solver is reference-counted from here on and
        // released in `drop`, while `ctx` (held) keeps the context alive.
        unsafe {
            let raw = Z3_mk_simple_solver(ctx.get_z3_context())?;
            Z3_solver_inc_ref(ctx.get_z3_context(), raw);
            Some(IncrementalSolver { ctx, raw })
        }
    }

    fn c(&self) -> Z3_context {
        self.ctx.get_z3_context()
    }

    /// Bounds each later check to `units` of Z3's deterministic resource count (`rlimit`;
    /// 0: no bound).
    pub fn set_rlimit(&self, units: u32) {
        // SAFETY: a live solver; the params object is made, used and released here.
        unsafe {
            let Some(p) = Z3_mk_params(self.c()) else { return };
            Z3_params_inc_ref(self.c(), p);
            let name = std::ffi::CString::new("rlimit").expect("no NUL");
            if let Some(key) = Z3_mk_string_symbol(self.c(), name.as_ptr()) {
                Z3_params_set_uint(self.c(), p, key, units);
                Z3_solver_set_params(self.c(), self.raw, p);
            }
            Z3_params_dec_ref(self.c(), p);
        }
    }

    pub fn push(&self) {
        // SAFETY: a live solver of this context.
        unsafe { Z3_solver_push(self.c(), self.raw) }
    }

    pub fn pop(&self, n: u32) {
        // SAFETY: a live solver of this context; callers pop only what they pushed.
        unsafe { Z3_solver_pop(self.c(), self.raw, n) }
    }

    /// Asserts `phi`, a term of this thread's context.
    pub fn assert(&self, phi: impl std::borrow::Borrow<Bool>) {
        // SAFETY: `phi` belongs to the thread-local context, as the solver does.
        unsafe { Z3_solver_assert(self.c(), self.raw, phi.borrow().get_z3_ast()) }
    }

    pub fn check(&self) -> SatResult {
        // SAFETY: a live solver of this context.
        sat_result(unsafe { Z3_solver_check(self.c(), self.raw) })
    }

    /// Checks the assertions together with `assumptions` (literals that hold for this
    /// check only).
    pub fn check_assumptions(&self, assumptions: &[Bool]) -> SatResult {
        let raw: Vec<Z3_ast> = assumptions.iter().map(|a| a.get_z3_ast()).collect();
        // SAFETY: a live solver; `raw` holds terms of this context, kept alive by
        // `assumptions` for the call.
        sat_result(unsafe {
            Z3_solver_check_assumptions(self.c(), self.raw, raw.len() as u32, raw.as_ptr())
        })
    }

    /// The model of the last check, when it answered sat.
    pub fn model(&self) -> Option<IncrementalModel> {
        // SAFETY: a live solver; Z3 returns null (an error) when there is no model. The
        // model is reference-counted from here on.
        unsafe {
            let raw = Z3_solver_get_model(self.c(), self.raw)?;
            Z3_model_inc_ref(self.c(), raw);
            Some(IncrementalModel { ctx: self.ctx.clone(), raw })
        }
    }

    /// The assertions in force (for `--dump-smt`).
    pub fn assertions(&self) -> Vec<Bool> {
        // SAFETY: a live solver; the vector is reference-counted while it is read, and
        // each element is wrapped (which takes its own reference) before it is released.
        unsafe {
            let Some(v) = Z3_solver_get_assertions(self.c(), self.raw) else { return Vec::new() };
            Z3_ast_vector_inc_ref(self.c(), v);
            let n = Z3_ast_vector_size(self.c(), v);
            let out = (0..n)
                .filter_map(|i| Z3_ast_vector_get(self.c(), v, i))
                .map(|a| Bool::wrap(&self.ctx, a))
                .collect();
            Z3_ast_vector_dec_ref(self.c(), v);
            out
        }
    }

    /// Why the last check answered unknown, in Z3's words.
    pub fn reason_unknown(&self) -> String {
        // SAFETY: a live solver; Z3 returns a string it owns until its next call, copied
        // here at once.
        unsafe {
            let p = Z3_solver_get_reason_unknown(self.c(), self.raw);
            if p.is_null() {
                return "unknown".into();
            }
            std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    }
}

fn sat_result(r: Z3_lbool) -> SatResult {
    match r {
        Z3_L_TRUE => SatResult::Sat,
        Z3_L_FALSE => SatResult::Unsat,
        _ => SatResult::Unknown,
    }
}

/// A model of an [`IncrementalSolver`]'s check.
pub struct IncrementalModel {
    ctx: z3::Context,
    raw: Z3_model,
}

impl Drop for IncrementalModel {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `IncrementalSolver::model`.
        unsafe { Z3_model_dec_ref(self.ctx.get_z3_context(), self.raw) }
    }
}

/// Reading values out of a model, whichever solver made it.
pub trait Eval {
    /// The value of `t`, every unconstrained constant given a value.
    fn value_of<T: Ast>(&self, t: &T) -> Option<T>;
}

impl Eval for IncrementalModel {
    fn value_of<T: Ast>(&self, t: &T) -> Option<T> {
        let mut out = t.get_z3_ast();
        // SAFETY: a live model of this context and a term of it; `out` is written by Z3
        // only on success, and wrapped (taking a reference) at once.
        unsafe {
            Z3_model_eval(self.ctx.get_z3_context(), self.raw, t.get_z3_ast(), true, &mut out)
                .then(|| T::wrap(&self.ctx, out))
        }
    }
}

impl Eval for z3::Model {
    fn value_of<T: Ast>(&self, t: &T) -> Option<T> {
        self.eval(t, true)
    }
}

impl Drop for IncrementalSolver {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `new`.
        unsafe { Z3_solver_dec_ref(self.c(), self.raw) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;

    #[test]
    fn models_and_assumptions() {
        let s = IncrementalSolver::new().expect("a solver");
        let x = Int::new_const("mx");
        let big = x.gt(Int::from_i64(10));
        s.assert(x.lt(Int::from_i64(20)));
        assert_eq!(s.check_assumptions(std::slice::from_ref(&big)), SatResult::Sat);
        let m = s.model().expect("a model");
        let v = m.value_of(&x).and_then(|v| v.as_i64()).expect("a value");
        assert!((11..20).contains(&v), "{v}");
        assert_eq!(s.check_assumptions(&[big.not(), x.gt(Int::from_i64(30))]), SatResult::Unsat);
        assert_eq!(s.assertions().len(), 1, "assumptions are not kept");
    }

    #[test]
    fn scopes_keep_queries_apart() {
        let s = IncrementalSolver::new().expect("a solver");
        let x = Int::new_const("x");
        s.push();
        s.assert(x.gt(Int::from_i64(3)));
        assert_eq!(s.check(), SatResult::Sat);
        s.assert(x.lt(Int::from_i64(2)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop(1);
        s.push();
        s.assert(x.lt(Int::from_i64(2)));
        assert_eq!(s.check(), SatResult::Sat, "the earlier scope's assertions are gone");
        s.pop(1);
    }

    /// Quantifiers, arrays and bit-vectors in one kernel: every theory is set up.
    #[test]
    fn every_theory_is_interpreted() {
        use z3::ast::{Array, BV};
        let s = IncrementalSolver::new().expect("a solver");
        let x = Int::new_const("qx");
        let y = Int::new_const("qy");
        let all = z3::ast::forall_const(&[&y], &[], &y.le(&x).implies(y.le(Int::from_i64(5))));
        s.push();
        s.assert(&all);
        s.assert(x.gt(Int::from_i64(5)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop(1);
        let b = BV::new_const("b", 4);
        s.push();
        s.assert(b.bvadd(BV::from_u64(1, 4)).eq(BV::from_u64(0, 4)));
        s.assert(b.eq(BV::from_u64(15, 4)).not());
        assert_eq!(s.check(), SatResult::Unsat, "4-bit wrap-around is interpreted");
        s.pop(1);
        let a = Array::new_const("a", &z3::Sort::int(), &z3::Sort::int());
        s.push();
        let stored = a.store(&Int::from_i64(1), &Int::from_i64(7));
        s.assert(stored.select(&Int::from_i64(1)).as_int().unwrap().eq(Int::from_i64(8)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop(1);
    }
}
