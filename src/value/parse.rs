//! Values written as in `.fe` (`-3`, `true`, `#b01`, `#xff`) and arrays
//! `[1: 5, _: 0]`: the one parser, used by `forex run --set/--choices` and anything else
//! that reads values people typed. `Display` on [`Value`] prints this form back.

use super::Value;
use crate::ir::{FloatKind, Type};
use std::str::FromStr;

impl FromStr for Value {
    type Err = String;
    /// An untyped value: arrays must give `_: v`.
    fn from_str(text: &str) -> Result<Value, String> {
        parse_value(text, None)
    }
}

impl Value {
    /// A value of type `ty`: an array may leave out `_` (the type's zero).
    pub fn parse_as(text: &str, ty: &Type) -> Result<Value, String> {
        parse_value(text, Some(ty))
    }
}

/// Splits at commas that are not inside `[...]` (array values contain commas).
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// A float as `Display` prints it (`0.1 (0x1.999999999999ap-4)`: the hex form inside
/// the parentheses is exact and wins), or either form alone, or `nan`, `inf`, `-inf`.
fn parse_float(t: &str, kind: FloatKind) -> Option<u64> {
    let text = match t.split_once(" (") {
        Some((_, hex)) => hex.strip_suffix(')')?,
        None => t,
    };
    crate::ir::float::parse_value_text(text, kind).map(|b| kind.canonical(b))
}

/// Parses a value written as in `.fe` (`-3`, `true`, `#b01`, `#xff`) or an array
/// `[1: 5, _: 0]`. With the expected type, an array may leave out `_` (the type's zero).
pub fn parse_value(text: &str, ty: Option<&Type>) -> Result<Value, String> {
    let t = text.trim();
    let bad = |why: &str| format!("bad value '{t}': {why}");
    if let Some(body) = t.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        return crate::ir::unescape_string(body)
            .map(|value| Value::Str { value })
            .map_err(|_| bad("strings hold printable ASCII; escapes are \\\" and \\\\"));
    }
    if t == "true" || t == "false" {
        return Ok(Value::bool(t == "true"));
    }
    if let Some(Type::Float(kind)) = ty {
        return parse_float(t, *kind)
            .map(|b| Value::float(*kind, b))
            .ok_or_else(|| bad(&format!("expected a {kind} value")));
    }
    if crate::ir::float::looks_like_float(t) {
        // Untyped: a trailing `f` makes it a float, as in C.
        let t2 = t.split(" (").next().unwrap_or(t).trim();
        let lower = t2.to_ascii_lowercase();
        let hex = lower.trim_start_matches(['-', '+']).starts_with("0x");
        let word = lower.trim_start_matches(['-', '+']);
        let is_f32 = match word {
            "inf" | "nan" | "infinity" => false,
            "inff" | "nanf" => true,
            _ => lower.ends_with('f') && (!hex || lower.contains('p')),
        };
        let kind = if is_f32 { FloatKind::F32 } else { FloatKind::F64 };
        return parse_float(t, kind)
            .map(|b| Value::float(kind, b))
            .ok_or_else(|| bad("expected a float value"));
    }
    if let Some(bits) = t.strip_prefix("#b") {
        let width = bits.len() as u32;
        if width == 0 || width > crate::ir::MAX_BV_WIDTH {
            return Err(bad("a bit-vector has 1 to 128 bits"));
        }
        let v = u128::from_str_radix(bits, 2).map_err(|_| bad("expected binary digits"))?;
        return Ok(Value::bv(v, width));
    }
    if let Some(hex) = t.strip_prefix("#x") {
        let width = 4 * hex.len() as u32;
        if width == 0 || width > crate::ir::MAX_BV_WIDTH {
            return Err(bad("a bit-vector has 1 to 32 hex digits"));
        }
        let v = u128::from_str_radix(hex, 16).map_err(|_| bad("expected hex digits"))?;
        return Ok(Value::bv(v, width));
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let elem = match ty {
            Some(Type::Array(e)) => Some(&**e),
            Some(other) => return Err(bad(&format!("expected a value of type {other}"))),
            None => None,
        };
        let mut default = elem.map(Value::default_of);
        let mut entries = Vec::new();
        for item in split_top_level(inner) {
            let (k, v) =
                item.split_once(':').ok_or_else(|| bad("array entries are INDEX: VALUE"))?;
            let v = parse_value(v, elem)?;
            if k.trim() == "_" {
                default = Some(v);
            } else {
                let k = k.trim().parse().map_err(|_| bad("array indices are integers"))?;
                entries.push((k, v));
            }
        }
        let default = default.ok_or_else(|| bad("give the other elements' value as `_: v`"))?;
        let mut arr = Value::Array { default: Box::new(default), entries: Default::default() };
        for (k, v) in entries {
            arr.store(k, v);
        }
        return Ok(arr);
    }
    t.parse::<num_bigint::BigInt>().map(Value::int).map_err(|_| {
        bad("expected an integer, true, false, #b… or #x… bit-vector, \"string\", or [i: v, _: v] array")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values() {
        assert_eq!(parse_value(" -12 ", None), Ok(Value::int(-12)));
        assert_eq!(parse_value("true", None), Ok(Value::bool(true)));
        assert_eq!(parse_value("#b01", None), Ok(Value::bv(1, 2)));
        assert_eq!(parse_value("#xff", None), Ok(Value::bv(255, 8)));
        let arr = parse_value("[1: 5, -2: 7, _: 0]", None).unwrap();
        assert_eq!(arr.select(&1.into()), Some(Value::int(5)));
        assert_eq!(arr.select(&(-2).into()), Some(Value::int(7)));
        assert_eq!(arr.select(&9.into()), Some(Value::int(0)));
        // The printed form parses back.
        assert_eq!(parse_value(&arr.to_string(), None), Ok(arr));
        let typed = parse_value("[3: true]", Some(&Type::Array(Box::new(Type::Bool)))).unwrap();
        assert_eq!(typed.select(&0.into()), Some(Value::bool(false)));
        assert!(parse_value("[3: 1]", None).unwrap_err().contains("_: v"));
        assert!(parse_value("#b012", None).unwrap_err().contains("binary digits"));
        assert!(parse_value("abc", None).unwrap_err().contains("bad value 'abc'"));
    }

    #[test]
    fn parses_floats_as_printed() {
        let d = |x: f64| Value::f64(x);
        assert_eq!(parse_value("1.5", None), Ok(d(1.5)));
        assert_eq!(parse_value("-0.0", None), Ok(d(-0.0)));
        assert_eq!(parse_value("0x1.8p+1", None), Ok(d(3.0)));
        assert_eq!(parse_value("1.5f", None), Ok(Value::f32(1.5)));
        assert_eq!(parse_value("-inf", None), Ok(d(f64::NEG_INFINITY)));
        assert_eq!(
            parse_value("nan", Some(&Type::Float(FloatKind::F32))),
            Ok(Value::f32(f32::NAN))
        );
        assert_eq!(parse_value("3", Some(&Type::Float(FloatKind::F64))), Ok(d(3.0)));
        for v in [d(0.1), d(-5e-324), Value::f32(0.1), Value::f32(f32::INFINITY), d(1e300)] {
            assert_eq!(parse_value(&v.to_string(), None), Ok(v.clone()), "{v}");
        }
        assert!(parse_value("1.5x", None).is_err());
    }

    #[test]
    fn splits_choices_outside_arrays() {
        assert_eq!(split_top_level("1, [1: 2, _: 0],true"), vec!["1", " [1: 2, _: 0]", "true"]);
        assert!(split_top_level("").is_empty());
    }
}
