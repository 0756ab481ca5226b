//! `forex prove --engine`: the three-engine portfolio (prover, refuter, hypertester),
//! which engine decided, and the combined reasons when none did.

use assert_cmd::Command;
use serde_json::Value;

fn input(name: &str) -> String {
    format!("{}/tests/inputs/portfolio/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The exit code and the one result of `forex prove [--engine E] --format json FILE`.
fn prove(engine: Option<&str>, file: &str) -> (Option<i32>, Value) {
    prove_with(engine, &[], file)
}

fn prove_with(engine: Option<&str>, extra: &[&str], file: &str) -> (Option<i32>, Value) {
    let mut cmd = Command::cargo_bin("forex").expect("binary");
    cmd.args(["prove", "--quiet", "--format", "json"]).args(extra);
    if let Some(e) = engine {
        cmd.args(["--engine", e]);
    }
    let out = cmd.arg(file).output().expect("runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    (out.status.code(), report["results"][0].clone())
}

#[test]
fn the_portfolio_decides_what_the_prover_leaves_unknown() {
    // Issue 12's first failure: `forex prove` said unknown where `forex test` found the
    // violation at once. The prover alone still cannot decide it; the default portfolio
    // does (the hypertester, or the deepening refuter, whichever is first under load), and
    // the hypertester alone does too.
    let file = input("eleven.fe");
    let (code, r) = prove(Some("prove"), &file);
    assert_eq!((code, r["verdict"].as_str()), (Some(2), Some("unknown")), "{r}");
    for engine in [None, Some("all")] {
        let (code, r) = prove(engine, &file);
        assert_eq!((code, r["verdict"].as_str()), (Some(1), Some("violated")), "{r}");
        let by = r["engine"].as_str().unwrap();
        assert!(by == "test" || by == "refute", "{r}");
    }
    let (code, r) = prove(Some("test"), &file);
    assert_eq!((code, r["engine"].as_str()), (Some(1), Some("test")), "{r}");
}

#[test]
fn both_is_still_prover_and_refuter() {
    // `both` runs no hypertester: its reasons name the prover and the refuter only. (The
    // refuter's bound keeps the run short: unbounded, it deepens for ~20 s.)
    let (code, r) = prove_with(Some("both"), &["--unroll", "32"], &input("squares.fe"));
    assert_eq!(code, Some(2), "{r}");
    assert_eq!(r["reason_kind"], "combined");
    let reason = r["reason"].as_str().unwrap();
    assert!(reason.starts_with("prover: ") && reason.contains("; refuter: "), "{reason}");
    assert!(!reason.contains("tester"), "{reason}");
    let (code, r) = prove(Some("both"), &input("eleven.fe"));
    assert_eq!((code, r["engine"].as_str()), (Some(1), Some("refute")), "{r}");
    let (code, r) = prove(Some("both"), &example("refines_bad.fe"));
    assert_eq!((code, r["verdict"].as_str()), (Some(1), Some("violated")), "{r}");
    let (code, r) = prove(Some("both"), &example("gni.fe"));
    assert_eq!((code, r["verdict"].as_str()), (Some(0), Some("verified")), "{r}");
}

#[test]
fn the_test_engine_alone_never_verifies() {
    let (code, r) = prove(Some("test"), &example("gni.fe"));
    assert_eq!(code, Some(2), "{r}");
    assert_eq!(r["engine"], "test");
    assert_eq!(r["reason_kind"], "no_violation_found");
    let (code, r) = prove(Some("test"), &input("eleven.fe"));
    assert_eq!((code, r["engine"].as_str()), (Some(1), Some("test")), "{r}");
}

#[test]
fn when_no_engine_decides_every_reason_is_kept() {
    let (code, r) = prove_with(None, &["--unroll", "32"], &input("squares.fe"));
    assert_eq!(code, Some(2), "{r}");
    assert_eq!(r["reason_kind"], "combined");
    let reason = r["reason"].as_str().unwrap();
    let prover = reason.find("prover: no invariant").expect(reason);
    let refuter = reason.find("; refuter: no counterexample").expect(reason);
    let tester = reason.find("; tester: no violation found in").expect(reason);
    assert!(prover < refuter && refuter < tester, "{reason}");
    assert!(reason.contains("hypercoverage"), "{reason}");
}

#[test]
fn an_unknown_engine_is_refused_with_the_choices() {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--engine", "fast", &example("gni.fe")])
        .output()
        .unwrap();
    // Usage errors exit 3, like every input error.
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("possible values: prove, refute, test, all"), "{err}");
    assert!(!err.contains("both"), "the alias stays hidden: {err}");
}
