//! Values as C integers: the one conversion between forex's [`Value`]s and the integers a
//! compiled C program holds, per C scalar type. The IR may hold a C `int` as an unbounded
//! `Int` (math model), as a 32-bit `Bv` read two's complement (machine model) or a `_Bool`
//! as `Bool`; all of them meet here as one `i128` (every LP64 scalar fits).

use crate::ir::c::CScalar;
use crate::value::Value;
use num_traits::ToPrimitive;

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

/// The value as an integer of C type `ty`: bit-vectors of the type's width are read
/// two's complement when the type is signed. `Err` says why the value has no such
/// integer (out of the type's range, a string, an array).
pub fn to_c_int(v: &Value, ty: CScalar) -> Result<i128, String> {
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

/// The `printf` conversion and cast that print a value of type `ty` exactly.
pub fn printf_of(ty: CScalar) -> (&'static str, &'static str) {
    if ty.is_signed() {
        ("%lld", "(long long)")
    } else {
        ("%llu", "(unsigned long long)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_vectors_read_per_signedness() {
        let minus_one = Value::bv(0xffff_ffff, 32);
        assert_eq!(to_c_int(&minus_one, CScalar::Int), Ok(-1));
        assert_eq!(to_c_int(&minus_one, CScalar::UInt), Ok(0xffff_ffff));
        assert!(to_c_int(&Value::int(1i64 << 40), CScalar::Int).is_err());
        assert_eq!(to_c_int(&Value::bool(true), CScalar::Bool), Ok(1));
        assert_eq!(to_c_int(&Value::int(-5), CScalar::Char), Ok(-5));
    }

    #[test]
    fn literals_cover_both_64_bit_ranges() {
        assert_eq!(literal(-1), "(-1LL)");
        assert_eq!(literal(i128::from(u64::MAX)), "18446744073709551615ULL");
        assert_eq!(literal(i128::from(i64::MIN)), "(-9223372036854775807LL - 1)");
        assert!(!has_literal(i128::from(u64::MAX) + 1));
    }
}
