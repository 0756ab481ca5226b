//! What reports, `forex equiv` and the native oracle know of a C file (`ir::c::CInfo`):
//! its functions' C types, parameters with their storage, globals and library functions.

use super::ast::Type;
use super::lower::{Context, Failure, Lowered};
use crate::ir::c::{
    CFunction, CGlobal, CInfo, CLibrary, CParam, CPointee, CScalar, CType, IntModel, LibraryModel,
};
use crate::ir::Quantifier;
use std::collections::{HashMap, HashSet};

use super::{ast, consts, lower, view};

/// The C type of a parameter, local or result as `CInfo` keeps it (`None`: a type it
/// cannot hold, which lowering reports where it matters).
pub(crate) fn ctype(t: &Type, file: &ast::File) -> Option<CType> {
    let tables = consts::Tables { records: &file.records, enums: &file.enums };
    match t {
        Type::Void => Some(CType::Void),
        Type::Array(..) => {
            let mut dims = 0;
            let mut cur = t;
            while let Type::Array(e, _) = cur {
                dims += 1;
                cur = e;
            }
            Some(CType::Array { elem: scalar(cur, tables)?, dims })
        }
        Type::Pointer(to) if !matches!(**to, Type::Function(_)) => {
            Some(CType::Pointer(Box::new(ctype(to, file)?)))
        }
        Type::Record(id) => {
            let r = file.records.get(id.0 as usize)?;
            (r.kind == ast::RecordKind::Struct)
                .then(|| CType::Struct(r.tag.clone().unwrap_or_else(|| "(anonymous)".into())))
        }
        t => scalar(t, tables).map(CType::Scalar),
    }
}

/// An arithmetic type as a scalar: integers, enums, `float` and `double` (not `long
/// double`, which the lowering refuses).
fn scalar(t: &Type, tables: consts::Tables) -> Option<CScalar> {
    match t {
        Type::Float(ast::FloatKind::Float) => Some(CScalar::Float),
        Type::Float(ast::FloatKind::Double) => Some(CScalar::Double),
        t => consts::scalar_of(t, tables),
    }
}

/// Whether a value of the type holds a pointer anywhere (a member, an element).
fn holds_pointer(cx: &Context, t: &lower::CTy) -> bool {
    use lower::CTy;
    match t {
        CTy::Ptr(_) => true,
        CTy::Array(e, _) => holds_pointer(cx, e),
        CTy::Struct(id) => lower::ctype::record_members(cx, *id)
            .is_some_and(|ms| ms.iter().any(|(_, t)| holds_pointer(cx, t))),
        CTy::Void | CTy::Scalar(_) => false,
    }
}

/// The names of a slot's IR variables in a lowered program.
fn slot_names(l: &Lowered, slot: &lower::Slot) -> Vec<String> {
    slot.leaves
        .iter()
        .filter_map(lower::place::var_of)
        .map(|v| l.program.vars[v.index()].name.clone())
        .collect()
}

/// A parameter as `CInfo` keeps it: its IR variables in the lowered program `l`.
fn c_param(p: &ast::Param, ty: CType, cx: &Context, l: Option<&Lowered>) -> CParam {
    let name = p.name.name.clone();
    let mut out = CParam {
        name: name.clone(),
        ty,
        var: name.clone(),
        inputs: vec![name.clone()],
        pointee: None,
        nested_pointers: false,
    };
    let Some(l) = l else { return out };
    let Some(slot) = l.names.get(&name).and_then(|s| s.first()) else { return out };
    let leaves = slot_names(l, slot);
    let Some(first) = leaves.first() else { return out };
    out.var = first.clone();
    match &slot.ty {
        lower::CTy::Ptr(to) => {
            out.inputs = vec![first.clone()];
            out.nested_pointers = holds_pointer(cx, to);
            let own = l.param_objects.iter().find(|(n, _)| *n == name).map(|(_, k)| *k);
            if let (Some(k), Some(off)) = (own, leaves.get(1)) {
                if let Some(o) = l.objects.get(k as usize - 1) {
                    out.pointee = Some(CPointee {
                        tag_var: first.clone(),
                        off_var: off.clone(),
                        object: k,
                        leaves: o.leaves.iter().map(|(n, _)| n.clone()).collect(),
                    });
                }
            }
        }
        t => {
            out.nested_pointers = holds_pointer(cx, t);
            out.inputs = leaves;
        }
    }
    out
}

/// What reports and the native oracle need to know of the file: its functions' C types
/// and the library functions the programs call (`used`: those with a table).
pub(super) fn c_info(
    name: &str,
    model: IntModel,
    file: &ast::File,
    cx: &Context,
    lowered: &LoweredMap,
) -> CInfo {
    let used: HashSet<String> =
        lowered.values().flatten().flat_map(|l| l.tables.keys().cloned()).collect();
    let mut info = CInfo { source: name.into(), model, ..Default::default() };
    let global = |name: &str, ty: &lower::CTy| CGlobal {
        name: name.to_string(),
        ty: lower::ctype::spell(cx, ty),
        leaves: lower::ctype::leaves(cx, ty)
            .unwrap_or_default()
            .iter()
            .map(|l| format!("{name}{}", l.path))
            .collect(),
        pointers: holds_pointer(cx, ty),
    };
    for g in &file.globals {
        if info.globals.iter().any(|h| h.name == g.name.name) {
            continue;
        }
        if let Ok(ty) = lower::ctype::cty(cx, &g.ty) {
            info.globals.push(global(&g.name.name, &ty));
        }
    }
    for f in &file.functions {
        if f.body.is_some() && !f.in_header {
            let l = match lowered.get(&(f.name.name.clone(), Quantifier::Forall)) {
                Some(Ok(l)) => Some(l),
                _ => None,
            };
            let params: Option<Vec<CParam>> =
                f.params.iter().map(|p| Some(c_param(p, ctype(&p.ty, file)?, cx, l))).collect();
            let (Some(ret), Some(params)) = (ctype(&f.ret, file), params) else { continue };
            let ret_leaves = match l.and_then(|l| Some((l, l.names.get("ret")?.first()?))) {
                Some((l, slot)) => slot_names(l, slot),
                None if ret != CType::Void => vec!["ret".to_string()],
                None => vec![],
            };
            let f_ret_pointers = lower::ctype::cty(cx, &f.ret).is_ok_and(|t| holds_pointer(cx, &t));
            info.functions.push(CFunction {
                name: f.name.name.clone(),
                ret_var: matches!(ret, CType::Scalar(_)).then(|| "ret".to_string()),
                ret,
                params,
                ret_leaves,
                ret_pointers: f_ret_pointers,
                globals: l
                    .map_or(vec![], |l| l.globals.iter().map(|(n, t)| global(n, t)).collect()),
                ub: l.map_or(vec![], |l| l.ub.clone()),
                objects: l.map_or(vec![], |l| l.objects.iter().map(|o| o.name.clone()).collect()),
                line: cx.loc(f.span.start).line,
            });
            let mut tables: Vec<&String> = used.iter().collect();
            tables.sort();
            let mut vars = view::names_of(f, cx, &tables);
            if let Some(l) = l {
                view::add_storage(&mut vars, l);
                view::add_pointees(&mut vars, l);
            }
            info.views.insert(f.name.name.clone(), vars);
        } else if cx.libraries.get(&f.name.name).is_some_and(|l| std::ptr::eq(*l, f)) {
            let specified =
                cx.aspecs.contains_key(&f.name.name) || cx.especs.contains_key(&f.name.name);
            if !specified && !used.contains(f.name.name.as_str()) {
                continue;
            }
            let scalar = |t: &Type| match ctype(t, file) {
                Some(CType::Scalar(s) | CType::Array { elem: s, .. }) => s,
                _ => CScalar::Int,
            };
            info.libraries.push(CLibrary {
                name: f.name.name.clone(),
                ret: scalar(&f.ret),
                params: f.params.iter().map(|p| scalar(&p.ty)).collect(),
                model: if specified {
                    LibraryModel::Specified
                } else {
                    LibraryModel::Uninterpreted { var: f.name.name.clone() }
                },
            });
        }
    }
    info
}

/// Each function lowered so far, by name and side.
pub(super) type LoweredMap = HashMap<(String, Quantifier), Result<Lowered, Failure>>;
