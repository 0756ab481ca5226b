//! Comparators (issue 33 item 4): antisymmetry over 2 copies and transitivity over 3 of
//! C comparators whose loops `return` early, count then compare, or compare arrays of
//! different lengths (`tests/inputs/c/comparators/`). Each tuple listed here was
//! `unknown` before `prove::exits` (lockstep of early-return loops split where it stops,
//! the postcondition on the copies that returned, equalities of the permuted copies).
//! The `bad_` twins (a non-antisymmetric tie-break, `<=` for `<`, a one-sided fold, an
//! off-by-one count) must be violated, and the prover alone must never verify them.

use crate::common::{have_cc, tuple_result};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c/comparators")
}

/// `forex prove` on the comparators with `engine` and `model`, only `tuples`.
fn report(engine: &str, model: &str, timeout: &str, tuples: &[&str]) -> serde_json::Value {
    let mut cmd = assert_cmd::Command::cargo_bin("forex").unwrap();
    cmd.args(["prove", "--format", "json", "--timeout", timeout]).args([
        "--engine",
        engine,
        "--int-model",
        model,
    ]);
    for t in tuples {
        cmd.args(["--tuple", t]);
    }
    let out = cmd.arg(dir()).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Decided by the prover in the math model (both properties of each shape).
const MATH: &[&str] = &[
    "ok_lex_anti",
    "ok_lex_trans",
    "ok_len_anti",
    "ok_len_trans",
    "ok_while_anti",
    "ok_while_trans",
    "ok_word_anti",
    "ok_word_trans",
    "ok_count_anti",
    "ok_count_trans",
];

/// Decided by the prover in the machine model.
const MACHINE: &[&str] =
    &["ok_lex_anti", "ok_len_anti", "ok_while_anti", "ok_word_anti", "ok_count_anti"];

const BAD: &[&str] =
    &["bad_tie_anti", "bad_le_anti", "bad_skew_anti", "bad_countge_anti", "bad_nocase_trans"];

fn assert_verified(model: &str, tuples: &[&str]) {
    let json = report("prove", model, "60", tuples);
    for t in tuples {
        let r = tuple_result(&json, t);
        assert_eq!(r["verdict"], "verified", "{t} ({model}): {r}");
    }
}

fn assert_bad(model: &str) {
    let json = report("all", model, "60", BAD);
    for t in BAD {
        let r = tuple_result(&json, t);
        assert_eq!(r["verdict"], "violated", "{t} ({model}): {r}");
    }
    // The prover alone: any answer but a proof.
    let json = report("prove", model, "10", BAD);
    for t in BAD {
        let r = tuple_result(&json, t);
        assert_ne!(r["verdict"], "verified", "{t} ({model}): {r}");
    }
}

#[test]
fn early_return_comparators_are_proved_in_the_math_model() {
    if !have_cc("early_return_comparators_are_proved_in_the_math_model") {
        return;
    }
    assert_verified("math", MATH);
}

#[test]
fn early_return_comparators_are_proved_in_the_machine_model() {
    if !have_cc("early_return_comparators_are_proved_in_the_machine_model") {
        return;
    }
    assert_verified("machine", MACHINE);
}

#[test]
fn broken_comparators_stay_violated_in_both_models() {
    if !have_cc("broken_comparators_stay_violated_in_both_models") {
        return;
    }
    assert_bad("math");
    assert_bad("machine");
}
