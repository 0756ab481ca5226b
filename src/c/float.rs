//! C's `float` and `double` (LANGUAGE.md, "Floating point"): the IR formats of the two
//! scalars, literals, and the conversions between floats, integers and `_Bool` that
//! `types::Model` delegates here (C11 6.3.1.4–5: integer to float rounds to nearest even,
//! float to integer truncates toward zero, float to `_Bool` is `x != 0`).
//!
//! A float converted to an integer type it does not fit (NaN, infinities, out of range)
//! has no run in C's semantics, as forex reads it (like division by zero); the
//! conversion built here is the IR's total `FloatToInt`, and `lower::float`'s
//! [`guard_conversions`](super::lower::float) adds the `assume` in front of each statement
//! that converts, so that formulas (which have no statements) keep the total operator.

use super::types::{ite, Model, Val};
use crate::ir::c::CScalar;
use crate::ir::float::{self as fl, FloatKind};
use crate::ir::{BinOp, Expr, ExprKind, IntTarget, Type, UnOp};
use num_bigint::BigInt;

/// The IR format of a C float scalar.
pub fn kind(t: CScalar) -> Option<FloatKind> {
    match t {
        CScalar::Float => Some(FloatKind::F32),
        CScalar::Double => Some(FloatKind::F64),
        _ => None,
    }
}

pub fn is_float(t: CScalar) -> bool {
    kind(t).is_some()
}

/// The C scalar of an IR format.
pub fn scalar(k: FloatKind) -> CScalar {
    match k {
        FloatKind::F32 => CScalar::Float,
        FloatKind::F64 => CScalar::Double,
    }
}

/// The usual arithmetic conversions when a float takes part: `double` wins over `float`,
/// which wins over every integer type (C11 6.3.1.8).
pub fn common(a: CScalar, b: CScalar) -> Option<CScalar> {
    if a == CScalar::Double || b == CScalar::Double {
        Some(CScalar::Double)
    } else if a == CScalar::Float || b == CScalar::Float {
        Some(CScalar::Float)
    } else {
        None
    }
}

/// The integer `v` as a float of `k`, rounded to nearest even.
pub fn of_integer(k: FloatKind, v: &BigInt) -> Expr {
    Expr::float(k, fl::from_bigint(k, v))
}

/// `+0.0` of `k`.
pub fn zero(k: FloatKind) -> Expr {
    Expr::float(k, k.zero(false))
}

/// C truth of a float: `x != 0.0` (true for NaN, false for both zeros).
pub fn truth(v: Val) -> Expr {
    let k = kind(v.ty).expect("a float");
    Expr::binary(BinOp::Ne, v.e, zero(k))
}

/// Where an integer converts to, in the IR: a mathematical integer (math model) or a
/// bit-vector of the type's width and signedness.
pub fn int_target(m: Model, t: CScalar) -> IntTarget {
    if m.machine() {
        IntTarget::Bv { width: t.bits(), signed: t.is_signed() }
    } else {
        IntTarget::Int
    }
}

/// `v` converted to `to` where one of them is a float (the caller has checked).
pub fn convert(m: Model, v: Val, to: CScalar) -> Expr {
    match (kind(v.ty), kind(to)) {
        (Some(from), Some(k)) => {
            if from == k {
                v.e
            } else {
                unary(UnOp::ToFloat { kind: k, signed: true }, v.e, Type::Float(k))
            }
        }
        (None, Some(k)) => {
            if v.ty == CScalar::Bool {
                return ite(v.e, of_integer(k, &BigInt::from(1)), zero(k));
            }
            // An integer literal (`x / 2`) converts now, exactly as C would: the float
            // literal lets the encoder see its value (`smt::encode`'s float rewrites).
            match (&v.e.kind, &v.e.ty) {
                (ExprKind::Int(n), _) => return of_integer(k, n),
                (ExprKind::Bv(value), Type::Bv(w)) if *w <= 64 => {
                    let mut n = BigInt::from(*value);
                    if v.ty.is_signed() && (*value >> (w - 1)) & 1 == 1 {
                        n -= BigInt::from(1u8) << *w as usize;
                    }
                    return of_integer(k, &n);
                }
                _ => {}
            }
            // Math model: an unbounded integer, rounded as any integer is.
            unary(UnOp::ToFloat { kind: k, signed: v.ty.is_signed() }, v.e, Type::Float(k))
        }
        (Some(_), None) => {
            if to == CScalar::Bool {
                return truth(v);
            }
            let target = int_target(m, to);
            unary(UnOp::FloatToInt(target), v.e, target.ty())
        }
        (None, None) => unreachable!("float::convert without a float"),
    }
}

fn unary(op: UnOp, a: Expr, ty: Type) -> Expr {
    Expr { kind: ExprKind::Unary(op, Box::new(a)), ty }
}

/// The float's bit pattern as an unsigned integer (NaN canonical): an injective key for
/// the tables of uninterpreted library functions (`f(-0.0)` and `f(0.0)` may differ,
/// NaN arguments are one argument).
pub fn as_key(m: Model, v: &Val) -> Expr {
    let k = kind(v.ty).expect("a float");
    let bits = unary(UnOp::FloatBits, v.e.clone(), Type::Bv(k.width()));
    let _ = m;
    unary(UnOp::BvToInt, bits, Type::Int)
}
