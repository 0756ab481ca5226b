//! `forex report merge`: several JSON reports (shards of one batch) → one report with
//! one summary. Results are kept as they are (any extra fields survive) and sorted by
//! file and tuple, so the merge does not depend on the order of its inputs; the summary
//! is recounted from the verdicts and its time is the sum of the inputs' times.

use super::Counts;
use super::ResultKind;
use serde_json::{json, Value};

/// Merges the JSON texts `reports` (named by `names` in error messages).
pub fn merge_json(reports: &[(String, String)]) -> Result<Value, String> {
    let mut results = Vec::new();
    let mut time_ms = 0.0;
    for (name, text) in reports {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("{name}: not a JSON report: {e}"))?;
        let Some(rs) = v["results"].as_array() else {
            return Err(format!("{name}: no `results` array: not a forex JSON report"));
        };
        results.extend(rs.iter().cloned());
        time_ms += v["summary"]["time_ms"].as_f64().unwrap_or(0.0);
    }
    let key = |r: &Value| {
        (
            r["file"].as_str().unwrap_or("").to_string(),
            r["tuple"].as_str().unwrap_or("").to_string(),
        )
    };
    results.sort_by_key(key);
    let mut counts = Counts::default();
    for r in &results {
        counts.add(
            r["verdict"].as_str().and_then(ResultKind::from_name).unwrap_or(ResultKind::Error),
        );
    }
    let mut summary = serde_json::to_value(counts).map_err(|e| e.to_string())?;
    summary["time_ms"] = json!((time_ms * 1e3).round() / 1e3);
    Ok(json!({ "results": results, "summary": summary }))
}

/// The exit code of a merged report: the largest over its verdicts (LANGUAGE.md).
pub fn exit_code(merged: &Value) -> i32 {
    let code = |r: &Value| match r["verdict"].as_str() {
        Some("verified") => 0,
        Some("violated") => 1,
        Some("unknown") => 2,
        _ => 3,
    };
    merged["results"].as_array().map_or(0, |rs| rs.iter().map(code).max().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_results_and_recounts() {
        let a = r#"{"results":[{"file":"b.fe","tuple":"t","verdict":"violated"}],"summary":{"time_ms":2.5}}"#;
        let b = r#"{"results":[{"file":"a.fe","tuple":"u","verdict":"verified"}],"summary":{"time_ms":1.0}}"#;
        let m = merge_json(&[("a".into(), a.into()), ("b".into(), b.into())]).unwrap();
        assert_eq!(m["results"][0]["file"], "a.fe");
        assert_eq!(m["summary"]["verified"], 1);
        assert_eq!(m["summary"]["violated"], 1);
        assert_eq!(m["summary"]["time_ms"], 3.5);
        assert_eq!(exit_code(&m), 1);
        assert!(merge_json(&[("x".into(), "[]".into())]).unwrap_err().contains("x: no `results`"));
    }
}
