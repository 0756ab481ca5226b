//! Soundness audit: hand-checked tuples outside the random generators' fragment
//! (Euclidean division, non-linear arithmetic, arrays, quantifiers, ∃-side assumes and
//! loops, several copies, wide bit-vectors, refuter bounds). Every `.fe` file under
//! `tests/inputs/soundness/` names its tuples `ok_*` (valid, argued in a comment) or
//! `bad_*` (invalid). No engine — prover, refuter, portfolio — may give the wrong
//! definitive verdict; `unknown` is always acceptable.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::hypertest::{hypertest, TestOptions};
use forex::portfolio::{decide, DecideOptions, EngineChoice};
use forex::verdict::Verdict;
use std::path::Path;
use std::time::Duration;

/// Short: `unknown` is acceptable, the limit only bounds the runtime.
const LIMIT: Duration = Duration::from_secs(3);
/// Hypertesting budget per tuple.
const TEST_BUDGET: Duration = Duration::from_millis(500);

fn check_file(file: &str) {
    check_file_as(file, InputFormat::Fe)
}

fn check_file_as(file: &str, format: InputFormat) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/soundness").join(file);
    let src = std::fs::read(&path).expect("readable");
    let m =
        load_source(file, &src, format).unwrap_or_else(|d| panic!("{file} does not load: {d:?}"));
    assert!(!m.tuples.is_empty(), "{file} has no tuples");
    let mut wrong = Vec::new();
    for t in &m.tuples {
        let valid = if t.name.starts_with("ok_") {
            true
        } else {
            assert!(t.name.starts_with("bad_"), "{file}: tuple {} is neither ok_ nor bad_", t.name);
            false
        };
        let engines = [EngineChoice::Prove, EngineChoice::Refute, EngineChoice::Both];
        for engine in engines.map(Some).into_iter().chain([None]) {
            let out = match engine {
                Some(engine) => {
                    let opts = DecideOptions { engine, timeout: LIMIT, ..DecideOptions::default() };
                    decide(t, &opts, &Cancel::new())
                }
                // Hypertesting also reports `violated` (after replay).
                None => {
                    let opts = TestOptions { budget: TEST_BUDGET, ..TestOptions::default() };
                    hypertest(t, &opts, &Cancel::new().with_timeout(LIMIT))
                }
            };
            let engine = engine.map_or("Test".to_string(), |e| format!("{e:?}"));
            eprintln!("{file} {} {engine}: {}", t.name, out.verdict.name());
            let bad = match &out.verdict {
                Verdict::Verified { .. } => !valid,
                Verdict::Violated { .. } => valid,
                Verdict::Unknown { .. } => false,
            };
            if bad {
                wrong.push(format!("{file}: {} — {engine} said {}", t.name, out.verdict.name()));
            }
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

#[test]
fn integers() {
    check_file("ints.fe");
}

#[test]
fn arrays_and_quantifiers() {
    check_file("arrays.fe");
}

#[test]
fn exists_side() {
    check_file("exists.fe");
}

#[test]
fn refuter_bounds() {
    check_file("bounds.fe");
}

#[test]
fn wide_bit_vectors() {
    check_file("bv.fe");
}

#[test]
fn loops_in_the_prover() {
    check_file("loops.fe");
}

#[test]
fn nested_loops_and_parameters() {
    check_file("nested.fe");
}

#[test]
fn unreachable_several_exists_and_array_havoc() {
    check_file("misc.fe");
}

/// ForEx-format files (one tuple each, named after the file): extraction `x{l,u}` counts
/// from the least significant bit, `bv.|` is bitwise or.
#[test]
fn forex_format_bit_vectors() {
    for f in ["ok_extract.txt", "bad_extract.txt", "ok_bvor.txt", "bad_bvor.txt"] {
        check_file_as(&format!("forex/{f}"), InputFormat::Forex);
    }
}

/// Short limits cut engines off at arbitrary points (mid-query, mid-replay): whatever
/// they answer then must still be right, and a cut-off engine answers `unknown`.
#[test]
fn tiny_time_limits_never_flip_a_refuter_verdict() {
    tiny_time_limits(&[EngineChoice::Refute]);
}

/// The same for the prover and the portfolio. With limits of a few ms, Z3 4.8.12's own
/// timer (its `timeout` parameter) deadlocked as a check ended and the prover never
/// returned; queries now get their limits from the interrupt watcher instead.
#[test]
fn tiny_time_limits_never_flip_a_prover_verdict() {
    tiny_time_limits(&[EngineChoice::Prove, EngineChoice::Both, EngineChoice::All]);
}

fn tiny_time_limits(engines: &[EngineChoice]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/soundness");
    let mut wrong = Vec::new();
    for file in ["ints.fe", "arrays.fe", "exists.fe", "loops.fe", "nested.fe", "bv.fe"] {
        let src = std::fs::read(dir.join(file)).expect("readable");
        let m = load_source(file, &src, InputFormat::Fe).expect("loads");
        for t in &m.tuples {
            let valid = t.name.starts_with("ok_");
            for ms in [0, 5, 40] {
                for &engine in engines {
                    let timeout = Duration::from_millis(ms);
                    let opts = DecideOptions { engine, timeout, ..DecideOptions::default() };
                    let v = decide(t, &opts, &Cancel::new()).verdict;
                    let bad = match v {
                        Verdict::Verified { .. } => !valid,
                        Verdict::Violated { .. } => valid,
                        Verdict::Unknown { .. } => false,
                    };
                    if bad {
                        wrong.push(format!("{file}: {} {engine:?} {ms} ms: {}", t.name, v.name()));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

/// An engine whose token is already cancelled decides nothing that needs the solver.
#[test]
fn cancelled_engines_answer_unknown() {
    let src = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/soundness/loops.fe"),
    )
    .expect("readable");
    let m = load_source("loops.fe", &src, InputFormat::Fe).expect("loads");
    for t in &m.tuples {
        for engine in [EngineChoice::Prove, EngineChoice::Refute, EngineChoice::Both] {
            let cancel = Cancel::new();
            cancel.cancel();
            let opts = DecideOptions { engine, ..DecideOptions::default() };
            let v = decide(t, &opts, &cancel).verdict;
            assert!(matches!(v, Verdict::Unknown { .. }), "{} {engine:?}: {}", t.name, v.name());
        }
    }
}
