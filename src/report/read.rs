//! Reading reports back: the counterexample a `forex prove --format json` report (or a
//! bare counterexample file) holds, for `forex run --replay`.

use crate::verdict::Counterexample;

/// Reads a bare counterexample, or a `forex prove --format json` report from which the
/// first violated result (of tuple `tuple`, when given) is taken. Also returns the
/// report's tuple name.
pub fn read_counterexample(
    text: &str,
    tuple: Option<&str>,
) -> Result<(Counterexample, Option<String>), String> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if json.get("copies").is_some() {
        let cex = serde_json::from_value(json).map_err(|e| format!("bad counterexample: {e}"))?;
        return Ok((cex, None));
    }
    let results = json
        .get("results")
        .and_then(|r| r.as_array())
        .ok_or("expected a counterexample (with \"copies\") or a report (with \"results\")")?;
    let hit = results.iter().find(|r| {
        r.get("counterexample").is_some_and(|c| !c.is_null())
            && tuple.is_none_or(|t| r.get("tuple").and_then(|n| n.as_str()) == Some(t))
    });
    let Some(hit) = hit else {
        return Err(match tuple {
            Some(t) => format!("the report has no counterexample for tuple {t}"),
            None => "the report has no violated result with a counterexample".into(),
        });
    };
    let cex = serde_json::from_value(hit["counterexample"].clone())
        .map_err(|e| format!("bad counterexample: {e}"))?;
    Ok((cex, hit.get("tuple").and_then(|n| n.as_str()).map(String::from)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn loads_bare_counterexample_and_reports() {
        let cex = r#"{"copies":[{"copy":"a","program":"p","quantifier":"forall",
            "initial":{"x":{"type":"int","value":"3"}},"choices":[]}],"explanation":"e"}"#;
        let (c, t) = read_counterexample(cex, None).unwrap();
        assert_eq!(c.copies[0].initial["x"], Value::int(3));
        assert_eq!(t, None);
        let report = format!(
            r#"{{"results":[{{"tuple":"ok","verdict":"verified","counterexample":null}},
                {{"tuple":"bad","verdict":"violated","counterexample":{cex}}}],"summary":{{}}}}"#
        );
        let (_, t) = read_counterexample(&report, None).unwrap();
        assert_eq!(t.as_deref(), Some("bad"));
        assert!(read_counterexample(&report, Some("ok")).unwrap_err().contains("tuple ok"));
        assert!(read_counterexample("[]", None).unwrap_err().contains("expected a counterexample"));
    }
}
