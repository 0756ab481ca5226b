//! C floats (LANGUAGE.md "Floating point", "The standard library") judged by
//! `forex prove` on tests/inputs/c/floats.c: each tuple's name says whether its pair is
//! equal (`eq_`) or not (`ne_`). A pair is never decided the wrong way; the pairs the
//! floats' abstraction proves, or the tester refutes, are decided (those that need the
//! exact bit-precise encoding may run out of time on a busy machine: unknown is allowed
//! there, never the wrong verdict). Diagnostics for what C forbids on floats and for
//! `long double`. Every test skips with a note when no C compiler is installed.

use crate::common::have_cc;
use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn input(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c").join(name)
}

/// Tuples that must be decided (abstraction proofs, tester counterexamples).
const DECIDED: &[&str] = &[
    "ne_assoc",
    "eq_commute",
    "eq_half",
    "eq_twice",
    "eq_rtrip",
    "ne_dtrip",
    "ne_fabs",
    "eq_fabs",
    "eq_nan",
    "ne_cmp",
    "eq_trunc",
    "eq_lib",
    "ne_lib",
    "eq_lit",
    "eq_abs",
    "eq_exit",
    "eq_rand",
];

#[test]
fn float_pairs_are_decided_correctly() {
    if !have_cc("float_pairs_are_decided_correctly") {
        return;
    }
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--timeout", "20", "--format", "json"])
        .arg(input("floats.c"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let json: serde_json::Value = serde_json::from_str(&text).expect("a JSON report");
    let results = json["results"].as_array().expect("results");
    assert_eq!(results.len(), 19, "{text}");
    for r in results {
        let name = r["tuple"].as_str().unwrap_or_default();
        let verdict = r["verdict"].as_str().unwrap_or_default();
        let expected = if name.starts_with("eq_") { "verified" } else { "violated" };
        let wrong = if expected == "verified" { "violated" } else { "verified" };
        assert_ne!(verdict, wrong, "{name}: {text}");
        if DECIDED.contains(&name) {
            assert_eq!(verdict, expected, "{name}: {text}");
        }
    }
    // One warning for the file, naming its uninterpreted library functions.
    let notes: Vec<&str> =
        json["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
    let warnings: Vec<&&str> = notes.iter().filter(|n| n.contains("uninterpreted")).collect();
    assert_eq!(warnings.len(), 1, "{notes:?}");
    assert!(warnings[0].ends_with(": cos, sin"), "{notes:?}");
}

#[test]
fn counterexamples_print_floats_in_decimal_and_hex() {
    if !have_cc("counterexamples_print_floats_in_decimal_and_hex") {
        return;
    }
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--timeout", "20", "--tuple", "ne_fabs"])
        .arg(input("floats.c"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(1), "{text}");
    // fabs(-0.0) is 0.0, -0.0 < 0 is false: x = -0.0 is the only witness.
    assert!(text.contains("-0.0 (-0x0p+0)"), "{text}");
}

#[test]
fn what_c_forbids_on_floats_is_a_diagnostic() {
    if !have_cc("what_c_forbids_on_floats_is_a_diagnostic") {
        return;
    }
    let out = Command::cargo_bin("forex")
        .unwrap()
        .arg("check")
        .arg(input("floats_bad.c"))
        .output()
        .unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(3), "{text}");
    for (at, msg) in [
        ("floats_bad.c:1:19:", "`long double` is not supported"),
        ("floats_bad.c:2:41:", "`%` needs integer operands, not `double`"),
        ("floats_bad.c:3:29:", "`~` needs an integer operand"),
    ] {
        assert!(text.lines().any(|l| l.contains(at) && l.contains(msg)), "{at} {msg}: {text}");
    }
}
