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
