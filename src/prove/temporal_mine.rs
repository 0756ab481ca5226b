//! Candidate conjuncts for the temporal prover's invariant (`temporal.rs`).
//!
//! Every candidate is only a guess: the prover keeps it only where initiation and
//! consecution are valid, so what is mined here affects completeness and speed, never
//! soundness. The shapes, in the order they are tried:
//! - φ's conjuncts (required), the hints, `pre`'s conjuncts;
//! - φ one step later along each way through the copies' steps (`x + a == y + b + 1`
//!   with steps `x += a` and `y += b + 1` or `y += 2 * b`), which ties the ∃ copies'
//!   constant choices to the ∀ copies' values;
//! - "for every way the ∀ copies step, some way the ∃ copies step keeps φ": the
//!   conjunction over ∀ paths of (path condition ⇒ the disjunction over ∃ paths of
//!   (path condition ∧ φ one step later)), for steps with branches, where no single
//!   branch serves every ∀ value (`a == 2 * b + 1 || a == 2 * b`);
//! - corresponding variables of two copies equal;
//! - bounds of monotone counters (`a >= 0` when `a` starts at 0 and only grows) and, for
//!   each disequality of φ between such a counter and another term, that term on the
//!   other side of the start (`b < 0` for `a != b`): the ∃ choice keeps clear of every
//!   value the counter will take.

use super::temporal::Segments;
use crate::ir::{BinOp, Expr, ExprKind, Quantifier, Stmt, Tuple, Type, UnOp, VarId};
use itertools::Itertools;
use num_bigint::BigInt;
use std::collections::HashMap;

/// Most paths through one copy's step (or first segment) that are enumerated.
const MAX_PATHS_PER_COPY: usize = 8;
/// Most joint paths (one path per copy) that one-step-later candidates are built from.
const MAX_JOINT_PATHS: usize = 16;

/// Candidate conjuncts of the invariant, in priority order, and how many of the first
/// ones are φ's own conjuncts (required: they give I ⇒ φ).
pub(super) fn candidates(tuple: &Tuple, seg: &Segments) -> (Vec<Expr>, usize) {
    let mut out: Vec<Expr> = Vec::new();
    // `true` says nothing; `false` stays (a required `false` must make the proof fail).
    let push = |e: Expr, out: &mut Vec<Expr>| {
        if e.kind != ExprKind::Bool(true) && !out.contains(&e) {
            out.push(e);
        }
    };
    let phi: Vec<Expr> = tuple.post.conjuncts().into_iter().cloned().collect();
    for c in &phi {
        push(c.clone(), &mut out);
    }
    let required = out.len();
    for h in &tuple.hints.invariants {
        push(h.clone(), &mut out);
    }
    if tuple.hints.only_hints {
        return (out, required);
    }
    for c in tuple.pre.conjuncts() {
        push(c.clone(), &mut out);
    }
    let steps: Option<Vec<Vec<Path>>> = seg.step.iter().map(|b| paths(b)).collect();
    if let Some(steps) = &steps {
        for e in one_step_later(tuple, steps, &phi) {
            push(e, &mut out);
        }
    }
    // Corresponding variables of two copies are equal (same name and type).
    for (x, y) in (0..tuple.vars.len()).tuple_combinations() {
        let (a, b) = (&tuple.vars[x], &tuple.vars[y]);
        if a.copy != b.copy && a.name == b.name && a.ty == b.ty && a.ty.is_scalar() {
            let var = |v: usize| Expr::var(VarId(v as u32), tuple.vars[v].ty.clone());
            push(Expr::same(var(x), var(y)), &mut out);
        }
    }
    if let Some(steps) = &steps {
        for e in counter_bounds(tuple, seg, steps, &phi) {
            push(e, &mut out);
        }
    }
    (out, required)
}

/// Candidates for the lagged proof (`temporal.rs`, "Looking ahead"), where the ∃
/// copies are one observation behind the ∀ copies and `prev` maps each ∀ variable to
/// its ghost at the ∃ copies' observation: φ over the ghosts (required), φ with the ∃
/// copies one step further (what the ∃ side must have prepared for the ∀ copies'
/// current values), ghosts equal to the ∃ copies' variables of the same name, then
/// the lockstep candidates.
pub(super) fn lag_candidates(
    tuple: &Tuple,
    seg: &Segments,
    prev: &HashMap<VarId, VarId>,
) -> (Vec<Expr>, usize) {
    let mut out: Vec<Expr> = Vec::new();
    let push = |e: Expr, out: &mut Vec<Expr>| {
        if e.kind != ExprKind::Bool(true) && !out.contains(&e) {
            out.push(e);
        }
    };
    let ghost = |v: VarId| prev.get(&v).map(|g| Expr::var(*g, tuple.var(v).ty.clone()));
    let phi: Vec<Expr> = tuple.post.conjuncts().into_iter().cloned().collect();
    for c in &phi {
        push(substitute(c, &ghost), &mut out);
    }
    let required = out.len();
    for h in &tuple.hints.invariants {
        push(h.clone(), &mut out);
    }
    if tuple.hints.only_hints {
        return (out, required);
    }
    let exists_steps: Option<Vec<Vec<Path>>> = seg
        .step
        .iter()
        .zip(&tuple.copies)
        .filter(|(_, c)| c.quantifier == Quantifier::Exists)
        .map(|(b, _)| paths(b))
        .collect();
    if let Some(steps) = exists_steps {
        if let Some(ways) = joint(&steps.iter().collect::<Vec<_>>()) {
            for w in &ways {
                for c in &phi {
                    if let Some(later) = w.value(c) {
                        push(later, &mut out);
                    }
                }
            }
            // Where the ∃ steps branch on the ∃ copies' own state (a mode chosen one
            // step earlier), the way they will take must keep φ: "some ∃ way's
            // condition holds and φ holds after it", which ties the mode chosen at the
            // last step to the ∀ copies' move since their previous observation.
            if ways.len() > 1 {
                let mut goals: Vec<Expr> = phi.clone();
                if phi.len() > 1 {
                    goals.push(Expr::and_all(phi.iter().cloned()));
                }
                for goal in &goals {
                    let options: Option<Vec<Expr>> = ways
                        .iter()
                        .map(|w| {
                            let later = w.value(goal)?;
                            Some(Expr::and_all(w.guard.iter().cloned().chain([later])))
                        })
                        .collect();
                    if let Some(some) = options
                        .and_then(|o| o.into_iter().reduce(|a, b| Expr::binary(BinOp::Or, a, b)))
                    {
                        push(some, &mut out);
                    }
                }
            }
        }
    }
    let mut ghosts: Vec<(VarId, VarId)> = prev.iter().map(|(v, g)| (*v, *g)).collect();
    ghosts.sort_by_key(|(v, _)| v.0);
    for (v, g) in ghosts {
        let tv = tuple.var(v);
        for (_, c) in tuple.exists_copies() {
            for &w in &c.vars {
                let tw = tuple.var(w);
                if tw.name == tv.name && tw.ty == tv.ty && tv.ty.is_scalar() {
                    let var = |x: VarId| Expr::var(x, tv.ty.clone());
                    push(Expr::same(var(g), var(w)), &mut out);
                }
            }
        }
    }
    for c in tuple.pre.conjuncts() {
        push(c.clone(), &mut out);
    }
    let (lockstep, _) = candidates(tuple, seg);
    for e in lockstep {
        push(e, &mut out);
    }
    (out, required)
}

/// One way through a loop-free block.
#[derive(Clone, Default)]
struct Path {
    /// Each variable written on the way: its value after the block as an expression over
    /// the values before it, or `None` when it is chosen by `*` (or is an array).
    after: HashMap<VarId, Option<Expr>>,
    /// The conditions met on the way (branch conditions and `assume`s), over the values
    /// before the block; those mentioning a chosen value are left out.
    guard: Vec<Expr>,
}

impl Path {
    /// `e` over the values before the block, or `None` when it reads a chosen value.
    fn value(&self, e: &Expr) -> Option<Expr> {
        let mut known = true;
        e.for_each_var(&mut |v| known &= !matches!(self.after.get(&v), Some(None)));
        known.then(|| substitute(e, &|v| self.after.get(&v).cloned().flatten()))
    }

    fn guard_expr(&self) -> Expr {
        Expr::and_all(self.guard.iter().cloned())
    }
}

/// Every way through `block`, or `None` when it has a loop or too many ways.
fn paths(block: &[Stmt]) -> Option<Vec<Path>> {
    continue_all(vec![Path::default()], block)
}

/// The ways each of `ways` continues through `block`.
fn continue_all(mut ways: Vec<Path>, block: &[Stmt]) -> Option<Vec<Path>> {
    for s in block {
        let mut next = Vec::new();
        for w in ways {
            next.extend(through(w, s)?);
            if next.len() > MAX_PATHS_PER_COPY {
                return None;
            }
        }
        ways = next;
    }
    Some(ways)
}

/// The ways `p` continues through `s`.
fn through(mut p: Path, s: &Stmt) -> Option<Vec<Path>> {
    let branches = |p: Path, cond: Option<Expr>, then_b: &[Stmt], else_b: &[Stmt]| {
        let (mut t, mut e) = (p.clone(), p);
        if let Some(c) = cond {
            t.guard.push(c.clone());
            e.guard.push(Expr::negate(c));
        }
        let mut out = continue_all(vec![t], then_b)?;
        out.extend(continue_all(vec![e], else_b)?);
        (out.len() <= MAX_PATHS_PER_COPY).then_some(out)
    };
    match s {
        Stmt::Skip | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
        Stmt::Assign { var, value, .. } => {
            let v = p.value(value);
            p.after.insert(*var, v);
        }
        Stmt::Havoc { var, .. } => {
            p.after.insert(*var, None);
        }
        Stmt::Store { array, .. } => {
            p.after.insert(*array, None);
        }
        Stmt::Assume { cond, .. } => {
            if let Some(c) = p.value(cond) {
                p.guard.push(c);
            }
        }
        Stmt::If { cond, then_branch, else_branch, .. } => {
            let c = p.value(cond);
            return branches(p, c, then_branch, else_branch);
        }
        Stmt::IfStar { then_branch, else_branch, .. } => {
            return branches(p, None, then_branch, else_branch);
        }
        Stmt::While { .. } => return None,
    }
    Some(vec![p])
}

/// `e` with each variable that `value` maps replaced by its expression.
pub(super) fn substitute(e: &Expr, value: &impl Fn(VarId) -> Option<Expr>) -> Expr {
    match &e.kind {
        ExprKind::Var(v) => value(*v).unwrap_or_else(|| e.clone()),
        _ => e.map_children(&|a| substitute(a, value)),
    }
}

/// The joint paths: one path per copy, their writes merged (copies write disjoint
/// variables) and their guards joined; `None` when there are too many.
fn joint(per_copy: &[&Vec<Path>]) -> Option<Vec<Path>> {
    let count = per_copy.iter().try_fold(1usize, |n, ps| n.checked_mul(ps.len()))?;
    if count > MAX_JOINT_PATHS {
        return None;
    }
    let combos = per_copy.iter().map(|ps| ps.iter()).multi_cartesian_product();
    let merged = combos.map(|ways| {
        let mut j = Path::default();
        for w in ways {
            j.after.extend(w.after.iter().map(|(k, v)| (*k, v.clone())));
            j.guard.extend(w.guard.iter().cloned());
        }
        j
    });
    // An empty product (no copies) still has one joint path.
    Some(if per_copy.is_empty() { vec![Path::default()] } else { merged.collect() })
}

/// φ one step later: per conjunct along each joint path, and, where the steps branch,
/// "for every ∀ path some ∃ path keeps φ" (module comment).
fn one_step_later(tuple: &Tuple, steps: &[Vec<Path>], phi: &[Expr]) -> Vec<Expr> {
    let mut out = Vec::new();
    let side = |q: Quantifier| -> Vec<&Vec<Path>> {
        steps.iter().zip(&tuple.copies).filter(|(_, c)| c.quantifier == q).map(|(s, _)| s).collect()
    };
    let (Some(all), Some(univ), Some(exist)) = (
        joint(&steps.iter().collect::<Vec<_>>()),
        joint(&side(Quantifier::Forall)),
        joint(&side(Quantifier::Exists)),
    ) else {
        return out;
    };
    for p in &all {
        out.extend(phi.iter().filter_map(|c| p.value(c)));
    }
    if all.len() <= 1 {
        return out;
    }
    let mut goals: Vec<Expr> = phi.to_vec();
    if phi.len() > 1 {
        goals.push(Expr::and_all(phi.iter().cloned()));
    }
    'goal: for goal in &goals {
        let mut per_forall = Vec::new();
        for u in &univ {
            let mut options = Vec::new();
            for e in &exist {
                let mut both = u.clone();
                both.after.extend(e.after.iter().map(|(k, v)| (*k, v.clone())));
                let Some(later) = both.value(goal) else { continue 'goal };
                options.push(Expr::and_all(e.guard.iter().cloned().chain([later])));
            }
            let some = options.into_iter().reduce(|a, b| Expr::binary(BinOp::Or, a, b));
            let some = some.unwrap_or_else(|| Expr::bool(false));
            per_forall.push(if u.guard.is_empty() {
                some
            } else {
                Expr::binary(BinOp::Implies, u.guard_expr(), some)
            });
        }
        out.push(Expr::and_all(per_forall));
    }
    out
}

/// Bounds of monotone counters and the other sides of φ's disequalities with them
/// (module comment).
fn counter_bounds(tuple: &Tuple, seg: &Segments, steps: &[Vec<Path>], phi: &[Expr]) -> Vec<Expr> {
    // Values at observation 1, where every way through the copy's first segment agrees.
    let firsts: Option<Vec<Vec<Path>>> = seg.first.iter().map(|b| paths(b)).collect();
    let Some(firsts) = firsts else { return Vec::new() };
    let start = |v: VarId| -> Option<BigInt> {
        let mut values = firsts[tuple.var(v).copy].iter().map(|p| p.after.get(&v));
        let first = values.next()??.as_ref()?;
        let ExprKind::Int(n) = &first.kind else { return None };
        values.all(|o| o == Some(&Some(first.clone()))).then(|| n.clone())
    };
    // +1: never decreases, -1: never increases, over every way through every step.
    let direction = |v: VarId| -> Option<i8> {
        let mut dir = 0i8;
        for p in steps.iter().flatten() {
            let Some(after) = p.after.get(&v) else { continue };
            let d = increment(v, after.as_ref()?)?;
            let s = if d > BigInt::from(0) {
                1
            } else if d < BigInt::from(0) {
                -1
            } else {
                0
            };
            if s != 0 && dir != 0 && s != dir {
                return None;
            }
            if s != 0 {
                dir = s;
            }
        }
        (dir != 0).then_some(dir)
    };
    let bound = |e: &Expr| -> Option<(Expr, BigInt, i8)> {
        let ExprKind::Var(v) = e.kind else { return None };
        if e.ty != Type::Int {
            return None;
        }
        Some((e.clone(), start(v)?, direction(v)?))
    };
    let mut out = Vec::new();
    for c in phi {
        let sides = match &c.kind {
            ExprKind::Binary(BinOp::Ne, a, b) => (a, b),
            ExprKind::Unary(UnOp::Not, inner) => match &inner.kind {
                ExprKind::Binary(BinOp::Eq, a, b) => (a, b),
                _ => continue,
            },
            _ => continue,
        };
        for (counter, other) in [(sides.0, sides.1), (sides.1, sides.0)] {
            let Some((v, n, dir)) = bound(counter) else { continue };
            if other.ty != Type::Int {
                continue;
            }
            let (stays, clear) =
                if dir > 0 { (BinOp::Ge, BinOp::Lt) } else { (BinOp::Le, BinOp::Gt) };
            out.push(Expr::binary(stays, v, Expr::int(n.clone())));
            out.push(Expr::binary(clear, (**other).clone(), Expr::int(n)));
        }
    }
    out
}

/// `k` when `after` is `v + k`, `k + v`, `v - k` (as `-k`) or `v` (as 0), for a literal `k`.
fn increment(v: VarId, after: &Expr) -> Option<BigInt> {
    let is_v = |e: &Expr| e.kind == ExprKind::Var(v);
    let lit = |e: &Expr| match &e.kind {
        ExprKind::Int(n) => Some(n.clone()),
        _ => None,
    };
    match &after.kind {
        ExprKind::Var(_) if is_v(after) => Some(BigInt::from(0)),
        ExprKind::Binary(BinOp::Add, a, b) if is_v(a) => lit(b),
        ExprKind::Binary(BinOp::Add, a, b) if is_v(b) => lit(a),
        ExprKind::Binary(BinOp::Sub, a, b) if is_v(a) => lit(b).map(|k| -k),
        _ => None,
    }
}
