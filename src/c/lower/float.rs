//! Floats in C code (LANGUAGE.md, "Floating point" and "The standard library"): literals,
//! arithmetic and comparisons on `float`/`double`, the `math.h` functions forex models
//! exactly (`fabs`, `sqrt`, `fmin`, `fmax`, `floor`, `ceil`, `round`, `trunc`, `fma`,
//! `copysign`, `isnan`, `isinf` and gcc's builtins the macros expand to), the `stdlib.h`
//! ones (`abs`, `labs`, `llabs`, `rand`, `exit`), and the guards that make a float
//! converted out of an integer type's range have no run. Kept apart from `expr` (which
//! calls in through small hooks) so that integer lowering reads as before.

use super::{and, Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp, ExprKind as K, FloatKind as CFloat};
use crate::c::float as cf;
use crate::c::types::{ite, Val};
use crate::ir::c::CScalar;
use crate::ir::float::{self as fl, FloatKind, LiteralError};
use crate::ir::{BinOp, Expr, ExprKind, FloatClass, RoundDir, Stmt, Type, UnOp};

/// `RAND_MAX` of glibc (LANGUAGE.md).
const RAND_MAX: i64 = 2147483647;

impl Lowerer<'_, '_> {
    /// A floating literal (`text` as written, without its suffix). Like gcc, a literal
    /// beyond the format's range is infinity, one below its smallest subnormal zero.
    pub(super) fn float_literal(&mut self, text: &str, kind: CFloat, sp: &Span) -> Option<Val> {
        let k = match kind {
            CFloat::Float => FloatKind::F32,
            CFloat::Double => FloatKind::F64,
            CFloat::LongDouble => {
                self.err("`long double` is not supported", sp, "a `long double` literal");
                return None;
            }
        };
        let bits = match fl::parse_literal_as(text, k) {
            Ok(b) => b,
            Err(LiteralError::Overflow) => k.infinity(false),
            Err(LiteralError::Underflow) => k.zero(false),
            Err(LiteralError::Syntax) => {
                self.err(format!("malformed floating literal `{text}`"), sp, "not a number");
                return None;
            }
        };
        Some(Val { e: Expr::float(k, bits), ty: cf::scalar(k) })
    }

    /// A binary operator with a float operand (the usual arithmetic conversions make both
    /// floats). Division by zero is IEEE's (an infinity or NaN), not undefined.
    pub(super) fn float_arith(&mut self, op: BinaryOp, a: Val, b: Val, sp: &Span) -> Option<Val> {
        use BinaryOp as B;
        let m = self.m();
        let t = cf::common(a.ty, b.ty).expect("a float operand");
        let (x, y) = (m.convert_of(a, t), m.convert_of(b, t));
        let boolean = |e| Some(Val { e, ty: CScalar::Bool });
        let o = match op {
            B::Add => BinOp::Add,
            B::Sub => BinOp::Sub,
            B::Mul => BinOp::Mul,
            B::Div => BinOp::Div,
            B::Lt => return boolean(Expr::binary(BinOp::Lt, x, y)),
            B::Le => return boolean(Expr::binary(BinOp::Le, x, y)),
            B::Gt => return boolean(Expr::binary(BinOp::Gt, x, y)),
            B::Ge => return boolean(Expr::binary(BinOp::Ge, x, y)),
            B::Eq => return boolean(Expr::binary(BinOp::Eq, x, y)),
            B::Ne => return boolean(Expr::binary(BinOp::Ne, x, y)),
            B::Ident => return boolean(Expr::binary(BinOp::Ident, x, y)),
            _ => {
                self.err(
                    format!("`{}` needs integer operands, not `{}`", op.symbol(), t_name(t)),
                    sp,
                    "a floating operand",
                );
                return None;
            }
        };
        Some(Val { e: Expr::binary(o, x, y), ty: t })
    }

    /// A call of a function forex models (`math.h`, `stdlib.h`, gcc's builtins that
    /// `math.h`'s macros expand to): `None` when `name` is none of them, else the call's
    /// value (`Some(None)` after an error). A function the file defines is never one.
    pub(super) fn modelled_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
        statement: bool,
    ) -> Option<Option<Val>> {
        if self.cx.functions.contains_key(name) {
            return None;
        }
        let builtin = name.starts_with("__builtin_");
        // Library names count only where declared (a header or the file), as in C.
        let declared = builtin || self.cx.libraries.contains_key(name);
        if !declared {
            return None;
        }
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let (f32_form, stem) = match base.strip_suffix('f') {
            Some(s) if MATH.contains(&s) => (true, s),
            _ => (false, base),
        };
        let loc = self.loc(sp);
        let float_kind = if f32_form { FloatKind::F32 } else { FloatKind::F64 };
        let arity = |n: usize| args.len() == n;
        // Constants of `math.h` (`INFINITY`, `HUGE_VAL`, `NAN`).
        let constant = match base {
            "inff" | "huge_valf" => {
                Some(Expr::float(FloatKind::F32, FloatKind::F32.infinity(false)))
            }
            "inf" | "huge_val" => Some(Expr::float(FloatKind::F64, FloatKind::F64.infinity(false))),
            "nanf" => Some(Expr::float(FloatKind::F32, FloatKind::F32.nan())),
            "nan" if builtin => Some(Expr::float(FloatKind::F64, FloatKind::F64.nan())),
            _ => None,
        };
        if let Some(c) = constant {
            let ty = match c.ty {
                Type::Float(k) => cf::scalar(k),
                _ => CScalar::Double,
            };
            return Some(Some(Val { e: c, ty }));
        }
        let un = match stem {
            "fabs" => Some(UnOp::FAbs),
            "sqrt" => Some(UnOp::Sqrt),
            "floor" => Some(UnOp::RoundTo(RoundDir::Floor)),
            "ceil" => Some(UnOp::RoundTo(RoundDir::Ceil)),
            "round" => Some(UnOp::RoundTo(RoundDir::Round)),
            "trunc" => Some(UnOp::RoundTo(RoundDir::Trunc)),
            _ => None,
        };
        if let Some(op) = un {
            if !arity(1) {
                return Some(self.arity_error(name, 1, sp));
            }
            let [x] = self.float_args(args, float_kind, out)?.try_into().ok()?;
            let ty = x.ty.clone();
            let e = Expr { kind: ExprKind::Unary(op, Box::new(x)), ty };
            return Some(Some(Val { e, ty: cf::scalar(float_kind) }));
        }
        let bin = match stem {
            "fmin" => Some(BinOp::FMin),
            "fmax" => Some(BinOp::FMax),
            "copysign" => Some(BinOp::CopySign),
            _ => None,
        };
        if let Some(op) = bin {
            if !arity(2) {
                return Some(self.arity_error(name, 2, sp));
            }
            let [x, y] = self.float_args(args, float_kind, out)?.try_into().ok()?;
            return Some(Some(Val { e: Expr::binary(op, x, y), ty: cf::scalar(float_kind) }));
        }
        if stem == "fma" {
            if !arity(3) {
                return Some(self.arity_error(name, 3, sp));
            }
            let [x, y, z] = self.float_args(args, float_kind, out)?.try_into().ok()?;
            return Some(Some(Val { e: Expr::fma(x, y, z), ty: cf::scalar(float_kind) }));
        }
        // Classifications: `isnan` and `isinf` of the user's source or gcc's builtins.
        let class = match base {
            "isnan" => Some((FloatClass::Nan, false)),
            "isinf" => Some((FloatClass::Inf, false)),
            "isinf_sign" if builtin => Some((FloatClass::Inf, true)),
            "isfinite" if builtin => Some((FloatClass::Finite, false)),
            "isnormal" if builtin => Some((FloatClass::Normal, false)),
            "signbit" if builtin => Some((FloatClass::SignBit, false)),
            _ => None,
        };
        if let Some((c, sign)) = class {
            if !arity(1) {
                return Some(self.arity_error(name, 1, sp));
            }
            let v = self.expr(&args[0], out)?;
            let Some(k) = cf::kind(v.ty) else {
                self.err(
                    format!("`{name}` takes a floating argument"),
                    &args[0].span,
                    "an integer",
                );
                return Some(None);
            };
            let is = |c: FloatClass, e: Expr| Expr {
                kind: ExprKind::Unary(UnOp::FloatIs(c), Box::new(e)),
                ty: Type::Bool,
            };
            let m = self.m();
            let int = |n: i64| m.lit_i(n, CScalar::Int);
            let r = is(c, v.e.clone());
            let e = if sign {
                // -1 for -inf, 1 for +inf, 0 otherwise.
                let neg = is(FloatClass::SignBit, v.e);
                ite(r, ite(neg, int(-1), int(1)), int(0))
            } else {
                ite(r, int(1), int(0))
            };
            let _ = k;
            return Some(Some(Val { e, ty: CScalar::Int }));
        }
        if builtin {
            return None;
        }
        let m = self.m();
        match name {
            "abs" | "labs" | "llabs" => {
                if !arity(1) {
                    return Some(self.arity_error(name, 1, sp));
                }
                let t = if name == "abs" { CScalar::Int } else { CScalar::Long };
                let v = self.expr(&args[0], out)?;
                let x = m.to_of(v, t);
                // abs(INT_MIN) is INT_MIN in the machine model (what glibc returns; C
                // leaves it undefined, like the signed overflow the report mentions).
                let neg = Expr {
                    kind: ExprKind::Unary(UnOp::Neg, Box::new(x.e.clone())),
                    ty: x.e.ty.clone(),
                };
                let below = if m.machine() { BinOp::SLt } else { BinOp::Lt };
                let e = ite(Expr::binary(below, x.e.clone(), m.lit_i(0, t)), neg, x.e);
                Some(Some(Val { e, ty: t }))
            }
            "rand" => {
                if !arity(0) {
                    return Some(self.arity_error(name, 0, sp));
                }
                let v = self.fresh("rand", VarTy::Scalar(CScalar::Int), sp);
                out.push(Stmt::Havoc { var: v, loc });
                let x = self.val_of(v);
                let ge = if m.machine() { BinOp::SGe } else { BinOp::Ge };
                let le = if m.machine() { BinOp::SLe } else { BinOp::Le };
                let ok = and(
                    Expr::binary(ge, x.e.clone(), m.lit_i(0, CScalar::Int)),
                    Expr::binary(le, x.e.clone(), m.lit_i(RAND_MAX, CScalar::Int)),
                );
                out.push(Stmt::Assume { cond: ok, loc });
                Some(Some(x))
            }
            "exit" => {
                if !arity(1) {
                    return Some(self.arity_error(name, 1, sp));
                }
                if !statement {
                    self.err(
                        "`exit` inside an expression is not supported",
                        sp,
                        "write `exit(n);` as a statement",
                    );
                    return Some(None);
                }
                Some(self.exit(&args[0], sp, out))
            }
            _ => None,
        }
    }

    fn arity_error(&mut self, name: &str, n: usize, sp: &Span) -> Option<Val> {
        self.err(format!("`{name}` takes {n} argument(s)"), sp, "wrong number of arguments");
        None
    }

    /// Arguments of a `math.h` function of format `k`, converted to it as its prototype
    /// converts them.
    fn float_args(
        &mut self,
        args: &[ast::Expr],
        k: FloatKind,
        out: &mut Vec<Stmt>,
    ) -> Option<Vec<Expr>> {
        let mut xs = Vec::new();
        for a in args {
            let v = self.expr(a, out)?;
            xs.push(self.m().convert_of(v, cf::scalar(k)));
        }
        Some(xs)
    }

    /// `exit(n)`: the run ends with `n` as its `ret` (LANGUAGE.md). Lowered as a `return n`
    /// of the copy's own function; inside an inlined callee it is not supported yet.
    fn exit(&mut self, arg: &ast::Expr, sp: &Span, out: &mut Vec<Stmt>) -> Option<Val> {
        if self.frames.len() != 1 {
            self.err(
                "`exit` inside a called function is not supported yet",
                sp,
                "call `exit` in the tuple's function",
            );
            return None;
        }
        let ret = ast::Stmt {
            kind: ast::StmtKind::Return(self.frames[0].ret.as_ref().map(|_| arg.clone())),
            span: sp.clone(),
        };
        if self.frames[0].ret.is_none() {
            // `void` function: evaluate the status for its effects only.
            self.effect(arg, out);
        }
        out.extend(self.seq(std::slice::from_ref(&ret), false));
        Some(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int })
    }
}

/// Whether `e` is a call `exit(…)` (a statement that ends the run, for `flow::jumps`).
pub(super) fn is_exit(e: &ast::Expr) -> bool {
    matches!(&e.kind, K::Call(f, _) if f.name == "exit")
}

/// The `math.h` stems whose `f` forms (`sqrtf`) are the `float` versions.
const MATH: [&str; 10] =
    ["fabs", "sqrt", "floor", "ceil", "round", "trunc", "fmin", "fmax", "copysign", "fma"];

fn t_name(t: CScalar) -> &'static str {
    t.c_name()
}

/// Whether `e` converts a float to an integer somewhere, with the condition under
/// which that conversion is evaluated (the branches of `?:`, `&&`, `||` it sits in):
/// `path` holds those conditions as a stack, joined only where a conversion is found, so
/// a chain of `n` conditionals costs O(n), not O(n²) copies of its prefix.
fn conversion_guards(e: &Expr, path: &mut Vec<Expr>, out: &mut Vec<Expr>) {
    let under = |cond: Expr, e: &Expr, path: &mut Vec<Expr>, out: &mut Vec<Expr>| {
        path.push(cond);
        conversion_guards(e, path, out);
        path.pop();
    };
    match &e.kind {
        ExprKind::Unary(UnOp::FloatToInt(t), a) => {
            conversion_guards(a, path, out);
            let fits =
                Expr { kind: ExprKind::Unary(UnOp::FloatFits(*t), a.clone()), ty: Type::Bool };
            out.push(if path.is_empty() {
                fits
            } else {
                Expr::binary(BinOp::Implies, Expr::and_all(path.clone()), fits)
            });
        }
        ExprKind::Ite(c, a, b) => {
            conversion_guards(c, path, out);
            under((**c).clone(), a, path, out);
            under(Expr::negate((**c).clone()), b, path, out);
        }
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
            conversion_guards(a, path, out);
            let first = if *op == BinOp::Or { Expr::negate((**a).clone()) } else { (**a).clone() };
            under(first, b, path, out);
        }
        // Quantifiers hold no C conversions (formulas only).
        ExprKind::Quant { .. } => {}
        _ => e.children().for_each(|x| conversion_guards(x, path, out)),
    }
}

/// Whether `e` holds a float-to-integer conversion (one inside a quantifier gets no
/// guard from [`conversion_guards`]; formulas hold none).
fn has_conversion(e: &Expr) -> bool {
    e.any_node(&|x| matches!(x.kind, ExprKind::Unary(UnOp::FloatToInt(_), _)))
}

/// The `assume`s that give a float converted out of an integer type's range no run
/// (`crate::c::float`), for the expressions one statement evaluates.
fn guards_of(es: &[&Expr], loc: crate::ir::Loc) -> Vec<Stmt> {
    let mut conds = Vec::new();
    for e in es {
        if has_conversion(e) {
            conversion_guards(e, &mut Vec::new(), &mut conds);
        }
    }
    conds.into_iter().map(|cond| Stmt::Assume { cond, loc }).collect()
}

/// Inserts the conversion guards in front of every statement of `b` that converts a
/// float to an integer (and at the end of a loop's body for its condition).
pub fn guard_conversions(b: &mut Vec<Stmt>) {
    let old = std::mem::take(b);
    for mut s in old {
        match &mut s {
            Stmt::Assign { value, loc, .. } => b.extend(guards_of(&[value], *loc)),
            Stmt::Store { index, value, loc, .. } => b.extend(guards_of(&[index, value], *loc)),
            Stmt::Assume { cond, loc } => b.extend(guards_of(&[cond], *loc)),
            Stmt::If { cond, then_branch, else_branch, loc } => {
                b.extend(guards_of(&[cond], *loc));
                guard_conversions(then_branch);
                guard_conversions(else_branch);
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                guard_conversions(then_branch);
                guard_conversions(else_branch);
            }
            Stmt::While { cond, body, loc, .. } => {
                let g = guards_of(&[cond], *loc);
                b.extend(g.clone());
                guard_conversions(body);
                body.extend(g);
            }
            _ => {}
        }
        b.push(s);
    }
}
