//! Statements: scopes, declarations with their initialisers, loops, `return`, `break`
//! and `continue` as flags (the IR has no jumps: `flow` guards the rest of a block
//! with them), `switch` and `goto` through `flow`.

use super::ctype::{self, CTy};
use super::flow::jumps;
use super::place::Place;
use super::{and, not, or, LoopCtx, Lowerer, Span, VarTy};
use crate::c::ast::{self, StmtKind, Type};
use crate::ir::c::CScalar;
use crate::ir::{Expr, ExprKind, LoopId, Stmt, Type as IrType, VarId};
use std::collections::HashMap;

impl Lowerer<'_, '_> {
    /// A block in its own scope; `tail`: its end is the function's end.
    pub(super) fn block_stmts(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        self.block_into(stmts, tail, &mut out);
        out
    }

    /// [`Lowerer::block_stmts`] appending to `out`.
    pub(super) fn block_into(&mut self, stmts: &[ast::Stmt], tail: bool, out: &mut Vec<Stmt>) {
        self.frame().scopes.push(HashMap::new());
        self.seq_into(stmts, tail, out);
        self.frame().scopes.pop();
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt, tail: bool, out: &mut Vec<Stmt>) {
        let loc = self.loc(&s.span);
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => self.block_into(b, tail, out),
            StmtKind::Decl(ds) => {
                for d in ds {
                    self.decl(d, out);
                }
            }
            StmtKind::Expr(e) => {
                self.effect(e, out);
            }
            StmtKind::If(c, a, b) => {
                let Some(cond) = self.cond(c, out) else { return };
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
                if let Some(e) = e.as_ref().filter(|e| self.is_tail_call(e)) {
                    // `return f(…);` in `f`: round its loop again.
                    self.tail_call(e, out);
                    let flag = self.return_flag(&s.span);
                    out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
                    return;
                }
                if let Some(e) = e {
                    let Some(v) = self.value(e, out) else { return };
                    match self.frame().ret.clone() {
                        Some(slot) => {
                            let Some(v) = self.convert_value(v, &slot.ty, &e.span) else { return };
                            self.write_leaves(&Place::of_slot(slot), v.leaves(), &s.span, out);
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
                    let flag = self.return_flag(&s.span);
                    out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
                }
            }
        }
    }

    /// The current function's `return` flag (made on first use).
    pub(super) fn return_flag(&mut self, at: &Span) -> VarId {
        if let Some(f) = self.frame().ret_flag {
            return f;
        }
        let prefix = self.frame().prefix.clone();
        let f = self.var(&format!("{prefix}$return"), VarTy::Scalar(CScalar::Bool), at);
        self.frame().ret_flag = Some(f);
        f
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
            Some(c) => match self.cond(c, &mut cond_stmts) {
                Some(v) => v,
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
        let ty = match self.decl_type(d) {
            Ok(t) => t,
            Err(what) => {
                let in_declarator = matches!(d.ty, Type::Pointer(_) | Type::Function(_))
                    || ctype::cty(self.cx, &d.ty).is_err_and(|e| e.1);
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
        if matches!(ty, CTy::Void) {
            self.err(
                format!("`{}` is declared `void`", d.name.name),
                &d.ty_span,
                "this declaration's type",
            );
            return;
        }
        match d.storage {
            // One only ever read holds its initial value: a local with its initialiser
            // (a table of coefficients is then part of the function, not an input).
            ast::Storage::Static | ast::Storage::ThreadLocal if !self.constant_static(d, &ty) => {
                self.static_local(d, &ty);
                return;
            }
            ast::Storage::Static | ast::Storage::ThreadLocal => {}
            ast::Storage::Extern => {
                match self.global_slot(&d.name.name, &d.name.span) {
                    Some(slot) => self.bind(&d.name.name, slot, false),
                    None => self.err(
                        format!("`extern {}` names no global of the file", d.name.name),
                        &d.span,
                        "no such global",
                    ),
                }
                return;
            }
            ast::Storage::Auto => {}
        }
        let _ = loc;
        match &d.init {
            // The initialiser is evaluated before the name is in scope (`int x = x;`
            // reads an outer `x`, as in C only after the declarator; close enough).
            Some(ast::Init::Expr(e)) if !matches!(ty, CTy::Array(..)) => {
                let Some(v) = self.value_as(e, &ty, out) else { return };
                let Some(v) = self.convert_value(v, &ty, &e.span) else { return };
                let Some(slot) = self.declare(&d.name, &ty) else { return };
                let place = Place::of_slot(slot);
                self.write_leaves(&place, v.leaves(), &d.span, out);
            }
            Some(ast::Init::List(items, sp)) if !matches!(ty, CTy::Array(..) | CTy::Struct(_)) => {
                let e = match items.as_slice() {
                    [ast::InitItem { designators, init: ast::Init::Expr(e) }]
                        if designators.is_empty() =>
                    {
                        e
                    }
                    _ => {
                        self.err("a scalar takes one initialiser", sp, "here");
                        return;
                    }
                };
                let Some(v) = self.value(e, out) else { return };
                let Some(v) = self.convert_value(v, &ty, &e.span) else { return };
                let Some(slot) = self.declare(&d.name, &ty) else { return };
                self.write_leaves(&Place::of_slot(slot), v.leaves(), &d.span, out);
            }
            init => {
                // A VLA's length, evaluated where it is declared (and kept, where an index
                // into it can be undefined behaviour).
                let mut len = None;
                if let (CTy::Array(_, None), Type::Array(_, Some(n))) = (&ty, &d.ty) {
                    let Some(nv) = self.expr(n, out) else { return };
                    len = Some(nv);
                }
                let Some(mut slot) = self.declare(&d.name, &ty) else { return };
                if let (Some(nv), false) = (len, self.cx.elaenia) {
                    let base = self.vars[place_var(&slot).index()].name.clone();
                    let lv =
                        self.var(&format!("{base}$len"), VarTy::Scalar(ctype::OFF), &d.name.span);
                    let value = self.m().convert(&nv, ctype::OFF);
                    out.push(Stmt::Assign { var: lv, value, loc: self.loc(&d.span) });
                    slot.len = Some(self.val_of(lv).e);
                    self.bind(&d.name.name, slot.clone(), self.frames.len() == 1);
                }
                if let Some(init) = init {
                    let place = Place::of_slot(slot);
                    self.init_place(&place, init, &d.span, out);
                }
            }
        }
    }

    /// Every leaf of the place zero (C's static initial value; what an initialiser list
    /// leaves out).
    pub(super) fn zero_place(&mut self, p: &Place, sp: &Span, out: &mut Vec<Stmt>) {
        let zero = self.zero_leaves(&p.ty);
        self.write_leaves(p, zero, sp, out);
    }

    /// Zero values of a type's leaves (`NULL` for pointers; arrays constant).
    pub(super) fn zero_leaves(&mut self, ty: &CTy) -> Vec<Expr> {
        let Some(leaves) = ctype::leaves(self.cx, ty) else { return vec![] };
        let m = self.m();
        leaves
            .into_iter()
            .map(|l| {
                let mut e = m.lit_i(0, l.scalar);
                for _ in 0..l.dims {
                    let t = IrType::Array(Box::new(e.ty.clone()));
                    e = Expr { kind: ExprKind::ConstArray(Box::new(e)), ty: t };
                }
                e
            })
            .collect()
    }

    /// An initialiser (`= e`, `= {…}` with designators and nested lists) into a place:
    /// for a list, everything zero first (C zeroes what the list does not name), so two
    /// arrays initialised alike are equal everywhere and no loop fills the rest.
    pub(super) fn init_place(
        &mut self,
        p: &Place,
        init: &ast::Init,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        match init {
            ast::Init::Expr(e) => {
                if let CTy::Array(..) = p.ty {
                    if matches!(e.kind, ast::ExprKind::Str(_)) {
                        self.err(
                            "string literals are not supported",
                            &e.span,
                            "outside the C subset",
                        );
                    } else {
                        self.err(
                            "an array is initialised with a list `{…}`",
                            &e.span,
                            "not a list",
                        );
                    }
                    return;
                }
                let Some(v) = self.value_as(e, &p.ty, out) else { return };
                let Some(v) = self.convert_value(v, &p.ty, &e.span) else { return };
                self.write_leaves(p, v.leaves(), sp, out);
            }
            ast::Init::List(items, lsp) => match p.ty.clone() {
                CTy::Array(elem, len) => {
                    self.zero_place(p, sp, out);
                    let mut pos: u64 = 0;
                    for it in items {
                        match it.designators.as_slice() {
                            [] => {}
                            [ast::Designator::Index(e)] => match self.constant(e) {
                                Some(v) => pos = v,
                                None => {
                                    self.err(
                                        "a designator's index must be a constant",
                                        &e.span,
                                        "not constant",
                                    );
                                    return;
                                }
                            },
                            _ => {
                                self.err("this designator is not supported", lsp, "here");
                                return;
                            }
                        }
                        if len.is_some_and(|n| pos >= n) {
                            self.err(
                                "more initialisers than the array has elements",
                                lsp,
                                "too many",
                            );
                            return;
                        }
                        let q = self.index_const(p, &elem, pos, len);
                        self.init_item(&q, &it.init, sp, out);
                        pos += 1;
                    }
                }
                CTy::Struct(id) => {
                    self.zero_place(p, sp, out);
                    let Some(members) = ctype::record_members(self.cx, id) else { return };
                    let mut pos = 0usize;
                    for it in items {
                        match it.designators.as_slice() {
                            [] => {}
                            [ast::Designator::Member(f)] => {
                                match members.iter().position(|m| m.0 == f.name) {
                                    Some(i) => pos = i,
                                    None => {
                                        self.err(
                                            format!("no member `{}`", f.name),
                                            &f.span,
                                            "no such member",
                                        );
                                        return;
                                    }
                                }
                            }
                            _ => {
                                self.err("this designator is not supported", lsp, "here");
                                return;
                            }
                        }
                        let Some((name, _)) = members.get(pos) else {
                            self.err(
                                "more initialisers than the struct has members",
                                lsp,
                                "too many",
                            );
                            return;
                        };
                        let id = ast::Ident { name: name.clone(), span: lsp.clone() };
                        let Some(q) = self.member_place(p.clone(), &id) else { return };
                        self.init_item(&q, &it.init, sp, out);
                        pos += 1;
                    }
                }
                _ => match items.as_slice() {
                    [ast::InitItem { designators, init }] if designators.is_empty() => {
                        self.init_place(p, init, sp, out)
                    }
                    _ => self.err("a scalar takes one initialiser", lsp, "here"),
                },
            },
        }
    }

    /// One item of a list into an element or member: `0` for an aggregate leaves it
    /// zero; other values for an aggregate need their own braces.
    fn init_item(&mut self, q: &Place, init: &ast::Init, sp: &Span, out: &mut Vec<Stmt>) {
        if let (ast::Init::Expr(e), CTy::Array(..) | CTy::Struct(_)) = (init, &q.ty) {
            if let ast::ExprKind::Int(v, _) = &e.kind {
                if num_traits::Zero::is_zero(v) {
                    return;
                }
            }
            if matches!(q.ty, CTy::Array(..)) {
                self.err(
                    "initialisers without braces around an inner array (brace elision) are not \
                     supported",
                    &e.span,
                    "put this element's values in `{…}`",
                );
                return;
            }
        }
        self.init_place(q, init, sp, out);
    }

    /// Element `pos` of an array place (a constant index: no check).
    pub(super) fn index_const(
        &mut self,
        p: &Place,
        elem: &CTy,
        pos: u64,
        len: Option<u64>,
    ) -> Place {
        let mut q = p.clone();
        q.ty = elem.clone();
        q.idx.push(Expr::int(pos as i64));
        q.idx_off = Some(self.m().off(pos as i64));
        q.dim_len = len.map(super::memory::Len::Const);
        q
    }

    /// The value of an integer constant expression (designators, sizes).
    pub(super) fn constant(&self, e: &ast::Expr) -> Option<u64> {
        use num_traits::ToPrimitive;
        crate::c::consts::eval(e, self.cx.tables(), &|_| None).and_then(|(v, _)| v.to_u64())
    }
}

/// The first leaf variable of a slot.
fn place_var(s: &super::place::Slot) -> VarId {
    s.leaves.first().and_then(super::place::var_of).unwrap_or(VarId(0))
}
