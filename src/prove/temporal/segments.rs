//! A temporal tuple's copies cut at their observation points (see the parent module):
//! each copy's first segment and its step from whichever point it is at, with a point
//! variable for copies with several points, and the combinations of points.

use crate::ir::{Expr, Loc, Stmt, Tuple, TupleVar, VarId};
use crate::observation::graph::{build, point_type, CopyGraph};
use itertools::Itertools;
use std::collections::HashMap;

/// Per copy, its observation graph's segments (`observation::graph`).
pub(in crate::prove) struct Segments {
    pub(in crate::prove) first: Vec<Vec<Stmt>>,
    /// Per copy, one step from whichever point it is at: a dispatch over its point
    /// variable (for the candidate miner, which reads steps as loop-free blocks).
    pub(in crate::prove) step: Vec<Vec<Stmt>>,
    /// Per copy, its point variable (copies with several points).
    pub(in crate::prove) at: Vec<Option<VarId>>,
    pub(in crate::prove) graphs: Vec<CopyGraph>,
}

/// Name of the point variable each copy with several observation points gets (not an
/// identifier of the language, so it cannot clash with a program's variable).
const POINT_VAR: &str = "@at";

/// Most combinations of points whose steps are checked one by one (beyond it, one
/// run over every copy's dispatch).
const MAX_COMBINATIONS: usize = 64;

/// The tuple with a point variable for each copy with several observation points, and
/// every copy's segments; or why a copy is refused.
pub(super) fn segments(tuple: &Tuple) -> Result<(Tuple, Segments), String> {
    let mut ext = tuple.clone();
    let mut seg =
        Segments { first: Vec::new(), step: Vec::new(), at: Vec::new(), graphs: Vec::new() };
    for (i, c) in tuple.copies.iter().enumerate() {
        let refused = |why: String| {
            format!("the temporal prover cannot follow the observations of copy {}: {why}", c.name)
        };
        let choice = |v: VarId| tuple.var(v).name.contains('@');
        // The silent iterations' choice variables, one per observing loop that has them.
        let mut silent: HashMap<Loc, VarId> = HashMap::new();
        let mut g =
            build(&c.body, None, &choice, &mut |loc| silent_var(&mut ext, &mut silent, i, loc))
                .map_err(refused)?;
        let mut at = None;
        if g.points.len() > 1 {
            let v = VarId(ext.vars.len() as u32);
            ext.vars.push(TupleVar { copy: i, name: POINT_VAR.into(), ty: point_type() });
            ext.copies[i].vars.push(v);
            at = Some(v);
            let mut alloc = |loc| silent_var(&mut ext, &mut silent, i, loc);
            g = build(&c.body, at, &choice, &mut alloc).map_err(refused)?;
        }
        let step = match at {
            None => g.from[0].clone(),
            Some(v) => {
                dispatch(v, &g.from, tuple.copies[i].body.first().map_or(Loc::default(), loc_of))
            }
        };
        seg.first.push(g.first.clone());
        seg.step.push(step);
        seg.at.push(at);
        seg.graphs.push(g);
    }
    Ok((ext, seg))
}

/// The choice variable of copy `copy`'s silent iterations of the observing loop at
/// `loc` (`observation::graph`, "Silent iterations"), made on first use.
fn silent_var(ext: &mut Tuple, made: &mut HashMap<Loc, VarId>, copy: usize, loc: Loc) -> VarId {
    *made.entry(loc).or_insert_with(|| {
        let v = VarId(ext.vars.len() as u32);
        let name = format!("silent@{loc}");
        ext.vars.push(TupleVar { copy, name, ty: crate::ir::Type::Bool });
        ext.copies[copy].vars.push(v);
        v
    })
}

fn loc_of(s: &Stmt) -> Loc {
    match s {
        Stmt::Skip => Loc::default(),
        Stmt::Assign { loc, .. }
        | Stmt::Store { loc, .. }
        | Stmt::Havoc { loc, .. }
        | Stmt::Assume { loc, .. }
        | Stmt::If { loc, .. }
        | Stmt::IfStar { loc, .. }
        | Stmt::While { loc, .. }
        | Stmt::Observe { loc }
        | Stmt::Cut { loc } => *loc,
    }
}

/// `if (at == 1) { from[0] } else if (at == 2) { … } else { from[last] }`.
fn dispatch(at: VarId, from: &[Vec<Stmt>], loc: Loc) -> Vec<Stmt> {
    let mut out = from[from.len() - 1].clone();
    for k in (0..from.len() - 1).rev() {
        out = vec![Stmt::If {
            cond: is_at(at, k + 1),
            then_branch: from[k].clone(),
            else_branch: out,
            loc,
        }];
    }
    out
}

/// `at == k`.
pub(super) fn is_at(at: VarId, k: usize) -> Expr {
    Expr::eq(Expr::var(at, point_type()), Expr::int(k))
}

/// Every combination of 0-based points, one per copy, or `None` when too many.
pub(super) fn combinations(seg: &Segments) -> Option<Vec<Vec<usize>>> {
    let sizes: Vec<usize> = seg.graphs.iter().map(|g| g.points.len()).collect();
    let count = sizes.iter().try_fold(1usize, |n, &k| n.checked_mul(k))?;
    if count > MAX_COMBINATIONS {
        return None;
    }
    Some(sizes.iter().map(|&k| 0..k).multi_cartesian_product().collect())
}
