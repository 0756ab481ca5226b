//! The merged executor of [`super`]: loop-free branches run on one state, their
//! results joined as `ite` terms, so that one query covers the paths (used when the
//! static path estimate is large, or when an unmerged round ran out of paths).

use super::*;

/// Static estimate of a block's paths (saturating): sequences multiply, branches add, a
/// loop counts as its body's paths plus the exit (one unrolling).
pub fn path_estimate(block: &[Stmt]) -> u64 {
    block.iter().fold(1u64, |acc, s| {
        let here = match s {
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                path_estimate(then_branch).saturating_add(path_estimate(else_branch))
            }
            Stmt::While { body, .. } => path_estimate(body).saturating_add(1),
            _ => 1,
        };
        acc.saturating_mul(here)
    })
}

/// Paths (estimated, product over `copies`) beyond which loop-free branches are merged.
/// Below it, enumeration is kept: per-path queries are small and prune early, which is
/// what small programs are fastest with.
pub const MERGE_ABOVE_PATHS: u64 = 256;

/// Whether exploring `copies` of `tuple` should merge loop-free branches
/// ([`Ctx::merge`]): when their paths, estimated statically, are many.
pub fn should_merge(tuple: &Tuple, copies: &[usize]) -> bool {
    copies.iter().fold(1u64, |acc, &c| acc.saturating_mul(path_estimate(&tuple.copies[c].body)))
        > MERGE_ABOVE_PATHS
}

/// Runs the loop-free `block` of `copy` on `path` merged: both branches of every `if`
/// from the same state, their results joined as `ite` terms on the condition (so the
/// terms form a DAG linear in the block's size). Choices are logged as
/// [`SymChoice::Merged`] with the condition under which they are made. Returns the
/// block's assumptions, each as `reached ⇒ condition`, which the caller adds to the path.
pub(super) fn merged_block(tuple: &Tuple, block: &[Stmt], copy: usize, path: &mut Path) -> Merged {
    let mut out = Merged::default();
    let env = path.env.clone();
    path.env = merged(tuple, block, copy, env, &Bool::from_bool(true), path, &mut out);
    out
}

/// What a merged region adds to its path besides the new state. (Its joins are `ite`
/// terms over the shared DAG; naming each join's value with a fresh constant made both
/// of Z3's kernels slower on the scale families.)
#[derive(Default)]
pub(super) struct Merged {
    /// The region's `assume`s, each as `reached ⇒ condition`.
    pub(super) assumed: Vec<Bool>,
}

fn merged(
    tuple: &Tuple,
    block: &[Stmt],
    copy: usize,
    mut env: Env,
    reached: &Bool,
    path: &mut Path,
    out: &mut Merged,
) -> Env {
    let exists_side = tuple.copies[copy].quantifier == Quantifier::Exists;
    for s in block {
        match s {
            Stmt::Skip | Stmt::Observe { .. } => {}
            // `super::explore` merges no region that holds a cut.
            Stmt::Cut { .. } => unreachable!("a merged region holds no cut"),
            // Not simplified: a merged term is a DAG that Z3's simplifier would walk
            // whole at every assignment.
            Stmt::Assign { var, value, .. } => {
                let t = encode(value, &lookup(&env));
                env.insert(*var, t);
            }
            Stmt::Store { array, index, value, .. } => {
                let stored: Dynamic = {
                    let l = lookup(&env);
                    let a: Array = l(*array).as_array().expect("checked IR: array store");
                    a.store(&encode(index, &l), &encode(value, &l)).into()
                };
                env.insert(*array, stored);
            }
            Stmt::Havoc { var, .. } => {
                let ty = tuple.var(*var).ty.clone();
                let c = fresh(&format!("{}!", tuple.var_display(*var)), &ty);
                log_choice(path, copy, exists_side, &c, ty, reached);
                env.insert(*var, c);
            }
            Stmt::Assume { cond, .. } => {
                let c = encode_bool(cond, &lookup(&env)).simplify();
                if c.as_bool() != Some(true) {
                    out.assumed.push(match reached.as_bool() {
                        Some(true) => c,
                        _ => reached.implies(&c),
                    });
                }
            }
            Stmt::If { cond, then_branch, else_branch, .. } => {
                let c = encode_bool(cond, &lookup(&env)).simplify();
                env = merged_if(tuple, &c, then_branch, else_branch, copy, env, reached, path, out);
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                let c = fresh("if*", &Type::Bool);
                log_choice(path, copy, exists_side, &c, Type::Bool, reached);
                let c = c.as_bool().expect("a Boolean constant");
                env = merged_if(tuple, &c, then_branch, else_branch, copy, env, reached, path, out);
            }
            Stmt::While { .. } => unreachable!("merged blocks are loop-free"),
        }
    }
    env
}

#[allow(clippy::too_many_arguments)]
fn merged_if(
    tuple: &Tuple,
    c: &Bool,
    then_branch: &[Stmt],
    else_branch: &[Stmt],
    copy: usize,
    env: Env,
    reached: &Bool,
    path: &mut Path,
    out: &mut Merged,
) -> Env {
    if let Some(b) = c.as_bool() {
        let taken = if b { then_branch } else { else_branch };
        return merged(tuple, taken, copy, env, reached, path, out);
    }
    let under = |extra: Bool| match reached.as_bool() {
        Some(true) => extra,
        _ => Bool::and(&[reached, &extra]),
    };
    let then_env = merged(tuple, then_branch, copy, env.clone(), &under(c.clone()), path, out);
    let else_env = merged(tuple, else_branch, copy, env.clone(), &under(c.not()), path, out);
    let mut changed = BTreeSet::new();
    modified_vars(then_branch, &mut changed);
    modified_vars(else_branch, &mut changed);
    let mut joined = env;
    for v in changed {
        let (t, e) = (&then_env[&v], &else_env[&v]);
        joined.insert(v, if t == e { t.clone() } else { c.ite(t, e) });
    }
    joined
}

/// Logs a merged region's choice: a ∀ copy's as a [`SymChoice::Merged`], an ∃ copy's as
/// one more constant the ∃ side quantifies.
fn log_choice(
    path: &mut Path,
    copy: usize,
    exists_side: bool,
    c: &Dynamic,
    ty: Type,
    taken: &Bool,
) {
    if exists_side {
        path.exists_fresh.push(c.clone());
    } else {
        path.choices.push((copy, SymChoice::Merged { value: c.clone(), ty, taken: taken.clone() }));
    }
}
