//! `forex prove --native-check` and `forex run --replay … --native`: off the C path they
//! change nothing or say what they need; on a C file (with the C front end) the
//! counterexample agrees with the compiled code.

use assert_cmd::Command;
use serde_json::Value;

fn forex() -> Command {
    Command::cargo_bin("forex").expect("binary")
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn prove_json(args: &[&str], file: &str) -> (Option<i32>, Value) {
    let out = forex()
        .args(["prove", "--format", "json", "--quiet", "--jobs", "1"])
        .args(args)
        .arg(file)
        .output()
        .expect("runs");
    (out.status.code(), serde_json::from_slice(&out.stdout).expect("JSON report"))
}

#[test]
fn native_check_leaves_results_of_fe_files_alone() {
    let (code, report) =
        prove_json(&["--native-check", "--engine", "refute"], &example("ni_leak.fe"));
    assert_eq!(code, Some(1));
    assert_eq!(report["results"][0]["verdict"], "violated");
    assert!(report["results"][0].get("native").is_none(), "{report}");
    let out = forex()
        .args(["prove", "--native-check", "--engine", "refute", "--quiet"])
        .arg(example("ni_leak.fe"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("native check"));
}

#[test]
fn run_native_needs_a_c_file() {
    let file = example("gni_leak.fe");
    let (_, report) = prove_json(&["--engine", "refute"], &file);
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("cex.json");
    std::fs::write(&saved, serde_json::to_vec(&report).unwrap()).unwrap();
    let out = forex().args(["run", &file, "--native", "--replay"]).arg(&saved).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--native needs a C file"), "{err}");
}

#[test]
fn native_check_of_a_violated_c_tuple_agrees_with_the_compiler() {
    if forex::native::exec::find_compiler(None).is_err() {
        eprintln!("note: no C compiler found: native check test skipped");
        return;
    }
    let (code, report) = prove_json(&["--native-check"], &example("c/pin_early_exit.c"));
    assert_eq!(code, Some(1), "{report}");
    let result = &report["results"][0];
    assert_eq!(result["verdict"], "violated");
    assert_eq!(result["native"]["result"], "agrees", "{result}");
}
