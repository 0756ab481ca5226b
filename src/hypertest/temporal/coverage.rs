//! Hypercoverage of temporal tuples for `forex test`: a goal is a branch outcome of a ∀
//! copy at an observation index — an `if` or `while` condition evaluated true, or
//! false, after the copy's (i-1)-th and before its i-th observation (an `if (*)`:
//! reached there), for every index i up to the observation bound. A branch taken only
//! on the first step and one taken only later are different goals, which is what the
//! final-state goals of `post` tuples cannot tell apart.

use crate::interp::{eval_expr, Observer};
use crate::ir::{Stmt, Tuple};
use crate::value::Value;
use std::collections::HashMap;

/// Every goal of a tuple and which of them the tests so far covered.
pub struct ObservationGoals {
    bound: usize,
    /// Per copy (∀ copies only; others empty): branch statement (by address) → its
    /// first goal slot, and whether it is an `if (*)` (one outcome).
    branches: Vec<HashMap<usize, (usize, bool)>>,
    covered: Vec<bool>,
}

fn address(s: &Stmt) -> usize {
    s as *const Stmt as usize
}

impl ObservationGoals {
    pub fn new(tuple: &Tuple, bound: usize) -> ObservationGoals {
        let mut slots = 0;
        let mut branches = vec![HashMap::new(); tuple.copies.len()];
        for (c, copy) in tuple.forall_copies() {
            collect(&copy.body, &mut |s, star| {
                branches[c].insert(address(s), (slots, star));
                slots += if star { 1 } else { 2 } * bound;
            });
        }
        ObservationGoals { bound, branches, covered: vec![false; slots] }
    }

    /// Goals in total.
    pub fn total(&self) -> usize {
        self.covered.len()
    }

    /// Goals covered so far.
    pub fn covered(&self) -> usize {
        self.covered.iter().filter(|c| **c).count()
    }

    /// An observer of one run of ∀ copy `copy` that marks the goals it covers.
    pub fn tracker(&mut self, copy: usize) -> Tracker<'_> {
        Tracker { goals: self, copy, seen: 0 }
    }
}

/// Calls `f` on every branch statement of `block` (nested ones included), with whether
/// it is an `if (*)`.
fn collect<'a>(block: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt, bool)) {
    for s in block {
        match s {
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                f(s, matches!(s, Stmt::IfStar { .. }));
                collect(then_branch, f);
                collect(else_branch, f);
            }
            Stmt::While { body, .. } => {
                f(s, false);
                collect(body, f);
            }
            _ => {}
        }
    }
}

/// Marks goals during one run (see [`ObservationGoals::tracker`]).
pub struct Tracker<'g> {
    goals: &'g mut ObservationGoals,
    copy: usize,
    /// Observations made so far in this run.
    seen: usize,
}

impl Observer for Tracker<'_> {
    fn before(&mut self, stmt: &Stmt, state: &[Value]) {
        if matches!(stmt, Stmt::Observe { .. }) {
            self.seen += 1;
            return;
        }
        let bound = self.goals.bound;
        if self.seen >= bound {
            return; // past the last observation the tests judge
        }
        let Some(&(first, star)) = self.goals.branches[self.copy].get(&address(stmt)) else {
            return;
        };
        let outcome = match stmt {
            _ if star => 0,
            Stmt::If { cond, .. } | Stmt::While { cond, .. } => match eval_expr(cond, state) {
                Ok(Value::Bool { value }) => usize::from(value),
                _ => return,
            },
            _ => return,
        };
        self.goals.covered[first + outcome * bound + self.seen] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{run_copy_observing, Limits, Replay};

    #[test]
    fn goals_are_branch_outcomes_per_observation_index() {
        let src =
            "program p { int x; x = 0; repeat { observe; if (x == 1) { x = 5; } x = x + 1; } }
                   tuple t { forall a: p; always a.x >= 0; observations 3; }";
        let m =
            crate::frontend::load_inline("t.fe", src.as_bytes(), crate::frontend::InputFormat::Fe)
                .expect("parses");
        let tuple = &m.tuples[0];
        // `repeat` (a while) and the `if`, two outcomes each, at 3 indices.
        let mut goals = ObservationGoals::new(tuple, 3);
        assert_eq!(goals.total(), 12);
        let mut state = vec![Value::int(0); tuple.vars.len()];
        let limits = Limits { max_steps: 1000, max_observations: Some(3) };
        let mut tracker = goals.tracker(0);
        run_copy_observing(tuple, 0, &mut state, &mut Replay::new(vec![]), limits, &mut tracker)
            .expect("runs");
        // Before observation 1: the loop entered. Before 2: x == 0, the `if` false, the
        // loop entered again. Before 3: x == 1, the `if` true, the loop entered.
        assert_eq!(goals.covered(), 5);
    }
}
