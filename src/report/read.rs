//! Reading reports back: the counterexample a `forex prove --format json` report (or a
//! bare counterexample file) holds, for `forex run --replay`.

use crate::verdict::Counterexample;
use serde_json::Value;
use std::path::Path;

/// Reads a bare counterexample, or a `forex prove --format json` report and the one
/// counterexample in it for `file` (of tuple `tuple`, when given). Also returns the
/// report's tuple name.
///
/// The report's results for `file` are those whose `file` names the same file; a report
/// that names `file` nowhere (written from another folder) is taken whole. Several
/// counterexamples left without `tuple` is an error that lists their tuples.
pub fn read_counterexample(
    text: &str,
    tuple: Option<&str>,
    file: &Path,
) -> Result<(Counterexample, Option<String>), String> {
    let json: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if json.get("copies").is_some() {
        let cex = serde_json::from_value(json).map_err(|e| format!("bad counterexample: {e}"))?;
        return Ok((cex, None));
    }
    let results = json
        .get("results")
        .and_then(|r| r.as_array())
        .ok_or("expected a counterexample (with \"copies\") or a report (with \"results\")")?;
    let tuple_of = |r: &Value| r.get("tuple").and_then(|n| n.as_str()).map(String::from);
    let violated: Vec<&Value> =
        results.iter().filter(|r| r.get("counterexample").is_some_and(|c| !c.is_null())).collect();
    let of_file: Vec<&Value> = violated
        .iter()
        .copied()
        .filter(|r| r.get("file").and_then(|f| f.as_str()).is_some_and(|f| same_file(f, file)))
        .collect();
    let mut candidates = if of_file.is_empty() { violated } else { of_file };
    if let Some(t) = tuple {
        candidates.retain(|r| tuple_of(r).as_deref() == Some(t));
    }
    let hit = match (candidates.as_slice(), tuple) {
        ([], Some(t)) => return Err(format!("the report has no counterexample for tuple {t}")),
        ([], None) => return Err("the report has no violated result with a counterexample".into()),
        ([one], _) | ([one, ..], Some(_)) => *one,
        (several, None) => {
            let names: Vec<String> =
                several.iter().map(|r| tuple_of(r).unwrap_or_else(|| "?".into())).collect();
            return Err(format!(
                "the report holds counterexamples of {} tuples ({}); choose one with --tuple",
                names.len(),
                names.join(", ")
            ));
        }
    };
    let cex = serde_json::from_value(hit["counterexample"].clone())
        .map_err(|e| format!("bad counterexample: {e}"))?;
    Ok((cex, tuple_of(hit)))
}

/// Whether the report's `named` file is `file`: the same text, or the same file on disk.
fn same_file(named: &str, file: &Path) -> bool {
    if Path::new(named) == file || (named == "<stdin>" && file == Path::new("-")) {
        return true;
    }
    match (Path::new(named).canonicalize(), file.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn loads_bare_counterexample_and_reports() {
        let cex = r#"{"copies":[{"copy":"a","program":"p","quantifier":"forall",
            "initial":{"x":{"type":"int","value":"3"}},"choices":[]}],"explanation":"e"}"#;
        let x = Path::new("x.fe");
        let (c, t) = read_counterexample(cex, None, x).unwrap();
        assert_eq!(c.copies[0].initial["x"], Value::int(3));
        assert_eq!(t, None);
        let report = format!(
            r#"{{"results":[{{"file":"x.fe","tuple":"ok","verdict":"verified","counterexample":null}},
                {{"file":"x.fe","tuple":"bad","verdict":"violated","counterexample":{cex}}}],"summary":{{}}}}"#
        );
        let (_, t) = read_counterexample(&report, None, x).unwrap();
        assert_eq!(t.as_deref(), Some("bad"));
        assert!(read_counterexample(&report, Some("ok"), x).unwrap_err().contains("tuple ok"));
        assert!(read_counterexample("[]", None, x)
            .unwrap_err()
            .contains("expected a counterexample"));
    }

    #[test]
    fn picks_the_one_counterexample_of_the_file_and_lists_several() {
        let cex = r#"{"copies":[],"explanation":"e"}"#;
        let entry = |file: &str, tuple: &str| {
            format!(
                r#"{{"file":"{file}","tuple":"{tuple}","verdict":"violated","counterexample":{cex}}}"#
            )
        };
        let report = format!(
            r#"{{"results":[{},{},{}]}}"#,
            entry("a.fe", "t1"),
            entry("b.fe", "t2"),
            entry("b.fe", "t3")
        );
        let (_, t) = read_counterexample(&report, None, Path::new("a.fe")).unwrap();
        assert_eq!(t.as_deref(), Some("t1"), "the only counterexample of a.fe");
        let err = read_counterexample(&report, None, Path::new("b.fe")).unwrap_err();
        assert!(err.contains("2 tuples (t2, t3); choose one with --tuple"), "{err}");
        let (_, t) = read_counterexample(&report, Some("t3"), Path::new("b.fe")).unwrap();
        assert_eq!(t.as_deref(), Some("t3"));
        // A file the report does not name: every counterexample is a candidate.
        let err = read_counterexample(&report, None, Path::new("c.fe")).unwrap_err();
        assert!(err.contains("3 tuples (t1, t2, t3)"), "{err}");
    }
}
