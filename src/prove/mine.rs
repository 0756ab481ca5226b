//! Mining candidate invariant atoms for one alignment, in priority order: user hints,
//! pre/post conjuncts over modified variables, equalities of guard variables between
//! copies, equalities of other modified variables between copies, and linear relations
//! `a.v == k * b.v` between copies whose iteration counts differ by the factor k.

use super::loops::Aligned;
use crate::ir::{Expr, Tuple, Type, VarId};

pub fn atoms(tuple: &Tuple, align: &[Aligned<'_>]) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    let push = |e: Expr, out: &mut Vec<Expr>| {
        if !out.contains(&e) {
            out.push(e);
        }
    };
    let modified: Vec<VarId> =
        align.iter().flat_map(|al| crate::ir::modified_vars(al.body())).collect();
    let mentions_modified = |e: &Expr| {
        let mut hit = false;
        e.for_each_var(&mut |v| hit |= modified.contains(&v));
        hit
    };
    for h in &tuple.hints.invariants {
        push(h.clone(), &mut out);
    }
    for c in tuple.pre.conjuncts().into_iter().chain(tuple.post.conjuncts()) {
        if mentions_modified(c) && !matches!(c.kind, crate::ir::ExprKind::Bool(_)) {
            push(c.clone(), &mut out);
        }
    }
    let guard_vars = |al: &Aligned<'_>| {
        let mut vs = Vec::new();
        al.cond().for_each_var(&mut |v| {
            if !vs.contains(&v) {
                vs.push(v)
            }
        });
        vs
    };
    let var_expr = |v: VarId| Expr::var(v, tuple.var(v).ty.clone());
    let same_name = |x: VarId, y: VarId| {
        let (a, b) = (tuple.var(x), tuple.var(y));
        a.name == b.name && a.ty == b.ty
    };
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            for x in guard_vars(a) {
                for y in guard_vars(b) {
                    if same_name(x, y) {
                        push(Expr::eq(var_expr(x), var_expr(y)), &mut out);
                    }
                }
            }
        }
    }
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            let (ma, mb) = (crate::ir::modified_vars(a.body()), crate::ir::modified_vars(b.body()));
            for &x in &ma {
                for &y in &mb {
                    if same_name(x, y) {
                        push(Expr::eq(var_expr(x), var_expr(y)), &mut out);
                    }
                }
            }
            // a runs k times as often as b: counters and accumulators scale by k.
            for (p, q, mp, mq) in [(a, b, &ma, &mb), (b, a, &mb, &ma)] {
                if q.count == 0 || p.count <= q.count || p.count % q.count != 0 {
                    continue;
                }
                let k = p.count / q.count;
                for &x in mp.iter() {
                    for &y in mq.iter() {
                        if same_name(x, y) && tuple.var(x).ty == Type::Int {
                            let scaled =
                                Expr::binary(crate::ir::BinOp::Mul, Expr::int(k), var_expr(y));
                            push(Expr::eq(var_expr(x), scaled), &mut out);
                        }
                    }
                }
            }
        }
    }
    out
}
