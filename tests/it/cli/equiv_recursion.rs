//! `forex equiv` on recursive C functions (tests/inputs/recursion/old.c and new.c): pairs
//! proved by their mutual summaries (recursive calls read one table, paired by equal
//! arguments), non-equivalent twins violated or left unknown, and the reasons a pair has
//! no summary (mutual recursion, a call in a loop, recursion in one version only,
//! undefined behaviour, nondeterminism, `--refines`).

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn inputs() -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/recursion");
    let s = |f: &str| dir.join(f).to_str().unwrap().to_string();
    (s("old.c"), s("new.c"))
}

/// `forex equiv old.c new.c -f F…` with `extra` arguments, as JSON: the exit code and
/// the results by pair name.
fn equiv(functions: &[&str], timeout: &str, extra: &[&str]) -> (i32, Vec<Value>) {
    let (old, new) = inputs();
    let mut cmd = Command::cargo_bin("forex").expect("the forex binary");
    cmd.args(["equiv", &old, &new, "--format", "json", "--timeout", timeout]);
    for f in functions {
        cmd.args(["-f", f]);
    }
    let out = cmd.args(extra).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let results = json["results"].as_array().cloned().unwrap_or_default();
    (out.status.code().unwrap_or(-1), results)
}

fn result<'a>(results: &'a [Value], name: &str) -> &'a Value {
    results.iter().find(|r| r["tuple"] == name).unwrap_or_else(|| panic!("{name}: {results:?}"))
}

fn reason(results: &[Value], name: &str) -> String {
    result(results, name)["reason"].as_str().unwrap_or("").to_string()
}

#[test]
fn equivalent_recursive_functions_are_proved_by_their_mutual_summaries() {
    // Reordered sum, Fibonacci's two calls swapped and named, gcd by subtraction (two
    // arguments, tail calls), Ackermann (a nested call), McCarthy's 91 (f(f(n + 11))), and
    // a library function called by both (its table is shared too).
    let names = ["sum", "fib", "gcd", "ack", "mc91", "lib"];
    let (code, results) = equiv(&names, "20", &[]);
    for name in names {
        let r = result(&results, name);
        assert_eq!(r["verdict"], "verified", "{name}: {r}");
        assert_eq!(
            r["proof"]["summary"],
            format!("mutual summary of {name}: recursive calls paired by equal arguments"),
            "{name}"
        );
    }
    assert_eq!(code, 0);
}

#[test]
fn base_cases_one_call_apart_are_proved_with_old_unfolded_once() {
    // `n <= 1 ? …` against `n <= 0 ? 0 : …`: new's `off(1)` is no call of old's own, but
    // one of old's call `off(1)`'s, which the unfolded summary makes.
    let (code, results) = equiv(&["off"], "20", &[]);
    let r = result(&results, "off");
    assert_eq!(r["verdict"], "verified", "{r}");
    assert_eq!(
        r["proof"]["summary"],
        "mutual summary of off: recursive calls paired by equal arguments, old's calls \
         unfolded once"
    );
    assert_eq!(code, 0);
}

#[test]
fn explain_says_the_proof_is_a_mutual_summary() {
    let (old, new) = inputs();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["equiv", &old, &new, "-f", "sum", "--explain", "--timeout", "20"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("mutual summary of sum: recursive calls paired by equal arguments"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
}

#[test]
fn non_equivalent_recursive_twins_are_violated_by_the_unfolding() {
    // A changed base case, a changed second call, a nondeterministic old version (whose
    // summary is refused: the table would not be a function).
    let (code, results) = equiv(&["base", "fib3", "noisy"], "20", &[]);
    for name in ["base", "fib3", "noisy"] {
        assert_eq!(result(&results, name)["verdict"], "violated", "{name}: {results:?}");
    }
    assert_eq!(code, 1);
}

#[test]
fn a_call_that_only_partial_equivalence_accepts_is_not_verified() {
    // new's `0 * zero(n + 1)` never returns in the math model and returns 0 after
    // wrapping in the machine one: equal where both end, but its call `zero(n + 1)` is
    // no call of old's, so matching fails and the summary proves nothing.
    for model in ["machine", "math"] {
        let (_, results) = equiv(&["zero"], "4", &["--int-model", model]);
        let r = result(&results, "zero");
        assert_eq!(r["verdict"], "unknown", "{model}: {r}");
        let why = reason(&results, "zero");
        assert!(why.contains("mutual summary of zero is not proved"), "{model}: {why}");
    }
}

#[test]
fn pairs_without_a_summary_say_why() {
    let (_, results) = equiv(&["even", "count", "inloop", "checked", "noisy"], "3", &[]);
    let cases = [
        ("even", "no mutual summary of even: `even` is mutually recursive (even → odd → even): its calls stay unfolded"),
        ("count", "no mutual summary of count: `count` calls itself in one version only"),
        ("inloop", "no mutual summary of inloop: `inloop` calls itself inside a loop"),
        ("checked", "`checked` may have undefined behaviour (assertion failed at line"),
    ];
    for (name, want) in cases {
        assert_eq!(result(&results, name)["verdict"], "unknown", "{name}: {results:?}");
        assert!(reason(&results, name).contains(want), "{name}: {}", reason(&results, name));
    }
    assert_eq!(result(&results, "noisy")["verdict"], "violated");
}

#[test]
fn undefined_behaviour_assumed_away_lets_the_summary_prove_the_pair() {
    let (code, results) = equiv(&["checked"], "20", &["--no-ub"]);
    assert_eq!(result(&results, "checked")["verdict"], "verified", "{results:?}");
    assert_eq!(code, 0);
}

#[test]
fn refinement_and_chosen_inputs_are_not_summarised() {
    let (_, results) = equiv(&["sum"], "3", &["--refines"]);
    assert_ne!(result(&results, "sum")["verdict"], "verified", "{results:?}");
    assert!(reason(&results, "sum").contains("--refines, --in and --out pairs are not summarised"));
    let (_, results) = equiv(&["sum"], "3", &["--in", "n", "--out", "ret"]);
    assert!(reason(&results, "sum").contains("are not summarised"), "{results:?}");
}
