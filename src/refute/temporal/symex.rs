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
//!
//! An ∃ copy's silent loop (no `observe;` inside) that can run past the unrolling bound
//! continues through a *summary* of its last iteration: the loop's modified variables
//! become fresh values satisfying the guard and the interval facts proved inductive,
//! one more iteration runs from there, and the states where the guard then fails leave
//! the loop. Every terminating run's last iteration starts in such a state, so the
//! summary over-approximates the loop's exits: "no ∃ run matches" stays sound, while a
//! match through a summary proves nothing (its guard is kept in [`Encoded::approx`]).

use crate::cancel::Cancel;
use crate::ir::{Expr, Quantifier, Stmt, Tuple, Type, VarId};
use crate::smt::encode::{encode, encode_bool, fresh};
use std::collections::BTreeSet;
use z3::ast::{Ast, Bool, Dynamic};
use z3::SatResult;

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
    /// Runs that left an ∃ loop through its summary (over-approximated runs): a match
    /// among them is no witness, only a reason why "no ∃ run" cannot be claimed.
    pub approx: Bool,
    /// Every choice constant in creation order, with the guard under which it is taken.
    pub choices: Vec<(Dynamic, Bool)>,
}

/// Encodes copy `copy` of `tuple` from the initial values `init` (indexed by tuple
/// `VarId`) until its `n`-th observation, unrolling loops up to `unroll` iterations past
/// those needed for observations. ∃ copies' silent loops continue past the bound
/// through a summary (module comment); `cancel` bounds the checks that mine its facts.
pub fn encode_copy(
    tuple: &Tuple,
    copy: usize,
    init: &[Dynamic],
    n: usize,
    unroll: u32,
    cancel: &Cancel,
) -> Encoded {
    let past = match tuple.copies[copy].quantifier {
        Quantifier::Exists => PastBound::Summary,
        Quantifier::Forall => PastBound::Residual,
    };
    encode_copy_past(tuple, copy, init, n, unroll, cancel, past)
}

/// How silent loops past the unrolling bound are encoded.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PastBound {
    /// Runs still looping are left in `residual` (exact up to the bound).
    Residual,
    /// A summary with the interval facts proved inductive (∃ copies in the refuter).
    Summary,
    /// A summary without mined facts: the last iteration from any state satisfying the
    /// guard (over-approximate, and resting on nothing forex proved: certificates).
    SummaryWithoutFacts,
}

/// [`encode_copy`] for certificates, with `past` `Residual` or `SummaryWithoutFacts`,
/// so that nothing in the formula rests on facts forex proved.
pub fn encode_copy_certified(
    tuple: &Tuple,
    copy: usize,
    init: &[Dynamic],
    n: usize,
    unroll: u32,
    past: PastBound,
) -> Encoded {
    debug_assert!(past != PastBound::Summary, "a certificate uses no mined facts");
    encode_copy_past(tuple, copy, init, n, unroll, &Cancel::new(), past)
}

fn encode_copy_past(
    tuple: &Tuple,
    copy: usize,
    init: &[Dynamic],
    n: usize,
    unroll: u32,
    cancel: &Cancel,
    past: PastBound,
) -> Encoded {
    let c = &tuple.copies[copy];
    let mut x = Exec {
        tuple,
        copy_vars: &c.vars,
        copy_name: &c.name,
        n,
        unroll,
        summarise: past != PastBound::Residual,
        mine_facts: past == PastBound::Summary,
        cancel,
        done: None,
        residual: Vec::new(),
        approx: Vec::new(),
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
    let approx = Bool::or(&x.approx).simplify();
    Encoded { done: x.done, residual, approx, choices: x.choices }
}

/// A candidate loop fact: `var <= var₀` (`upper`) or `var >= var₀`.
#[derive(Clone, Copy)]
struct Fact {
    var: VarId,
    upper: bool,
}

impl Fact {
    /// The fact over current values `now` and summary-start values `entry`.
    fn holds(&self, now: &[Dynamic], entry: &[Dynamic]) -> Option<Bool> {
        let x = now[self.var.index()].as_int()?;
        let x0 = entry[self.var.index()].as_int()?;
        Some(if self.upper { x.le(&x0) } else { x.ge(&x0) })
    }
}

/// A state with these values, no observations yet and a true guard.
fn part(vars: &[Dynamic]) -> Part {
    Part { guard: Bool::from_bool(true), vars: vars.to_vec(), obs: Vec::new() }
}

/// States by observation count: `flow[i]` holds the runs that observed i times so far.
type Flow = Vec<Option<Part>>;

struct Exec<'t> {
    tuple: &'t Tuple,
    copy_vars: &'t [VarId],
    copy_name: &'t str,
    n: usize,
    unroll: u32,
    /// Silent loops past the bound go through a summary (∃ copies) instead of residue.
    summarise: bool,
    /// Summaries carry the interval facts proved inductive (off for certificates).
    mine_facts: bool,
    cancel: &'t Cancel,
    done: Option<Part>,
    residual: Vec<Bool>,
    approx: Vec<Bool>,
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

    /// A fresh choice constant named after what it chooses (`b.mode!12`: certificates
    /// show ∃ strategies over these names).
    fn choice(&mut self, what: &str, ty: &Type, flow: &Flow) -> Dynamic {
        let c = fresh(what, ty);
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
                let c = self.choice(&self.tuple.var_display(*var), &ty, &flow);
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
            Stmt::IfStar { then_branch, else_branch, loc } => {
                let what = format!("{}.if*@{}", self.copy_name, loc);
                let b = self.choice(&what, &Type::Bool, &flow).as_bool().expect("bool choice");
                let (yes, no) = self.split(flow, &|_| b.clone());
                let yes = self.block(then_branch, yes);
                let no = self.block(else_branch, no);
                merge_flows(yes, no)
            }
            Stmt::While { cond, body, .. } => self.while_loop(cond, body, flow),
            Stmt::Observe { .. } => self.observe(flow),
            // Runs deeper than the unfolded recursion: not explored, like the iterations
            // of a loop past its bound.
            Stmt::Cut { .. } => {
                self.residual.push(Self::reach(&flow));
                vec![None; self.n]
            }
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
        if is_empty(&enter) {
            return exits;
        }
        if self.summarise && extra == 0 {
            let last = self.last_iteration(cond, body, enter);
            return merge_flows(merge_flows(exits, exit), last);
        }
        self.residual.push(Self::reach(&enter));
        merge_flows(exits, exit)
    }

    /// The exits of a silent loop entered by `enter` past the bound, over-approximated
    /// (module comment): modified variables fresh under the guard and the inductive
    /// interval facts relative to their values now, one more iteration, guard false.
    fn last_iteration(&mut self, cond: &Expr, body: &[Stmt], enter: Flow) -> Flow {
        self.approx.push(Self::reach(&enter));
        let mut changed = BTreeSet::new();
        crate::symex::modified_vars(body, &mut changed);
        let facts =
            if self.mine_facts { self.inductive_facts(cond, body, &changed) } else { Vec::new() };
        let head: Vec<(VarId, Dynamic)> = changed
            .iter()
            .map(|&v| {
                let name = format!("{}@head", self.tuple.var_display(v));
                (v, self.choice(&name, &self.tuple.var(v).ty.clone(), &enter))
            })
            .collect();
        let start = self.map(enter, |x, mut p| {
            let entry = p.vars.clone();
            for (v, h) in &head {
                p.vars[v.index()] = h.clone();
            }
            let mut g = vec![p.guard.clone(), x.eval_bool(cond, &p)];
            g.extend(facts.iter().filter_map(|f| f.holds(&p.vars, &entry)));
            p.guard = Bool::and(&g).simplify();
            p
        });
        let after = self.block(body, start);
        self.split(after, &|p| self.eval_bool(cond, p)).1
    }

    /// Interval facts `x <= x₀`, `x >= x₀` (x₀: the value where the summary starts) for
    /// the loop's integer variables, kept when inductive for every head state and every
    /// x₀ (Houdini over one symbolic iteration). Any undecided check drops a fact; a
    /// body with inner loops gets none.
    fn inductive_facts(&self, cond: &Expr, body: &[Stmt], changed: &BTreeSet<VarId>) -> Vec<Fact> {
        if crate::ir::has_loop(body) {
            return Vec::new();
        }
        let mut facts: Vec<Fact> = changed
            .iter()
            .filter(|v| self.tuple.var(**v).ty == Type::Int)
            .flat_map(|&var| [Fact { var, upper: false }, Fact { var, upper: true }])
            .collect();
        let head: Vec<Dynamic> = self.tuple.vars.iter().map(|v| fresh("head", &v.ty)).collect();
        let entry: Vec<Dynamic> = self.tuple.vars.iter().map(|v| fresh("entry", &v.ty)).collect();
        while !facts.is_empty() {
            let mut g = vec![self.eval_bool(cond, &part(&head))];
            g.extend(facts.iter().filter_map(|f| f.holds(&head, &entry)));
            let start = Part { guard: Bool::and(&g), ..part(&head) };
            let mut one = Exec {
                n: 1,
                summarise: false,
                done: None,
                residual: Vec::new(),
                approx: Vec::new(),
                choices: Vec::new(),
                ..*self
            };
            let Some(out) = one.block(body, vec![Some(start)]).pop().flatten() else {
                return facts; // the iteration always blocks: nothing leaves it
            };
            let solver = crate::smt::session::solver();
            solver.assert(&out.guard);
            let before = facts.len();
            facts.retain(|f| {
                let Some(holds) = f.holds(&out.vars, &entry) else { return false };
                solver.push();
                solver.assert(holds.not());
                let kept = super::prefix::check(&solver, self.cancel) == SatResult::Unsat;
                solver.pop(1);
                kept
            });
            if facts.len() == before || self.cancel.is_cancelled() {
                break;
            }
        }
        if self.cancel.is_cancelled() {
            return Vec::new();
        }
        facts
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
