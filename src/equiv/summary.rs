//! The mutual-summary tuple of a pair of recursive C functions (Godlin–Strichman; the
//! argument for soundness is in `c::lower::summary`): the pair's tuple over the versions'
//! summary lowerings, whose recursive calls read one table `T`, with `pre` also saying
//! `old.T == new.T` and `post` also saying that every call new made, old made with equal
//! arguments. It is proof-only: a counterexample to it is one for some `T`, not for the
//! programs, so only its `verified` means anything.

use super::{EquivOptions, NamePair};
use crate::frontend::Version;
use crate::ir::c::Summary;
use crate::ir::{BinOp, Expr, Tuple};

/// The summary tuples of pair `name`, each with how its proof pairs the calls (reports
/// show it): the plain one, then the one with old's calls unfolded once (slower to prove;
/// it also pairs base cases that differ by one call). `None`: neither version's function
/// is recursive; `Err`: why the pair has no summary.
pub type Summaries = Option<Result<Vec<(Tuple, String)>, String>>;

/// What the summary tuples of pair `name` are, for reasons.
pub fn what(name: &str) -> String {
    format!("mutual summary of {name}")
}

pub(super) fn tuples(
    old: &Version,
    new: &Version,
    name: &NamePair,
    opts: &EquivOptions,
) -> Summaries {
    let (io, inew) = (old.module.c.as_ref()?, new.module.c.as_ref()?);
    let (so, sn) = (io.summaries.get(&name.old), inew.summaries.get(&name.new));
    let (so, sn) = match (so, sn) {
        (None, None) => return None,
        (Some(Err(why)), _) | (_, Some(Err(why))) => return Some(Err(why.clone())),
        (Some(Ok(a)), Some(Ok(b))) => (a, b),
        (Some(_), None) | (None, Some(_)) => {
            return Some(Err(format!("`{}` calls itself in one version only", name.display())))
        }
    };
    if opts.refines || opts.inputs.is_some() || opts.outputs.is_some() {
        return Some(Err("--refines, --in and --out pairs are not summarised".into()));
    }
    let how = format!("{}: recursive calls paired by equal arguments", what(&name.display()));
    let mut out = match build(old, so, new, sn, name, opts) {
        Ok(t) => vec![(t, how.clone())],
        Err(e) => return Some(Err(e)),
    };
    // Old's calls unfolded once, when that lowers: it proves all the plain one does (the
    // same sites, each call's result the table's by its `assume`) and base cases that
    // differ by one call, but its obligations are larger.
    if let Some(unfolded) = &so.unfolded {
        if let Ok(t) = build(old, unfolded, new, sn, name, opts) {
            out.push((t, format!("{how}, old's calls unfolded once")));
        }
    }
    Some(Ok(out))
}

fn build(
    old: &Version,
    so: &Summary,
    new: &Version,
    sn: &Summary,
    name: &NamePair,
    opts: &EquivOptions,
) -> Result<Tuple, String> {
    let mut t = super::tuple(old, &so.program, new, &sn.program, name, opts)?;
    let index = |c: &str| t.copies.iter().position(|k| k.name == c);
    let (Some(o), Some(n)) = (index("old"), index("new")) else {
        return Err("internal: no copies".into());
    };
    let var = |t: &Tuple, copy: usize, v: &str| {
        let id = t.copy_var(copy, v).ok_or_else(|| format!("internal: no `{v}`"))?;
        Ok::<Expr, String>(Expr::var(id, t.var(id).ty.clone()))
    };
    let tables = Expr::same(var(&t, o, &so.table)?, var(&t, n, &sn.table)?);
    let mut matched = Vec::new();
    for j in &sn.sites {
        let mut any = Vec::new();
        for i in &so.sites {
            let mut same = vec![var(&t, o, &i.hit)?];
            for (a, b) in i.args.iter().zip(&j.args) {
                same.push(Expr::same(var(&t, o, a)?, var(&t, n, b)?));
            }
            any.push(Expr::and_all(same));
        }
        let any = any
            .into_iter()
            .reduce(|a, b| Expr::binary(BinOp::Or, a, b))
            .unwrap_or_else(|| Expr::bool(false));
        matched.push(Expr::binary(BinOp::Implies, var(&t, n, &j.hit)?, any));
    }
    t.pre = Expr::and_all([tables, t.pre.clone()]);
    t.post = Expr::and_all(std::iter::once(t.post.clone()).chain(matched));
    Ok(t)
}
