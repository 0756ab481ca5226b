//! The C view of a tuple (`ir::c::CView`): which variables of each copy the C source
//! names, with their C types, so that counterexamples are shown in C terms.

use super::ast::{DeclTy, Function, Stmt, StmtKind, TupleSpec};
use super::lower::Context;
use crate::ir::c::CView;
use std::collections::BTreeMap;

/// Parameters, locals (the first declaration of each name), `ret` and the tables of
/// library functions without a spec, per copy of `t`.
pub fn view_of(t: &TupleSpec, cx: &Context) -> CView {
    let mut view = CView { model: cx.model.0, ..CView::default() };
    for (copy, function, _) in &t.copies {
        let Some(def) = cx.functions.get(function.name.as_str()) else { continue };
        view.copies.insert(copy.name.clone(), names_of(def, cx));
    }
    view
}

pub fn names_of(def: &Function, cx: &Context) -> BTreeMap<String, String> {
    let mut vars = BTreeMap::new();
    for p in &def.params {
        vars.insert(p.name.name.clone(), type_name(&p.ty));
    }
    if let Some(body) = &def.body {
        for s in body {
            locals(s, &mut vars);
        }
    }
    if let DeclTy::Scalar(s) = def.ret {
        vars.insert("ret".into(), s.c_name().into());
    }
    for (name, lib) in &cx.libraries {
        if cx.aspecs.contains_key(name) || cx.especs.contains_key(name) {
            continue;
        }
        let params: Vec<String> = lib.params.iter().map(|p| type_name(&p.ty)).collect();
        vars.insert(name.clone(), format!("{}({})", type_name(&lib.ret), params.join(", ")));
    }
    vars
}

fn locals(s: &Stmt, vars: &mut BTreeMap<String, String>) {
    match &s.kind {
        StmtKind::Decl(decls) => {
            for d in decls {
                vars.entry(d.name.name.clone()).or_insert_with(|| type_name(&d.ty));
            }
        }
        StmtKind::If(_, a, b) => {
            locals(a, vars);
            if let Some(b) = b {
                locals(b, vars);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => locals(b, vars),
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                locals(i, vars);
            }
            locals(body, vars);
        }
        StmtKind::Block(ss) => ss.iter().for_each(|s| locals(s, vars)),
        StmtKind::Expr(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(_)
        | StmtKind::Empty => {}
    }
}

fn type_name(t: &DeclTy) -> String {
    match t {
        DeclTy::Void => "void".into(),
        DeclTy::Scalar(s) => s.c_name().into(),
        DeclTy::Array(s, dims) => format!("{}{}", s.c_name(), "[]".repeat(dims.len())),
    }
}
