//! Copies whose loops run different numbers of times (issue 22): monotonicity over k
//! copies, proved by per-copy (unary) invariants or by a lockstep whose leftovers each
//! copy finishes alone; the invalid twins (reversed `pre`, a sum of negative terms) are
//! never verified.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, Verdict};
use std::time::Duration;

fn tuple(src: &str) -> Tuple {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe)
        .unwrap_or_else(|d| panic!("does not load: {d:?}"));
    m.tuples.into_iter().next().expect("one tuple")
}

fn verdict(src: &str) -> Verdict {
    let cancel = Cancel::new().with_timeout(Duration::from_secs(120));
    prove(&tuple(src), &ProveOptions::default(), &cancel).verdict
}

fn verified(src: &str) -> Proof {
    match verdict(src) {
        Verdict::Verified { proof } => proof,
        v => panic!("expected verified, got {v:?}\n{src}"),
    }
}

fn not_verified(src: &str) {
    match verdict(src) {
        Verdict::Unknown { .. } => {}
        v => panic!("expected unknown, got {v:?}\n{src}"),
    }
}

/// k copies of `o = 0; i = start; while (i < x) { step; i = i + 1; }` with `pre` a chain
/// `c0.x <= c1.x && …` (`>=` when `reversed`) and `post` the chain `c0.o <= c1.o && …`.
fn mono(k: usize, start: &str, step: &str, reversed: bool) -> String {
    let copies: Vec<String> = (0..k).map(|j| format!("c{j}: m")).collect();
    let op = if reversed { ">=" } else { "<=" };
    let chain = |v: &str, op: &str| {
        (0..k - 1).map(|j| format!("c{j}.{v} {op} c{}.{v}", j + 1)).collect::<Vec<_>>().join(" && ")
    };
    let mut pre = chain("x", op);
    if start != "0" {
        pre += &format!(
            " && {}",
            (0..k - 1).map(|j| format!("c{j}.s == c{}.s", j + 1)).collect::<Vec<_>>().join(" && ")
        );
    }
    format!(
        "program m {{\n  int x, o, i, s;\n  o = 0;\n  i = {start};\n  while (i < x) {{\n    {step}\n    i = i + 1;\n  }}\n}}\n\
         tuple mono {{\n  forall {};\n  pre {pre};\n  post {};\n}}\n",
        copies.join(", "),
        chain("o", "<=")
    )
}

#[test]
fn monotonicity_with_two_to_eight_copies_is_verified() {
    for k in [2, 3, 5, 8] {
        let proof = verified(&mono(k, "0", "o = o + 2;", false));
        assert!(proof.loop_points.len() >= k, "{:#?}", proof.loop_points);
    }
}

#[test]
fn a_sum_is_proved_by_a_lockstep_and_its_leftovers() {
    // o = 0 + 1 + … + (x-1) has no linear unary invariant: the copies run in lockstep
    // (equal o and i), then c0 stops and c1 goes on adding non-negative terms alone.
    let proof = verified(&mono(2, "0", "o = o + i;", false));
    let lockstep = &proof.loop_points[0];
    assert_eq!(
        lockstep.alignment.as_deref(),
        Some("lockstep while every guard holds, then c0 runs no more, then c1 alone"),
        "{:#?}",
        proof.loop_points
    );
    assert_eq!(lockstep.loops.len(), 2);
    let kinds: Vec<Option<&str>> =
        proof.loop_points.iter().map(|lp| lp.alignment.as_deref()).collect();
    assert_eq!(
        kinds[1..],
        [
            Some("leftover of loop point 1: c0 runs no more"),
            Some("leftover of loop point 1: c1 alone")
        ]
    );
    let three = verified(&mono(3, "0", "o = o + i;", false));
    assert!(three
        .loop_points
        .iter()
        .any(|lp| lp.alignment.as_deref().is_some_and(|a| a.starts_with("lockstep"))));
}

#[test]
fn the_invalid_twins_are_not_verified() {
    // Negative terms: the copy that runs longer ends lower.
    not_verified(&mono(2, "s", "o = o + i;", false));
    not_verified(&mono(3, "s", "o = o + i;", false));
    // The longer copy first.
    not_verified(&mono(2, "0", "o = o + 2;", true));
    not_verified(&mono(4, "0", "o = o + 2;", true));
    not_verified(&mono(2, "0", "o = o + i;", true));
}

/// A ∀ copy counts x down to 0 (s = x); the ∃ copy picks a count (`if (*)` or `k = *`
/// bounded by `assume`) and counts it down in lockstep. Where the lockstep stops depends
/// on the ∃ choice, so the ∀ values there must not be known to it: known, it could pick
/// the run under which the ∀ values at the stop are impossible and prove the tuple
/// vacuously (the prover said `verified` on all of these once; a.s reaches 2 or 100001).
fn choice_then_lockstep(choice: &str, pre: &str) -> String {
    format!(
        "
program down {{ int x, s; s = 0; while (x > 0) {{ x = x - 1; s = s + 1; }} }}
program up {{ int k, s; {choice} s = 0; while (k > 0) {{ k = k - 1; s = s + 1; }} }}
tuple t {{ forall a: down; exists c: up; pre {pre}; post a.s == c.s; }}"
    )
}

#[test]
fn an_exists_choice_does_not_see_where_a_lockstep_stops() {
    not_verified(&choice_then_lockstep("if (*) { k = 0; } else { k = 1; }", "a.x == 2"));
    not_verified(&choice_then_lockstep("k = *; assume k <= 100000;", "a.x == 100001"));
    not_verified(&choice_then_lockstep("k = *; assume k <= 1;", "true"));
    // The valid twin: the ∃ copy may pick any count.
    verified(&choice_then_lockstep("k = *;", "true"));
}
