//! CI reports end to end: `--format sarif` (validated structurally, and by Microsoft's
//! SARIF validator when `npx` can install it) and `--format github` annotations.

use assert_cmd::Command;
use forex::report::sarif::Log;

fn forex() -> Command {
    Command::cargo_bin("forex").unwrap()
}

/// One violated and one verified tuple.
const FILES: [&str; 2] = ["examples/ni_leak.fe", "examples/ni.fe"];

fn sarif_text() -> String {
    let out = forex()
        .args(["prove", "--format", "sarif", "--timeout", "30"])
        .args(FILES)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn sarif_has_one_result_per_violated_tuple_at_its_location() {
    let log: Log = serde_json::from_str(&sarif_text()).expect("SARIF deserialises");
    assert_eq!(log.version, "2.1.0");
    assert_eq!(log.runs.len(), 1);
    let results = &log.runs[0].results;
    assert_eq!(results.len(), 1, "only the violated tuple: {results:?}");
    let r = &results[0];
    assert_eq!((r.rule_id.as_str(), r.level.as_str()), ("violated", "error"));
    let at = &r.locations[0].physical_location;
    assert_eq!(at.artifact_location.uri, "examples/ni_leak.fe");
    let region = at.region.as_ref().expect("a region");
    assert!(region.start_line > 1, "the tuple's line, after the program");
    assert!(r.message.text.contains("is violated"), "{}", r.message.text);
}

#[test]
fn sarif_passes_the_microsoft_validator() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forex.sarif");
    std::fs::write(&path, sarif_text()).unwrap();
    let run = std::process::Command::new("npx")
        .args(["-y", "@microsoft/sarif-multitool", "validate"])
        .arg(&path)
        .output();
    let out = match run {
        Ok(out) if out.status.success() => out,
        other => {
            println!("note: skipped: npx or @microsoft/sarif-multitool is unavailable ({other:?})");
            return;
        }
    };
    // The validator exits 0 even on errors: read what it prints.
    let text = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = text.lines().filter(|l| l.contains(": error ")).collect();
    assert!(errors.is_empty(), "validator errors:\n{text}");
}

#[test]
fn github_format_prints_workflow_annotations() {
    let out = forex()
        .args(["prove", "--format", "github", "--timeout", "30"])
        .args(FILES)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("::error file=examples/ni_leak.fe,line="), "{text}");
    assert!(lines[0].contains(",title=forex%3A "), "{text}");
    assert!(lines[0].contains("::tuple `"), "{text}");
    assert_eq!(lines[1], "forex: 1 verified, 1 violated, 0 unknown, 0 error");
}
