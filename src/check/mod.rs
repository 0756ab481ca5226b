//! The checker: name resolution and types, syntax tree → IR.
//!
//! Programs are checked first (declarations, declared-before-use, statement types,
//! loop numbering), then tuples (copies, `copy.var` references, formula types). All
//! errors of a file are collected; the module is only returned when there are none.

mod builtins;
mod calls;
mod expr;
mod floats;
mod lang;

/// Did-you-mean hints live with the diagnostics (`syntax` uses them too).
pub use crate::diag::suggest;
use crate::diag::{Diagnostic, LineIndex};
use crate::ir::{
    self, BoundId, Hints, Loc, LoopId, Module, Quantifier, Stmt, Type, VarDecl, VarId,
};
use crate::syntax::ast::{self, Span};
use expr::Scope;
use std::collections::HashMap;

pub use expr::bv_example;

pub struct Checker<'a> {
    src: &'a str,
    lines: LineIndex,
    file: &'a str,
    /// The file is in the ForEx format (messages name variables `x_0`).
    forex: bool,
    pub diags: Vec<Diagnostic>,
    /// Quantified variables in scope, innermost last.
    bound: Vec<(String, BoundId, Type)>,
    next_bound: u32,
    next_loop: u32,
    /// Variables of the current program whose type was rejected (already reported).
    silent: Vec<String>,
    /// Functions visible here, in definition order (a function sees only earlier ones).
    functions: Vec<lang::FnInfo>,
    /// Every function name of the file (to tell "defined later" from "unknown").
    function_names: Vec<String>,
    /// Functions whose definition had an error (calls of them stay silent).
    broken_functions: Vec<String>,
    /// The function being checked.
    current_fn: Option<String>,
    /// Variables the current body gains by inlining (`f::x`, `m[]`), numbered from
    /// `inline_base`; `inlined` maps a function (or row) to its first variable.
    inline_vars: Vec<VarDecl>,
    inline_base: u32,
    inlined: HashMap<String, u32>,
}

fn elem_name(t: &Type) -> String {
    match t {
        Type::Array(e) => elem_name(e),
        t => t.to_string(),
    }
}

/// Checks a parsed file. `file` names it in the tuples (`Tuple::file`); `src` is its
/// text (for line/column). Returns the module and every error found.
pub fn check(
    file_ast: &ast::File,
    file: &str,
    src: &str,
    forex: bool,
) -> (Module, Vec<Diagnostic>) {
    let mut c = Checker {
        src,
        lines: LineIndex::new(src),
        file,
        forex,
        diags: Vec::new(),
        bound: Vec::new(),
        next_bound: 0,
        next_loop: 0,
        silent: Vec::new(),
        functions: Vec::new(),
        function_names: file_ast
            .functions
            .iter()
            .chain(file_ast.programs.iter().flat_map(|p| &p.functions))
            .map(|f| f.name.name.clone())
            .collect(),
        current_fn: None,
        broken_functions: file_ast.broken_functions.clone(),
        inline_vars: Vec::new(),
        inline_base: 0,
        inlined: HashMap::new(),
    };
    for f in &file_ast.functions {
        c.function(f);
    }
    let mut module = Module::default();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for p in &file_ast.programs {
        if let Some(first) = seen.get(p.name.name.as_str()) {
            c.diags.push(
                Diagnostic::new(
                    format!("program `{}` is defined twice", p.name.name),
                    p.name.span.clone(),
                )
                .with_label("second definition")
                .with_related(first.clone(), "first definition")
                .with_hint("rename one of them"),
            );
            continue;
        }
        seen.insert(&p.name.name, p.name.span.clone());
        module.programs.push(c.program(p));
    }
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for t in &file_ast.tuples {
        if let Some(first) = seen.get(t.name.name.as_str()) {
            c.diags.push(
                Diagnostic::new(
                    format!("tuple `{}` is defined twice", t.name.name),
                    t.name.span.clone(),
                )
                .with_label("second definition")
                .with_related(first.clone(), "first definition")
                .with_hint("rename one of them"),
            );
            continue;
        }
        seen.insert(&t.name.name, t.name.span.clone());
        if let Some(t) = c.tuple(t, &module) {
            module.tuples.push(t);
        }
    }
    (module, c.diags)
}

/// The error for a store into `target`, which is a `ty`, not an array.
fn not_an_array(target: &ast::Ident, ty: &Type) -> Diagnostic {
    Diagnostic::new(format!("`{}` is not an array (it is {ty})", target.name), target.span.clone())
        .with_label(format!("this is {ty}"))
}

/// `if c1 {b1} else if c2 {b2} … else {e}` over `arms` (at least one), nested
/// log₂(arms) deep.
fn balanced_chain(arms: &[(ir::Expr, Vec<Stmt>, Loc)], else_branch: Vec<Stmt>) -> Stmt {
    let mut out = balanced_arms(arms, Some(else_branch));
    debug_assert_eq!(out.len(), 1, "a chain with an else is one `if`");
    out.pop().unwrap_or(Stmt::Skip)
}

/// The arms as nested `if`s: `if (c1 || … || ck) {first half} else {second half}`. With
/// `else_branch` `None` one of the arms is known to hold (the first half of an enclosing
/// split), so the last arm needs no test of its own: without that test the state after
/// the chain has no leaf where no arm ran, which would keep the variables' values from
/// before the chain alive in every copy's term (two copies' outputs then differ in
/// leaves the solver must show unreachable: 21.5 s for NI over 3000 arms).
fn balanced_arms(arms: &[(ir::Expr, Vec<Stmt>, Loc)], else_branch: Option<Vec<Stmt>>) -> Vec<Stmt> {
    if let [(cond, then_branch, loc)] = arms {
        return match else_branch {
            None => then_branch.clone(),
            Some(else_branch) => vec![Stmt::If {
                cond: cond.clone(),
                then_branch: then_branch.clone(),
                else_branch,
                loc: *loc,
            }],
        };
    }
    let (first, second) = arms.split_at(arms.len() / 2);
    let mut conds: Vec<ir::Expr> = first.iter().map(|a| a.0.clone()).collect();
    while conds.len() > 1 {
        let mut next = Vec::with_capacity(conds.len().div_ceil(2));
        let mut it = conds.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => ir::Expr::binary(ir::BinOp::Or, a, b),
                None => a,
            });
        }
        conds = next;
    }
    let cond = conds.pop().unwrap_or_else(|| ir::Expr::bool(false));
    vec![Stmt::If {
        cond,
        then_branch: balanced_arms(first, None),
        else_branch: balanced_arms(second, else_branch),
        loc: first[0].2,
    }]
}

impl Checker<'_> {
    fn loc(&self, span: &Span) -> Loc {
        self.lines.loc(self.src, span.start)
    }

    fn ty(&mut self, t: &ast::Ty) -> Option<Type> {
        Some(match &t.kind {
            ast::TyKind::Int => Type::Int,
            ast::TyKind::Bool => Type::Bool,
            ast::TyKind::Bv(w) => Type::Bv(*w),
            ast::TyKind::Str => Type::Str,
            ast::TyKind::Float(k) => Type::Float(*k),
            ast::TyKind::Array(e) => Type::Array(Box::new(self.ty(e)?)),
            ast::TyKind::Unsupported => return None,
        })
    }

    fn program(&mut self, p: &ast::Program) -> ir::Program {
        // ForEx procedures belong to their section's program.
        let visible = self.functions.len();
        for f in &p.functions {
            self.function(f);
        }
        let (vars, body) = self.body(&[], &p.items, &p.span);
        self.functions.truncate(visible);
        ir::Program { name: p.name.name.clone(), vars, body, loc: self.loc(&p.span) }
    }

    /// Checks a function and makes it visible to what follows.
    fn function(&mut self, f: &ast::Function) {
        if self.functions.iter().any(|g| g.name == f.name.name) {
            self.diags.push(
                Diagnostic::new(
                    format!("function `{}` is defined twice", f.name.name),
                    f.name.span.clone(),
                )
                .with_label("second definition")
                .with_hint("rename one of them"),
            );
            return;
        }
        let mut params = Vec::new();
        let mut ok = true;
        for (t, n) in &f.params {
            match self.ty(t) {
                Some(ty) => params.push((n.clone(), ty)),
                None => ok = false,
            }
        }
        let ret = self.ty(&f.ret);
        self.current_fn = Some(f.name.name.clone());
        let (vars, body) = self.body(&params, &f.items, &f.span);
        let table: HashMap<String, (VarId, Type, Span)> = vars
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.name.contains("::"))
            .map(|(i, v)| (v.name.clone(), (VarId(i as u32), v.ty.clone(), 0..0)))
            .collect();
        let sc = Scope::Program { vars: &table, at: f.result.span.start };
        let result = self.expr(&f.result, &sc);
        self.current_fn = None;
        let (Some(ret), Some(result), true) = (ret, result, ok) else {
            self.broken_functions.push(f.name.name.clone());
            return;
        };
        if result.ty != ret {
            self.diags.push(
                Diagnostic::new(
                    format!("function `{}` returns {ret}, but this is {}", f.name.name, result.ty),
                    f.result.span.clone(),
                )
                .with_label(format!("this is {}", result.ty))
                .with_related(f.ret.span.clone(), "declared return type"),
            );
            self.broken_functions.push(f.name.name.clone());
            return;
        }
        self.functions.push(lang::FnInfo {
            name: f.name.name.clone(),
            params: params.into_iter().map(|p| p.1).collect(),
            vars,
            body,
            result,
        });
    }

    /// Declarations (after `params`, which come first) and statements of a program or a
    /// function: its variable table (with the variables of inlined functions at the end)
    /// and its checked body, loops numbered.
    fn body(
        &mut self,
        params: &[(ast::Ident, Type)],
        items: &[ast::BodyItem],
        span: &Span,
    ) -> (Vec<VarDecl>, Vec<Stmt>) {
        let mut vars: Vec<VarDecl> = Vec::new();
        let mut table: HashMap<String, (VarId, Type, Span)> = HashMap::new();
        let saved = (
            std::mem::take(&mut self.silent),
            std::mem::take(&mut self.inline_vars),
            std::mem::take(&mut self.inlined),
        );
        for (n, ty) in params {
            let id = VarId(vars.len() as u32);
            // A parameter is declared before everything in the body.
            table.insert(n.name.clone(), (id, ty.clone(), 0..0));
            vars.push(VarDecl { name: n.name.clone(), ty: ty.clone(), loc: self.loc(&n.span) });
        }
        for item in items {
            let ast::BodyItem::Decl(d) = item else { continue };
            let Some(ty) = self.ty(&d.ty) else {
                self.silent.extend(d.names.iter().map(|n| n.name.clone()));
                continue;
            };
            for n in &d.names {
                if let Some((_, _, first)) = table.get(&n.name) {
                    self.diags.push(
                        Diagnostic::new(format!("`{}` is declared twice", n.name), n.span.clone())
                            .with_label("second declaration")
                            .with_related(first.clone(), "first declaration")
                            .with_hint("remove one declaration or rename the variable"),
                    );
                    continue;
                }
                let id = VarId(vars.len() as u32);
                table.insert(n.name.clone(), (id, ty.clone(), n.span.clone()));
                vars.push(VarDecl { name: n.name.clone(), ty: ty.clone(), loc: self.loc(&n.span) });
            }
        }
        self.next_loop = 0;
        self.inline_base = vars.len() as u32;
        let mut body = Vec::new();
        for item in items {
            if let ast::BodyItem::Stmt(s) = item {
                self.stmt_into(s, &table, &mut body);
            }
        }
        vars.append(&mut self.inline_vars);
        (self.silent, self.inline_vars, self.inlined) = saved;
        let mut next = 0;
        lang::renumber_loops(&mut body, &mut next);
        if lang::block_depth(&body) > ir::MAX_DEPTH {
            self.diags.push(
                Diagnostic::new(
                    format!(
                        "with its functions inlined, statements nest more than {} levels",
                        ir::MAX_DEPTH
                    ),
                    span.start..span.start + 1,
                )
                .with_label("too deep")
                .with_hint("flatten the nesting of the functions or of their callers"),
            );
        }
        (vars, body)
    }

    fn block(
        &mut self,
        b: &[ast::Stmt],
        table: &HashMap<String, (VarId, Type, Span)>,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in b {
            self.stmt_into(s, table, &mut out);
        }
        out
    }

    fn stmt(
        &mut self,
        s: &ast::Stmt,
        table: &HashMap<String, (VarId, Type, Span)>,
    ) -> Option<Stmt> {
        use ast::StmtKind as S;
        let loc = self.loc(&s.span);
        let sc = Scope::Program { vars: table, at: s.span.start };
        match &s.kind {
            S::Skip => Some(Stmt::Skip),
            S::Assign { target, value } => {
                let v = self.expr(value, &sc);
                let hint_ty = v.as_ref().map(|v| v.ty.to_string()).unwrap_or_else(|| "int".into());
                let (var, ty) = self.program_var(
                    table,
                    s.span.start + 1,
                    &target.name,
                    &target.span,
                    &hint_ty,
                )?;
                let v = v?;
                if v.ty != ty {
                    return self.mismatch(&target.name, &ty, &v.ty, &value.span);
                }
                Some(Stmt::Assign { var, value: v, loc })
            }
            S::Store { target, index, value } => {
                let (i, v) = (self.expr(index, &sc), self.expr(value, &sc));
                let (array, ty) =
                    self.program_var(table, s.span.start + 1, &target.name, &target.span, "int[]")?;
                let (i, v) = (i?, v?);
                let Type::Array(elem) = &ty else {
                    return self.fail(not_an_array(target, &ty).with_hint(
                        "only arrays (`int[] a;`) can be stored into with `a[i] = e;`",
                    ));
                };
                self.expect(&i, &index.span, &Type::Int, "an array index")?;
                if &v.ty != elem.as_ref() {
                    return self.mismatch(&format!("{}[…]", target.name), elem, &v.ty, &value.span);
                }
                Some(Stmt::Store { array, index: i, value: v, loc })
            }
            S::Havoc { target } => {
                let (var, _) =
                    self.program_var(table, s.span.start + 1, &target.name, &target.span, "int")?;
                Some(Stmt::Havoc { var, loc })
            }
            S::Assume(c) => {
                let c2 = self.expr(c, &sc)?;
                self.expect(&c2, &c.span, &Type::Bool, "an `assume` condition")?;
                Some(Stmt::Assume { cond: c2, loc })
            }
            S::If { cond, then_branch, else_branch } => {
                let c2 = match cond {
                    Some(c) => {
                        let c2 = self.expr(c, &sc);
                        c2.and_then(|c2| {
                            self.expect(&c2, &c.span, &Type::Bool, "an `if` condition").map(|_| c2)
                        })
                    }
                    None => None,
                };
                let then_branch = self.block(then_branch, table);
                let else_branch = self.block(else_branch, table);
                match (cond, c2) {
                    (None, _) => Some(Stmt::IfStar { then_branch, else_branch, loc }),
                    (Some(_), Some(cond)) => Some(Stmt::If { cond, then_branch, else_branch, loc }),
                    (Some(_), None) => None,
                }
            }
            S::IfChain { arms, else_branch } => self.if_chain(arms, else_branch, table, &sc),
            // Handled by `stmt_into` (it becomes three statements).
            S::Store2 { .. } => None,
            S::While { cond, body } => {
                // Loops are numbered in source order: a loop before the loops inside it.
                let id = LoopId(self.next_loop);
                self.next_loop += 1;
                let c2 = self.expr(cond, &sc);
                let c2 = c2.and_then(|c2| {
                    self.expect(&c2, &cond.span, &Type::Bool, "a `while` condition").map(|_| c2)
                });
                let body = self.block(body, table);
                Some(Stmt::While { id, cond: c2?, body, loc })
            }
            S::Observe => Some(Stmt::Observe { loc }),
            S::Repeat { body } => {
                let id = LoopId(self.next_loop);
                self.next_loop += 1;
                let body = self.block(body, table);
                Some(Stmt::While { id, cond: ir::Expr::bool(true), body, loc })
            }
            // Expanded by `stmt_into` (into two statements), the only caller.
            S::WhileStar { .. } => self.fail(Diagnostic::new(
                "internal: `while (*)` reached the single-statement checker",
                s.span.clone(),
            )),
        }
    }

    /// `while (*) { B }` becomes `c = *; while (c) { B; c = *; }` with a fresh `bool c`
    /// named `while*@LINE:COL` (no user variable can have that name, and reports show
    /// which loop it decides). Every engine then sees an ordinary loop; the choice
    /// variable is part of the program's state like any other.
    fn while_star(
        &mut self,
        body: &[ast::Stmt],
        table: &HashMap<String, (VarId, Type, Span)>,
        loc: Loc,
    ) -> [Stmt; 2] {
        let id = LoopId(self.next_loop);
        self.next_loop += 1;
        let var = VarId(self.inline_base + self.inline_vars.len() as u32);
        self.inline_vars.push(VarDecl { name: format!("while*@{loc}"), ty: Type::Bool, loc });
        let mut body = self.block(body, table);
        body.push(Stmt::Havoc { var, loc });
        let cond = ir::Expr::var(var, Type::Bool);
        [Stmt::Havoc { var, loc }, Stmt::While { id, cond, body, loc }]
    }

    /// A long `else if` chain as a balanced tree of `if`s: the first half's arms run under
    /// the disjunction of their conditions, the second half's in the else branch. Only
    /// one arm runs and conditions have no effects, so this is the chain's meaning, with
    /// nesting log₂(arms) instead of arms.
    fn if_chain(
        &mut self,
        arms: &[(ast::Expr, Vec<ast::Stmt>, Span)],
        else_branch: &[ast::Stmt],
        table: &HashMap<String, (VarId, Type, Span)>,
        sc: &Scope,
    ) -> Option<Stmt> {
        let mut checked = Vec::with_capacity(arms.len());
        let mut ok = true;
        for (cond, body, span) in arms {
            let c2 = self.expr(cond, sc).and_then(|c2| {
                self.expect(&c2, &cond.span, &Type::Bool, "an `if` condition").map(|_| c2)
            });
            let body = self.block(body, table);
            match c2 {
                Some(c2) => checked.push((c2, body, self.loc(span))),
                None => ok = false,
            }
        }
        let else_branch = self.block(else_branch, table);
        ok.then(|| balanced_chain(&checked, else_branch))
    }

    fn mismatch<T>(&mut self, target: &str, want: &Type, found: &Type, span: &Span) -> Option<T> {
        let hint = match (want, found) {
            (Type::Bv(w), Type::Int) => {
                format!("write a bit-vector literal such as `{}`", bv_example(*w))
            }
            (Type::Bv(_), Type::Bv(_)) => {
                "extract bits with `[hi:lo]`; forex has no implicit width conversions".into()
            }
            _ => "forex has no implicit conversions".into(),
        };
        self.fail(
            Diagnostic::new(
                format!("cannot assign a {found} value to `{target}` of type {want}"),
                span.clone(),
            )
            .with_label(format!("this is {found}"))
            .with_hint(hint),
        )
    }

    fn tuple(&mut self, t: &ast::Tuple, module: &Module) -> Option<ir::Tuple> {
        let mut tuple = ir::Tuple {
            name: t.name.name.clone(),
            file: self.file.to_string(),
            loc: self.loc(&t.span),
            copies: Vec::new(),
            vars: Vec::new(),
            pre: ir::Expr::bool(true),
            post: ir::Expr::bool(true),
            kind: if t.always.is_some() && t.post.is_none() {
                ir::PropertyKind::Always
            } else {
                ir::PropertyKind::Post
            },
            observations: t.observations.as_ref().map(|o| o.0),
            hints: Hints::default(),
            c_view: None,
        };
        let mut copies: HashMap<String, usize> = HashMap::new();
        let mut spans: HashMap<String, Span> = HashMap::new();
        let mut broken: Vec<String> = Vec::new();
        let mut ok = true;
        // ∀ copies first, then ∃ copies, each in source order.
        let ordered = t
            .copies
            .iter()
            .filter(|c| c.quantifier == Quantifier::Forall)
            .chain(t.copies.iter().filter(|c| c.quantifier == Quantifier::Exists));
        for c in ordered {
            if let Some(first) = spans.get(&c.name.name) {
                self.diags.push(
                    Diagnostic::new(
                        format!("copy `{}` is declared twice", c.name.name),
                        c.name.span.clone(),
                    )
                    .with_label("second copy")
                    .with_related(first.clone(), "first copy")
                    .with_hint("give each copy its own name, e.g. `forall a: p, b: p;`"),
                );
                ok = false;
                continue;
            }
            spans.insert(c.name.name.clone(), c.name.span.clone());
            let Some(program) = module.program(&c.program.name) else {
                let hint =
                    match suggest(&c.program.name, module.programs.iter().map(|p| p.name.as_str()))
                    {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!("define it with `program {} {{ … }}`", c.program.name),
                    };
                self.diags.push(
                    Diagnostic::new(
                        format!("unknown program `{}`", c.program.name),
                        c.program.span.clone(),
                    )
                    .with_label("no such program")
                    .with_hint(hint),
                );
                ok = false;
                broken.push(c.name.name.clone());
                continue;
            };
            let k = tuple.add_copy(&c.name.name, program, c.quantifier);
            copies.insert(c.name.name.clone(), k);
        }
        if t.copies.is_empty() {
            self.diags.push(
                Diagnostic::new(
                    format!("tuple `{}` has no copies", t.name.name),
                    t.name.span.clone(),
                )
                .with_label("no `forall` or `exists` line")
                .with_hint("add a line such as `forall a: p, b: p;`"),
            );
            ok = false;
        }
        self.next_bound = 0;
        let sc = Scope::Tuple {
            tuple: &tuple,
            copies: &copies,
            broken: &broken,
            shorthand: t.shorthand,
        };
        let formula = |c: &mut Self, e: &ast::Expr, what: &str| -> Option<ir::Expr> {
            let e2 = c.expr(e, &sc)?;
            c.expect(&e2, &e.span, &Type::Bool, what)?;
            Some(e2)
        };
        let pre = t.pre.as_ref().map(|e| formula(self, e, "a precondition"));
        let post = match (&t.post, &t.always) {
            (Some(e), _) => Some(formula(self, e, "a postcondition")),
            (None, Some(e)) => Some(formula(self, e, "an `always` formula")),
            (None, None) => None,
        };
        let invariants: Vec<_> =
            t.invariants.iter().map(|e| formula(self, e, "an invariant hint")).collect();
        for (copy, var) in &t.mentions {
            let e = ast::Expr::copy_var(copy.clone(), var.clone());
            ok &= self.expr(&e, &sc).is_some();
        }
        tuple.pre = pre.unwrap_or(Some(ir::Expr::bool(true)))?;
        tuple.post = post??;
        tuple.hints.invariants = invariants.into_iter().collect::<Option<Vec<_>>>()?;
        tuple.hints.align = t.align.as_ref().map(|a| a.0);
        tuple.hints.min_conjuncts = t.min_conjuncts.as_ref().map(|a| a.0);
        tuple.hints.max_conjuncts = t.max_conjuncts.as_ref().map(|a| a.0);
        tuple.hints.trace_bound = t.trace_bound;
        tuple.hints.only_hints = t.only_hints;
        ok.then_some(tuple)
    }
}
