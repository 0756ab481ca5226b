//! SARIF 2.1.0 (the format GitHub code scanning reads): one result per violated, unknown
//! or unloadable tuple, located at the tuple in its file. Verified tuples produce no
//! result. Only the properties forex fills are modelled.

use super::oneline::problem;
use super::{Report, Status, TupleResult};
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize, Deserialize, Debug)]
pub struct Log {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub version: String,
    pub runs: Vec<Run>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Run {
    pub tool: Tool,
    pub results: Vec<SarifResult>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: String,
    pub version: String,
    pub information_uri: String,
    pub rules: Vec<Rule>,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub id: String,
    pub short_description: Message,
    pub default_configuration: Configuration,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Configuration {
    pub level: String,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Message {
    pub text: String,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: String,
    pub rule_index: usize,
    pub level: String,
    pub message: Message,
    pub locations: Vec<Location>,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub physical_location: PhysicalLocation,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct ArtifactLocation {
    pub uri: String,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: u32,
    pub start_column: u32,
}

/// The rules, in `ruleIndex` order: (id, level, description).
const RULES: [(&str, &str, &str); 4] = [
    ("violated", "error", "The tuple is violated: a replayed counterexample exists."),
    ("unknown", "warning", "The tuple could be neither proven nor refuted."),
    ("input-error", "error", "The file could not be read, parsed or type-checked."),
    (
        "vacuous",
        "warning",
        "The tuple is verified, but vacuously: pre is unsatisfiable or no run of the ∀ copies \
         reaches the end.",
    ),
];
/// The index of the `vacuous` rule in [`RULES`].
const VACUOUS: usize = 3;

fn rule_index(r: &TupleResult) -> Option<usize> {
    match &r.status {
        Status::Done(o) => match o.verdict {
            Verdict::Verified { .. } => None,
            Verdict::Violated { .. } => Some(0),
            Verdict::Unknown { .. } => Some(1),
        },
        Status::Error { .. } => Some(2),
    }
}

/// A relative path with `/` separators is a relative URI reference (SARIF §3.10).
fn uri(file: &str) -> String {
    let path = file.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    path.replace('%', "%25").replace(' ', "%20")
}

/// One SARIF result of rule `index` at `r`'s tuple.
fn sarif_result(r: &TupleResult, index: usize, text: String) -> SarifResult {
    let (id, level, _) = RULES[index];
    let region = r.loc.map(|l| Region { start_line: l.line.max(1), start_column: l.col.max(1) });
    SarifResult {
        rule_id: id.into(),
        rule_index: index,
        level: level.into(),
        message: Message { text },
        locations: vec![Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri: uri(&r.file) },
                region,
            },
        }],
    }
}

pub fn sarif_log(report: &Report) -> Log {
    let results = report
        .results
        .iter()
        .flat_map(|r| {
            let problem = rule_index(r).and_then(|i| Some(sarif_result(r, i, problem(r)?)));
            let vacuous = r.warnings().iter().map(|w| {
                let text =
                    format!("{} verified vacuously [{}]: {}", r.display_name(), w.code, w.message);
                sarif_result(r, VACUOUS, text)
            });
            problem.into_iter().chain(vacuous).collect::<Vec<_>>()
        })
        .collect();
    let rules = RULES
        .iter()
        .map(|(id, level, text)| Rule {
            id: id.to_string(),
            short_description: Message { text: text.to_string() },
            default_configuration: Configuration { level: level.to_string() },
        })
        .collect();
    Log {
        schema: SCHEMA.into(),
        version: "2.1.0".into(),
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "forex".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    information_uri: "https://github.com/forex-verifier/forex".into(),
                    rules,
                },
            },
            results,
        }],
    }
}

pub fn render_sarif(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&sarif_log(report)).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_result_per_problem_with_location() {
        let report = crate::report::tests::sample();
        let text = render_sarif(&report);
        let log: Log = serde_json::from_str(&text).expect("SARIF parses back");
        assert_eq!(log.version, "2.1.0");
        let problems = report.results.iter().filter(|r| rule_index(r).is_some()).count();
        assert_eq!(log.runs[0].results.len(), problems);
        for r in &log.runs[0].results {
            assert_eq!(RULES[r.rule_index].0, r.rule_id);
            assert!(!r.locations[0].physical_location.artifact_location.uri.is_empty());
        }
    }

    #[test]
    fn a_vacuous_proof_is_a_warning_result() {
        let log = sarif_log(&crate::report::tests::vacuous_sample());
        let vacuous: Vec<_> =
            log.runs[0].results.iter().filter(|r| r.rule_id == "vacuous").collect();
        assert_eq!(vacuous.len(), 1);
        assert_eq!(vacuous[0].level, "warning");
        assert!(vacuous[0].message.text.contains("W0100"), "{}", vacuous[0].message.text);
        let region = vacuous[0].locations[0].physical_location.region.as_ref().unwrap();
        assert_eq!(region.start_line, 3);
    }
}
