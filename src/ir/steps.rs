//! Constant steps of loop bodies, shared by the prover's candidate mining and the
//! refuter's ∃-loop summaries: counters (one `x = x + c` per iteration), variables that
//! move one way only, and variables whose steps share a divisor.

use super::{BinOp, Expr, ExprKind, Stmt, Tuple, Type, VarId};

/// The integer variables a loop body steps by a nonzero constant in every iteration:
/// exactly one top-level `x = x + c` (or `x = x - c`, `x = c + x`) and no other
/// assignment to x anywhere in the body.
pub fn counters(tuple: &Tuple, body: &[Stmt]) -> Vec<(VarId, i64)> {
    let mut out = Vec::new();
    let mut known = Constants::default();
    for s in body {
        let before = known.clone();
        known.after(s);
        let Stmt::Assign { var, value, .. } = s else { continue };
        if !Expr::numeric(&tuple.var(*var).ty) {
            continue;
        }
        let Some(c) = step(*var, value, &before) else { continue };
        let writes = body
            .iter()
            .filter(|t| super::modified_vars(std::slice::from_ref(*t)).contains(var))
            .count();
        if c != 0 && writes == 1 && !out.iter().any(|(v, _)| v == var) {
            out.push((*var, c));
        }
    }
    out
}

/// The integer variables a loop body steps by the same symbolic amount in every
/// iteration: exactly one top-level `x = x + e` (`e + x`, `x - e`, the sign given) with
/// e not a literal and reading no variable the body writes (`j = j + b`, b a
/// parameter), and no other assignment to x. With a counter i stepped by c they keep
/// `c * (x - x0) == e * (i - i0)`: the running sum a strength reduction introduces.
pub fn invariant_steps(tuple: &Tuple, body: &[Stmt]) -> Vec<(VarId, Expr, i64)> {
    let written = super::modified_vars(body);
    let mut out: Vec<(VarId, Expr, i64)> = Vec::new();
    for s in body {
        let Stmt::Assign { var, value, .. } = s else { continue };
        if tuple.var(*var).ty != Type::Int {
            continue;
        }
        let ExprKind::Binary(op, a, b) = &value.kind else { continue };
        let is_x = |e: &Expr| matches!(e.kind, ExprKind::Var(v) if v == *var);
        let (e, sign) = match op {
            BinOp::Add if is_x(a) => (b, 1),
            BinOp::Add if is_x(b) => (a, 1),
            BinOp::Sub if is_x(a) => (b, -1),
            _ => continue,
        };
        let mut reads_written = false;
        e.for_each_var(&mut |v| reads_written |= written.contains(&v));
        if reads_written || literal_step(e).is_some() || e.has_quantifier() {
            continue;
        }
        let writes = body
            .iter()
            .filter(|t| super::modified_vars(std::slice::from_ref(*t)).contains(var))
            .count();
        if writes == 1 && !out.iter().any(|(v, _, _)| v == var) {
            out.push((*var, (**e).clone(), sign));
        }
    }
    out
}

/// The numeric variables a loop body only ever steps by constants of one sign, in any
/// branch (`if (*) { c = c + 1; }`): the sign of their steps. They move one way only.
pub fn monotone(tuple: &Tuple, body: &[Stmt]) -> Vec<(VarId, i64)> {
    constant_steps(tuple, body)
        .into_iter()
        .filter_map(|(v, steps)| {
            let sign = steps[0].signum();
            steps.iter().all(|c| c.signum() == sign).then_some((v, sign))
        })
        .collect()
}

/// The numeric variables a loop body only ever steps by +1, in any branch (`if (p) c++;`):
/// counts of the iterations that passed a test.
pub fn counted(tuple: &Tuple, body: &[Stmt]) -> Vec<VarId> {
    constant_steps(tuple, body)
        .into_iter()
        .filter(|(_, steps)| steps.iter().all(|&c| c == 1))
        .map(|(v, _)| v)
        .collect()
}

/// The numeric variables a loop body only ever steps by constants, in any branch, whose
/// steps have a common divisor g >= 2 (`s += 2` or `s += 4`): g. Their distance from the
/// loop's entry stays a multiple of g.
pub fn stepped_by_multiples(tuple: &Tuple, body: &[Stmt]) -> Vec<(VarId, i64)> {
    constant_steps(tuple, body)
        .into_iter()
        .map(|(v, steps)| (v, steps.iter().fold(0, |g, c| num_integer::gcd(g, *c))))
        .filter(|(_, g)| *g >= 2)
        .collect()
}

/// The numeric variables a loop body writes only by nonzero constant steps (in any
/// branch, nested loops included), each with its steps.
fn constant_steps(tuple: &Tuple, body: &[Stmt]) -> Vec<(VarId, Vec<i64>)> {
    fn walk(body: &[Stmt], steps: &mut Vec<(VarId, Option<Vec<i64>>)>) {
        let mut known = Constants::default();
        for s in body {
            let before = known.clone();
            known.after(s);
            let mut note = |v: VarId, step: Option<i64>| {
                let at = match steps.iter().position(|(x, _)| *x == v) {
                    Some(at) => at,
                    None => {
                        steps.push((v, Some(Vec::new())));
                        steps.len() - 1
                    }
                };
                match (step, &mut steps[at].1) {
                    (Some(c), Some(seen)) => seen.push(c),
                    (_, seen) => *seen = None,
                }
            };
            match s {
                Stmt::Assign { var, value, .. } => {
                    note(*var, step(*var, value, &before).filter(|c| *c != 0))
                }
                Stmt::Havoc { var, .. } | Stmt::Store { array: var, .. } => note(*var, None),
                Stmt::If { then_branch, else_branch, .. }
                | Stmt::IfStar { then_branch, else_branch, .. } => {
                    walk(then_branch, steps);
                    walk(else_branch, steps);
                }
                Stmt::While { body, .. } => walk(body, steps),
                Stmt::Skip | Stmt::Assume { .. } | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
            }
        }
    }
    let mut steps = Vec::new();
    walk(body, &mut steps);
    steps
        .into_iter()
        .filter(|(v, _)| Expr::numeric(&tuple.var(*v).ty))
        .filter_map(|(v, s)| Some((v, s?)))
        .filter(|(_, s)| !s.is_empty())
        .collect()
}

/// The variables of a statement list known to hold a literal at a point of it (`k = 1;`
/// earlier in the list, not written since), so that `r = r + k` steps r by 1.
#[derive(Clone, Default)]
struct Constants(Vec<(VarId, Expr)>);

impl Constants {
    /// What is known after `s`, from what was known before it.
    fn after(&mut self, s: &Stmt) {
        let written = super::modified_vars(std::slice::from_ref(s));
        self.0.retain(|(v, _)| !written.contains(v));
        if let Stmt::Assign { var, value, .. } = s {
            if matches!(value.kind, ExprKind::Int(_) | ExprKind::Bv(_)) {
                self.0.push((*var, value.clone()));
            }
        }
    }

    fn get(&self, v: VarId) -> Option<&Expr> {
        self.0.iter().find(|(x, _)| *x == v).map(|(_, e)| e)
    }
}

/// `c` when `value` is `x + c`, `c + x` or `x - c` for a small literal c (or a variable
/// `known` to hold one).
fn step(x: VarId, value: &Expr, known: &Constants) -> Option<i64> {
    let ExprKind::Binary(op, a, b) = &value.kind else { return None };
    let is_x = |e: &Expr| matches!(e.kind, ExprKind::Var(v) if v == x);
    let lit = |e: &Expr| {
        let e = match e.kind {
            ExprKind::Var(v) if v != x => known.get(v).unwrap_or(e),
            _ => e,
        };
        literal_step(e)
    };
    match op {
        BinOp::Add if is_x(a) => lit(b),
        BinOp::Add if is_x(b) => lit(a),
        BinOp::Sub if is_x(a) => lit(b).map(|c| -c),
        _ => None,
    }
}

/// A small literal's value (a bit-vector read as signed).
fn literal_step(e: &Expr) -> Option<i64> {
    match (&e.kind, &e.ty) {
        (ExprKind::Int(n), _) => i64::try_from(n.clone()).ok().filter(|n| n.abs() <= 1 << 20),
        // A bit-vector step read as signed: `x + #xff` steps by -1.
        (ExprKind::Bv(v), Type::Bv(w)) if (1..=64).contains(w) => {
            let signed = ((*v as u64) << (64 - w)) as i64 >> (64 - w);
            Some(signed).filter(|n| n.abs() <= 1 << 20)
        }
        _ => None,
    }
}

/// The variables a loop (`cond`, then `body`) reads before writing them on some path
/// of an iteration (upward-exposed reads): the ones whose value on entering an
/// iteration matters to it. A variable outside this set (`ret` set by a `return` in the
/// loop, a local each round assigns first) may start arbitrary without the loop
/// noticing. A `Store` reads its array (it keeps the other cells). Variables the body
/// havocs count as exposed too: their values are choices, not something the loop sets.
pub fn exposed_reads(cond: &Expr, body: &[Stmt]) -> std::collections::HashSet<VarId> {
    let mut out = std::collections::HashSet::new();
    let mut written = std::collections::HashSet::new();
    read(cond, &written, &mut out);
    exposed_in(body, &mut written, &mut out);
    havocked(body, &mut out);
    out
}

fn havocked(block: &[Stmt], out: &mut Vars) {
    for s in block {
        match s {
            Stmt::Havoc { var, .. } => {
                out.insert(*var);
            }
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                havocked(then_branch, out);
                havocked(else_branch, out);
            }
            Stmt::While { body, .. } => havocked(body, out),
            _ => {}
        }
    }
}

type Vars = std::collections::HashSet<VarId>;

fn read(e: &Expr, written: &Vars, out: &mut Vars) {
    e.for_each_var(&mut |v| {
        if !written.contains(&v) {
            out.insert(v);
        }
    });
}

fn exposed_in(block: &[Stmt], written: &mut Vars, out: &mut Vars) {
    for s in block {
        match s {
            Stmt::Skip | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
            Stmt::Assign { var, value, .. } => {
                read(value, written, out);
                written.insert(*var);
            }
            Stmt::Store { array, index, value, .. } => {
                read(index, written, out);
                read(value, written, out);
                if !written.contains(array) {
                    out.insert(*array);
                }
            }
            Stmt::Havoc { var, .. } => {
                written.insert(*var);
            }
            Stmt::Assume { cond, .. } => read(cond, written, out),
            Stmt::If { cond, then_branch, else_branch, .. } => {
                read(cond, written, out);
                branches(then_branch, else_branch, written, out);
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                branches(then_branch, else_branch, written, out)
            }
            Stmt::While { cond, body, .. } => {
                read(cond, written, out);
                // It may not run: what it writes is not written for what follows.
                exposed_in(body, &mut written.clone(), out);
            }
        }
    }
}

fn branches(a: &[Stmt], b: &[Stmt], written: &mut Vars, out: &mut Vars) {
    let mut wa = written.clone();
    exposed_in(a, &mut wa, out);
    exposed_in(b, written, out);
    written.retain(|v| wa.contains(v));
}
