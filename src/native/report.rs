//! `forex prove --native-check`: the native replay of every violated C tuple of a report,
//! shown after the human report and as a `native` field of the JSON results.

use super::{check_counterexample, NativeOptions, NativeOutcome};
use crate::frontend::{self, InputFormat};
use crate::report::{Report, Status};
use crate::verdict::Verdict;
use std::path::Path;

/// The native check of one violated tuple.
#[derive(Clone, Debug)]
pub struct NativeCheck {
    pub file: String,
    pub tuple: String,
    pub outcome: NativeOutcome,
}

/// Replays natively every violated tuple of `report` whose file is C (a module with C
/// facts). Files are read again from their paths (`-`, standard input, is skipped: it
/// was read already). Runs the user's code.
pub fn check_report(report: &Report, input: InputFormat, opts: &NativeOptions) -> Vec<NativeCheck> {
    let mut out = Vec::new();
    for r in &report.results {
        let (Status::Done(outcome), Some(tuple_name)) = (&r.status, &r.tuple) else { continue };
        let Verdict::Violated { counterexample } = &outcome.verdict else { continue };
        if r.file == frontend::STDIN_PATH {
            continue;
        }
        let path = Path::new(&r.file);
        let Ok(module) = frontend::load_file_with(path, input, &opts.front) else { continue };
        let Some(info) = &module.c else { continue };
        let Some(tuple) = module.tuples.iter().find(|t| &t.name == tuple_name) else { continue };
        let outcome = match std::fs::read_to_string(path) {
            Ok(source) => check_counterexample(&source, &r.file, info, tuple, counterexample, opts),
            Err(e) => NativeOutcome::Unsupported { reason: format!("cannot read {}: {e}", r.file) },
        };
        out.push(NativeCheck { file: r.file.clone(), tuple: tuple_name.clone(), outcome });
    }
    out
}

/// The checks as lines for the end of a human report (empty when there are none).
pub fn render_human(checks: &[NativeCheck]) -> String {
    let mut s = String::new();
    for c in checks {
        s.push_str(&format!("native check of {} {}: {}\n", c.file, c.tuple, c.outcome));
    }
    s
}

/// `json` (a `forex prove --format json` report) with each checked result's `native`
/// field set to its outcome; unchanged when there are no checks.
pub fn add_to_json(json: &str, checks: &[NativeCheck]) -> String {
    if checks.is_empty() {
        return json.to_string();
    }
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(json) else {
        return json.to_string();
    };
    if let Some(results) = v.get_mut("results").and_then(|r| r.as_array_mut()) {
        for r in results {
            let check = checks.iter().find(|c| {
                r["file"].as_str() == Some(c.file.as_str())
                    && r["tuple"].as_str() == Some(c.tuple.as_str())
            });
            if let (Some(c), Some(obj)) = (check, r.as_object_mut()) {
                let outcome = serde_json::to_value(&c.outcome).expect("outcomes serialize");
                obj.insert("native".into(), outcome);
            }
        }
    }
    let mut s = serde_json::to_string_pretty(&v).expect("JSON values serialize");
    s.push('\n');
    s
}
