//! Proving temporal (`always`) tuples for every n (issue 11, item 4): observation-point
//! alignment with a relational invariant (`prove/temporal.rs`), and sequential tuples
//! (one `observe;` at the end) proved as their `post` tuple (`observation::sequential`).
//! Every tuple verified here is argued valid by hand in its comment; the invalid ones
//! must never be verified.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, UnknownReason, Verdict};
use std::time::Duration;

fn tuples(src: &str) -> Vec<Tuple> {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Auto)
        .unwrap_or_else(|d| panic!("does not check: {:?}", d.messages));
    m.tuples
}

/// The prover alone on the tuple named `name`.
fn prover(src: &str, name: &str) -> Verdict {
    let t = tuples(src).into_iter().find(|t| t.name == name).expect("tuple exists");
    let cancel = Cancel::new().with_timeout(Duration::from_secs(20));
    prove(&t, &ProveOptions::default(), &cancel).verdict
}

fn verified(src: &str, name: &str) -> Proof {
    match prover(src, name) {
        Verdict::Verified { proof } => proof,
        v => panic!("{name}: expected verified, got {v:?}"),
    }
}

fn not_verified(src: &str, name: &str) -> UnknownReason {
    match prover(src, name) {
        Verdict::Unknown { reason } => reason,
        v => panic!("{name}: the prover must not decide an invalid tuple, got {v:?}"),
    }
}

/// A server whose output depends on the request and its own counter only. With equal
/// counters at the start, both copies' counters stay equal, so equal requests give
/// equal outputs at every observation (invariant `a.count == b.count`).
const SERVER: &str = "
program server {
  int req, secret, out, count;
  secret = *; out = 0;
  repeat {
    req = *;
    out = req * 2 + count;
    count = count + 1;
    observe;
  }
}
tuple od {
  forall a: server, b: server;
  pre a.count == b.count;
  always a.req == b.req ==> a.out == b.out;
}
tuple od_unequal_start {
  forall a: server, b: server;
  always a.req == b.req ==> a.out == b.out;
}
program leaky {
  int req, secret, out;
  secret = *;
  repeat { req = *; out = req + secret; observe; }
}
tuple leaks {
  forall a: leaky, b: leaky;
  always a.req == b.req ==> a.out == b.out;
}
";

#[test]
fn observational_determinism_of_a_server_is_verified_with_its_invariant() {
    let proof = verified(SERVER, "od");
    let point = &proof.loop_points[0];
    assert_eq!(point.counts, vec![1, 1]);
    assert!(point.loops.iter().all(|l| l.ends_with("(observation)")), "{:?}", point.loops);
    assert!(point.loops[0].starts_with("a@t.fe:9:"), "{:?}", point.loops);
    assert_eq!(point.invariant, "((a.req == b.req) ==> (a.out == b.out)) && a.count == b.count");
}

#[test]
fn a_server_leaking_its_secret_or_started_apart_is_not_verified() {
    // `leaks`: equal requests, different secrets give different outputs at observation 1.
    let reason = not_verified(SERVER, "leaks");
    assert_eq!(reason.kind(), "not_proved", "{reason}");
    assert!(reason.to_string().contains("first observation"), "{reason}");
    // Counters that start apart: the outputs differ whenever the requests agree.
    not_verified(SERVER, "od_unequal_start");
}

/// GNI over observations: `o = l + r - h` with a fresh pad `r` each round. For any
/// ∀ runs a, b, the ∃ copy c takes a's secret, b's low input, and the pad
/// `r = b.o - b.l + a.h`, so its output equals b's at every observation.
const PAD: &str = "
program pad {
  int h, l, o, r;
  repeat { h = *; l = *; r = *; o = l + r - h; observe; }
}
tuple gni {
  forall a: pad, b: pad;
  exists c: pad;
  always c.h == a.h && c.l == b.l && c.o == b.o;
}
program nopad {
  int h, l, o;
  repeat { h = *; l = *; o = l - h; observe; }
}
tuple gni_leak {
  forall a: nopad, b: nopad;
  exists c: nopad;
  always c.h == a.h && c.l == b.l && c.o == b.o;
}
";

#[test]
fn generalized_noninterference_over_observations_is_verified() {
    let proof = verified(PAD, "gni");
    assert_eq!(proof.loop_points[0].counts, vec![1, 1, 1]);
    assert!(proof.loop_points[0].invariant.starts_with("c.h == a.h && c.l == b.l && c.o == b.o"));
    // Without the pad, c.o = b.l - a.h differs from b.o when the secrets differ.
    not_verified(PAD, "gni_leak");
}

/// An implementation adding 1 or 2 per round refines a spec adding any d in 0..3: the
/// spec copy picks d = the implementation's increment (invariant `a.x == s.x`). The
/// converse fails: the spec may add 0 or 3, which the implementation cannot match.
const REFINE: &str = "
program impl { int x; x = 0; repeat { observe; if (*) { x = x + 1; } else { x = x + 2; } } }
program spec {
  int x, d;
  x = 0;
  repeat { observe; d = *; assume d >= 0 && d <= 3; x = x + d; }
}
tuple refines {
  forall a: impl;
  exists s: spec;
  always a.x == s.x;
}
tuple refines_not {
  forall s: spec;
  exists a: impl;
  always a.x == s.x;
}
program stuck { int x; x = 0; repeat { observe; assume x < 0; } }
tuple never {
  forall a: impl;
  exists s: spec;
  always a.x == s.x && false;
}
tuple spec_blocks {
  forall a: impl;
  exists s: stuck;
  always true;
}
";

#[test]
fn refinement_by_a_nondeterministic_spec_is_verified_and_its_converse_is_not() {
    let proof = verified(REFINE, "refines");
    assert_eq!(proof.loop_points[0].invariant, "a.x == s.x");
    let reason = not_verified(REFINE, "refines_not");
    assert_eq!(reason.kind(), "no_invariant", "{reason}");
    // A `false` conjunct is never dropped from the invariant.
    not_verified(REFINE, "never");
    // An ∃ copy that blocks before its 2nd observation is no witness, even for `true`.
    not_verified(REFINE, "spec_blocks");
}

/// A ∀ copy that stops observing has nothing more to check: `a` leaves its loop when
/// `x` reaches 3, and until then `x` counts the observations like `b`'s `x`.
#[test]
fn a_forall_copy_that_stops_observing_needs_nothing_more() {
    let src = "
program upto { int x; x = 0; while (x < 3) { observe; x = x + 1; } }
program forever { int x; x = 0; repeat { observe; x = x + 1; } }
tuple stops {
  forall a: upto;
  exists b: forever;
  always a.x == b.x && a.x < 3;
}
tuple exists_stops {
  forall b: forever;
  exists a: upto;
  always a.x == b.x;
}";
    verified(src, "stops");
    // The ∃ copy would have to observe a 4th time, which `upto` never does.
    not_verified(src, "exists_stops");
}

/// Inner loops between observations go through the ordinary loop rules: each round
/// adds a ∀-chosen `n` to `s` by counting; the ∃ copy picks the same `n`, and the two
/// counting loops run in step (invariant `a.i == b.i && a.s == b.s && a.n == b.n`).
#[test]
fn inner_loops_between_observations_are_aligned() {
    let src = "
program sum {
  int n, s, i;
  s = 0;
  repeat {
    n = *; assume n >= 0; i = 0;
    while (i < n) { s = s + 1; i = i + 1; }
    observe;
  }
}
tuple same_sums {
  forall a: sum;
  exists b: sum;
  always a.s == b.s;
}";
    let proof = verified(src, "same_sums");
    assert_eq!(proof.loop_points.len(), 3, "the observation point and the inner loop points");
}

/// `always` over programs without `observe;` is `post`; so is a program observing once,
/// at its end. Both keep the `post` prover's verdicts.
#[test]
fn always_without_observations_or_with_one_at_the_end_is_post() {
    let src = "
program inc { int x, y; y = x + 1; }
program inc_obs { int x, y; y = x + 1; observe; }
tuple plain {
  forall a: inc;
  exists b: inc;
  pre a.x == b.x;
  always a.y == b.y;
}
tuple at_end {
  forall a: inc_obs;
  exists b: inc_obs;
  pre a.x == b.x;
  always a.y == b.y;
}
tuple at_end_invalid {
  forall a: inc_obs;
  exists b: inc_obs;
  always a.y == b.y + 1;
}";
    for name in ["plain", "at_end"] {
        let proof = verified(src, name);
        assert!(proof.loop_points.is_empty(), "{name}: the post prover's exact loop-free proof");
    }
    let reason = not_verified(src, "at_end_invalid");
    assert_eq!(reason.kind(), "not_proved", "{reason}");
}

/// φ one step later is a candidate: `x += a` matches `y += 2 * b` for every n when the
/// ∃ copy picks `a = 2 * b` at the start (invariant `x == y && x + a == y + 2 * b`);
/// the other way round, an odd `a` cannot be matched by `2 * b`.
#[test]
fn the_property_one_step_later_relates_the_steps() {
    let src = "
program add { int x, a; x = 0; a = *; repeat { observe; x = x + a; } }
program add2 { int y, b; y = 0; b = *; repeat { observe; y = y + 2 * b; } }
tuple doubled {
  forall d: add2;
  exists s: add;
  always s.x == d.y;
}
tuple halved {
  forall s: add;
  exists d: add2;
  always s.x == d.y;
}";
    let proof = verified(src, "doubled");
    assert_eq!(proof.loop_points[0].invariant, "s.x == d.y && (s.x + s.a) == (d.y + (2 * d.b))");
    not_verified(src, "halved");
}
