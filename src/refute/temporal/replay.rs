//! The gate before `violated`: the ∀ copies run concretely through the interpreter with
//! the model's initial values and choices, must show the model's observations, and the
//! ∃ side is re-checked against those concrete observations ("no ∃ prefix matches",
//! asked again with nothing symbolic but the ∃ choices).

use super::prefix::{check, encode_exists, exists_side, terms, unknown_reason, Candidate};
use crate::cancel::Cancel;
use crate::interp::{run_copy_observed, Observer, Replay, RunEnd};
use crate::ir::{has_observe, Stmt, Tuple, VarId};
use crate::value::Value;
use z3::ast::Bool;
use z3::SatResult;

/// Steps a replayed ∀ copy may take (it runs on past its n-th observation until it
/// needs a choice the model did not make, so a silent infinite loop ends here).
const MAX_STEPS: u64 = 200_000;

/// Records the copy's variables at every `observe;`.
struct Recorder<'a> {
    vars: &'a [VarId],
    seen: Vec<Vec<Value>>,
}

impl Observer for Recorder<'_> {
    fn before(&mut self, stmt: &Stmt, state: &[Value]) {
        if matches!(stmt, Stmt::Observe { .. }) {
            self.seen.push(self.vars.iter().map(|v| state[v.index()].clone()).collect());
        }
    }
}

/// Runs ∀ copy `c` concretely; its observation sequence (the final state for a program
/// without `observe;`).
pub fn observe_run(
    tuple: &Tuple,
    c: usize,
    init: &[Value],
    choices: &[Value],
) -> Result<Vec<Vec<Value>>, String> {
    let copy = &tuple.copies[c];
    let mut state = init.to_vec();
    let mut rec = Recorder { vars: &copy.vars, seen: Vec::new() };
    let mut chooser = Replay::new(choices.to_vec());
    let run = run_copy_observed(tuple, c, &mut state, &mut chooser, MAX_STEPS, &mut rec)
        .map_err(|e| e.to_string())?;
    if !has_observe(&copy.body) && run.end == RunEnd::Finished {
        rec.seen.push(copy.vars.iter().map(|v| state[v.index()].clone()).collect());
    }
    Ok(rec.seen)
}

/// Replays `cand`; `Ok` only when the counterexample is confirmed concretely.
pub fn replay(tuple: &Tuple, cand: &Candidate, cancel: &Cancel) -> Result<(), String> {
    match crate::interp::eval_bool(&tuple.pre, &cand.init) {
        Ok(true) => {}
        Ok(false) => return Err("the initial values do not satisfy pre".into()),
        Err(e) => return Err(format!("pre cannot be evaluated concretely ({e})")),
    }
    let n = cand.n;
    for (c, copy) in tuple.forall_copies() {
        let seen = observe_run(tuple, c, &cand.init, &cand.choices[c])?;
        if seen.len() < n {
            return Err(format!("copy {} made {} observations, not {n}", copy.name, seen.len()));
        }
        if seen[..n] != cand.observed[c][..] {
            return Err(format!("copy {} observed other values than the model", copy.name));
        }
    }
    let init = terms(&cand.init);
    let enc = encode_exists(tuple, &init, n, cand.unroll, cancel);
    let forall_obs = |c: usize, i: usize| terms(&cand.observed[c][i]);
    let (witness, residual) = exists_side(tuple, &enc, n, &forall_obs);
    let solver = crate::smt::session::solver();
    solver.assert(Bool::or(&[witness, residual]));
    match check(&solver, cancel) {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err("an ∃ run matches the replayed ∀ observations".into()),
        SatResult::Unknown => Err(unknown_reason(&solver, cancel)),
    }
}

/// Re-checks a reported temporal counterexample (what `refute::replay_counterexample`
/// does for reactive tuples): the ∀ copies' initial values, choices and observation
/// tables are read back from the report and replayed like a fresh candidate. The ∃
/// side is asked at growing unrolling bounds (the report does not say which one found
/// it); `Ok` at the first that confirms it.
pub fn replay_report(
    tuple: &Tuple,
    cex: &crate::verdict::Counterexample,
    cancel: &Cancel,
) -> Result<(), String> {
    let trace = cex.observations.as_ref().ok_or("no observation trace in the report")?;
    let n = trace.failing_index as usize;
    let init = cex.initial_state(tuple)?;
    let mut choices = vec![Vec::new(); tuple.copies.len()];
    let mut observed = vec![Vec::new(); tuple.copies.len()];
    for (c, copy) in tuple.forall_copies() {
        choices[c] = cex.run_of(&copy.name)?.choices.clone();
        let rows = trace.copies.get(&copy.name).ok_or(format!("no table for {}", copy.name))?;
        for row in rows.iter().take(n) {
            let values = copy
                .vars
                .iter()
                .map(|v| {
                    let name = &tuple.var(*v).name;
                    row.get(name).cloned().ok_or(format!("no value of {}.{name}", copy.name))
                })
                .collect::<Result<Vec<Value>, String>>()?;
            observed[c].push(values);
        }
    }
    let mut last = Err("no unrolling bound tried".to_string());
    for unroll in super::UNROLLS {
        let cand = Candidate {
            n,
            unroll,
            init: init.clone(),
            choices: choices.clone(),
            observed: observed.clone(),
        };
        last = replay(tuple, &cand, cancel);
        if last.is_ok() || cancel.is_cancelled() {
            break;
        }
    }
    last
}
