//! The examples folder: every file parses and checks, declares its expected verdict, and
//! the expectation is right — confirmed by the brute-force oracle where it applies (bool
//! and bit-vector tuples), and never contradicted by an engine.

use crate::common::brute::{decide, Answer};
use crate::common::corpus::{self, Expect};
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::ir::Tuple;
use forex::verdict::Verdict;
use std::path::PathBuf;
use std::time::Duration;

struct Example {
    path: PathBuf,
    expect: Expect,
    tuples: Vec<Tuple>,
}

fn examples() -> Vec<Example> {
    corpus::examples()
        .into_iter()
        .map(|ex| {
            let path = ex.path;
            let first = ex.text.lines().next().unwrap_or("");
            let expect = ex.expect.unwrap_or_else(|| {
                panic!("{}: first line {first:?} is not an expect line", path.display())
            });
            let second = ex.text.lines().nth(1).unwrap_or("");
            assert!(second.starts_with("// "), "{}: no explanation comment", path.display());
            let module = load_file(&path, InputFormat::Auto)
                .unwrap_or_else(|d| panic!("{}: does not check:\n{d:?}", path.display()));
            assert!(!module.tuples.is_empty(), "{}: no tuple", path.display());
            Example { path, expect, tuples: module.tuples }
        })
        .collect()
}

#[test]
fn there_are_enough_examples_of_both_verdicts_and_each_checks() {
    let all = examples();
    assert!(all.len() >= 14, "only {} examples", all.len());
    let violated = all.iter().filter(|e| e.expect == Expect::Violated).count();
    assert!(violated >= 5 && all.len() - violated >= 5, "{violated} of {} violated", all.len());
}

#[test]
fn the_oracle_agrees_with_every_bit_vector_example() {
    let mut decided = Vec::new();
    for ex in examples() {
        for t in &ex.tuples {
            let Some(answer) = decide(t) else { continue };
            let expect = if answer.is_valid() { Expect::Verified } else { Expect::Violated };
            if let Answer::Invalid(w) = &answer {
                assert_eq!(ex.expect, expect, "{}: oracle witness\n{w}", ex.path.display());
            }
            assert_eq!(ex.expect, expect, "{}: {}", ex.path.display(), t.name);
            decided.push(ex.path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    // The bit-vector examples are all in the oracle's fragment.
    for name in [
        "bv_ni.fe",
        "bv_leak.fe",
        "delimited_release.fe",
        "gni_shorthand.fe",
        "nondeterministic.fe",
        "refines_shorthand.fe",
        "three_copies.fe",
    ] {
        assert!(decided.iter().any(|d| d == name), "{name} not decided by the oracle");
    }
}

/// Engines may say `unknown`, but never the opposite of the expected verdict.
#[test]
fn no_engine_contradicts_an_example() {
    let limit = Duration::from_secs(10);
    for ex in examples() {
        for t in &ex.tuples {
            let proved = forex::prove::prove(
                t,
                &forex::prove::ProveOptions::default(),
                &Cancel::new().with_timeout(limit),
            );
            if ex.expect == Expect::Violated {
                assert!(
                    !matches!(proved.verdict, Verdict::Verified { .. }),
                    "{}: the prover verified a violated example",
                    ex.path.display()
                );
            }
            let refuted = forex::refute::refute(
                t,
                &forex::refute::RefuteOptions::bounded(8),
                &Cancel::new().with_timeout(limit),
            );
            if ex.expect == Expect::Verified {
                assert!(
                    !matches!(refuted.verdict, Verdict::Violated { .. }),
                    "{}: the refuter refuted a verified example: {:?}",
                    ex.path.display(),
                    refuted.verdict
                );
            }
        }
    }
}

/// Each example is decided as expected: valid ones by the prover, invalid ones by the
/// refuter (with a replayed counterexample).
#[test]
fn each_example_is_decided_as_expected() {
    let limit = Duration::from_secs(30);
    for ex in examples() {
        for t in &ex.tuples {
            let c = Cancel::new().with_timeout(limit);
            let verdict = match ex.expect {
                // Reactive tuples are verified by the refuter's exhaustive bounded search
                // (or the temporal prover): the portfolio, as `forex prove` runs them.
                _ if t.is_reactive() => {
                    let opts =
                        forex::portfolio::DecideOptions { timeout: limit, ..Default::default() };
                    forex::portfolio::decide(t, &opts, &c).verdict
                }
                Expect::Verified => forex::prove::prove(t, &Default::default(), &c).verdict,
                Expect::Violated | Expect::Unknown => {
                    forex::refute::refute(t, &Default::default(), &c).verdict
                }
            };
            let ok = match ex.expect {
                Expect::Verified => matches!(verdict, Verdict::Verified { .. }),
                Expect::Violated => matches!(verdict, Verdict::Violated { .. }),
                Expect::Unknown => matches!(verdict, Verdict::Unknown { .. }),
            };
            assert!(
                ok,
                "{} ({}): expected {:?}, got {verdict:?}",
                ex.path.display(),
                t.name,
                ex.expect
            );
        }
    }
}

#[test]
#[ignore = "prints each engine's verdict per example"]
fn print_engine_verdicts() {
    let limit = Duration::from_secs(20);
    for ex in examples() {
        for t in &ex.tuples {
            let c = || Cancel::new().with_timeout(limit);
            let p = forex::prove::prove(t, &Default::default(), &c());
            let r = forex::refute::refute(t, &Default::default(), &c());
            let reason = |v: &Verdict| match v {
                Verdict::Unknown { reason } => format!(" ({reason})"),
                _ => String::new(),
            };
            println!(
                "{:28} expect {:?}: prove {}{}, refute {}{}",
                ex.path.file_name().unwrap().to_string_lossy(),
                ex.expect,
                p.verdict.name(),
                reason(&p.verdict),
                r.verdict.name(),
                reason(&r.verdict)
            );
        }
    }
}
