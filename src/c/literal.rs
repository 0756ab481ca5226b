//! C's integer and character literals: their values and the types C gives them under
//! LP64 (C11 6.4.4.1, 6.4.4.4), for code (from lang-c's tokens) and annotation formulas.

use crate::ir::c::CScalar;
use num_bigint::BigInt;
use num_traits::Num;

/// The type of an integer literal with value `v`: the first of C's candidates for its
/// base and suffix that holds it (`None`: too large for any).
pub fn int_type(v: &BigInt, decimal: bool, unsigned: bool, long: bool) -> Option<CScalar> {
    let candidates: &[CScalar] = match (unsigned, long, decimal) {
        (false, false, true) => &[CScalar::Int, CScalar::Long],
        (false, false, false) => &[CScalar::Int, CScalar::UInt, CScalar::Long, CScalar::ULong],
        (true, false, _) => &[CScalar::UInt, CScalar::ULong],
        (false, true, true) => &[CScalar::Long],
        (false, true, false) => &[CScalar::Long, CScalar::ULong],
        (true, true, _) => &[CScalar::ULong],
    };
    candidates.iter().copied().find(|t| super::consts::fits(v, *t))
}

/// An integer literal as written (`0x1Fu`, `017`, `10L`): value and type, or why not.
pub fn int_literal(text: &str) -> Result<(BigInt, CScalar), String> {
    let lower = text.to_ascii_lowercase();
    let digits_end = lower.trim_end_matches(['u', 'l']).len();
    let (digits, suffix) = lower.split_at(digits_end);
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = digits.strip_prefix("0b") {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    let v = BigInt::from_str_radix(body, radix)
        .map_err(|_| format!("`{text}` is not a valid integer literal"))?;
    let t = int_type(&v, radix == 10, suffix.contains('u'), suffix.contains('l'))
        .ok_or_else(|| format!("integer literal `{text}` is too large for any C integer type"))?;
    Ok((v, t))
}

/// A character literal's value and type (`'a'`: `int`, a `char` being signed as gcc on
/// x86-64; `L'a'`: `int`; `u'a'`: `unsigned short`; `U'a'`: `unsigned int`), or `None`
/// for what forex does not read (several characters, unknown escapes).
pub fn char_literal(text: &str) -> Option<(i64, CScalar)> {
    let (prefix, quoted) = match text.find('\'') {
        Some(q) => text.split_at(q),
        None => return None,
    };
    if quoted.len() < 3 || !quoted.ends_with('\'') {
        return None;
    }
    let body = &quoted[1..quoted.len() - 1];
    let b = body.as_bytes();
    let v: i64 = if b.first() == Some(&b'\\') {
        let rest = &body[1..];
        match rest.as_bytes().first() {
            Some(b'n') if rest.len() == 1 => 10,
            Some(b't') if rest.len() == 1 => 9,
            Some(b'r') if rest.len() == 1 => 13,
            Some(b'a') if rest.len() == 1 => 7,
            Some(b'b') if rest.len() == 1 => 8,
            Some(b'f') if rest.len() == 1 => 12,
            Some(b'v') if rest.len() == 1 => 11,
            Some(b'e') if rest.len() == 1 => 27,
            Some(b'\\' | b'\'' | b'"' | b'?') if rest.len() == 1 => rest.as_bytes()[0] as i64,
            Some(b'x') => i64::from_str_radix(&rest[1..], 16).ok().filter(|v| *v < 256)?,
            Some(b'0'..=b'7') if rest.len() <= 3 => {
                i64::from_str_radix(rest, 8).ok().filter(|v| *v < 256)?
            }
            _ => return None,
        }
    } else {
        let mut chars = body.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if prefix.is_empty() && c.is_ascii() => c as i64,
            (Some(c), None) if !prefix.is_empty() => c as i64,
            _ => return None,
        }
    };
    Some(match prefix {
        "" => (if v >= 128 { v - 256 } else { v }, CScalar::Int),
        "u" => (v, CScalar::UShort),
        "U" => (v, CScalar::UInt),
        _ => (v, CScalar::Int),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_get_c_types() {
        assert_eq!(int_literal("2147483648"), Ok((2147483648u32.into(), CScalar::Long)));
        assert_eq!(int_literal("0x80000000"), Ok((2147483648u32.into(), CScalar::UInt)));
        assert_eq!(int_literal("017"), Ok((15.into(), CScalar::Int)));
        assert_eq!(int_literal("0b101u"), Ok((5.into(), CScalar::UInt)));
        assert!(int_literal("99999999999999999999999").unwrap_err().contains("too large"));
        assert_eq!(char_literal("'\\xff'"), Some((-1, CScalar::Int)));
        assert_eq!(char_literal("'\\n'"), Some((10, CScalar::Int)));
        assert_eq!(char_literal("u'a'"), Some((97, CScalar::UShort)));
        assert_eq!(char_literal("'ab'"), None);
    }
}
