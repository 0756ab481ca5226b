//! The temporal prover on observing loops with silent iterations (issue 33): a loop that
//! contains `observe;` but whose body can go round without observing, summarised between
//! two observations as "some number of silent iterations, then the observing path"
//! (`observation::graph`). For ∃ copies the number is their choice (unrolled or ranked),
//! for ∀ copies it is any number (a loop invariant). Also the lagged strategy whose ∃
//! mode is tied to the ∀ copy's move since its previous observation.
//!
//! Every tuple verified here is argued valid in its comment; each has an invalid twin,
//! which the prover must not verify (and, where it can, the refuter shows violated; an
//! ∃ copy that may loop silently without bound is beyond the refuter's exhaustive
//! reach, so for those twins the refuter only must not say `verified`).

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
    let cancel = Cancel::new().with_timeout(Duration::from_secs(30));
    prove(&tuple(src, name), &ProveOptions::default(), &cancel).verdict
}

fn verified(src: &str, name: &str) -> Proof {
    match prover(src, name) {
        Verdict::Verified { proof } => proof,
        v => panic!("{name}: expected verified, got {v:?}"),
    }
}

fn refuter(src: &str, name: &str) -> Verdict {
    let cancel = Cancel::new().with_timeout(Duration::from_secs(10));
    forex::refute::refute(&tuple(src, name), &Default::default(), &cancel).verdict
}

/// Not verified by the prover nor by the refuter.
fn not_verified(src: &str, name: &str) {
    match prover(src, name) {
        Verdict::Unknown { .. } => {}
        v => panic!("{name}: the prover must not decide an invalid tuple, got {v:?}"),
    }
    let v = refuter(src, name);
    assert!(!matches!(v, Verdict::Verified { .. }), "{name}: the refuter verified it: {v:?}");
}

/// Not verified by the prover, and violated by the refuter (a replayed counterexample).
fn invalid(src: &str, name: &str) {
    not_verified(src, name);
    let v = refuter(src, name);
    assert!(matches!(v, Verdict::Violated { .. }), "{name}: {v:?}");
}

/// A compiler that removed a silent loop iteration by iteration (HyPA's compiler
/// optimisation shape). The source counts `o` up silently and observes when it chooses
/// to; the targets count by a fixed step (1, 5) or a chosen step ≥ 0 and observe every
/// time. Each target run is a source run: between two observations the source takes as
/// many silent iterations as the target's step (∀ target, ∃ source; its count is the ∃
/// copy's choice, by unrolling or a ranking function `a.o - b.o`). The other way round,
/// a ∀ source that counts any number of times between observations is matched by the
/// target that picks its step (a ∀ silent loop: the invariant `a.o >= old(a.o)` for any
/// number of iterations). Twins: the source against the target counting by 1 (the
/// source may observe 0 twice), a target that may count down (the source never does),
/// a strictly counting target against the source (which may observe the same value
/// twice), and the five-step target against a source that must observe odd values
/// (5 then 10).
const COMPILER: &str = "
program source { int o; o = 0; repeat { if (*) { o = o + 1; } else { observe; } } }
program target { int o; o = 0; repeat { o = o + 1; observe; } }
program target5 { int o; o = 0; repeat { o = o + 5; observe; } }
program chosen { int o, x; o = 0; repeat { x = *; assume x >= 0; o = o + x; observe; } }
program down { int o, x; o = 0; repeat { x = *; assume x >= -1; o = o + x; observe; } }
program strict { int o, x; o = 0; repeat { x = *; assume x >= 1; o = o + x; observe; } }
tuple optimised { forall a: target; exists b: source; always a.o == b.o; }
tuple optimised_twin { forall a: source; exists b: target; always a.o == b.o; }
tuple five { forall a: target5; exists b: source; always a.o == b.o; }
tuple five_twin { forall a: target5; exists b: source; always a.o == b.o && b.o % 2 == 1; }
tuple any_step { forall a: chosen; exists b: source; always a.o == b.o; }
tuple any_step_twin { forall a: down; exists b: source; always a.o == b.o; }
tuple abstracted { forall a: source; exists b: chosen; always a.o == b.o; }
tuple abstracted_twin { forall a: source; exists b: strict; always a.o == b.o; }
";

#[test]
fn an_exists_copy_takes_as_many_silent_iterations_as_it_needs() {
    verified(COMPILER, "optimised");
    invalid(COMPILER, "optimised_twin");
    let proof = verified(COMPILER, "five");
    // The silent iterations are a loop of the ∃ copy, ranked by the distance left.
    let ranked = proof.loop_points.iter().any(|lp| lp.invariant.contains("ranking function"));
    assert!(ranked, "{:#?}", proof.loop_points);
    not_verified(COMPILER, "five_twin");
    verified(COMPILER, "any_step");
    not_verified(COMPILER, "any_step_twin");
}

#[test]
fn a_forall_copy_may_take_any_number_of_silent_iterations() {
    let proof = verified(COMPILER, "abstracted");
    let silent = proof.loop_points.iter().any(|lp| lp.invariant.contains("a.o >= old(a.o)"));
    assert!(silent, "{:#?}", proof.loop_points);
    invalid(COMPILER, "abstracted_twin");
}

/// Both copies iterate silently: the ∃ copy mirrors the ∀ copy's silent iterations in
/// lockstep (its choice to go round again is the ∀ copy's, `a.silent@… == b.silent@…`).
/// A source that observes every third iteration and adds 2 in the silent ones shows
/// 4, 8, …, which the counting source reaches by silent iterations (its loop runs two
/// iterations per one of the other, counts 1:2). Twins: a counting source shows odd
/// values the doubling one never does; the one observing every third iteration shows
/// only multiples of 4, so it cannot follow the counting source (1 at observation 1).
const BOTH: &str = "
program source { int o; o = 0; repeat { if (*) { o = o + 1; } else { observe; } } }
program evens { int o; o = 0; repeat { if (*) { o = o + 2; } else { observe; } } }
program third { int o, i; o = 0; i = 0;
  repeat { i = i + 1; if (i % 3 == 0) { observe; } else { o = o + 2; } } }
tuple mirrored { forall a: source; exists b: source; always a.o == b.o; }
tuple mirrored_twin { forall a: source; exists b: evens; always a.o == b.o; }
tuple every_third { forall a: third; exists b: source; always a.o == b.o; }
tuple every_third_twin { forall a: source; exists b: third; always a.o == b.o; }
";

#[test]
fn silent_iterations_on_both_sides_are_aligned() {
    let proof = verified(BOTH, "mirrored");
    let lockstep =
        proof.loop_points.iter().any(|lp| lp.loops.len() == 2 && lp.loops[0].contains("2:32"));
    assert!(lockstep, "{:#?}", proof.loop_points);
    not_verified(BOTH, "mirrored_twin");
    verified(BOTH, "every_third");
    invalid(BOTH, "every_third_twin");
}

/// A loop that observes only once its counter reaches the input `n` (it counts up
/// silently first), and an observing loop nested in one that goes round silently when
/// its inner loop does not run. With equal inputs the ∃ copy mirrors the ∀ copy (the
/// nested one choosing the same `x` each round); without `pre` the ∃ copy's `n` is any
/// value, so it observes another count. The nested twin asks for a count one less,
/// which the ∃ copy, observing only after counting, never shows at observation 1.
const QUIET: &str = "
program quiet { int i, n; i = 0; repeat { if (i >= n) { observe; } else { i = i + 1; } } }
program nest { int x, o; x = 0; o = 0;
  repeat { while (x > 0) { x = x - 1; o = o + 1; observe; } x = *; } }
tuple counted { forall a: quiet; exists b: quiet; pre a.n == b.n; always a.i == b.i; }
tuple counted_twin { forall a: quiet; exists b: quiet; always a.i == b.i; }
tuple nested { forall a: nest; exists b: nest; always a.o == b.o; }
tuple nested_twin { forall a: nest; exists b: nest; always a.o == b.o + 1; }
";

#[test]
fn counting_up_silently_and_nested_observing_loops() {
    verified(QUIET, "counted");
    not_verified(QUIET, "counted_twin");
    verified(QUIET, "nested");
    // The twin's search nests three candidate searches: it gives up at the query budget, well
    // before the 30-s limit, and says so.
    match prover(QUIET, "nested_twin") {
        Verdict::Unknown { reason } => {
            let text = reason.to_string();
            assert!(text.contains("gave up after 4000 queries"), "{text}");
            assert_eq!(reason.kind(), "no_invariant", "{text}");
        }
        v => panic!("{v:?}"),
    }
    assert!(!matches!(refuter(QUIET, "nested_twin"), Verdict::Verified { .. }));
}

/// HyPA's two-mode refinement shape, written anew. The ∀ copy picks a mode at each
/// step and moves `o` up or down by it; the ∃ copy moves by the mode it chose one step
/// earlier, so its choice must anticipate the ∀ copy's next move: only the lagged proof
/// (∃ copy one observation behind) works, with the ∃ mode tied to the ∀ copy's move
/// since its previous observation (`b.m == 1` exactly when `a.o` went up: the
/// candidate "the ∃ copy's next way keeps φ", a disjunction over its branches). The
/// twin also asks the modes to agree at each observation, which the ∃ copy, one mode
/// ahead, cannot.
const MODES: &str = "
program pick { int m, o; m = 0; o = 0;
  repeat { observe; m = *; assume m == 0 || m == 1; if (m == 1) { o = o + 1; } else { o = o - 1; } } }
program ahead { int m, o; m = *; o = 0;
  repeat { observe; if (m == 1) { o = o + 1; } else { o = o - 1; } m = *; } }
program steps { int o; o = 0; repeat { observe; if (*) { o = o + 1; } else { o = o + 2; } } }
program planned { int o, mode; o = 0; mode = *;
  repeat { observe; if (mode == 1) { o = o + 1; } else { o = o + 2; } mode = *; } }
tuple modes { forall a: pick; exists b: ahead; always a.o == b.o; }
tuple modes_twin { forall a: pick; exists b: ahead; always a.o == b.o && a.m == b.m; }
tuple planned_steps { forall a: steps; exists b: planned; always a.o == b.o; }
tuple planned_steps_twin { forall a: steps; exists b: planned; always a.o == b.o + 1; }
";

#[test]
fn an_exists_mode_chosen_one_step_ahead_is_verified_lagged() {
    for name in ["modes", "planned_steps"] {
        let proof = verified(MODES, name);
        let lp = &proof.loop_points[0];
        assert!(lp.loops[1].contains("one observation behind"), "{:?}", lp.loops);
        assert!(lp.invariant.contains("@prev"), "{}", lp.invariant);
    }
    invalid(MODES, "modes_twin");
    not_verified(MODES, "planned_steps_twin");
}
