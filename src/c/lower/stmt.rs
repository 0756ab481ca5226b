//! Statements: scopes, declarations with their initialisers, loops, `return`, `break`
//! and `continue` as flags (the IR has no jumps: `flow` guards the rest of a block
//! with them), `switch` and `goto` through `flow`.

use super::flow::jumps;
use super::{and, not, or, LoopCtx, Lowerer, Span, VarTy};
use crate::c::ast::{self, StmtKind, Type};
use crate::ir::c::CScalar;
use crate::ir::{Expr, ExprKind, LoopId, Stmt, Type as IrType, VarId};
use std::collections::HashMap;

impl Lowerer<'_, '_> {
    /// A block in its own scope; `tail`: its end is the function's end.
    pub(super) fn block_stmts(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        self.frame().scopes.push(HashMap::new());
        let out = self.seq(stmts, tail);
        self.frame().scopes.pop();
        out
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt, tail: bool, out: &mut Vec<Stmt>) {
        let loc = self.loc(&s.span);
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => out.extend(self.block_stmts(b, tail)),
            StmtKind::Decl(ds) => {
                for d in ds {
                    self.decl(d, out);
                }
            }
            StmtKind::Expr(e) => {
                self.effect(e, out);
            }
            StmtKind::If(c, a, b) => {
                let Some(cv) = self.expr(c, out) else { return };
                let cond = self.m().truth(&cv);
                let then_branch = self.block_stmts(std::slice::from_ref(a), tail);
                let else_branch = match b {
                    Some(b) => self.block_stmts(std::slice::from_ref(b), tail),
                    None => Vec::new(),
                };
                out.push(Stmt::If { cond, then_branch, else_branch, loc });
            }
            StmtKind::While(c, body) => self.lower_loop(Some(c), body, None, false, &s.span, out),
            StmtKind::DoWhile(body, c) => self.lower_loop(Some(c), body, None, true, &s.span, out),
            StmtKind::For { init, cond, step, body } => {
                self.frame().scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i, false, out);
                }
                self.lower_loop(cond.as_ref(), body, step.as_ref(), false, &s.span, out);
                self.frame().scopes.pop();
            }
            StmtKind::Break | StmtKind::Continue => {
                let brk = matches!(s.kind, StmtKind::Break);
                // `break` leaves the innermost loop or `switch`, `continue` the innermost loop.
                let target = self.frame().loops.iter().rposition(|l| brk || !l.switch);
                let Some(k) = target else {
                    let (w, what) =
                        if brk { ("break", "loop or `switch`") } else { ("continue", "loop") };
                    self.err(format!("`{w}` outside a {what}"), &s.span, "nothing to leave");
                    return;
                };
                let existing = {
                    let l = &self.frame().loops[k];
                    if brk {
                        l.brk
                    } else {
                        l.cont
                    }
                };
                let flag = match existing {
                    Some(f) => f,
                    None => {
                        let base = if brk { "break" } else { "continue" };
                        let prefix = self.frame().prefix.clone();
                        let f = self.fresh(
                            &format!("{prefix}{base}"),
                            VarTy::Scalar(CScalar::Bool),
                            &s.span,
                        );
                        let l = &mut self.frame().loops[k];
                        if brk {
                            l.brk = Some(f)
                        } else {
                            l.cont = Some(f)
                        }
                        f
                    }
                };
                out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
            }
            StmtKind::Switch(e, body) => self.switch(e, body, &s.span, out),
            StmtKind::Case(..) | StmtKind::Default(_) => {
                self.err(
                    "`case` and `default` labels are read only directly in a `switch` body",
                    &s.span,
                    "not directly in a `switch`",
                );
            }
            StmtKind::Label(_, inner) => self.stmt(inner, tail, out),
            StmtKind::Goto(label) => self.goto(label, &s.span, out),
            StmtKind::Other(what) => {
                self.err(format!("{what} is not supported"), &s.span, "outside what forex reads");
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let Some(v) = self.expr(e, out) else { return };
                    match self.frame().ret {
                        Some((r, ty)) => {
                            let value = self.m().convert(&v, ty);
                            out.push(Stmt::Assign { var: r, value, loc });
                        }
                        None => {
                            let f = self.frame().func.clone();
                            self.err(
                                format!("`{f}` returns `void`: no value to return"),
                                &e.span,
                                "a value",
                            );
                            return;
                        }
                    }
                }
                let in_loop = !self.frame().loops.is_empty();
                if !tail || in_loop {
                    let flag = match self.frame().ret_flag {
                        Some(f) => f,
                        None => {
                            let prefix = self.frame().prefix.clone();
                            let f = self.var(
                                &format!("{prefix}$return"),
                                VarTy::Scalar(CScalar::Bool),
                                &s.span,
                            );
                            self.frame().ret_flag = Some(f);
                            f
                        }
                    };
                    out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
                }
            }
        }
    }

    /// `while`, `do … while` (`do_first`) and `for` (with `step`).
    fn lower_loop(
        &mut self,
        cond: Option<&ast::Expr>,
        body: &ast::Stmt,
        step: Option<&ast::Expr>,
        do_first: bool,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        // The condition's own statements (effects, division guards), if any.
        let mut cond_stmts = Vec::new();
        let cv = match cond {
            Some(c) => match self.expr(c, &mut cond_stmts) {
                Some(v) => self.m().truth(&v),
                None => return,
            },
            None => Expr::bool(true),
        };
        let needs_var = do_first || !cond_stmts.is_empty();
        self.frame().loops.push(LoopCtx::default());
        let ret_before = self.frame().ret_flag;
        let mut inner = self.block_stmts(std::slice::from_ref(body), false);
        let ctx = self.frame().loops.pop().expect("loop");
        let ret_flag = self.frame().ret_flag;
        let j = jumps(body);
        let _ = ret_before;
        let mut exits: Vec<Expr> = Vec::new();
        if let Some(b) = ctx.brk {
            exits.push(Expr::var(b, IrType::Bool));
        }
        if j.ret {
            if let Some(r) = ret_flag {
                exits.push(Expr::var(r, IrType::Bool));
            }
        }
        // A `goto` out of the loop leaves it too.
        for g in &j.gotos {
            if let Some(f) = self.frame().gotos.get(g) {
                exits.push(Expr::var(*f, IrType::Bool));
            }
        }
        let running = exits.iter().cloned().reduce(or).map(not);
        if let Some(c) = ctx.cont {
            inner.insert(0, Stmt::Assign { var: c, value: Expr::bool(false), loc });
        }
        let mut tail_stmts = Vec::new();
        if let Some(st) = step {
            self.effect(st, &mut tail_stmts);
        }
        let guard_var = if needs_var {
            let base = format!("{}loop", self.frame().prefix);
            let g = self.fresh(&base, VarTy::Scalar(CScalar::Bool), sp);
            tail_stmts.extend(cond_stmts.iter().cloned());
            tail_stmts.push(Stmt::Assign { var: g, value: cv.clone(), loc });
            Some(g)
        } else {
            None
        };
        if !tail_stmts.is_empty() {
            match &running {
                Some(r) => inner.push(Stmt::If {
                    cond: r.clone(),
                    then_branch: tail_stmts,
                    else_branch: Vec::new(),
                    loc,
                }),
                None => inner.extend(tail_stmts),
            }
        }
        if let Some(b) = ctx.brk {
            out.push(Stmt::Assign { var: b, value: Expr::bool(false), loc });
        }
        let guard = match guard_var {
            Some(g) => {
                if do_first {
                    out.push(Stmt::Assign { var: g, value: Expr::bool(true), loc });
                } else {
                    out.extend(cond_stmts);
                    out.push(Stmt::Assign { var: g, value: cv, loc });
                }
                Expr::var(g, IrType::Bool)
            }
            None => cv,
        };
        let cond = match running {
            Some(r) => and(r, guard),
            None => guard,
        };
        out.push(Stmt::While { id: LoopId(0), cond, body: inner, loc });
    }

    fn decl(&mut self, d: &ast::VarDecl, out: &mut Vec<Stmt>) {
        let loc = self.loc(&d.name.span);
        match d.storage {
            ast::Storage::Static | ast::Storage::ThreadLocal => {
                self.err(
                    "`static` local variables are not supported yet",
                    &d.span,
                    "a static local",
                );
                return;
            }
            ast::Storage::Extern => {
                self.err(
                    "`extern` declarations in functions are not supported yet",
                    &d.span,
                    "here",
                );
                return;
            }
            ast::Storage::Auto => {}
        }
        let vt = match self.cx.var_ty(&d.ty) {
            Ok(t) => t,
            Err((what, in_declarator)) => {
                let at = if in_declarator { &d.span } else { &d.ty_span };
                let what = if matches!(d.ty, Type::Void) {
                    format!("`{}` is declared `void`", d.name.name)
                } else {
                    what
                };
                self.err(what, at, "this declaration's type");
                return;
            }
        };
        match vt {
            VarTy::Scalar(s) => {
                // The initialiser is evaluated before the name is in scope (`int x = x;`
                // reads an outer `x`, as in C only after the declarator; close enough).
                let init = match &d.init {
                    Some(ast::Init::Expr(e)) => self.expr(e, out),
                    Some(ast::Init::List(items, sp)) => match items.as_slice() {
                        [ast::InitItem { designators, init: ast::Init::Expr(e) }]
                            if designators.is_empty() =>
                        {
                            self.expr(e, out)
                        }
                        _ => {
                            self.err("a scalar takes one initialiser", sp, "here");
                            None
                        }
                    },
                    None => None,
                };
                let v = self.declare(&d.name, VarTy::Scalar(s));
                self.decl_types.insert(v, d.ty.clone());
                if let Some(iv) = init {
                    let value = self.m().convert(&iv, s);
                    out.push(Stmt::Assign { var: v, value, loc });
                }
            }
            VarTy::Array(elem, dims) => {
                let v = self.declare(&d.name, VarTy::Array(elem, dims));
                self.decl_types.insert(v, d.ty.clone());
                match &d.init {
                    None => {}
                    Some(ast::Init::Expr(e)) => {
                        self.err(
                            "an array is initialised with a list `{…}`",
                            &e.span,
                            "not a list",
                        );
                    }
                    Some(ast::Init::List(items, sp)) => {
                        if dims > 1 && !all_zero(items) {
                            self.err(
                                "initialisers of two-dimensional arrays other than `{0}` are \
                                 not supported",
                                sp,
                                "here",
                            );
                            return;
                        }
                        let mut values = Vec::new();
                        for it in items.iter().filter(|_| dims == 1) {
                            let ast::Init::Expr(e) = &it.init else {
                                self.err("nested initialiser lists are not supported", sp, "here");
                                return;
                            };
                            if !it.designators.is_empty() {
                                self.err(
                                    "designated initialisers (`[i] = v`) are not supported yet",
                                    &e.span,
                                    "designated",
                                );
                                return;
                            }
                            let Some(iv) = self.expr(e, out) else { return };
                            values.push(self.m().convert(&iv, elem));
                        }
                        // The size is evaluated for its effects and division guards.
                        if let Type::Array(_, Some(n)) = &d.ty {
                            if n.has_effects() {
                                self.expr(n, out);
                            }
                        }
                        self.init_array(v, elem, dims as usize, values, sp, out);
                    }
                }
            }
        }
    }

    /// `T a[n] = {v0, …, vk}`: every element zero (C zeroes what the list does not
    /// name), then the listed ones. The whole array starts as a constant, so two copies'
    /// arrays initialised alike are equal everywhere, and no loop fills the rest.
    fn init_array(
        &mut self,
        a: VarId,
        elem: CScalar,
        dims: usize,
        values: Vec<Expr>,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        let mut zero = self.m().lit_i(0, elem);
        for _ in 0..dims {
            let ty = IrType::Array(Box::new(zero.ty.clone()));
            zero = Expr { kind: ExprKind::ConstArray(Box::new(zero)), ty };
        }
        out.push(Stmt::Assign { var: a, value: zero, loc });
        let z = self.m().lit_i(0, elem);
        for (i, v) in values.into_iter().enumerate() {
            if v != z {
                out.push(Stmt::Store { array: a, index: Expr::int(i as i64), value: v, loc });
            }
        }
    }
}

/// Whether an initialiser list is `{}`, `{0}`, `{0, 0}`, …
fn all_zero(items: &[ast::InitItem]) -> bool {
    use num_traits::Zero;
    items.iter().all(|it| {
        it.designators.is_empty()
            && matches!(&it.init, ast::Init::Expr(e) if matches!(&e.kind, ast::ExprKind::Int(v, _) if v.is_zero()))
    })
}
