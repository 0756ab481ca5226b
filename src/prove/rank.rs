//! ∃-only loops that must run (beyond ForEx, ../shared/DESIGN.md §4): the ∃ copy's choices drive
//! the loop to its exit. Proved like an aligned loop of its own (invariant by the same
//! Houdini search) whose consecution also shows that a ranking function, mined from the
//! guard, is non-negative at the head and strictly decreases in every iteration. The
//! states after the loop are then the invariant's states with the guard false.

use super::genpp::{Cfg, End, Fail, Prover, Res};
use super::loops::Aligned;
use super::state::{Acc, Scope, SymState};
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Type, VarId};

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
        let align = [Aligned { copy, stmt: w, count: 1 }];
        let start = self.candidates;
        let mut last = Fail::invalid("no ranking function candidate");
        for r in rankings(cond) {
            let saved = self.ranking.replace((copy, w, r));
            let result = self.houdini(cfg, acc, scope, end, &align, start);
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
        atoms.push(Expr::binary(BinOp::Ge, at_head.clone(), Expr::int(0)));
        atoms.push(Expr::binary(BinOp::Lt, r, at_head));
        End::Inv(atoms)
    }
}

/// Ranking function candidates from the guard's integer comparisons: the distance to
/// the bound (`a < b` gives `b - a`, `a <= b` gives `b - a + 1`, and so on).
fn rankings(cond: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    for c in cond.conjuncts() {
        let ExprKind::Binary(op, a, b) = &c.kind else { continue };
        if a.ty != Type::Int {
            continue;
        }
        let (a, b) = ((**a).clone(), (**b).clone());
        let diff = |x: Expr, y: Expr| Expr::binary(BinOp::Sub, x, y);
        let plus1 = |e: Expr| Expr::binary(BinOp::Add, e, Expr::int(1));
        let r = match op {
            BinOp::Lt => diff(b, a),
            BinOp::Le => plus1(diff(b, a)),
            BinOp::Gt => diff(a, b),
            BinOp::Ge => plus1(diff(a, b)),
            _ => continue,
        };
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}
