//! A counterexample's values as every report shows them: for a copy of a C function only
//! the variables its source names (no `$return`, no inlined callees' `f::x`), in C's
//! notation (decimal, negative for signed types; arrays element-wise); other copies as
//! forex writes values. Shared by the human table, JUnit, SARIF, GitHub annotations and
//! the editor, so that they all speak the same language.

use crate::value::Value;
use crate::verdict::{CopyRun, Counterexample};
use std::collections::{BTreeMap, BTreeSet};

/// One variable of a copy's run, as shown.
pub(crate) struct ShownVar {
    pub name: String,
    pub initial: Option<String>,
    pub final_value: Option<String>,
}

/// The variables of `run` a report shows, in name order, with their values.
pub(crate) fn shown_vars(cex: &Counterexample, run: &CopyRun) -> Vec<ShownVar> {
    let mut names: BTreeSet<&String> = run.initial.keys().collect();
    if let Some(f) = &run.final_state {
        names.extend(f.keys());
    }
    let c_types = cex.c_types.as_ref().and_then(|c| c.get(&run.copy));
    if let Some(types) = c_types {
        names.retain(|n| types.contains_key(*n));
    }
    names
        .into_iter()
        .map(|name| {
            let c_type = c_types.and_then(|t| t.get(name));
            let show = |m: Option<&BTreeMap<String, Value>>| {
                m.and_then(|m| m.get(name)).map(|v| match c_type {
                    Some(ty) => c_value(v, ty),
                    None => v.to_string(),
                })
            };
            ShownVar {
                name: name.clone(),
                initial: show(Some(&run.initial)),
                final_value: show(run.final_state.as_ref()),
            }
        })
        .collect()
}

/// The nondeterministic choices of `run`: in a C copy as C values (the choices of
/// `__VERIFIER_nondet_*` and library results are signed unless they are wider than
/// `long`), else as forex writes them.
pub(crate) fn shown_choices(cex: &Counterexample, run: &CopyRun) -> Vec<String> {
    let c = cex.c_types.as_ref().is_some_and(|c| c.contains_key(&run.copy));
    run.choices.iter().map(|v| if c { c_scalar(v, true) } else { v.to_string() }).collect()
}

/// `v` as C prints a value of type `c_type` (`int`, `unsigned char[]`, `int(int)`):
/// bit-vectors in decimal, negative for signed types; arrays and tables element-wise.
pub(crate) fn c_value(v: &Value, c_type: &str) -> String {
    let signed = crate::ir::c::CScalar::from_c_name(c_type).is_none_or(|s| s.is_signed());
    c_scalar(v, signed)
}

fn c_scalar(v: &Value, signed: bool) -> String {
    match v {
        Value::Bv { width, value } => {
            let w = *width;
            if signed && w > 0 && w <= 128 && (value >> (w - 1)) & 1 == 1 {
                let magnitude = (!value).wrapping_add(1) & crate::value::bv_mask(w);
                format!("-{magnitude}")
            } else {
                value.to_string()
            }
        }
        Value::Array { default, entries } => {
            let mut parts: Vec<String> =
                entries.iter().map(|(k, e)| format!("{k}: {}", c_scalar(e, signed))).collect();
            parts.push(format!("_: {}", c_scalar(default, signed)));
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_values_in_decimal_by_signedness() {
        let minus_one = Value::Bv { width: 32, value: 0xFFFF_FFFF };
        assert_eq!(c_value(&minus_one, "int"), "-1");
        assert_eq!(c_value(&minus_one, "unsigned int"), "4294967295");
        let arr = Value::Array {
            default: Box::new(Value::Bv { width: 8, value: 0x80 }),
            entries: [(2.into(), Value::Bv { width: 8, value: 5 })].into_iter().collect(),
        };
        assert_eq!(c_value(&arr, "char[]"), "[2: 5, _: -128]");
        assert_eq!(c_value(&arr, "unsigned char(int)"), "[2: 5, _: 128]");
    }
}
