//! Concrete values: what the interpreter computes, what counterexamples report, and
//! what hypertests generate. One representation for all of them.

mod parse;

pub use parse::split_top_level;

use crate::ir::float::{self as fl, FloatKind};
use crate::ir::Type;
use num_bigint::BigInt;
use num_traits::Zero;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// In JSON a float is `{"type": "double", "value": "0.1", "hex": "0x1.999999999999ap-4"}`
/// (`"float"` for binary32): the shortest decimal that reads back, and the exact C hex
/// float, which is what is read back when present.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "repr::Repr", try_from = "repr::Repr")]
pub enum Value {
    Int {
        #[serde(with = "bigint_string")]
        value: BigInt,
    },
    Bool {
        value: bool,
    },
    /// A bit-vector; `value` < 2^width. In JSON `value` is a decimal string (a number
    /// would lose precision past 2^53 in JSON readers); `#x…`/`#b…` strings and plain
    /// numbers are read too.
    Bv {
        width: u32,
        #[serde(with = "bv_string")]
        value: u128,
    },
    /// A string; in JSON a JSON string.
    #[serde(rename = "string")]
    Str {
        value: String,
    },
    /// An array from int indices: `entries` overrides `default`. Kept normalised (no entry
    /// equals the default), so `==` on values is equality of the arrays.
    Array {
        default: Box<Value>,
        #[serde(with = "entries_list")]
        entries: BTreeMap<BigInt, Value>,
    },
    /// A float of the given format as its bit pattern, canonical (one NaN, see
    /// `ir::float`): `==` on values is identity (`===`), not C's `==`.
    Float {
        kind: FloatKind,
        bits: u64,
    },
}

impl Value {
    pub fn int(n: impl Into<BigInt>) -> Value {
        Value::Int { value: n.into() }
    }
    pub fn bool(b: bool) -> Value {
        Value::Bool { value: b }
    }
    /// A bit-vector value, truncated to `width` bits.
    pub fn bv(value: u128, width: u32) -> Value {
        Value::Bv { width, value: value & bv_mask(width) }
    }
    /// A float from its bit pattern (NaNs made the one NaN).
    pub fn float(kind: FloatKind, bits: u64) -> Value {
        Value::Float { kind, bits: kind.canonical(bits) }
    }
    pub fn f64(x: f64) -> Value {
        Value::float(FloatKind::F64, x.to_bits())
    }
    pub fn f32(x: f32) -> Value {
        Value::float(FloatKind::F32, u64::from(x.to_bits()))
    }
    /// The zero / false / empty value of a type (the default for arrays and fresh states).
    pub fn default_of(ty: &Type) -> Value {
        match ty {
            Type::Int => Value::int(0),
            Type::Bool => Value::bool(false),
            Type::Bv(w) => Value::bv(0, *w),
            Type::Str => Value::Str { value: String::new() },
            Type::Float(k) => Value::float(*k, 0),
            Type::Array(elem) => Value::Array {
                default: Box::new(Value::default_of(elem)),
                entries: BTreeMap::new(),
            },
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool { value } => Some(*value),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            Value::Int { value } => Some(value),
            _ => None,
        }
    }
    /// Reads `self[index]` of an array value.
    pub fn select(&self, index: &BigInt) -> Option<Value> {
        match self {
            Value::Array { default, entries } => {
                Some(entries.get(index).cloned().unwrap_or_else(|| (**default).clone()))
            }
            _ => None,
        }
    }
    /// Writes `self[index] = v` on an array value, keeping it normalised.
    pub fn store(&mut self, index: BigInt, v: Value) {
        if let Value::Array { default, entries } = self {
            if **default == v {
                entries.remove(&index);
            } else {
                entries.insert(index, v);
            }
        }
    }
    /// Whether the value fits the type (used to validate user input such as `--set`).
    pub fn has_type(&self, ty: &Type) -> bool {
        match (self, ty) {
            (Value::Int { .. }, Type::Int) | (Value::Bool { .. }, Type::Bool) => true,
            (Value::Bv { width, .. }, Type::Bv(w)) => width == w,
            (Value::Str { .. }, Type::Str) => true,
            (Value::Float { kind, .. }, Type::Float(k)) => kind == k,
            (Value::Array { default, entries }, Type::Array(elem)) => {
                default.has_type(elem) && entries.values().all(|v| v.has_type(elem))
            }
            _ => false,
        }
    }
}

pub fn bv_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int { value } => write!(f, "{value}"),
            Value::Bool { value } => write!(f, "{value}"),
            Value::Bv { width, value } => {
                if width % 4 == 0 {
                    write!(f, "#x{:0w$x}", value, w = (*width / 4) as usize)
                } else {
                    write!(f, "#b{:0w$b}", value, w = *width as usize)
                }
            }
            Value::Str { value } => write!(f, "{}", crate::ir::escape_string(value)),
            Value::Float { kind, bits } => {
                // Exact and readable: `0.1 (0x1.999999999999ap-4)`; `f` marks a binary32.
                let suffix = if *kind == FloatKind::F32 { "f" } else { "" };
                let dec = fl::decimal_text(*kind, *bits);
                if kind.is_nan(*bits) || kind.is_infinite(*bits) {
                    write!(f, "{dec}{suffix}")
                } else {
                    write!(f, "{dec}{suffix} ({}{suffix})", fl::hex_text(*kind, *bits))
                }
            }
            Value::Array { default, entries } => {
                write!(f, "[")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                if !entries.is_empty() {
                    write!(f, ", ")?;
                }
                write!(f, "_: {default}]")
            }
        }
    }
}

impl Default for Value {
    fn default() -> Self {
        Value::Int { value: BigInt::zero() }
    }
}

/// The JSON form of values: the derived form, with floats spelled out (see [`Value`]).
mod repr {
    use super::{bigint_string, bv_string, entries_list, fl, FloatKind, Value};
    use num_bigint::BigInt;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    pub enum Repr {
        Int {
            #[serde(with = "bigint_string")]
            value: BigInt,
        },
        Bool {
            value: bool,
        },
        Bv {
            width: u32,
            #[serde(with = "bv_string")]
            value: u128,
        },
        #[serde(rename = "string")]
        Str {
            value: String,
        },
        Array {
            default: Box<Value>,
            #[serde(with = "entries_list")]
            entries: BTreeMap<BigInt, Value>,
        },
        Float(FloatText),
        Double(FloatText),
    }

    #[derive(Serialize, Deserialize)]
    pub struct FloatText {
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hex: Option<String>,
    }

    impl From<Value> for Repr {
        fn from(v: Value) -> Repr {
            match v {
                Value::Int { value } => Repr::Int { value },
                Value::Bool { value } => Repr::Bool { value },
                Value::Bv { width, value } => Repr::Bv { width, value },
                Value::Str { value } => Repr::Str { value },
                Value::Array { default, entries } => Repr::Array { default, entries },
                Value::Float { kind, bits } => {
                    let finite = !kind.is_nan(bits) && !kind.is_infinite(bits);
                    let text = FloatText {
                        value: fl::decimal_text(kind, bits),
                        hex: finite.then(|| fl::hex_text(kind, bits)),
                    };
                    match kind {
                        FloatKind::F32 => Repr::Float(text),
                        FloatKind::F64 => Repr::Double(text),
                    }
                }
            }
        }
    }

    impl TryFrom<Repr> for Value {
        type Error = String;
        fn try_from(r: Repr) -> Result<Value, String> {
            let float = |kind: FloatKind, t: FloatText| {
                let text = t.hex.unwrap_or(t.value);
                fl::parse_value_text(&text, kind)
                    .map(|bits| Value::float(kind, bits))
                    .ok_or_else(|| format!("`{text}` is not a {kind} value"))
            };
            Ok(match r {
                Repr::Int { value } => Value::Int { value },
                Repr::Bool { value } => Value::Bool { value },
                Repr::Bv { width, value } => Value::Bv { width, value },
                Repr::Str { value } => Value::Str { value },
                Repr::Array { default, entries } => Value::Array { default, entries },
                Repr::Float(t) => float(FloatKind::F32, t)?,
                Repr::Double(t) => float(FloatKind::F64, t)?,
            })
        }
    }
}

mod bigint_string {
    use num_bigint::BigInt;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &BigInt, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BigInt, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Bit-vector values as strings. (A bare u128 also fails to read back: serde buffers
/// internally tagged enums in a form without 128-bit integers.)
mod bv_string {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Number(u64),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let text = match Raw::deserialize(d)? {
            Raw::Number(n) => return Ok(u128::from(n)),
            Raw::Text(t) => t,
        };
        let parsed = if let Some(hex) = text.strip_prefix("#x") {
            u128::from_str_radix(hex, 16)
        } else if let Some(bin) = text.strip_prefix("#b") {
            u128::from_str_radix(bin, 2)
        } else {
            text.parse()
        };
        parsed.map_err(|e| serde::de::Error::custom(format!("bit-vector value `{text}`: {e}")))
    }
}

mod entries_list {
    use super::Value;
    use num_bigint::BigInt;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    #[derive(Serialize, Deserialize)]
    struct Entry {
        index: String,
        value: Value,
    }

    pub fn serialize<S: Serializer>(m: &BTreeMap<BigInt, Value>, s: S) -> Result<S::Ok, S::Error> {
        let list: Vec<Entry> =
            m.iter().map(|(k, v)| Entry { index: k.to_string(), value: v.clone() }).collect();
        list.serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<BigInt, Value>, D::Error> {
        let list = Vec::<Entry>::deserialize(d)?;
        list.into_iter()
            .map(|e| Ok((e.index.parse().map_err(serde::de::Error::custom)?, e.value)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_vectors_round_trip_through_json_as_strings() {
        let v = Value::bv(u128::MAX, 128);
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["value"], u128::MAX.to_string());
        assert_eq!(serde_json::from_value::<Value>(json).unwrap(), v);
        for old in
            [r#"{"type":"bv","width":4,"value":8}"#, r##"{"type":"bv","width":4,"value":"#x8"}"##]
        {
            assert_eq!(serde_json::from_str::<Value>(old).unwrap(), Value::bv(8, 4), "{old}");
        }
    }

    #[test]
    fn floats_print_exactly_and_round_trip_through_json() {
        assert_eq!(Value::f64(0.1).to_string(), "0.1 (0x1.999999999999ap-4)");
        assert_eq!(Value::f32(-2.5).to_string(), "-2.5f (-0x1.4p+1f)");
        assert_eq!(Value::f64(f64::NAN).to_string(), "nan");
        assert_eq!(Value::f32(f32::NEG_INFINITY).to_string(), "-inff");
        let json = serde_json::to_value(Value::f64(0.1)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"type": "double", "value": "0.1", "hex": "0x1.999999999999ap-4"})
        );
        for v in [
            Value::f64(-0.0),
            Value::f64(f64::from_bits(1)),
            Value::f32(f32::from_bits(1)),
            Value::f32(f32::NAN),
            Value::f64(f64::INFINITY),
            Value::f32(3.4e38),
        ] {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), v, "{json}");
        }
        // NaNs of any sign or payload are the one NaN.
        assert_eq!(Value::f64(-f64::NAN), Value::f64(f64::NAN));
    }
}
