//! Vacuity warnings for `verified` tuples: a proof says nothing when no initial state
//! satisfies `pre`, or when no run of the ∀ copies reaches the end (every path meets a
//! false `assume`, or a loop whose invariant rules out its exit). The verdict stays
//! `verified` (it is true); the warning tells the user it is true for no run.
//!
//! The prover records, at each end of the whole tuple (`End::Post`), the path condition
//! of its symbolic state there ([`Ends::record`]); the states after loops are over-
//! approximations (invariant ∧ ¬guard), so an unsatisfiable one is truly unreachable.
//! A warning needs `unsat` answers only: `sat`, `unknown`, a timeout, or too many ends
//! to check all give no warning (and never a failure).

use crate::cancel::Cancel;
use crate::diag::code;
use crate::smt::session::{self, Sat, Session};
use crate::verdict::Warning;
use std::time::Duration;
use z3::ast::Bool;

/// Ends recorded beyond this many are not kept, and then no run warning is given.
const MAX_ENDS: usize = 256;
/// Time limit of one satisfiability check (within the tuple's own deadline).
const QUERY_LIMIT: Duration = Duration::from_secs(2);

/// The path conditions at the ends of the tuple the prover reached, failed attempts
/// included (a satisfiable one of those only removes a warning, never adds one).
#[derive(Default)]
pub struct Ends {
    conditions: Vec<im::Vector<Bool>>,
    overflow: bool,
}

impl Ends {
    /// Records the path condition of one end of the tuple.
    pub fn record(&mut self, pc: &im::Vector<Bool>) {
        if self.conditions.len() < MAX_ENDS {
            self.conditions.push(pc.clone());
        } else {
            self.overflow = true;
        }
    }
}

/// The vacuity warnings for a tuple just proved: `pre` is the prover's encoding of its
/// `pre`, `ends` what it recorded. At most one warning (an unsatisfiable `pre` makes
/// every end unreachable, and says more).
pub fn warnings(pre: &Bool, ends: &Ends, cancel: &Cancel) -> Vec<Warning> {
    warnings_reaching(pre, ends, &mut fresh_checks(cancel), runs_warning)
}

/// [`warnings`], checked on the caller's session (the prover's): its SMT kernel is set
/// up already, where a fresh solver's first check costs ~0.3 ms more than the check.
pub fn warnings_on(pre: &Bool, ends: &Ends, on: &mut Session) -> Vec<Warning> {
    let mut check = |parts: &[Bool]| on.check_aside(&Bool::and(parts), Some(QUERY_LIMIT));
    warnings_reaching(pre, ends, &mut check, runs_warning)
}

/// The vacuity warnings for an `always` tuple proved for every n: `ends` are the path
/// conditions at the copies' first observations (the temporal prover's initiation). When
/// no ∀ run reaches its first observation, no ∀ prefix has an observation and φ is never
/// checked.
pub fn first_observation_warnings(pre: &Bool, ends: &Ends, cancel: &Cancel) -> Vec<Warning> {
    warnings_reaching(pre, ends, &mut fresh_checks(cancel), first_observation_warning)
}

/// Checks of conjunctions on a solver of their own, under `cancel`.
fn fresh_checks(cancel: &Cancel) -> impl FnMut(&[Bool]) -> Sat + '_ {
    let solver = session::solver();
    move |parts: &[Bool]| session::check(&solver, parts, cancel, Some(QUERY_LIMIT))
}

fn warnings_reaching(
    pre: &Bool,
    ends: &Ends,
    check: &mut dyn FnMut(&[Bool]) -> Sat,
    unreached: fn() -> Warning,
) -> Vec<Warning> {
    let mut unsat = |parts: &[Bool]| {
        // A true conjunction needs no solver (most tuples' `pre`).
        !parts.iter().all(|p| p.as_bool() == Some(true)) && check(parts) == Sat::Unsat
    };
    if unsat(std::slice::from_ref(pre)) {
        return vec![pre_warning()];
    }
    // No recorded end: the prover finished without reaching one, which this module
    // cannot interpret; say nothing.
    if ends.overflow || ends.conditions.is_empty() {
        return Vec::new();
    }
    let all_unreachable = ends.conditions.iter().all(|pc| {
        let parts: Vec<Bool> = pc.iter().cloned().collect();
        unsat(&parts)
    });
    if !all_unreachable {
        return Vec::new();
    }
    vec![unreached()]
}

/// The warning for an exhaustive search that found no feasible run of the ∀ copies
/// reaching the end (the refuter's `verified` with zero ∀ paths): that is a fact the
/// search proved, so it always warns; `pre` decides which warning.
pub fn no_forall_run(pre: &Bool, cancel: &Cancel) -> Vec<Warning> {
    let solver = crate::smt::session::solver();
    let unsat = session::check(&solver, std::slice::from_ref(pre), cancel, Some(QUERY_LIMIT));
    vec![if unsat == Sat::Unsat { pre_warning() } else { runs_warning() }]
}

fn pre_warning() -> Warning {
    Warning {
        code: code::VACUOUS_PRE.to_string(),
        message: "`pre` is unsatisfiable: no initial state satisfies it, so the tuple holds \
                  vacuously"
            .to_string(),
    }
}

fn runs_warning() -> Warning {
    Warning {
        code: code::VACUOUS_RUNS.to_string(),
        message: "no run of the ∀ copies that starts in `pre` reaches the end (every path \
                  meets a false `assume` or a loop that never exits), so the tuple holds \
                  vacuously"
            .to_string(),
    }
}

fn first_observation_warning() -> Warning {
    Warning {
        code: code::VACUOUS_RUNS.to_string(),
        message: "no run of the ∀ copies that starts in `pre` reaches its first observation \
                  (every path meets a false `assume` or a loop that never exits), so the \
                  `always` property is never checked and holds vacuously"
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;

    fn lt(a: &Int, n: i64) -> Bool {
        a.lt(Int::from_i64(n))
    }

    #[test]
    fn unsat_pre_and_unreachable_ends_warn_and_satisfiable_ones_do_not() {
        let x = Int::new_const("x");
        let cancel = Cancel::new();
        let pre = lt(&x, 0);
        let no_ends = Ends::default();
        assert!(warnings(&pre, &no_ends, &cancel).is_empty());

        let contradiction = Bool::and(&[lt(&x, 0), x.gt(Int::from_i64(0))]);
        let w = warnings(&contradiction, &no_ends, &cancel);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].code, code::VACUOUS_PRE);

        let mut dead = Ends::default();
        dead.record(&im::vector![pre.clone(), x.gt(Int::from_i64(5))]);
        let w = warnings(&pre, &dead, &cancel);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].code, code::VACUOUS_RUNS);

        // One reachable end among dead ones: no warning.
        dead.record(&im::vector![pre.clone()]);
        assert!(warnings(&pre, &dead, &cancel).is_empty());
    }

    #[test]
    fn a_search_with_no_forall_run_says_which_warning() {
        let x = Int::new_const("x");
        let cancel = Cancel::new();
        let contradiction = Bool::and(&[lt(&x, 0), x.gt(Int::from_i64(0))]);
        assert_eq!(no_forall_run(&contradiction, &cancel)[0].code, code::VACUOUS_PRE);
        assert_eq!(no_forall_run(&lt(&x, 0), &cancel)[0].code, code::VACUOUS_RUNS);
    }

    #[test]
    fn a_cancelled_check_gives_no_warning() {
        let x = Int::new_const("x");
        let cancel = Cancel::new();
        cancel.cancel();
        let contradiction = Bool::and(&[lt(&x, 0), x.gt(Int::from_i64(0))]);
        assert!(warnings(&contradiction, &Ends::default(), &cancel).is_empty());
    }
}
