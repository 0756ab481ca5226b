//! Facts the last iteration of a loop leaves true, as candidate atoms: what the body
//! assumed (a library call's specification), stored (`b[i] = a[idx]` gives
//! `b[i - 1] == a[idx]` once `i = i + 1` has run) or copied (`idx = t`), as long as
//! nothing later in the body overwrites what they read; a counter stepped after them is
//! read back (`i` becomes `i - 1`). They hold after every iteration, so at a loop point
//! reached after some iterations (a peeled or offset one: the copy that runs more
//! iterations goes first) and, guarded by the counter having moved
//! (`i == old(i) || fact`), at any loop point. Compiler-style pipelines and offsets need
//! them: the iteration behind reads what the one ahead wrote last.

use super::loops::Aligned;
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Tuple, VarId};

/// Most facts one loop body gives.
const MAX_FACTS: usize = 8;

/// The facts after `al`'s body, plain and guarded by `counter == old(counter)` for its
/// guard counters.
pub fn atoms(tuple: &Tuple, al: &Aligned<'_>, ghost: &dyn Fn(VarId) -> VarId) -> Vec<Expr> {
    // Only bodies that store into an array: elsewhere the counters' relations say it.
    let stores = al.body().iter().any(|s| matches!(s, Stmt::Store { .. }));
    let facts = if stores { facts(tuple, al.body()) } else { Vec::new() };
    if facts.is_empty() {
        return Vec::new();
    }
    let mut guard_vars = Vec::new();
    al.cond().for_each_var(&mut |v| guard_vars.push(v));
    let moved: Vec<Expr> = super::mine::counters(tuple, al.body())
        .into_iter()
        .filter(|(v, _)| guard_vars.contains(v))
        .map(|(v, _)| {
            let ty = tuple.var(v).ty.clone();
            Expr::binary(BinOp::Ne, Expr::var(v, ty.clone()), Expr::var(ghost(v), ty))
        })
        .take(1)
        .collect();
    let mut out = facts.clone();
    for m in moved {
        out.extend(facts.iter().map(|f| Expr::binary(BinOp::Implies, m.clone(), f.clone())));
    }
    out
}

/// The facts true at the end of `body`, through its top-level statements.
fn facts(tuple: &Tuple, body: &[Stmt]) -> Vec<Expr> {
    let mut facts: Vec<Expr> = Vec::new();
    let mentions = |e: &Expr, v: VarId| {
        let mut hit = false;
        e.for_each_var(&mut |x| hit |= x == v);
        hit
    };
    for s in body {
        match s {
            Stmt::Assume { cond, .. } => {
                facts.extend(cond.conjuncts().into_iter().filter(|c| !c.has_quantifier()).cloned())
            }
            Stmt::Store { array, index, value, .. } => {
                facts.retain(|f| !mentions(f, *array));
                let array_ty = tuple.var(*array).ty.clone();
                let fits = matches!(&array_ty, crate::ir::Type::Array(e) if **e == value.ty);
                if fits && !mentions(index, *array) && !mentions(value, *array) {
                    let read = Expr {
                        kind: ExprKind::Select(
                            Box::new(Expr::var(*array, array_ty)),
                            Box::new(index.clone()),
                        ),
                        ty: value.ty.clone(),
                    };
                    facts.push(Expr::eq(read, value.clone()));
                }
            }
            Stmt::Assign { var, value, .. } => match step_of(*var, value) {
                // `i = i + c`: a fact about the old `i` is one about `i - c`.
                Some(back) => facts = facts.iter().map(|f| f.replace_var(*var, &back)).collect(),
                None => {
                    facts.retain(|f| !mentions(f, *var));
                    if let ExprKind::Var(t) = value.kind {
                        if t != *var {
                            facts.push(Expr::eq(Expr::var(*var, value.ty.clone()), value.clone()));
                        }
                    }
                }
            },
            other => {
                let written = crate::ir::modified_vars(std::slice::from_ref(other));
                facts.retain(|f| written.iter().all(|&w| !mentions(f, w)));
            }
        }
    }
    facts.retain(|f| !matches!(f.kind, ExprKind::Bool(_)));
    facts.truncate(MAX_FACTS);
    facts
}

/// For `v = v + c` or `v = v - c` (`c` a literal): the expression `v - c` (or `v + c`)
/// that the old `v` is in terms of the new.
fn step_of(v: VarId, value: &Expr) -> Option<Expr> {
    let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) = &value.kind else {
        return None;
    };
    if !matches!(a.kind, ExprKind::Var(x) if x == v) || !matches!(b.kind, ExprKind::Int(_)) {
        return None;
    }
    let back = if *op == BinOp::Add { BinOp::Sub } else { BinOp::Add };
    Some(Expr::binary(back, (**a).clone(), (**b).clone()))
}
