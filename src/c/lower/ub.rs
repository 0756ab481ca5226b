//! Undefined behaviour (LANGUAGE.md): each place where a run may have it (a null
//! dereference, an access outside its object, a use after `free`, a bad `free`, a failing
//! `assert`) is a site, numbered from 1 in the program. A ghost variable `$ub` (0: none)
//! records the first site a run reaches; the run then goes on to its end (loop guards
//! and `assume`s give way once `$ub` is set, so that it does end), and the tuple's `post`
//! asks `$ub == 0` of every copy: a ∀ run that reaches a site violates it, an ∃ run that
//! does is no witness. Under `--no-ub` each site is an `assume` instead. Programs without
//! sites have no `$ub` and pay nothing.

use super::{Lowerer, Span, VarTy};
use crate::c::types::ite;
use crate::ir::c::{CScalar, UbSite};
use crate::ir::{BinOp, Expr, ExprKind, Stmt, VarId};

/// What a site is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UbKind {
    Null,
    Outside,
    Freed,
    BadFree,
    Assert,
    Overlap,
}

impl UbKind {
    pub fn describe(self) -> &'static str {
        match self {
            UbKind::Null => "null dereference",
            UbKind::Outside => "access outside its object",
            UbKind::Freed => "use after free",
            UbKind::BadFree => "free of a pointer that is not a live malloc'd object",
            UbKind::Assert => "assertion failed",
            UbKind::Overlap => "copy between overlapping objects",
        }
    }
}

pub use crate::ir::c::UB_VAR;

impl Lowerer<'_, '_> {
    fn ub_var(&mut self, sp: &Span) -> VarId {
        self.var(UB_VAR, VarTy::Scalar(CScalar::Int), sp)
    }

    /// A site of kind `kind` reached when `bad` holds.
    pub(super) fn ub_check(&mut self, kind: UbKind, bad: Expr, sp: &Span, out: &mut Vec<Stmt>) {
        if matches!(bad.kind, ExprKind::Bool(false)) {
            return;
        }
        let loc = self.loc(sp);
        if self.cx.no_ub {
            out.push(Stmt::Assume { cond: super::memory::not_fold(bad), loc });
            return;
        }
        self.ub_sites.push(UbSite { kind: kind.describe().into(), line: loc.line, col: loc.col });
        let k = self.ub_sites.len() as i64;
        let v = self.ub_var(sp);
        let m = self.m();
        let cur = Expr::var(v, self.vars[v.index()].ty.clone());
        let fresh = Expr::eq(cur.clone(), m.lit_i(0, CScalar::Int));
        let first = super::memory::and_fold(bad, fresh);
        out.push(Stmt::Assign { var: v, value: ite(first, m.lit_i(k, CScalar::Int), cur), loc });
    }

    /// After lowering a program with sites: `$ub` starts at 0, loops stop and `assume`s
    /// and cuts give way once it is set (a run that reached undefined behaviour still
    /// ends, and is judged by `post`).
    pub(super) fn finish_ub(&mut self, body: &mut Vec<Stmt>, sp: &Span) {
        if self.ub_sites.is_empty() {
            return;
        }
        let v = self.ub_var(sp);
        let m = self.m();
        let zero = m.lit_i(0, CScalar::Int);
        let cur = Expr::var(v, self.vars[v.index()].ty.clone());
        let clear = Expr::eq(cur.clone(), zero.clone());
        give_way(body, &clear);
        let loc = self.loc(sp);
        body.insert(0, Stmt::Assign { var: v, value: zero, loc });
    }
}

fn give_way(block: &mut [Stmt], clear: &Expr) {
    for s in block.iter_mut() {
        match s {
            Stmt::While { cond, body, .. } => {
                *cond = Expr::binary(BinOp::And, cond.clone(), clear.clone());
                give_way(body, clear);
            }
            Stmt::Assume { cond, .. } => {
                *cond = Expr::binary(BinOp::Or, Expr::negate(clear.clone()), cond.clone());
            }
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                give_way(then_branch, clear);
                give_way(else_branch, clear);
            }
            Stmt::Cut { loc } => {
                let loc = *loc;
                *s = Stmt::If {
                    cond: clear.clone(),
                    then_branch: vec![Stmt::Cut { loc }],
                    else_branch: vec![],
                    loc,
                };
            }
            _ => {}
        }
    }
}
