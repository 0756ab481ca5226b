//! Short texts for places with one message per tuple: CI annotations, SARIF results,
//! editor diagnostics.

use super::cterms::{shown_choices, shown_vars, ShownVar};
use super::{Status, TupleResult};
use crate::verdict::{Counterexample, Verdict};

/// One line per copy: its initial state (and final state for ∀ copies, choices if any),
/// then why the tuple fails.
pub fn counterexample_summary(cex: &Counterexample) -> String {
    let mut lines = Vec::new();
    for run in &cex.copies {
        let q = if run.quantifier == crate::ir::Quantifier::Exists { "∃" } else { "∀" };
        let vars = shown_vars(cex, run);
        let state = |pick: &dyn Fn(&ShownVar) -> Option<&String>| {
            let parts: Vec<String> =
                vars.iter().filter_map(|v| Some(format!("{}={}", v.name, pick(v)?))).collect();
            parts.join(" ")
        };
        let mut line = format!("{q} {}: {}", run.copy, state(&|v| v.initial.as_ref()));
        if run.final_state.is_some() {
            line.push_str(&format!(" → {}", state(&|v| v.final_value.as_ref())));
        }
        if !run.choices.is_empty() {
            line.push_str(&format!(" (choices {})", shown_choices(cex, run).join(", ")));
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
