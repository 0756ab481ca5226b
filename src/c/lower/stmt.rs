//! Statements: scopes, declarations with their initialisers, loops, and the flags that
//! stand for `return`, `break` and `continue`, which the IR lacks: the rest of a block
//! runs under a guard instead.

use super::{and, not, or, LoopCtx, Lowerer, Span, VarTy};
use crate::c::ast::{self, DeclTy, StmtKind};

use crate::ir::c::CScalar;
use crate::ir::{Expr, ExprKind, LoopId, Stmt, Type, VarId};
use std::collections::HashMap;

fn flat(b: Vec<Stmt>) -> Vec<Stmt> {
    b
}

/// Whether a statement contains `break`/`continue` of the enclosing loop, and `return`.
fn jumps(s: &ast::Stmt) -> (bool, bool) {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => (true, false),
        StmtKind::Return(_) => (false, true),
        StmtKind::If(_, a, b) => {
            let (x1, y1) = jumps(a);
            let (x2, y2) = b.as_ref().map(|b| jumps(b)).unwrap_or((false, false));
            (x1 || x2, y1 || y2)
        }
        StmtKind::Block(ss) => {
            ss.iter().map(jumps).fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1))
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } => {
            (false, jumps(b).1)
        }
        _ => (false, false),
    }
}

impl Lowerer<'_, '_> {
    /// A block in its own scope; `tail`: its end is the function's end.
    pub(super) fn block_stmts(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        self.frame().scopes.push(HashMap::new());
        let out = self.seq(stmts, tail);
        self.frame().scopes.pop();
        out
    }

    pub(super) fn seq(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            self.stmt(s, tail && last, &mut out);
            if last {
                break;
            }
            let (loop_jump, ret) = jumps(s);
            let mut flags = Vec::new();
            if ret {
                if let Some(f) = self.frame().ret_flag {
                    flags.push(f);
                }
            }
            if loop_jump {
                if let Some(l) = self.frame().loops.last() {
                    flags.extend(l.brk);
                    flags.extend(l.cont);
                }
            }
            if !flags.is_empty() {
                let cond = flags
                    .into_iter()
                    .map(|f| Expr::var(f, Type::Bool))
                    .reduce(or)
                    .expect("nonempty");
                // The rest is guarded; declarations in it stay in this scope.
                let rest = self.seq(&stmts[i + 1..], tail);
                out.push(Stmt::If {
                    cond: not(cond),
                    then_branch: rest,
                    else_branch: Vec::new(),
                    loc: self.loc(&stmts[i + 1].span),
                });
                return out;
            }
        }
        out
    }

    fn stmt(&mut self, s: &ast::Stmt, tail: bool, out: &mut Vec<Stmt>) {
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
                if self.frame().loops.is_empty() {
                    let w = if brk { "break" } else { "continue" };
                    self.err(format!("`{w}` outside a loop"), &s.span, "no enclosing loop");
                    return;
                }
                let n = self.frame().loops.len();
                let existing = {
                    let l = self.frame().loops.last().expect("loop");
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
                        let l = self.frame().loops.last_mut().expect("loop");
                        if brk {
                            l.brk = Some(f)
                        } else {
                            l.cont = Some(f)
                        }
                        let _ = n;
                        f
                    }
                };
                out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
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
        let returns = jumps(body).1;
        let _ = ret_before;
        let mut exits: Vec<Expr> = Vec::new();
        if let Some(b) = ctx.brk {
            exits.push(Expr::var(b, Type::Bool));
        }
        if returns {
            if let Some(r) = ret_flag {
                exits.push(Expr::var(r, Type::Bool));
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
                Expr::var(g, Type::Bool)
            }
            None => cv,
        };
        let cond = match running {
            Some(r) => and(r, guard),
            None => guard,
        };
        out.push(Stmt::While { id: LoopId(0), cond, body: flat(inner), loc });
    }

    fn decl(&mut self, d: &ast::VarDecl, out: &mut Vec<Stmt>) {
        let loc = self.loc(&d.name.span);
        match &d.ty {
            DeclTy::Void => {}
            DeclTy::Scalar(s) => {
                // The initialiser is evaluated before the name is in scope (`int x = x;`
                // reads an outer `x`, as in C only after the declarator; close enough).
                let init = match &d.init {
                    Some(ast::Init::Expr(e)) => self.expr(e, out),
                    Some(ast::Init::List(items, sp)) => match items.as_slice() {
                        [e] => self.expr(e, out),
                        _ => {
                            self.err("a scalar takes one initialiser", sp, "here");
                            None
                        }
                    },
                    None => None,
                };
                let v = self.declare(&d.name, VarTy::Scalar(*s));
                if let Some(iv) = init {
                    let value = self.m().convert(&iv, *s);
                    out.push(Stmt::Assign { var: v, value, loc });
                }
            }
            DeclTy::Array(elem, dims) => {
                let v = self.declare(&d.name, VarTy::Array(*elem, dims.len() as u32));
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
                        if dims.len() > 1 && !items.is_empty() && !all_zero(items) {
                            self.err(
                                "initialisers of two-dimensional arrays other than `{0}` are \
                                 not supported",
                                sp,
                                "here",
                            );
                            return;
                        }
                        let mut values = Vec::new();
                        for it in items.iter().filter(|_| dims.len() == 1) {
                            let Some(iv) = self.expr(it, out) else { return };
                            values.push(self.m().convert(&iv, *elem));
                        }
                        // The size is evaluated for its effects and division guards.
                        for size in dims.iter().flatten() {
                            if size.has_effects() {
                                self.expr(size, out);
                            }
                        }
                        self.init_array(v, *elem, dims.len(), values, sp, out);
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
            let ty = Type::Array(Box::new(zero.ty.clone()));
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

/// Whether an initialiser list is `{0}`, `{0, 0}`, …
fn all_zero(items: &[ast::Expr]) -> bool {
    use num_traits::Zero;
    items.iter().all(|e| matches!(&e.kind, ast::ExprKind::Int(v, _) if v.is_zero()))
}
