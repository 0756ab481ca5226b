//! The obligations of a `violated` certificate: with the ∀ runs of the counterexample
//! fixed (their final values and the ∃ copies' initial values, as concrete constants),
//! "no run of the ∃ copies satisfies post" as one SMT-LIB script whose ∃ choices are
//! free constants, expected `unsat`; and "the initial values satisfy pre", also `unsat`
//! once negated.
//!
//! The ∃ paths come from [`crate::symex`] without solver pruning (its checks get no
//! resources, so every branch is kept and the script covers every path), without loop
//! summaries, and with loops unrolled until no path is cut; when some ∃ loop could run
//! past the largest bound the obligation is not written and the certificate says why.

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::smt::encode::{encode_bool, value_term};
use crate::smt::query::free_constants;
use crate::smt::record::smt_text;

use crate::symex::{explore, Ctx, End, Env, Flow, Path};
use crate::verdict::{Counterexample, RecordedObligation};
use z3::ast::{Ast, Bool, Dynamic};

/// Largest loop bound tried for the ∃ copies.
const MAX_BOUND: u32 = 256;

/// The scripts of a violated tuple, or why one could not be written.
pub fn obligations(tuple: &Tuple, cex: &Counterexample) -> (Vec<RecordedObligation>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    if tuple.is_reactive() {
        match crate::observation::sequential::as_post_tuple(tuple) {
            Some(post) => return obligations(&post, cex),
            None => return temporal_obligations(tuple, cex),
        }
    }
    let state = match cex.end_state(tuple).or_else(|e| observed_end_state(tuple, cex).ok_or(e)) {
        Ok(s) => s,
        Err(e) => {
            missing.push(format!("the counterexample is incomplete: {e}"));
            return (out, missing);
        }
    };
    match pre_obligation(tuple, cex) {
        Ok((_, o)) => out.push(o),
        Err(why) => {
            missing.push(why);
            return (out, missing);
        }
    }
    let env: Env =
        (0..state.len()).map(|i| (crate::ir::VarId(i as u32), value_term(&state[i]))).collect();
    // Past the largest bound, the ∃ copies as one observation at their end, with loops
    // summarised where needed (`no_exists_prefix`).
    let any_run = no_exists_run(tuple, &env).or_else(|why| {
        let init: Vec<Dynamic> = state.iter().map(value_term).collect();
        let finals: Vec<Vec<Vec<Dynamic>>> = tuple
            .copies
            .iter()
            .map(|c| vec![c.vars.iter().map(|v| init[v.index()].clone()).collect()])
            .collect();
        no_exists_prefix(tuple, &init, &finals, 1).map_err(|_| why)
    });
    match any_run {
        Ok(any_run) => {
            let step = "no ∃ run matches the ∀ runs";
            out.push(RecordedObligation {
                step: step.into(),
                script: script(step, &any_run),
                quantified: false,
            });
        }
        Err(why) => missing.push(why),
    }
    (out, missing)
}

/// The counterexample's initial values as terms, and the script "they satisfy pre";
/// why not, when the counterexample lacks some.
fn pre_obligation(
    tuple: &Tuple,
    cex: &Counterexample,
) -> Result<(Vec<Dynamic>, RecordedObligation), String> {
    let initial =
        cex.initial_state(tuple).map_err(|e| format!("the counterexample is incomplete: {e}"))?;
    let init: Vec<Dynamic> = initial.iter().map(value_term).collect();
    let pre = encode_bool(&tuple.pre, &|v| init[v.index()].clone());
    let step = "the counterexample's initial values satisfy pre";
    let script = script(step, &pre.not());
    Ok((init, RecordedObligation { step: step.into(), script, quantified: false }))
}

/// Largest unrolling bound tried for the ∃ copies of a temporal counterexample.
const MAX_TEMPORAL_UNROLL: u32 = 64;

/// The scripts of a violated temporal tuple: its initial values satisfy `pre`, and with
/// the ∀ copies' observations 1..n fixed, no ∃ prefix of n observations satisfies φ at
/// every index. The ∃ copies are encoded exactly (no loop summaries), their choices free
/// constants, and "still looping past the bound" is part of the claim, so the script is
/// written only at a bound where no ∃ run can still be looping.
fn temporal_obligations(
    tuple: &Tuple,
    cex: &Counterexample,
) -> (Vec<RecordedObligation>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    let Some(obs) = cex.observations.as_ref() else {
        missing.push("the temporal counterexample has no observations".into());
        return (out, missing);
    };
    let init = match pre_obligation(tuple, cex) {
        Ok((init, o)) => {
            out.push(o);
            init
        }
        Err(why) => {
            missing.push(why);
            return (out, missing);
        }
    };
    let n = obs.failing_index as usize;
    let mut forall_obs: Vec<Vec<Vec<Dynamic>>> = vec![Vec::new(); tuple.copies.len()];
    for (c, copy) in tuple.copies.iter().enumerate() {
        if copy.quantifier != crate::ir::Quantifier::Forall {
            continue;
        }
        for i in 0..n {
            let row = obs.copies.get(&copy.name).and_then(|rows| rows.get(i));
            let values: Option<Vec<Dynamic>> = copy
                .vars
                .iter()
                .map(|v| row.and_then(|r| r.get(&tuple.var(*v).name)).map(value_term))
                .collect();
            let Some(values) = values else {
                missing.push(format!(
                    "the counterexample lacks observation {} of copy `{}`",
                    i + 1,
                    copy.name
                ));
                return (out, missing);
            };
            forall_obs[c].push(values);
        }
    }
    match no_exists_prefix(tuple, &init, &forall_obs, n) {
        Ok(witness) => {
            let step = "no ∃ prefix matches the ∀ copies' observations";
            out.push(RecordedObligation {
                step: step.into(),
                script: script(step, &witness),
                quantified: false,
            });
        }
        Err(why) => missing.push(why),
    }
    (out, missing)
}

/// "Some ∃ prefix of n observations from `init` satisfies φ at every index against the
/// ∀ copies' observations `forall_obs` (per copy, per index, in `Copy::vars` order)",
/// built from the ∃ copies' encoding itself (not Z3's simplification of it). First
/// exact, at growing bounds until no ∃ run can still be looping; failing that, with
/// every loop past the bound summarised by its last iteration from any state satisfying
/// its guard (over-approximate, resting on no fact forex proved), written only when Z3
/// finds it unsatisfiable (a satisfiable script would be a false alarm).
fn no_exists_prefix(
    tuple: &Tuple,
    init: &[Dynamic],
    forall_obs: &[Vec<Vec<Dynamic>>],
    n: usize,
) -> Result<Bool, String> {
    use crate::refute::temporal::symex::{encode_copy_certified, Part, PastBound};
    let encode = |unroll: u32, past: PastBound| -> (Bool, Bool) {
        let enc: Vec<_> = (0..tuple.copies.len())
            .map(|c| match tuple.copies[c].quantifier {
                crate::ir::Quantifier::Exists => {
                    encode_copy_certified(tuple, c, init, n, unroll, past)
                }
                crate::ir::Quantifier::Forall => crate::refute::temporal::prefix::placeholder(),
            })
            .collect();
        let residuals: Vec<Bool> =
            tuple.exists_copies().map(|(c, _)| enc[c].residual.clone()).collect();
        let dones: Option<Vec<(usize, &Part)>> =
            tuple.exists_copies().map(|(c, _)| Some((c, enc[c].done.as_ref()?))).collect();
        let witness = match dones {
            Some(parts) => {
                let mut conj: Vec<Bool> = parts.iter().map(|(_, p)| p.guard.clone()).collect();
                conj.push(crate::refute::temporal::prefix::phi_all(tuple, n, &|c, i| match parts
                    .iter()
                    .find(|(k, _)| *k == c)
                {
                    Some((_, p)) => p.obs[i].clone(),
                    None => forall_obs[c][i].clone(),
                }));
                Bool::and(&conj)
            }
            // Some ∃ copy cannot reach observation n at all.
            None => Bool::from_bool(false),
        };
        (witness, Bool::or(&residuals))
    };
    let mut unroll = 1;
    loop {
        let (witness, residual) = encode(unroll, PastBound::Residual);
        if residual.simplify().as_bool() == Some(false) {
            return Ok(witness);
        }
        if unroll >= MAX_TEMPORAL_UNROLL {
            break;
        }
        unroll *= 2;
    }
    for unroll in [1, 2, 4, 8] {
        let (witness, residual) = encode(unroll, PastBound::SummaryWithoutFacts);
        let claim = Bool::or(&[witness, residual]);
        let solver = crate::smt::session::solver();
        solver.assert(&claim);
        if solver.check() == z3::SatResult::Unsat {
            return Ok(claim);
        }
    }
    Err(format!(
        "an ∃ copy may still be looping after {MAX_TEMPORAL_UNROLL} iterations before \
         observation {n}, and summarising its loops by their last iteration does not rule \
         out a match: the script would not cover every ∃ prefix"
    ))
}

/// For a sequential temporal tuple (one observation, at the end), the state `end_state`
/// means: the ∀ copies' observed values and the ∃ copies' initial ones.
fn observed_end_state(tuple: &Tuple, cex: &Counterexample) -> Option<Vec<crate::value::Value>> {
    let obs = cex.observations.as_ref()?;
    if obs.failing_index != 1 {
        return None;
    }
    let mut state = cex.initial_state(tuple).ok()?;
    for (i, tv) in tuple.vars.iter().enumerate() {
        let copy = &tuple.copies[tv.copy];
        if copy.quantifier == crate::ir::Quantifier::Forall {
            state[i] = obs.copies.get(&copy.name)?.first()?.get(&tv.name)?.clone();
        }
    }
    Some(state)
}

/// "Some ∃ run from these values satisfies post": the disjunction over every ∃ path.
fn no_exists_run(tuple: &Tuple, env: &Env) -> Result<Bool, String> {
    let exists: Vec<usize> = tuple.exists_copies().map(|(i, _)| i).collect();
    let cancel = Cancel::new();
    let mut bound = 1;
    loop {
        let Some(solver) = crate::smt::incremental::IncrementalSolver::new() else {
            return Err("no SMT solver could be made".to_string());
        };
        // No resources: every feasibility check answers unknown, so no branch is pruned.
        solver.set_rlimit(1);
        let limits = crate::refute::RefuteOptions::default().limits();
        let mut ctx = Ctx::new(&solver, &cancel, bound, limits);
        let mut cut = None;
        let mut disjuncts = Vec::new();
        let start = Path { env: env.clone(), ..Path::default() };
        explore(&mut ctx, tuple, &exists, start, &mut |_, path, end| {
            match end {
                End::Exceeded { copy, loc } => {
                    cut.get_or_insert((copy, loc));
                }
                End::Finished => {
                    let post = encode_bool(&tuple.post, &|v| path.env[&v].clone());
                    let mut parts = path.pc.clone();
                    parts.push(post);
                    disjuncts.push(Bool::and(&parts));
                }
            }
            Flow::Continue
        });
        if ctx.too_many_paths {
            return Err(format!(
                "the ∃ copies have more than {} paths at loop bound {bound}: no script written",
                ctx.max_paths
            ));
        }
        match cut {
            None => return Ok(Bool::or(&disjuncts)),
            Some((copy, loc)) if bound >= MAX_BOUND => {
                return Err(format!(
                    "the loop at {}:{} of ∃ copy `{}` may run more than {bound} times: the \
                     script would not cover every ∃ run",
                    tuple.copy_file(copy),
                    loc,
                    tuple.copies[copy].name
                ))
            }
            Some(_) => bound *= 2,
        }
    }
}

/// A script asserting `goal` with its free constants declared (expected `unsat`).
fn script(step: &str, goal: &Bool) -> String {
    let mut text = format!("; forex obligation: {step}\n; expected: unsat\n(set-logic ALL)\n");
    let (consts, _) = free_constants(goal);
    let goal = &crate::smt::record::without_empty_connectives(goal, &consts);
    for c in consts.into_iter().filter(crate::smt::record::declarable) {
        text.push_str(&format!("(declare-fun {} () {})\n", c, c.get_sort()));
    }
    text.push_str(&format!("(assert {})\n(check-sat)\n", smt_text(goal)));
    text
}
