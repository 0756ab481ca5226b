//! The temporal prover on programs that observe anywhere (issue 23): observations in
//! branches, several per iteration, `while (*)` observing loops on the ∃ side (stuttering),
//! copies observing at different rates, and ∃ strategies that must look one observation
//! ahead. Every tuple verified here is argued valid in its comment; each has an invalid
//! twin, which the prover must not verify and the refuter must show violated.

use assert_cmd::Command;
use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, Verdict};
use std::time::Duration;

fn tuple(src: &str, name: &str) -> Tuple {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Auto)
        .unwrap_or_else(|d| panic!("does not check: {:?}", d.messages));
    m.tuples.into_iter().find(|t| t.name == name).expect("tuple exists")
}

fn prover(src: &str, name: &str) -> Verdict {
    let cancel = Cancel::new().with_timeout(Duration::from_secs(20));
    prove(&tuple(src, name), &ProveOptions::default(), &cancel).verdict
}

fn verified(src: &str, name: &str) -> Proof {
    match prover(src, name) {
        Verdict::Verified { proof } => proof,
        v => panic!("{name}: expected verified, got {v:?}"),
    }
}

/// Not verified by the prover, and violated by the refuter (a replayed counterexample).
fn invalid(src: &str, name: &str) {
    match prover(src, name) {
        Verdict::Unknown { .. } => {}
        v => panic!("{name}: the prover must not decide an invalid tuple, got {v:?}"),
    }
    let cancel = Cancel::new().with_timeout(Duration::from_secs(20));
    let out = forex::refute::refute(&tuple(src, name), &Default::default(), &cancel);
    assert!(matches!(out.verdict, Verdict::Violated { .. }), "{name}: {:?}", out.verdict);
}

/// Observations in both branches of the loop body. With equal inputs both copies take
/// the same branch every time, so `y` and the point observed at agree at every
/// observation (invariant `a.y == e.y && a.x == e.x && a.@at == e.@at`). The twin's ∃
/// program observes twice where the ∀ one observes once: at observation 1 with x ≤ 0
/// the ∀ copy shows y = 2 and the ∃ copy y = 1.
const BRANCHES: &str = "
program br { int x, y; x = *; y = 0;
  repeat { if (x > 0) { y = y + 1; observe; } else { y = y + 2; observe; } } }
program br2 { int x, y; x = *; y = 0;
  repeat { if (x > 0) { y = y + 1; observe; } else { y = y + 1; observe; y = y + 1; observe; } } }
tuple branches { forall a: br; exists e: br; pre a.x == e.x; always a.y == e.y; }
tuple branches_twin { forall a: br; exists e: br2; pre a.x == e.x; always a.y == e.y; }
";

#[test]
fn observations_in_branches_are_verified_with_their_points() {
    let proof = verified(BRANCHES, "branches");
    let all = &proof.loop_points[0];
    assert!(all.invariant.contains("a.@at == e.@at"), "{}", all.invariant);
    assert!(
        all.loops[0].contains("observation points 1: 3:36 → 1|2; 2: 3:65 → 1|2"),
        "{:?}",
        all.loops
    );
    // One more loop point per combination of points: 2 × 2, none excluded by the
    // invariant's point conjuncts? `a.@at == e.@at` excludes the mixed ones.
    assert_eq!(proof.loop_points.len(), 3, "{:#?}", proof.loop_points);
    assert!(proof.loop_points[1].loops[1].contains("(observation 1; ∃ choice: moves to 1|2)"));
    invalid(BRANCHES, "branches_twin");
}

/// Two observations per iteration (a fresh value, then 0) against one per iteration
/// that picks a fresh value or 0: the ∃ copy picks per step what the ∀ copy's point
/// shows (invariant φ). The twin swaps the sides: the ∀ copy may show 0 twice in a row,
/// which the alternating ∃ copy cannot (5 then 5 at observations 1 and 2 fails).
const RATES: &str = "
program twice { int out; repeat { out = *; observe; out = 0; observe; } }
program once { int out; repeat { if (*) { out = *; } else { out = 0; } observe; } }
tuple several { forall a: twice; exists e: once; always a.out == e.out; }
tuple several_twin { forall a: once; exists e: twice; always a.out == e.out; }
";

#[test]
fn several_observations_per_iteration_are_verified() {
    let proof = verified(RATES, "several");
    assert!(proof.loop_points[0].loops[0].contains("observation points 1: 2:44 → 2; 2: 2:62 → 1"));
    invalid(RATES, "several_twin");
}

/// Stuttering. The ∀ copy increments or keeps its counter at each observation; the ∃
/// copy can repeat an observation (`while (*) { observe; }`) or increment, so it
/// follows (invariant `a.x == e.x`). At half rate (every value observed twice) the ∃
/// copy stutters every other step. The twins' ∃ copy increments at every observation:
/// it cannot keep up with a ∀ copy that keeps its value.
const STUTTER: &str = "
program sometimes { int x; x = 0; repeat { if (*) { x = x + 1; } observe; } }
program stutter { int x; x = 0; repeat { while (*) { observe; } x = x + 1; observe; } }
program always_up { int x; x = 0; repeat { x = x + 1; observe; } }
program halfrate { int x; x = 0; repeat { x = x + 1; observe; observe; } }
tuple stuttering { forall a: sometimes; exists e: stutter; always a.x == e.x; }
tuple stuttering_twin { forall a: sometimes; exists e: always_up; always a.x == e.x; }
tuple half { forall a: halfrate; exists e: stutter; always a.x == e.x; }
tuple half_twin { forall a: halfrate; exists e: always_up; always a.x == e.x; }
";

#[test]
fn an_exists_copy_that_repeats_observations_follows_slower_copies() {
    let proof = verified(STUTTER, "stuttering");
    // The ∃ copy's point inside `while (*)` can stay.
    assert!(
        proof.loop_points[0].loops[1].contains("1: 3:54 → 1|2, stays"),
        "{:?}",
        proof.loop_points[0].loops
    );
    assert!(proof.loop_points[0].invariant.starts_with("a.x == e.x"));
    let proof = verified(STUTTER, "half");
    assert!(proof
        .loop_points
        .iter()
        .skip(1)
        .any(|lp| lp.loops[1].contains("moves to 1|2 or stays")));
    invalid(STUTTER, "stuttering_twin");
    invalid(STUTTER, "half_twin");
}

/// Looking ahead. The ∀ copy shows a fresh value at each observation after the first;
/// the ∃ copy shows the value it chose one step earlier, so it must choose, at step k,
/// the value the ∀ copy will show at k + 1: only a strategy that sees the ∀ copy's
/// next step works (lagged invariant `a.x@prev == e.x && a.x == e.y`). In the twin the
/// ∃ copy chooses once and shows that value forever: 0, v, v fails for a ∀ run 0, 1, 2.
const AHEAD: &str = "
program fresh { int x; x = 0; repeat { observe; x = *; } }
program prepared { int x, y; y = *; x = 0; repeat { observe; x = y; y = *; } }
program stuck { int x, y; y = *; x = 0; repeat { observe; x = y; } }
tuple ahead { forall a: fresh; exists e: prepared; always a.x == e.x; }
tuple ahead_twin { forall a: fresh; exists e: stuck; always a.x == e.x; }
";

#[test]
fn an_exists_strategy_that_looks_one_observation_ahead_is_verified() {
    let proof = verified(AHEAD, "ahead");
    let lp = &proof.loop_points[0];
    assert!(lp.loops[1].contains("one observation behind"), "{:?}", lp.loops);
    assert!(lp.invariant.starts_with("a.x@prev == e.x"), "{}", lp.invariant);
    assert!(lp.invariant.contains("a.x == e.y"), "{}", lp.invariant);
    invalid(AHEAD, "ahead_twin");
}

/// A program that observes twice and stops, against itself: valid (hyena0's
/// `too-few-obs`); against one that observes once: the second ∀ observation has no
/// match, so not verified. (Loops that go round without observing: `silent_iterations.rs`.)
const ENDS: &str = "
program two { int x; observe; observe; }
program one { int x; observe; }
tuple same { forall a: two; exists b: two; always true; }
tuple fewer { forall a: two; exists b: one; always true; }
";

#[test]
fn programs_that_stop_observing() {
    verified(ENDS, "same");
    invalid(ENDS, "fewer");
}

/// `--explain` and JSON show each copy's points, the alignment per combination of
/// points (who moves where, who may stay, whose choice it is) and the invariant there.
#[test]
fn explain_and_json_show_the_alignment_per_combination_of_points() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.fe"), STUTTER).unwrap();
    let run = |format: &str| {
        let out = Command::cargo_bin("forex")
            .unwrap()
            .current_dir(dir.path())
            .args(["prove", "--engine", "prove", "--explain", "--format", format])
            .args(["--tuple", "stuttering", "s.fe"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let human = run("human");
    assert!(
        human.contains("e@s.fe:3:54 (observation 1; ∃ choice: moves to 1|2 or stays)"),
        "{human}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let points = &json["results"][0]["proof"]["loop_points"];
    assert_eq!(points.as_array().map(Vec::len), Some(3), "{points}");
    assert!(points[2]["loops"][1].as_str().unwrap().contains("observation 2"), "{points}");
    assert!(points[1]["invariant"].as_str().unwrap().starts_with("a.x == e.x"), "{points}");
}
