//! Value-insensitive hypercoverage and branch distances.
//!
//! A *program point* of a ∀ copy is a statement that defines (assigns, stores, havocs)
//! a variable of that copy occurring in `post`, or a variable those definitions read
//! (the data slice, bounded at depth 2). A *goal* is a k-tuple of points, one per ∀
//! copy; a test covers it when each copy's run executed its point. A copy whose slice
//! is empty (its outputs are never written) contributes the single pseudo-point
//! "the run finished".
//!
//! Goals are never materialised by the million: when the product of the copies' point
//! counts exceeds [`MAX_GOALS`] even with depth-1 points, a fixed sample of
//! [`MAX_GOALS`] goals stands for it (every "diagonal" goal, each copy at its i-th point,
//! then pseudo-random k-tuples), and hypercoverage is reported over that sample.

use crate::interp::{eval_expr, Observer};
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Tuple, UnOp, VarId};
use crate::value::Value;
use num_traits::ToPrimitive;
use std::collections::HashMap;

/// The pseudo-point of a copy with an empty slice.
pub const END: usize = usize::MAX;

/// More goals than this and only depth-1 points are used (the product explodes); still
/// more, and this many are sampled.
pub const MAX_GOALS: usize = 20_000;

/// Numbering and control structure of one copy's statements.
pub struct CopyIndex {
    by_ptr: HashMap<usize, usize>,
    /// Per statement: the conditions that must hold, outermost first, to reach it:
    /// (statement id of an `if`/`while`/`if (*)`/`assume`, required outcome).
    pub guards: Vec<Vec<(usize, bool)>>,
    /// Per statement: whether it is an `if (*)` (its "distance" is a coin flip).
    is_star: Vec<bool>,
    /// This copy's program points (statement ids, or [`END`]).
    pub points: Vec<usize>,
}

fn ptr(s: &Stmt) -> usize {
    s as *const Stmt as usize
}

impl CopyIndex {
    fn new(body: &[Stmt], post_vars: &[VarId], depth1_only: bool) -> CopyIndex {
        let mut idx = CopyIndex {
            by_ptr: HashMap::new(),
            guards: Vec::new(),
            is_star: Vec::new(),
            points: Vec::new(),
        };
        let mut defs: Vec<(usize, VarId, Vec<VarId>)> = Vec::new();
        idx.walk(body, &mut Vec::new(), &mut defs);
        let level = |vars: &[VarId]| -> Vec<usize> {
            defs.iter().filter(|(_, v, _)| vars.contains(v)).map(|(id, _, _)| *id).collect()
        };
        let mut points = level(post_vars);
        if !depth1_only {
            let mut read: Vec<VarId> = Vec::new();
            for (_, v, uses) in defs.iter().filter(|(id, _, _)| points.contains(id)) {
                for u in uses.iter().chain(std::iter::once(v)) {
                    if !read.contains(u) {
                        read.push(*u);
                    }
                }
            }
            points.extend(level(&read));
        }
        points.sort_unstable();
        points.dedup();
        if points.is_empty() {
            points.push(END);
        }
        idx.points = points;
        idx
    }

    fn walk(
        &mut self,
        block: &[Stmt],
        guards: &mut Vec<(usize, bool)>,
        defs: &mut Vec<(usize, VarId, Vec<VarId>)>,
    ) {
        let depth = guards.len();
        for s in block {
            let id = self.guards.len();
            self.by_ptr.insert(ptr(s), id);
            self.guards.push(guards.clone());
            self.is_star.push(matches!(s, Stmt::IfStar { .. }));
            let uses = |es: &[&Expr]| {
                let mut out = Vec::new();
                for e in es {
                    e.for_each_var(&mut |v| out.push(v));
                }
                out
            };
            match s {
                Stmt::Skip | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
                Stmt::Assign { var, value, .. } => defs.push((id, *var, uses(&[value]))),
                Stmt::Store { array, index, value, .. } => {
                    defs.push((id, *array, uses(&[index, value])))
                }
                Stmt::Havoc { var, .. } => defs.push((id, *var, Vec::new())),
                // Everything after an `assume` in this block needs it to hold.
                Stmt::Assume { .. } => guards.push((id, true)),
                Stmt::If { then_branch, else_branch, .. }
                | Stmt::IfStar { then_branch, else_branch, .. } => {
                    guards.push((id, true));
                    self.walk(then_branch, guards, defs);
                    guards.pop();
                    guards.push((id, false));
                    self.walk(else_branch, guards, defs);
                    guards.pop();
                }
                Stmt::While { body, .. } => {
                    guards.push((id, true));
                    self.walk(body, guards, defs);
                    guards.pop();
                }
            }
        }
        guards.truncate(depth);
    }
}

/// Program points and goals of a tuple's ∀ copies.
pub struct Goals {
    /// Indices of the ∀ copies, in order.
    pub copies: Vec<usize>,
    pub index: Vec<CopyIndex>,
    /// Number of goals: the product of the per-copy point counts, or the sample's size.
    pub total: usize,
    /// The goals, listed, when they are a sample of a product too large to enumerate.
    sample: Option<Vec<Vec<usize>>>,
}

impl Goals {
    pub fn new(tuple: &Tuple) -> Goals {
        let copies: Vec<usize> = tuple.forall_copies().map(|(i, _)| i).collect();
        let mut post_vars = Vec::new();
        tuple.post.for_each_var(&mut |v| post_vars.push(v));
        let build = |depth1_only: bool| -> Vec<CopyIndex> {
            copies
                .iter()
                .map(|&c| CopyIndex::new(&tuple.copies[c].body, &post_vars, depth1_only))
                .collect()
        };
        let product =
            |ix: &[CopyIndex]| ix.iter().fold(1usize, |acc, c| acc.saturating_mul(c.points.len()));
        let mut index = build(false);
        if product(&index) > MAX_GOALS {
            index = build(true);
        }
        let total = product(&index);
        if total > MAX_GOALS {
            let sample = sample_goals(&index);
            return Goals { copies, index, total: sample.len(), sample: Some(sample) };
        }
        Goals { copies, index, total, sample: None }
    }

    /// Goal number `g` as one point index (into `index[j].points`) per ∀ copy.
    pub fn decode(&self, mut g: usize) -> Vec<usize> {
        if let Some(sample) = &self.sample {
            return sample[g].clone();
        }
        let mut out = vec![0; self.index.len()];
        for j in (0..self.index.len()).rev() {
            let n = self.index[j].points.len();
            out[j] = g % n;
            g /= n;
        }
        out
    }

    /// Goals covered by a test whose copy `j` hit the point indices `hits[j]`.
    pub fn covered_by(&self, hits: &[Vec<usize>], out: &mut [bool]) {
        if hits.iter().any(|h| h.is_empty()) || self.total > MAX_GOALS {
            return;
        }
        if let Some(sample) = &self.sample {
            let hit: Vec<Vec<bool>> = hits
                .iter()
                .zip(&self.index)
                .map(|(h, ix)| {
                    let mut b = vec![false; ix.points.len()];
                    h.iter().for_each(|&p| b[p] = true);
                    b
                })
                .collect();
            for (g, goal) in sample.iter().enumerate() {
                if goal.iter().zip(&hit).all(|(&p, b)| b[p]) {
                    out[g] = true;
                }
            }
            return;
        }
        // Mixed-radix enumeration of the product of the hit sets.
        let mut pos = vec![0usize; hits.len()];
        loop {
            let mut g = 0;
            for j in 0..hits.len() {
                g = g * self.index[j].points.len() + hits[j][pos[j]];
            }
            out[g] = true;
            let mut j = hits.len();
            loop {
                if j == 0 {
                    return;
                }
                j -= 1;
                pos[j] += 1;
                if pos[j] < hits[j].len() {
                    break;
                }
                pos[j] = 0;
            }
        }
    }
}

/// [`MAX_GOALS`] distinct goals out of a product too large to list: every diagonal goal
/// (each copy at its i-th point: for copies of one program, the same point in each),
/// then pseudo-random k-tuples from a fixed seed, so the sample does not depend on the
/// run.
fn sample_goals(index: &[CopyIndex]) -> Vec<Vec<usize>> {
    let counts: Vec<usize> = index.iter().map(|c| c.points.len()).collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let widest = counts.iter().copied().max().unwrap_or(1);
    for i in 0..widest {
        let goal: Vec<usize> = counts.iter().map(|&n| i.min(n - 1)).collect();
        if out.len() < MAX_GOALS && seen.insert(goal.clone()) {
            out.push(goal);
        }
    }
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        // SplitMix64: a fixed, dependency-free sequence.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    };
    // The product exceeds MAX_GOALS, so distinct goals remain to be drawn; the attempt
    // bound only guards against a pathological generator.
    let mut attempts = 0;
    while out.len() < MAX_GOALS && attempts < 20 * MAX_GOALS {
        attempts += 1;
        let goal: Vec<usize> = counts.iter().map(|&n| next(n)).collect();
        if seen.insert(goal.clone()) {
            out.push(goal);
        }
    }
    out
}

/// Records, during one copy's run, which statements ran and how close each condition
/// came to each outcome.
pub struct Trace<'g> {
    index: &'g CopyIndex,
    pub hit: Vec<bool>,
    /// Per statement: least distance seen to making its condition [false, true].
    pub best: Vec<[f64; 2]>,
    distances: bool,
}

impl<'g> Trace<'g> {
    pub fn new(index: &'g CopyIndex, distances: bool) -> Trace<'g> {
        let n = index.guards.len();
        Trace { index, hit: vec![false; n], best: vec![[f64::INFINITY; 2]; n], distances }
    }

    /// Indices (into the copy's points) of the points this run executed.
    pub fn hit_points(&self, finished: bool) -> Vec<usize> {
        (0..self.index.points.len())
            .filter(|&k| match self.index.points[k] {
                END => finished,
                id => self.hit[id],
            })
            .collect()
    }

    /// Distance of this run from executing point `k`: approach level (guards not
    /// reached) plus the normalised branch distance at the innermost reached guard.
    pub fn distance(&self, k: usize, finished: bool) -> f64 {
        let id = match self.index.points[k] {
            END => return if finished { 0.0 } else { 1.0 },
            id => id,
        };
        if self.hit[id] {
            return 0.0;
        }
        let guards = &self.index.guards[id];
        for (depth, &(g, outcome)) in guards.iter().enumerate().rev() {
            if self.hit[g] {
                let bd = if self.index.is_star[g] { 1.0 } else { self.best[g][outcome as usize] };
                let bd = if bd.is_finite() { bd } else { 1.0 };
                return (guards.len() - 1 - depth) as f64 + bd / (bd + 1.0);
            }
        }
        guards.len() as f64 + 1.0
    }
}

impl Observer for Trace<'_> {
    fn before(&mut self, stmt: &Stmt, state: &[Value]) {
        let Some(&id) = self.index.by_ptr.get(&ptr(stmt)) else { return };
        self.hit[id] = true;
        if !self.distances {
            return;
        }
        let cond = match stmt {
            Stmt::If { cond, .. } | Stmt::While { cond, .. } | Stmt::Assume { cond, .. } => cond,
            _ => return,
        };
        let [f, t] = branch_distance(cond, state);
        let b = &mut self.best[id];
        b[0] = b[0].min(f);
        b[1] = b[1].min(t);
    }
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int { value } => Some(value.to_f64().unwrap_or(f64::MAX)),
        Value::Bv { value, .. } => Some(*value as f64),
        _ => None,
    }
}

/// [distance to false, distance to true] of a boolean condition (0 when it already
/// has that value): the classic branch distance, summed over `&&` and minimised over
/// `||`.
pub fn branch_distance(e: &Expr, state: &[Value]) -> [f64; 2] {
    let flat = || match eval_expr(e, state).ok().and_then(|v| v.as_bool()) {
        Some(true) => [1.0, 0.0],
        Some(false) => [0.0, 1.0],
        None => [1.0, 1.0],
    };
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => {
            let [f, t] = branch_distance(a, state);
            [t, f]
        }
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
            let [af, at] = branch_distance(a, state);
            let [bf, bt] = branch_distance(b, state);
            match op {
                BinOp::And => [af.min(bf), at + bt],
                BinOp::Or => [af + bf, at.min(bt)],
                _ => [at + bf, af.min(bt)], // a ==> b is !a || b
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (Ok(x), Ok(y)) = (eval_expr(a, state), eval_expr(b, state)) else {
                return flat();
            };
            let (Some(x), Some(y)) = (num(&x), num(&y)) else { return flat() };
            let d = (x - y).abs();
            match op {
                BinOp::Eq => [if d == 0.0 { 1.0 } else { 0.0 }, d],
                BinOp::Ne => [d, if d == 0.0 { 1.0 } else { 0.0 }],
                BinOp::Lt => {
                    [if x >= y { 0.0 } else { y - x }, if x < y { 0.0 } else { x - y + 1.0 }]
                }
                BinOp::Le => {
                    [if x > y { 0.0 } else { y - x + 1.0 }, if x <= y { 0.0 } else { x - y }]
                }
                BinOp::Gt => {
                    [if x <= y { 0.0 } else { x - y }, if x > y { 0.0 } else { y - x + 1.0 }]
                }
                BinOp::Ge => {
                    [if x < y { 0.0 } else { x - y + 1.0 }, if x >= y { 0.0 } else { y - x }]
                }
                _ => flat(),
            }
        }
        _ => flat(),
    }
}
