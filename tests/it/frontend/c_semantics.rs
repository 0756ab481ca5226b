//! The C front end's semantics judged by `forex run` on tests/inputs/c/semantics.c
//! (truncating division, wrapping, conversions, shadowing, early returns in loops,
//! short-circuit guards of division) and features.c (a local header, macros, `switch`
//! with fall-through, enums, `sizeof`, typedefs, casts, the comma operator, `goto`), and
//! the sample files' verdicts. Every test skips with a note when no C compiler (the
//! preprocessor) is installed.

use crate::common::have_cc;
use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The functions of features.c.
const FEATURES: &[&str] = &[
    "fallthrough",
    "enums",
    "sizes",
    "narrow",
    "comma",
    "jumps",
    "square",
    "find",
    "cases_in_loop",
];

/// The input holding `function` (bitwise operators need the machine model: their own file).
fn input(function: &str) -> PathBuf {
    let file = if function == "shifts" {
        "machine.c"
    } else if FEATURES.contains(&function) {
        "features.c"
    } else {
        "semantics.c"
    };
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c").join(file)
}

/// Runs `function` with `args` under `model`: `Some(ret)`, or `None` when the run has no
/// end (a false `assume`, exit code 2).
fn run(model: &str, function: &str, args: &[(&str, i64)]) -> Option<i64> {
    let mut c = Command::cargo_bin("forex").unwrap();
    c.args(["--int-model", model, "run"]).arg(input(function)).args(["-p", function]);
    for (name, v) in args {
        let value = if model == "machine" { format!("#x{:08x}", *v as u32) } else { v.to_string() };
        c.args(["--set", &format!("{name}={value}")]);
    }
    let out = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    match out.status.code() {
        Some(2) => return None,
        Some(0) => {}
        other => {
            panic!("{function}: exit {other:?}\n{stdout}{}", String::from_utf8_lossy(&out.stderr))
        }
    }
    let line = stdout.lines().find(|l| l.starts_with("ret = ")).expect("ret printed");
    let v = &line["ret = ".len()..];
    Some(match v.strip_prefix("#x") {
        Some(hex) => i64::from(u32::from_str_radix(hex, 16).unwrap() as i32),
        None => v.parse().unwrap(),
    })
}

#[test]
fn division_truncates_toward_zero_in_both_models() {
    if !have_cc("division_truncates_toward_zero_in_both_models") {
        return;
    }
    for model in ["math", "machine"] {
        assert_eq!(run(model, "divmod", &[("x", -7), ("y", 2)]), Some(-31), "{model}");
        assert_eq!(run(model, "divmod", &[("x", 7), ("y", -2)]), Some(-29), "{model}");
        assert_eq!(run(model, "divmod", &[("x", -8), ("y", -3)]), Some(18), "{model}");
        assert_eq!(
            run(model, "divmod", &[("x", 5), ("y", 0)]),
            None,
            "{model}: division by zero has no run"
        );
    }
    assert_eq!(run("machine", "divmod", &[("x", i32::MIN as i64), ("y", -1)]), None);
}

#[test]
fn machine_integers_wrap_and_convert() {
    if !have_cc("machine_integers_wrap_and_convert") {
        return;
    }
    assert_eq!(run("machine", "wrap", &[("x", i32::MAX as i64)]), Some(i32::MIN as i64));
    assert_eq!(run("math", "wrap", &[("x", 5)]), Some(6));
    assert_eq!(run("machine", "conversions", &[("x", -1)]), Some(7));
    assert_eq!(run("math", "conversions", &[("x", -1)]), Some(2));
    assert_eq!(run("machine", "shifts", &[("x", -16)]), Some(23));
}

#[test]
fn block_scoping_loops_and_early_exits() {
    if !have_cc("block_scoping_loops_and_early_exits") {
        return;
    }
    for model in ["math", "machine"] {
        assert_eq!(run(model, "shadow", &[("x", 1)]), Some(9), "{model}");
        assert_eq!(run(model, "early", &[("n", 3)]), Some(4), "{model}");
        assert_eq!(run(model, "early", &[("n", -5)]), Some(-1), "{model}");
        assert_eq!(run(model, "loops", &[("n", 3)]), Some(403), "{model}");
        assert_eq!(run(model, "loops", &[("n", 0)]), Some(400), "{model}");
        assert_eq!(run(model, "arrays", &[("k", 5)]), Some(145), "{model}");
    }
}

#[test]
fn short_circuit_and_conditional_guard_division() {
    if !have_cc("short_circuit_and_conditional_guard_division") {
        return;
    }
    for model in ["math", "machine"] {
        assert_eq!(run(model, "guarded", &[("x", 7), ("y", 0)]), Some(11), "{model}");
        assert_eq!(run(model, "guarded", &[("x", 7), ("y", 2)]), Some(100), "{model}");
    }
}

#[test]
fn switch_falls_through_and_default_may_come_anywhere() {
    if !have_cc("switch_falls_through_and_default_may_come_anywhere") {
        return;
    }
    for model in ["math", "machine"] {
        assert_eq!(run(model, "fallthrough", &[("x", 0)]), Some(11), "{model}");
        assert_eq!(run(model, "fallthrough", &[("x", 1)]), Some(10), "{model}");
        assert_eq!(run(model, "fallthrough", &[("x", 5)]), Some(1000), "{model}");
        assert_eq!(run(model, "fallthrough", &[("x", 7)]), Some(1100), "{model}");
        // `continue` in a `switch` goes to the loop, `break` leaves the `switch`.
        assert_eq!(run(model, "cases_in_loop", &[("n", 6)]), Some(422), "{model}");
        assert_eq!(run(model, "cases_in_loop", &[("n", 0)]), Some(0), "{model}");
    }
}

#[test]
fn enums_sizeof_typedefs_casts_and_macros() {
    if !have_cc("enums_sizeof_typedefs_casts_and_macros") {
        return;
    }
    for model in ["math", "machine"] {
        assert_eq!(run(model, "enums", &[("x", 1)]), Some(507), "{model}");
        assert_eq!(run(model, "square", &[("x", 3)]), Some(116), "{model}");
        assert_eq!(run(model, "comma", &[("x", 3)]), Some(12), "{model}");
    }
    // LP64 sizes: int[10], long, int, a struct { char; long; }.
    assert_eq!(run("math", "sizes", &[("x", 0)]), Some(16_040_840));
    assert_eq!(run("machine", "narrow", &[("x", -1)]), Some(255));
    assert_eq!(run("machine", "narrow", &[("x", i32::MAX as i64)]), Some(256));
}

#[test]
fn forward_gotos_skip_to_their_label() {
    if !have_cc("forward_gotos_skip_to_their_label") {
        return;
    }
    for model in ["math", "machine"] {
        assert_eq!(run(model, "jumps", &[("x", 3)]), Some(10), "{model}");
        assert_eq!(run(model, "jumps", &[("x", -3)]), Some(-10), "{model}");
        // Out of a loop.
        assert_eq!(run(model, "find", &[("n", 5)]), Some(5), "{model}");
        assert_eq!(run(model, "find", &[("n", 0)]), Some(0), "{model}");
        assert_eq!(run(model, "find", &[("n", 200)]), Some(-1), "{model}");
    }
}

fn sample(name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/c").join(name);
    if !p.is_file() {
        eprintln!("NOTICE: {} is absent; skipping", p.display());
        return None;
    }
    Some(p)
}

fn verdicts(path: &Path) -> Vec<String> {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--timeout", "60", "--format", "json"])
        .arg(path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn samples_decide_as_their_first_line_says() {
    if !have_cc("samples_decide_as_their_first_line_says") {
        return;
    }
    if let Some(p) = sample("pin_check.c") {
        assert_eq!(verdicts(&p), ["violated", "verified"]);
    }
    if let Some(p) = sample("pad_gni.c") {
        assert_eq!(verdicts(&p), ["verified"]);
    }
    // Loops run 1:2 (a counter stepped by 2 stays even) under a quantified axiom.
    if let Some(p) = sample("double_loop_refines.c") {
        assert_eq!(verdicts(&p), ["verified"]);
    }
}

/// The prover first drops `pre`'s quantified conjuncts (examples/c/unrolled_scan.c does
/// not need its axiom); where the proof needs the axiom, the second attempt has it, and
/// without the axiom the tuple is violated.
#[test]
fn quantified_assumptions_are_kept_when_the_proof_needs_them() {
    if !have_cc("quantified_assumptions_are_kept_when_the_proof_needs_them") {
        return;
    }
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c/unrolled_scan.c");
    let text = std::fs::read_to_string(example).unwrap();
    let needs_axiom = text.replace(" * post: ", " * post: scan_unrolled.total >= 0 && ");
    assert_ne!(needs_axiom, text);
    let dir = tempfile::tempdir().unwrap();
    let with = dir.path().join("with_axiom.c");
    std::fs::write(&with, &needs_axiom).unwrap();
    assert_eq!(verdicts(&with), ["verified"]);
    let without = dir.path().join("without_axiom.c");
    let dropped = needs_axiom.replace("(forall r: int :: weigh(r) >= 0)", "true");
    std::fs::write(&without, dropped).unwrap();
    assert_eq!(verdicts(&without), ["violated"]);
}

#[test]
fn batch_picks_up_c_files_and_warns_on_a_file_without_tuples() {
    if !have_cc("batch_picks_up_c_files_and_warns_on_a_file_without_tuples") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("none.c"), "int f(int x) { return x; }\n").unwrap();
    std::fs::write(
        dir.path().join("det.c"),
        "/*@forex tuple det = deterministic(f, in: [x], out: [ret]); */\nint f(int x) { return x * 2; }\n",
    )
    .unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{json}");
    assert_eq!(results[0]["tuple"], "det");
    assert_eq!(results[0]["verdict"], "verified");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("none.c: no tuple to prove"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A C counterexample speaks C: decimal values, only the variables the source names
/// (no `$return`, no inlined callee's `f::x`), the violated conjunct without the
/// lowering's conversions, and a note on the integer model; JSON has the C types.
#[test]
fn counterexamples_speak_c() {
    if !have_cc("counterexamples_speak_c") {
        return;
    }
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c/pin_early_exit.c");
    let out = Command::cargo_bin("forex").unwrap().arg("prove").arg(&example).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("violated conjunct: a.cost[0] == b.cost[0]"), "{text}");
    assert!(!text.contains("#x") && !text.contains('$') && !text.contains("::"), "{text}");
    assert!(text.contains("note: ") && text.contains("signed overflow wraps as with gcc -fwrapv"));
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--format", "json"])
        .arg(&example)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let types = &json["results"][0]["counterexample"]["c_types"]["a"];
    assert_eq!(types["i"], "int");
    assert_eq!(types["cost"], "int[]");
    assert_eq!(types["ret"], "_Bool");
    assert!(json["notes"][0].as_str().unwrap().contains("--int-model machine"));
}

/// Every report format and the editor speak C too: no bit-vector literals, no `$`
/// variables of the lowering, no inlined callees' `f::x`.
#[test]
fn every_report_format_speaks_c() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c/pin_early_exit.c");
    for format in ["github", "sarif", "junit"] {
        let out = Command::cargo_bin("forex")
            .unwrap()
            .args(["prove", "--format", format])
            .arg(&example)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: {text}");
        assert!(text.contains("cost"), "{format}: {text}");
        assert!(!text.contains("#x") && !text.contains("$return"), "{format}: {text}");
        assert!(!text.contains("::x") && !text.contains("$t"), "{format}: {text}");
    }
}
