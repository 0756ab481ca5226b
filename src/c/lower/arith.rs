//! Arithmetic on C values: unary operators, and binary operators under C's usual
//! conversions in either integer model (truncating `/` and `%` in the math model,
//! wrapping in the machine model, shifts and their range checks).

use super::{and, not, or, Lowerer, Span, VarTy};
use crate::c::ast::{BinaryOp, UnaryOp};
use crate::c::types::{common, ite, min_value, promote, Val};
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Type, UnOp};

impl Lowerer<'_, '_> {
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
                self.err("`&` and `*` need a place and a pointer here", sp, "not a number");
                None
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
