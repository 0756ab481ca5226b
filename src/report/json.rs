//! The machine-readable report (LANGUAGE.md, "Machine-readable report"). Every result has
//! all keys; those that do not apply to its verdict are `null`, so consumers need no
//! existence checks.

use super::{millis, Counts, Report, TupleResult};
use crate::verdict::{Counterexample, Engine, Proof, Stats, Verdict, Warning};
use serde::Serialize;

#[derive(Serialize)]
struct JsonReport<'a> {
    results: Vec<JsonResult<'a>>,
    summary: Summary,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

#[derive(Serialize)]
struct Summary {
    #[serde(flatten)]
    counts: Counts,
    time_ms: f64,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    file: &'a str,
    /// `null` for a file that failed to load as a whole.
    tuple: Option<&'a str>,
    verdict: &'static str,
    engine: Option<Engine>,
    time_ms: Option<f64>,
    reason: Option<String>,
    /// The reason's stable machine name (`timeout`, `no_invariant`, …; `input_error`).
    reason_kind: Option<&'static str>,
    counterexample: Option<&'a Counterexample>,
    proof: Option<JsonProof<'a>>,
    /// The outcome the input file expects (`counterexample`, `no-counterexample`), or
    /// `null` when it says nothing (hyena0 files say it).
    expected: Option<crate::ir::ExpectedOutcome>,
    /// Warnings about a verdict that stands (`code`, `message`): a vacuous proof.
    warnings: &'a [Warning],
    /// The tester's hypercoverage (`goals`, `hit`) when the tester ran, else `null`.
    hypercoverage: Option<crate::verdict::Hypercoverage>,
    /// `--cross-check`: obligations the second solver answered unsat, of how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<CrossCheck>,
}

/// A tuple's certificate re-checked by a second solver (`prove --cross-check`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CrossCheck {
    /// Obligations the second solver answered `unsat`.
    pub checked: usize,
    /// Obligations in the certificate.
    pub total: usize,
    /// The second solver's command.
    pub solver: String,
    /// `certified`, `partly certified`, `REFUTED` or `does not check`.
    pub status: String,
}

/// The proof with the work counters next to it ("invariants, counters").
#[derive(Serialize)]
struct JsonProof<'a> {
    #[serde(flatten)]
    proof: &'a Proof,
    stats: &'a Stats,
}

fn result(r: &TupleResult) -> JsonResult<'_> {
    let outcome = r.outcome();
    let (counterexample, proof) = match outcome.map(|o| &o.verdict) {
        Some(Verdict::Violated { counterexample }) => (Some(counterexample), None),
        Some(Verdict::Verified { proof }) => {
            (None, Some(JsonProof { proof, stats: &outcome.unwrap().stats }))
        }
        _ => (None, None),
    };
    JsonResult {
        file: &r.file,
        tuple: r.tuple.as_deref(),
        verdict: r.verdict_name(),
        engine: r.engine(),
        time_ms: r.time().map(millis),
        reason: r.reason(),
        reason_kind: r.reason_kind(),
        counterexample,
        proof,
        expected: r.expected,
        warnings: r.warnings(),
        hypercoverage: outcome.and_then(|o| o.stats.hypercoverage),
        certificate: None,
    }
}

/// [`render_json`] with each result's `--cross-check` outcome (`checks` in result order).
pub fn render_json_checked(report: &Report, checks: &[Option<CrossCheck>]) -> String {
    let mut json = JsonReport {
        results: report.results.iter().map(result).collect(),
        summary: Summary { counts: report.counts(), time_ms: millis(report.time) },
        notes: &report.notes,
    };
    for (r, c) in json.results.iter_mut().zip(checks) {
        r.certificate = c.clone();
    }
    serde_json::to_string_pretty(&json).expect("report serialises") + "\n"
}

/// The whole report as one pretty-printed JSON object, with a trailing newline.
pub fn render_json(report: &Report) -> String {
    let json = JsonReport {
        results: report.results.iter().map(result).collect(),
        summary: Summary { counts: report.counts(), time_ms: millis(report.time) },
        notes: &report.notes,
    };
    let mut s = serde_json::to_string_pretty(&json).expect("report values serialize");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;
    use serde_json::Value;

    #[test]
    fn fields_per_verdict() {
        let v: Value = serde_json::from_str(&render_json(&sample())).unwrap();
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 4);
        let verdicts: Vec<_> = results.iter().map(|r| r["verdict"].as_str().unwrap()).collect();
        assert_eq!(verdicts, ["verified", "violated", "unknown", "error"]);

        let ok = &results[0];
        assert_eq!(ok["file"], "x.fe");
        assert_eq!(ok["tuple"], "ok");
        assert_eq!(ok["engine"], "prove");
        assert_eq!(ok["time_ms"], 12.0);
        assert!(ok["reason"].is_null() && ok["counterexample"].is_null());
        assert_eq!(ok["proof"]["obligations"], 9);
        assert_eq!(ok["proof"]["loop_points"][0]["invariant"], "a.i == c.i && a.o <= c.o");
        assert_eq!(ok["proof"]["loop_points"][0]["counts"], serde_json::json!([1, 2]));
        assert_eq!(ok["proof"]["stats"]["queries"], 7);

        let bad = &results[1];
        assert_eq!(bad["engine"], "refute");
        assert!(bad["proof"].is_null() && bad["reason"].is_null());
        let a = &bad["counterexample"]["copies"][0];
        assert_eq!(a["copy"], "a");
        assert_eq!(a["quantifier"], "forall");
        assert!(a["initial"]["h"].is_object());
        assert_eq!(a["choices"].as_array().unwrap().len(), 2);
        assert!(a["final_state"]["o"].is_object());
        assert_eq!(bad["counterexample"]["violated_conjunct"], "a.o == c.o");

        assert_eq!(results[2]["reason"], "timeout after 1 s (the time limit was reached)");
        assert_eq!(results[2]["reason_kind"], "timeout");
        assert!(results[2]["counterexample"].is_null() && results[2]["proof"].is_null());

        let err = &results[3];
        assert!(err["tuple"].is_null() && err["engine"].is_null() && err["time_ms"].is_null());
        assert!(err["reason"].as_str().unwrap().contains("unknown variable"));

        assert!(results.iter().all(|r| r["warnings"] == serde_json::json!([])));
        let s = &v["summary"];
        for k in ["verified", "violated", "unknown", "error"] {
            assert_eq!(s[k], 1, "{k}");
        }
        assert_eq!(s["time_ms"], 1042.0);
    }

    #[test]
    fn vacuity_warnings_are_listed_at_the_result() {
        let v: Value =
            serde_json::from_str(&render_json(&crate::report::tests::vacuous_sample())).unwrap();
        let ok = &v["results"][0];
        assert_eq!(ok["verdict"], "verified");
        assert_eq!(ok["warnings"][0]["code"], "W0100");
        assert_eq!(ok["warnings"][0]["message"], "`pre` is unsatisfiable <&>");
        assert!(ok["proof"].get("warnings").is_none(), "listed once, at the result");
    }
}
