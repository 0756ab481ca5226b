//! Front-end diagnostics and verdicts as LSP diagnostics.

use super::position::LineMap;
use crate::diag::Diagnostics;
use crate::report::oneline::counterexample_summary;
use crate::verdict::{Outcome, Verdict};
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Url,
};

/// The front end's errors, each at its span; the hint is appended to the message.
pub fn from_front_end(uri: &Url, text: &str, diags: &Diagnostics) -> Vec<Diagnostic> {
    let map = LineMap::new(text);
    diags
        .items
        .iter()
        .map(|d| {
            let mut message = d.message.clone();
            if let Some(hint) = &d.hint {
                message.push_str("\nhelp: ");
                message.push_str(hint);
            }
            let related: Vec<DiagnosticRelatedInformation> = d
                .related
                .iter()
                .map(|(span, label)| DiagnosticRelatedInformation {
                    location: Location { uri: uri.clone(), range: map.range(span) },
                    message: label.clone(),
                })
                .collect();
            Diagnostic {
                range: map.range(&d.span),
                severity: Some(DiagnosticSeverity::ERROR),
                code: Some(NumberOrString::String(d.code.map_or("input", |c| c.as_str()).into())),
                source: Some("forex".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..Diagnostic::default()
            }
        })
        .collect()
}

/// A tuple's verdict at `range` (its name): information for verified, error for
/// violated (with the counterexample), warning for unknown (with the reason) and for a
/// vacuous proof (with the vacuity warnings).
pub fn from_outcome(range: lsp_types::Range, tuple: &str, outcome: &Outcome) -> Diagnostic {
    let time = crate::report::millis(outcome.time) / 1000.0;
    let (severity, code, message) = match &outcome.verdict {
        Verdict::Verified { proof } if !proof.warnings.is_empty() => {
            let why: Vec<String> =
                proof.warnings.iter().map(|w| format!("[{}] {}", w.code, w.message)).collect();
            let why = why.join("\n");
            let message = format!("⚠ `{tuple}` verified vacuously in {time:.2}s\n{why}");
            (DiagnosticSeverity::WARNING, "vacuous", message)
        }
        Verdict::Verified { .. } => (
            DiagnosticSeverity::INFORMATION,
            "verified",
            format!("✓ `{tuple}` verified in {time:.2}s"),
        ),
        Verdict::Violated { counterexample } => (
            DiagnosticSeverity::ERROR,
            "violated",
            format!("✗ `{tuple}` violated\n{}", counterexample_summary(counterexample)),
        ),
        Verdict::Unknown { reason } => {
            (DiagnosticSeverity::WARNING, "unknown", format!("? `{tuple}` unknown: {reason}"))
        }
    };
    Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(code.into())),
        source: Some("forex".into()),
        message,
        ..Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Engine, Proof, Stats, Warning};

    fn verified(warnings: Vec<Warning>) -> Outcome {
        Outcome {
            verdict: Verdict::Verified { proof: Proof { warnings, ..Proof::default() } },
            engine: Engine::Prove,
            time: std::time::Duration::from_millis(20),
            stats: Stats::default(),
        }
    }

    #[test]
    fn a_vacuous_proof_is_a_warning_with_its_reason() {
        let range = lsp_types::Range::default();
        let plain = from_outcome(range, "t", &verified(Vec::new()));
        assert_eq!(plain.severity, Some(DiagnosticSeverity::INFORMATION));
        let w = Warning { code: "W0101".into(), message: "no run reaches the end".into() };
        let vacuous = from_outcome(range, "t", &verified(vec![w]));
        assert_eq!(vacuous.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(vacuous.code, Some(NumberOrString::String("vacuous".into())));
        assert!(vacuous.message.contains("[W0101] no run reaches the end"), "{}", vacuous.message);
    }
}
