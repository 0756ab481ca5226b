//! genpp: parametric strongest postconditions over all copies at once (../shared/DESIGN.md §2).
//!
//! A configuration holds, per copy, the statements still to run, and one symbolic state
//! for the whole tuple. Loop-free `if`s are joined on the spot (ite terms); `if`s whose
//! branches contain loops split the configuration (∀ copies) or commit to one branch
//! under a restriction (∃ copies), so that loops inside branches can still be aligned
//! with the other copies' loops.

use super::state::{Acc, Kind, Scope, SymState, Syms};
use crate::cancel::Cancel;
use crate::ir::{Expr, Quantifier, Stmt, Tuple, Type};
use crate::smt::query::{Answer, QueryEngine};
use crate::verdict::LoopPointProof;
use z3::ast::{Array, Bool};

/// One step still to take in a copy.
#[derive(Clone, Copy)]
pub enum Item<'t> {
    S(&'t Stmt),
    /// Between repetitions of an aligned body: the guard must hold again.
    Guard(&'t Expr),
    /// A loop peeled (`while (g) B` is `if (g) { B; while (g) B }`, a program identity):
    /// where its guard holds, its body and then the loop again (peeled `k - 1` more
    /// times); elsewhere past the loop.
    Peel(&'t Stmt, u8),
    /// One more repetition of an aligned body where the loop's guard still holds
    /// (`if (g) B`): an alignment that runs a loop "up to k" iterations per joint step.
    Maybe(&'t Stmt),
    /// A loop already run (and summarised) that waits to be run again from its entry
    /// state against another copy's later loop (`Cfg::replay`, see `replay`): the copy
    /// is held here like a copy at a loop head.
    Replay(&'t Stmt),
}

#[derive(Clone)]
pub struct Cfg<'t> {
    pub conts: Vec<im::Vector<Item<'t>>>,
    pub st: SymState,
    /// Iterations of ∃-only loops unrolled on this path so far.
    pub unrolled: u32,
    /// The ∃-only loop whose iterations are being unrolled, until it is left.
    pub unrolling: Option<&'t Stmt>,
    /// The loops that last ran in lockstep and may still have iterations left (see
    /// `loops::Lockstep`).
    pub lockstep: Option<super::loops::Lockstep<'t>>,
    /// Loops peeled on this path to align offset loops (`offset`), which bounds it.
    pub peeled: u8,
    /// A lockstep's loop whose remaining iterations are being peeled (`offset`): it must
    /// be seen to end within this many more.
    pub must_end: Option<(usize, &'t Stmt, u8)>,
    /// The loop point ahead follows an offset's peeled iterations: only 1:1 alignments
    /// are tried there (the offset was what made the counts differ).
    pub caught_up: bool,
    /// Some copy branched with loops on this path (an `if` around loops, a peeled loop):
    /// loop points check first for loops whose guard the branch made false.
    pub split: bool,
    /// The held loop of an `Item::Replay`: its entry and exit values (see `replay`).
    pub replay: Option<super::replay::Replay>,
}

impl<'t> Cfg<'t> {
    pub fn new(conts: Vec<im::Vector<Item<'t>>>, st: SymState) -> Self {
        Cfg {
            conts,
            st,
            unrolled: 0,
            unrolling: None,
            lockstep: None,
            peeled: 0,
            must_end: None,
            caught_up: false,
            split: false,
            replay: None,
        }
    }
}

/// What must hold when every copy has finished.
pub enum End {
    Post,
    /// Consecution: the candidate's conjuncts, evaluated in the final state.
    Inv(Vec<Expr>),
    /// Which of these conjuncts are preserved, each on its own: failures are recorded in
    /// `Prover::probe_failed` and the run itself succeeds.
    Probe(Vec<Expr>),
}

/// What kind of failure ended an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailKind {
    /// An obligation does not hold.
    Invalid,
    /// No invariant candidate worked at a loop point (the message names the closest).
    NoInvariant,
    /// The solver answered unknown on an obligation (or on one the search relied on).
    Undecided,
    /// The token was cancelled (time limit or cancellation): the whole proof stops.
    Stopped,
}

/// Why an attempt failed.
#[derive(Clone, Debug)]
pub struct Fail {
    pub kind: FailKind,
    pub msg: String,
}

impl Fail {
    pub fn invalid(msg: impl Into<String>) -> Fail {
        Fail { kind: FailKind::Invalid, msg: msg.into() }
    }
    pub fn stopped() -> Fail {
        Fail { kind: FailKind::Stopped, msg: "the time limit was reached".into() }
    }
    /// The solver did not answer (`Invalid` is the only definite failure).
    pub fn is_unknown(&self) -> bool {
        matches!(self.kind, FailKind::Undecided | FailKind::Stopped)
    }
}

pub type Res<T> = Result<T, Fail>;

pub struct Prover<'t> {
    pub tuple: &'t Tuple,
    pub syms: Syms,
    pub smt: QueryEngine,
    pub cancel: Cancel,
    pub candidates: u64,
    pub obligations: u64,
    pub proof: Vec<LoopPointProof>,
    /// The most informative failure seen so far (for the `unknown` reason).
    /// With its rank (`loops::CLOSEST_*`): only a more informative failure replaces it.
    pub closest: Option<(u8, String)>,
    pub saw_unknown: Option<String>,
    /// Loop points reached so far (numbers their ghost variables).
    pub loop_instances: u32,
    /// Per conjunct of the innermost running `End::Probe`: not preserved on some path.
    pub probe_failed: Vec<bool>,
    /// The ∃-only loop (copy, loop) being proved to terminate, with its ranking function.
    pub ranking: Option<(usize, &'t Stmt, Expr)>,
    /// Path conditions at the tuple's ends, for the vacuity warnings.
    pub ends: crate::vacuity::Ends,
    /// Also record the ends of `End::Inv` runs in `ends` (the temporal prover's final
    /// initiation, whose ends are the first observations).
    pub record_inv_ends: bool,
    /// Schedule ∃ copies after every waiting ∀ loop, so that their choices can depend on
    /// what the ∀ loops computed (the second schedule tried, see `prove`).
    pub defer_exists: bool,
    /// Push ∃-side `assume` obligations without checking each at once: set for loop-free
    /// tuples proved against `End::Post`, whose one run ends in the postcondition's
    /// check of the whole accumulated conjunction, which includes them (and nothing is
    /// chosen by an earlier check's failure there). One query instead of one per
    /// ∃ `assume` (each ~1 ms: they have parameters), for the same verdict.
    pub assumes_at_end: bool,
    /// Some ∃-side `assume` was left to the final check (which then names it too).
    assumes_deferred: bool,
    /// Every candidate attempt in order, one line each (for `--explain` on `unknown`).
    pub tried: Vec<String>,
    /// Consecution checks read parameters chosen before the loop as universal (a probe for
    /// invariants that hold whatever the ∃ copies chose, see `houdini`).
    pub robust: bool,
    /// The atoms the running Houdini search dropped as not preserved, for the reason
    /// (set before each attempt, taken by it).
    pub dropped: Vec<Expr>,
    /// The search spent [`QUERY_BUDGET`]: it ended like a cancelled one (`Stopped`), and
    /// the reason says it gave up rather than ran out of time.
    pub exhausted: bool,
    /// Queries asked before the running search began (a second schedule gets its own
    /// budget).
    pub budget_from: u64,
}

/// Queries one prover may ask before it gives up. Nested searches (a loop point whose
/// candidates each run an inner loop's Houdini, each running an ∃ loop's ranked one)
/// multiply; the largest proof among our suites and the published benchmarks asks 770,
/// while an invalid nested temporal tuple asked 20,000 in 30 s, keeping a core from the
/// refuter and the tester until the deadline.
pub const QUERY_BUDGET: u64 = 4000;

impl<'t> Prover<'t> {
    /// A prover for `tuple` that has done nothing yet, asking Z3 through its own
    /// `QueryEngine` under `cancel` (dumps: the thread's `smt::session::DumpScope`).
    pub fn new(tuple: &'t Tuple, cancel: &Cancel) -> Self {
        Prover {
            tuple,
            syms: Syms::default(),
            smt: QueryEngine::new(cancel),
            cancel: cancel.clone(),
            candidates: 0,
            obligations: 0,
            proof: Vec::new(),
            closest: None,
            saw_unknown: None,
            loop_instances: 0,
            probe_failed: Vec::new(),
            ranking: None,
            ends: crate::vacuity::Ends::default(),
            record_inv_ends: false,
            defer_exists: false,
            assumes_at_end: false,
            assumes_deferred: false,
            tried: Vec::new(),
            robust: false,
            dropped: Vec::new(),
            exhausted: false,
            budget_from: 0,
        }
    }

    pub fn quantifier(&self, copy: usize) -> Quantifier {
        self.tuple.copies[copy].quantifier
    }

    /// Checks the conjunction `acc` as a query of `scope`.
    pub fn check(&mut self, acc: &Acc, scope: Scope, what: &str) -> Res<()> {
        if self.cancel.is_cancelled() {
            return Err(Fail::stopped());
        }
        if self.smt.queries() - self.budget_from >= QUERY_BUDGET {
            self.exhausted = true;
            return Err(Fail {
                kind: FailKind::Stopped,
                msg: format!("the search gave up after {QUERY_BUDGET} queries"),
            });
        }
        let parts: Vec<Bool> = acc.iter().cloned().collect();
        let phi = Bool::and(&parts);
        let known = self.syms.inner_since(scope.floor);
        let syms = &self.syms;
        crate::smt::record::note_step(what);
        let answer = self.smt.valid(&phi, &|c| syms.class(scope.floor, c), &known);
        match answer {
            Answer::Valid => {
                self.obligations += 1;
                Ok(())
            }
            Answer::Invalid => Err(Fail::invalid(what.to_string())),
            Answer::Unknown(why) => {
                let why = why.to_string();
                self.saw_unknown = Some(why.clone());
                // A cancelled token is why the solver stopped: the proof as a whole ends.
                let kind = if self.cancel.is_cancelled() {
                    FailKind::Stopped
                } else {
                    FailKind::Undecided
                };
                Err(Fail { kind, msg: format!("{what}: {why}") })
            }
        }
    }

    /// One way of proving the rest, `way`, undone if it fails: the loop points it added
    /// and the obligations it recorded are no part of the proof (`smt::record`).
    pub fn undo_on_failure<T>(&mut self, way: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let (mark, rec) = (self.proof.len(), crate::smt::record::mark());
        way(self).inspect_err(|_| {
            self.proof.truncate(mark);
            crate::smt::record::rewind(rec);
        })
    }

    /// Adds "on this path, `goal`" to `acc` and checks it.
    pub fn oblige(
        &mut self,
        acc: &mut Acc,
        st: &SymState,
        goal: &Bool,
        scope: Scope,
        what: &str,
    ) -> Res<()> {
        acc.push_back(st.implies(goal));
        self.check(acc, scope, what)?;
        // Proved and parameter-free: later checks on this path need not carry it (the
        // facts themselves stay in the path condition). Without this every check repeats
        // all earlier ones, and n sequential loops cost n² (see `Syms::params_since`).
        if !self.syms.params_since(scope.floor) {
            acc.clear();
        }
        Ok(())
    }

    /// Runs a configuration to its end, handling loop points on the way.
    pub fn run(&mut self, mut cfg: Cfg<'t>, mut acc: Acc, scope: Scope, end: &End) -> Res<Acc> {
        loop {
            if self.cancel.is_cancelled() {
                return Err(Fail::stopped());
            }
            let at_loop = |i: usize| {
                matches!(cfg.conts[i].front(), Some(Item::S(Stmt::While { .. }) | Item::Replay(_)))
            };
            let forall_waits = self.defer_exists
                && (0..cfg.conts.len())
                    .any(|i| at_loop(i) && self.quantifier(i) == Quantifier::Forall);
            let held = |i: usize| forall_waits && self.quantifier(i) == Quantifier::Exists;
            let ready =
                (0..cfg.conts.len()).find(|&i| !(cfg.conts[i].is_empty() || at_loop(i) || held(i)));
            let Some(i) = ready else {
                if cfg.conts.iter().all(|c| c.is_empty()) {
                    return self.finish(cfg, acc, scope, end);
                }
                return self.loop_point(cfg, acc, scope, end);
            };
            let item = cfg.conts[i].pop_front().expect("ready copy has a next item");
            match item {
                Item::Guard(g) => {
                    let g = cfg.st.eval_bool(g);
                    self.oblige(
                        &mut acc,
                        &cfg.st,
                        &g,
                        scope,
                        "the loop guard between repetitions",
                    )?;
                    cfg.st.pc.push_back(g);
                }
                Item::Peel(w, k) => return self.peel(i, w, k, cfg, acc, scope, end),
                Item::Maybe(Stmt::While { cond, body, .. }) => {
                    let g = cfg.st.eval_bool(cond);
                    if has_loop(body) {
                        let then = body.iter().map(Item::S).collect();
                        return self.split(
                            i,
                            Some(g),
                            then,
                            im::Vector::new(),
                            cfg,
                            acc,
                            scope,
                            end,
                        );
                    }
                    // Loop-free: both outcomes joined on the spot, like any `if`.
                    self.exec_if(i, &g, body, &[], &mut cfg.st, &mut acc, scope)?;
                }
                Item::Maybe(_) => unreachable!("only loops repeat"),
                Item::Replay(_) => unreachable!("a held copy waits like a loop head"),
                Item::S(s) => match s {
                    Stmt::If { then_branch, else_branch, .. }
                    | Stmt::IfStar { then_branch, else_branch, .. }
                        if has_loop(then_branch) || has_loop(else_branch) =>
                    {
                        return self.branch_with_loops(i, s, cfg, acc, scope, end);
                    }
                    _ => self.exec(i, s, &mut cfg.st, &mut acc, scope)?,
                },
            }
        }
    }

    fn finish(&mut self, cfg: Cfg<'t>, mut acc: Acc, scope: Scope, end: &End) -> Res<Acc> {
        let (goal, what) = match end {
            End::Post => {
                self.ends.record(&cfg.st.pc);
                let what = if self.assumes_deferred {
                    "the postcondition (with the ∃-side assumes before it)"
                } else {
                    "the postcondition"
                };
                (cfg.st.eval_bool(&self.tuple.post), what)
            }
            End::Inv(atoms) => {
                if self.record_inv_ends {
                    self.ends.record(&cfg.st.pc);
                }
                (cfg.st.eval_all(atoms), "consecution")
            }
            End::Probe(atoms) => {
                for (k, a) in atoms.iter().enumerate() {
                    if self.probe_failed[k] {
                        continue;
                    }
                    let mut trial = acc.clone();
                    let goal = cfg.st.eval_bool(a);
                    if self.oblige(&mut trial, &cfg.st, &goal, scope, "consecution").is_err() {
                        self.probe_failed[k] = true;
                    }
                }
                return Ok(acc);
            }
        };
        self.oblige(&mut acc, &cfg.st, &goal, scope, what)?;
        Ok(acc)
    }

    /// Executes one loop-free statement of copy `i`.
    pub fn exec(
        &mut self,
        i: usize,
        s: &'t Stmt,
        st: &mut SymState,
        acc: &mut Acc,
        scope: Scope,
    ) -> Res<()> {
        let forall = self.quantifier(i) == Quantifier::Forall;
        match s {
            // Under `post`, observations mean nothing (reactive tuples never reach here).
            Stmt::Skip | Stmt::Observe { .. } => {}
            Stmt::Assign { var, value, .. } => {
                let t = st.eval(value);
                st.vars.insert(*var, t);
            }
            Stmt::Store { array, index, value, .. } => {
                let a: Array = st.vars[array].as_array().expect("checked IR: array");
                let t = a.store(&st.eval(index), &st.eval(value));
                st.vars.insert(*array, t.into());
            }
            Stmt::Havoc { var, .. } => {
                let tv = self.tuple.var(*var);
                let name = self.tuple.var_display(*var);
                let kind = if forall { Kind::Univ } else { Kind::Param };
                let t = self.syms.fresh(scope, &name, &tv.ty.clone(), kind);
                st.vars.insert(*var, t);
            }
            Stmt::Assume { cond, .. } => {
                let b = st.eval_bool(cond);
                if !forall {
                    // The parameters must be chosen so that every described state passes.
                    if self.assumes_at_end {
                        acc.push_back(st.implies(&b));
                        self.assumes_deferred = true;
                    } else {
                        self.oblige(acc, st, &b, scope, "an ∃-side assume")?;
                    }
                }
                st.pc.push_back(b);
            }
            Stmt::If { cond, then_branch, else_branch, .. } => {
                let c = st.eval_bool(cond);
                self.exec_if(i, &c, then_branch, else_branch, st, acc, scope)?;
            }
            Stmt::IfStar { then_branch, else_branch, loc } => {
                let kind = if forall { Kind::Univ } else { Kind::Param };
                let name = format!("{}.if*{}", self.tuple.copies[i].name, loc);
                let c = self.syms.fresh(scope, &name, &Type::Bool, kind).as_bool().expect("bool");
                self.exec_if(i, &c, then_branch, else_branch, st, acc, scope)?;
            }
            Stmt::While { .. } => unreachable!("loops are handled at loop points"),
            // A recursive call deeper than the front end unfolded: a ∀ copy must not
            // reach it (its deeper runs are not modelled), an ∃ copy's choices must
            // avoid it (a run through it is no witness).
            Stmt::Cut { loc } => {
                let never = z3::ast::Bool::from_bool(false);
                let what = format!(
                    "the recursive call at {}:{loc} of copy {} goes deeper than unfolded",
                    self.tuple.copy_file(i),
                    self.tuple.copies[i].name
                );
                if forall || !self.assumes_at_end {
                    self.oblige(acc, st, &never, scope, &what)?;
                } else {
                    acc.push_back(st.implies(&never));
                    self.assumes_deferred = true;
                }
                st.pc.push_back(never);
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_if(
        &mut self,
        i: usize,
        c: &Bool,
        then_branch: &'t [Stmt],
        else_branch: &'t [Stmt],
        st: &mut SymState,
        acc: &mut Acc,
        scope: Scope,
    ) -> Res<()> {
        let base = st.pc.len();
        let mut t = st.clone();
        t.pc.push_back(c.clone());
        for s in then_branch {
            self.exec(i, s, &mut t, acc, scope)?;
        }
        let mut e = st.clone();
        e.pc.push_back(c.not());
        for s in else_branch {
            self.exec(i, s, &mut e, acc, scope)?;
        }
        *st = SymState::join(c, base, t, e);
        Ok(())
    }

    /// An `if` whose branches contain loops: continue each branch with the rest of the
    /// copy, so that its loops can align with other copies' loops.
    fn branch_with_loops(
        &mut self,
        i: usize,
        s: &'t Stmt,
        cfg: Cfg<'t>,
        acc: Acc,
        scope: Scope,
        end: &End,
    ) -> Res<Acc> {
        let (cond, then_branch, else_branch) = match s {
            Stmt::If { cond, then_branch, else_branch, .. } => {
                (Some(cond), then_branch, else_branch)
            }
            Stmt::IfStar { then_branch, else_branch, .. } => (None, then_branch, else_branch),
            _ => unreachable!("only branches"),
        };
        let c = cond.map(|e| cfg.st.eval_bool(e));
        let items = |b: &'t [Stmt]| b.iter().map(Item::S).collect();
        self.split(i, c, items(then_branch), items(else_branch), cfg, acc, scope, end)
    }

    /// A loop peeled `k` times at the front of copy `i` (see `Item::Peel`).
    #[allow(clippy::too_many_arguments)]
    fn peel(
        &mut self,
        i: usize,
        w: &'t Stmt,
        k: u8,
        cfg: Cfg<'t>,
        acc: Acc,
        scope: Scope,
        end: &End,
    ) -> Res<Acc> {
        let Stmt::While { cond, body, .. } = w else { unreachable!("only loops are peeled") };
        let g = cfg.st.eval_bool(cond);
        let mut then: im::Vector<Item<'t>> = body.iter().map(Item::S).collect();
        then.push_back(if k > 1 { Item::Peel(w, k - 1) } else { Item::S(w) });
        self.split(i, Some(g), then, im::Vector::new(), cfg, acc, scope, end)
    }

    /// Copy `i` continues with `then` where `c` holds and with `otherwise` elsewhere (no
    /// condition: `if (*)`), each followed by the rest of the copy. A ∀ copy proves both;
    /// an ∃ copy commits to one, under a restriction when there is a condition.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split(
        &mut self,
        i: usize,
        c: Option<Bool>,
        then: im::Vector<Item<'t>>,
        otherwise: im::Vector<Item<'t>>,
        cfg: Cfg<'t>,
        acc: Acc,
        scope: Scope,
        end: &End,
    ) -> Res<Acc> {
        let with_branch = |items: im::Vector<Item<'t>>, taken: Option<Bool>| {
            let mut next = cfg.clone();
            next.split = true;
            let mut cont = items;
            cont.append(next.conts[i].clone());
            next.conts[i] = cont;
            if let Some(b) = taken {
                next.st.pc.push_back(b);
            }
            next
        };
        let then_cond = c.clone();
        let else_cond = c.as_ref().map(|c| c.not());
        if self.quantifier(i) == Quantifier::Forall {
            // Each ∀ branch must be proved. Proved in separate queries, each may choose the
            // parameters made so far its own way, which is sound only when the split is
            // decided before them: on outermost ∀ values. A condition on values inside
            // the query (a ∀ copy's values where a lockstep with ∃ loops stopped, see
            // `Kind::Midway`) is chosen after the parameters: one query for both.
            let late = c.as_ref().is_some_and(|c| !self.outer_only(c, scope))
                && self.syms.params_since(scope.floor);
            let c1 = with_branch(then, then_cond);
            let c2 = with_branch(otherwise, else_cond);
            if scope.conj || late {
                let a = self.run(c1, acc, scope, end)?;
                self.run(c2, a, scope, end)
            } else {
                self.run(c1, acc.clone(), scope, end)?;
                self.run(c2, acc.clone(), scope, end)?;
                Ok(acc)
            }
        } else {
            // The ∃ copy commits to one branch; with a condition the parameters must make
            // it (or its negation) hold.
            let mut last = None;
            for (items, taken) in
                [(then.clone(), then_cond.clone()), (otherwise.clone(), else_cond.clone())]
            {
                let way = self.undo_on_failure(|p| {
                    let mut a = acc.clone();
                    if let Some(b) = &taken {
                        p.oblige(&mut a, &cfg.st, b, scope, "the ∃ copy's branch choice")?;
                    }
                    p.run(with_branch(items, taken), a, scope, end)
                });
                match way {
                    Ok(a) => return Ok(a),
                    Err(f) => last = Some(f),
                }
            }
            let last = last.expect("two branches tried");
            // A condition over outermost ∀ values alone (the ∃ copy's own inputs, values
            // fixed before this query) is no choice: the ∃ copy goes where it says, and
            // each side is a query of its own, whose parameters may depend on the side
            // (∀u. (c → ∃p. φ1) ∧ (¬c → ∃p. φ2) is ∀u ∃p. (c → φ1) ∧ (¬c → φ2)).
            let universal = c.as_ref().is_some_and(|c| self.outer_only(c, scope));
            if !universal || scope.conj || last.kind == FailKind::Stopped {
                return Err(last);
            }
            self.undo_on_failure(|p| {
                p.run(with_branch(then, then_cond), acc.clone(), scope, end)?;
                p.run(with_branch(otherwise, else_cond), acc.clone(), scope, end)
            })
            .map(|_| acc)
        }
    }

    /// Whether every symbol of `b` is outermost universal in queries of `scope`.
    pub(super) fn outer_only(&self, b: &Bool, scope: Scope) -> bool {
        let (consts, quantified) = crate::smt::query::free_constants(b);
        !quantified
            && consts.iter().all(|c| self.syms.class(scope.floor, c) == crate::smt::query::Class::A)
    }
}

pub use crate::ir::has_loop;

/// Whether a block makes nondeterministic choices anywhere (`x = *`, `if (*)`).
pub fn has_choice(block: &[Stmt]) -> bool {
    block.iter().any(|s| match s {
        Stmt::Havoc { .. } | Stmt::IfStar { .. } => true,
        Stmt::If { then_branch, else_branch, .. } => {
            has_choice(then_branch) || has_choice(else_branch)
        }
        Stmt::While { body, .. } => has_choice(body),
        _ => false,
    })
}
