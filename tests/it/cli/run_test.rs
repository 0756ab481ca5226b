//! `forex run` and `forex test` end to end: output, messages and exit codes.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn forex() -> Command {
    let mut c = Command::cargo_bin("forex").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn run_prints_the_final_state() {
    forex()
        .args(["run", "examples/loop_leak.fe", "--set", "h=3", "--set", "l=2"])
        .assert()
        .code(0)
        .stdout("h = 3\nl = 2\no = 5\ni = 3\n");
}

#[test]
fn run_takes_choices_in_order() {
    forex()
        .args(["run", "examples/gni_leak.fe", "--set", "h=5", "--choices", "1"])
        .assert()
        .code(0)
        .stdout(contains("o = 6\nr = 1\n"));
}

#[test]
fn run_reports_stopped_runs_with_exit_2() {
    forex()
        .args(["run", "examples/gni_leak.fe", "--choices", "7"])
        .assert()
        .code(2)
        .stderr(contains("blocked: the assume at 7:3 is false"));
    forex()
        .args(["run", "examples/loop_leak.fe", "--set", "h=100", "--max-steps", "5"])
        .assert()
        .code(2)
        .stderr(contains("did not terminate within 5 steps"));
}

#[test]
fn run_input_errors_exit_3_with_clear_messages() {
    let cases: [(&[&str], &str); 6] = [
        (&["--program", "nope"], "no program named nope (the file has: biased)"),
        (&["--set", "q=1"], "program biased has no variable q (it has: h, l, o, r)"),
        (&["--set", "h=true"], "h has type int, but true does not"),
        (&["--set", "h=#b1x"], "bad value '#b1x'"),
        (&["--choices", "true"], "choice true at 6:3 does not have type int"),
        (&[], "needs more nondeterministic choices than the 0 given"),
    ];
    for (args, message) in cases {
        forex()
            .args(["run", "examples/gni_leak.fe"])
            .args(args)
            .assert()
            .code(3)
            .stdout("")
            .stderr(contains(message));
    }
    forex()
        .args(["run", "examples/refines_bad.fe"])
        .assert()
        .code(3)
        .stderr(contains("several programs; choose one with --program (impl, spec)"));
    forex()
        .args(["run", "examples/no_such_file.fe"])
        .assert()
        .code(3)
        .stderr(contains("no_such_file.fe"));
}

fn test_json(file: &str, seed: &str) -> serde_json::Value {
    let out = forex()
        .args(["test", file, "--budget-ms", "3000", "--format", "json", "--seed", seed])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn test_finds_violations_and_replays_them() {
    let report = test_json("examples/gni_leak.fe", "3");
    let result = &report["results"][0];
    assert_eq!(result["verdict"], "violated");
    assert_eq!(result["engine"], "test");
    assert_eq!(result["counterexample"]["copies"][2]["quantifier"], "exists");
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("cex.json");
    std::fs::write(&saved, report.to_string()).unwrap();
    forex()
        .args(["run", "examples/gni_leak.fe", "--replay", saved.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(contains("confirmed: the counterexample shows that gni is violated"));
    // A bare counterexample works too; a tampered one is not confirmed.
    let mut cex = result["counterexample"].clone();
    cex["copies"][0]["final_state"]["o"]["value"] = "123456789".into();
    std::fs::write(&saved, cex.to_string()).unwrap();
    forex()
        .args(["run", "examples/gni_leak.fe", "--replay", saved.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(contains("not confirmed"));
}

#[test]
fn test_same_seed_same_counterexample() {
    let a = test_json("examples/ni_leak.fe", "9");
    let b = test_json("examples/ni_leak.fe", "9");
    assert_eq!(a["results"][0]["verdict"], "violated");
    assert_eq!(a["results"][0]["counterexample"], b["results"][0]["counterexample"]);
}

#[test]
fn test_never_verifies() {
    forex()
        .args(["test", "examples/ni.fe", "--budget-ms", "300", "--strategy", "fuzz"])
        .assert()
        .code(2)
        .stdout(contains("no violation found in").and(contains("hypercoverage")))
        .stdout(contains("unknown: ni"))
        .stdout(predicates::str::is_match("(?m)^verified").unwrap().not());
}

#[test]
fn test_bad_input_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.fe");
    std::fs::write(&bad, "program p { int x; x = ; }").unwrap();
    forex().args(["test", bad.to_str().unwrap()]).assert().code(3);
}

#[test]
fn test_max_runs_bounds_the_search() {
    forex()
        .args(["test", "examples/ni.fe", "--max-runs", "25", "--budget-ms", "60000", "--seed", "1"])
        .assert()
        .code(2)
        .stdout(contains("no violation found in 25 runs, hypercoverage"));
}

/// Every `forex test` result, violated or not, carries its hypercoverage as data.
#[test]
fn test_results_carry_hypercoverage_as_json() {
    for (file, verdict) in [
        ("examples/ni_leak.fe", "violated"),
        ("examples/gni.fe", "unknown"),
        ("examples/reactive_gni_leak.fe", "violated"),
    ] {
        let out = assert_cmd::Command::cargo_bin("forex")
            .unwrap()
            .args(["test", "--format", "json", "--max-runs", "200", file])
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let r = &report["results"][0];
        assert_eq!(r["verdict"], verdict, "{file}: {r}");
        let goals = r["hypercoverage"]["goals"].as_u64().expect("goals");
        let hit = r["hypercoverage"]["hit"].as_u64().expect("hit");
        assert!(goals > 0 && hit <= goals, "{file}: {r}");
    }
}
