//! ∃-only loop points (every waiting loop belongs to an ∃ copy): the copy's choices
//! decide how often the loop runs. Leave it now (its guard made false), or unroll one
//! iteration (up to [`MAX_UNROLL`] on a path), or, once per loop, prove it with an
//! invariant and a ranking function (`rank`).

use super::genpp::{Cfg, End, Fail, FailKind, Item, Prover, Res};
use super::state::{Acc, Scope};
use crate::ir::Stmt;

/// Largest number of ∃-only loop iterations unrolled on one path.
const MAX_UNROLL: u32 = 3;

impl<'t> Prover<'t> {
    /// An ∃-only loop point: leave the first waiting ∃ loop now, or unroll it once.
    pub fn exists_only(&mut self, cfg: Cfg<'t>, acc: Acc, scope: Scope, end: &End) -> Res<Acc> {
        let j = (0..cfg.conts.len()).find(|&j| !cfg.conts[j].is_empty()).expect("a waiting loop");
        let Some(Item::S(w @ Stmt::While { cond, body, .. })) = cfg.conts[j].front().copied()
        else {
            unreachable!("waiting copies are at a loop head")
        };
        let g = cfg.st.eval_bool(cond);
        // Exit: the parameters make the guard false.
        let mut exit = cfg.clone();
        exit.conts[j].pop_front();
        exit.unrolling = None;
        let leave = self.undo_on_failure(|p| {
            let mut a = acc.clone();
            p.oblige(&mut a, &cfg.st, &g.not(), scope, "leaving an ∃-only loop")?;
            exit.st.pc.push_back(g.not());
            p.run(exit, a, scope, end)
        });
        let mut last = match leave {
            Ok(a) => return Ok(a),
            Err(f) => f,
        };
        if cfg.unrolled < MAX_UNROLL {
            let unroll = self.undo_on_failure(|p| {
                let mut a = acc.clone();
                p.oblige(&mut a, &cfg.st, &g, scope, "entering an ∃-only loop")?;
                let mut next = cfg.clone();
                next.unrolled += 1;
                next.unrolling = Some(w);
                next.st.pc.push_back(g.clone());
                let mut cont: im::Vector<Item<'t>> = body.iter().map(Item::S).collect();
                cont.push_back(Item::S(w));
                cont.append(next.conts[j].clone().split_off(1));
                next.conts[j] = cont;
                p.run(next, a, scope, end)
            });
            match unroll {
                Ok(a) => return Ok(a),
                Err(f) => last = f,
            }
        }
        // Beyond ForEx: an invariant and a ranking function the choices decrease. Once
        // per loop, at its first encounter: a ranked proof of an unrolled copy seldom
        // succeeds where the loop's own failed, and each costs a search per ranking.
        // Not inside another ranked proof: each nested one multiplies the search by its
        // rankings and candidates (a silent stretch of three ∃ loops ran 20,000 queries).
        if !cfg.unrolling.is_some_and(|u| std::ptr::eq(u, w)) && self.ranking.is_none() {
            if let Ok(a) = self.exists_ranked(&cfg, &acc, scope, end, j, w) {
                return Ok(a);
            }
        }
        let loc = match w {
            Stmt::While { loc, .. } => *loc,
            _ => Default::default(),
        };
        let kind = if last.is_unknown() { last.kind } else { FailKind::Invalid };
        let head = format!(
            "the ∃-only loop {}@{}:{} could not be shown to exit for the chosen choices",
            self.tuple.copies[j].name,
            self.tuple.copy_file(j),
            loc
        );
        // An unrolled iteration that failed at this same loop already says so.
        let msg =
            if last.msg.starts_with(&head) { last.msg } else { format!("{head} ({})", last.msg) };
        Err(Fail { kind, msg })
    }
}
