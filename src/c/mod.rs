//! The C front end (LANGUAGE.md, "C programs"): a `.c` file → the same IR as `.fe`.
//!
//! `preprocess` (the system preprocessor, and the way back from its output to the user's
//! file), `parse` (lang-c's tree → forex's syntax tree, spans in the user's file),
//! `annotation` (`@ELAENIA` and `@forex` tuples and `_invariant` hints, read from the
//! file's comments), `consts` (constant expressions, LP64 sizes), `literal`, `types`
//! (C's integers under the math and machine models), `lower` (functions → programs,
//! formulas → `pre`/`post`), `resolve` (names in a tuple's formulas). Errors are pinned to
//! the function or tuple they are in, so that one broken function breaks only the tuples
//! that use it.

pub mod annotation;
pub mod ast;
pub mod consts;
pub mod float;
mod graph;
mod implicit;
mod info;
pub mod literal;
pub mod lower;
pub mod parse;
pub mod preprocess;
mod resolve;
pub mod types;
pub mod view;

use crate::diag::{Diagnostic, LineIndex};
use crate::ir::c::{CScalar, IntModel};
use crate::ir::{self, Expr, Loc, Module, Quantifier, VarId};
use ast::{Function, TupleSpec};
use graph::{call_graph, programs};
pub(crate) use info::ctype;
use info::{c_info, LoweredMap};
pub use lower::LimitHit;
use lower::{Context, Failure, FormulaEnv, Limits, Lowered, Lowerer};
use preprocess::CcOptions;
use resolve::Resolver;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use types::{Model, Val};

/// How C files are read: the integer model (`None`: the annotation's default), the
/// preprocessor's include folders and macros, and what reading a file may cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub int_model: Option<IntModel>,
    pub cc: CcOptions,
    /// `--no-ub`: assume that no run reaches undefined behaviour (LANGUAGE.md).
    pub no_ub: bool,
    /// How long reading one file may take (`--timeout`: the tuples it gives cannot be
    /// decided in less); `None`: no limit but the preprocessor's.
    pub time_limit: Option<std::time::Duration>,
    /// The memory the process may use (MB; the SMT ceiling): it bounds the size of one
    /// program once its calls are inlined.
    pub memory_mb: Option<u64>,
    /// How many calls deep a recursive function is unfolded before its deeper calls
    /// become cuts (`--recursion-depth`); `None`: [`DEFAULT_RECURSION_DEPTH`].
    pub recursion_depth: Option<u32>,
    /// Also lower each directly self-recursive function for mutual summaries
    /// (`ir::c::CInfo::summaries`; `forex equiv` asks for them).
    pub summaries: bool,
}

/// How deep recursion is unfolded by default: enough for the small inputs counterexamples
/// use, and 2^8 copies of a body that calls itself twice.
pub const DEFAULT_RECURSION_DEPTH: u32 = 8;

impl Options {
    /// The most syntax-tree nodes one program may hold once inlined: about 250 bytes
    /// each in IR, an eighth of the memory (two sides, the tuple's copies, the engines),
    /// at most two million.
    fn max_inlined(&self) -> usize {
        const MOST: usize = 2_000_000;
        self.memory_mb.map_or(MOST, |mb| ((mb as usize).saturating_mul(512)).clamp(100_000, MOST))
    }
}

/// Memory the front end takes per byte of preprocessed C (lang-c's tree, forex's, the
/// lowered programs: measured 200-250 on a 2 MB function).
const BYTES_PER_BYTE: usize = 250;

/// A `.c` file read as far as its errors allow.
pub struct Loaded {
    pub module: Module,
    /// Tuples that cannot be decided: name, where, the errors that break them.
    pub broken: Vec<(String, Loc, Vec<Diagnostic>)>,
    /// Tuples whose programs ran into the front end's limits (time or size): name,
    /// where, which limit, and the same as a diagnostic at the tuple.
    pub limited: Vec<(String, Loc, LimitHit, Diagnostic)>,
    /// Errors in functions no tuple uses.
    pub unused: Vec<Diagnostic>,
    /// Every function's own errors (and those of functions it calls), by name: what
    /// breaks a tuple built outside the file (`forex equiv`).
    pub function_errors: HashMap<String, Vec<Diagnostic>>,
}

/// Reads C source `src` (display name `name`, tuple name for `@ELAENIA` `stem`, its
/// `#include "…"` headers in `dir`) under `opts`. `Err`: errors that concern the whole
/// file.
pub fn load(
    name: &str,
    src: &str,
    stem: &str,
    dir: &Path,
    opts: &Options,
) -> Result<Loaded, Vec<Diagnostic>> {
    let started = std::time::Instant::now();
    if let Some(d) = crate::syntax::prescan::prescan(src) {
        return Err(vec![d]);
    }
    let lex = annotation::lexical(src);
    // The preprocessor's and the parser's errors are syntax errors (E0100).
    let syntax = |ds: Vec<Diagnostic>| -> Vec<Diagnostic> {
        ds.into_iter().map(|d| d.with_default_code(crate::diag::Code::Syntax)).collect()
    };
    let mut cc = opts.cc.clone();
    if let Some(t) = opts.time_limit {
        let own = cc.time_limit.unwrap_or(preprocess::DEFAULT_LIMIT);
        cc.time_limit = Some(own.min(t.max(std::time::Duration::from_secs(1))));
    }
    let pre = preprocess::preprocess(src, dir, &cc).map_err(syntax)?;
    // lang-c and the trees after it take about 200 bytes per byte of preprocessed C.
    if let Some(mb) = opts.memory_mb {
        let need = pre.text.len().saturating_mul(BYTES_PER_BYTE) >> 20;
        if need as u64 > mb {
            let mut d = Diagnostic::new(
                format!(
                    "the preprocessed file ({} MB) is too large for the memory limit ({mb} MB): \
                     reading it would take about {need} MB",
                    pre.text.len() >> 20
                ),
                0..0,
            )
            .with_hint("split the file, or raise the limit (FOREX_Z3_MEMORY_MB)");
            d.whole_file = true;
            return Err(vec![d]);
        }
    }
    let mut parsed = parse::parse(&pre, src).map_err(syntax)?;
    // Standard functions called without a declaration: read as gcc reads them.
    let headers = implicit::missing_headers(&parsed.file);
    let mut pre = pre;
    if !headers.is_empty() {
        cc.forced = headers;
        if let Ok(p) = preprocess::preprocess(src, dir, &cc) {
            if let Ok(again) = parse::parse(&p, src) {
                (pre, parsed) = (p, again);
            }
        }
    }
    // Names formulas may use for values: object-like macros, then enum constants.
    let mut defines: HashMap<String, String> = pre
        .macros
        .iter()
        .filter(|(_, m)| !m.function_like && !m.body.is_empty())
        .map(|(n, m)| (n.clone(), m.body.clone()))
        .collect();
    for (n, v) in &parsed.constants {
        defines.entry(n.clone()).or_insert_with(|| v.to_string());
    }
    drop(pre);
    let mut b = annotation::Builder::new(src, &defines);
    let mut fatal: Vec<Diagnostic> = Vec::new();
    let mut file = parsed.file;
    let items = parsed.items;
    let mut conversion = parsed.diags;
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
    for h in &parsed.hints {
        if let Some(h) = annotation::hint(&mut b, h) {
            file.hints.push(h);
        }
    }
    conversion.append(&mut b.diags);
    let model = opts.int_model.unwrap_or(if file.elaenia {
        IntModel::Math
    } else if file.forex {
        IntModel::Machine
    } else {
        IntModel::Math
    });
    // Errors by function; those elsewhere concern the file.
    let mut fn_errors: HashMap<String, Vec<Diagnostic>> = HashMap::new();
    let mut tuple_errors: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
    for d in conversion {
        let pos = d.span.start;
        if let Some((n, _)) = items.iter().find(|(_, s)| s.contains(&pos)) {
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
        globals: HashMap::new(),
        aspecs: file.aspecs.iter().map(|s| (s.name.name.clone(), s)).collect(),
        especs: file.especs.iter().map(|s| (s.name.name.clone(), s)).collect(),
        broken: fn_errors.keys().cloned().collect(),
        file: &file,
        elaenia: file.elaenia,
        no_ub: opts.no_ub,
        sizes: file
            .functions
            .iter()
            .filter_map(|f| Some((f.name.name.clone(), lower::size_of(f.body.as_ref()?))))
            .collect(),
        limits: Limits {
            deadline: opts.time_limit.map(|t| started + t),
            max_inlined: opts.max_inlined(),
            recursion_depth: opts.recursion_depth.unwrap_or(DEFAULT_RECURSION_DEPTH).max(1),
        },
        started,
    };
    for f in &file.functions {
        if f.body.is_some() {
            cx.functions.insert(f.name.name.clone(), f);
        }
    }
    for f in &file.functions {
        if f.body.is_none() && !cx.functions.contains_key(&f.name.name) {
            cx.libraries.entry(f.name.name.clone()).or_insert(f);
        }
    }
    for g in &file.globals {
        cx.globals.entry(g.name.name.clone()).or_insert(g);
    }
    let mut lowered: LoweredMap = HashMap::new();
    let mut lower_fn = |f: &Function, side: Quantifier, cx: &Context| -> Result<Lowered, Failure> {
        lowered
            .entry((f.name.name.clone(), side))
            .or_insert_with(|| Lowerer::new(cx, side).program(f))
            .clone()
    };
    let graph = call_graph(&file);
    let mut module = Module::default();
    for f in programs(&file, &graph, &cx.sizes) {
        match lower_fn(f, Quantifier::Forall, &cx) {
            Ok(l) => module.programs.push((*l.program).clone()),
            Err(Failure::Errors(ds)) => {
                fn_errors.entry(f.name.name.clone()).or_default().extend(ds)
            }
            // The tuples that use it say so.
            Err(Failure::Limit(_)) => {}
        }
    }
    let mut used: HashSet<String> = HashSet::new();
    let mut broken = Vec::new();
    let mut limited = Vec::new();
    for (k, t) in file.tuples.iter().enumerate() {
        let mut errs = tuple_errors.remove(&k).unwrap_or_default();
        // Errors of the copies' functions and of every function they call: the tuple
        // reports them (once), and they are not reported again for the file.
        let mut reach: Vec<&str> = t.copies.iter().map(|c| c.1.name.as_str()).collect();
        let mut seen: HashSet<&str> = HashSet::new();
        while let Some(f) = reach.pop() {
            if !seen.insert(f) {
                continue;
            }
            used.insert(f.to_string());
            if let Some(ds) = fn_errors.get(f) {
                for d in ds {
                    if !errs.iter().any(|e| e.span == d.span && e.message == d.message) {
                        errs.push(d.clone());
                    }
                }
            }
            if let Some(callees) = graph.get(f) {
                reach.extend(callees.keys().map(String::as_str));
            }
        }
        let result = if errs.is_empty() {
            tuple(&cx, name, t, &file, &mut lower_fn)
        } else {
            Err(Failure::Errors(errs))
        };
        match result {
            Ok(tu) => module.tuples.push(tu),
            Err(Failure::Errors(ds)) => {
                broken.push((t.name.name.clone(), cx.loc(t.span.start), ds))
            }
            Err(Failure::Limit(hit)) => {
                let d = Diagnostic::new(hit.to_string(), t.name.span.clone())
                    .with_label("this tuple's programs")
                    .with_hint("give the tuple more time (--timeout) or split the function");
                limited.push((t.name.name.clone(), cx.loc(t.span.start), hit, d));
            }
        }
    }
    let unused: Vec<Diagnostic> = fn_errors
        .iter()
        .filter(|(n, _)| !used.contains(*n))
        .flat_map(|(_, ds)| ds.clone())
        .collect();
    let mut info = c_info(name, model, &file, &cx, &lowered);
    if opts.summaries {
        info.summaries = graph::summaries(&file, &graph, &cx);
    }
    module.c = Some(info);
    Ok(Loaded { module, broken, limited, unused, function_errors: fn_errors })
}

type LowerFn<'f> = dyn FnMut(&Function, Quantifier, &Context) -> Result<Lowered, Failure> + 'f;

/// One tuple: its copies' programs, `pre` (with the library tables equal), `post`, hints.
fn tuple(
    cx: &Context,
    file_name: &str,
    t: &TupleSpec,
    file: &ast::File,
    lower_fn: &mut LowerFn,
) -> Result<ir::Tuple, Failure> {
    let mut errs = Vec::new();
    let mut tu = ir::Tuple::empty(t.name.name.clone(), file_name.to_string(), cx.loc(t.span.start));
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
            Err(Failure::Errors(ds)) => errs.extend(ds),
            Err(Failure::Limit(hit)) => return Err(Failure::Limit(hit)),
        }
    }
    if t.copies.is_empty() {
        errs.push(
            Diagnostic::new(format!("tuple `{}` has no copies", t.name.name), t.name.span.clone())
                .with_label("no `forall` or `exists` line"),
        );
    }
    if !errs.is_empty() {
        return Err(Failure::Errors(errs));
    }
    let mut c_view = view::view_of(t, cx, &infos);
    c_view.no_ub = cx.no_ub;
    for (k, info) in infos.iter().enumerate() {
        let copy = tu.copies[k].name.clone();
        view::add_storage(c_view.copies.entry(copy.clone()).or_default(), info);
        c_view.ub.insert(copy.clone(), info.ub.clone());
        c_view.objects.insert(copy, info.objects.iter().map(|o| o.name.clone()).collect());
    }
    tu.c_view = Some(std::sync::Arc::new(c_view));
    uninterpreted_tables(cx, t, file, &mut tu, &mut infos);
    let mut lw = Lowerer::new(cx, Quantifier::Forall);
    let mut env = FormulaEnv { vars: HashMap::new(), ret: None, next_bound: 0 };
    let formulas =
        |lw: &mut Lowerer, es: &[ast::Expr], env: &mut FormulaEnv, hint: bool| -> Vec<Expr> {
            let r = Resolver { t, tu: &tu, infos: &infos, hint, file };
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
        return Err(Failure::Errors(lw.diags));
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
                    tables.push(Expr::same(Expr::var(*first, ty.clone()), Expr::var(v, ty)))
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
    // Each pointer parameter is `NULL` or points to the start of its own object
    // (LANGUAGE.md); each copy with undefined-behaviour sites must reach none.
    let mut shapes: Vec<Expr> = Vec::new();
    let mut no_ub: Vec<Expr> = Vec::new();
    let m = cx.model;
    for (k, info) in infos.iter().enumerate() {
        let copy = &tu.copies[k];
        for (name, tag) in &info.param_objects {
            let Some([slot]) = info.names.get(name).map(|v| v.as_slice()) else { continue };
            let s = slot.map_vars(&|v| copy.vars[v.index()]);
            if let [obj, off] = s.leaves.as_slice() {
                let null = Expr::eq(obj.clone(), m.tag(0));
                let own = Expr::eq(obj.clone(), m.tag(*tag));
                let start = Expr::eq(off.clone(), m.off(0));
                shapes.push(Expr::and_all([Expr::binary(ir::BinOp::Or, null, own), start]));
            }
        }
        if !info.ub.is_empty() {
            if let Some(v) = tu.copy_var(k, lower::ub::UB_VAR) {
                let ty = tu.var(v).ty.clone();
                no_ub.push(Expr::eq(Expr::var(v, ty), m.lit_i(0, CScalar::Int)));
            }
        }
    }
    tu.pre = Expr::and_all(tables.into_iter().chain(shapes).chain(pre));
    tu.post = Expr::and_all(post.into_iter().chain(no_ub));
    tu.hints.invariants = invs;
    if tu.copies.iter().any(|c| ir::has_loop(&c.body)) {
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
        let ret = match cx.var_ty(&lib.ret) {
            Ok(lower::VarTy::Scalar(s)) => s,
            _ => ir::c::CScalar::Int,
        };
        let n = lib.params.len() as u32;
        let ty = if n == 0 { lower::VarTy::Scalar(ret) } else { lower::VarTy::Array(ret, n) };
        let mut ir_ty = cx.model.ir(ret);
        for _ in 0..n {
            ir_ty = ir::Type::Array(Box::new(ir_ty));
        }
        let local = VarId(first.program.vars.len() as u32);
        // A copy of the shared program, for this tuple only.
        let program = std::rc::Rc::make_mut(&mut first.program);
        program.vars.push(ir::VarDecl { name: name.clone(), ty: ir_ty.clone(), loc: tu.loc });
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
