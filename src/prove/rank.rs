//! ∃-only loops that must run (beyond ForEx, ../shared/DESIGN.md §4): the ∃ copy's choices drive
//! the loop to its exit. Proved like an aligned loop of its own (invariant by the same
//! Houdini search) whose consecution also shows that a ranking function, mined from the
//! guard, is non-negative at the head and strictly decreases in every iteration. The
//! states after the loop are then the invariant's states with the guard false.

use super::genpp::{Cfg, End, Fail, Prover, Res};
use super::loops::Aligned;
use super::state::{Acc, Scope, SymState};
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Tuple, Type, UnOp, VarId};

impl<'t> Prover<'t> {
    pub(super) fn exists_ranked(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        copy: usize,
        w: &'t Stmt,
    ) -> Res<Acc> {
        let Stmt::While { cond, .. } = w else { unreachable!("a loop") };
        let align = [Aligned { copy, stmt: w, count: 1, upto: false }];
        let start = self.candidates;
        let mut last = Fail::invalid("no ranking function candidate");
        let modified = crate::ir::modified_vars(align[0].body());
        for r in rankings(self.tuple, copy, cond, &modified) {
            let saved = self.ranking.replace((copy, w, r));
            let result = self.houdini(cfg, acc, scope, end, &align, start, false, None);
            self.ranking = saved;
            match result {
                Ok(a) => return Ok(a),
                Err(f) => last = f,
            }
        }
        Err(last)
    }

    /// The ranking function when `align` is exactly the ranked ∃ loop.
    pub(super) fn ranking_for(&self, align: &[Aligned<'t>]) -> Option<Expr> {
        match (&self.ranking, align) {
            (Some((copy, w, r)), [al]) if al.copy == *copy && std::ptr::eq(al.stmt, *w) => {
                Some(r.clone())
            }
            _ => None,
        }
    }

    /// Invariant atoms that tie the ranked loop's guard to its ranking function r:
    /// `r >= 0`, and for a ranking not read off the guard's bounds (`while (go)` or
    /// `while (r != 0)` over a flag set by a choice) `guard <==> r > 0`, so that the loop
    /// exits exactly when r reaches 0.
    pub(super) fn ranking_atoms(&self, align: &[Aligned<'t>]) -> Vec<Expr> {
        let Some(r) = self.ranking_for(align) else { return Vec::new() };
        let zero = Expr::number(&r.ty, 0).unwrap_or_else(|| Expr::int(0));
        let mut out = vec![Expr::binary(BinOp::Ge, r.clone(), zero.clone())];
        let cond = align[0].cond();
        if !guard_rankings(cond).contains(&r) {
            out.push(Expr::binary(BinOp::Iff, cond.clone(), Expr::binary(BinOp::Gt, r, zero)));
        }
        out
    }

    /// Adds "0 <= r(head) and r(now) < r(head)" to a consecution goal for the ranked
    /// loop; `head` gets ghost variables holding the loop-head values.
    pub(super) fn with_ranking(
        &mut self,
        head: &mut SymState,
        align: &[Aligned<'t>],
        goal: End,
    ) -> End {
        let Some(r) = self.ranking_for(align) else { return goal };
        let mut atoms = match goal {
            End::Inv(atoms) => atoms,
            other => return other,
        };
        self.loop_instances += 1;
        let n = self.tuple.vars.len() as u32;
        let base = n * self.loop_instances;
        let modified = crate::ir::modified_vars(align[0].body());
        for v in &modified {
            let t = head.vars[v].clone();
            head.vars.insert(VarId(base + v.0), t);
        }
        let at_head = r.map_vars(&|v| if modified.contains(&v) { VarId(base + v.0) } else { v });
        let zero = Expr::number(&at_head.ty, 0).unwrap_or_else(|| Expr::int(0));
        atoms.push(Expr::binary(BinOp::Ge, at_head.clone(), zero));
        atoms.push(Expr::binary(BinOp::Lt, r, at_head));
        End::Inv(atoms)
    }
}

/// Ranking function candidates: from the guard's integer comparisons the distance to
/// the bound (`a < b` gives `b - a`, `a <= b` gives `b - a + 1`, `a != b` gives
/// `abs(a - b)`, and so on); then, for a guard without an ordered bound, a loop that steers towards a target rather than a
/// bound (`while (more) { o++; more = *; }`), distances to the postcondition: between
/// the sides of its integer comparisons that mention a variable the loop modifies (`post
/// a.o == b.o` gives `a.o - b.o` and `b.o - a.o`), and between an integer the loop
/// modifies and an integer of another copy that the postcondition names (the ∀ copy's
/// result the ∃ loop must reach, before the ∃ copy copies its counter into its own).
fn rankings(tuple: &Tuple, copy: usize, cond: &Expr, modified: &[VarId]) -> Vec<Expr> {
    let diff = |x: Expr, y: Expr| Expr::binary(BinOp::Sub, x, y);
    let mut out = guard_rankings(cond);
    // An ordered bound in the guard is what the loop counts towards.
    let ordered = int_bounds(cond).iter().any(|(op, _, _)| *op != BinOp::Ne);
    if ordered {
        return out;
    }
    let mut push = |r: Expr| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    let post = &tuple.post;
    let mentions_modified = |e: &Expr| {
        let mut hit = false;
        e.for_each_var(&mut |v| hit |= modified.contains(&v));
        hit
    };
    for c in post.conjuncts() {
        let ExprKind::Binary(BinOp::Eq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, a, b) =
            &c.kind
        else {
            continue;
        };
        if a.ty != Type::Int || !mentions_modified(c) {
            continue;
        }
        push(diff((**a).clone(), (**b).clone()));
        push(diff((**b).clone(), (**a).clone()));
    }
    let int_var = |v: VarId| tuple.vars[v.0 as usize].ty == Type::Int;
    let mut targets = Vec::new();
    post.for_each_var(&mut |v| {
        if int_var(v) && tuple.vars[v.0 as usize].copy != copy && !targets.contains(&v) {
            targets.push(v);
        }
    });
    let counters =
        modified.iter().filter(|v| int_var(**v) && !tuple.vars[v.0 as usize].name.contains('$'));
    for &v in counters {
        for &t in &targets {
            push(diff(Expr::var(t, Type::Int), Expr::var(v, Type::Int)));
            push(diff(Expr::var(v, Type::Int), Expr::var(t, Type::Int)));
        }
    }
    out
}

/// The distances to the bounds of the guard's integer comparisons.
fn guard_rankings(cond: &Expr) -> Vec<Expr> {
    let diff = |x: Expr, y: Expr| Expr::binary(BinOp::Sub, x, y);
    let plus1 = |e: Expr| {
        let one = Expr::number(&e.ty, 1).unwrap_or_else(|| Expr::int(1));
        Expr::binary(BinOp::Add, e, one)
    };
    let mut out = Vec::new();
    for (op, a, b) in int_bounds(cond) {
        let r = match op {
            BinOp::Lt => diff(b, a),
            BinOp::Le => plus1(diff(b, a)),
            BinOp::Gt => diff(a, b),
            BinOp::Ge => plus1(diff(a, b)),
            _ => Expr { kind: ExprKind::Unary(UnOp::Abs, Box::new(diff(a, b))), ty: Type::Int },
        };
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// The guard's integer comparisons `a op b` (op one of `<`, `<=`, `>`, `>=`, `!=`), and
/// its unsigned bit-vector comparisons but `!=` (a distance that decreases as an
/// unsigned number cannot do so forever, so it ranks as well).
fn int_bounds(cond: &Expr) -> Vec<(BinOp, Expr, Expr)> {
    let mut out = Vec::new();
    for c in cond.conjuncts() {
        let ExprKind::Binary(op, a, b) = &c.kind else { continue };
        let ordered = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        let fits = match a.ty {
            Type::Int => ordered || *op == BinOp::Ne,
            Type::Bv(_) => ordered,
            _ => false,
        };
        if !fits {
            continue;
        }
        out.push((*op, (**a).clone(), (**b).clone()));
    }
    out
}
