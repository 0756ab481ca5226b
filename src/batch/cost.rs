//! A cheap estimate of how long a tuple takes, for scheduling the longest first.
//!
//! With `jobs` workers taking tuples in input order, one long tuple late in the input
//! runs alone at the end while the other cores idle (on the ForEx suite the longest
//! tuple, about a fifth of the whole work, is 47th of 53). Starting the probably-longest
//! tuples first fills that tail with short ones. The estimate only orders the work: the
//! report stays in input order and no verdict depends on it.
//!
//! The prover's work grows with the loops to align and the invariant candidates it
//! tries, which come from the atoms of the pre- and postcondition and the hints, over
//! the variables in scope; nonlinear arithmetic makes each query dearer.

use crate::ir::{BinOp, Block, Expr, ExprKind, Stmt, Tuple};

#[derive(Default)]
struct Counts {
    stmts: u64,
    loops: u64,
    atoms: u64,
    mults: u64,
}

fn expr(e: &Expr, c: &mut Counts, top: bool) {
    match &e.kind {
        ExprKind::Binary(op, a, b) => {
            let logical = matches!(op, BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff);
            if top && !logical {
                c.atoms += 1;
            }
            if *op == BinOp::Mul
                && !matches!(a.kind, ExprKind::Int(_))
                && !matches!(b.kind, ExprKind::Int(_))
            {
                c.mults += 1;
            }
            expr(a, c, top && logical);
            expr(b, c, top && logical);
        }
        ExprKind::Unary(_, a) => expr(a, c, top),
        ExprKind::Ite(a, b, d) => {
            if top {
                c.atoms += 1;
            }
            for x in [a, b, d] {
                expr(x, c, false);
            }
        }
        ExprKind::Select(a, i) => {
            expr(a, c, false);
            expr(i, c, false);
        }
        _ => {
            if top {
                c.atoms += 1;
            }
        }
    }
}

fn block(b: &Block, c: &mut Counts) {
    for s in b {
        c.stmts += 1;
        match s {
            Stmt::Assign { value, .. } => expr(value, c, false),
            Stmt::Store { index, value, .. } => {
                expr(index, c, false);
                expr(value, c, false);
            }
            Stmt::Assume { cond, .. } => expr(cond, c, false),
            Stmt::If { cond, then_branch, else_branch, .. } => {
                expr(cond, c, false);
                block(then_branch, c);
                block(else_branch, c);
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                block(then_branch, c);
                block(else_branch, c);
            }
            Stmt::While { cond, body, .. } => {
                c.loops += 1;
                expr(cond, c, false);
                block(body, c);
            }
            Stmt::Skip | Stmt::Havoc { .. } | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
        }
    }
}

/// A unitless cost: only comparisons between tuples mean anything.
pub fn estimate(t: &Tuple) -> u64 {
    let mut c = Counts::default();
    for copy in &t.copies {
        block(&copy.body, &mut c);
    }
    expr(&t.pre, &mut c, true);
    expr(&t.post, &mut c, true);
    for h in &t.hints.invariants {
        expr(h, &mut c, true);
    }
    let vars = t.vars.len() as u64;
    let search = if c.loops == 0 { 1 } else { c.loops * (1 + c.atoms) * (1 + vars) };
    (c.stmts + search) * (1 + c.mults)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Copy, Loc, LoopId, Quantifier, TupleVar, Type, VarId};

    fn tuple(body: Block, pre: Expr) -> Tuple {
        let var = TupleVar { copy: 0, name: "x".into(), ty: Type::Int };
        let copy = Copy {
            name: "a".into(),
            program: "p".into(),
            quantifier: Quantifier::Forall,
            body,
            vars: vec![VarId(0)],
            file: None,
        };
        Tuple {
            name: "t".into(),
            file: "t.fe".into(),
            loc: Loc { line: 1, col: 1 },
            copies: vec![copy],
            vars: vec![var],
            pre,
            post: Expr::bool(true),
            kind: Default::default(),
            observations: None,
            hints: Default::default(),
            c_view: None,
        }
    }

    fn x() -> Expr {
        Expr::var(VarId(0), Type::Int)
    }

    fn lt(a: Expr, b: Expr) -> Expr {
        Expr { kind: ExprKind::Binary(BinOp::Lt, Box::new(a), Box::new(b)), ty: Type::Bool }
    }

    fn and(a: Expr, b: Expr) -> Expr {
        Expr { kind: ExprKind::Binary(BinOp::And, Box::new(a), Box::new(b)), ty: Type::Bool }
    }

    #[test]
    fn loops_atoms_and_products_cost_more() {
        let loc = Loc { line: 1, col: 1 };
        let assign = Stmt::Assign { var: VarId(0), value: Expr::int(1), loc };
        let looping = |pre| {
            let body = vec![assign.clone()];
            let w = Stmt::While { id: LoopId(0), cond: lt(x(), Expr::int(9)), body, loc };
            tuple(vec![w], pre)
        };
        let straight = estimate(&tuple(vec![assign.clone(), assign.clone()], lt(x(), x())));
        let one_atom = estimate(&looping(lt(x(), Expr::int(0))));
        let two_atoms = estimate(&looping(and(lt(x(), Expr::int(0)), lt(Expr::int(5), x()))));
        assert!(straight < one_atom && one_atom < two_atoms, "{straight} {one_atom} {two_atoms}");
        let square = Expr {
            kind: ExprKind::Binary(BinOp::Mul, Box::new(x()), Box::new(x())),
            ty: Type::Int,
        };
        let nonlinear = estimate(&looping(lt(square, Expr::int(0))));
        assert!(nonlinear > one_atom, "{nonlinear} {one_atom}");
    }
}
