//! Differential tests of the engines against the brute-force oracle on random tuples.
//!
//! Soundness (must always hold): the prover never says `verified` for an invalid tuple,
//! the refuter never says `violated` for a valid one. Completeness on loop-free tuples
//! (DESIGN.md: genpp is exact there): the prover says `verified` exactly when valid.
//! Seeds are fixed so runs are reproducible; a failure prints the tuple as `.fe` source.

use crate::common::brute::{decide, Answer};
use crate::common::gen::{runner, to_fe, tuples, GenConfig};
use forex::cancel::Cancel;
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::refute::{refute, RefuteOptions};
use forex::verdict::Verdict;
use proptest::test_runner::TestCaseError;
use std::time::Duration;

/// Per-tuple engine limit for completeness tests: generous, so that a slow machine does
/// not turn an answer into `unknown`.
const LIMIT: Duration = Duration::from_secs(20);
/// Per-tuple limit for soundness tests: `unknown` is always acceptable there, so a short
/// limit only bounds the runtime (valid tuples with ∃ loops can keep the refuter busy).
const SOUND_LIMIT: Duration = Duration::from_secs(2);

fn oracle(t: &Tuple) -> Result<Answer, TestCaseError> {
    decide(t).ok_or_else(|| TestCaseError::reject("outside the oracle's fragment"))
}

fn describe(t: &Tuple, answer: &Answer, v: &Verdict) -> String {
    let why = match answer {
        Answer::Valid => "the oracle says valid".to_string(),
        Answer::Invalid(w) => format!("the oracle says invalid:\n{w}"),
    };
    format!("engine said {} ({v:?})\n{why}\n{}", v.name(), to_fe(t))
}

fn run(
    cases: u32,
    seed: u8,
    cfg: GenConfig,
    check: impl Fn(&Tuple, &Answer) -> Result<(), String>,
) {
    let mut r = runner(cases, seed);
    let result = r.run(&tuples(cfg), |t| {
        let answer = oracle(&t)?;
        check(&t, &answer).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

fn prove_verdict(t: &Tuple, limit: Duration) -> Verdict {
    prove(t, &ProveOptions::default(), &Cancel::new().with_timeout(limit)).verdict
}

fn refute_verdict(t: &Tuple, limit: Duration) -> Verdict {
    refute(t, &RefuteOptions::bounded(8), &Cancel::new().with_timeout(limit)).verdict
}

#[test]
fn prover_never_verifies_an_invalid_loop_free_tuple() {
    run(500, 11, GenConfig::default(), |t, answer| {
        let v = prove_verdict(t, SOUND_LIMIT);
        match (&v, answer) {
            (Verdict::Verified { .. }, Answer::Invalid(_)) => Err(describe(t, answer, &v)),
            _ => Ok(()),
        }
    });
}

#[test]
fn refuter_never_refutes_a_valid_tuple() {
    run(500, 12, GenConfig { loops: true, ..GenConfig::default() }, |t, answer| {
        let v = refute_verdict(t, SOUND_LIMIT);
        // The refuter's exhaustive searches are proofs: they must be right too.
        match (&v, answer) {
            (Verdict::Violated { .. }, Answer::Valid) => Err(describe(t, answer, &v)),
            (Verdict::Verified { .. }, Answer::Invalid(_)) => Err(describe(t, answer, &v)),
            _ => Ok(()),
        }
    });
}

/// The prover with loops: sound too (the first test covers loop-free tuples only).
#[test]
fn prover_never_verifies_an_invalid_tuple_with_loops() {
    run(200, 13, GenConfig { loops: true, ..GenConfig::default() }, |t, answer| {
        let v = prove_verdict(t, SOUND_LIMIT);
        match (&v, answer) {
            (Verdict::Verified { .. }, Answer::Invalid(_)) => Err(describe(t, answer, &v)),
            _ => Ok(()),
        }
    });
}

fn prover_is_complete_without_loops(cases: u32, seed: u8) {
    run(cases, seed, GenConfig::default(), |t, answer| {
        let v = prove_verdict(t, LIMIT);
        match (&v, answer) {
            (Verdict::Verified { .. }, Answer::Valid) => Ok(()),
            (Verdict::Verified { .. }, Answer::Invalid(_)) => Err(describe(t, answer, &v)),
            (_, Answer::Invalid(_)) => Ok(()),
            (_, Answer::Valid) => Err(describe(t, answer, &v)),
        }
    });
}

#[test]
fn prover_verifies_exactly_the_valid_loop_free_tuples() {
    prover_is_complete_without_loops(500, 21);
}

#[test]
#[ignore = "long: 10,000 cases"]
fn prover_verifies_exactly_the_valid_loop_free_tuples_10k() {
    prover_is_complete_without_loops(10_000, 22);
}

/// Bounded ∀∃ symbolic execution is exact on loop-free tuples (every path fits the
/// bound), so the refuter should find every violation there.
#[test]
fn refuter_refutes_every_invalid_loop_free_tuple() {
    run(500, 23, GenConfig::default(), |t, answer| {
        let v = refute_verdict(t, LIMIT);
        match (&v, answer) {
            (Verdict::Violated { .. }, Answer::Valid) => Err(describe(t, answer, &v)),
            (Verdict::Verified { .. }, Answer::Invalid(_)) => Err(describe(t, answer, &v)),
            (Verdict::Violated { .. }, Answer::Invalid(_)) | (_, Answer::Valid) => Ok(()),
            (_, Answer::Invalid(_)) => Err(describe(t, answer, &v)),
        }
    });
}

#[test]
#[ignore = "prints the slowest refuter cases"]
fn print_slow_refuter_cases() {
    let ts = crate::common::gen::sample(
        &tuples(GenConfig { loops: true, ..GenConfig::default() }),
        500,
        12,
    );
    let mut times: Vec<(f64, usize)> = Vec::new();
    for (i, t) in ts.iter().enumerate() {
        let start = std::time::Instant::now();
        let v = refute_verdict(t, SOUND_LIMIT);
        times.push((start.elapsed().as_secs_f64(), i));
        let _ = v;
    }
    times.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let total: f64 = times.iter().map(|t| t.0).sum();
    let over = |x: f64| times.iter().filter(|t| t.0 >= x).count();
    println!(
        "total {total:.1}s; >=1.9s: {}, >=0.5s: {}, >=0.1s: {}",
        over(1.9),
        over(0.5),
        over(0.1)
    );
    for (s, i) in times.iter().take(3) {
        println!("{s:.2}s {:?}\n{}", refute_verdict(&ts[*i], LIMIT).name(), to_fe(&ts[*i]));
    }
}

/// Longer soundness hunts with loops (`cargo test --release --test differential -- --ignored`).
#[test]
#[ignore = "long: 3,000 cases"]
fn engines_are_sound_with_loops_3k() {
    run(3_000, 31, GenConfig { loops: true, ..GenConfig::default() }, |t, answer| {
        let p = prove_verdict(t, SOUND_LIMIT);
        if let (Verdict::Verified { .. }, Answer::Invalid(_)) = (&p, answer) {
            return Err(describe(t, answer, &p));
        }
        let r = refute_verdict(t, SOUND_LIMIT);
        match (&r, answer) {
            (Verdict::Violated { .. }, Answer::Valid)
            | (Verdict::Verified { .. }, Answer::Invalid(_)) => {
                return Err(describe(t, answer, &r))
            }
            _ => {}
        }
        Ok(())
    });
}

/// String tuples (`GenConfig::strings`): neither engine contradicts the oracle, with and
/// without loops; Z3's sequence solver may answer `unknown`, which is always allowed.
#[test]
fn engines_are_sound_on_string_tuples() {
    for (loops, cases, seed) in [(false, 120, 41), (true, 80, 42)] {
        let cfg = GenConfig { loops, strings: true, ..GenConfig::default() };
        run(cases, seed, cfg, |t, answer| {
            let p = prove_verdict(t, SOUND_LIMIT);
            if let (Verdict::Verified { .. }, Answer::Invalid(_)) = (&p, answer) {
                return Err(describe(t, answer, &p));
            }
            let r = refute_verdict(t, SOUND_LIMIT);
            match (&r, answer) {
                (Verdict::Violated { .. }, Answer::Valid)
                | (Verdict::Verified { .. }, Answer::Invalid(_)) => Err(describe(t, answer, &r)),
                _ => Ok(()),
            }
        });
    }
}

/// On loop-free string tuples both engines are exact, as on bit-vectors: the prover
/// verifies exactly the valid ones and the refuter refutes exactly the invalid ones.
#[test]
fn engines_decide_every_loop_free_string_tuple() {
    run(150, 44, GenConfig { strings: true, ..GenConfig::default() }, |t, answer| {
        let p = prove_verdict(t, LIMIT);
        let r = refute_verdict(t, LIMIT);
        let exact = match answer {
            Answer::Valid => {
                matches!(p, Verdict::Verified { .. }) && !matches!(r, Verdict::Violated { .. })
            }
            Answer::Invalid(_) => {
                matches!(r, Verdict::Violated { .. }) && !matches!(p, Verdict::Verified { .. })
            }
        };
        match exact {
            true => Ok(()),
            false => Err(format!("refuter: {}\n{}", r.name(), describe(t, answer, &p))),
        }
    });
}

#[test]
#[ignore = "prints how often each engine decides string tuples"]
fn print_string_decision_rates() {
    let cfg = GenConfig { strings: true, ..GenConfig::default() };
    let ts = crate::common::gen::sample(&tuples(cfg), 200, 43);
    let mut counts = std::collections::BTreeMap::new();
    for t in &ts {
        let answer = decide(t).expect("decidable").is_valid();
        let start = std::time::Instant::now();
        let p = prove_verdict(t, LIMIT).name();
        let pt = start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        let r = refute_verdict(t, LIMIT).name();
        let rt = start.elapsed().as_secs_f64();
        if pt > 1.0 || rt > 1.0 {
            println!("slow: prove {p} {pt:.2}s, refute {r} {rt:.2}s\n{}", to_fe(t));
        }
        *counts.entry((answer, p, r)).or_insert(0) += 1;
    }
    println!("(valid, prove, refute) -> count: {counts:#?}");
}
