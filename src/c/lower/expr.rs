//! Expressions: C values with their types, effects in C's order through temporaries
//! (IR expressions are pure), and `assume`s where C leaves an operation undefined
//! (division by zero, `INT_MIN / -1`, out-of-range shifts).

use super::{and, not, or, Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp, ExprKind as K, UnaryOp};
use crate::c::types::{common, ite, min_value, promote, Val};
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Type, UnOp, VarId};

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
            _ => {
                self.expr(e, out);
            }
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
    ) -> Option<Val> {
        let loc = self.loc(sp);
        match &l.kind {
            K::Var(name) => {
                let Some(v) = self.lookup(name) else {
                    self.err(format!("unknown variable `{name}`"), &l.span, "not declared");
                    return None;
                };
                let Some(ty) = self.scalar_of(v) else {
                    self.err(
                        format!("`{name}` is an array: assign its elements"),
                        &l.span,
                        "an array",
                    );
                    return None;
                };
                let rv = self.expr(r, out)?;
                let value = match op {
                    None => rv,
                    Some(op) => self.arith(op, self.val_of(v), rv, sp, Some(out))?,
                };
                let value = self.m().convert(&value, ty);
                out.push(Stmt::Assign { var: v, value, loc });
                Some(self.val_of(v))
            }
            K::Index(base, i) => {
                // a[i] or a[i][j].
                let (arr, idxs, elem) = self.element(l, out)?;
                let _ = (base, i);
                let cur = self.select(arr, &idxs, elem);
                let rv = self.expr(r, out)?;
                let value = match op {
                    None => rv,
                    Some(op) => self.arith(op, cur, rv, sp, Some(out))?,
                };
                let value = self.m().convert(&value, elem);
                let arr_ty = self.vars[arr.index()].ty.clone();
                match idxs.as_slice() {
                    [i] => out.push(Stmt::Store {
                        array: arr,
                        index: i.clone(),
                        value: value.clone(),
                        loc,
                    }),
                    [i, j] => {
                        let Type::Array(row_ty) = arr_ty.clone() else { return None };
                        let row = self.fresh("row", VarTy::Array(elem, 1), sp);
                        let _ = row_ty;
                        let read = Expr {
                            kind: ExprKind::Select(
                                Box::new(Expr::var(arr, arr_ty.clone())),
                                Box::new(i.clone()),
                            ),
                            ty: self.vars[row.index()].ty.clone(),
                        };
                        out.push(Stmt::Assign { var: row, value: read, loc });
                        out.push(Stmt::Store {
                            array: row,
                            index: j.clone(),
                            value: value.clone(),
                            loc,
                        });
                        let row_val = Expr::var(row, self.vars[row.index()].ty.clone());
                        out.push(Stmt::Store { array: arr, index: i.clone(), value: row_val, loc });
                    }
                    _ => return None,
                }
                Some(Val { e: value, ty: elem })
            }
            _ => {
                self.err(
                    "the left side of an assignment must be a variable or an array element",
                    &l.span,
                    "not assignable",
                );
                None
            }
        }
    }

    /// An element access `a[i]`/`a[i][j]`: the array, the indices, the element type.
    fn element(
        &mut self,
        e: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Option<(VarId, Vec<Expr>, CScalar)> {
        let mut idx_exprs = Vec::new();
        let mut cur = e;
        while let K::Index(b, i) = &cur.kind {
            idx_exprs.push(i.as_ref());
            cur = b;
        }
        idx_exprs.reverse();
        let K::Var(name) = &cur.kind else {
            self.err("only named arrays can be indexed", &cur.span, "not an array");
            return None;
        };
        let Some(v) = self.lookup(name) else {
            self.err(format!("unknown variable `{name}`"), &cur.span, "not declared");
            return None;
        };
        let VarTy::Array(elem, dims) = self.types[v.index()].clone() else {
            self.err(format!("`{name}` is not an array"), &cur.span, "a scalar");
            return None;
        };
        if idx_exprs.len() != dims as usize {
            self.err(
                format!("`{name}` has {dims} dimension(s), indexed with {}", idx_exprs.len()),
                &e.span,
                "wrong number of indices",
            );
            return None;
        }
        let mut idxs = Vec::new();
        for i in idx_exprs {
            let iv = self.expr(i, out)?;
            idxs.push(self.m().as_int(&iv));
        }
        Some((v, idxs, elem))
    }

    pub(super) fn select(&self, arr: VarId, idxs: &[Expr], elem: CScalar) -> Val {
        let mut e = Expr::var(arr, self.vars[arr.index()].ty.clone());
        for i in idxs {
            let Type::Array(t) = e.ty.clone() else { break };
            e = Expr { kind: ExprKind::Select(Box::new(e), Box::new(i.clone())), ty: *t };
        }
        Val { e, ty: elem }
    }

    /// The array variable `e` names, if it is the name of an array.
    fn array_named(&self, e: &ast::Expr) -> Option<VarId> {
        let K::Var(name) = &e.kind else { return None };
        self.lookup(name).filter(|v| self.scalar_of(*v).is_none())
    }

    /// An expression's value; its effects and guards go to `out`.
    pub fn expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Val> {
        let m = self.m();
        let loc = self.loc(&e.span);
        match &e.kind {
            K::Int(v, t) => Some(Val { e: m.lit(v, *t), ty: *t }),
            K::Bool(b) => Some(Val { e: Expr::bool(*b), ty: CScalar::Bool }),
            K::Var(name) => {
                let Some(v) = self.lookup(name) else {
                    self.err(format!("unknown variable `{name}`"), &e.span, "not declared");
                    return None;
                };
                if self.scalar_of(v).is_none() {
                    self.err(
                        format!("`{name}` is an array: use an element `{name}[i]`"),
                        &e.span,
                        "an array",
                    );
                    return None;
                }
                Some(self.val_of(v))
            }
            K::Index(..) => {
                let (a, idxs, elem) = self.element(e, out)?;
                Some(self.select(a, &idxs, elem))
            }
            K::Str(_) => {
                self.err("string literals are not supported", &e.span, "outside the C subset");
                None
            }
            K::CopyVar(..) | K::RetBang | K::Quant { .. } => {
                self.err("this form belongs to annotation formulas", &e.span, "not C code");
                None
            }
            K::Cast(t, a) => {
                let v = self.expr(a, out)?;
                Some(m.to(&v, *t))
            }
            K::Unary(op, a) => {
                let v = self.expr(a, out)?;
                self.unary(*op, v, &e.span)
            }
            K::Binary(BinaryOp::And | BinaryOp::Or, a, b) => {
                let is_and = matches!(e.kind, K::Binary(BinaryOp::And, ..));
                let va = self.expr(a, out)?;
                let ca = m.truth(&va);
                let mut sb = Vec::new();
                let vb = self.expr(b, &mut sb)?;
                let cb = m.truth(&vb);
                if sb.is_empty() {
                    let r = if is_and { and(ca, cb) } else { or(ca, cb) };
                    return Some(Val { e: r, ty: CScalar::Bool });
                }
                let t = self.fresh("t", VarTy::Scalar(CScalar::Bool), &e.span);
                out.push(Stmt::Assign { var: t, value: ca, loc });
                sb.push(Stmt::Assign { var: t, value: cb, loc });
                let tv = Expr::var(t, Type::Bool);
                let cond = if is_and { tv.clone() } else { not(tv.clone()) };
                out.push(Stmt::If { cond, then_branch: sb, else_branch: Vec::new(), loc });
                Some(Val { e: tv, ty: CScalar::Bool })
            }
            K::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b)
                if self.array_named(a).is_some() && self.array_named(b).is_some() =>
            {
                // Arrays compared as pointers: the same object or not. Arrays are passed
                // by reference, so an inlined callee's parameter is its argument's
                // variable; distinct parameters of the copy's function are distinct
                // objects (LANGUAGE.md: no aliasing unless `pre` says so).
                let same = self.array_named(a) == self.array_named(b);
                Some(Val { e: Expr::bool(same == (*op == BinaryOp::Eq)), ty: CScalar::Bool })
            }
            K::Binary(op, a, b) => {
                let va = self.expr(a, out)?;
                let vb = self.expr(b, out)?;
                self.arith(*op, va, vb, &e.span, Some(out))
            }
            K::Cond(c, a, b) => {
                let vc = self.expr(c, out)?;
                let cc = m.truth(&vc);
                let mut sa = Vec::new();
                let mut sb = Vec::new();
                let va = self.expr(a, &mut sa)?;
                let vb = self.expr(b, &mut sb)?;
                let t = if va.ty == CScalar::Bool && vb.ty == CScalar::Bool {
                    CScalar::Bool
                } else {
                    common(va.ty, vb.ty)
                };
                let (ea, eb) = (m.convert(&va, t), m.convert(&vb, t));
                if sa.is_empty() && sb.is_empty() {
                    return Some(Val { e: ite(cc, ea, eb), ty: t });
                }
                let tmp = self.fresh("t", VarTy::Scalar(t), &e.span);
                sa.push(Stmt::Assign { var: tmp, value: ea, loc });
                sb.push(Stmt::Assign { var: tmp, value: eb, loc });
                out.push(Stmt::If { cond: cc, then_branch: sa, else_branch: sb, loc });
                Some(self.val_of(tmp))
            }
            K::Comma(a, b) => {
                self.effect(a, out);
                self.expr(b, out)
            }
            K::Assign(op, l, r) => self.assign(*op, l, r, &e.span, out),
            K::IncDec { pre, inc, arg } => {
                let op = if *inc { BinaryOp::Add } else { BinaryOp::Sub };
                let one = ast::Expr { kind: K::Int(1.into(), CScalar::Int), span: e.span.clone() };
                if *pre {
                    return self.assign(Some(op), arg, &one, &e.span, out);
                }
                let mut scratch = Vec::new();
                let old = self.expr(arg, &mut scratch)?;
                let tmp = self.fresh("t", VarTy::Scalar(old.ty), &e.span);
                out.extend(scratch);
                out.push(Stmt::Assign { var: tmp, value: old.e.clone(), loc });
                self.assign(Some(op), arg, &one, &e.span, out)?;
                Some(self.val_of(tmp))
            }
            K::Call(f, args) => self.call(f, args, &e.span, out, false),
        }
    }

    pub(super) fn unary(&mut self, op: UnaryOp, v: Val, sp: &Span) -> Option<Val> {
        let m = self.m();
        match op {
            UnaryOp::Not => Some(Val { e: not(m.truth(&v)), ty: CScalar::Bool }),
            UnaryOp::Plus => Some(m.to(&v, promote(v.ty))),
            UnaryOp::Neg => {
                let t = promote(v.ty);
                let e = m.convert(&v, t);
                let ty = e.ty.clone();
                Some(Val { e: Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(e)), ty }, ty: t })
            }
            UnaryOp::BitNot => {
                if !m.machine() {
                    self.math_bitwise("~", sp);
                    return None;
                }
                let t = promote(v.ty);
                let e = m.convert(&v, t);
                let ty = e.ty.clone();
                Some(Val {
                    e: Expr { kind: ExprKind::Unary(UnOp::BitNot, Box::new(e)), ty },
                    ty: t,
                })
            }
        }
    }

    fn math_bitwise(&mut self, op: &str, sp: &Span) {
        self.diags.push(
            Diagnostic::new(
                format!("`{op}` needs a width: not available in the math integer model"),
                sp.clone(),
            )
            .with_label("bitwise operator")
            .with_hint("choose `--int-model machine` (LP64 machine integers)"),
        );
    }

    /// A binary operator on two values. With `out`, division by zero (and overflowing
    /// division, out-of-range shifts) becomes an `assume` there; without (formulas), the
    /// IR's total operators stand.
    pub fn arith(
        &mut self,
        op: BinaryOp,
        a: Val,
        b: Val,
        sp: &Span,
        out: Option<&mut Vec<Stmt>>,
    ) -> Option<Val> {
        use BinaryOp as B;
        let m = self.m();
        let loc = self.loc(sp);
        let boolean = |e| Some(Val { e, ty: CScalar::Bool });
        match op {
            B::And => return boolean(and(m.truth(&a), m.truth(&b))),
            B::Or => return boolean(or(m.truth(&a), m.truth(&b))),
            B::Implies => return boolean(Expr::binary(BinOp::Implies, m.truth(&a), m.truth(&b))),
            B::Iff => return boolean(Expr::binary(BinOp::Iff, m.truth(&a), m.truth(&b))),
            B::ArrayEq => {
                self.err("`=a=` compares whole arrays: name two arrays", sp, "not arrays");
                return None;
            }
            _ => {}
        }
        if matches!(op, B::Shl | B::Shr) {
            if !m.machine() {
                self.math_bitwise(op.symbol(), sp);
                return None;
            }
            let lt = promote(a.ty);
            let rt = promote(b.ty);
            let w = lt.bits();
            let amount = m.convert(&b, rt);
            if let Some(out) = out {
                let zero = m.lit_i(0, rt);
                let width = m.lit_i(w as i64, rt);
                let in_range = if rt.is_signed() {
                    and(
                        Expr::binary(BinOp::SGe, amount.clone(), zero),
                        Expr::binary(BinOp::SLt, amount.clone(), width),
                    )
                } else {
                    Expr::binary(BinOp::Lt, amount.clone(), width)
                };
                out.push(Stmt::Assume { cond: in_range, loc });
            }
            // In range (0 ≤ amount < width), so either extension keeps the value.
            let amt = m.convert(&Val { e: amount, ty: rt }, lt);
            let left = m.convert(&a, lt);
            let irop = match op {
                B::Shl => BinOp::Shl,
                _ if lt.is_signed() => BinOp::AShr,
                _ => BinOp::Shr,
            };
            return Some(Val { e: Expr::binary(irop, left, amt), ty: lt });
        }
        // Comparisons of two booleans need no conversion.
        if matches!(op, B::Eq | B::Ne) && a.ty == CScalar::Bool && b.ty == CScalar::Bool {
            let o = if op == B::Eq { BinOp::Eq } else { BinOp::Ne };
            return boolean(Expr::binary(o, a.e, b.e));
        }
        let t = common(a.ty, b.ty);
        let (x, y) = (m.convert(&a, t), m.convert(&b, t));
        let signed = t.is_signed();
        let machine = m.machine();
        let cmp = |o: BinOp, so: BinOp| if machine && signed { so } else { o };
        let e = match op {
            B::Add => Expr::binary(BinOp::Add, x, y),
            B::Sub => Expr::binary(BinOp::Sub, x, y),
            B::Mul => Expr::binary(BinOp::Mul, x, y),
            B::Lt => return boolean(Expr::binary(cmp(BinOp::Lt, BinOp::SLt), x, y)),
            B::Le => return boolean(Expr::binary(cmp(BinOp::Le, BinOp::SLe), x, y)),
            B::Gt => return boolean(Expr::binary(cmp(BinOp::Gt, BinOp::SGt), x, y)),
            B::Ge => return boolean(Expr::binary(cmp(BinOp::Ge, BinOp::SGe), x, y)),
            B::Eq => return boolean(Expr::binary(BinOp::Eq, x, y)),
            B::Ne => return boolean(Expr::binary(BinOp::Ne, x, y)),
            B::BitAnd | B::BitOr | B::BitXor => {
                if !machine {
                    self.math_bitwise(op.symbol(), sp);
                    return None;
                }
                let o = match op {
                    B::BitAnd => BinOp::BitAnd,
                    B::BitOr => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                Expr::binary(o, x, y)
            }
            B::Div | B::Mod => {
                let div = op == B::Div;
                if let Some(out) = out {
                    let mut ok = Expr::binary(BinOp::Ne, y.clone(), m.lit_i(0, t));
                    if machine && signed {
                        let overflow = and(
                            Expr::binary(BinOp::Eq, x.clone(), m.lit(&min_value(t), t)),
                            Expr::binary(BinOp::Eq, y.clone(), m.lit_i(-1, t)),
                        );
                        ok = and(ok, not(overflow));
                    }
                    out.push(Stmt::Assume { cond: ok, loc });
                }
                if machine {
                    let o = match (div, signed) {
                        (true, true) => BinOp::SDiv,
                        (false, true) => BinOp::SRem,
                        (true, false) => BinOp::Div,
                        (false, false) => BinOp::Mod,
                    };
                    Expr::binary(o, x, y)
                } else {
                    truncating(div, x, y)
                }
            }
            B::And | B::Or | B::Implies | B::Iff | B::ArrayEq | B::Shl | B::Shr => unreachable!(),
        };
        Some(Val { e, ty: t })
    }
}

/// C's truncating `/` and `%` from the IR's Euclidean ones (math model):
/// `a / b == sign · (|a| div |b|)`, `a % b == a - b · (a / b)`.
fn truncating(div: bool, a: Expr, b: Expr) -> Expr {
    let abs = |e: Expr| Expr { kind: ExprKind::Unary(UnOp::Abs, Box::new(e)), ty: Type::Int };
    let neg = |e: Expr| Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(e)), ty: Type::Int };
    let zero = Expr::int(0);
    let a_neg = Expr::binary(BinOp::Lt, a.clone(), zero.clone());
    let b_neg = Expr::binary(BinOp::Lt, b.clone(), zero);
    if div {
        let q = Expr::binary(BinOp::Div, abs(a), abs(b));
        ite(Expr::binary(BinOp::Ne, a_neg, b_neg), neg(q.clone()), q)
    } else {
        let r = Expr::binary(BinOp::Mod, abs(a), abs(b));
        ite(a_neg, neg(r.clone()), r)
    }
}
