//! Merged symbolic execution of one copy up to its n-th observation.
//!
//! Paths are not enumerated: at every program point the copy's symbolic states are kept
//! as at most one merged state per observation count (0..n), its variables as `ite`
//! terms over the path guards. Branches split the guard and merge again afterwards, so
//! the formula grows linearly in the program's unrolled length, not exponentially in the
//! number of branches (hyena0's ∃ path enumeration grows ~3.5× per observation).
//!
//! Nondeterministic choices are fresh constants, one per unrolled statement, shared by
//! every state passing there; each is logged with the guard under which it is taken, so
//! a model's concrete path reads its choices off the log in execution order.

use crate::ir::{Expr, Stmt, Tuple, Type, VarId};
use crate::smt::encode::{encode, encode_bool, fresh};
use z3::ast::{Ast, Bool, Dynamic};

/// The symbolic states of one copy with one observation count, merged.
#[derive(Clone)]
pub struct Part {
    /// The path condition: some run of the copy is in this state.
    pub guard: Bool,
    /// Current values, indexed by tuple `VarId` (only this copy's entries change).
    pub vars: Vec<Dynamic>,
    /// Observed values so far: per observation, the copy's variables in `Copy::vars` order.
    pub obs: Vec<Vec<Dynamic>>,
}

/// One copy encoded up to its n-th observation.
pub struct Encoded {
    /// The runs that reached their n-th observation (merged), if any can.
    pub done: Option<Part>,
    /// Runs still inside a loop after the unrolling bound without their n-th observation:
    /// they might still reach it, so "no ∃ prefix" must exclude them.
    pub residual: Bool,
    /// Every choice constant in creation order, with the guard under which it is taken.
    pub choices: Vec<(Dynamic, Bool)>,
}

/// Encodes copy `copy` of `tuple` from the initial values `init` (indexed by tuple
/// `VarId`) until its `n`-th observation, unrolling loops up to `unroll` iterations past
/// those needed for observations.
pub fn encode_copy(tuple: &Tuple, copy: usize, init: &[Dynamic], n: usize, unroll: u32) -> Encoded {
    let c = &tuple.copies[copy];
    let mut x = Exec {
        tuple,
        copy_vars: &c.vars,
        n,
        unroll,
        done: None,
        residual: Vec::new(),
        choices: Vec::new(),
    };
    let start = Part { guard: Bool::from_bool(true), vars: init.to_vec(), obs: Vec::new() };
    let mut flow = vec![None; n];
    flow[0] = Some(start);
    let flow = x.block(&c.body, flow);
    // A program without `observe;` observes once, when it terminates (LANGUAGE.md).
    if !crate::ir::has_observe(&c.body) {
        x.observe(flow);
    }
    let residual = Bool::or(&x.residual).simplify();
    Encoded { done: x.done, residual, choices: x.choices }
}

/// States by observation count: `flow[i]` holds the runs that observed i times so far.
type Flow = Vec<Option<Part>>;

struct Exec<'t> {
    tuple: &'t Tuple,
    copy_vars: &'t [VarId],
    n: usize,
    unroll: u32,
    done: Option<Part>,
    residual: Vec<Bool>,
    choices: Vec<(Dynamic, Bool)>,
}

fn is_false(b: &Bool) -> bool {
    b.as_bool() == Some(false)
}

fn merge_into(slot: &mut Option<Part>, p: Part) {
    if is_false(&p.guard) {
        return;
    }
    *slot = Some(match slot.take() {
        None => p,
        Some(q) => merge(q, p),
    });
}

/// One state standing for both: values chosen by `a`'s guard.
fn merge(a: Part, b: Part) -> Part {
    let pick = |x: &Dynamic, y: &Dynamic| if x == y { x.clone() } else { a.guard.ite(x, y) };
    let vars = a.vars.iter().zip(&b.vars).map(|(x, y)| pick(x, y)).collect();
    let obs = a
        .obs
        .iter()
        .zip(&b.obs)
        .map(|(xs, ys)| xs.iter().zip(ys).map(|(x, y)| pick(x, y)).collect())
        .collect();
    Part { guard: Bool::or(&[a.guard.clone(), b.guard.clone()]).simplify(), vars, obs }
}

fn merge_flows(mut a: Flow, b: Flow) -> Flow {
    for (slot, p) in a.iter_mut().zip(b) {
        if let Some(p) = p {
            merge_into(slot, p);
        }
    }
    a
}

fn is_empty(flow: &Flow) -> bool {
    flow.iter().all(Option::is_none)
}

impl Exec<'_> {
    fn eval(&self, e: &Expr, p: &Part) -> Dynamic {
        encode(e, &|v: VarId| p.vars[v.index()].clone())
    }

    fn eval_bool(&self, e: &Expr, p: &Part) -> Bool {
        encode_bool(e, &|v: VarId| p.vars[v.index()].clone())
    }

    /// The guard under which some state of `flow` is current.
    fn reach(flow: &Flow) -> Bool {
        let gs: Vec<Bool> = flow.iter().flatten().map(|p| p.guard.clone()).collect();
        Bool::or(&gs)
    }

    /// Splits `flow` on a condition per state: (states where it holds, where it fails).
    fn split(&self, flow: Flow, cond: &dyn Fn(&Part) -> Bool) -> (Flow, Flow) {
        let mut yes = vec![None; self.n];
        let mut no = vec![None; self.n];
        for (i, p) in flow.into_iter().enumerate() {
            let Some(p) = p else { continue };
            let c = cond(&p);
            let g_yes = Bool::and(&[p.guard.clone(), c.clone()]).simplify();
            let g_no = Bool::and(&[p.guard.clone(), c.not()]).simplify();
            merge_into(&mut yes[i], Part { guard: g_yes, ..p.clone() });
            merge_into(&mut no[i], Part { guard: g_no, ..p });
        }
        (yes, no)
    }

    fn block(&mut self, block: &[Stmt], mut flow: Flow) -> Flow {
        for s in block {
            if is_empty(&flow) {
                break;
            }
            flow = self.stmt(s, flow);
        }
        flow
    }

    fn map(&self, flow: Flow, f: impl Fn(&Self, Part) -> Part) -> Flow {
        flow.into_iter().map(|p| p.map(|p| f(self, p)).filter(|p| !is_false(&p.guard))).collect()
    }

    fn choice(&mut self, ty: &Type, flow: &Flow) -> Dynamic {
        let c = fresh("choice", ty);
        self.choices.push((c.clone(), Self::reach(flow)));
        c
    }

    fn stmt(&mut self, s: &Stmt, flow: Flow) -> Flow {
        match s {
            Stmt::Skip => flow,
            Stmt::Assign { var, value, .. } => self.map(flow, |x, mut p| {
                p.vars[var.index()] = x.eval(value, &p);
                p
            }),
            Stmt::Store { array, index, value, .. } => self.map(flow, |x, mut p| {
                let arr = p.vars[array.index()].as_array().expect("checked IR: array");
                let stored = arr.store(&x.eval(index, &p), &x.eval(value, &p));
                p.vars[array.index()] = stored.into();
                p
            }),
            Stmt::Havoc { var, .. } => {
                let ty = self.tuple.var(*var).ty.clone();
                let c = self.choice(&ty, &flow);
                self.map(flow, |_, mut p| {
                    p.vars[var.index()] = c.clone();
                    p
                })
            }
            Stmt::Assume { cond, .. } => self.map(flow, |x, mut p| {
                p.guard = Bool::and(&[p.guard.clone(), x.eval_bool(cond, &p)]).simplify();
                p
            }),
            Stmt::If { cond, then_branch, else_branch, .. } => {
                let (yes, no) = self.split(flow, &|p| self.eval_bool(cond, p));
                let yes = self.block(then_branch, yes);
                let no = self.block(else_branch, no);
                merge_flows(yes, no)
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                let b = self.choice(&Type::Bool, &flow).as_bool().expect("bool choice");
                let (yes, no) = self.split(flow, &|_| b.clone());
                let yes = self.block(then_branch, yes);
                let no = self.block(else_branch, no);
                merge_flows(yes, no)
            }
            Stmt::While { cond, body, .. } => self.while_loop(cond, body, flow),
            Stmt::Observe { .. } => self.observe(flow),
        }
    }

    /// Unrolls a loop. A loop that observes gets `n` extra iterations (each one may be
    /// needed for an observation); iterations beyond the bound are recorded as residue.
    fn while_loop(&mut self, cond: &Expr, body: &[Stmt], flow: Flow) -> Flow {
        let extra = if crate::ir::has_observe(body) { self.n as u32 } else { 0 };
        let cap = self.unroll + extra;
        let mut exits = vec![None; self.n];
        let mut inside = flow;
        for _ in 0..cap {
            let (enter, exit) = self.split(inside, &|p| self.eval_bool(cond, p));
            exits = merge_flows(exits, exit);
            if is_empty(&enter) {
                return exits;
            }
            inside = self.block(body, enter);
        }
        let (enter, exit) = self.split(inside, &|p| self.eval_bool(cond, p));
        if !is_empty(&enter) {
            self.residual.push(Self::reach(&enter));
        }
        merge_flows(exits, exit)
    }

    /// Every state observes: its count goes up by one; the n-th observation ends the run.
    fn observe(&mut self, flow: Flow) -> Flow {
        let mut next = vec![None; self.n];
        for (i, p) in flow.into_iter().enumerate() {
            let Some(mut p) = p else { continue };
            p.obs.push(self.copy_vars.iter().map(|v| p.vars[v.index()].clone()).collect());
            if i + 1 == self.n {
                merge_into(&mut self.done, p);
            } else {
                merge_into(&mut next[i + 1], p);
            }
        }
        next
    }
}
