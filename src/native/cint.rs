//! Values as C scalars: the one conversion between forex's [`Value`]s and the values a
//! compiled C program holds, per C scalar type. The IR may hold a C `int` as an unbounded
//! `Int` (math model), as a 32-bit `Bv` read two's complement (machine model) or a `_Bool`
//! as `Bool`; all of them meet here as one `i128` (every LP64 scalar fits). A `float` or
//! `double` is held as its bit pattern (binary32 in the low 32 bits), and crosses into C
//! as a hex float literal (exact: never a decimal that rounds) and back as the bits the
//! compiled code holds (`forex_bits_f`/`forex_bits_d`, a `memcpy`).
//!
//! **NaN.** forex has one NaN (SMT-LIB's FloatingPoint theory has no NaN sign or payload,
//! `ir::float`), while the compiled code produces NaNs of either sign (x86-64's `0.0/0.0`
//! is the negative default NaN) and passes payloads through. What C can observe of a NaN
//! through the operations forex models (`==`, `<`, `isnan`, arithmetic, conversions) is
//! only that it is a NaN; sign and payload need its bits (`memcpy`, `signbit`, `printf`),
//! which forex does not model. So the native comparison reads every NaN as the one NaN and
//! compares every other float bit for bit: `-0.0` differs from `0.0`, each subnormal is
//! itself ([`same`]).

use crate::ir::c::CScalar;
use crate::ir::float::{self as fl, FloatKind};
use crate::value::Value;
use num_traits::ToPrimitive;

/// The float format of a C scalar type (`None` for integers).
pub fn float_kind(ty: CScalar) -> Option<FloatKind> {
    match ty {
        CScalar::Float => Some(FloatKind::F32),
        CScalar::Double => Some(FloatKind::F64),
        _ => None,
    }
}

/// The smallest and largest value of a C scalar type.
pub fn range(ty: CScalar) -> (i128, i128) {
    let bits = ty.bits();
    if ty == CScalar::Bool {
        (0, 1)
    } else if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// The value as a scalar of C type `ty`: an integer (bit-vectors of the type's width are
/// read two's complement when the type is signed), or a float's bit pattern. `Err` says
/// why the value has no such scalar (out of the type's range, a string, an array, a float
/// of the other format or where an integer is wanted).
pub fn to_c_scalar(v: &Value, ty: CScalar) -> Result<i128, String> {
    if let Some(want) = float_kind(ty) {
        return match v {
            Value::Float { kind, bits } if *kind == want => Ok(i128::from(*bits)),
            _ => Err(format!("{v} is not a C {}", ty.c_name())),
        };
    }
    let n = as_integer(v)?;
    let n = match v {
        Value::Bv { width, .. } if ty.is_signed() && *width == ty.bits() => {
            if n >> (width - 1) & 1 == 1 {
                n - (1i128 << width)
            } else {
                n
            }
        }
        _ => n,
    };
    let (lo, hi) = range(ty);
    if n < lo || n > hi {
        return Err(format!("{v} does not fit C type {} ({lo}..{hi})", ty.c_name()));
    }
    Ok(n)
}

/// The value as an integer before any C type is known: `Int` as is, `Bool` 0/1, a
/// bit-vector (at most 64 bits) unsigned.
pub fn as_integer(v: &Value) -> Result<i128, String> {
    match v {
        Value::Int { value } => {
            value.to_i128().ok_or_else(|| format!("{value} is wider than any C integer"))
        }
        Value::Bool { value } => Ok(i128::from(*value)),
        Value::Bv { width, value } if *width <= 64 => Ok(*value as i128),
        Value::Bv { width, .. } => Err(format!("a {width}-bit value is wider than any C integer")),
        Value::Str { .. } | Value::Array { .. } | Value::Float { .. } => {
            Err(format!("{v} is not a C integer"))
        }
    }
}

/// A C literal of `n`, as an expression any integer type can be initialised from.
/// `n` must lie within `long long` or `unsigned long long`.
pub fn literal(n: i128) -> String {
    if n == i128::from(i64::MIN) {
        "(-9223372036854775807LL - 1)".to_string()
    } else if n < 0 {
        format!("({n}LL)")
    } else if n <= i128::from(i64::MAX) {
        format!("{n}LL")
    } else {
        format!("{n}ULL")
    }
}

/// Whether `n` can be written as a C literal ([`literal`]).
pub fn has_literal(n: i128) -> bool {
    n >= i128::from(i64::MIN) && n <= i128::from(u64::MAX)
}

/// The `printf` conversion and cast that print an integer of type `ty` exactly (a float:
/// its bit pattern, held in an integer, [`observe`]).
pub fn printf_of(ty: CScalar) -> (&'static str, &'static str) {
    if ty.is_signed() {
        ("%lld", "(long long)")
    } else {
        ("%llu", "(unsigned long long)")
    }
}

/// The C expression, of type `long long` or `unsigned long long`, that [`printf_of`]`(ty)`
/// prints for the C expression `e` of type `ty`: the integer, or the float's bit pattern.
pub fn observe(ty: CScalar, e: &str) -> String {
    match ty {
        CScalar::Float => format!("forex_bits_f({e})"),
        CScalar::Double => format!("forex_bits_d({e})"),
        _ => format!("{}({e})", printf_of(ty).1),
    }
}

/// The harness's helpers behind [`observe`]: a float's bit pattern, by `memcpy` (no
/// conversion, NaN payloads kept).
pub const FLOAT_BITS: &str = "static unsigned long long forex_bits_f(float x) { unsigned int u; \
__builtin_memcpy(&u, &x, sizeof u); return u; }
static unsigned long long forex_bits_d(double x) { unsigned long long u; \
__builtin_memcpy(&u, &x, sizeof u); return u; }";

/// A C expression of type `ty` whose value is `n` (as [`to_c_scalar`] holds it): an
/// integer literal with a cast, or an exact float: a hex float literal (`0x1.8p+1`,
/// `-0x0p+0`, subnormals included), `__builtin_inf()`, `__builtin_nan("")`.
pub fn c_value(ty: CScalar, n: i128) -> String {
    let Some(kind) = float_kind(ty) else {
        return format!("({}){}", ty.c_name(), literal(n));
    };
    let bits = n as u64;
    let f = if kind == FloatKind::F32 { "f" } else { "" };
    if kind.is_nan(bits) {
        format!("__builtin_nan{f}(\"\")")
    } else if kind.is_infinite(bits) {
        let sign = if kind.is_negative(bits) { "-" } else { "" };
        format!("({sign}__builtin_inf{f}())")
    } else {
        // Every value of the format is a hex literal of it, read without rounding.
        format!("({}{})", fl::hex_text(kind, bits), if f.is_empty() { "" } else { "f" })
    }
}

/// Whether the native value `native` is the value `forex` (both as [`to_c_scalar`] holds
/// them) of type `ty`: integers equal; floats bit for bit, every NaN the one NaN.
pub fn same(ty: CScalar, forex: i128, native: i128) -> bool {
    match float_kind(ty) {
        Some(k) => {
            let (a, b) = (forex as u64, native as u64);
            a == b || (k.is_nan(a) && k.is_nan(b))
        }
        None => forex == native,
    }
}

/// `n` (as [`to_c_scalar`] holds it) as reports show values of type `ty`: an integer in
/// decimal, a float in decimal and as a C hex float (a native NaN's bits in hex).
pub fn show(ty: CScalar, n: i128) -> String {
    match float_kind(ty) {
        Some(k) if k.is_nan(n as u64) && n as u64 != k.nan() => {
            format!("nan (bits {:#x})", n as u64)
        }
        Some(k) => Value::float(k, n as u64).to_string(),
        None => n.to_string(),
    }
}

/// The C condition that the expression `e` of type `ty` is not the value `n`: `!=` on
/// integers; on floats a different bit pattern (C's `!=` is true on NaN and false between
/// the zeros). A NaN differs from nothing but numbers here ([`same`]).
pub fn differs(ty: CScalar, e: &str, n: i128) -> String {
    match float_kind(ty) {
        Some(k) if k.is_nan(n as u64) => format!("!(({e}) != ({e}))"),
        Some(_) => format!("{} != {}ULL", observe(ty, e), n as u64),
        None => format!("({e}) != {}", c_value(ty, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_vectors_read_per_signedness() {
        let minus_one = Value::bv(0xffff_ffff, 32);
        assert_eq!(to_c_scalar(&minus_one, CScalar::Int), Ok(-1));
        assert_eq!(to_c_scalar(&minus_one, CScalar::UInt), Ok(0xffff_ffff));
        assert!(to_c_scalar(&Value::int(1i64 << 40), CScalar::Int).is_err());
        assert_eq!(to_c_scalar(&Value::bool(true), CScalar::Bool), Ok(1));
        assert_eq!(to_c_scalar(&Value::int(-5), CScalar::Char), Ok(-5));
    }

    #[test]
    fn floats_are_bit_patterns_with_exact_literals() {
        let third = Value::f64(1.0 / 3.0);
        let bits = to_c_scalar(&third, CScalar::Double).unwrap();
        assert_eq!(bits as u64, (1.0f64 / 3.0).to_bits());
        assert_eq!(c_value(CScalar::Double, bits), "(0x1.5555555555555p-2)");
        assert_eq!(c_value(CScalar::Double, i128::from((-0.0f64).to_bits())), "(-0x0p+0)");
        assert_eq!(c_value(CScalar::Double, 1), "(0x0.0000000000001p-1022)");
        assert_eq!(c_value(CScalar::Float, i128::from(0x7f80_0000u32)), "(__builtin_inff())");
        assert_eq!(c_value(CScalar::Float, i128::from(1.5f32.to_bits())), "(0x1.8p+0f)");
        assert!(to_c_scalar(&third, CScalar::Float).is_err());
        assert!(to_c_scalar(&third, CScalar::Int).is_err());
        // Any NaN is the NaN; the zeros differ.
        let nan = i128::from(FloatKind::F64.nan());
        assert!(same(CScalar::Double, nan, i128::from(f64::NAN.to_bits() | 1 << 63)));
        assert!(!same(CScalar::Double, 0, i128::from((-0.0f64).to_bits())));
    }

    #[test]
    fn literals_cover_both_64_bit_ranges() {
        assert_eq!(literal(-1), "(-1LL)");
        assert_eq!(literal(i128::from(u64::MAX)), "18446744073709551615ULL");
        assert_eq!(literal(i128::from(i64::MIN)), "(-9223372036854775807LL - 1)");
        assert!(!has_literal(i128::from(u64::MAX) + 1));
    }
}
