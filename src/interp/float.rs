//! The float operators on concrete values, with Rust's `f32`/`f64` (IEEE-754 with
//! round-to-nearest-even, as the IR's semantics asks: see the header of `ir.rs`). Every
//! result goes through `Value::float`, which makes a NaN the one NaN.

use super::{mismatch, InterpError};
use crate::ir::float::{self as fl, FloatKind};
use crate::ir::{BinOp, FloatClass, IntTarget, RoundDir, UnOp};
use crate::value::{bv_mask, Value};
use num_bigint::BigInt;

/// Applies `$body` with `$x` bound to the operand(s) as the format's Rust type and wraps
/// the result (a float of that type) back into a `Value`.
macro_rules! per_kind {
    ($kind:expr, |$($x:ident = $bits:ident),+| $body:expr) => {
        match $kind {
            FloatKind::F32 => {
                $(let $x = f32::from_bits($bits as u32);)+
                Value::f32($body)
            }
            FloatKind::F64 => {
                $(let $x = f64::from_bits($bits);)+
                Value::f64($body)
            }
        }
    };
}

/// Same as [`per_kind`] for results that are not floats.
macro_rules! test_kind {
    ($kind:expr, |$($x:ident = $bits:ident),+| $body:expr) => {
        match $kind {
            FloatKind::F32 => {
                $(let $x = f32::from_bits($bits as u32);)+
                $body
            }
            FloatKind::F64 => {
                $(let $x = f64::from_bits($bits);)+
                $body
            }
        }
    };
}

/// `op a` for a float `a` (`ToFloat` of any operand is [`to_float`]).
pub fn unary(op: UnOp, kind: FloatKind, a: u64) -> Result<Value, InterpError> {
    Ok(match op {
        UnOp::Neg => Value::float(kind, a ^ (1u64 << (kind.width() - 1))),
        UnOp::FAbs => Value::float(kind, a & !(1u64 << (kind.width() - 1))),
        UnOp::Sqrt => per_kind!(kind, |x = a| x.sqrt()),
        UnOp::RoundTo(dir) => per_kind!(kind, |x = a| match dir {
            RoundDir::Floor => x.floor(),
            RoundDir::Ceil => x.ceil(),
            RoundDir::Trunc => x.trunc(),
            RoundDir::Round => x.round(),
            RoundDir::Rint => x.round_ties_even(),
        }),
        UnOp::FloatIs(class) => Value::bool(test_kind!(kind, |x = a| match class {
            FloatClass::Nan => x.is_nan(),
            FloatClass::Inf => x.is_infinite(),
            FloatClass::Finite => x.is_finite(),
            FloatClass::Normal => x.is_normal(),
            FloatClass::Subnormal => x.is_subnormal(),
            FloatClass::Zero => x == 0.0,
            FloatClass::SignBit => kind.is_negative(a),
        })),
        UnOp::ToFloat { kind: to, .. } => Value::float(to, to.from_f64(kind.to_f64(a))),
        UnOp::FloatToInt(target) => to_int(target, kind, a),
        UnOp::FloatFits(target) => Value::bool(fits(target, kind, a).is_some()),
        UnOp::FloatBits => Value::bv(u128::from(kind.canonical(a)), kind.width()),
        _ => return Err(mismatch(&format!("an operand of {op:?}"), &Value::float(kind, a))),
    })
}

/// `a op b` on two floats of one format.
pub fn binary(op: BinOp, kind: FloatKind, a: u64, b: u64) -> Result<Value, InterpError> {
    use BinOp::*;
    let compare = |f: &dyn Fn(f64, f64) -> bool| {
        // Widening binary32 to f64 is exact, so comparisons agree.
        Value::bool(f(kind.to_f64(a), kind.to_f64(b)))
    };
    Ok(match op {
        Add => per_kind!(kind, |x = a, y = b| x + y),
        Sub => per_kind!(kind, |x = a, y = b| x - y),
        Mul => per_kind!(kind, |x = a, y = b| x * y),
        Div => per_kind!(kind, |x = a, y = b| x / y),
        Lt => compare(&|x, y| x < y),
        Le => compare(&|x, y| x <= y),
        Gt => compare(&|x, y| x > y),
        Ge => compare(&|x, y| x >= y),
        Eq => compare(&|x, y| x == y),
        Ne => compare(&|x, y| x != y),
        Ident => Value::bool(kind.canonical(a) == kind.canonical(b)),
        // NaN ignored; on ties (±0) the first argument, as glibc on x86-64.
        FMin => per_kind!(kind, |x = a, y = b| if x.is_nan() || y < x { y } else { x }),
        FMax => per_kind!(kind, |x = a, y = b| if x.is_nan() || y > x { y } else { x }),
        CopySign => {
            let sign = 1u64 << (kind.width() - 1);
            let negative = kind.is_negative(b);
            Value::float(kind, (a & !sign) | if negative { sign } else { 0 })
        }
        _ => {
            return Err(InterpError::Malformed(format!("{op:?} on floats")));
        }
    })
}

/// `fma(a, b, c)`: `a * b + c` rounded once.
pub fn fma(kind: FloatKind, a: u64, b: u64, c: u64) -> Value {
    per_kind!(kind, |x = a, y = b, z = c| x.mul_add(y, z))
}

/// `ToFloat { kind, signed }` of an int, a bit-vector or a float.
pub fn to_float(kind: FloatKind, signed: bool, v: &Value) -> Result<Value, InterpError> {
    let bits = match v {
        Value::Float { kind: from, bits } => kind.from_f64(from.to_f64(*bits)),
        Value::Int { value } => fl::from_bigint(kind, value),
        Value::Bv { width, value } => fl::from_bigint(kind, &bv_number(*value, *width, signed)),
        other => return Err(mismatch("a number to convert to a float", other)),
    };
    Ok(Value::float(kind, bits))
}

/// A bit-vector's number: unsigned, or two's complement.
fn bv_number(value: u128, width: u32, signed: bool) -> BigInt {
    let negative = signed && width > 0 && (value >> (width - 1)) & 1 == 1;
    if negative {
        BigInt::from(value) - (BigInt::from(1) << width as usize)
    } else {
        BigInt::from(value)
    }
}

/// The truncation of the float if `target` holds it.
fn fits(target: IntTarget, kind: FloatKind, bits: u64) -> Option<BigInt> {
    let n = fl::trunc_to_bigint(kind, bits)?;
    let ok = match target {
        IntTarget::Int => true,
        IntTarget::Bv { width, signed: false } => {
            n >= BigInt::from(0) && n < BigInt::from(1) << width as usize
        }
        IntTarget::Bv { width, signed: true } => {
            let half = BigInt::from(1) << (width as usize - 1);
            n >= -half.clone() && n < half
        }
    };
    ok.then_some(n)
}

/// `FloatToInt(target)`: the truncation, or 0 when it is out of range.
fn to_int(target: IntTarget, kind: FloatKind, bits: u64) -> Value {
    let n = fits(target, kind, bits).unwrap_or_default();
    match target {
        IntTarget::Int => Value::int(n),
        IntTarget::Bv { width, .. } => {
            // Two's complement of a negative value: n mod 2^width.
            let m = ((n % (BigInt::from(1) << width as usize))
                + (BigInt::from(1) << width as usize))
                % (BigInt::from(1) << width as usize);
            let v: u128 = m.try_into().unwrap_or(0);
            Value::bv(v & bv_mask(width), width)
        }
    }
}
