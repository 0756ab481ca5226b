//! The prover on tuples it used to leave `unknown` (issue 12 items 4–7): ∃ code scheduled
//! after ∀ loops, counters in k:1 alignments, ∃-only loops that exit by a flag or a
//! `!=` guard, and reasons that name the candidate that failed. Each valid tuple has an
//! invalid twin that must not be verified.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, Verdict};
use std::time::Duration;

fn tuple(src: &str, name: &str) -> Tuple {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe)
        .unwrap_or_else(|d| panic!("does not load: {d:?}"));
    m.tuples.into_iter().find(|t| t.name == name).expect("tuple")
}

fn run(src: &str, name: &str, explain: bool) -> Verdict {
    let opts = ProveOptions { explain, ..ProveOptions::default() };
    let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
    prove(&tuple(src, name), &opts, &cancel).verdict
}

fn verified(src: &str, name: &str) -> Proof {
    match run(src, name, false) {
        Verdict::Verified { proof } => proof,
        v => panic!("{name}: expected verified, got {v:?}"),
    }
}

fn unknown(src: &str, name: &str, explain: bool) -> String {
    match run(src, name, explain) {
        Verdict::Unknown { reason } => reason.to_string(),
        v => panic!("{name}: expected unknown, got {v:?}"),
    }
}

/// The ∃ choice `d` must make up what the ∀ loop added: it can only be chosen after it.
const SCHEDULE: &str = "
program grow {
  bool k; int o;
  while (k) { o = o + 1; k = *; }
}
program pick {
  bool k; int o, d;
  d = *;
  assume d >= 0;
  o = o + d;
}
program pick_positive {
  bool k; int o, d;
  d = *;
  assume d >= 1;
  o = o + d;
}
tuple catch_up {
  forall s: grow;
  exists t: pick;
  pre s.o == t.o;
  post s.o == t.o;
}
tuple catch_up_positive {
  forall s: grow;
  exists t: pick_positive;
  pre s.o == t.o;
  post s.o == t.o;
}
";

#[test]
fn exists_code_waits_for_a_forall_loop_it_depends_on() {
    let proof = verified(SCHEDULE, "catch_up");
    assert_eq!(proof.loop_points.len(), 1);
    assert_eq!(proof.loop_points[0].loops, vec!["s@t.fe:4:3".to_string()]);
    assert!(proof.loop_points[0].invariant.contains("s.o >= old(s.o)"), "{proof:?}");
    // With k false at the start the loop adds nothing, and d >= 1 cannot match.
    let reason = unknown(SCHEDULE, "catch_up_positive", false);
    assert!(
        reason.contains(
            "closest: candidate `s.o >= old(s.o)` is an invariant of the loop at s@t.fe:4:3, \
             but after it: the postcondition fails"
        ),
        "{reason}"
    );
}

/// `fast` runs twice as often as `slow`, whose choice adds 2 per iteration.
const RATIO: &str = "
program fast {
  int i, n, o;
  i = 0; o = 0;
  while (i < n) { i = i + 1; o = o + 1; }
}
program slow {
  int j, m, o, d;
  j = 0; o = 0;
  while (j < m) { j = j + 1; d = *; o = o + d; }
}
program slow_by_one {
  int j, m, o, d;
  j = 0; o = 0;
  while (j < m) { j = j + 1; d = *; assume d <= 1; o = o + d; }
}
tuple twice {
  forall a: fast;
  exists b: slow;
  pre a.n == 2 * b.m;
  post a.o == b.o;
}
tuple twice_capped {
  forall a: fast;
  exists b: slow_by_one;
  pre a.n == 2 * b.m && a.n > 0;
  post a.o == b.o;
}
";

#[test]
fn counters_in_a_two_to_one_alignment() {
    let proof = verified(RATIO, "twice");
    let lp = proof.loop_points.iter().find(|lp| lp.loops.len() == 2).expect("aligned loops");
    assert_eq!(lp.counts, vec![2, 1]);
    assert!(lp.invariant.contains("(a.i - old(a.i)) == (2 * (b.j - old(b.j)))"), "{lp:?}");
    assert!(lp.invariant.contains("a.o == b.o"), "{lp:?}");
    // b can add at most m <= n/2 < n.
    let reason = unknown(RATIO, "twice_capped", false);
    // Alignments whose strongest initial candidate cannot make the loops exit together
    // are dropped before any consecution, so the closest failure may be a joint exit.
    assert!(reason.contains("closest: candidate `"), "{reason}");
    assert!(reason.contains("the loops at a@t.fe:5:3 and b@t.fe:15:3 run 1:1"), "{reason}");
}

/// ∃-only loops: exit by a flag the choice sets, and by a `!=` guard.
const EXISTS_LOOPS: &str = "
program set {
  int o, n;
  assume n >= 1;
  o = n;
}
program set_any {
  int o, n;
  assume n >= 0;
  o = n;
}
program spin {
  bool go; int o;
  o = 0; go = true;
  while (go) { o = o + 1; go = *; }
}
program walk {
  int x, o;
  o = 0;
  while (x != 0) { if (*) { x = x - 1; } else { x = x + 1; } o = o + 1; }
}
program fill {
  bool done; int x;
  x = 0; done = false;
  while (!done) { x = x + 1; done = *; }
}
tuple reach_ten {
  forall a: set;
  exists b: fill;
  post b.x >= 10;
}
tuple reach_ten_exactly_once {
  forall a: set;
  exists b: fill;
  post b.x >= 10 && b.x <= 1;
}
tuple count_to {
  forall a: set;
  exists b: spin;
  post a.o == b.o;
}
tuple count_to_zero {
  forall a: set_any;
  exists b: spin;
  post a.o == b.o;
}
tuple walk_home {
  forall a: set;
  exists b: walk;
  post b.x == 0;
}
tuple walk_far {
  forall a: set;
  exists b: walk;
  post b.x == 0 && b.o == 0;
}
";

#[test]
fn exists_loop_exits_when_its_flag_choice_says_so() {
    let proof = verified(EXISTS_LOOPS, "count_to");
    let lp = &proof.loop_points[0];
    assert_eq!(lp.loops, vec!["b@t.fe:15:3".to_string()]);
    assert!(lp.invariant.contains("ranking function"), "{lp:?}");
    // The loop runs at least once, so a.o == 0 cannot be matched.
    unknown(EXISTS_LOOPS, "count_to_zero", false);
}

#[test]
fn exists_loop_ranked_by_the_distance_the_postcondition_names() {
    let proof = verified(EXISTS_LOOPS, "reach_ten");
    assert!(proof.loop_points[0].invariant.contains("(10 - b.x)"), "{proof:?}");
    let reason = unknown(EXISTS_LOOPS, "reach_ten_exactly_once", false);
    // One message for the loop, not one per unrolled iteration.
    assert_eq!(reason.matches("could not be shown to exit").count(), 1, "{reason}");
}

#[test]
fn exists_loop_with_a_not_equal_guard_is_ranked_by_the_distance() {
    let proof = verified(EXISTS_LOOPS, "walk_home");
    assert!(proof.loop_points[0].invariant.contains("abs("), "{proof:?}");
    // Starting away from 0 the walk takes steps.
    unknown(EXISTS_LOOPS, "walk_far", false);
}

const WRONG_INVARIANT: &str = "
program counter {
  int c, x, n;
  c = 0;
  while (x < n) {
    x = x + 1;
    c = c + 1;
  }
}
tuple leaky {
  forall a: counter, b: counter;
  pre a.x == b.x;
  post a.c == b.c;
}
";

#[test]
fn unknown_names_the_failed_candidate_and_explain_lists_the_attempts() {
    let reason = unknown(WRONG_INVARIANT, "leaky", false);
    assert!(reason.contains("no invariant among"), "{reason}");
    assert!(reason.contains("(0 loop point(s) proved before it on this path)"), "{reason}");
    // Nothing initial relates a.n and b.n, so no candidate makes the loops end together.
    assert!(
        reason
            .contains("does not make the loops at a@t.fe:5:3 and b@t.fe:5:3 run 1:1 exit together"),
        "{reason}"
    );
    assert!(reason.contains("closest: candidate `a.x == b.x && a.c == b.c"), "{reason}");
    assert!(!reason.contains("candidates tried ("), "only with explain: {reason}");
    let explained = unknown(WRONG_INVARIANT, "leaky", true);
    assert!(explained.contains("candidates tried ("), "{explained}");
    assert!(explained.contains("a@t.fe:5:3 ×1, b@t.fe:5:3 ×1: `"), "{explained}");
}

/// Guard counters stepped by 3 and by 1 under one bound: the loops align 3:1, beyond the
/// default count bound of 2 (`loops::step_ratio`); with a bound that is not a multiple
/// of 3 the tuple is invalid and must not be verified.
const THIRDS: &str = "
program fast {
  int n, i, s;
  i = 0; s = 0;
  while (i < n) {
    s = s + 3;
    i = i + 3;
  }
}
program slow {
  int n, i, s;
  i = 0; s = 0;
  while (i < n) {
    s = s + 1;
    i = i + 1;
  }
}
tuple thirds {
  forall a: fast;
  exists b: slow;
  pre a.n == b.n && a.n >= 0 && a.n % 3 == 0;
  post a.s == b.s;
}
";

#[test]
fn loops_stepping_in_ratio_three_align_three_to_one() {
    let proof = verified(THIRDS, "thirds");
    let counts: Vec<&Vec<u32>> = proof.loop_points.iter().map(|p| &p.counts).collect();
    assert!(counts.iter().any(|c| c.contains(&3)), "{counts:?}");
    let invalid = THIRDS.replace("a.n % 3 == 0", "a.n % 3 == 1");
    assert_ne!(invalid, THIRDS);
    assert!(!matches!(run(&invalid, "thirds", false), Verdict::Verified { .. }));
}

/// Bit-vector loop counters (issue 22): stepped by literals, related across copies and
/// ranked as unsigned distances, as integer counters are. `wrap` is the invalid twin:
/// at n = 200 the ∃ copy resets its sum.
const BV_COUNTERS: &str = "
program down {
  bv8 n, i, s;
  i = n; s = #x00;
  while (i > #x00) { s = s + #x03; i = i - #x01; }
}
program up {
  bv8 n, j, s;
  j = #x00; s = #x00;
  while (j < n) { j = j + #x01; s = s + #x03; }
}
program up_reset {
  bv8 n, j, s;
  j = #x00; s = #x00;
  while (j < n) { j = j + #x01; s = s + #x03; }
  if (n == #xc8) { s = #x00; }
}
program double {
  bv8 n, i, s;
  i = #x00; s = #x00;
  while (i < n) { s = s + #x02; i = i + #x01; }
}
program once_then_double {
  bv8 n, i, s;
  i = #x00; s = #x00;
  while (i < n) { s = s + #x01; i = i + #x01; }
  s = s + s;
}
program double_wide {
  bv32 n, i, s;
  i = #x00000000; s = #x00000000;
  while (i < n) { s = s + #x00000002; i = i + #x00000001; }
}
program halved_wide {
  bv32 n, i, s;
  i = #x00000000; s = #x00000000;
  while (i < n) { s = s + #x00000004; i = i + #x00000002; }
}
tuple counts_down_as_up { forall a: down; exists b: up; pre a.n == b.n; post a.s == b.s; }
tuple wrap { forall a: down; exists b: up_reset; pre a.n == b.n; post a.s == b.s; }
tuple doubles { forall a: double; exists b: once_then_double; pre a.n == b.n; post a.s == b.s; }
tuple two_steps {
  forall a: double_wide; exists b: halved_wide;
  pre a.n == b.n && a.n < #x00001000 && (a.n & #x00000001) == #x00000000;
  post a.s == b.s;
}
tuple two_steps_odd {
  forall a: double_wide; exists b: halved_wide;
  pre a.n == b.n && a.n < #x00001000;
  post a.s == b.s;
}
";

#[test]
fn bit_vector_loop_counters_are_related_and_ranked() {
    verified(BV_COUNTERS, "counts_down_as_up");
    verified(BV_COUNTERS, "doubles");
    verified(BV_COUNTERS, "two_steps");
    unknown(BV_COUNTERS, "wrap", false);
    unknown(BV_COUNTERS, "two_steps_odd", false);
}

/// A ∀ loop that steps its counter only in branches (`if (*) { c = c + 2; } else { c =
/// c + 1; }`) still moves it one way: `c >= old(c)` lets an ∃ choice after the loop make
/// up the difference, and the same for an array index picked after the loop.
const BRANCH_STEPS: &str = "
program f { int i, n, c; c = 0; i = 0; while (i < n) { if (*) { c = c + 2; } else { c = c + 1; } i = i + 1; } }
program g { int[] t; int i, n, c; c = 0; i = 0; while (i < n) { if (*) { c = c + 1; } i = i + 1; } t[c] = 1; }
program pick { int i, n, c, d; d = *; assume d >= 0; c = d; }
program pick_positive { int i, n, c, d; d = *; assume d >= 1; c = d; }
program store { int[] t; int i, n, c, j; j = *; assume j >= 0; t[j] = 1; c = j; }
tuple catch_up { forall a: f; exists b: pick; post a.c == b.c; }
tuple catch_up_positive { forall a: f; exists b: pick_positive; post a.c == b.c; }
tuple store_at { forall a: g; exists b: store; pre a.t == b.t && a.n == b.n; post a.t == b.t && a.c == b.c; }
";

#[test]
fn counters_stepped_in_branches_are_monotone() {
    verified(BRANCH_STEPS, "catch_up");
    verified(BRANCH_STEPS, "store_at");
    unknown(BRANCH_STEPS, "catch_up_positive", false);
}

/// Loops alone that need a fact their guard and steps imply (issue 22, found by probing):
/// the bound a count-down by c leaves (`i >= 1` stepped by -1 ends at `i >= 0`), the
/// parity of a sum stepped by 2 or 4 in different branches, and a step through a
/// variable set to a literal earlier in the body (`k = 1; r = r + k;`).
const LOOPS_ALONE: &str = "
program down { int h, i; i = h; while (i >= 1) { i = i - 1; } }
program down2 { int h, i; i = h; while (i >= 2) { i = i - 2; } }
program evens { int s; s = 0; while (*) { if (*) { s = s + 2; } else { s = s + 4; } } }
program odds { int s; s = 0; while (*) { if (*) { s = s + 2; } else { s = s + 3; } } }
program even { int s; s = *; assume s % 2 == 0; }
program via { int n, k, r; r = 0; while (r < n) { k = 1; r = r + k; } }
program via2 { int n, k, r; r = 0; while (r < n) { k = 2; r = r + k; } }
tuple down_ends_at_zero { forall a: down; pre a.h >= 0; post a.i == 0; }
tuple down_ends_at_one { forall a: down; pre a.h >= 0; post a.i == 1; }
tuple down2_parity { forall a: down2; pre a.h >= 0; post a.i == a.h % 2; }
tuple down2_wrong { forall a: down2; pre a.h >= 0; post a.i == 0; }
tuple even_sums_refine { forall a: evens; exists b: even; post a.s == b.s; }
tuple odd_sums_do_not { forall a: odds; exists b: even; post a.s == b.s; }
tuple step_via_literal { forall a: via; post a.r == max(a.n, 0); }
tuple step_via_two { forall a: via2; post a.r == max(a.n, 0); }
";

#[test]
fn loops_alone_get_bounds_parity_and_literal_steps() {
    for valid in ["down_ends_at_zero", "down2_parity", "even_sums_refine", "step_via_literal"] {
        verified(LOOPS_ALONE, valid);
    }
    for invalid in ["down_ends_at_one", "down2_wrong", "odd_sums_do_not", "step_via_two"] {
        unknown(LOOPS_ALONE, invalid, false);
    }
}

#[test]
fn a_disjunctive_conjunct_of_an_invariant_is_bracketed() {
    // `a && (b || c)` printed `a && b || c` once, which reads as `(a && b) || c`.
    let proof = verified(LOOPS_ALONE, "down_ends_at_zero");
    let inv = &proof.loop_points[0].invariant;
    assert!(inv.contains("((a.i >= 0) || (a.i == old(a.i)))"), "{inv}");
}
