//! The default inputs and outputs of a pair of C functions (LANGUAGE.md "forex equiv"),
//! read from the C facts the front end keeps (`ir::c::CInfo`).

use super::{EquivOptions, Interface, NamePair, Side};
use crate::frontend::Version;
use crate::ir::c::{CFunction, CGlobal, CType};
use crate::ir::{self, Program};
use std::collections::HashSet;

/// C (LANGUAGE.md "forex equiv"): the inputs are the parameters by position (a struct's
/// members, an array's contents, whether a pointer is `NULL` and what its own object holds),
/// the globals and static locals both versions' functions use, and the tables of the
/// library functions both call (the same library); the outputs are the returned value
/// (every member of a struct), the arrays and pointees of parameters either version
/// writes, and the globals either version writes.
pub(super) fn interface(
    old: &Version,
    po: &Program,
    new: &Version,
    pn: &Program,
    name: &NamePair,
    opts: &EquivOptions,
) -> Result<Interface, String> {
    let (Some(io), Some(inew)) = (&old.module.c, &new.module.c) else {
        return Err("internal: a C version without its C facts".into());
    };
    let (Some(fo), Some(fnew)) = (io.function(&name.old), inew.function(&name.new)) else {
        return Err(format!("`{}` is not a C function of both versions", name.display()));
    };
    let mut iface = Interface::default();
    // Not under --in: a user's `--in p` equates raw tags, which a start in each version's
    // own object would then force to `NULL` (the two objects' tags may differ).
    let sides =
        if opts.inputs.is_none() { vec![(Side::Old, fo), (Side::New, fnew)] } else { vec![] };
    for (side, f) in sides {
        for p in &f.params {
            if let Some(ptr) = &p.pointee {
                iface.shapes.push((side, ptr.clone()));
            }
        }
    }
    let (wo, wn) = (written(po), written(pn));
    let pointers = |what: String, ty: &str, flag: &str| {
        format!(
            "{what} is {ty}, which holds pointers: their targets are objects of one version \
             each, which forex equiv does not match by default; say what to compare with {flag}"
        )
    };
    match &opts.inputs {
        Some(list) => iface.inputs = list.clone(),
        None => {
            if fo.params.len() != fnew.params.len() {
                return Err(format!(
                    "`{}` takes {} parameter(s) in {} and `{}` takes {} in {}: say how the \
                     inputs correspond with --in old_name=new_name,…",
                    fo.name,
                    fo.params.len(),
                    old.name,
                    fnew.name,
                    fnew.params.len(),
                    new.name
                ));
            }
            for (a, b) in fo.params.iter().zip(&fnew.params) {
                if a.ty != b.ty {
                    return Err(format!(
                        "parameter `{}` of `{}` is {} in {} but `{}` is {} in {}: say how the \
                         inputs correspond with --in",
                        a.name, fo.name, a.ty, old.name, b.name, b.ty, new.name
                    ));
                }
                if a.nested_pointers || b.nested_pointers {
                    let what = format!("parameter `{}` of `{}`", a.name, fo.name);
                    return Err(pointers(what, &a.ty.c_name(), "--in and --out"));
                }
                let what = || format!("parameter `{}` of `{}` ({})", a.name, fo.name, a.ty);
                match (&a.pointee, &b.pointee) {
                    (Some(x), Some(y)) => {
                        iface
                            .nulls
                            .push(NamePair { old: x.tag_var.clone(), new: y.tag_var.clone() });
                        iface.inputs.extend(leaf_pairs(&x.leaves, &y.leaves, what)?);
                    }
                    // `void *`: only whether it is `NULL`.
                    _ if matches!(a.ty, CType::Pointer(_)) => {
                        iface.nulls.push(NamePair { old: a.var.clone(), new: b.var.clone() })
                    }
                    _ => iface.inputs.extend(leaf_pairs(&a.inputs, &b.inputs, what)?),
                }
            }
            for g in &fo.globals {
                let Some(h) = fnew.globals.iter().find(|h| h.name == g.name) else { continue };
                global_types(g, &h.ty, old, new)?;
                if g.pointers || h.pointers {
                    let what = format!("the global `{}`", g.name);
                    return Err(pointers(what, &g.ty, "--in and --out"));
                }
                let what = || format!("the global `{}` ({})", g.name, g.ty);
                iface.inputs.extend(leaf_pairs(&g.leaves, &h.leaves, what)?);
            }
        }
    }
    match &opts.outputs {
        Some(list) => iface.outputs = list.clone(),
        None => {
            if fo.ret != fnew.ret && fo.ret != CType::Void && fnew.ret != CType::Void {
                return Err(format!(
                    "`{}` returns {} in {} and {} in {}",
                    name.display(),
                    fo.ret,
                    old.name,
                    fnew.ret,
                    new.name
                ));
            }
            match (fo.ret_leaves.is_empty(), fnew.ret_leaves.is_empty()) {
                (false, false) => {
                    if matches!(fo.ret, CType::Pointer(_)) || fo.ret_pointers || fnew.ret_pointers {
                        let what = format!("the result of `{}`", name.display());
                        return Err(pointers(what, &fo.ret.c_name(), "--out"));
                    }
                    let what = || format!("the result of `{}` ({})", name.display(), fo.ret);
                    iface.outputs.extend(leaf_pairs(&fo.ret_leaves, &fnew.ret_leaves, what)?);
                }
                (true, true) => {}
                _ => {
                    return Err(format!(
                        "`{}` returns a value in one version only (say what to compare with \
                         --out)",
                        name.display()
                    ))
                }
            }
            for (a, b) in fo.params.iter().zip(&fnew.params).filter(|(a, b)| a.ty == b.ty) {
                let either = |x: &str, y: &str| wo.contains(x) || wn.contains(y);
                if matches!(a.ty, CType::Array { .. }) && either(&a.var, &b.var) {
                    iface.outputs.push(NamePair { old: a.var.clone(), new: b.var.clone() });
                }
                if let (Some(x), Some(y)) = (&a.pointee, &b.pointee) {
                    let what = || format!("parameter `{}` of `{}` ({})", a.name, fo.name, a.ty);
                    let pairs = leaf_pairs(&x.leaves, &y.leaves, what)?;
                    iface.outputs.extend(pairs.into_iter().filter(|p| either(&p.old, &p.new)));
                }
            }
            written_globals(&mut iface, old, fo, &wo, new, fnew, &wn, opts.inputs.is_none())?;
        }
    }
    // Library tables: the same library in both versions.
    for lib in &inew.libraries {
        if let crate::ir::c::LibraryModel::Uninterpreted { var } = &lib.model {
            let in_old = io.libraries.iter().any(|l| l.name == lib.name && l.model == lib.model);
            if in_old && po.var_by_name(var).is_some() && pn.var_by_name(var).is_some() {
                iface.shared.push(NamePair { old: var.clone(), new: var.clone() });
            }
        }
    }
    Ok(iface)
}

/// The globals either version writes: outputs. One that the other version's function
/// does not use but its file declares stays unchanged there (a variable of that copy,
/// equal at the start when the inputs are the default ones); one the other file does not
/// have at all cannot be compared.
#[allow(clippy::too_many_arguments)]
fn written_globals(
    iface: &mut Interface,
    old: &Version,
    fo: &CFunction,
    wo: &HashSet<&str>,
    new: &Version,
    fnew: &CFunction,
    wn: &HashSet<&str>,
    default_inputs: bool,
) -> Result<(), String> {
    let writes = |g: &CGlobal, w: &HashSet<&str>| g.leaves.iter().any(|l| w.contains(l.as_str()));
    let mut seen: HashSet<&str> = HashSet::new();
    let sides = [(fo, wo, old, fnew, new, Side::New), (fnew, wn, new, fo, old, Side::Old)];
    for (f, w, v, other_f, other, other_side) in sides {
        for g in f.globals.iter().filter(|g| writes(g, w)) {
            if !seen.insert(g.name.as_str()) {
                continue;
            }
            let what = || format!("the global `{}` ({})", g.name, g.ty);
            if let Some(h) = other_f.globals.iter().find(|h| h.name == g.name) {
                let (a, b) = if other_side == Side::New { (g, h) } else { (h, g) };
                global_types(a, &b.ty, old, new)?;
                if g.pointers || h.pointers {
                    let what = format!("the global `{}`", g.name);
                    return Err(format!(
                        "{what} is {}, which holds pointers: their targets are objects of one \
                         version each, which forex equiv does not match by default; say what \
                         to compare with --in and --out",
                        g.ty
                    ));
                }
                let pairs = if other_side == Side::New {
                    leaf_pairs(&g.leaves, &h.leaves, what)?
                } else {
                    leaf_pairs(&h.leaves, &g.leaves, what)?
                };
                iface.outputs.extend(pairs);
                continue;
            }
            // Declared in the other file but not used by its function: unchanged there.
            let declared =
                other.module.c.as_ref().and_then(|i| i.globals.iter().find(|h| h.name == g.name));
            let Some(h) = declared else {
                return Err(format!(
                    "`{}` writes the global `{}` in {}, which {} does not have: say what to \
                     compare with --out",
                    f.name, g.name, v.name, other.name
                ));
            };
            if h.ty != g.ty {
                let (a, b) = if other_side == Side::New { (g, h) } else { (h, g) };
                global_types(a, &b.ty, old, new)?;
            }
            if g.pointers {
                return Err(format!(
                    "the global `{}` is {}, which holds pointers: their targets are objects of \
                     one version each, which forex equiv does not match by default; say what \
                     to compare with --out",
                    g.name, g.ty
                ));
            }
            for leaf in &g.leaves {
                iface.added.push((other_side, leaf.clone()));
                let p = NamePair { old: leaf.clone(), new: leaf.clone() };
                if default_inputs {
                    iface.inputs.push(p.clone());
                }
                iface.outputs.push(p);
            }
        }
    }
    Ok(())
}

/// A global of the old version (`a`) and the new one's type: the same C type.
fn global_types(a: &CGlobal, b_ty: &str, old: &Version, new: &Version) -> Result<(), String> {
    if a.ty == b_ty {
        return Ok(());
    }
    Err(format!(
        "the global `{}` is {} in {} and {} in {}: say how the versions correspond with --in \
         and --out",
        a.name, a.ty, old.name, b_ty, new.name
    ))
}

/// The leaves of one value in both versions, by position (`s.a` with `t.a`, `*p` with
/// `*q`); `what` names the value when the layouts differ (a struct's members changed).
fn leaf_pairs(
    a: &[String],
    b: &[String],
    what: impl Fn() -> String,
) -> Result<Vec<NamePair>, String> {
    if a.len() != b.len() {
        return Err(format!(
            "{} has {} part(s) in the old version ({}) and {} in the new one ({}): say what to \
             compare with --in and --out",
            what(),
            a.len(),
            a.join(", "),
            b.len(),
            b.join(", ")
        ));
    }
    Ok(a.iter().zip(b).map(|(x, y)| NamePair { old: x.clone(), new: y.clone() }).collect())
}

/// Names of the variables a program may write.
fn written(p: &Program) -> HashSet<&str> {
    ir::modified_vars(&p.body).into_iter().map(|v| p.vars[v.index()].name.as_str()).collect()
}
