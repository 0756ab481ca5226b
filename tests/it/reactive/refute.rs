//! Reactive refutation (issue 11, item 3) on `.fe` text: violations found and replayed
//! with their observation tables, bounded searches that find nothing end `unknown`, and
//! valid tuples are never `violated`.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::portfolio::{decide, DecideOptions, EngineChoice};
use forex::verdict::Verdict;

fn tuple(src: &str) -> Tuple {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Auto)
        .unwrap_or_else(|d| panic!("does not check: {:?}", d.messages));
    m.tuples.into_iter().next().expect("one tuple")
}

fn verdict(src: &str) -> Verdict {
    decide(&tuple(src), &DecideOptions::default(), &Cancel::new()).verdict
}

const COUNTER: &str = "
program counter {
  int x, y;
  x = *; y = 0;
  repeat {
    observe;
    if (*) { y = y + 1; } else { y = y + x; }
  }
}
program ticker {
  int x, y;
  x = *; y = 0;
  repeat { observe; y = y + 1; }
}
";

/// Observational determinism of `counter` (valid up to every bound): never violated.
fn od_tuple() -> String {
    format!(
        "{COUNTER}
tuple od {{
  forall a: counter, b: counter;
  exists c: counter;
  pre    a.x == c.x;
  always a.y == c.y || b.y == c.y;
  observations 3;
}}"
    )
}

#[test]
fn observational_determinism_up_to_the_bound_is_unknown_not_violated() {
    let src = od_tuple();
    // The refuter alone: no violation up to the bound is `unknown`, never `verified`.
    let opts = DecideOptions { engine: EngineChoice::Refute, ..DecideOptions::default() };
    match decide(&tuple(&src), &opts, &Cancel::new()).verdict {
        Verdict::Unknown { reason } => {
            assert!(
                reason.to_string().contains("no violation with up to 3 observations"),
                "{reason}"
            )
        }
        v => panic!("expected unknown, got {v:?}"),
    }
    // The portfolio: the temporal prover proves it for every n.
    assert!(matches!(verdict(&src), Verdict::Verified { .. }));
}

#[test]
fn refinement_by_a_deterministic_spec_fails_at_observation_2() {
    let src = format!(
        "{COUNTER}
tuple refines {{
  forall a: counter;
  exists c: ticker;
  pre    a.x == c.x;
  always a.y == c.y;
  observations 6;
}}"
    );
    let Verdict::Violated { counterexample } = verdict(&src) else { panic!("expected violated") };
    let obs = counterexample.observations.expect("observation trace");
    assert_eq!(obs.failing_index, 2);
    assert_eq!(obs.copies["a"].len(), 2);
    assert!(obs.infinite_extension);
}

/// hyena0's `our-benchmarks/escalating` shape with `max` starting at 55: the first
/// counterexample is at observation 10 (the best ∀ run has y = 65 there, 50 at 9).
#[test]
fn escalating_counterexample_at_observation_10() {
    let src = "
program escalating {
  int x, y, t;
  x = 0; y = 0;
  repeat {
    observe;
    if (x % 2 == 0) { y = y + 1; } else { y = y + x; }
    t = *; assume t >= 1 && t <= 2;
    x = x + t;
  }
}
program max_diff {
  int max;
  max = 55;
  repeat { observe; if (*) { max = max + 1; } }
}
tuple escalates {
  forall a: escalating;
  exists c: max_diff;
  always a.y <= c.max;
  observations 12;
}";
    let Verdict::Violated { counterexample } = verdict(src) else { panic!("expected violated") };
    let obs = counterexample.observations.expect("observation trace");
    assert_eq!(obs.failing_index, 10);
    let a = &obs.copies["a"];
    assert_eq!(a[9]["y"].to_string(), "65");
}

fn test_verdict(src: &str) -> Verdict {
    use forex::hypertest::{hypertest_runs, TestOptions};
    let opts = TestOptions { budget: std::time::Duration::from_secs(30), ..TestOptions::default() };
    hypertest_runs(&tuple(src), &opts, Some(200), &Cancel::new()).verdict
}

#[test]
fn testing_finds_the_refinement_violation_and_never_violates_od() {
    let bad = format!(
        "{COUNTER}
tuple refines {{
  forall a: counter;
  exists c: ticker;
  pre    a.x == c.x;
  always a.y == c.y;
  observations 4;
}}"
    );
    let Verdict::Violated { counterexample } = test_verdict(&bad) else {
        panic!("expected violated")
    };
    assert!(counterexample.observations.expect("observation trace").failing_index >= 2);
    let od = od_tuple();
    match test_verdict(&od) {
        Verdict::Unknown { reason } => {
            assert!(reason.to_string().contains("no violation found"), "{reason}")
        }
        v => panic!("expected unknown, got {v:?}"),
    }
}

fn refuter_verdict(src: &str) -> Verdict {
    let opts = DecideOptions { engine: EngineChoice::Refute, ..DecideOptions::default() };
    decide(&tuple(src), &opts, &Cancel::new()).verdict
}

/// The spec refills `s` between observations by steps of 0..3 until it passes 10, so it
/// may loop forever (all steps 0) and only ever shows s in 10..12; the implementation
/// shows any value in 0..20.
const REFILL: &str = "
program impl { int y; y = 10; repeat { observe; y = *; assume 0 <= y && y <= 20; } }
program spec {
  int s, r;
  s = 10;
  repeat {
    observe;
    s = 0;
    while (s < 10) { r = *; assume 0 <= r && r <= 3; s = s + r; }
  }
}
tuple refills {
  forall a: impl;
  exists c: spec;
  always a.y == c.s;
  observations 4;
}";

#[test]
fn a_silent_exists_loop_of_any_length_is_summarised_by_its_last_iteration() {
    // The summary (guard true, one more step, guard false) bounds the spec's exit value
    // by 12: a.y outside 10..12 at observation 2 is a violation, and it replays.
    let Verdict::Violated { counterexample } = refuter_verdict(REFILL) else {
        panic!("expected violated")
    };
    let obs = counterexample.observations.expect("observation trace");
    assert_eq!(obs.failing_index, 2);
    let y: i64 = obs.copies["a"][1]["y"].to_string().parse().unwrap();
    assert!(!(10..=12).contains(&y), "{y} is a value the spec can show");
    // Where the implementation stays within the spec's exits, the summary may match
    // (it over-approximates), so nothing is claimed either way (the search deepens
    // its unrolling in vain, hence the short time limit).
    let within = REFILL
        .replace("0 <= y && y <= 20", "10 <= y && y <= 12")
        .replace("observations 4;", "observations 2;");
    let opts = DecideOptions {
        engine: EngineChoice::Refute,
        timeout: std::time::Duration::from_secs(2),
        ..DecideOptions::default()
    };
    let v = decide(&tuple(&within), &opts, &Cancel::new()).verdict;
    assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
}

#[test]
fn summaries_keep_the_inductive_interval_facts_of_the_loop() {
    // `s` only grows in the spec's loop, which may run any number of times: `s >= s₀`
    // is inductive, so a negative a.y matches no spec run. Without the fact the last
    // iteration alone would allow any s.
    let src = "
program impl { int y; y = 0; repeat { observe; y = *; } }
program spec {
  int s, k;
  s = 0;
  repeat { observe; k = *; while (k > 0) { k = k - 1; s = s + 1; } }
}
tuple grows {
  forall a: impl;
  exists c: spec;
  always a.y == c.s;
  observations 3;
}";
    let Verdict::Violated { counterexample } = refuter_verdict(src) else {
        panic!("expected violated")
    };
    let obs = counterexample.observations.expect("observation trace");
    let y: i64 = obs.copies["a"][obs.failing_index as usize - 1]["y"].to_string().parse().unwrap();
    assert!(y < 0, "{y}");
}

#[test]
fn a_rare_forall_value_is_reached_by_blocking_each_refuted_candidate() {
    // Every x in 1328..1360 is m·k with m, k != 1 (m <= 40), but 1361 is prime: one
    // candidate in 34 is a counterexample, and QSAT gives up on the products; the
    // counterexample-guided rounds go on past their first few until they reach it.
    let src = "
program any { int x; repeat { x = *; observe; } }
program factor {
  int m, k, i, p;
  repeat {
    m = *; assume 0 <= m && m <= 40;
    k = *; assume 0 <= k && k <= 1400;
    i = 0; p = 0;
    while (i < m) { p = p + k; i = i + 1; }
    observe;
  }
}
tuple composite {
  forall a: any;
  exists c: factor;
  always (1327 < a.x && a.x < 1362) ==> (a.x == c.p && c.m != 1 && c.k != 1);
  observations 1;
}";
    let Verdict::Violated { counterexample } = refuter_verdict(src) else {
        panic!("expected violated")
    };
    let obs = counterexample.observations.expect("observation trace");
    assert_eq!(obs.copies["a"][0]["x"].to_string(), "1361");
}

#[test]
fn test_reports_count_branch_outcomes_per_observation_index() {
    use forex::hypertest::{hypertest_report, TestOptions};
    // `counter`'s goals: the `repeat` guard true or false and the `if (*)` reached, at
    // each of 3 indices: 9. The guard is never false, and the `if (*)` follows the
    // `observe;`, so it is never reached before the 1st observation: 5 are coverable.
    let src = format!(
        "{COUNTER}
tuple od {{
  forall a: counter;
  exists c: counter;
  pre    a.x == c.x;
  always a.y == c.y;
  observations 3;
}}"
    );
    let opts = TestOptions { budget: std::time::Duration::from_secs(30), ..TestOptions::default() };
    let report = hypertest_report(&tuple(&src), &opts, Some(30), &Cancel::new());
    assert!(report.counterexample.is_none());
    assert_eq!(report.runs, 30);
    assert_eq!(report.goals, 9);
    assert_eq!(report.covered, 5);
}

/// Loop-free reactive tuples: the refuter's one-check pass (`refute_light`), which the
/// portfolio asks first, decides them both ways when the light quantifier elimination
/// removes the ∃ choices, and stays out of the way (`None`) when it does not.
const LOOP_FREE: &str = "
program pick {
  int l, o, d;
  d = *;
  o = l + d;
  observe;
}
program pos {
  int l, o, d;
  d = *;
  assume d >= 0;
  o = l + d;
  observe;
}
program sel {
  int o, r;
  r = *;
  if (r == 0) { o = 10; } else { o = 20; }
  observe;
}
";

fn loop_free(body: &str) -> Tuple {
    tuple(&format!("{LOOP_FREE}\ntuple t {{\n{body}\n  observations 1;\n}}\n"))
}

#[test]
fn loop_free_tuples_are_decided_by_one_check_both_ways() {
    use forex::refute::{refute_light, RefuteOptions};
    let light = |t: &Tuple| refute_light(t, &RefuteOptions::default(), &Cancel::new());
    let matched =
        loop_free("  forall a: pick; exists b: pick;\n  pre a.l == b.l;\n  always a.o == b.o;");
    let out = light(&matched).expect("decided by the light pass");
    assert_eq!(out.verdict.name(), "verified", "{:?}", out.verdict);
    assert_eq!(out.engine, forex::verdict::Engine::Refute);
    // b's choice must be ≥ 0: a run of a with d < 0 has no match.
    let unmatched =
        loop_free("  forall a: pick; exists b: pos;\n  pre a.l == b.l;\n  always a.o == b.o;");
    let Some(out) = light(&unmatched) else { panic!("decided by the light pass") };
    let Verdict::Violated { counterexample } = &out.verdict else { panic!("{:?}", out.verdict) };
    let d = &counterexample.copies[0].choices[0];
    assert!(d.to_string().starts_with('-'), "a's choice d = {d} must be negative");
    // An ∃ choice read only through a branch condition: not eliminated, left to the
    // portfolio, which still decides it.
    let branching = loop_free("  forall a: sel; exists b: sel;\n  always a.o == b.o;");
    assert!(light(&branching).is_none());
    assert_eq!(verdict(&format!("{LOOP_FREE}\ntuple t {{\n  forall a: sel; exists b: sel;\n  always a.o == b.o;\n  observations 1;\n}}\n")).name(), "verified");
}
