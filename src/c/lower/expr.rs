//! Expressions: C values with their types, effects in C's order through temporaries
//! (IR expressions are pure), and `assume`s where C leaves an operation undefined
//! (division by zero, `INT_MIN / -1`, out-of-range shifts).

use super::{and, not, or, Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp, ExprKind as K, Type as CType, UnaryOp};
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
            // `(void)e;`: e's effects.
            K::Cast(CType::Void, a) => self.effect(a, out),
            _ => {
                self.expr(e, out);
            }
        }
    }

    /// A name that is no local or parameter: what it is instead, as an error.
    pub(super) fn unknown_name(&mut self, name: &str, sp: &Span) {
        if self.cx.globals.contains_key(name) {
            self.err(
                format!("`{name}` is a global variable: globals are not supported yet"),
                sp,
                "a global",
            );
        } else if self.cx.functions.contains_key(name) || self.cx.libraries.contains_key(name) {
            self.err(
                format!("`{name}` is a function: function pointers are not supported yet"),
                sp,
                "a function used as a value",
            );
        } else {
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
    ) -> Option<Val> {
        let loc = self.loc(sp);
        match &l.kind {
            K::Var(name) => {
                let Some(v) = self.lookup(name) else {
                    self.unknown_name(name, &l.span);
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
                let value = self.m().convert_of(value, ty);
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
                let value = self.m().convert_of(value, elem);
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
            K::Unary(UnaryOp::Deref, _) | K::Member { .. } => {
                // The error for the left side's form.
                self.expr(l, out);
                None
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
            self.unknown_name(name, &cur.span);
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
                    self.unknown_name(name, &e.span);
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
            K::Cast(CType::Void, a) => {
                // Its value is no value: only its effects count.
                self.effect(a, out);
                Some(Val { e: m.lit_i(0, CScalar::Int), ty: CScalar::Int })
            }
            K::Cast(t, a) => match self.cx.var_ty(t) {
                Ok(VarTy::Scalar(s)) => {
                    let v = self.expr(a, out)?;
                    Some(m.to_of(v, s))
                }
                Ok(VarTy::Array(..)) => {
                    self.err("a cast to an array type is not C", &e.span, "here");
                    None
                }
                Err((what, _)) => {
                    self.err(format!("a cast: {what}"), &e.span, "this cast");
                    None
                }
            },
            K::Unary(UnaryOp::AddrOf, _) => {
                self.err(
                    "pointers (taking an address with `&`) are not supported yet",
                    &e.span,
                    "outside what forex verifies",
                );
                None
            }
            K::Unary(UnaryOp::Deref, _) => {
                self.err(
                    "pointers (dereferencing with `*`) are not supported yet",
                    &e.span,
                    "outside what forex verifies",
                );
                None
            }
            K::Member { arrow, .. } => {
                let what = if *arrow {
                    "pointers (member access with `->`) are not supported yet"
                } else {
                    "`struct` members are not supported yet"
                };
                self.err(what, &e.span, "outside what forex verifies");
                None
            }
            K::Float(text, kind) => self.float_literal(text, *kind, &e.span),
            K::CallPtr(..) => {
                self.err("calls through function pointers are not supported yet", &e.span, "here");
                None
            }
            K::Other(what) => {
                self.err(format!("{what} are not supported"), &e.span, "outside what forex reads");
                None
            }
            K::SizeofType(t) | K::AlignofType(t) => {
                let align = matches!(e.kind, K::AlignofType(_));
                let Some((size, al)) = crate::c::consts::size_align(t, self.cx.tables()) else {
                    self.err("`sizeof` of a type without a size (incomplete)", &e.span, "here");
                    return None;
                };
                let n = if align { al } else { size };
                Some(Val { e: m.lit(&n.into(), CScalar::ULong), ty: CScalar::ULong })
            }
            K::SizeofExpr(a) => {
                let n = self.sizeof_expr(a)?;
                Some(Val { e: m.lit(&n.into(), CScalar::ULong), ty: CScalar::ULong })
            }
            K::Unary(op, a) => {
                let v = self.expr(a, out)?;
                self.unary(*op, v, &e.span)
            }
            K::Binary(BinaryOp::And | BinaryOp::Or, a, b) => {
                let is_and = matches!(e.kind, K::Binary(BinaryOp::And, ..));
                let va = self.expr(a, out)?;
                let ca = m.truth_of(va);
                let mut sb = Vec::new();
                let vb = self.expr(b, &mut sb)?;
                let cb = m.truth_of(vb);
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
                let cc = m.truth_of(vc);
                let mut sa = Vec::new();
                let mut sb = Vec::new();
                let va = self.expr(a, &mut sa)?;
                let vb = self.expr(b, &mut sb)?;
                let t = if va.ty == CScalar::Bool && vb.ty == CScalar::Bool {
                    CScalar::Bool
                } else {
                    common(va.ty, vb.ty)
                };
                let (ea, eb) = (m.convert_of(va, t), m.convert_of(vb, t));
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
            UnaryOp::Not => Some(Val { e: not(m.truth_of(v)), ty: CScalar::Bool }),
            UnaryOp::Plus => {
                let t = promote(v.ty);
                Some(m.to_of(v, t))
            }
            UnaryOp::Neg => {
                let t = promote(v.ty);
                let e = m.convert_of(v, t);
                let ty = e.ty.clone();
                Some(Val { e: Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(e)), ty }, ty: t })
            }
            UnaryOp::BitNot if v.ty.is_float() => {
                self.err("`~` needs an integer operand", sp, "a floating operand");
                None
            }
            UnaryOp::BitNot => {
                if !m.machine() {
                    self.math_bitwise("~", sp);
                    return None;
                }
                let t = promote(v.ty);
                let e = m.convert_of(v, t);
                let ty = e.ty.clone();
                Some(Val {
                    e: Expr { kind: ExprKind::Unary(UnOp::BitNot, Box::new(e)), ty },
                    ty: t,
                })
            }
            UnaryOp::AddrOf | UnaryOp::Deref => {
                self.err(
                    "pointers (`&`, `*`) are not supported yet",
                    sp,
                    "outside what forex verifies",
                );
                None
            }
        }
    }

    /// `sizeof e`: the size of `e`'s type, without evaluating `e` (LP64).
    fn sizeof_expr(&mut self, e: &ast::Expr) -> Option<u64> {
        let tables = self.cx.tables();
        if let Some(t) = self.static_type(e) {
            if let Some((n, _)) = crate::c::consts::size_align(&t, tables) {
                return Some(n);
            }
        }
        // Any other expression: its scalar type, from a lowering that is thrown away.
        let (vars, types) = (self.vars.len(), self.types.len());
        let mut scratch = Vec::new();
        let v = self.expr(e, &mut scratch);
        for d in self.vars.drain(vars..) {
            self.index.remove(&d.name);
        }
        self.types.truncate(types);
        let v = v?;
        crate::c::consts::size_align(&CType::scalar(v.ty), tables).map(|(n, _)| n)
    }

    /// The C type of a variable, an element of it, or a cast (what `sizeof` needs of
    /// arrays, which have no value of their own here).
    fn static_type(&self, e: &ast::Expr) -> Option<CType> {
        match &e.kind {
            K::Var(name) => self.decl_types.get(&self.lookup(name)?).cloned(),
            K::Index(a, _) => match self.static_type(a)? {
                CType::Array(elem, _) => Some(*elem),
                _ => None,
            },
            K::Cast(t, _) => Some(t.clone()),
            K::Str(s) => Some(CType::Array(
                Box::new(CType::Int(crate::c::ast::IntKind::Char)),
                Some(Box::new(ast::Expr {
                    kind: K::Int((s.len() + 1).into(), CScalar::ULong),
                    span: e.span.clone(),
                })),
            )),
            _ => None,
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
            B::And => return boolean(and(m.truth_of(a), m.truth_of(b))),
            B::Or => return boolean(or(m.truth_of(a), m.truth_of(b))),
            B::Implies => {
                return boolean(Expr::binary(BinOp::Implies, m.truth_of(a), m.truth_of(b)))
            }
            B::Iff => return boolean(Expr::binary(BinOp::Iff, m.truth_of(a), m.truth_of(b))),
            B::ArrayEq => {
                self.err("`=a=` compares whole arrays: name two arrays", sp, "not arrays");
                return None;
            }
            _ => {}
        }
        if a.ty.is_float() || b.ty.is_float() {
            return self.float_arith(op, a, b, sp);
        }
        // `===` is `==` where no float takes part.
        let op = if op == B::Ident { B::Eq } else { op };
        if matches!(op, B::Shl | B::Shr) {
            if !m.machine() {
                self.math_bitwise(op.symbol(), sp);
                return None;
            }
            let lt = promote(a.ty);
            let rt = promote(b.ty);
            let w = lt.bits();
            let amount = m.convert_of(b, rt);
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
            let left = m.convert_of(a, lt);
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
        let (x, y) = (m.convert_of(a, t), m.convert_of(b, t));
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
                let (mut x, mut y) = (x, y);
                if let Some(out) = out {
                    // Operands are read several times (the guard, C's truncation in the
                    // math model): compound ones go through a temporary, so that nested
                    // divisions stay linear in size.
                    for (operand, ty) in [(&mut x, t), (&mut y, t)] {
                        if !matches!(
                            operand.kind,
                            ExprKind::Var(_)
                                | ExprKind::Int(_)
                                | ExprKind::Bv(_)
                                | ExprKind::Bool(_)
                        ) {
                            let tmp = self.fresh("t", VarTy::Scalar(ty), sp);
                            let value = std::mem::replace(operand, Expr::bool(false));
                            out.push(Stmt::Assign { var: tmp, value, loc });
                            *operand = self.val_of(tmp).e;
                        }
                    }
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
            B::And | B::Or | B::Implies | B::Iff | B::ArrayEq | B::Ident | B::Shl | B::Shr => {
                unreachable!()
            }
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
