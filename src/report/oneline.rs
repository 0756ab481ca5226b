//! Short texts for places with one message per tuple: CI annotations, SARIF results,
//! editor diagnostics.

use super::{Status, TupleResult};
use crate::value::Value;
use crate::verdict::{Counterexample, Verdict};
use std::collections::BTreeMap;

/// One line per copy: its initial state (and final state for ∀ copies, choices if any),
/// then why the tuple fails.
pub fn counterexample_summary(cex: &Counterexample) -> String {
    let state = |m: &BTreeMap<String, Value>| {
        m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    };
    let mut lines = Vec::new();
    for run in &cex.copies {
        let q = if run.quantifier == crate::ir::Quantifier::Exists { "∃" } else { "∀" };
        let mut line = format!("{q} {}: {}", run.copy, state(&run.initial));
        if let Some(f) = &run.final_state {
            line.push_str(&format!(" → {}", state(f)));
        }
        if !run.choices.is_empty() {
            let choices: Vec<String> = run.choices.iter().map(Value::to_string).collect();
            line.push_str(&format!(" (choices {})", choices.join(", ")));
        }
        lines.push(line);
    }
    if !cex.explanation.is_empty() {
        lines.push(format!("why: {}", cex.explanation));
    }
    lines.join("\n")
}

/// What went wrong with `r`, or `None` when it is verified.
pub fn problem(r: &TupleResult) -> Option<String> {
    let name = r.display_name();
    match &r.status {
        Status::Done(o) => match &o.verdict {
            Verdict::Verified { .. } => None,
            Verdict::Violated { counterexample } => Some(format!(
                "tuple `{name}` is violated\n{}",
                counterexample_summary(counterexample)
            )),
            Verdict::Unknown { reason } => Some(format!("tuple `{name}` is unknown: {reason}")),
        },
        Status::Error { reason } => Some(format!("input error: {reason}")),
    }
}
