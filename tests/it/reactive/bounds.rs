//! Observation bounds (issue 11): `--observations N` on the command line, the exhaustive
//! bounded search that proves a tuple, and hyena0's `(observations (min A))`.

use assert_cmd::Command;
use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::portfolio::{decide, DecideOptions, EngineChoice};
use forex::verdict::Verdict;
use std::io::Write;

fn refute(src: &str, format: InputFormat) -> Verdict {
    let m = load_source("t", src.as_bytes(), format)
        .unwrap_or_else(|d| panic!("does not check: {:?}", d.messages));
    let opts = DecideOptions { engine: EngineChoice::Refute, ..DecideOptions::default() };
    decide(&m.tuples[0], &opts, &Cancel::new()).verdict
}

/// `y` counts observations; the spec allows at most 3 before it stops observing.
const COUNT_UP: &str = "
program up { int y; y = 0; repeat { observe; y = y + 1; } }
program three {
  int y, k;
  y = 0; k = 0;
  while (k < 3) { observe; y = y + 1; k = k + 1; }
}
tuple upto3 {
  forall a: up;
  exists c: three;
  always a.y == c.y;
  observations 6;
}";

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".fe").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

#[test]
fn observations_flag_overrides_the_tuple_bound_for_prove_and_test() {
    let f = file(COUNT_UP);
    // With the tuple's bound (6) the violation at observation 4 is found …
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "-q", "--engine", "refute", "--format", "json"])
        .arg(f.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // … and not with a bound of 3, which the flag sets for `prove` and for `test`.
    for cmd in [&["prove", "-q", "--engine", "refute"][..], &["test", "--max-runs", "20"][..]] {
        let out = Command::cargo_bin("forex")
            .unwrap()
            .args(cmd)
            .args(["--observations", "3", "--format", "json"])
            .arg(f.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let reason = json["results"][0]["reason"].as_str().unwrap().to_string();
        assert!(reason.contains("up to 3 observations"), "{cmd:?}: {reason}");
    }
}

#[test]
fn observations_flag_rejects_zero() {
    let f = file(COUNT_UP);
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--observations", "0"])
        .arg(f.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "a usage error is an input error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--observations") && err.contains("at least 1"), "{err}");
}

#[test]
fn exhaustive_bounded_search_is_a_proof_with_its_bound() {
    // The ∀ copy observes at most twice; both prefixes have an ∃ witness.
    let src = "
program two { int y; y = *; observe; y = y + 1; observe; }
program any { int y; repeat { y = *; observe; } }
tuple covered {
  forall a: two;
  exists c: any;
  always a.y == c.y;
  observations 5;
}";
    let Verdict::Verified { proof } = refute(src, InputFormat::Fe) else {
        panic!("expected verified")
    };
    assert_eq!(proof.observation_bound, Some(2));
    // Within a bound below the ∀ copy's length the search is not exhaustive.
    let src = src.replace("observations 5;", "observations 1;");
    assert!(matches!(refute(&src, InputFormat::Fe), Verdict::Unknown { .. }));
}

#[test]
fn no_proof_when_an_exists_copy_may_loop_silently() {
    // `c` may loop forever before observing: its runs past the unrolling bound could
    // still be witnesses, so the search is not exhaustive and nothing is proved.
    let src = "
program one { int y; y = *; observe; }
program spin { int y, z; z = *; while (z > 0) { z = *; } y = *; observe; }
tuple spins {
  forall a: one;
  exists c: spin;
  always a.y == c.y;
  observations 3;
}";
    assert!(matches!(refute(src, InputFormat::Fe), Verdict::Unknown { .. }));
}

#[test]
fn hyena_min_only_strategy_lifts_the_previous_maximum() {
    // A decrement at the 3rd observation; `(max 2)` hides it, `(min 3)` alone does not.
    let src = "
(define-program a (let x int 0) (let i int 0)
  (repeat (observe) (if (/= i 1) (then (set x (+ x 1))) (else (set x (- x 1)))) (set i (+ i 1))))
(define-program b (let x int 0) (repeat (observe) (let t int (nondet (min 0))) (set x (+ x t))))
(strategy (observations (max 2)))
(find-counterexample (forall (traces a) (exists (traces b) (= (trace-value a x) (trace-value b x)))))
(strategy (observations (min 3)))
(find-counterexample (forall (traces a) (exists (traces b) (= (trace-value a x) (trace-value b x)))))
";
    let m = load_source("depth", src.as_bytes(), InputFormat::Hyena)
        .unwrap_or_else(|d| panic!("does not read: {:?}", d.messages));
    assert_eq!(m.tuples[0].observations, Some(2));
    assert_eq!(m.tuples[1].observations, None);
    let opts = DecideOptions { engine: EngineChoice::Refute, ..DecideOptions::default() };
    let cancel = Cancel::new();
    let Verdict::Violated { counterexample } = decide(&m.tuples[1], &opts, &cancel).verdict else {
        panic!("expected violated")
    };
    assert_eq!(counterexample.observations.unwrap().failing_index, 3);
}

#[test]
fn exists_witness_as_a_function_of_the_forall_values_is_found() {
    // c must pick b = (a.x - 1) / 2 or b = a.x / 2 for every a.x: one point per round
    // never covers the integers; the ∃∀ query is decided as linear arithmetic.
    let src = "
program two_steps { int x, a; x = 0; a = *; observe; x = x + a; observe; }
program halves {
  int y, b;
  y = 0; b = *;
  observe;
  if (*) { y = y + 2 * b + 1; } else { y = y + 2 * b; }
  observe;
}
tuple tracks {
  forall a: two_steps;
  exists c: halves;
  always a.x == c.y;
  observations 4;
}";
    let Verdict::Verified { proof } = refute(src, InputFormat::Fe) else {
        panic!("expected verified")
    };
    assert_eq!(proof.observation_bound, Some(2));
}
