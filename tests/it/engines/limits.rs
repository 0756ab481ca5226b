//! Limits and the SMT session, end to end through the CLI: branch-heavy loop-free
//! programs are decided (no exponential blow-up), tiny time limits end branch- and
//! array-heavy runs with `unknown` naming the timeout, and `--dump-smt` covers every
//! engine that asks Z3. No wall-clock assertions beyond generous bounds on the reported
//! `time_ms` of runs that must stop at a limit.

use assert_cmd::Command;
use serde_json::Value;

fn prove_json(args: &[&str]) -> Value {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .arg("prove")
        .args(["--format", "json", "--jobs", "1"])
        .args(args)
        .output()
        .expect("forex runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn only_result(report: &Value) -> &Value {
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{report}");
    &results[0]
}

#[test]
fn sequential_branches_are_decided() {
    for file in ["tests/inputs/limits/ifs20.fe", "tests/inputs/limits/ifs40.fe"] {
        let report = prove_json(&["--timeout", "60", file]);
        assert_eq!(only_result(&report)["verdict"], "verified", "{file}: {report}");
    }
}

#[test]
fn a_tiny_timeout_ends_an_array_heavy_refutation_with_a_timeout_reason() {
    let report =
        prove_json(&["--engine", "refute", "--timeout", "1", "tests/inputs/limits/sort8_array.fe"]);
    let r = only_result(&report);
    assert_eq!(r["verdict"], "unknown", "{report}");
    let reason = r["reason"].as_str().expect("reason");
    assert!(reason.contains("timeout"), "{reason}");
    // Generous: the limit is 1 s; before the session layer such runs took minutes.
    assert!(r["time_ms"].as_f64().expect("time_ms") < 30_000.0, "{report}");
}

#[test]
fn a_tiny_timeout_ends_a_branch_heavy_portfolio_run() {
    let report = prove_json(&["--timeout", "1", "tests/inputs/limits/sort8.fe"]);
    let r = only_result(&report);
    // Either decided at once or stopped at the limit; never hanging past it.
    let verdict = r["verdict"].as_str().unwrap();
    assert!(verdict == "verified" || verdict == "unknown", "{report}");
    if verdict == "unknown" {
        assert!(r["reason"].as_str().unwrap().contains("timeout"), "{report}");
    }
    assert!(r["time_ms"].as_f64().expect("time_ms") < 30_000.0, "{report}");
}

fn dumped(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}

/// The tester solves `pre` for inputs with Z3: `forex test --dump-smt` writes those
/// queries, each a complete SMT-LIB file.
#[test]
fn dump_smt_covers_the_tester() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("q");
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["test", "--format", "json", "--max-runs", "20", "--dump-smt"])
        .arg(&dump)
        .arg("examples/gni.fe")
        .output()
        .expect("forex runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(only_result(&report)["verdict"], "unknown", "{report}");
    let names = dumped(&dump);
    assert!(names.iter().any(|n| n.starts_with("gni_test_")), "{names:?}");
    let text = std::fs::read_to_string(dump.join(&names[0])).unwrap();
    assert!(text.contains("(check-sat)"), "{text}");
}

/// The refuter's verdict on `file` and the names of the query files it dumped.
fn refuter_dump(file: &str) -> (Value, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("q");
    let report = prove_json(&["--engine", "refute", "--dump-smt", dump.to_str().unwrap(), file]);
    let verdict = only_result(&report)["verdict"].clone();
    (verdict, dumped(&dump))
}

#[test]
fn dump_smt_covers_the_refuter() {
    let (verdict, names) = refuter_dump("examples/ni_leak.fe");
    assert_eq!(verdict, "violated");
    assert!(names.iter().any(|n| n.contains("_refute_") && n.ends_with(".smt2")), "{names:?}");
}

/// The reactive refuter's queries (prefix queries, replay) are dumped like the
/// sequential refuter's.
#[test]
fn dump_smt_covers_the_reactive_refuter() {
    let (verdict, names) = refuter_dump("examples/reactive_gni_leak.fe");
    assert_eq!(verdict, "violated");
    assert!(names.iter().any(|n| n.starts_with("gni_refute_")), "{names:?}");
}

/// `forex prove` on the memory-hungry `div64.fe`, with `setup` applied to the command:
/// exit code, verdict and reason.
fn under_memory_limit(setup: impl FnOnce(&mut std::process::Command)) -> (Option<i32>, Value) {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("forex"));
    cmd.args(["prove", "--format", "json", "--timeout", "30", "tests/inputs/limits/div64.fe"]);
    setup(&mut cmd);
    let out = cmd.output().expect("forex runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}; status {:?}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

fn assert_memory_out(code: Option<i32>, report: &Value) {
    // A signal (a crash, an abort) has no exit code.
    assert_eq!(code, Some(2), "{report}");
    let r = only_result(report);
    assert_eq!(r["verdict"], "unknown", "{report}");
    let reason = r["reason"].as_str().expect("a reason");
    assert!(reason.contains("Z3 ran out of memory"), "{reason}");
}

/// Z3's own ceiling (`FOREX_Z3_MEMORY_MB`): reaching it is `unknown` with the reason,
/// for every engine running at the time, never a crash.
#[test]
fn a_small_memory_ceiling_ends_in_unknown_not_a_crash() {
    let (code, report) = under_memory_limit(|cmd| {
        cmd.env("FOREX_Z3_MEMORY_MB", "100");
    });
    assert_memory_out(code, &report);
}

/// An address-space limit (`ulimit -v`, 1 GB) below what Z3 would use: the default
/// ceiling is derived from it, so Z3 stops before an allocation fails (Z3 4.8.12 crashed
/// with a segmentation fault when its allocations failed first).
#[cfg(unix)]
#[test]
fn an_address_space_limit_ends_in_unknown_not_a_crash() {
    use std::os::unix::process::CommandExt;
    let (code, report) = under_memory_limit(|cmd| {
        // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: 1 << 30, rlim_max: 1 << 30 };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    });
    assert_memory_out(code, &report);
}
