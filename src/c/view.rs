//! The C view of a tuple (`ir::c::CView`): which variables of each copy the C source
//! names, with their C types, so that counterexamples are shown in C terms.

use super::ast::{Function, Stmt, StmtKind, TupleSpec, Type};
use super::lower::{Context, Lowered};
use crate::ir::c::{CType, CView};
use std::collections::BTreeMap;

/// Parameters, locals (the first declaration of each name), `ret` and the tables of
/// library functions without a spec that the copies call, per copy of `t` (`infos`: the
/// copies' lowered programs, ∀ copies first).
pub fn view_of(t: &TupleSpec, cx: &Context, infos: &[Lowered]) -> CView {
    let mut view = CView { model: cx.model.0, ..CView::default() };
    let mut tables: Vec<&String> = infos.iter().flat_map(|l| l.tables.keys()).collect();
    tables.sort();
    tables.dedup();
    view.uninterpreted = tables.iter().map(|s| s.to_string()).collect();
    for (copy, function, _) in &t.copies {
        let Some(def) = cx.functions.get(function.name.as_str()) else { continue };
        view.copies.insert(copy.name.clone(), names_of(def, cx, &tables));
    }
    view
}

pub fn names_of(def: &Function, cx: &Context, tables: &[&String]) -> BTreeMap<String, String> {
    let mut vars = BTreeMap::new();
    for p in &def.params {
        vars.insert(p.name.name.clone(), type_name(&p.ty, cx));
    }
    if let Some(body) = &def.body {
        for s in body {
            locals(s, &mut vars, cx);
        }
    }
    if !matches!(def.ret, Type::Void) {
        vars.insert("ret".into(), type_name(&def.ret, cx));
    }
    for name in tables {
        let Some(lib) = cx.libraries.get(name.as_str()) else { continue };
        let params: Vec<String> = lib.params.iter().map(|p| type_name(&p.ty, cx)).collect();
        vars.insert((*name).clone(), format!("{}({})", type_name(&lib.ret, cx), params.join(", ")));
    }
    vars
}

fn locals(s: &Stmt, vars: &mut BTreeMap<String, String>, cx: &Context) {
    match &s.kind {
        StmtKind::Decl(decls) => {
            for d in decls {
                vars.entry(d.name.name.clone()).or_insert_with(|| type_name(&d.ty, cx));
            }
        }
        StmtKind::If(_, a, b) => {
            locals(a, vars, cx);
            if let Some(b) = b {
                locals(b, vars, cx);
            }
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, _, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => locals(b, vars, cx),
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                locals(i, vars, cx);
            }
            locals(body, vars, cx);
        }
        StmtKind::Block(ss) => ss.iter().for_each(|s| locals(s, vars, cx)),
        StmtKind::Expr(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(_)
        | StmtKind::Empty
        | StmtKind::Goto(_)
        | StmtKind::Other(_) => {}
    }
}

/// A type as counterexamples name it (`int`, `int[]`, `_Bool`, `int *`).
fn type_name(t: &Type, cx: &Context) -> String {
    super::ctype(t, cx.file).map_or_else(|| "?".into(), |t: CType| t.c_name())
}

/// The storage of each pointer parameter's own object (`*p`, `p->a`: arrays indexed by
/// the offset), so that reports show what the pointers point to.
pub fn add_pointees(vars: &mut BTreeMap<String, String>, info: &Lowered) {
    for (_, k) in &info.param_objects {
        let Some(o) = info.objects.get(*k as usize - 1) else { continue };
        for (name, ty) in &o.leaves {
            vars.entry(name.clone()).or_insert_with(|| var_type_name(ty));
        }
    }
}

fn var_type_name(t: &super::lower::VarTy) -> String {
    match t {
        super::lower::VarTy::Scalar(s) => s.c_name().to_string(),
        super::lower::VarTy::Array(s, d) => format!("{}{}", s.c_name(), "[]".repeat(*d as usize)),
    }
}

/// The storage of what a copy's C names hold beyond plain variables, as reports show it:
/// each leaf of a struct or pointer (`s.a`, `p`, `p.off`), globals and static locals
/// (`f::x`), with its C scalar type.
pub fn add_storage(vars: &mut BTreeMap<String, String>, info: &Lowered) {
    for slots in info.names.values() {
        for slot in slots {
            for leaf in &slot.leaves {
                let Some(v) = super::lower::place::var_of(leaf) else { continue };
                let name = &info.program.vars[v.index()].name;
                let ty = var_type_name(&info.types[v.index()]);
                vars.entry(name.clone()).or_insert(ty);
            }
        }
    }
}
