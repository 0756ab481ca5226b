//! How a temporal proof reads in reports: the invariant, each copy's observation
//! points, and one loop point per combination of points.

use super::segments::combinations;
use super::Segments;
use crate::ir::{BinOp, Expr, ExprKind, Quantifier, Tuple, UnOp, VarId};
use crate::observation::graph::CopyGraph;
use crate::verdict::LoopPointProof;
use itertools::Itertools;

pub(super) fn invariant_text(tuple: &Tuple, atoms: &[Expr]) -> String {
    crate::pretty::conjunction_with(tuple, atoms, &|v| tuple.var_display(v))
}

/// `a@file:line:col (observation)` for a copy with one point; with several, every
/// point with where its segment goes (`→ 1|2`, and `stays` where it can repeat the
/// same observation).
pub(super) fn point_text(tuple: &Tuple, copy: &str, g: &CopyGraph) -> String {
    if g.points.len() == 1 {
        return format!("{copy}@{}:{} (observation)", tuple.file, g.points[0]);
    }
    let points = g
        .points
        .iter()
        .enumerate()
        .map(|(k, at)| {
            let next = g.next[k].iter().map(usize::to_string).join("|");
            let stays = if g.stutters[k] { ", stays" } else { "" };
            format!("{}: {at} → {next}{stays}", k + 1)
        })
        .join("; ");
    let first = g.first_next.iter().map(usize::to_string).join("|");
    format!("{copy}@{} (observation points {points}; first {first})", tuple.file)
}

/// One more loop point per combination of points (when some copy has several): which
/// copies move where, which can stay, and the invariant there (the point variables
/// replaced by that combination's points, conjuncts that become true left out).
pub(super) fn per_combination(
    tuple: &Tuple,
    seg: &Segments,
    invariant: &[Expr],
) -> Vec<LoopPointProof> {
    if seg.at.iter().all(Option::is_none) {
        return Vec::new();
    }
    let Some(combos) = combinations(seg) else { return Vec::new() };
    let mut out = Vec::new();
    for combo in combos {
        let value = |v: VarId| {
            seg.at.iter().zip(&combo).find(|(a, _)| **a == Some(v)).map(|(_, &k)| Expr::int(k + 1))
        };
        let here: Vec<Expr> = invariant
            .iter()
            .map(|a| fold(&crate::prove::temporal_mine::substitute(a, &value)))
            .filter(|a| a.kind != ExprKind::Bool(true))
            .collect();
        // A combination the invariant excludes is never reached.
        if here.iter().any(|a| a.kind == ExprKind::Bool(false)) {
            continue;
        }
        let loops = tuple
            .copies
            .iter()
            .zip(&seg.graphs)
            .zip(&combo)
            .map(|((c, g), &k)| {
                let next = g.next[k].iter().map(usize::to_string).join("|");
                let moves =
                    if next.is_empty() { "ends".to_string() } else { format!("moves to {next}") };
                let stays = if g.stutters[k] { " or stays" } else { "" };
                let who = if c.quantifier == Quantifier::Exists { "∃ choice: " } else { "" };
                format!(
                    "{}@{}:{} (observation {}; {who}{moves}{stays})",
                    c.name,
                    tuple.file,
                    g.points[k],
                    k + 1
                )
            })
            .collect();
        out.push(LoopPointProof {
            loops,
            counts: vec![1; tuple.copies.len()],
            invariant: invariant_text(tuple, &here),
            candidates_tried: 0,
            alignment: None,
            leftover_of: None,
        });
    }
    out
}

/// `e` with comparisons of literals and Boolean connectives over literals evaluated
/// (for showing the invariant at one combination of points).
fn fold(e: &Expr) -> Expr {
    let lit = |x: &Expr| match &x.kind {
        ExprKind::Bool(b) => Some(*b),
        _ => None,
    };
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => {
            let a = fold(a);
            match lit(&a) {
                Some(v) => Expr::bool(!v),
                None => Expr::negate(a),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (fold(a), fold(b));
            let both_ints = match (&a.kind, &b.kind) {
                (ExprKind::Int(x), ExprKind::Int(y)) => Some((x.clone(), y.clone())),
                _ => None,
            };
            let folded = match (op, both_ints, lit(&a), lit(&b)) {
                (BinOp::Eq, Some((x, y)), ..) => Some(x == y),
                (BinOp::Ne, Some((x, y)), ..) => Some(x != y),
                (BinOp::And, _, Some(false), _) | (BinOp::And, _, _, Some(false)) => Some(false),
                (BinOp::And, _, Some(true), _) => return b,
                (BinOp::And, _, _, Some(true)) => return a,
                (BinOp::Or, _, Some(true), _) | (BinOp::Or, _, _, Some(true)) => Some(true),
                (BinOp::Or, _, Some(false), _) => return b,
                (BinOp::Or, _, _, Some(false)) => return a,
                (BinOp::Implies, _, Some(false), _) | (BinOp::Implies, _, _, Some(true)) => {
                    Some(true)
                }
                (BinOp::Implies, _, Some(true), _) => return b,
                _ => None,
            };
            match folded {
                Some(v) => Expr::bool(v),
                None => Expr::binary(*op, a, b),
            }
        }
        _ => e.clone(),
    }
}
