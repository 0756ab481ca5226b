//! `forex equiv OLD NEW`: is the new version equivalent to the old one? (LANGUAGE.md,
//! "Equivalence of two versions".)
//!
//! Regression verification is a tuple like any other: for each pair of functions (or
//! `.fe` programs) this module builds `forall old: OLD's f, new: NEW's f` whose `pre` says
//! the inputs are equal and whose `post` says the outputs are (with `refines`:
//! `forall new; exists old`, every run of the new version matched by one of the old).
//! The engines then decide it as they decide any tuple; nothing here proves anything.
//!
//! Inputs and outputs come from what the versions say they are: for C (`c_interface`),
//! parameters by position (array contents, struct members, pointers' `NULL`-ness and
//! pointees), the globals both use and the tables of library functions both call; the
//! returned value, the arrays and pointees of parameters and the globals either version
//! writes. Pointer values themselves (object tags) name objects of one version each, so
//! they are compared only by whether they are `NULL`. A `.fe` program
//! has no declared interface, so its variables of the same name and type in both versions
//! are both inputs and outputs unless `--in`/`--out` say otherwise.

mod c;
mod summary;

pub use summary::what as summary_what;

use crate::frontend::Version;
use crate::ir::c::{CPointee, CView};
use crate::ir::{self, Expr, Loc, Program, Quantifier, Tuple, VarId};
use std::collections::HashSet;

/// Names in the old and the new version that correspond: `x` (the same in both) or
/// `old_name=new_name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamePair {
    pub old: String,
    pub new: String,
}

impl NamePair {
    /// `x` or `old=new`; `None` for an empty side.
    pub fn parse(text: &str) -> Option<NamePair> {
        let (old, new) = text.split_once('=').unwrap_or((text, text));
        let (old, new) = (old.trim(), new.trim());
        (!old.is_empty() && !new.is_empty())
            .then(|| NamePair { old: old.to_string(), new: new.to_string() })
    }
    /// How the report names the pair: `f`, or `old=new` when renamed.
    pub fn display(&self) -> String {
        if self.old == self.new {
            self.old.clone()
        } else {
            format!("{}={}", self.old, self.new)
        }
    }
}

/// What `forex equiv` asks.
#[derive(Clone, Debug, Default)]
pub struct EquivOptions {
    /// The functions to compare (empty: every one both versions define).
    pub functions: Vec<NamePair>,
    /// Inputs that must be equal (`None`: the default list).
    pub inputs: Option<Vec<NamePair>>,
    /// Outputs that must end equal (`None`: the default list).
    pub outputs: Option<Vec<NamePair>>,
    /// Every run of the new version matched by a run of the old (∀∃), instead of ∀∀.
    pub refines: bool,
}

/// One pair of functions: its tuple, or why it cannot be built.
#[derive(Clone, Debug)]
pub enum Pair {
    Ready {
        tuple: Box<Tuple>,
        /// For a pair of recursive functions: its mutual-summary tuples (proof-only: only
        /// their `verified` means anything; each with how its proof proves the pair,
        /// `equiv::summary`), or why it has none.
        summary: summary::Summaries,
    },
    Broken {
        /// `f` or `old=new`.
        name: String,
        /// Where the pair is (the new version's function, when it exists).
        loc: Option<Loc>,
        reason: String,
        /// The front end's diagnostics behind `reason`, to print.
        diagnostics: Vec<crate::diag::Diagnostics>,
    },
}

impl Pair {
    fn broken(name: &NamePair, loc: Option<Loc>, reason: String) -> Pair {
        Pair::Broken { name: name.display(), loc, reason, diagnostics: Vec::new() }
    }
}

/// Names of the functions (programs) a version defines, in source order.
fn defined(v: &Version) -> Vec<&str> {
    match &v.module.c {
        Some(info) => info.functions.iter().map(|f| f.name.as_str()).collect(),
        None => v.module.programs.iter().map(|p| p.name.as_str()).collect(),
    }
}

/// The pairs to compare and warnings about functions only one version has (`Err`: the
/// versions are of different languages).
pub fn pairs(
    old: &Version,
    new: &Version,
    opts: &EquivOptions,
) -> Result<(Vec<Pair>, Vec<String>), String> {
    if old.c != new.c {
        let lang = |v: &Version| if v.c { "C" } else { ".fe" };
        return Err(format!(
            "{} is {} and {} is {}: both versions must be of one language",
            old.name,
            lang(old),
            new.name,
            lang(new)
        ));
    }
    let (in_old, in_new) = (defined(old), defined(new));
    let mut warnings = Vec::new();
    let names: Vec<NamePair> = if opts.functions.is_empty() {
        for (v, other, f) in in_old
            .iter()
            .map(|f| (old, new, f))
            .chain(in_new.iter().map(|f| (new, old, f)))
            .filter(|(_, other, f)| !defined(other).contains(f))
        {
            warnings.push(format!("`{f}` is defined in {} only: not compared", v.name));
            let _ = other;
        }
        in_new
            .iter()
            .filter(|f| in_old.contains(f))
            .map(|f| NamePair { old: f.to_string(), new: f.to_string() })
            .collect()
    } else {
        opts.functions.clone()
    };
    let mut out = Vec::new();
    for name in &names {
        out.push(pair(old, new, name, opts));
    }
    Ok((out, warnings))
}

fn program<'v>(v: &'v Version, f: &str) -> Result<&'v Program, String> {
    v.module.program(f).ok_or_else(|| {
        let have = defined(v);
        let list = if have.is_empty() {
            "it defines none".to_string()
        } else {
            format!(
                "it defines {}",
                have.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
            )
        };
        let what = if v.c { "function" } else { "program" };
        format!("{} has no {what} `{f}` ({list})", v.name)
    })
}

fn pair(old: &Version, new: &Version, name: &NamePair, opts: &EquivOptions) -> Pair {
    let loc = new.module.program(&name.new).map(|p| p.loc);
    // A function the front end could not read breaks its pairs only.
    let broken: Vec<_> = [(old, &name.old), (new, &name.new)]
        .into_iter()
        .filter_map(|(v, f)| v.broken.get(f.as_str()).map(|d| (v, f, d)))
        .collect();
    if let Some((v, f, _)) = broken.first() {
        let reason = format!("`{f}` in {} has input errors", v.name);
        return Pair::Broken {
            name: name.display(),
            loc,
            reason,
            diagnostics: broken.iter().map(|(_, _, d)| (*d).clone()).collect(),
        };
    }
    let (po, pn) = match (program(old, &name.old), program(new, &name.new)) {
        (Ok(po), Ok(pn)) => (po, pn),
        (Err(e), _) | (_, Err(e)) => return Pair::broken(name, loc, e),
    };
    match tuple(old, po, new, pn, name, opts) {
        Ok(t) => {
            let summary = summary::tuples(old, new, name, opts);
            Pair::Ready { tuple: Box::new(t), summary }
        }
        Err(e) => Pair::broken(name, loc, e),
    }
}

/// The copies' indices in the tuple.
struct Copies {
    old: usize,
    new: usize,
}

/// Which copy of the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Old,
    New,
}

/// What a pair compares: `inputs` equal at the start, `outputs` equal at the end; the
/// library tables both call (`shared`, equal inputs); pointer parameters NULL in both
/// versions or in neither (`nulls`: their object tags, which name objects of one version
/// each); per copy, each pointer parameter's start (`NULL` or its own object's first
/// element); and the globals a copy's function does not use that the other writes, made
/// variables of that copy (which leaves them unchanged).
#[derive(Default)]
struct Interface {
    inputs: Vec<NamePair>,
    outputs: Vec<NamePair>,
    shared: Vec<NamePair>,
    nulls: Vec<NamePair>,
    shapes: Vec<(Side, CPointee)>,
    added: Vec<(Side, String)>,
}

fn tuple(
    old: &Version,
    po: &Program,
    new: &Version,
    pn: &Program,
    name: &NamePair,
    opts: &EquivOptions,
) -> Result<Tuple, String> {
    let iface = if old.c {
        c::interface(old, po, new, pn, name, opts)?
    } else {
        fe_interface(po, pn, opts)
    };
    // A global one version's function does not use: a variable of that copy, unchanged.
    let (mut po, mut pn) = (po.clone(), pn.clone());
    for (side, var) in &iface.added {
        let (this, other) = match side {
            Side::Old => (&mut po, &pn),
            Side::New => (&mut pn, &po),
        };
        if let Some(d) = other.var_by_name(var).map(|v| other.vars[v.index()].clone()) {
            if this.var_by_name(var).is_none() {
                this.vars.push(ir::VarDecl { loc: this.loc, ..d });
            }
        }
    }
    let (po, pn) = (&po, &pn);
    let mut t = Tuple::empty(name.display(), new.name.clone(), pn.loc);
    let ix = if opts.refines {
        let new_ix = t.add_copy("new", pn, Quantifier::Forall);
        Copies { old: t.add_copy("old", po, Quantifier::Exists), new: new_ix }
    } else {
        let old_ix = t.add_copy("old", po, Quantifier::Forall);
        Copies { old: old_ix, new: t.add_copy("new", pn, Quantifier::Forall) }
    };
    t.copies[ix.old].file = Some(old.name.clone());
    t.copies[ix.new].file = Some(new.name.clone());
    let pair_vars = |t: &Tuple, p: &NamePair, what: &str| -> Result<(Expr, Expr), String> {
        let var = |copy: usize, v: &Version, f: &str, n: &str| {
            t.copy_var(copy, n).ok_or_else(|| {
                let vars = t.copies[copy]
                    .vars
                    .iter()
                    .map(|v| t.var(*v).name.as_str())
                    .filter(|n| !n.contains(['$', ':', '#']))
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("{what} `{n}` is not a variable of `{f}` in {} (it has {vars})", v.name)
            })
        };
        let a = var(ix.old, old, &name.old, &p.old)?;
        let b = var(ix.new, new, &name.new, &p.new)?;
        let (ta, tb) = (&t.var(a).ty, &t.var(b).ty);
        if ta != tb {
            return Err(format!(
                "{what} `{}` is {ta} in {} and `{}` is {tb} in {}",
                p.old, old.name, p.new, new.name
            ));
        }
        Ok((Expr::var(a, ta.clone()), Expr::var(b, tb.clone())))
    };
    // `same`: floats equal bit for bit (C's `==` would pair -0.0 with 0.0).
    let eq = |t: &Tuple, p: &NamePair, what: &str| -> Result<Expr, String> {
        pair_vars(t, p, what).map(|(a, b)| Expr::same(a, b))
    };
    let mut pre: Vec<Expr> = iface
        .inputs
        .iter()
        .chain(&iface.shared)
        .map(|p| eq(&t, p, "input"))
        .collect::<Result<_, _>>()?;
    for p in &iface.nulls {
        let (a, b) = pair_vars(&t, p, "input")?;
        let (za, zb) = (lit(&a.ty, 0), lit(&b.ty, 0));
        pre.push(Expr::eq(Expr::eq(a, za), Expr::eq(b, zb)));
    }
    let post: Vec<Expr> =
        iface.outputs.iter().map(|p| eq(&t, p, "output")).collect::<Result<_, _>>()?;
    // Equal inputs that neither version writes stay equal: invariant candidates (the
    // prover checks them like any other).
    if ir::has_loop(&t.copies.iter().flat_map(|c| c.body.clone()).collect::<Vec<_>>()) {
        let written: HashSet<VarId> =
            t.copies.iter().flat_map(|c| ir::modified_vars(&c.body)).collect();
        for e in &pre {
            let mut read_only = true;
            e.for_each_var(&mut |v| read_only &= !written.contains(&v));
            if read_only {
                t.hints.invariants.push(e.clone());
            }
        }
    }
    // Each pointer parameter starts `NULL` or at its own object's first element (the
    // lowered program sets it so from any value: this only keeps reports readable).
    for (side, ptr) in &iface.shapes {
        let k = if *side == Side::Old { ix.old } else { ix.new };
        let (Some(tag), Some(off)) = (t.copy_var(k, &ptr.tag_var), t.copy_var(k, &ptr.off_var))
        else {
            continue;
        };
        let (tt, to) = (t.var(tag).ty.clone(), t.var(off).ty.clone());
        let tag = Expr::var(tag, tt.clone());
        let null = Expr::eq(tag.clone(), lit(&tt, 0));
        let own = Expr::eq(tag, lit(&tt, ptr.object.into()));
        pre.push(Expr::binary(ir::BinOp::Or, null, own));
        pre.push(Expr::eq(Expr::var(off, to.clone()), lit(&to, 0)));
    }
    // Undefined behaviour (a C program's `$ub` ghost variable set) in one version only
    // is a difference; on an input where both reach it (a NULL pointer both
    // dereference) the versions are told apart by nothing C defines, and the compiled
    // versions both fail alike, so that input is no difference: the outputs are compared
    // where both are defined.
    let defined: Vec<Expr> = [ix.old, ix.new]
        .into_iter()
        .filter_map(|k| t.copy_var(k, crate::ir::c::UB_VAR))
        .map(|v| {
            let ty = t.var(v).ty.clone();
            Expr::eq(Expr::var(v, ty.clone()), lit(&ty, 0))
        })
        .collect();
    let post: Vec<Expr> = match defined.as_slice() {
        [o, n] => std::iter::once(Expr::binary(ir::BinOp::Iff, o.clone(), n.clone()))
            .chain(post.into_iter().map(|e| Expr::binary(ir::BinOp::Implies, o.clone(), e)))
            .collect(),
        _ => defined.into_iter().chain(post).collect(),
    };
    t.pre = Expr::and_all(pre);
    t.post = Expr::and_all(post);
    if let (Some(io), Some(inew)) = (&old.module.c, &new.module.c) {
        let mut view = CView { model: inew.model, ..CView::default() };
        for (copy, info, f) in [("old", io, &name.old), ("new", inew, &name.new)] {
            view.copies.insert(copy.to_string(), info.views.get(f).cloned().unwrap_or_default());
            if let Some(cf) = info.function(f) {
                view.ub.insert(copy.to_string(), cf.ub.clone());
                view.objects.insert(copy.to_string(), cf.objects.clone());
            }
        }
        // A global added to a copy is shown there as in the copy that uses it.
        for (side, var) in &iface.added {
            let (this, other) = if *side == Side::Old { ("old", "new") } else { ("new", "old") };
            let ty = view.copies.get(other).and_then(|c| c.get(var)).cloned();
            if let (Some(ty), Some(c)) = (ty, view.copies.get_mut(this)) {
                c.entry(var.clone()).or_insert(ty);
            }
        }
        t.c_view = Some(std::sync::Arc::new(view));
    }
    Ok(t)
}

/// The literal `n` of an integer type (a bit-vector or a mathematical integer).
fn lit(ty: &ir::Type, n: i64) -> Expr {
    match ty {
        ir::Type::Bv(w) => Expr { kind: ir::ExprKind::Bv(n as u128), ty: ir::Type::Bv(*w) },
        _ => Expr::int(n),
    }
}

/// `.fe`: the variables of one name and type in both programs, unless `--in`/`--out`.
fn fe_interface(po: &Program, pn: &Program, opts: &EquivOptions) -> Interface {
    let common: Vec<NamePair> = pn
        .vars
        .iter()
        .filter(|v| po.vars.iter().any(|w| w.name == v.name && w.ty == v.ty))
        .map(|v| NamePair { old: v.name.clone(), new: v.name.clone() })
        .collect();
    let inputs = opts.inputs.clone().unwrap_or_else(|| common.clone());
    let outputs = opts.outputs.clone().unwrap_or(common);
    Interface { inputs, outputs, ..Interface::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_pairs_are_one_name_or_two() {
        assert_eq!(NamePair::parse("f"), Some(NamePair { old: "f".into(), new: "f".into() }));
        let renamed = NamePair::parse("old_f = new_f").unwrap();
        assert_eq!(renamed, NamePair { old: "old_f".into(), new: "new_f".into() });
        assert_eq!(renamed.display(), "old_f=new_f");
        assert_eq!(NamePair::parse("=g"), None);
        assert_eq!(NamePair::parse(""), None);
    }
}
