//! Expressions: C values with their types (scalars, pointers, structs), effects in C's
//! order through temporaries (IR expressions are pure), and `assume`s where C leaves an
//! operation undefined and forex gives it no run (division by zero, `INT_MIN / -1`,
//! out-of-range shifts).

use super::access::lvalue_form;
use super::ctype::{self, CTy};
use super::place::{self, is_null_constant, Place, Ptr, Root, Slot, CV};
use super::{and, not, or, Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp, ExprKind as K, Type as CType, UnaryOp};
use crate::c::types::{common, ite, Val};
use crate::ir::c::CScalar;
use crate::ir::{Expr, Stmt, Type};

impl Lowerer<'_, '_> {
    /// An expression statement: its effects, value discarded.
    pub(super) fn effect(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        match &e.kind {
            K::IncDec { arg, inc, .. } => {
                let op = if *inc { BinaryOp::Add } else { BinaryOp::Sub };
                let one = ast::Expr { kind: K::Int(1.into(), CScalar::Int), span: e.span.clone() };
                self.assign(Some(op), arg, &one, &e.span, out);
            }
            K::Assign(op, l, r) => {
                self.assign(*op, l, r, &e.span, out);
            }
            K::Comma(a, b) => {
                self.effect(a, out);
                self.effect(b, out);
            }
            K::Call(f, args) => {
                self.call(f, args, &e.span, out, true);
            }
            // `(void)e;`: e's effects.
            K::Cast(CType::Void, a) => self.effect(a, out),
            _ => {
                self.value(e, out);
            }
        }
    }

    /// A name that is no variable: what it is instead, as an error.
    pub(super) fn unknown_name(&mut self, name: &str, sp: &Span) {
        if self.cx.functions.contains_key(name) || self.cx.libraries.contains_key(name) {
            self.err(
                format!("`{name}` is a function: function pointers are not supported"),
                sp,
                "a function used as a value",
            );
        } else if !self.cx.globals.contains_key(name) {
            self.err(format!("unknown variable `{name}`"), sp, "not declared");
        }
    }

    /// `l op= r` (or `l = r`); returns the stored value.
    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        l: &ast::Expr,
        r: &ast::Expr,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let p = self.place(l, out, false)?;
        if let CTy::Array(..) = p.ty {
            let what = match &l.kind {
                K::Var(n) => format!("`{n}` is an array: assign its elements"),
                _ => "an array cannot be assigned: assign its elements".into(),
            };
            self.err(what, &l.span, "an array");
            return None;
        }
        if let Root::Deref(ptr) = &p.root {
            let ptr = ptr.clone();
            self.check_access(&ptr, sp, out);
        }
        let value = match op {
            None => {
                let rv = self.value_as(r, &p.ty, out)?;
                self.convert_value(rv, &p.ty, &r.span)?
            }
            Some(op) => {
                let leaves = self.read_leaves(&p, sp);
                let cur = CV::of_leaves(&p.ty, leaves)?;
                let rv = self.value(r, out)?;
                let v = self.binary_values(op, cur, rv, sp, out)?;
                self.convert_value(v, &p.ty, sp)?
            }
        };
        self.write_leaves(&p, value.clone().leaves(), sp, out);
        // A plain scalar variable reads back as itself (chains `a = b = c` stay small).
        if let (Root::Slot(s), CV::S(v)) = (&p.root, &value) {
            if p.idx.is_empty() && p.sel.len() == 1 {
                return Some(CV::S(Val { e: s.leaves[p.sel.start].clone(), ty: v.ty }));
            }
        }
        Some(value)
    }

    /// A scalar expression's value; its effects and guards go to `out`.
    pub fn expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Val> {
        let v = self.value(e, out)?;
        self.scalar(v, &e.span)
    }

    /// The scalar of a value (an error for pointers and structs).
    pub(super) fn scalar(&mut self, v: CV, sp: &Span) -> Option<Val> {
        match v {
            CV::S(v) => Some(v),
            CV::P(_) => {
                self.err(
                    "a pointer used as a number (pointer ↔ integer conversions are not supported)",
                    sp,
                    "a pointer",
                );
                None
            }
            CV::R(..) => {
                self.err("a struct value used as a number", sp, "a struct");
                None
            }
        }
    }

    /// `e` as a condition: non-zero, or a pointer not `NULL`.
    pub(super) fn cond(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<crate::ir::Expr> {
        let v = self.value(e, out)?;
        self.truth_value(v, &e.span)
    }

    pub(super) fn truth_value(&mut self, v: CV, sp: &Span) -> Option<crate::ir::Expr> {
        let m = self.m();
        match v {
            CV::S(v) => Some(m.truth_of(v)),
            CV::P(p) => Some(super::memory::not_fold(m.is_tag(&p.obj, 0))),
            CV::R(..) => {
                self.err("a struct value used as a condition", sp, "a struct");
                None
            }
        }
    }

    /// `e` converted to type `to` where C converts implicitly (an assignment, an
    /// argument, a `return`): `malloc` and `calloc` make an object of `to`'s target.
    pub(super) fn value_as(&mut self, e: &ast::Expr, to: &CTy, out: &mut Vec<Stmt>) -> Option<CV> {
        if let (CTy::Ptr(target), Some((f, args))) = (to, heap_call(e)) {
            if !self.cx.functions.contains_key(f.name.as_str()) {
                return self.allocate(&f.name, args, target, &e.span, out).map(CV::P);
            }
        }
        self.value(e, out)
    }

    /// A value converted as C converts on assignment (and on casts): integers among
    /// themselves, `0` to a null pointer, pointers to `void *` and back, a struct to its
    /// own type. Other conversions are errors at `sp`.
    pub(super) fn convert_value(&mut self, v: CV, to: &CTy, sp: &Span) -> Option<CV> {
        let m = self.m();
        match (v, to) {
            (CV::S(v), CTy::Scalar(s)) => Some(CV::S(m.to_of(v, *s))),
            (CV::S(v), CTy::Ptr(t)) if is_null_constant(&v) => Some(CV::P(m.null((**t).clone()))),
            (CV::S(_), CTy::Ptr(_)) => {
                self.err("an integer converted to a pointer is not supported", sp, "not a pointer");
                None
            }
            (CV::P(p), CTy::Ptr(t)) => {
                if p.to == **t || matches!(p.to, CTy::Void) || matches!(**t, CTy::Void) {
                    Some(CV::P(Ptr { to: (**t).clone(), ..p }))
                } else {
                    self.err(
                        format!(
                            "casts between unrelated pointer types ({} to {}) are not supported",
                            ctype::spell(self.cx, &CTy::Ptr(Box::new(p.to.clone()))),
                            ctype::spell(self.cx, to)
                        ),
                        sp,
                        "this conversion",
                    );
                    None
                }
            }
            (CV::P(p), CTy::Scalar(CScalar::Bool)) => Some(CV::S(Val {
                e: super::memory::not_fold(m.is_tag(&p.obj, 0)),
                ty: CScalar::Bool,
            })),
            (CV::P(_), CTy::Scalar(_)) => {
                self.err("a pointer converted to an integer is not supported", sp, "a pointer");
                None
            }
            (CV::R(i, l), CTy::Struct(j)) if i == *j => Some(CV::R(i, l)),
            (v, to) => {
                self.err(
                    format!(
                        "a value of type {} where {} is expected",
                        ctype::spell(self.cx, &v.ty()),
                        ctype::spell(self.cx, to)
                    ),
                    sp,
                    "this value",
                );
                None
            }
        }
    }

    /// A value copied into fresh variables (a call's result, `x++`'s old value): later
    /// statements may change what its expressions read.
    pub(super) fn save(&mut self, v: CV, base: &str, sp: &Span, out: &mut Vec<Stmt>) -> Option<CV> {
        let ty = v.ty();
        let cands = match &v {
            CV::P(p) => p.cands.clone(),
            _ => None,
        };
        let slot = self.fresh_slot(base, &ty, sp)?;
        let place = Place::of_slot(slot.clone());
        self.write_leaves(&place, v.leaves(), sp, out);
        let mut r = CV::of_leaves(&ty, slot.leaves)?;
        if let CV::P(p) = &mut r {
            p.cands = cands;
        }
        Some(r)
    }

    /// Fresh variables for a value of type `ty` (`$base3`, `$base3.a`, …).
    pub(super) fn fresh_slot(&mut self, base: &str, ty: &CTy, sp: &Span) -> Option<Slot> {
        self.counter += 1;
        let name = format!("${base}{}", self.counter);
        self.slot_vars(&name, ty, sp)
    }

    /// An expression's value; its effects and guards go to `out`.
    pub fn value(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<CV> {
        let m = self.m();
        let loc = self.loc(&e.span);
        match &e.kind {
            K::Int(v, t) => Some(CV::S(Val { e: m.lit(v, *t), ty: *t })),
            K::Bool(b) => Some(CV::S(Val { e: Expr::bool(*b), ty: CScalar::Bool })),
            K::Member { base, field, arrow: false } if !lvalue_form(base) => {
                let v = self.value(base, out)?;
                self.member_value(v, field)
            }
            K::Var(_) | K::Index(..) | K::Member { .. } | K::Unary(UnaryOp::Deref, _) => {
                let p = self.place(e, out, false)?;
                self.read_place(&p, &e.span, out)
            }
            K::Unary(UnaryOp::AddrOf, a) => {
                if let K::Var(n) = &a.kind {
                    if !self.is_local(n)
                        && !self.cx.globals.contains_key(n)
                        && (self.cx.functions.contains_key(n) || self.cx.libraries.contains_key(n))
                    {
                        self.err(
                            "function pointers are not supported",
                            &e.span,
                            "a function's address",
                        );
                        return None;
                    }
                }
                let p = self.place(a, out, true)?;
                self.address_of(&p, &e.span).map(CV::P)
            }
            K::Str(_) => {
                self.err("string literals are not supported", &e.span, "outside the C subset");
                None
            }
            K::CopyVar(..) | K::RetBang | K::Quant { .. } => {
                self.err("this form belongs to annotation formulas", &e.span, "not C code");
                None
            }
            K::Cast(CType::Void, a) => {
                // Its value is no value: only its effects count.
                self.effect(a, out);
                Some(CV::S(Val { e: m.lit_i(0, CScalar::Int), ty: CScalar::Int }))
            }
            K::Cast(t, a) => match ctype::cty(self.cx, t) {
                Ok(CTy::Array(..)) => {
                    self.err("a cast to an array type is not C", &e.span, "here");
                    None
                }
                Ok(CTy::Struct(_)) => {
                    self.err("a cast to a struct type is not C", &e.span, "here");
                    None
                }
                Ok(to) => {
                    let v = self.value_as(a, &to, out)?;
                    self.convert_value(v, &to, &e.span)
                }
                Err((what, _)) => {
                    self.err(format!("a cast: {what}"), &e.span, "this cast");
                    None
                }
            },
            K::Float(text, kind) => self.float_literal(text, *kind, &e.span).map(CV::S),
            K::CallPtr(..) => {
                self.err("calls through function pointers are not supported", &e.span, "here");
                None
            }
            K::Other(what) => {
                self.err(format!("{what} are not supported"), &e.span, "outside what forex reads");
                None
            }
            K::StmtExpr(stmts) => self.statement_expression(stmts, &e.span, out),
            K::SizeofType(t) | K::AlignofType(t) => {
                let align = matches!(e.kind, K::AlignofType(_));
                let Some((size, al)) = crate::c::consts::size_align(t, self.cx.tables()) else {
                    self.err("`sizeof` of a type without a size (incomplete)", &e.span, "here");
                    return None;
                };
                let n = if align { al } else { size };
                Some(CV::S(Val { e: m.lit(&n.into(), CScalar::ULong), ty: CScalar::ULong }))
            }
            K::SizeofExpr(a) => {
                let t = self.type_of(a)?;
                let Some(n) = ctype::size_of(self.cx, &t) else {
                    self.err("`sizeof` of a type without a size (incomplete)", &e.span, "here");
                    return None;
                };
                Some(CV::S(Val { e: m.lit(&n.into(), CScalar::ULong), ty: CScalar::ULong }))
            }
            K::Unary(UnaryOp::Not, a) => {
                let c = self.cond(a, out)?;
                Some(CV::S(Val { e: not(c), ty: CScalar::Bool }))
            }
            K::Unary(op, a) => {
                let v = self.expr(a, out)?;
                self.unary(*op, v, &e.span).map(CV::S)
            }
            K::Binary(BinaryOp::And | BinaryOp::Or, a, b) => {
                let is_and = matches!(e.kind, K::Binary(BinaryOp::And, ..));
                let ca = self.cond(a, out)?;
                let mut sb = Vec::new();
                let cb = self.cond(b, &mut sb)?;
                if sb.is_empty() {
                    let r = if is_and { and(ca, cb) } else { or(ca, cb) };
                    return Some(CV::S(Val { e: r, ty: CScalar::Bool }));
                }
                let t = self.fresh("t", VarTy::Scalar(CScalar::Bool), &e.span);
                out.push(Stmt::Assign { var: t, value: ca, loc });
                sb.push(Stmt::Assign { var: t, value: cb, loc });
                let tv = Expr::var(t, Type::Bool);
                let cond = if is_and { tv.clone() } else { not(tv.clone()) };
                out.push(Stmt::If { cond, then_branch: sb, else_branch: Vec::new(), loc });
                Some(CV::S(Val { e: tv, ty: CScalar::Bool }))
            }
            K::Binary(op, a, b) => {
                let va = self.value(a, out)?;
                let vb = self.value(b, out)?;
                self.binary_values(*op, va, vb, &e.span, out)
            }
            K::Cond(c, a, b) => {
                let cc = self.cond(c, out)?;
                let mut sa = Vec::new();
                let mut sb = Vec::new();
                let va = self.value(a, &mut sa)?;
                let vb = self.value(b, &mut sb)?;
                // By value: cloning the branches' values per level made a chain of `?:`
                // quadratic.
                let (va, vb) = match (va, vb) {
                    (CV::S(va), CV::S(vb)) => {
                        let t = if va.ty == CScalar::Bool && vb.ty == CScalar::Bool {
                            CScalar::Bool
                        } else {
                            common(va.ty, vb.ty)
                        };
                        let (ea, eb) = (m.convert_of(va, t), m.convert_of(vb, t));
                        if sa.is_empty() && sb.is_empty() {
                            return Some(CV::S(Val { e: ite(cc, ea, eb), ty: t }));
                        }
                        let tmp = self.fresh("t", VarTy::Scalar(t), &e.span);
                        sa.push(Stmt::Assign { var: tmp, value: ea, loc });
                        sb.push(Stmt::Assign { var: tmp, value: eb, loc });
                        out.push(Stmt::If { cond: cc, then_branch: sa, else_branch: sb, loc });
                        return Some(CV::S(self.val_of(tmp)));
                    }
                    other => other,
                };
                if sa.is_empty() && sb.is_empty() {
                    return self.ite_values(cc, va, vb, &e.span);
                }
                // Branches with effects: each branch stores its value in one temporary.
                let joined = self.ite_values(Expr::bool(true), va.clone(), vb.clone(), &e.span)?;
                let ty = joined.ty();
                let slot = self.fresh_slot("t", &ty, &e.span)?;
                let place = Place::of_slot(slot.clone());
                let va = self.convert_value(va, &ty, &a.span)?;
                let vb = self.convert_value(vb, &ty, &b.span)?;
                self.write_leaves(&place, va.leaves(), &e.span, &mut sa);
                self.write_leaves(&place, vb.leaves(), &e.span, &mut sb);
                out.push(Stmt::If { cond: cc, then_branch: sa, else_branch: sb, loc });
                CV::of_leaves(&ty, slot.leaves)
            }
            K::Comma(a, b) => {
                self.effect(a, out);
                self.value(b, out)
            }
            K::Assign(op, l, r) => self.assign(*op, l, r, &e.span, out),
            K::IncDec { pre, inc, arg } => {
                let op = if *inc { BinaryOp::Add } else { BinaryOp::Sub };
                let one = ast::Expr { kind: K::Int(1.into(), CScalar::Int), span: e.span.clone() };
                if *pre {
                    return self.assign(Some(op), arg, &one, &e.span, out);
                }
                let mut scratch = Vec::new();
                let old = self.value(arg, &mut scratch)?;
                out.extend(scratch);
                let old = self.save(old, "t", &e.span, out)?;
                self.assign(Some(op), arg, &one, &e.span, out)?;
                Some(old)
            }
            K::Call(f, args) => self.call(f, args, &e.span, out, false),
        }
    }

    /// `a op b` on values: pointer arithmetic and comparisons, struct equality, else
    /// C's arithmetic on scalars.
    pub(super) fn binary_values(
        &mut self,
        op: BinaryOp,
        a: CV,
        b: CV,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        use BinaryOp as B;
        let m = self.m();
        let boolean = |e| Some(CV::S(Val { e, ty: CScalar::Bool }));
        match (op, a, b) {
            (_, CV::S(x), CV::S(y)) => self.arith(op, x, y, sp, Some(out)).map(CV::S),
            (B::Add, CV::P(p), CV::S(i)) | (B::Add, CV::S(i), CV::P(p)) => {
                self.ptr_add(p, &i, false, sp).map(CV::P)
            }
            (B::Sub, CV::P(p), CV::S(i)) => self.ptr_add(p, &i, true, sp).map(CV::P),
            (B::Sub, CV::P(p), CV::P(q)) => {
                let d =
                    self.arith(B::Sub, place::off_val(p.off), place::off_val(q.off), sp, None)?;
                Some(CV::S(d))
            }
            (B::Eq | B::Ne, CV::P(p), CV::S(v)) | (B::Eq | B::Ne, CV::S(v), CV::P(p))
                if is_null_constant(&v) =>
            {
                let null = m.is_tag(&p.obj, 0);
                boolean(if op == B::Eq { null } else { super::memory::not_fold(null) })
            }
            (B::Eq | B::Ne, a @ (CV::P(_) | CV::R(..)), b) => {
                let eq = self.equal_values(a, b, sp)?;
                boolean(if op == B::Eq { eq } else { not(eq) })
            }
            (B::Lt | B::Le | B::Gt | B::Ge, CV::P(p), CV::P(q)) => {
                let r = self.arith(op, place::off_val(p.off), place::off_val(q.off), sp, None)?;
                boolean(r.e)
            }
            (op, a, b) => {
                self.err(
                    format!(
                        "`{}` between {} and {}",
                        op.symbol(),
                        ctype::spell(self.cx, &a.ty()),
                        ctype::spell(self.cx, &b.ty())
                    ),
                    sp,
                    "not numbers",
                );
                None
            }
        }
    }

    /// A GNU statement expression `({ s1; …; e; })`: the statements in a scope of their
    /// own, the value of the last one when it is an expression.
    fn statement_expression(
        &mut self,
        stmts: &[ast::Stmt],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        self.frame().scopes.push(std::collections::HashMap::new());
        let (last, init) = match stmts.split_last() {
            Some((l, i)) if matches!(l.kind, ast::StmtKind::Expr(_)) => (Some(l), i),
            _ => (None, stmts),
        };
        let body = self.seq(init, false);
        out.extend(body);
        let v = match last.map(|l| &l.kind) {
            Some(ast::StmtKind::Expr(e)) => self.value(e, out),
            _ => Some(CV::S(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int })),
        };
        self.frame().scopes.pop();
        let _ = sp;
        v
    }

    /// The type of `e` without evaluating it (`sizeof e`): arrays keep their type.
    fn type_of(&mut self, e: &ast::Expr) -> Option<CTy> {
        let saved = (
            self.vars.len(),
            self.types.len(),
            self.objects.len(),
            self.ub_sites.len(),
            self.globals_used.len(),
            self.statics.len(),
            self.heap_sites,
        );
        let mut scratch = Vec::new();
        let t = if lvalue_form(e) {
            self.place(e, &mut scratch, true).map(|p| p.ty)
        } else {
            self.value(e, &mut scratch).map(|v| v.ty())
        };
        for d in self.vars.drain(saved.0..) {
            self.index.remove(&d.name);
        }
        self.types.truncate(saved.1);
        self.objects.truncate(saved.2);
        self.ub_sites.truncate(saved.3);
        self.globals_used.truncate(saved.4);
        self.statics.truncate(saved.5);
        self.heap_sites = saved.6;
        t
    }
}

/// `malloc(…)` or `calloc(…)`, under any casts: the call.
fn heap_call(e: &ast::Expr) -> Option<(&ast::Ident, &[ast::Expr])> {
    match &e.kind {
        K::Call(f, args) if matches!(f.name.as_str(), "malloc" | "calloc") => Some((f, args)),
        K::Cast(_, a) => heap_call(a),
        _ => None,
    }
}
