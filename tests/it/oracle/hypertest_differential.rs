//! Hypertesting against the brute-force oracle on random tuples (small bit-vector and
//! boolean state spaces, with and without loops).
//!
//! Soundness: `violated` only for tuples the oracle finds invalid. Effectiveness: on the
//! invalid ones, the search finds a good share of the violations (small state spaces
//! make them easy to hit). Seeds are fixed and runs are bounded by count, not time.

use crate::common::brute::{decide, Answer};
use crate::common::gen::{sample, to_fe, tuples, GenConfig};
use forex::cancel::Cancel;
use forex::hypertest::{hypertest_report, Strategy, TestOptions};
use std::time::Duration;

fn check(cfg: GenConfig, n: usize, seed: u8, strategy: Strategy) -> (usize, usize) {
    let (mut invalid, mut found) = (0, 0);
    for (i, t) in sample(&tuples(cfg), n, seed).into_iter().enumerate() {
        let Some(answer) = decide(&t) else { continue };
        let opts = TestOptions {
            strategy,
            budget: Duration::from_secs(30),
            seed: i as u64,
            dump_smt: None,
        };
        let r = hypertest_report(&t, &opts, Some(40), &Cancel::new());
        match (&r.counterexample, &answer) {
            (Some(cex), Answer::Valid) => {
                panic!("violated on a valid tuple:\n{}\n{cex:?}", to_fe(&t))
            }
            (Some(_), Answer::Invalid(_)) => found += 1,
            _ => {}
        }
        invalid += usize::from(!answer.is_valid());
    }
    (invalid, found)
}

#[test]
fn hypertest_never_violates_a_valid_tuple_and_finds_most_violations() {
    let (invalid, found) = check(GenConfig::default(), 200, 31, Strategy::Fuzz);
    eprintln!("fuzz, loop-free: found {found} of {invalid} violations");
    assert!(invalid > 0 && found * 2 >= invalid, "found {found} of {invalid}");
    let (invalid, found) =
        check(GenConfig { loops: true, ..GenConfig::default() }, 200, 32, Strategy::Evo);
    eprintln!("evo, with loops: found {found} of {invalid} violations");
    assert!(invalid > 0 && found * 2 >= invalid, "found {found} of {invalid}");
}

/// String tuples: never `violated` on a valid tuple, and most violations found.
#[test]
fn hypertest_never_violates_a_valid_string_tuple() {
    let cfg = GenConfig { loops: true, strings: true, ..GenConfig::default() };
    let (invalid, found) = check(cfg, 100, 33, Strategy::Fuzz);
    eprintln!("fuzz, strings: found {found} of {invalid} violations");
    assert!(invalid > 0 && found * 2 >= invalid, "found {found} of {invalid}");
}
