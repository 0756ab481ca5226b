//! The C front end (LANGUAGE.md, "C programs"): a `.c` file → the same IR as `.fe`.
//!
//! `parse` (preprocessor lines, pest over the `c_` rules, the syntax tree with every
//! unsupported construct named at its span), `annotation` (`@ELAENIA` and `@forex`
//! tuples), `types` (C's integers under the math and machine models), `lower` (functions
//! → programs, formulas → `pre`/`post`), `resolve` (names in a tuple's formulas). Errors are pinned to the function or tuple they
//! are in, so that one broken function breaks only the tuples that use it.

pub mod annotation;
pub mod ast;
pub mod lower;
pub mod parse;
mod resolve;
pub mod types;
pub mod view;

use crate::diag::{Diagnostic, LineIndex};
use crate::ir::c::{CFunction, CInfo, CLibrary, CParam, CScalar, CType, IntModel, LibraryModel};
use crate::ir::{self, Expr, Hints, Loc, Module, Quantifier, VarId};
use crate::syntax::Rule;
use ast::{DeclTy, Function, TupleSpec};
use lower::{Context, FormulaEnv, Lowered, Lowerer};
use resolve::Resolver;
use std::collections::{HashMap, HashSet};
use types::{Model, Val};

/// A `.c` file read as far as its errors allow.
pub struct Loaded {
    pub module: Module,
    /// Tuples that cannot be decided: name, where, the errors that break them.
    pub broken: Vec<(String, Loc, Vec<Diagnostic>)>,
    /// Errors in functions no tuple uses.
    pub unused: Vec<Diagnostic>,
    /// Every function's own errors (and those of functions it calls), by name: what
    /// breaks a tuple built outside the file (`forex equiv`).
    pub function_errors: HashMap<String, Vec<Diagnostic>>,
}

/// Reads C source `src` (display name `name`, tuple name for `@ELAENIA` `stem`) under
/// the integer model `model` (`None`: the annotation's default). `Err`: errors that
/// concern the whole file.
pub fn load(
    name: &str,
    src: &str,
    stem: &str,
    model: Option<IntModel>,
) -> Result<Loaded, Vec<Diagnostic>> {
    if let Some(d) = crate::syntax::prescan::prescan(src) {
        return Err(vec![d]);
    }
    let lex = parse::lexical(src);
    let mut b = parse::Builder::new(src);
    let mut fatal: Vec<Diagnostic> = Vec::new();
    // Preprocessor lines: `#include` skipped, object-like `#define` recorded.
    let mut text = src.to_string();
    for d in &lex.directives {
        let line = &src[d.clone()];
        let rest = line[1..].trim_start();
        let word: String =
            rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        match word.as_str() {
            "include" | "pragma" | "" => {}
            "define" => {
                let after = rest["define".len()..].trim_start();
                let name_len =
                    after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').count();
                let mname = &after[..name_len];
                let body_start = d.end - after.len() + name_len;
                if mname.is_empty() {
                    fatal.push(
                        Diagnostic::new("`#define` without a name", d.clone()).with_label("here"),
                    );
                } else if src[body_start..].starts_with('(') {
                    fatal.push(
                        Diagnostic::new("function-like macros are not supported", d.clone())
                            .with_label("outside the C subset")
                            .with_hint("only object-like `#define NAME value` is substituted"),
                    );
                } else if src[body_start..d.end].trim().is_empty() {
                    // `#define FLAG`: nothing to substitute into expressions.
                } else {
                    b.defines.insert(mname.to_string(), body_start..d.end);
                }
            }
            w => fatal.push(
                Diagnostic::new(
                    format!("the preprocessor directive `#{w}` is not supported"),
                    d.clone(),
                )
                .with_label("outside the C subset")
                .with_hint(
                    "`#include` is skipped and object-like `#define` substituted; nothing else",
                ),
            ),
        }
        parse::blank(&mut text, d);
    }
    // The file itself (annotation comments are comments to pest).
    let functions = {
        let mut tb = parse::Builder::new(&text);
        tb.macros_src = src;
        tb.defines = b.defines.clone();
        let parsed = match crate::syntax::FeParser::parse_c(&text) {
            Ok(p) => Some(p),
            Err(e) => {
                fatal.push(crate::syntax::syntax_error(&text, &e));
                None
            }
        };
        let fs = parsed.map(|p| tb.file(p)).unwrap_or_default();
        b.diags.append(&mut tb.diags);
        b.hints.append(&mut tb.hints);
        b.items = std::mem::take(&mut tb.items);
        fs
    };
    if !fatal.is_empty() {
        fatal.append(&mut b.diags);
        return Err(fatal);
    }
    let mut file = ast::File { functions, ..Default::default() };
    let mut annotation_spans = Vec::new();
    for c in &lex.comments {
        let before = b.diags.len();
        let before_tuples = file.tuples.len();
        match annotation::kind(src, c) {
            Some("@ELAENIA") => annotation::elaenia(&mut b, c, stem, &mut file),
            Some(_) => annotation::forex(&mut b, c, &mut file),
            None => continue,
        }
        annotation_spans.push(c.span.clone());
        // An annotation that does not parse concerns the whole file.
        if b.diags.len() > before && file.tuples.len() == before_tuples {
            fatal.extend(b.diags.drain(before..));
        }
    }
    file.hints = std::mem::take(&mut b.hints);
    let model = model.unwrap_or(if file.elaenia {
        IntModel::Math
    } else if file.forex {
        IntModel::Machine
    } else {
        IntModel::Math
    });
    // Errors by function; those elsewhere concern the file.
    let mut fn_errors: HashMap<String, Vec<Diagnostic>> = HashMap::new();
    let mut tuple_errors: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
    for d in b.diags.drain(..) {
        let pos = d.span.start;
        if let Some((n, _)) = b.items.iter().find(|(_, s)| s.contains(&pos)) {
            fn_errors.entry(n.clone()).or_default().push(d);
        } else if let Some(k) = file.tuples.iter().position(|t| t.span.contains(&pos)) {
            tuple_errors.entry(k).or_default().push(d);
        } else {
            fatal.push(d);
        }
    }
    if !fatal.is_empty() {
        return Err(fatal);
    }
    let lines = LineIndex::new(src);
    let mut cx = Context {
        src,
        lines,
        model: Model(model),
        functions: HashMap::new(),
        libraries: HashMap::new(),
        aspecs: file.aspecs.iter().map(|s| (s.name.name.clone(), s)).collect(),
        especs: file.especs.iter().map(|s| (s.name.name.clone(), s)).collect(),
        broken: fn_errors.keys().cloned().collect(),
    };
    for f in &file.functions {
        if f.body.is_some() {
            cx.functions.insert(f.name.name.clone(), f);
        }
    }
    for f in &file.functions {
        if f.body.is_none() && !cx.functions.contains_key(&f.name.name) {
            cx.libraries.insert(f.name.name.clone(), f);
        }
    }
    let mut lowered: HashMap<(String, Quantifier), Result<Lowered, Vec<Diagnostic>>> =
        HashMap::new();
    let mut lower_fn =
        |f: &Function, side: Quantifier, cx: &Context| -> Result<Lowered, Vec<Diagnostic>> {
            lowered
                .entry((f.name.name.clone(), side))
                .or_insert_with(|| Lowerer::new(cx, side).program(f))
                .clone()
        };
    let mut module = Module::default();
    for f in &file.functions {
        if f.body.is_none() {
            continue;
        }
        match lower_fn(f, Quantifier::Forall, &cx) {
            Ok(l) => module.programs.push(l.program),
            Err(ds) => fn_errors.entry(f.name.name.clone()).or_default().extend(ds),
        }
    }
    let mut used: HashSet<String> = HashSet::new();
    let mut broken = Vec::new();
    for (k, t) in file.tuples.iter().enumerate() {
        let mut errs = tuple_errors.remove(&k).unwrap_or_default();
        for (_, f, _) in &t.copies {
            used.insert(f.name.clone());
            if let Some(ds) = fn_errors.get(&f.name) {
                for d in ds {
                    if !errs.iter().any(|e| e.span == d.span && e.message == d.message) {
                        errs.push(d.clone());
                    }
                }
            }
        }
        let result =
            if errs.is_empty() { tuple(&cx, name, t, &file, &mut lower_fn) } else { Err(errs) };
        match result {
            Ok(tu) => module.tuples.push(tu),
            Err(ds) => broken.push((t.name.name.clone(), cx.loc(t.span.start), ds)),
        }
    }
    let unused: Vec<Diagnostic> = fn_errors
        .iter()
        .filter(|(n, _)| !used.contains(*n))
        .flat_map(|(_, ds)| ds.clone())
        .collect();
    module.c = Some(c_info(name, model, &file, &cx));
    Ok(Loaded { module, broken, unused, function_errors: fn_errors })
}

fn c_info(name: &str, model: IntModel, file: &ast::File, cx: &Context) -> CInfo {
    let ctype = |t: &DeclTy| match t {
        DeclTy::Void => CType::Void,
        DeclTy::Scalar(s) => CType::Scalar(*s),
        DeclTy::Array(e, d) => CType::Array { elem: *e, dims: d.len() as u32 },
    };
    let mut info = CInfo { source: name.into(), model, ..Default::default() };
    for f in &file.functions {
        if f.body.is_some() {
            info.functions.push(CFunction {
                name: f.name.name.clone(),
                ret: ctype(&f.ret),
                params: f
                    .params
                    .iter()
                    .map(|p| CParam {
                        name: p.name.name.clone(),
                        ty: ctype(&p.ty),
                        var: p.name.name.clone(),
                    })
                    .collect(),
                ret_var: matches!(f.ret, DeclTy::Scalar(_)).then(|| "ret".to_string()),
                line: cx.loc(f.span.start).line,
            });
            info.views.insert(f.name.name.clone(), view::names_of(f, cx));
        } else if cx.libraries.contains_key(&f.name.name)
            && !info.libraries.iter().any(|l| l.name == f.name.name)
        {
            let scalar = |t: &DeclTy| match t {
                DeclTy::Scalar(s) | DeclTy::Array(s, _) => *s,
                DeclTy::Void => CScalar::Int,
            };
            let specified =
                cx.aspecs.contains_key(&f.name.name) || cx.especs.contains_key(&f.name.name);
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

type LowerFn<'f> =
    dyn FnMut(&Function, Quantifier, &Context) -> Result<Lowered, Vec<Diagnostic>> + 'f;

/// One tuple: its copies' programs, `pre` (with the library tables equal), `post`, hints.
fn tuple(
    cx: &Context,
    file_name: &str,
    t: &TupleSpec,
    file: &ast::File,
    lower_fn: &mut LowerFn,
) -> Result<ir::Tuple, Vec<Diagnostic>> {
    let mut errs = Vec::new();
    let mut tu = ir::Tuple {
        name: t.name.name.clone(),
        file: file_name.to_string(),
        loc: cx.loc(t.span.start),
        copies: Vec::new(),
        vars: Vec::new(),
        pre: Expr::bool(true),
        post: Expr::bool(true),
        kind: ir::PropertyKind::Post,
        observations: None,
        hints: Hints::default(),
        c_view: None,
    };
    let ordered = t.copies.iter().filter(|c| !c.2).chain(t.copies.iter().filter(|c| c.2));
    let mut infos: Vec<Lowered> = Vec::new();
    let mut seen: HashMap<&str, &ast::Ident> = HashMap::new();
    for (n, f, exists) in ordered {
        if let Some(first) = seen.insert(&n.name, n) {
            errs.push(
                Diagnostic::new(format!("copy `{}` is declared twice", n.name), n.span.clone())
                    .with_label("second copy")
                    .with_related(first.span.clone(), "first copy"),
            );
            continue;
        }
        let Some(def) = cx.functions.get(f.name.as_str()) else {
            let what = if cx.libraries.contains_key(&f.name) {
                "is only declared (no body)"
            } else {
                "is not defined in the file"
            };
            errs.push(
                Diagnostic::new(format!("the function `{}` {what}", f.name), f.span.clone())
                    .with_label("no such function")
                    .with_hint("a copy names a C function defined in this file"),
            );
            continue;
        };
        let side = if *exists { Quantifier::Exists } else { Quantifier::Forall };
        match lower_fn(def, side, cx) {
            Ok(l) => {
                tu.add_copy(&n.name, &l.program, side);
                infos.push(l);
            }
            Err(ds) => errs.extend(ds),
        }
    }
    if t.copies.is_empty() {
        errs.push(
            Diagnostic::new(format!("tuple `{}` has no copies", t.name.name), t.name.span.clone())
                .with_label("no `forall` or `exists` line"),
        );
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    tu.c_view = Some(std::sync::Arc::new(view::view_of(t, cx)));
    uninterpreted_tables(cx, t, file, &mut tu, &mut infos);
    let mut lw = Lowerer::new(cx, Quantifier::Forall);
    let mut env = FormulaEnv { vars: HashMap::new(), ret: None, next_bound: 0 };
    let formulas =
        |lw: &mut Lowerer, es: &[ast::Expr], env: &mut FormulaEnv, hint: bool| -> Vec<Expr> {
            let mut r = Resolver { t, tu: &tu, infos: &infos, hint, file };
            es.iter()
                .filter_map(|e| {
                    let v = lw.formula(e, env, &mut |lw, e, env| r.resolve(lw, e, env))?;
                    Some(lw_truth(cx, &v))
                })
                .collect()
        };
    let pre = formulas(&mut lw, &t.pre, &mut env, false);
    let post = formulas(&mut lw, &t.post, &mut env, false);
    let mut inv_src: Vec<ast::Expr> = t.invariants.clone();
    let fns: HashSet<&str> = t.copies.iter().map(|c| c.1.name.as_str()).collect();
    for h in &file.hints {
        if fns.contains(h.function.as_str()) {
            inv_src.push(h.formula.clone());
        }
    }
    let invs = formulas(&mut lw, &inv_src, &mut env, true);
    if !lw.diags.is_empty() {
        return Err(lw.diags);
    }
    // Library tables: equal in all copies.
    let mut tables: Vec<Expr> = Vec::new();
    let mut firsts: HashMap<&str, VarId> = HashMap::new();
    for (k, info) in infos.iter().enumerate() {
        let mut names: Vec<&String> = info.tables.keys().collect();
        names.sort();
        for name in names {
            let local = info.tables[name];
            let v = tu.copies[k].vars[local.index()];
            let ty = tu.var(v).ty.clone();
            match firsts.get(name.as_str()) {
                Some(first) => {
                    tables.push(Expr::eq(Expr::var(*first, ty.clone()), Expr::var(v, ty)))
                }
                None => {
                    firsts.insert(name, v);
                }
            }
        }
    }
    // Read-only facts are invariant candidates: the tables' equalities, and the `pre`
    // conjuncts over variables no copy writes (candidates only: the prover checks them).
    let mut written: HashSet<VarId> = HashSet::new();
    for c in &tu.copies {
        written.extend(ir::modified_vars(&c.body));
    }
    let mut read_only: Vec<Expr> = tables.clone();
    for p in &pre {
        for c in p.conjuncts() {
            let mut ok = true;
            c.for_each_var(&mut |v| ok &= !written.contains(&v));
            if ok && !c.has_quantifier() {
                read_only.push(c.clone());
            }
        }
    }
    tu.pre = Expr::and_all(tables.into_iter().chain(pre));
    tu.post = Expr::and_all(post);
    tu.hints.invariants = invs;
    if ir::has_loop(&tu.copies.iter().flat_map(|c| c.body.clone()).collect::<Vec<_>>()) {
        for h in read_only {
            if !tu.hints.invariants.contains(&h) {
                tu.hints.invariants.push(h);
            }
        }
    }
    Ok(tu)
}

/// Library functions the tuple's formulas call that no copy calls (`pre`'s axioms over
/// `lst_store`): their tables become variables of the first copy, read-only inputs
/// like any table.
fn uninterpreted_tables(
    cx: &Context,
    t: &TupleSpec,
    file: &ast::File,
    tu: &mut ir::Tuple,
    infos: &mut [Lowered],
) {
    fn calls(e: &ast::Expr, out: &mut Vec<String>) {
        use ast::ExprKind as K;
        match &e.kind {
            K::Call(f, args) => {
                out.push(f.name.clone());
                args.iter().for_each(|a| calls(a, out));
            }
            K::Unary(_, a) | K::Cast(_, a) | K::IncDec { arg: a, .. } => calls(a, out),
            K::Quant { body, .. } => calls(body, out),
            K::Binary(_, a, b) | K::Assign(_, a, b) | K::Index(a, b) | K::Comma(a, b) => {
                calls(a, out);
                calls(b, out);
            }
            K::Cond(c, a, b) => {
                calls(c, out);
                calls(a, out);
                calls(b, out);
            }
            _ => {}
        }
    }
    let mut names = Vec::new();
    let hints = file.hints.iter().map(|h| &h.formula);
    for e in t.pre.iter().chain(&t.post).chain(&t.invariants).chain(hints) {
        calls(e, &mut names);
    }
    let Some(first) = infos.first_mut() else { return };
    for name in names {
        let specified = cx.aspecs.contains_key(&name) || cx.especs.contains_key(&name);
        let Some(lib) = cx.libraries.get(name.as_str()) else { continue };
        if specified || first.tables.contains_key(&name) {
            continue;
        }
        if tu.copies.iter().enumerate().any(|(k, _)| k > 0 && tu.copy_var(k, &name).is_some()) {
            continue;
        }
        let ret = match lib.ret {
            DeclTy::Scalar(s) => s,
            _ => ir::c::CScalar::Int,
        };
        let n = lib.params.len() as u32;
        let ty = if n == 0 { lower::VarTy::Scalar(ret) } else { lower::VarTy::Array(ret, n) };
        let mut ir_ty = cx.model.ir(ret);
        for _ in 0..n {
            ir_ty = ir::Type::Array(Box::new(ir_ty));
        }
        let local = VarId(first.program.vars.len() as u32);
        first.program.vars.push(ir::VarDecl { name: name.clone(), ty: ir_ty.clone(), loc: tu.loc });
        first.types.push(ty);
        first.tables.insert(name.clone(), local);
        let global = VarId(tu.vars.len() as u32);
        tu.vars.push(ir::TupleVar { copy: 0, name: name.clone(), ty: ir_ty });
        tu.copies[0].vars.push(global);
    }
}

fn lw_truth(cx: &Context, v: &Val) -> Expr {
    cx.model.truth(v)
}

impl crate::syntax::FeParser {
    /// Parses a whole C file (`c_file`).
    pub(crate) fn parse_c(
        src: &str,
    ) -> Result<pest::iterators::Pair<'_, Rule>, pest::error::Error<Rule>> {
        use pest::Parser as _;
        match Self::parse(Rule::c_file, src) {
            Ok(mut p) => Ok(p.next().expect("c_file")),
            Err(e) => {
                pest::set_error_detail(true);
                Err(Self::parse(Rule::c_file, src).err().unwrap_or(e))
            }
        }
    }
}
