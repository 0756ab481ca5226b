//! Refuting and testing programs of real size (issue 22): `else if` chains and sequential
//! `if`s whose paths are far more than the refuter's path budget are searched merged
//! (one query over `ite` terms), and the counterexample read from that query's model
//! replays, choices included; hypertesting lists a bounded sample of goals instead of
//! millions. Before, each of these was `unknown` (path budget, or 0 runs over 4 million
//! goals).

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::hypertest::{hypertest_runs, TestOptions};
use forex::ir::{Module, Tuple};
use forex::refute::{refute, replay_counterexample, RefuteOptions};
use forex::value::Value;
use forex::verdict::{Counterexample, Verdict};
use std::fmt::Write as _;
use std::time::Duration;

/// NI over an `else if` chain of `n` arms on `l`, the last one leaking `h`.
fn chain(n: usize) -> String {
    let mut s = String::from("program p {\n  int h, l, o;\n  o = 0;\n");
    for i in 0..n {
        let kw = if i == 0 { "  if" } else { "  } else if" };
        let rhs = if i + 1 == n { "h".to_string() } else { i.to_string() };
        let _ = writeln!(s, "{kw} (l == {i}) {{ o = {rhs};");
    }
    s + "  }\n}\ntuple t = ni(p, low: [l], high: [h], out: [o]);\n"
}

/// `n` sequential `if`s on `l`, then a choice `x` and an `if (*)`: `h` leaks only when
/// the run chooses `x == 7` and takes the `if (*)`'s first branch.
fn sequential_with_choices(n: usize) -> String {
    let mut s = String::from("program p {\n  int h, l, o, x;\n  o = 0;\n");
    for i in 0..n {
        let _ = writeln!(s, "  if (l == {i}) {{ o = o + {i}; }}");
    }
    s += "  x = *;\n  if (*) { if (x == 7) { o = o + h; } } else { o = o + 1; }\n";
    s + "}\ntuple t = ni(p, low: [l], high: [h], out: [o]);\n"
}

/// GNI over `n` sequential `if`s whose outputs an ∃ copy's pad can match.
fn sequential_gni(n: usize) -> String {
    let mut s = String::from("program p {\n  int h, l, o, r;\n  o = 0;\n");
    for i in 0..n {
        let _ = writeln!(s, "  if (l == {i}) {{ o = o + h; }}");
    }
    s += "  r = *;\n  o = o + r;\n";
    s + "}\ntuple t = gni(p, low: [l], high: [h], out: [o]);\n"
}

fn module(text: &str) -> Module {
    load_source("scale.fe", text.as_bytes(), InputFormat::Auto).unwrap_or_else(|d| {
        panic!("the tuples do not check:\n{}", d.render(forex::diag::DiagStyle::Short))
    })
}

fn only(m: &Module) -> &Tuple {
    &m.tuples[0]
}

fn cancel() -> Cancel {
    Cancel::new().with_timeout(Duration::from_secs(120))
}

fn violated(t: &Tuple) -> Counterexample {
    match refute(t, &RefuteOptions::default(), &cancel()).verdict {
        Verdict::Violated { counterexample } => {
            replay_counterexample(t, &counterexample, &Cancel::new()).expect("replays");
            counterexample
        }
        other => panic!("{}: expected violated, got {other:?}", t.name),
    }
}

#[test]
fn a_leak_in_the_last_arm_of_a_1500_arm_chain_is_refuted() {
    // 1500 arms: 3000 paths for the two copies, past the default budget of 2000.
    let m = module(&chain(1500));
    let cex = violated(only(&m));
    for copy in &cex.copies {
        assert_eq!(copy.initial["l"], Value::int(1499), "the leaking arm is taken");
    }
    assert_ne!(cex.copies[0].initial["h"], cex.copies[1].initial["h"]);
}

#[test]
fn choices_inside_merged_branches_come_back_in_order_and_replay() {
    // 2^40 paths per copy: only a merged search gets to the end.
    let m = module(&sequential_with_choices(40));
    let cex = violated(only(&m));
    let leaking = cex
        .copies
        .iter()
        .find(|c| c.choices.len() == 2 && c.choices[0] == Value::int(7))
        .unwrap_or_else(|| panic!("some copy chooses x = 7: {cex:?}"));
    assert_eq!(leaking.choices[1], Value::bool(true), "then the if (*)'s first branch");
}

#[test]
fn a_merged_exists_side_matches_every_forall_run() {
    // The ∃ copy's pad can always make up for h: no counterexample, and the search over
    // the loop-free copies is exhaustive, so it is a proof.
    let m = module(&sequential_gni(30));
    match refute(only(&m), &RefuteOptions::default(), &cancel()).verdict {
        Verdict::Verified { proof } => {
            assert!(proof.exhaustive.is_some(), "an exhaustive-search proof")
        }
        other => panic!("expected verified, got {other:?}"),
    }
}

#[test]
fn hypertesting_a_2000_arm_chain_samples_its_goals_and_runs() {
    let m = module(&chain(2000));
    let opts = TestOptions { budget: Duration::from_secs(30), ..TestOptions::default() };
    let out = hypertest_runs(only(&m), &opts, Some(20), &Cancel::new());
    assert_eq!(out.stats.runs, 20, "every test runs: {:?}", out.verdict);
    let cov = out.stats.hypercoverage.expect("hypercoverage is reported");
    assert!(cov.goals > 0 && cov.goals <= 20_000, "a bounded sample of goals: {}", cov.goals);
}

/// A 2000-arm chain whose arms compute `l + c`, leaking `h` ten arms before its end: the
/// merged query takes longer than the refuter's first query limit (2 s), and the round
/// is asked again with longer queries while the time allows (before: `unknown`, "some
/// paths were undecided by the solver").
#[test]
fn an_undecided_round_is_asked_again_with_longer_queries() {
    let n = 2000;
    let mut s = String::from("program p {\n  int h, l, o;\n");
    for i in 0..n {
        let kw = if i == 0 { "  if" } else { "  } else if" };
        let rhs = if i + 10 == n { "h".to_string() } else { format!("l + {}", i * 7 % 13) };
        let _ = writeln!(s, "{kw} (l == {i}) {{ o = {rhs};");
    }
    s += "  } else { o = 0; }\n}\ntuple t = ni(p, low: [l], high: [h], out: [o]);\n";
    let m = module(&s);
    let cex = violated(only(&m));
    assert_eq!(cex.copies[0].initial["l"], Value::int(n as i64 - 10), "the leaking arm");
}
