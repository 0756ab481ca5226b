//! Queries and rewrites over statements and blocks: the variables they write, the
//! loops, cuts and observations they hold, their own expressions, nesting depth, loop
//! numbering.

use super::{Block, Expr, ExprKind, LoopId, Stmt, VarId};

impl Stmt {
    /// Variables this statement (and everything nested in it) may write, appended to
    /// `out` when not in it already.
    pub fn modified_vars(&self, out: &mut Vec<VarId>) {
        let mut seen: std::collections::HashSet<VarId> = out.iter().copied().collect();
        self.modified_into(out, &mut seen);
    }

    /// [`Stmt::modified_vars`] with the set of `out`'s variables (a lookup per write, not
    /// a scan of `out`: a program inlined from thousands of calls writes thousands).
    fn modified_into(&self, out: &mut Vec<VarId>, seen: &mut std::collections::HashSet<VarId>) {
        let mut push = |v: VarId| {
            if seen.insert(v) {
                out.push(v)
            }
        };
        match self {
            Stmt::Skip | Stmt::Assume { .. } | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
            Stmt::Assign { var, .. } | Stmt::Havoc { var, .. } => push(*var),
            Stmt::Store { array, .. } => push(*array),
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                for s in then_branch.iter().chain(else_branch) {
                    s.modified_into(out, seen);
                }
            }
            Stmt::While { body, .. } => {
                for s in body {
                    s.modified_into(out, seen);
                }
            }
        }
    }

    /// The same statement with every variable renamed by `f`.
    pub fn map_vars(&self, f: &impl Fn(VarId) -> VarId) -> Stmt {
        let block = |b: &Block| b.iter().map(|s| s.map_vars(f)).collect::<Block>();
        match self {
            Stmt::Skip => Stmt::Skip,
            Stmt::Assign { var, value, loc } => {
                Stmt::Assign { var: f(*var), value: value.map_vars(f), loc: *loc }
            }
            Stmt::Store { array, index, value, loc } => Stmt::Store {
                array: f(*array),
                index: index.map_vars(f),
                value: value.map_vars(f),
                loc: *loc,
            },
            Stmt::Havoc { var, loc } => Stmt::Havoc { var: f(*var), loc: *loc },
            Stmt::Assume { cond, loc } => Stmt::Assume { cond: cond.map_vars(f), loc: *loc },
            Stmt::If { cond, then_branch, else_branch, loc } => Stmt::If {
                cond: cond.map_vars(f),
                then_branch: block(then_branch),
                else_branch: block(else_branch),
                loc: *loc,
            },
            Stmt::IfStar { then_branch, else_branch, loc } => Stmt::IfStar {
                then_branch: block(then_branch),
                else_branch: block(else_branch),
                loc: *loc,
            },
            Stmt::While { id, cond, body, loc } => {
                Stmt::While { id: *id, cond: cond.map_vars(f), body: block(body), loc: *loc }
            }
            Stmt::Observe { loc } => Stmt::Observe { loc: *loc },
            Stmt::Cut { loc } => Stmt::Cut { loc: *loc },
        }
    }
}

/// Whether a block contains a loop anywhere.
pub fn has_loop(block: &[Stmt]) -> bool {
    block.iter().any(|s| match s {
        Stmt::While { .. } => true,
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            has_loop(then_branch) || has_loop(else_branch)
        }
        _ => false,
    })
}

/// Whether a block contains a [`Stmt::Cut`] anywhere (a recursive call deeper than
/// the front end unfolded).
pub fn has_cut(block: &[Stmt]) -> bool {
    block.iter().any(|s| match s {
        Stmt::Cut { .. } => true,
        Stmt::While { body, .. } => has_cut(body),
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            has_cut(then_branch) || has_cut(else_branch)
        }
        _ => false,
    })
}

/// Whether a block contains an `observe;` anywhere.
pub fn has_observe(block: &[Stmt]) -> bool {
    block.iter().any(|s| match s {
        Stmt::Observe { .. } => true,
        Stmt::While { body, .. } => has_observe(body),
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            has_observe(then_branch) || has_observe(else_branch)
        }
        _ => false,
    })
}

/// Variables a block may write, in first-write order.
pub fn modified_vars(block: &[Stmt]) -> Vec<VarId> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for s in block {
        s.modified_into(&mut out, &mut seen);
    }
    out
}

/// A statement's own expressions (conditions, assigned values, indices), not those of
/// the blocks it holds.
pub fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    match s {
        Stmt::Assign { value, .. } => vec![value],
        Stmt::Store { index, value, .. } => vec![index, value],
        Stmt::Assume { cond, .. } | Stmt::If { cond, .. } | Stmt::While { cond, .. } => {
            vec![cond]
        }
        _ => Vec::new(),
    }
}

/// Calls `f` on the own expressions ([`own_exprs`]) of every statement of `block`,
/// nested blocks included, in order.
pub fn for_each_expr(block: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    for s in block {
        for e in own_exprs(s) {
            f(e);
        }
        match s {
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                for_each_expr(then_branch, f);
                for_each_expr(else_branch, f);
            }
            Stmt::While { body, .. } => for_each_expr(body, f),
            _ => {}
        }
    }
}

/// Expression nesting depth (what [`super::MAX_DEPTH`] bounds).
pub fn expr_depth(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::ConstArray(a) | ExprKind::Extract { arg: a, .. } => {
            expr_depth(a)
        }
        ExprKind::Quant { body, .. } => expr_depth(body),
        ExprKind::Binary(_, a, b) | ExprKind::Select(a, b) => expr_depth(a).max(expr_depth(b)),
        ExprKind::Ite(c, a, b) | ExprKind::Fma(c, a, b) => {
            expr_depth(c).max(expr_depth(a)).max(expr_depth(b))
        }
        _ => 0,
    }
}

/// Numbers the loops of `block` in source order, a loop before the loops inside it
/// (inlined function bodies bring loops whose numbers are the function's).
pub fn renumber_loops(block: &mut [Stmt], next: &mut u32) {
    for s in block {
        match s {
            Stmt::While { id, body, .. } => {
                *id = LoopId(*next);
                *next += 1;
                renumber_loops(body, next);
            }
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                renumber_loops(then_branch, next);
                renumber_loops(else_branch, next);
            }
            _ => {}
        }
    }
}
