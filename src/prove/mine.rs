//! Mining candidate invariant atoms for one alignment, in priority order: user hints,
//! pre/post conjuncts over modified variables, equalities of guard variables between
//! copies (and `c <==> d` of flag guards of different names), equalities of other
//! modified variables between copies, and linear relations
//! `a.v == k * b.v` between copies whose iteration counts differ by the factor k, and
//! lockstep relations between different guard counters stepped by constants
//! (`a.i - old(a.i) == 2 * (b.j - old(b.j))` for counts 2:1); then per copy the guard
//! weakened to its closure (`x < y` gives `x <= y`), and for a loop that runs alone its
//! monotone variables (`x >= old(x)`, stepped one way in every branch) and preserved
//! differences
//! `x - y == old(x) - old(y)`, where `old(v)` is the value on entering the loop point (a
//! ghost variable, see `ghost`). Per-copy (unary) atoms for a loop run alone: counters
//! of one body stepped in proportion (`o - old(o) == 2 * (i - old(i))`) and a counter's
//! exit bound (`i <= n || i == old(i)`, which with the guard false gives
//! `i == max(n, old(i))`), so that copies whose loops run different numbers of times can
//! be related after their loops (self-composition). Counters stepped by c, |c| >= 2,
//! keep their distance from the entry a multiple of c (`(i - old(i)) % 2 == 0`) when they
//! are guard counters or their loop runs alone. Bit-vector variables get the same
//! atoms as integers (steps read as signed literals, `*` and `-` wrapping, `<` unsigned):
//! a relation that holds of the integers holds modulo 2^N, and the ones that wrapping
//! breaks (`x >= old(x)`) fail their check like any other candidate.
//! Guard counters of different names stepped alike in a 1:1 alignment keep a small
//! distance (`a.i - b.j == k`, |k| ≤ `offset::MAX_OFFSET`: a copy ran k iterations
//! first); what a body's last iteration left true comes from `last_iteration`.
//! Strength reduction: in any alignment, a guard counter i stepped by c and a variable
//! stepped by a literal only that loop writes, or by a loop-invariant expression e
//! (`j += b`), move in proportion: `c * (j - old(j)) == e * (i - old(i))`.
//! Code sinking: `r = e` each iteration in one aligned loop only gives
//! `i == old(i) || r == e` and `i != old(i) || r == old(r)`. Guards over one variable of
//! different names, equal up to renaming, give that variable's equality.

use super::loops::Aligned;
pub use crate::ir::steps::{counters, exposed_reads, monotone, stepped_by_multiples};
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Tuple, Type, VarId};

/// `ghost(v)`: the ghost variable holding `v`'s value when the loops were reached.
/// `lockstep`: the loops run in lockstep (`loops::Lockstep`), which also gets the
/// monotone counters of each loop.
pub fn atoms(
    tuple: &Tuple,
    align: &[Aligned<'_>],
    ghost: &dyn Fn(VarId) -> VarId,
    lockstep: bool,
) -> Vec<Expr> {
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
        // The stronger variant first: where both hold, the proof keeps it.
        if let Some(v) = unbounded(h) {
            push(v, &mut out);
        }
        push(h.clone(), &mut out);
    }
    // ForEx `[onlyHints]`: the user's candidates only.
    if tuple.hints.only_hints {
        return out;
    }
    for c in tuple.pre.conjuncts().into_iter().chain(tuple.post.conjuncts()) {
        if mentions_modified(c) && !matches!(c.kind, crate::ir::ExprKind::Bool(_)) {
            push(c.clone(), &mut out);
        }
    }
    // Loops that return early: the postcondition on the copies that returned.
    for a in super::exits::returned_sets(tuple, align) {
        push(a, &mut out);
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
    // `v - old(v)`: how far v moved since the loop point was entered.
    let moved_from_entry = |v: VarId| {
        let ty = tuple.var(v).ty.clone();
        Expr::binary(BinOp::Sub, Expr::var(v, ty.clone()), Expr::var(ghost(v), ty))
    };
    let same_name = |x: VarId, y: VarId| {
        let (a, b) = (tuple.var(x), tuple.var(y));
        a.name == b.name && a.ty == b.ty
    };
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            // The guards agree: what "exit together" asks, for guards of different names
            // (an ∃ copy's `while (d) { …; d = *; }` following a ∀ `while (c)`).
            // Only for flag guards: counters' relations say when bounded guards agree.
            let flag = |al: &Aligned<'_>| {
                let mut all_bool = true;
                al.cond().for_each_var(&mut |v| all_bool &= tuple.var(v).ty == Type::Bool);
                all_bool
            };
            if (flag(a) || flag(b)) && a.cond() != b.cond() {
                push(Expr::binary(BinOp::Iff, a.cond().clone(), b.cond().clone()), &mut out);
            }
            for x in guard_vars(a) {
                for y in guard_vars(b) {
                    if same_name(x, y) {
                        push(Expr::same(var_expr(x), var_expr(y)), &mut out);
                    }
                }
            }
            // One guard over a variable of another name (`while (y > 0)` on a copy y of
            // the input against `while (x > 0)`): the two play one role.
            if let ([x], [y]) = (guard_vars(a).as_slice(), guard_vars(b).as_slice()) {
                let (x, y) = (*x, *y);
                let renamed = a.cond().map_vars(&|v| if v == x { y } else { v });
                if !same_name(x, y) && tuple.var(x).ty == tuple.var(y).ty && renamed == *b.cond() {
                    push(Expr::eq(var_expr(x), var_expr(y)), &mut out);
                }
            }
        }
    }
    for e in super::exits::permuted(tuple, align) {
        push(e, &mut out);
    }
    for e in super::exits::counts(tuple, align, ghost) {
        push(e, &mut out);
    }
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            let (ma, mb) = (crate::ir::modified_vars(a.body()), crate::ir::modified_vars(b.body()));
            for &x in &ma {
                for &y in &mb {
                    if same_name(x, y) {
                        push(Expr::same(var_expr(x), var_expr(y)), &mut out);
                    }
                }
            }
            // a runs k times as often as b: counters and accumulators scale by k.
            for (p, q, mp, mq) in [(a, b, &ma, &mb), (b, a, &mb, &ma)] {
                // Up to k iterations per step: no fixed proportion.
                if p.upto || q.upto || q.count == 0 || p.count <= q.count || p.count % q.count != 0
                {
                    continue;
                }
                let k = p.count / q.count;
                for &x in mp.iter() {
                    for &y in mq.iter() {
                        let ty = &tuple.var(x).ty;
                        if same_name(x, y) && Expr::numeric(ty) {
                            push(
                                Expr::eq(var_expr(x), scaled(i64::from(k), var_expr(y))),
                                &mut out,
                            );
                        }
                    }
                }
            }
        }
    }
    // Variables set before they are read (`ret` of a `return` in the loop, a local a
    // `do … while` assigns each round; not `exposed_reads`): their equality fails on entry, where each copy's
    // value is its own arbitrary one, and holds once the loop has set them. What tells
    // "set" apart: an exit flag of the guard (`$return ==> ret == ret'`, and
    // `!$loop ==> m == m'` for a `do … while`'s guard variable, true on entry) or a
    // counter that moved (`i == old(i) || m == m'`).
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            let (ma, mb) = (crate::ir::modified_vars(a.body()), crate::ir::modified_vars(b.body()));
            let (ea, eb) = (exposed_reads(a.cond(), a.body()), exposed_reads(b.cond(), b.body()));
            let pairs: Vec<Expr> = ma
                .iter()
                .filter(|x| !ea.contains(x))
                .flat_map(|&x| mb.iter().filter(move |&&y| same_name(x, y)).map(move |&y| (x, y)))
                .filter(|(_, y)| !eb.contains(y))
                .map(|(x, y)| Expr::same(var_expr(x), var_expr(y)))
                .collect();
            let mut set: Vec<Expr> = Vec::new();
            for al in [a, b] {
                let written = crate::ir::modified_vars(al.body());
                for f in guard_vars(al) {
                    if tuple.var(f).ty == Type::Bool && written.contains(&f) {
                        set.push(var_expr(f));
                        set.push(Expr::negate(var_expr(f)));
                    }
                }
                for (c, _) in counters(tuple, al.body()) {
                    let ghost_c = Expr::var(ghost(c), tuple.var(c).ty.clone());
                    set.push(Expr::negate(Expr::eq(var_expr(c), ghost_c)));
                }
            }
            for s in &set {
                for p in &pairs {
                    push(Expr::binary(BinOp::Implies, s.clone(), p.clone()), &mut out);
                }
            }
        }
    }
    // Counters stepped by constants in loops of different copies move in lockstep under
    // the alignment: with counts p and q and steps cx and cy, after t joint steps
    // x - old(x) == t*p*cx and y - old(y) == t*q*cy (e.g. `a.i == 2 * b.j` from zero).
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            let (ga, gb) = (guard_vars(a), guard_vars(b));
            if a.upto || b.upto {
                continue;
            }
            for (x, cx) in counters(tuple, a.body()) {
                for (y, cy) in counters(tuple, b.body()) {
                    // Guard counters only: they are what simultaneous termination needs.
                    if !ga.contains(&x) || !gb.contains(&y) {
                        continue;
                    }
                    let (kx, ky) = (i64::from(b.count) * cy, i64::from(a.count) * cx);
                    let g = num_integer::gcd(kx, ky);
                    // Normalised: coprime, the first coefficient positive.
                    let sign = if kx < 0 { -1 } else { 1 };
                    let (kx, ky) = (sign * kx / g, sign * ky / g);
                    let moved = |v: VarId, k: i64| scaled(k, moved_from_entry(v));
                    // One variable in both copies: the (scaled) equalities mined above
                    // cover it whenever they start true.
                    if same_name(x, y) || tuple.var(x).ty != tuple.var(y).ty {
                        continue;
                    }
                    push(Expr::eq(moved(x, kx), moved(y, ky)), &mut out);
                    // 1:1 with one step: the counters keep a small distance (a copy that
                    // ran `k` iterations first: `a.i - 1 == b.j`).
                    if (kx, ky) == (1, 1) && cx == cy && tuple.var(x).ty == Type::Int {
                        for k in -super::offset::MAX_OFFSET..=super::offset::MAX_OFFSET {
                            let diff = Expr::binary(BinOp::Sub, var_expr(x), var_expr(y));
                            push(Expr::eq(diff, Expr::int(k)), &mut out);
                        }
                    }
                }
            }
        }
    }
    // Strength reduction: a variable one loop alone steps (`k += 5`, `j += b` with b
    // unwritten) moves in proportion to the loop's guard counter i stepped by c:
    // `c * (k - old(k)) == 5 * (i - old(i))`, so with its value on entry k is the
    // product the other copy recomputes each iteration (`5 * i + c`). Literal counters
    // another aligned loop writes under the same name are related by equalities instead.
    for (n, al) in align.iter().enumerate() {
        let others: Vec<VarId> = align
            .iter()
            .enumerate()
            .filter(|(m, _)| *m != n)
            .flat_map(|(_, o)| crate::ir::modified_vars(o.body()))
            .collect();
        let own = |y: VarId| !others.iter().any(|&o| same_name(o, y));
        let guarded = guard_vars(al);
        let cs = counters(tuple, al.body());
        for &(x, cx) in cs.iter().filter(|(x, _)| guarded.contains(x)) {
            if tuple.var(x).ty != Type::Int {
                continue;
            }
            // Literal steps: loops alone get every proportional pair below.
            for &(y, cy) in cs.iter().filter(|_| align.len() > 1) {
                if y == x || !own(y) || tuple.var(y).ty != Type::Int {
                    continue;
                }
                let g = num_integer::gcd(cx, cy);
                let (kx, ky) = (cy / g, cx / g);
                let moved = |v: VarId, k: i64| scaled(k, moved_from_entry(v));
                push(Expr::eq(moved(x, kx), moved(y, ky)), &mut out);
            }
            // Symbolic steps are rare: mined even when the other copy writes the name too
            // (it recomputes `j = i * b + c` where this copy steps `j += b`).
            for (y, e, sign) in crate::ir::steps::invariant_steps(tuple, al.body()) {
                if y == x {
                    continue;
                }
                let per = Expr::binary(BinOp::Mul, e, moved_from_entry(x));
                push(Expr::eq(scaled(cx, moved_from_entry(y)), scaled(sign, per)), &mut out);
            }
        }
    }
    // Code sinking: a loop that sets `r = e` every iteration (e read after its inputs'
    // last writes) against one that sets it once after the loop: once the counter moved
    // r is e, before that r is what it was on entry.
    for (n, al) in align.iter().enumerate().filter(|_| align.len() > 1) {
        let others: Vec<VarId> = align
            .iter()
            .enumerate()
            .filter(|(m, _)| *m != n)
            .flat_map(|(_, o)| crate::ir::modified_vars(o.body()))
            .collect();
        let guarded = guard_vars(al);
        let body = al.body();
        let Some(&(x, cx)) = counters(tuple, body)
            .iter()
            .find(|(x, _)| guarded.contains(x) && tuple.var(*x).ty == Type::Int)
        else {
            continue;
        };
        let ghost_of = |v: VarId| Expr::var(ghost(v), tuple.var(v).ty.clone());
        // The counter never comes back to its entry value (what `i != old(i)` needs).
        let away =
            Expr::binary(if cx > 0 { BinOp::Ge } else { BinOp::Le }, var_expr(x), ghost_of(x));
        let mut away = Some(away);
        let mut sunk = false;
        for (k, s) in body.iter().enumerate() {
            let Stmt::Assign { var: r, value, .. } = s else { continue };
            let r = *r;
            if r == x || others.iter().any(|&o| same_name(o, r)) {
                continue;
            }
            let later = crate::ir::modified_vars(&body[k + 1..]);
            let earlier = crate::ir::modified_vars(&body[..k]);
            let mut stale = earlier.contains(&r) || later.contains(&r);
            value.for_each_var(&mut |v| stale |= v == r || later.contains(&v));
            if stale || value.has_quantifier() {
                continue;
            }
            if let Some(a) = away.take() {
                push(a, &mut out);
            }
            let unmoved = Expr::eq(var_expr(x), ghost_of(x));
            let set = Expr::eq(var_expr(r), value.clone());
            push(Expr::binary(BinOp::Or, unmoved.clone(), set), &mut out);
            let kept = Expr::eq(var_expr(r), ghost_of(r));
            push(Expr::binary(BinOp::Or, Expr::negate(unmoved), kept), &mut out);
            sunk = true;
        }
        // After the loops, whether the counter moved is whether the other copy's code
        // after its loop ran (`if (n > 0) r = m`): the exit bound says it ends at n.
        if sunk {
            for e in exit_bounds(tuple, al, ghost) {
                push(e, &mut out);
            }
        }
    }
    // A guard counter stepped by c (|c| >= 2) keeps its distance from the loop's entry a
    // multiple of c: with an even bound, `i < n` then gives `i + 1 < n` too, which a
    // copy whose loop does two iterations per step of the other's needs (`i += 2` against
    // `i++` run 1:2).
    for al in align {
        let guarded = guard_vars(al);
        for (x, c) in counters(tuple, al.body()) {
            // Alone, any counter's residue is a fact an ∃ copy after the loop may need
            // (it matches `s += 3` by a count it picks: prophecy by deferral).
            if c.abs() < 2 || !(guarded.contains(&x) || align.len() == 1) {
                continue;
            }
            let ty = tuple.var(x).ty.clone();
            let (Some(modulus), Some(zero)) = (Expr::number(&ty, c.abs()), Expr::number(&ty, 0))
            else {
                continue;
            };
            let rem = Expr::binary(BinOp::Mod, moved_from_entry(x), modulus);
            push(Expr::eq(rem, zero), &mut out);
        }
    }
    // Alone, a variable stepped in every branch by multiples of g (`s += 2` or `s += 4`)
    // keeps its distance from the entry a multiple of g: an ∃ copy that may only pick
    // even values can then match it.
    for al in align.iter().filter(|_| align.len() == 1) {
        for (x, g) in stepped_by_multiples(tuple, al.body()) {
            let ty = tuple.var(x).ty.clone();
            let (Some(modulus), Some(zero)) = (Expr::number(&ty, g), Expr::number(&ty, 0)) else {
                continue;
            };
            let rem = Expr::binary(BinOp::Mod, moved_from_entry(x), modulus);
            push(Expr::eq(rem, zero), &mut out);
        }
    }
    for al in align {
        for c in al.cond().conjuncts() {
            if let ExprKind::Binary(op, a, b) = &c.kind {
                let closed = match op {
                    BinOp::Lt => Some(BinOp::Le),
                    BinOp::Gt => Some(BinOp::Ge),
                    BinOp::SLt => Some(BinOp::SLe),
                    BinOp::SGt => Some(BinOp::SGe),
                    _ => None,
                };
                if let (Some(op), true) = (closed, Expr::numeric(&a.ty)) {
                    push(Expr::binary(op, (**a).clone(), (**b).clone()), &mut out);
                }
            }
        }
    }
    // Signs of what the loop divides (`b = a % b` keeps `b >= 0` only while `a >= 0`,
    // which the code before the loop checked): a modified variable that is a dividend,
    // or compared in the guard, stays non-negative.
    for al in align {
        let written = crate::ir::modified_vars(al.body());
        for x in divided_or_guarded(al) {
            if written.contains(&x) {
                let ty = tuple.var(x).ty.clone();
                let Some(zero) = Expr::number(&ty, 0) else { continue };
                let op = if matches!(ty, Type::Bv(_)) { BinOp::SGe } else { BinOp::Ge };
                push(Expr::binary(op, var_expr(x), zero), &mut out);
            }
        }
    }
    for al in align.iter().filter(|_| lockstep) {
        // Monotone counters of loops in lockstep (loops alone get them below): what the
        // lockstep did bounds what the copies' leftovers start from.
        for (x, c) in monotone(tuple, al.body()) {
            for e in one_way(var_expr(x), Expr::var(ghost(x), tuple.var(x).ty.clone()), c) {
                push(e, &mut out);
            }
        }
    }
    // Unary atoms serve loops run alone (in exact alignments the relational atoms do,
    // and the disjunctions would only slow every later query on the path).
    for al in align.iter().filter(|_| align.len() == 1) {
        let cs = counters(tuple, al.body());
        for (i, &(x, cx)) in cs.iter().enumerate() {
            for &(y, cy) in &cs[i + 1..] {
                if cx == cy || tuple.var(x).ty != tuple.var(y).ty {
                    continue;
                }
                let g = num_integer::gcd(cx, cy);
                let (kx, ky) = (cy / g, cx / g);
                let moved = |v: VarId, k: i64| scaled(k, moved_from_entry(v));
                push(Expr::eq(moved(x, kx), moved(y, ky)), &mut out);
            }
        }
        for e in exit_bounds(tuple, al, ghost) {
            push(e, &mut out);
        }
    }
    // Preserved differences matter for loops that run alone (their partner copies are
    // not there to relate to); for aligned loops they only cost queries.
    for al in align.iter().filter(|_| align.len() == 1) {
        let numbers: Vec<VarId> = crate::ir::modified_vars(al.body())
            .into_iter()
            .filter(|v| Expr::numeric(&tuple.var(*v).ty))
            .collect();
        // Monotone counters: what the loop did bounds the value from one side (an ∃
        // copy stepped after the loop can then make up the difference).
        for (x, c) in monotone(tuple, al.body()) {
            for e in one_way(var_expr(x), Expr::var(ghost(x), tuple.var(x).ty.clone()), c) {
                push(e, &mut out);
            }
        }
        for (i, &x) in numbers.iter().enumerate() {
            for &y in numbers[i + 1..].iter().filter(|&&y| tuple.var(y).ty == tuple.var(x).ty) {
                let now = Expr::binary(BinOp::Sub, var_expr(x), var_expr(y));
                let old = Expr::binary(
                    BinOp::Sub,
                    Expr::var(ghost(x), tuple.var(x).ty.clone()),
                    Expr::var(ghost(y), tuple.var(y).ty.clone()),
                );
                push(Expr::eq(now, old), &mut out);
            }
        }
    }
    for al in align {
        for e in super::last_iteration::atoms(tuple, al, ghost) {
            push(e, &mut out);
        }
    }
    if lockstep {
        out = super::exits::while_running(tuple, align, out);
    }
    out
}

/// A guard counter's exit bound for loop `al` (`i <= n || i == old(i)` for `i < n`
/// stepped by 1): the last iteration starts inside the guard and moves the counter by
/// one step, so with the guard false the counter ends exactly at the bound, or stays.
/// A hint's `forall k :: lo <= k && k <= hi && G ==> P` without the bounds on `k`
/// (`forall k :: G ==> P`), under the hint's implications and conjunctions; `None` when
/// the hint has no such bounds. Elaenia's hints bound their quantifiers by the arrays'
/// sizes, while arrays are total maps (and `=a=` compares every cell): a loop that
/// writes only inside the bounds keeps the cells outside them too, which a
/// postcondition of whole arrays needs.
fn unbounded(h: &Expr) -> Option<Expr> {
    match &h.kind {
        ExprKind::Binary(op @ (BinOp::Implies | BinOp::And), a, b) => {
            let (a2, b2) = (unbounded(a), unbounded(b));
            if a2.is_none() && b2.is_none() || *op == BinOp::Implies && a2.is_some() {
                return None;
            }
            let a =
                if *op == BinOp::And { a2.unwrap_or_else(|| (**a).clone()) } else { (**a).clone() };
            Some(Expr::binary(*op, a, b2.unwrap_or_else(|| (**b).clone())))
        }
        ExprKind::Quant { quantifier: crate::ir::Quantifier::Forall, var, body, .. } => {
            let ExprKind::Binary(BinOp::Implies, guard, claim) = &body.kind else {
                return None;
            };
            let parts = guard.conjuncts();
            let bound = |e: &Expr| {
                let is_var = |x: &Expr| matches!(x.kind, ExprKind::Bound(b) if b == *var);
                matches!(&e.kind, ExprKind::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, x, y)
                    if is_var(x) || is_var(y))
            };
            let kept: Vec<Expr> =
                parts.iter().filter(|e| !bound(e)).map(|e| (*e).clone()).collect();
            if kept.len() == parts.len() {
                return None;
            }
            let body = if kept.is_empty() {
                (**claim).clone()
            } else {
                Expr::binary(BinOp::Implies, Expr::and_all(kept), (**claim).clone())
            };
            let mut q = h.clone();
            if let ExprKind::Quant { body: b, .. } = &mut q.kind {
                **b = body;
            }
            Some(q)
        }
        _ => None,
    }
}

fn exit_bounds(tuple: &Tuple, al: &Aligned<'_>, ghost: &dyn Fn(VarId) -> VarId) -> Vec<Expr> {
    let var_expr = |v: VarId| Expr::var(v, tuple.var(v).ty.clone());
    let cs = counters(tuple, al.body());
    let mut out = Vec::new();
    for c in al.cond().conjuncts() {
        let ExprKind::Binary(op, a, b) = &c.kind else { continue };
        let ExprKind::Var(x) = a.kind else { continue };
        let Some(step) = cs.iter().find(|(v, _)| *v == x).map(|(_, s)| *s) else { continue };
        // The last iteration starts inside the guard and moves x by one step: `i < n`
        // stepped by c > 0 ends with `i <= n + c - 1`, `i >= n` stepped by -c with
        // `i >= n - c` (for c = 1: `i <= n`, `i >= n - 1`).
        let (bound, slack) = match op {
            BinOp::Lt if step > 0 => (BinOp::Le, step - 1),
            BinOp::Le if step > 0 => (BinOp::Le, step),
            BinOp::Gt if step < 0 => (BinOp::Ge, step + 1),
            BinOp::Ge if step < 0 => (BinOp::Ge, step),
            BinOp::SLt if step > 0 => (BinOp::SLe, step - 1),
            BinOp::SLe if step > 0 => (BinOp::SLe, step),
            BinOp::SGt if step < 0 => (BinOp::SGe, step + 1),
            BinOp::SGe if step < 0 => (BinOp::SGe, step),
            _ => continue,
        };
        let edge = match (&b.kind, Expr::number(&b.ty, slack)) {
            _ if slack == 0 => (**b).clone(),
            (ExprKind::Int(n), _) => Expr::int(n.clone() + slack),
            (_, Some(k)) if tuple.var(x).ty == Type::Int => {
                Expr::binary(BinOp::Add, (**b).clone(), k)
            }
            _ => continue,
        };
        let within = Expr::binary(bound, var_expr(x), edge);
        let unmoved = Expr::same(var_expr(x), Expr::var(ghost(x), tuple.var(x).ty.clone()));
        out.push(Expr::binary(BinOp::Or, within, unmoved));
    }
    out
}

/// The variables a loop divides (the left operand of `/`, `%` and their signed forms)
/// or compares in its guard.
fn divided_or_guarded(al: &Aligned<'_>) -> Vec<VarId> {
    fn walk(e: &Expr, out: &mut Vec<VarId>) {
        if let ExprKind::Binary(BinOp::Div | BinOp::Mod | BinOp::SDiv | BinOp::SRem, a, _) = &e.kind
        {
            if let ExprKind::Var(v) = a.kind {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        e.children().for_each(|c| walk(c, out));
    }
    let mut out = Vec::new();
    al.cond().for_each_var(&mut |v| {
        if !out.contains(&v) {
            out.push(v);
        }
    });
    crate::ir::for_each_expr(al.body(), &mut |e| walk(e, &mut out));
    out
}

/// `x` moved one way from `from` (`sign` > 0: up): `x >= from` (`x <= from`). A
/// bit-vector is also compared signed, first: C's `int` counters are bit-vectors whose
/// guards compare signed (`j < 3` is `slt(j, 3)`), and only the signed bound keeps `j`
/// away from the negative indices a bounds check asks about; unsigned counters keep the
/// unsigned one.
fn one_way(x: Expr, from: Expr, sign: i64) -> Vec<Expr> {
    let up = sign > 0;
    let mut out = Vec::new();
    if matches!(x.ty, Type::Bv(_)) {
        let op = if up { BinOp::SGe } else { BinOp::SLe };
        out.push(Expr::binary(op, x.clone(), from.clone()));
    }
    out.push(Expr::binary(if up { BinOp::Ge } else { BinOp::Le }, x, from));
    out
}

/// `k * e` (k a literal of e's type), or `e` when k is 1.
fn scaled(k: i64, e: Expr) -> Expr {
    match Expr::number(&e.ty, k) {
        Some(lit) if k != 1 => Expr::binary(BinOp::Mul, lit, e),
        _ => e,
    }
}
