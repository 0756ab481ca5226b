//! Does some run of the ∃ copies match given ∀ outcomes? Used by the refuter (with
//! symbolic ∀ outcomes, as one formula per ∀ path), by its replay and by hypertesting of
//! ∀∃ tuples (with concrete values).
//!
//! Both uses rest on the same fact: the ∃ copies' paths explored up to a loop bound k,
//! with every ∃ loop that could run longer continued through a sound summary
//! ([`crate::symex`]), cover every terminating run; so "no explored path satisfies post"
//! means "no terminating run does". Only exact (unsummarised) paths count as witnesses.

use crate::cancel::Cancel;
use crate::ir::{Expr, Tuple};
use crate::smt::encode::{encode_bool, value_term};
use crate::symex::{and_all, exists_over, explore, Ctx, End, Env, Flow, Path};
use crate::value::Value;
use z3::ast::{Ast, Bool};
use z3::SatResult;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExistsAnswer {
    /// Some terminating runs of the ∃ copies satisfy `post`.
    Witness,
    /// Proved: no terminating run of the ∃ copies satisfies `post` (every terminating
    /// run was covered by the bound).
    NoRun { explanation: String },
    /// Could not decide (bound too small for a complete answer, solver unknown, timeout).
    Unknown { reason: String },
}

/// Largest loop bound [`exists_run`] tries. With concrete initial values, deterministic
/// ∃ loops do not branch, so a large bound is cheap.
pub const EXISTS_MAX_BOUND: u32 = 256;

/// `state` holds, for every tuple variable, the final value of a ∀ copy's variable and
/// the initial value of an ∃ copy's variable. Decides whether the ∃ copies have
/// terminating runs from those initial values whose final states, together with the ∀
/// final states, satisfy the tuple's `post`.
pub fn exists_run(tuple: &Tuple, state: &[Value], cancel: &Cancel) -> ExistsAnswer {
    exists_run_with(tuple, &tuple.post, state, EXISTS_MAX_BOUND, cancel)
}

/// [`exists_run`] for an arbitrary `post` (e.g. one conjunct of the tuple's) and bound.
pub fn exists_run_with(
    tuple: &Tuple,
    post: &Expr,
    state: &[Value],
    max_bound: u32,
    cancel: &Cancel,
) -> ExistsAnswer {
    if state.len() != tuple.vars.len() {
        return ExistsAnswer::Unknown {
            reason: format!(
                "the state has {} values but the tuple has {} variables",
                state.len(),
                tuple.vars.len()
            ),
        };
    }
    let exists: Vec<usize> = tuple.exists_copies().map(|(i, _)| i).collect();
    let env: Env =
        (0..state.len()).map(|i| (crate::ir::VarId(i as u32), value_term(&state[i]))).collect();
    let mut last_undecided = None;
    let mut rounds = super::rounds::Rounds::new(bound_schedule(max_bound).into_iter());
    while let Some((bound, merge_all)) = rounds.next_round() {
        let Some(solver) = crate::smt::incremental::IncrementalSolver::new() else {
            return ExistsAnswer::Unknown { reason: "Z3 could not make a solver".into() };
        };
        let mut ctx = Ctx::new(&solver, cancel, bound, super::RefuteOptions::default().limits());
        ctx.summarise_exists = true;
        ctx.merge = merge_all || crate::symex::should_merge(tuple, &exists);
        let mut witness = false;
        // Some summarised path may satisfy post: a larger bound may decide it.
        let mut maybe = false;
        let mut unknown = None;
        let mut exceeded = None;
        let start = Path { env: env.clone(), ..Path::default() };
        explore(&mut ctx, tuple, &exists, start, &mut |ctx, path, end| match end {
            End::Exceeded { copy, loc } => {
                exceeded.get_or_insert((copy, loc));
                Flow::Continue
            }
            End::Finished => {
                let q = encode_bool(post, &|v| path.env[&v].clone()).simplify();
                // With concrete values and no ∃ choices, post is decided without a solver.
                let decided = match q.as_bool() {
                    Some(b) if path.pc.is_empty() => {
                        if b {
                            SatResult::Sat
                        } else {
                            SatResult::Unsat
                        }
                    }
                    _ => ctx.check(&[q]),
                };
                match decided {
                    SatResult::Sat if path.approximate => {
                        maybe = true;
                        Flow::Continue
                    }
                    SatResult::Sat => {
                        witness = true;
                        Flow::Stop
                    }
                    SatResult::Unsat => Flow::Continue,
                    SatResult::Unknown if path.approximate && !ctx.stopped() => {
                        maybe = true;
                        Flow::Continue
                    }
                    SatResult::Unknown => {
                        unknown.get_or_insert_with(|| unknown_reason(ctx));
                        Flow::Continue
                    }
                }
            }
        });
        if witness {
            return ExistsAnswer::Witness;
        }
        if ctx.cancelled {
            return ExistsAnswer::Unknown {
                reason: "the ∃-run check was cancelled or timed out".into(),
            };
        }
        if ctx.too_many_paths && rounds.out_of_paths(bound) {
            continue;
        }
        if ctx.too_many_paths {
            return ExistsAnswer::Unknown {
                reason: format!(
                    "the ∃ copies have more than {} paths with loops unrolled {bound} times",
                    ctx.max_paths
                ),
            };
        }
        if let Some(reason) = unknown {
            return ExistsAnswer::Unknown {
                reason: format!("the solver could not decide an ∃ path: {reason}"),
            };
        }
        match exceeded {
            None if !maybe => {
                return ExistsAnswer::NoRun { explanation: no_run_text(tuple, bound) };
            }
            None => last_undecided = Some((None, bound)),
            Some(e) => last_undecided = Some((Some(e), bound)),
        }
    }
    let (exceeded, bound) = last_undecided.expect("at least one bound is tried");
    let reason = match exceeded {
        Some((copy, loc)) => format!(
            "the loop at {}:{} of ∃ copy `{}` may run more than {} times, so not every ∃ run \
             was checked",
            tuple.file, loc, tuple.copies[copy].name, bound
        ),
        None => format!(
            "no ∃ run within {bound} iterations per loop satisfies post, but the summary of \
             longer runs does not rule them out"
        ),
    };
    ExistsAnswer::Unknown { reason }
}

/// The loop bounds tried, growing: 1, 2, 4, … up to `max` (included).
pub fn bound_schedule(max: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut k = 1;
    while k < max {
        out.push(k);
        k *= 2;
    }
    out.push(max);
    out
}

pub(crate) fn unknown_reason(ctx: &Ctx) -> String {
    if ctx.cancelled {
        "cancelled or timed out".into()
    } else {
        ctx.solver.reason_unknown()
    }
}

/// The human statement behind `NoRun`.
pub(crate) fn no_run_text(tuple: &Tuple, bound: u32) -> String {
    let names: Vec<&str> = tuple.exists_copies().map(|(_, c)| c.name.as_str()).collect();
    if names.is_empty() {
        return "the final states of the ∀ copies violate post".into();
    }
    let loops = tuple.exists_copies().any(|(_, c)| crate::ir::has_loop(&c.body));
    let bound_note = if loops {
        format!(
            " (runs of at most {bound} iterations per loop were checked exactly, longer ones \
             through a sound loop summary)"
        )
    } else {
        String::new()
    };
    format!(
        "no terminating run of the ∃ {} {} from these initial values satisfies post{}",
        if names.len() == 1 { "copy" } else { "copies" },
        names.join(", "),
        bound_note
    )
}

/// The symbolic counterpart used by the refuter: for a ∀ path ending in `forall_end`
/// (whose condition is on `ctx`'s solver), the formula "no terminating ∃ run satisfies
/// `post`", over every explored ∃ path (exact or summarised; a path that ends at the
/// bound counts as a possible witness), and the formula "some exact ∃ run satisfies
/// `post`" (real witnesses, for exhaustive proofs).
pub(crate) struct NoRunFormula {
    pub formula: Bool,
    /// Some exact terminating ∃ path satisfies `post` (a disjunction over them).
    pub witness: Bool,
    /// Some ∃ path ended at the bound or went through a summary: `witness` may miss
    /// runs, and a larger bound might find more.
    pub incomplete: bool,
}

pub(crate) fn no_exists_run_formula(
    ctx: &mut Ctx,
    tuple: &Tuple,
    exists: &[usize],
    forall_end: &Path,
) -> Option<NoRunFormula> {
    let mut some_run = Vec::new();
    let mut exact = Vec::new();
    let mut incomplete = false;
    let start = Path { env: forall_end.env.clone(), ..Path::default() };
    let flow = explore(ctx, tuple, exists, start, &mut |_, path, end| {
        let mut body = path.pc.clone();
        if end == End::Finished {
            body.push(encode_bool(&tuple.post, &|v| path.env[&v].clone()));
        }
        incomplete |= end != End::Finished || path.approximate;
        let run = exists_over(&path.exists_fresh, &and_all(&body));
        if end == End::Finished && !path.approximate {
            exact.push(run.clone());
        }
        some_run.push(run);
        Flow::Continue
    });
    if flow == Flow::Stop || ctx.stopped() {
        return None;
    }
    let any = |runs: &[Bool]| match runs.len() {
        0 => Bool::from_bool(false),
        1 => runs[0].clone(),
        _ => Bool::or(runs),
    };
    Some(NoRunFormula { formula: any(&some_run).not(), witness: any(&exact), incomplete })
}
