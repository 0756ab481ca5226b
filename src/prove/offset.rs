//! Loops that run a few iterations apart (program transformations: a peeled first or
//! last iteration, a loop started one iteration later, a remainder after an unrolled
//! loop). Each schedule here only peels iterations off a loop — `while (g) B` is
//! `if (g) { B; while (g) B }`, a program identity (`genpp::Item::Peel`) — so every
//! iteration of every copy is still accounted for, and the loops' exits are proved by
//! the alignment that follows:
//!
//! - offsets: two waiting loops whose guard counters (same name, same step) differ by
//!   k steps (k ≤ `MAX_OFFSET`) while their guards agree once the counters are equal:
//!   the copy behind runs k iterations alone first, then the loops are aligned; and
//!   counters (any names, same step) whose guards agree only at a distance of k steps
//!   (`i <= n` against `j <= n - 1`, both from 1): the loop with k more iterations runs
//!   them first;
//! - leftovers: after a lockstep, a loop whose guard may still hold runs one more
//!   iteration alone (a lockstep then k solo iterations), until its guard is false;
//! - after a branch around loops (or a peeled iteration), a ∀ loop whose guard is false
//!   runs no iteration (exact, no invariant).

use super::genpp::{Cfg, End, Fail, FailKind, Item, Prover, Res};
use super::loops::{Aligned, Lockstep};
use super::state::{Acc, Scope, SymState};
use crate::ir::{Quantifier, Stmt, Type};
use z3::ast::{Ast, Bool, Dynamic, Int};

/// The most iterations one copy runs alone before an alignment.
pub const MAX_OFFSET: i64 = 2;

/// The most peels (offset plans and leftover iterations) on one path.
const MAX_PEELS: u8 = 3;

/// The most iterations a lockstep's loop runs alone after it, peeled one by one.
const MAX_LEFTOVER: u8 = 2;

/// Two waiting loops `steps` iterations apart: `behind`'s loop runs them alone first.
#[derive(Clone, Copy)]
pub struct Offset<'t> {
    pub behind: usize,
    pub stmt: &'t Stmt,
    pub ahead: usize,
    pub steps: u8,
}

impl<'t> Prover<'t> {
    /// After a branch around loops: the first waiting ∀ loop whose guard is false on this
    /// path runs no iteration. `None` when there is none (or no branch on the path).
    pub(super) fn skip_false_guards(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        waiting: &[(usize, &'t Stmt)],
    ) -> Option<Res<Acc>> {
        if !cfg.split {
            return None;
        }
        let lockstep = cfg.lockstep.as_ref();
        for &(c, w) in waiting {
            if self.quantifier(c) != Quantifier::Forall || lockstep.is_some_and(|l| l.has(c, w)) {
                continue;
            }
            let g = cfg.st.eval_bool(guard(w));
            if !self.holds(&cfg.st, &g.not()) {
                if self.cancel.is_cancelled() {
                    return Some(Err(Fail::stopped()));
                }
                continue;
            }
            let mut next = cfg.clone();
            next.conts[c].pop_front();
            next.st.pc.push_back(g.not());
            let start = self.candidates;
            let al = [Aligned { copy: c, stmt: w, count: 1, upto: false }];
            let what = format!("{} runs no iteration", self.tuple.copies[c].name);
            let inv = "the guard is false on reaching the loop".to_string();
            self.record_as(&al, inv, start, Some(what), None);
            let mark = self.proof.len() - 1;
            return Some(self.run(next, acc.clone(), scope, end).inspect_err(|_| {
                self.proof.truncate(mark);
            }));
        }
        None
    }

    /// Whether `goal` holds on every state of `st`'s path, whatever the parameters (a
    /// query of its own: for choosing schedules, never as a proof obligation).
    pub(super) fn holds(&mut self, st: &SymState, goal: &Bool) -> bool {
        let scope = Scope { floor: self.syms.next_id(), conj: false };
        let mut acc = Acc::new();
        self.oblige(&mut acc, st, goal, scope, "a schedule's premise").is_ok()
    }

    /// Pairs of waiting loops (one ∀ at least) that run a few iterations apart.
    pub(super) fn offsets(
        &mut self,
        cfg: &Cfg<'t>,
        waiting: &[(usize, &'t Stmt)],
    ) -> Vec<Offset<'t>> {
        let mut out: Vec<Offset<'t>> = Vec::new();
        if cfg.peeled >= MAX_PEELS {
            return out;
        }
        for (x, &(ca, wa)) in waiting.iter().enumerate() {
            for &(cb, wb) in &waiting[x + 1..] {
                let exists = |c: usize| self.quantifier(c) == Quantifier::Exists;
                if exists(ca) && exists(cb) {
                    continue;
                }
                if let Some(m) = self.offset_between(&cfg.st, wa, wb) {
                    // b's counter is m steps further along: a is behind (and vice versa).
                    let (behind, stmt, ahead) = if m > 0 { (ca, wa, cb) } else { (cb, wb, ca) };
                    let steps = m.unsigned_abs() as u8;
                    if !out.iter().any(|o| o.behind == behind && o.ahead == ahead) {
                        out.push(Offset { behind, stmt, ahead, steps });
                    }
                }
                if self.cancel.is_cancelled() {
                    return out;
                }
            }
        }
        out
    }

    /// How many steps `wb`'s guard counter is ahead of `wa`'s (negative: behind), when
    /// the two are counters of one name and step whose difference is that many steps
    /// wherever both loops are entered, and the guards agree once the counters are equal.
    fn offset_between(&mut self, st: &SymState, wa: &'t Stmt, wb: &'t Stmt) -> Option<i64> {
        let tuple = self.tuple;
        let (ga, gb) = (guard(wa), guard(wb));
        let counters = |w: &Stmt| {
            let mut vars = Vec::new();
            guard(w).for_each_var(&mut |v| vars.push(v));
            super::mine::counters(tuple, body(w))
                .into_iter()
                .filter(move |(v, _)| vars.contains(v) && tuple.var(*v).ty == Type::Int)
        };
        for (x, cx) in counters(wa) {
            for (y, cy) in counters(wb) {
                let (vx, vy) = (tuple.var(x), tuple.var(y));
                if cx != cy {
                    continue;
                }
                let same_name = vx.name == vy.name;
                let (tx, ty) = (int(&st.vars[&x]), int(&st.vars[&y]));
                let diff = Int::sub(&[&ty, &tx]).simplify();
                let entered = Bool::and(&[st.eval_bool(ga), st.eval_bool(gb)]);
                let steps = match diff.as_i64() {
                    Some(d) if d % cx == 0 && d != 0 && same_name => vec![d / cx],
                    // Counters that start together (or of different names): one loop
                    // may run more iterations than the other (`i <= n` against
                    // `j <= n - 1`), and running those first aligns the exits.
                    Some(d) if d % cx == 0 => {
                        (1..=MAX_OFFSET).flat_map(|m| [m, -m]).filter(|m| m * cx != d).collect()
                    }
                    Some(_) => continue,
                    // A counter set in a branch (a peeled iteration joined into `ite`s):
                    // the few offsets it may have, each checked where both loops run.
                    None if same_name && has_ite(&Dynamic::from_ast(&diff)) => {
                        (1..=MAX_OFFSET).flat_map(|m| [m, -m]).collect()
                    }
                    None => continue,
                };
                for m in steps {
                    if m == 0 || m.abs() > MAX_OFFSET {
                        continue;
                    }
                    if diff.as_i64().is_none() {
                        let want = diff.eq(Int::from_i64(m * cx));
                        if !self.holds(st, &entered.implies(&want)) {
                            continue;
                        }
                    }
                    // Once `m` iterations have run, the counters keep their distance
                    // (`y - x == lag`), and the guards agree at that distance (else the
                    // offset is not what makes their loops end together, as `i < n`
                    // against `j <= n`).
                    let mut same = st.clone();
                    let mut other = st.clone();
                    match diff.as_i64() {
                        // Guards that agree at the lag for every value of the counters,
                        // not only at their values on entry (which any lag might fit).
                        Some(d) if d != m * cx => {
                            let lag = d - m * cx;
                            let k = Int::fresh_const("counter");
                            same.vars.insert(
                                x,
                                Dynamic::from_ast(&Int::sub(&[&k, &Int::from_i64(lag)])),
                            );
                            other.vars.insert(y, Dynamic::from_ast(&k));
                        }
                        _ => {
                            same.vars.insert(x, st.vars[&y].clone());
                        }
                    }
                    let (ha, hb) = (same.eval_bool(ga).simplify(), other.eval_bool(gb).simplify());
                    if ha.ast_eq(&hb) || self.holds(st, &ha.iff(&hb)) {
                        return Some(m);
                    }
                }
            }
        }
        None
    }

    /// Runs `behind`'s loop `steps` iterations alone, then the loop point again. The
    /// peeled iterations are a loop point of the proof of their own.
    pub(super) fn run_offset(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        off: Offset<'t>,
    ) -> Res<Acc> {
        let mut next = cfg.clone();
        next.conts[off.behind].pop_front();
        next.conts[off.behind].push_front(Item::Peel(off.stmt, off.steps));
        next.peeled += 1;
        next.caught_up = true;
        let start = self.candidates;
        let al = [Aligned {
            copy: off.behind,
            stmt: off.stmt,
            count: u32::from(off.steps),
            upto: false,
        }];
        let (name, other) =
            (&self.tuple.copies[off.behind].name, &self.tuple.copies[off.ahead].name);
        let what =
            format!("{name} runs {} alone first, {other} being ahead", iterations(off.steps));
        self.record_as(&al, "peeled iterations (no invariant)".into(), start, Some(what), None);
        let mark = self.proof.len() - 1;
        self.run(next, acc.clone(), scope, end).inspect_err(|_| self.proof.truncate(mark))
    }

    /// After a lockstep, a loop of it whose guard may still hold runs one more iteration
    /// alone, up to `MAX_LEFTOVER` of them: the loop points that follow see the loop again
    /// and must find its guard false by then (exact: no invariant). `None` when no
    /// schedule of this kind applies or none worked (the loops' own search follows).
    pub(super) fn run_leftover_iteration(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        ls: &Lockstep<'t>,
        waiting: &[(usize, &'t Stmt)],
    ) -> Option<Res<Acc>> {
        let pending = cfg
            .must_end
            .filter(|&(c, w, _)| waiting.iter().any(|&(i, v)| i == c && std::ptr::eq(v, w)));
        let candidates: Vec<(usize, &'t Stmt, u8)> = match pending {
            // Its guard was not seen false: one more iteration, or this schedule fails.
            Some((c, w, left)) if left > 0 => vec![(c, w, left - 1)],
            Some((c, w, _)) => {
                let what = format!(
                    "{} does not end within {} after the lockstep",
                    self.loop_name(c, w),
                    iterations(MAX_LEFTOVER)
                );
                return Some(Err(Fail::invalid(what)));
            }
            None if cfg.peeled < MAX_PEELS => waiting
                .iter()
                .filter(|&&(c, w)| ls.has(c, w))
                .map(|&(c, w)| (c, w, MAX_LEFTOVER - 1))
                .collect(),
            None => Vec::new(),
        };
        for (c, w, left) in candidates {
            let mut next = cfg.clone();
            next.conts[c].pop_front();
            next.conts[c].push_front(Item::Peel(w, 1));
            next.peeled += u8::from(pending.is_none());
            next.must_end = Some((c, w, left));
            let start = self.candidates;
            let al = [Aligned { copy: c, stmt: w, count: 1, upto: false }];
            let what = format!("{} runs one more iteration alone", self.tuple.copies[c].name);
            let inv = "a peeled iteration (no invariant)".to_string();
            self.record_as(&al, inv, start, Some(what), Some(ls.record));
            let mark = self.proof.len() - 1;
            match self.run(next, acc.clone(), scope, end) {
                Ok(a) => return Some(Ok(a)),
                Err(f) if f.kind == FailKind::Stopped || pending.is_some() => {
                    self.proof.truncate(mark);
                    return Some(Err(f));
                }
                // The loops' own search follows: its failure is the more informative one.
                Err(_) => self.proof.truncate(mark),
            }
        }
        None
    }
}

/// "1 iteration", "2 iterations".
pub fn iterations(k: u8) -> String {
    if k == 1 {
        "1 iteration".into()
    } else {
        format!("{k} iterations")
    }
}

fn guard(w: &Stmt) -> &crate::ir::Expr {
    match w {
        Stmt::While { cond, .. } => cond,
        _ => unreachable!("waiting copies are at a loop"),
    }
}

fn body(w: &Stmt) -> &[Stmt] {
    match w {
        Stmt::While { body, .. } => body,
        _ => unreachable!("waiting copies are at a loop"),
    }
}

fn int(d: &Dynamic) -> Int {
    d.as_int().expect("an int variable has an int term")
}

/// Whether the term has an `ite` (a value joined from branches).
fn has_ite(t: &Dynamic) -> bool {
    let mut stack = vec![t.clone()];
    let mut seen = std::collections::HashSet::new();
    while let Some(d) = stack.pop() {
        if !d.is_app() || !seen.insert(d.clone()) {
            continue;
        }
        if d.decl().name() == "if" {
            return true;
        }
        stack.extend(d.children());
    }
    false
}
