//! One round of the refutation search at a fixed loop bound, and turning a model into a
//! [`Counterexample`].

use super::exists::{no_exists_run_formula, no_run_text, unknown_reason};
use super::{var_name, RefuteOptions, Round};

use crate::symex::{explore, Ctx, End, Env, Flow, Path, SymChoice};

/// Undecided ∀-path queries after which a round gives up.
const MAX_UNKNOWNS: u32 = 3;
use crate::cancel::Cancel;
use crate::ir::{Quantifier, Tuple, VarId};
use crate::smt::encode::{encode_bool, fresh, term_value};
use crate::smt::incremental::Eval;
use crate::value::Value;
use crate::verdict::{CopyRun, Counterexample, Stats};
use std::collections::BTreeMap;
use z3::ast::{Ast, Dynamic};
use z3::SatResult;

/// Explores every ∀ path at loop bound `bound` and asks, per path, for a counterexample;
/// `merge_all`: every loop-free branch merged, whatever the static path estimate.
pub(super) fn round(
    tuple: &Tuple,
    bound: u32,
    opts: &RefuteOptions,
    merge_all: bool,
    cancel: &Cancel,
    stats: &mut Stats,
) -> Round {
    let Some(solver) = crate::smt::incremental::IncrementalSolver::new() else {
        return Round::Unreadable("Z3 could not make a solver (out of memory?)".into());
    };
    let initial: Env = (0..tuple.vars.len() as u32)
        .map(|i| {
            let v = VarId(i);
            (v, fresh(&format!("{}@0", tuple.var_display(v)), &tuple.var(v).ty))
        })
        .collect();
    solver.assert(encode_bool(&tuple.pre, &|v| initial[&v].clone()));
    let forall: Vec<usize> = tuple.forall_copies().map(|(i, _)| i).collect();
    let exists: Vec<usize> = tuple.exists_copies().map(|(i, _)| i).collect();
    let mut ctx = Ctx::new(&solver, cancel, bound, opts.limits());
    ctx.summarise_exists = true;
    let all: Vec<usize> = (0..tuple.copies.len()).collect();
    ctx.merge = merge_all || crate::symex::should_merge(tuple, &all);
    // Flat sequential branches: the query Z3's `smt` tactic is fast on (`check_merged`).
    let flat = !tuple.copies.iter().any(|c| crate::symex::has_nested_branch(&c.body));
    let mut bound_hit = false;
    let mut uncovered = false;
    let mut forall_paths = 0;
    let mut unknown = None;
    let mut unknowns = 0;
    let mut found: Option<Result<Counterexample, String>> = None;
    let start = Path { env: initial.clone(), ..Path::default() };
    explore(&mut ctx, tuple, &forall, start, &mut |ctx, path, end| {
        if let End::Exceeded { .. } = end {
            bound_hit = true;
            return Flow::Continue;
        }
        forall_paths += 1;
        // `witness`: when the ∃ side is incomplete, the exact ∃ runs that must cover this
        // ∀ path for an exhaustive proof.
        let (no_run, witness) = if exists.is_empty() {
            (encode_bool(&tuple.post, &|v| path.env[&v].clone()).not(), None)
        } else {
            let Some(f) = no_exists_run_formula(ctx, tuple, &exists, path) else {
                return Flow::Stop;
            };
            (f.formula, f.incomplete.then_some(f.witness))
        };
        ctx.solver.push();
        ctx.solver.assert(&no_run);
        let (answer, model) = if ctx.merge {
            ctx.check_merged(flat)
        } else {
            let r = ctx.check(&[]);
            (r, None)
        };
        let flow = match answer {
            SatResult::Sat => {
                let model = model.or_else(|| ctx.model());
                found = Some(match model {
                    Some(model) => build(tuple, &model, &initial, path, bound),
                    None => Err("the solver answered sat without a model".into()),
                });
                Flow::Stop
            }
            SatResult::Unsat => {
                // No counterexample here; is this ∀ path also covered by exact ∃ runs?
                // Only worth asking while the round can still be exhaustive.
                if let Some(w) = witness.filter(|_| !bound_hit && !uncovered && unknown.is_none()) {
                    ctx.solver.pop(1);
                    ctx.solver.push();
                    ctx.solver.assert(w.not());
                    if ctx.check(&[]) != SatResult::Unsat {
                        uncovered = true;
                    }
                }
                Flow::Continue
            }
            SatResult::Unknown => {
                unknowns += 1;
                if !ctx.stopped() {
                    unknown.get_or_insert_with(|| unknown_reason(ctx));
                }
                // Undecided queries tend to come in crowds: stop paying for them.
                if ctx.stopped() || unknowns >= MAX_UNKNOWNS {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            }
        };
        ctx.solver.pop(1);
        flow
    });
    stats.queries += ctx.queries;
    stats.paths += ctx.paths;
    match found {
        Some(Ok(cex)) => Round::Found(Box::new(cex)),
        Some(Err(why)) => Round::Unreadable(why),
        None if ctx.cancelled => Round::Cancelled,
        None if ctx.too_many_paths => Round::TooManyPaths,
        None => Round::None { bound_hit, uncovered, unknown, forall_paths },
    }
}

fn value_of(
    model: &impl Eval,
    t: &Dynamic,
    ty: &crate::ir::Type,
    what: &str,
) -> Result<Value, String> {
    let e =
        model.value_of(t).ok_or_else(|| format!("the solver's model has no value for {what}"))?;
    term_value(&e.simplify(), ty).ok_or_else(|| {
        format!("cannot read a concrete value for {what} from the solver's model ({e})")
    })
}

/// The counterexample a model describes for ∀ path `path`.
fn build(
    tuple: &Tuple,
    model: &impl Eval,
    initial: &Env,
    path: &Path,
    bound: u32,
) -> Result<Counterexample, String> {
    let mut copies = Vec::new();
    for (ci, copy) in tuple.copies.iter().enumerate() {
        let forall = copy.quantifier == Quantifier::Forall;
        let mut init = BTreeMap::new();
        let mut fin = BTreeMap::new();
        for &v in &copy.vars {
            let ty = &tuple.var(v).ty;
            let what = format!("the initial value of {}", tuple.var_display(v));
            init.insert(var_name(tuple, v), value_of(model, &initial[&v], ty, &what)?);
            if forall {
                let what = format!("the final value of {}", tuple.var_display(v));
                fin.insert(var_name(tuple, v), value_of(model, &path.env[&v], ty, &what)?);
            }
        }
        let mut choices = Vec::new();
        for (c, choice) in &path.choices {
            if *c != ci {
                continue;
            }
            let what = format!("a choice of copy {}", copy.name);
            choices.push(match choice {
                SymChoice::Branch(b) => Value::bool(*b),
                SymChoice::Value(t, ty) => value_of(model, t, ty, &what)?,
                // Made only on the runs where `taken` holds: the model's run keeps it or not.
                SymChoice::Merged { value, ty, taken } => {
                    match value_of(model, &taken.clone().into(), &crate::ir::Type::Bool, &what)? {
                        v if v == Value::bool(true) => value_of(model, value, ty, &what)?,
                        _ => continue,
                    }
                }
            });
        }
        copies.push(CopyRun {
            copy: copy.name.clone(),
            program: copy.program.clone(),
            quantifier: copy.quantifier,
            initial: init,
            choices,
            final_state: forall.then_some(fin),
        });
    }
    let mut cex = Counterexample {
        copies,
        explanation: no_run_text(tuple, bound),
        violated_conjunct: None,
        c_types: None,
        observations: None,
    };
    cex.violated_conjunct = name_violated_conjunct(tuple, &cex);
    Ok(cex)
}

/// A post conjunct that no ∃ run can satisfy (for k-safety: one that is false), in
/// `.fe` syntax; `None` when no single conjunct is to blame.
fn name_violated_conjunct(tuple: &Tuple, cex: &Counterexample) -> Option<String> {
    let state = cex.end_state(tuple).ok()?;
    let cancel = Cancel::new().with_timeout(std::time::Duration::from_secs(2));
    tuple.post.conjuncts().into_iter().find_map(|conj| {
        match super::exists::exists_run_with(tuple, conj, &state, 16, &cancel) {
            super::exists::ExistsAnswer::NoRun { .. } => {
                Some(crate::pretty::conjunct_text(tuple, conj))
            }
            _ => None,
        }
    })
}
