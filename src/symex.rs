//! Bounded symbolic execution of tuple copies: engine-neutral machinery shared by the
//! refuter (∀ and ∃ sides), the ∃-run check and hypertesting (through it). Its checks go
//! through [`crate::smt::session::check`], so they honour the caller's token and limits.
//!
//! The copies given to [`explore`] run one after the other over a single symbolic state
//! (their variables are distinct), so the paths of the sequence are exactly the product
//! of the copies' paths. Every loop visit is unrolled at most `bound` times; a path on
//! which a loop could run once more ends as [`End::Exceeded`] with the condition for
//! that. Infeasible branches are pruned with the caller's solver, which holds whatever
//! the caller assumes (e.g. `pre` and the ∀ path condition) in its assertion stack;
//! only an `unsat` answer prunes, so pruning never drops a real path.
//!
//! Two refinements keep deep loops cheap and ∃ loops useful:
//! - an iteration whose exit is impossible (guard simplifies to true, or its negation is
//!   unsat on the path) is *forced*: it is stepped in place without branching and counts
//!   against a budget of [`FORCED_PER_BOUND`] × `bound` instead of `bound`, so loops whose
//!   count is fixed by concrete values run to the end at small bounds;
//! - with [`Ctx::summarise_exists`], an ∃ loop that could run past the bound continues
//!   through a *summary* (the loop's modified variables havocked, interval facts proved
//!   inductive by SMT, the guard false) instead of ending as [`End::Exceeded`]; such
//!   paths are marked [`Path::approximate`]: they over-approximate the real runs, so they
//!   may show that no ∃ run matches, never that one does (`summary`).
//!
//! Loop-free branches run merged (`merged`) when the static path estimate is large, or
//! when an unmerged round ran out of paths.

use crate::cancel::Cancel;
use crate::ir::{Loc, Quantifier, Stmt, Tuple, Type, VarId};
use crate::smt::encode::{encode, encode_bool, fresh};
use crate::smt::incremental::IncrementalSolver;
use crate::smt::session::{self, Sat};
use std::collections::BTreeSet;
use std::time::Duration;
use z3::ast::{Array, Ast, Bool, Dynamic};
use z3::SatResult;

mod merged;
mod summary;

use merged::merged_block;
pub use merged::{path_estimate, should_merge, MERGE_ABOVE_PATHS};
use summary::through_summary;

/// A symbolic state: the current term of every tuple variable.
pub type Env = im::HashMap<VarId, Dynamic>;

/// A nondeterministic choice of a ∀ copy along a path.
#[derive(Clone, Debug)]
pub enum SymChoice {
    /// `x = *`: the fresh constant standing for the chosen value.
    Value(Dynamic, Type),
    /// `if (*)`: the branch taken.
    Branch(bool),
    /// A choice inside a merged branch region ([`Ctx::merge`]): the fresh constant (for
    /// `if (*)`, a Boolean: the branch taken), made only by the runs where `taken` holds.
    /// A model's concrete run keeps the choices whose `taken` is true, in log order.
    Merged { value: Dynamic, ty: Type, taken: Bool },
}

/// One symbolic path (so far).
#[derive(Clone, Debug, Default)]
pub struct Path {
    pub env: Env,
    /// Path condition, as conjuncts (also asserted on the solver while exploring).
    pub pc: Vec<Bool>,
    /// ∀ copies' choices in execution order, tagged with the copy index.
    pub choices: Vec<(usize, SymChoice)>,
    /// Fresh constants of ∃-copy choices on this path (existentially quantified by users).
    pub exists_fresh: Vec<Dynamic>,
    /// Some ∃ loop on this path went through a summary: the path stands for a superset
    /// of real runs (sound for "no run matches", never evidence that one does).
    pub approximate: bool,
}

/// Forced iterations (no exit possible) allowed per loop visit, per unit of bound.
pub const FORCED_PER_BOUND: u32 = 1024;

/// How a path ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every copy ran to its end.
    Finished,
    /// The loop at `loc` of copy `copy` could run a `bound + 1`-th iteration.
    Exceeded { copy: usize, loc: Loc },
}

/// A model from either kernel [`Ctx::check_merged`] uses.
pub enum AnyModel {
    Kept(crate::smt::incremental::IncrementalModel),
    Z3(z3::Model),
}

impl crate::smt::incremental::Eval for AnyModel {
    fn value_of<T: Ast>(&self, t: &T) -> Option<T> {
        match self {
            AnyModel::Kept(m) => m.value_of(t),
            AnyModel::Z3(m) => m.value_of(t),
        }
    }
}

/// Whether a block holds an `if` inside an `if` (a chain or tree of branches, rather
/// than flat sequential ones).
pub fn has_nested_branch(block: &[Stmt]) -> bool {
    fn has_branch(block: &[Stmt]) -> bool {
        block.iter().any(|s| match s {
            Stmt::If { .. } | Stmt::IfStar { .. } => true,
            Stmt::While { body, .. } => has_branch(body),
            _ => false,
        })
    }
    block.iter().any(|s| match s {
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            has_branch(then_branch) || has_branch(else_branch)
        }
        Stmt::While { body, .. } => has_nested_branch(body),
        _ => false,
    })
}

/// Whether to keep exploring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Exploration context: the solver used for pruning, limits and counters.
pub struct Ctx<'s> {
    pub solver: &'s IncrementalSolver,
    pub cancel: &'s Cancel,
    /// Largest number of iterations per loop visit.
    pub bound: u32,
    /// Time limit of one SMT check (also bounded by the cancel token's deadline).
    pub query_limit: Duration,
    /// Largest number of path ends (∀ and ∃) one exploration may reach.
    pub max_paths: u64,
    /// SMT checks issued.
    pub queries: u64,
    /// Path ends reached.
    pub paths: u64,
    /// Set when exploration stopped because `cancel` fired.
    pub cancelled: bool,
    /// Set when exploration stopped because `max_paths` was reached.
    pub too_many_paths: bool,
    /// ∃ loops past the bound continue through a summary instead of ending the path.
    pub summarise_exists: bool,
    /// Loop-free `if`s are executed merged ([`should_merge`]): both branches on one
    /// state, joined into `ite` terms, instead of one path per branch.
    pub merge: bool,
    /// The model of the last `Sat` when a fresh solver answered ([`Ctx::check_fresh`]).
    fresh_model: Option<z3::Model>,
}

/// The limits of one exploration, given by the engine's options (no defaults here, so
/// the engines' options are the one place they are set).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Time limit of one SMT check.
    pub query_limit: Duration,
    /// Largest number of path ends one exploration may reach.
    pub max_paths: u64,
}

impl<'s> Ctx<'s> {
    pub fn new(
        solver: &'s IncrementalSolver,
        cancel: &'s Cancel,
        bound: u32,
        limits: Limits,
    ) -> Self {
        Ctx {
            solver,
            cancel,
            bound,
            query_limit: limits.query_limit,
            max_paths: limits.max_paths,
            queries: 0,
            paths: 0,
            cancelled: false,
            too_many_paths: false,
            summarise_exists: false,
            merge: false,
            fresh_model: None,
        }
    }

    /// Whether exploration must stop now (cancelled or out of path budget).
    pub fn stopped(&mut self) -> bool {
        if self.cancel.is_cancelled() {
            self.cancelled = true;
        }
        self.cancelled || self.too_many_paths
    }

    /// Checks the solver's assertions plus `extra`, within `query_limit` and the cancel
    /// token's deadline. A timeout is `Unknown`, never an answer.
    pub fn check(&mut self, extra: &[Bool]) -> SatResult {
        if self.stopped() {
            return SatResult::Unknown;
        }
        self.queries += 1;
        self.fresh_model = None;
        let mut r = session::check(self.solver, extra, self.cancel, Some(self.query_limit));
        if matches!(r, Sat::Unknown(session::Why::Timeout)) && !self.cancel.is_cancelled() {
            r = self.check_fresh(extra);
        }
        if let Sat::Unknown(session::Why::MemoryOut) = r {
            // Out of memory: stop exploring, as for a cancel (the round reports unknown).
            self.cancelled = true;
        }
        if matches!(r, Sat::Unknown(_)) && self.cancel.is_cancelled() {
            self.cancelled = true;
        }
        r.to_z3()
    }

    /// A query the incremental kernel did not decide within its limit, asked again of a
    /// fresh solver with Z3's nonlinear tactic (`qfnia`: nlsat after preprocessing) for
    /// half that limit; its model, on `Sat`, is kept in `fresh_model`. Products of
    /// variables, which lowered 2-D arrays and strength-reduced loops make, are where the
    /// incremental kernel is slow: Elaenia's `static-caching` counterexample query took
    /// it over 2 s (the refuter timed out at loop bound 1 in 12 of 12 runs), `qfnia` 0.17 s.
    fn check_fresh(&mut self, extra: &[Bool]) -> Sat {
        let other = z3::Tactic::new("qfnia").solver();
        for a in self.solver.assertions().iter().chain(extra) {
            other.assert(a);
        }
        self.queries += 1;
        let r = session::check(&other, &[], self.cancel, Some(self.query_limit / 2));
        if r == Sat::Sat {
            self.fresh_model = other.get_model();
        }
        r
    }

    /// The model of the last check's `Sat` when a fresh solver gave it
    /// ([`Ctx::check_fresh`]); otherwise the incremental solver's.
    pub fn model(&mut self) -> Option<AnyModel> {
        match self.fresh_model.take() {
            Some(m) => Some(AnyModel::Z3(m)),
            None => self.solver.model().map(AnyModel::Kept),
        }
    }

    /// Checks the solver's assertions for a merged query (large `ite` DAGs) with two
    /// kernels in turn, each within `query_limit`: Z3's incremental kernel (the
    /// solver's own) and a fresh solver with Z3's `smt` tactic on the same assertions.
    /// Each is fast where the other is slow (measured on the query of NI: an `else if`
    /// chain of 1000 arms, 0.1 s against 3 s; 1000 sequential `if`s, 10 s against 0.06
    /// s). `tactic_first` (flat sequential `if`s) asks the tactic first; otherwise the
    /// tactic is not asked at all, since its preprocessing on a deep chain of 3000 arms
    /// did not return, nor answer the interrupt. A model comes with `Sat`.
    pub fn check_merged(&mut self, tactic_first: bool) -> (SatResult, Option<AnyModel>) {
        if self.stopped() {
            return (SatResult::Unknown, None);
        }
        if tactic_first {
            let other = session::solver();
            for a in self.solver.assertions() {
                other.assert(&a);
            }
            self.queries += 1;
            let r = session::check(&other, &[], self.cancel, Some(self.query_limit));
            match r {
                Sat::Sat => return (SatResult::Sat, other.get_model().map(AnyModel::Z3)),
                Sat::Unsat => return (SatResult::Unsat, None),
                Sat::Unknown(session::Why::Timeout | session::Why::Solver(_)) => {}
                Sat::Unknown(_) => {
                    self.cancelled = true;
                    return (SatResult::Unknown, None);
                }
            }
        }
        match self.check(&[]) {
            SatResult::Sat => (SatResult::Sat, self.model()),
            r => (r, None),
        }
    }

    /// Counts a path end; `false` when the path budget is used up.
    fn count_path(&mut self) -> bool {
        self.paths += 1;
        if self.paths > self.max_paths {
            self.too_many_paths = true;
        }
        !self.too_many_paths
    }
}

/// Conjunction of `parts`.
pub fn and_all(parts: &[Bool]) -> Bool {
    match parts.len() {
        0 => Bool::from_bool(true),
        1 => parts[0].clone(),
        _ => Bool::and(parts),
    }
}

/// `∃ vars. body` (no quantifier when `vars` is empty).
pub fn exists_over(vars: &[Dynamic], body: &Bool) -> Bool {
    let bounds: Vec<&dyn Ast> = vars.iter().map(|v| v as &dyn Ast).collect();
    z3::ast::exists_const(&bounds, &[], body)
}

#[derive(Clone, Copy)]
enum Work<'a> {
    Stmt(&'a Stmt, usize),
    /// A `while` about to test its guard again in this visit, after `iter` branching and
    /// `forced` forced iterations.
    Loop {
        stmt: &'a Stmt,
        iter: u32,
        forced: u32,
        copy: usize,
    },
}

/// Explores all paths of `copies` (run in this order) from `start`, calling `on_end` at
/// each path end with the path and how it ended. Returns `Flow::Stop` when `on_end`
/// asked to stop or the context was cancelled.
pub fn explore<'a>(
    ctx: &mut Ctx,
    tuple: &'a Tuple,
    copies: &[usize],
    start: Path,
    on_end: &mut dyn FnMut(&mut Ctx, &Path, End) -> Flow,
) -> Flow {
    let mut work = Vec::new();
    for &c in copies.iter().rev() {
        push_block(&mut work, &tuple.copies[c].body, c);
    }
    run(ctx, tuple, work, start, on_end)
}

fn push_block<'a>(work: &mut Vec<Work<'a>>, block: &'a [Stmt], copy: usize) {
    for s in block.iter().rev() {
        work.push(Work::Stmt(s, copy));
    }
}

fn lookup(env: &Env) -> impl Fn(VarId) -> Dynamic + '_ {
    move |v| env.get(&v).cloned().expect("symbolic state holds every tuple variable")
}

/// Runs `work` from `path` until the path ends or splits; splits recurse. Conditions
/// this path assumes are pushed on the solver and popped again before returning.
fn run<'a>(
    ctx: &mut Ctx,
    tuple: &'a Tuple,
    work: Vec<Work<'a>>,
    path: Path,
    on_end: &mut dyn FnMut(&mut Ctx, &Path, End) -> Flow,
) -> Flow {
    let mut pushes = 0;
    let flow = run_scoped(ctx, tuple, work, path, on_end, &mut pushes);
    if pushes > 0 {
        ctx.solver.pop(pushes);
    }
    flow
}

fn run_scoped<'a>(
    ctx: &mut Ctx,
    tuple: &'a Tuple,
    mut work: Vec<Work<'a>>,
    mut path: Path,
    on_end: &mut dyn FnMut(&mut Ctx, &Path, End) -> Flow,
    pushes: &mut u32,
) -> Flow {
    loop {
        if ctx.stopped() {
            return Flow::Stop;
        }
        let Some(item) = work.pop() else {
            if !ctx.count_path() {
                return Flow::Stop;
            }
            return on_end(ctx, &path, End::Finished);
        };
        let (stmt, copy) = match item {
            Work::Stmt(s, c) => (s, c),
            Work::Loop { stmt: s, iter, forced, copy: c } => {
                let Stmt::While { cond, body, loc, .. } = s else { unreachable!() };
                let c_term = encode_bool(cond, &lookup(&path.env)).simplify();
                if c_term.as_bool() == Some(false) {
                    continue;
                }
                // Can the loop exit here? If not, the iteration is forced: no branching.
                let may_exit = match c_term.as_bool() {
                    Some(true) => false,
                    _ => ctx.check(&[c_term.not()]) != SatResult::Unsat,
                };
                if ctx.stopped() {
                    return Flow::Stop;
                }
                let summarise =
                    ctx.summarise_exists && tuple.copies[c].quantifier == Quantifier::Exists;
                // The solver refuted the exit: unless the path itself is infeasible (an
                // unsatisfiable `pre`: then it refutes everything), the body must run.
                if !may_exit
                    && c_term.as_bool().is_none()
                    && ctx.check(std::slice::from_ref(&c_term)) == SatResult::Unsat
                {
                    return Flow::Continue;
                }
                if ctx.stopped() {
                    return Flow::Stop;
                }
                if !may_exit {
                    if forced < ctx.bound.saturating_mul(FORCED_PER_BOUND) {
                        work.push(Work::Loop { stmt: s, iter, forced: forced + 1, copy: c });
                        push_block(&mut work, body, c);
                        continue;
                    }
                    if summarise {
                        return through_summary(ctx, tuple, s, c, work, &path, on_end);
                    }
                    if !ctx.count_path() {
                        return Flow::Stop;
                    }
                    return on_end(ctx, &path, End::Exceeded { copy: c, loc: *loc });
                }
                if iter >= ctx.bound {
                    // One more iteration is possible here: summarise or report it, then
                    // continue with the exit branch.
                    let flow = if summarise {
                        let rest = work.clone();
                        branch(ctx, &path, &c_term, |ctx, p| {
                            through_summary(ctx, tuple, s, c, rest, p, on_end)
                        })
                    } else {
                        branch(ctx, &path, &c_term, |ctx, p| {
                            if !ctx.count_path() {
                                return Flow::Stop;
                            }
                            on_end(ctx, p, End::Exceeded { copy: c, loc: *loc })
                        })
                    };
                    if flow == Flow::Stop {
                        return Flow::Stop;
                    }
                    assume_feasible(ctx, &mut path, pushes, c_term.not());
                    continue;
                }
                let mut body_work = work.clone();
                body_work.push(Work::Loop { stmt: s, iter: iter + 1, forced, copy: c });
                push_block(&mut body_work, body, c);
                if split(ctx, tuple, &path, &c_term, body_work, on_end) == Flow::Stop {
                    return Flow::Stop;
                }
                assume_feasible(ctx, &mut path, pushes, c_term.not());
                continue;
            }
        };
        let exists_side = tuple.copies[copy].quantifier == Quantifier::Exists;
        match stmt {
            Stmt::Skip | Stmt::Observe { .. } => {}
            // A recursive call deeper than unfolded: like a loop past its bound, the
            // path is not finished (a ∀ run not covered, an ∃ run no witness).
            Stmt::Cut { loc } => {
                if !ctx.count_path() {
                    return Flow::Stop;
                }
                return on_end(ctx, &path, End::Exceeded { copy, loc: *loc });
            }
            Stmt::Assign { var, value, .. } => {
                let t = encode(value, &lookup(&path.env)).simplify();
                path.env.insert(*var, t);
            }
            Stmt::Store { array, index, value, .. } => {
                let stored: Dynamic = {
                    let l = lookup(&path.env);
                    let i = encode(index, &l);
                    let v = encode(value, &l);
                    let a: Array = l(*array).as_array().expect("checked IR: array store");
                    a.store(&i, &v).into()
                };
                path.env.insert(*array, stored);
            }
            Stmt::Havoc { var, .. } => {
                let ty = tuple.var(*var).ty.clone();
                let name = format!("{}!", tuple.var_display(*var));
                let c = fresh(&name, &ty);
                if exists_side {
                    path.exists_fresh.push(c.clone());
                } else {
                    path.choices.push((copy, SymChoice::Value(c.clone(), ty)));
                }
                path.env.insert(*var, c);
            }
            Stmt::Assume { cond, .. } => {
                let c = encode_bool(cond, &lookup(&path.env)).simplify();
                match assume(ctx, &mut path, pushes, c) {
                    Some(true) => {}
                    _ => return Flow::Continue,
                }
            }
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. }
                if ctx.merge
                    && !crate::ir::has_loop(then_branch)
                    && !crate::ir::has_loop(else_branch)
                    && !crate::ir::has_cut(then_branch)
                    && !crate::ir::has_cut(else_branch) =>
            {
                let m = merged_block(tuple, std::slice::from_ref(stmt), copy, &mut path);
                if !m.assumed.is_empty() {
                    match assume(ctx, &mut path, pushes, and_all(&m.assumed)) {
                        Some(true) => {}
                        _ => return Flow::Continue,
                    }
                }
            }
            Stmt::If { cond, then_branch, else_branch, .. } => {
                let c = encode_bool(cond, &lookup(&path.env)).simplify();
                if let Some(b) = c.as_bool() {
                    push_block(&mut work, if b { then_branch } else { else_branch }, copy);
                    continue;
                }
                let mut then_work = work.clone();
                push_block(&mut then_work, then_branch, copy);
                if split(ctx, tuple, &path, &c, then_work, on_end) == Flow::Stop {
                    return Flow::Stop;
                }
                match assume(ctx, &mut path, pushes, c.not()) {
                    Some(true) => push_block(&mut work, else_branch, copy),
                    _ => return Flow::Continue,
                }
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                let mut then_work = work.clone();
                push_block(&mut then_work, then_branch, copy);
                let mut then_path = path.clone();
                if !exists_side {
                    then_path.choices.push((copy, SymChoice::Branch(true)));
                    path.choices.push((copy, SymChoice::Branch(false)));
                }
                let flow = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                    run(ctx, tuple, then_work, then_path, on_end)
                });
                if flow == Flow::Stop {
                    return Flow::Stop;
                }
                push_block(&mut work, else_branch, copy);
            }
            Stmt::While { .. } => work.push(Work::Loop { stmt, iter: 0, forced: 0, copy }),
        }
    }
}

/// Explores `work` under the extra condition `c` (when feasible), on a copy of `path`.
fn split<'a>(
    ctx: &mut Ctx,
    tuple: &'a Tuple,
    path: &Path,
    c: &Bool,
    work: Vec<Work<'a>>,
    on_end: &mut dyn FnMut(&mut Ctx, &Path, End) -> Flow,
) -> Flow {
    branch(ctx, path, c, |ctx, p| {
        let p = p.clone();
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || run(ctx, tuple, work, p, on_end))
    })
}

/// Calls `k` with `path ∧ c` asserted, unless that is infeasible.
fn branch(ctx: &mut Ctx, path: &Path, c: &Bool, k: impl FnOnce(&mut Ctx, &Path) -> Flow) -> Flow {
    match c.as_bool() {
        Some(false) => Flow::Continue,
        Some(true) => k(ctx, path),
        None => {
            ctx.solver.push();
            ctx.solver.assert(c);
            let flow = if ctx.check(&[]) == SatResult::Unsat {
                Flow::Continue
            } else if ctx.stopped() {
                Flow::Stop
            } else {
                let mut p = path.clone();
                p.pc.push(c.clone());
                k(ctx, &p)
            };
            ctx.solver.pop(1);
            flow
        }
    }
}

/// Adds `c` to the path, asserting it on the solver until `run` returns (counted in
/// `pushes`). `Some(true)`: the path continues; otherwise it is infeasible or cancelled.
fn assume(ctx: &mut Ctx, path: &mut Path, pushes: &mut u32, c: Bool) -> Option<bool> {
    match c.as_bool() {
        Some(b) => Some(b),
        None => {
            ctx.solver.push();
            ctx.solver.assert(&c);
            path.pc.push(c);
            *pushes += 1;
            let r = ctx.check(&[]);
            if ctx.stopped() {
                return None;
            }
            Some(r != SatResult::Unsat)
        }
    }
}

/// Adds `c`, already known not to be unsat on the path, without asking the solver again.
fn assume_feasible(ctx: &mut Ctx, path: &mut Path, pushes: &mut u32, c: Bool) {
    if c.as_bool().is_none() {
        ctx.solver.push();
        ctx.solver.assert(&c);
        path.pc.push(c);
        *pushes += 1;
    }
}

/// Variables a block may change (assigned, stored into or chosen), nested blocks included,
/// added to `out` ([`crate::ir::modified_vars`] as a sorted set).
pub fn modified_vars(block: &[Stmt], out: &mut BTreeSet<VarId>) {
    out.extend(crate::ir::modified_vars(block));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::incremental::Eval;
    use z3::ast::Int;

    /// A query handed to the fresh nonlinear solver answers with that solver's model,
    /// which `Ctx::model` then gives (the incremental solver has none for it).
    #[test]
    fn a_fresh_solver_answer_comes_with_its_model() {
        let solver = IncrementalSolver::new().expect("a solver");
        let cancel = Cancel::new();
        let limits = Limits { query_limit: Duration::from_secs(5), max_paths: 10 };
        let mut ctx = Ctx::new(&solver, &cancel, 1, limits);
        let (x, y) = (Int::new_const("x"), Int::new_const("y"));
        solver.assert((&x * &y).eq(Int::from_i64(221)));
        solver.assert(x.gt(Int::from_i64(1)));
        solver.assert(y.gt(Int::from_i64(1)));
        assert_eq!(ctx.check_fresh(&[x.lt(&y)]), Sat::Sat);
        assert_eq!(ctx.queries, 1);
        let model = ctx.model().expect("the fresh solver's model");
        assert!(matches!(model, AnyModel::Z3(_)));
        let value = |t: &Int| model.value_of(t).and_then(|v| v.as_i64()).expect("a value");
        assert_eq!((value(&x), value(&y)), (13, 17));
        // Taken once: the next `Sat` of the incremental solver is read from it again.
        assert!(ctx.fresh_model.is_none());
    }
}
