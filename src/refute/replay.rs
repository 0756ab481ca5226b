//! Concrete re-checking of counterexamples: the gate every `violated` verdict passes.

use super::exists::{exists_run, ExistsAnswer};
use crate::cancel::Cancel;
use crate::interp::{run_copy, Replay, RunEnd};
use crate::ir::{Expr, Tuple};
use crate::smt::encode::{encode_bool, value_term};
use crate::smt::session::Sat;
use crate::value::Value;
use crate::verdict::Counterexample;
use z3::ast::Ast;

/// Time limit of the one Z3 check replay may need (a quantified `pre`).
const REPLAY_QUERY_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Step limit for replaying one ∀ copy.
const REPLAY_STEPS: u64 = 10_000_000;

/// Re-checks a counterexample against `tuple`: replays the ∀ copies concretely with its
/// initial values and choices, compares their final states, and re-proves that no ∃ run
/// matches. `Ok(())` only when all of that holds.
pub fn replay_counterexample(
    tuple: &Tuple,
    cex: &Counterexample,
    cancel: &Cancel,
) -> Result<(), String> {
    if tuple.is_reactive() {
        return crate::refute::temporal::replay::replay_report(tuple, cex, cancel);
    }
    let mut state = cex.initial_state(tuple)?;
    match eval_closed(&tuple.pre, &state, cancel) {
        Some(true) => {}
        Some(false) => return Err("the initial values do not satisfy pre".into()),
        None => return Err("could not evaluate pre on the initial values".into()),
    }
    for (ci, copy) in tuple.forall_copies() {
        let run = cex.run_of(&copy.name)?;
        let mut chooser = Replay { choices: run.choices.clone(), next: 0 };
        let result = run_copy(tuple, ci, &mut state, &mut chooser, REPLAY_STEPS)
            .map_err(|e| format!("copy {}: {e}", copy.name))?;
        match result.end {
            RunEnd::Finished => {}
            RunEnd::Blocked { at } => {
                return Err(format!("copy {}: the run is blocked by the assume at {at}", copy.name))
            }
            RunEnd::StepLimit { steps } => {
                return Err(format!("copy {}: did not terminate within {steps} steps", copy.name))
            }
            RunEnd::OutOfChoices { at } => {
                return Err(format!("copy {}: no recorded choice left at {at}", copy.name))
            }
            RunEnd::Cut { at } => {
                return Err(format!(
                    "copy {}: the recursive call at {at} goes deeper than unfolded",
                    copy.name
                ))
            }
            // Post tuples replay without an observation bound.
            RunEnd::ObservationLimit { .. } => {
                return Err(format!("copy {}: stopped at the observation bound", copy.name))
            }
        }
        if chooser.next != run.choices.len() {
            return Err(format!(
                "copy {}: the run used {} of {} recorded choices",
                copy.name,
                chooser.next,
                run.choices.len()
            ));
        }
        let expected = run
            .final_state
            .as_ref()
            .ok_or_else(|| format!("copy {}: no final state recorded", copy.name))?;
        for &v in &copy.vars {
            let name = &tuple.var(v).name;
            let got = &state[v.index()];
            if expected.get(name) != Some(got) {
                return Err(format!(
                    "copy {}: the replayed final value of {name} is {got}, the counterexample \
                     says {}",
                    copy.name,
                    expected.get(name).map_or("nothing".into(), |e| e.to_string())
                ));
            }
        }
    }
    match exists_run(tuple, &state, cancel) {
        ExistsAnswer::NoRun { .. } => Ok(()),
        ExistsAnswer::Witness => Err(if tuple.is_k_safety() {
            "post holds on the replayed final states".into()
        } else {
            "an ∃ run satisfies post for the replayed ∀ outcomes".into()
        }),
        ExistsAnswer::Unknown { reason } => {
            Err(format!("could not re-check that no ∃ run matches: {reason}"))
        }
    }
}

/// Evaluates a closed formula (variables replaced by `state`) with Z3; `None` if the
/// solver cannot decide it (e.g. a hard quantifier).
pub fn eval_closed(e: &Expr, state: &[Value], cancel: &Cancel) -> Option<bool> {
    let t = encode_bool(e, &|v| value_term(&state[v.index()]));
    if let Some(b) = t.simplify().as_bool() {
        return Some(b);
    }
    let s = crate::smt::session::solver();
    s.assert(&t);
    match crate::smt::session::check(&s, &[], cancel, Some(REPLAY_QUERY_LIMIT)) {
        Sat::Sat => Some(true),
        Sat::Unsat => Some(false),
        Sat::Unknown(_) => None,
    }
}
