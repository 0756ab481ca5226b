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
    pub fn assert(&self, phi: &Bool) {
        // SAFETY: `phi` belongs to the thread-local context, as the solver does.
        unsafe { Z3_solver_assert(self.c(), self.raw, phi.get_z3_ast()) }
    }

    pub fn check(&self) -> SatResult {
        // SAFETY: a live solver of this context.
        match unsafe { Z3_solver_check(self.c(), self.raw) } {
            Z3_L_TRUE => SatResult::Sat,
            Z3_L_FALSE => SatResult::Unsat,
            _ => SatResult::Unknown,
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
    fn scopes_keep_queries_apart() {
        let s = IncrementalSolver::new().expect("a solver");
        let x = Int::new_const("x");
        s.push();
        s.assert(&x.gt(Int::from_i64(3)));
        assert_eq!(s.check(), SatResult::Sat);
        s.assert(&x.lt(Int::from_i64(2)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop(1);
        s.push();
        s.assert(&x.lt(Int::from_i64(2)));
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
        s.assert(&x.gt(Int::from_i64(5)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop(1);
        let b = BV::new_const("b", 4);
        s.push();
        s.assert(&b.bvadd(BV::from_u64(1, 4)).eq(BV::from_u64(0, 4)));
        s.assert(&b.eq(BV::from_u64(15, 4)).not());
        assert_eq!(s.check(), SatResult::Unsat, "4-bit wrap-around is interpreted");
        s.pop(1);
        let a = Array::new_const("a", &z3::Sort::int(), &z3::Sort::int());
        s.push();
        let stored = a.store(&Int::from_i64(1), &Int::from_i64(7));
        s.assert(&stored.select(&Int::from_i64(1)).as_int().unwrap().eq(Int::from_i64(8)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop(1);
    }
}
