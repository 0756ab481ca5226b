//! ∃ loops that steer (issue 33 item 2): an ∃ copy's loop whose exit flag it chooses
//! must end at a target the ∀ copy computed (a ranking towards the target, the flag
//! tied to it), and an ∃ copy that branches on its own unconstrained input (no choice:
//! both sides proved). Each valid tuple has an invalid twin that must not be verified.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, Verdict};
use std::time::Duration;

fn run(src: &str, name: &str) -> Verdict {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe)
        .unwrap_or_else(|d| panic!("does not load: {d:?}"));
    let t = m.tuples.into_iter().find(|t| t.name == name).expect("tuple");
    let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
    prove(&t, &ProveOptions::default(), &cancel).verdict
}

fn verified(src: &str, name: &str) -> Proof {
    match run(src, name) {
        Verdict::Verified { proof } => proof,
        v => panic!("{name}: expected verified, got {v:?}"),
    }
}

fn not_verified(src: &str, name: &str) {
    if let Verdict::Verified { proof } = run(src, name) {
        panic!("{name}: an invalid tuple was verified: {proof:?}")
    }
}

/// GNI where the high path clamps a guess and the low path counts up by coin flips
/// (an `int` flag with a `!= 0` guard): the ∃ copy flips 1 until it reaches the ∀ copy's
/// result, then 0.
const COUNT_UP: &str = "
program clamp_or_count {
  int low, high, x, r, ret;
  if (high != 0) {
    x = *;
    if (x < low) { x = low; }
  } else {
    x = low;
    r = *;
    assume r == 0 || r == 1;
    while (r != 0) {
      x = x + 1;
      r = *;
      assume r == 0 || r == 1;
    }
  }
  ret = x;
}
program clamp_or_count_down {
  int low, high, x, r, ret;
  if (high != 0) {
    x = *;
    if (x < low) { x = low; }
  } else {
    x = low;
    r = *;
    assume r == 0 || r == 1;
    while (r != 0) {
      x = x - 1;
      r = *;
      assume r == 0 || r == 1;
    }
  }
  ret = x;
}
tuple gni_count_up {
  forall a: clamp_or_count;
  exists b: clamp_or_count;
  pre a.low == b.low && a.high != 0 && b.high == 0;
  post a.ret == b.ret;
}
tuple gni_count_down {
  forall a: clamp_or_count_down;
  exists b: clamp_or_count_down;
  pre a.low == b.low && a.high != 0 && b.high == 0;
  post a.ret == b.ret;
}
";

#[test]
fn an_exists_loop_flips_its_flag_until_it_reaches_the_forall_result() {
    let proof = verified(COUNT_UP, "gni_count_up");
    let ranked = proof.loop_points.iter().find(|lp| lp.invariant.contains("ranking function"));
    let lp = ranked.unwrap_or_else(|| panic!("no ranked loop point: {proof:?}"));
    assert!(lp.invariant.contains("a.ret - b.x") || lp.invariant.contains("a.x - b.x"), "{lp:?}");
    // Counting down from low cannot reach a result above it.
    not_verified(COUNT_UP, "gni_count_down");
}

/// Both branches loop down to 0; which one runs depends on `high`, an input the
/// precondition leaves free in the ∃ copy too: the ∃ copy does not choose it.
const TWO_WAYS_DOWN: &str = "
program two_ways_down {
  int low, high, x, r;
  x = low;
  if (high != 0) {
    while (x > 0) {
      r = *;
      assume r >= 1;
      if (r >= x) { x = 0; } else { x = x - r; }
    }
  } else {
    while (x > 0) { x = x - 1; }
  }
}
program two_ways_down_bad {
  int low, high, x, r;
  x = low;
  if (high != 0) {
    while (x > 0) {
      r = *;
      assume r >= 1;
      if (r >= x) { x = 0; } else { x = x - r; }
    }
  } else {
    while (x > 1) { x = x - 1; }
  }
}
tuple both_reach_zero {
  forall a: two_ways_down;
  exists b: two_ways_down;
  pre a.low == b.low && a.low >= 0;
  post a.x == b.x;
}
tuple one_stops_at_one {
  forall a: two_ways_down_bad;
  exists b: two_ways_down_bad;
  pre a.low == b.low && a.low >= 0;
  post a.x == b.x;
}
";

#[test]
fn an_exists_copy_branching_on_its_free_input_proves_both_sides() {
    verified(TWO_WAYS_DOWN, "both_reach_zero");
    // With low = 2 and b.high == 0 the ∃ copy stops at 1 while a reaches 0.
    not_verified(TWO_WAYS_DOWN, "one_stops_at_one");
}
