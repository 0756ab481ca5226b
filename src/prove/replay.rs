//! Loop fission and fusion: one copy's loop `L` against another copy's two sequential
//! loops `L1; …; L2` over the same range, each doing part of `L`'s body.
//!
//! No single alignment relates them: `L` with `L1` in lockstep relates the part of the
//! state `L1` writes, but what `L2` computes from `L1`'s final state is what `L` did in
//! the same iterations. So `L` is run twice. First against `L1` (an exact alignment whose
//! invariant speaks of `L1`'s part); after it the copy of `L` is *held*
//! (`genpp::Item::Replay`) while the other copy runs on to its next loop `L2`. There `L`
//! runs again, from the values it had on entry, against `L2` (a second exact alignment
//! whose invariant speaks of `L2`'s part), and it ends in the very symbols its first run
//! ended in.
//!
//! Why the second run may end in the first run's symbols: the held copy is a ∀ copy
//! whose loop makes no choices, so its run of `L` from one entry state is one run, and
//! its final state one state; while held, the copy runs nothing, so every variable `L`
//! does not write still has its entry value, and restoring the ones it writes gives the
//! entry state exactly. Both alignments are ordinary Loop-Counting proofs (initiation,
//! simultaneous termination, consecution, each a checked obligation) about that one run
//! of `L`, each in a product with another loop, so the facts each proves at its exit
//! (its invariant and `L`'s false guard) hold of that one final state together. Only
//! terminating runs of the ∀ copy matter, so `L` ends.

use super::genpp::{Cfg, End, FailKind, Item, Prover, Res};
use super::loops::Aligned;
use super::state::{Acc, Scope};
use crate::ir::{Quantifier, Stmt, VarId};
use z3::ast::Dynamic;

/// A held loop: the values of the variables it writes on entry, and after its first run.
#[derive(Clone)]
pub struct Replay {
    pub copy: usize,
    pub entry: Vec<(VarId, Dynamic)>,
    pub exit: Vec<(VarId, Dynamic)>,
    /// The first run's loop point in `Prover::proof`.
    pub record: usize,
}

/// What an exact alignment does with a loop beyond the Loop-Counting rule.
#[derive(Clone)]
pub enum Role {
    /// This copy's loop is held after the loops, to run again against a later loop.
    Hold(usize),
    /// The held loop runs again: its variables restart from their entry values (set by
    /// the caller) and end in the first run's exit values.
    Rerun(Replay),
}

impl<'t> Prover<'t> {
    /// After an exact alignment (`next`: the state after the loops, the loops popped),
    /// copy `c`'s loop is held again, with its entry values (from `cfg`) and exit values.
    pub(super) fn hold(
        &self,
        cfg: &Cfg<'t>,
        next: &mut Cfg<'t>,
        align: &[Aligned<'t>],
        c: usize,
    ) -> Replay {
        let al = align.iter().find(|al| al.copy == c).expect("the held loop is aligned");
        let written = crate::ir::modified_vars(al.body());
        next.conts[c].push_front(Item::Replay(al.stmt));
        Replay {
            copy: c,
            entry: written.iter().map(|v| (*v, cfg.st.vars[v].clone())).collect(),
            exit: written.iter().map(|v| (*v, next.st.vars[v].clone())).collect(),
            record: self.proof.len(),
        }
    }

    /// How a loop point with a role reads in the proof.
    pub(super) fn role_text(&self, role: &Role) -> String {
        match role {
            Role::Hold(c) => format!(
                "{} held after the loops, to run again against a later loop",
                self.tuple.copies[*c].name
            ),
            Role::Rerun(r) => format!(
                "{} runs its loop again from its entry (as at loop point {}), ending where it \
                 ended",
                self.tuple.copies[r.copy].name,
                r.record + 1
            ),
        }
    }

    /// Whether copy `c`'s loop `l` against copy `d`'s loop `l1` looks like a fission:
    /// both ∀ copies, `l` makes no choices, writes every name `l1` writes and more, and
    /// `d` has another loop after `l1` (the second half). Then their exact alignment holds
    /// `l` for a second run (`Role::Hold`).
    pub(super) fn fission_shape(
        &self,
        cfg: &Cfg<'t>,
        c: usize,
        l: &Stmt,
        d: usize,
        l1: &Stmt,
    ) -> bool {
        let (Stmt::While { body, .. }, Stmt::While { body: body1, .. }) = (l, l1) else {
            return false;
        };
        if cfg.replay.is_some()
            || self.quantifier(c) != Quantifier::Forall
            || self.quantifier(d) != Quantifier::Forall
            || super::genpp::has_choice(body)
        {
            return false;
        }
        let names = |b: &[Stmt]| {
            let mut n: Vec<&str> = crate::ir::modified_vars(b)
                .iter()
                .map(|v| self.tuple.var(*v).name.as_str())
                .collect();
            n.sort_unstable();
            n.dedup();
            n
        };
        let (all, part) = (names(body), names(body1));
        let later_loop = cfg.conts[d]
            .iter()
            .skip(1)
            .any(|it| matches!(it, Item::S(s) if crate::ir::has_loop(std::slice::from_ref(*s))));
        later_loop && part.len() < all.len() && part.iter().all(|n| all.contains(n))
    }

    /// A loop point with a held loop: it runs again against a waiting ∀ loop of another
    /// copy, or, where none aligns, is released (the copy goes on from the first run's
    /// end). `None` when nothing is held.
    pub(super) fn replay_point(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
    ) -> Option<Res<Acc>> {
        let r = cfg.replay.clone()?;
        let c = r.copy;
        let Some(Item::Replay(w)) = cfg.conts[c].front().copied() else {
            unreachable!("a replay holds its copy at its loop")
        };
        let mut released = cfg.clone();
        released.conts[c].pop_front();
        released.replay = None;
        let start = self.candidates;
        let partners: Vec<(usize, &'t Stmt)> = (0..cfg.conts.len())
            .filter(|&d| d != c && self.quantifier(d) == Quantifier::Forall)
            .filter_map(|d| match cfg.conts[d].front() {
                Some(Item::S(l2 @ Stmt::While { .. })) => Some((d, *l2)),
                _ => None,
            })
            .collect();
        for (d, l2) in partners.into_iter().filter(|_| cfg.lockstep.is_none()) {
            let mut again = cfg.clone();
            for (v, t) in &r.entry {
                again.st.vars.insert(*v, t.clone());
            }
            let one = |copy: usize, stmt: &'t Stmt| Aligned { copy, stmt, count: 1, upto: false };
            let mut align = [one(c, w), one(d, l2)];
            align.sort_by_key(|al| al.copy);
            let role = Role::Rerun(r.clone());
            match self.houdini(&again, acc, scope, end, &align, start, false, Some(&role)) {
                Ok(a) => return Some(Ok(a)),
                Err(f) if f.kind == FailKind::Stopped => return Some(Err(f)),
                Err(_) => {}
            }
        }
        Some(self.run(released, acc.clone(), scope, end))
    }
}
