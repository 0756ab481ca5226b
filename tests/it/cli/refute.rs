//! A counterexample a person can replay: `forex prove --engine refute --format json`
//! reports it, `forex run --replay` confirms it, and a tampered copy is rejected.

use assert_cmd::Command;
use serde_json::Value;

fn forex() -> Command {
    Command::cargo_bin("forex").expect("binary")
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn refute_json(file: &str) -> Value {
    let out = forex()
        .args(["prove", "--engine", "refute", "--format", "json", "--quiet", file])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "violated exits 1: {out:?}");
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

#[test]
fn reported_counterexample_replays_from_the_command_line() {
    let file = example("gni_leak.fe");
    let report = refute_json(&file);
    let result = &report["results"][0];
    assert_eq!(result["verdict"], "violated");
    assert_eq!(result["engine"], "refute");
    let cex = &result["counterexample"];
    assert_eq!(cex["violated_conjunct"], "a.o == c.o");
    assert!(cex["explanation"].as_str().unwrap().contains("no terminating run"));
    let copies = cex["copies"].as_array().unwrap();
    assert_eq!(copies.len(), 3);
    assert!(copies[0]["final_state"].is_object());
    assert!(copies[2]["final_state"].is_null(), "∃ copies have no final state");

    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("cex.json");
    std::fs::write(&saved, serde_json::to_vec(&report).unwrap()).unwrap();
    let out = forex().args(["run", &file, "--replay"]).arg(&saved).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "confirmed counterexample exits 1: {text}");
    assert!(text.contains("confirmed"), "{text}");

    // Claim a different final output for copy a: the replay must not confirm it.
    let mut tampered = report.clone();
    tampered["results"][0]["counterexample"]["copies"][0]["final_state"]["o"]["value"] =
        Value::String("12345".into());
    std::fs::write(&saved, serde_json::to_vec(&tampered).unwrap()).unwrap();
    let out = forex().args(["run", &file, "--replay"]).arg(&saved).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn k_safety_counterexample_names_the_failing_conjunct() {
    let report = refute_json(&example("ni_leak.fe"));
    let cex = &report["results"][0]["counterexample"];
    assert!(cex["violated_conjunct"].as_str().unwrap().contains("=="), "{cex}");
    assert!(cex["explanation"].as_str().unwrap().contains("violate post"));
}
