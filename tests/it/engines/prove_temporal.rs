//! The temporal prover's candidate shapes (issue 12) and its vacuity warnings: one small
//! reactive tuple per shape, each argued valid by hand, next to an invalid variant the
//! prover must not verify.

use forex::cancel::Cancel;
use forex::diag::code;
use forex::frontend::{load_source, InputFormat};
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, Verdict};
use std::time::Duration;

/// The prover alone on the tuple named `name` of `src`.
fn prover(src: &str, name: &str) -> Verdict {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe)
        .unwrap_or_else(|d| panic!("does not check: {:?}", d.messages));
    let t = m.tuples.into_iter().find(|t| t.name == name).expect("tuple exists");
    let cancel = Cancel::new().with_timeout(Duration::from_secs(20));
    prove(&t, &ProveOptions::default(), &cancel).verdict
}

fn verified(src: &str, name: &str) -> Proof {
    match prover(src, name) {
        Verdict::Verified { proof } => proof,
        v => panic!("{name}: expected verified, got {v:?}"),
    }
}

fn not_verified(src: &str, name: &str) {
    match prover(src, name) {
        Verdict::Unknown { .. } => {}
        v => panic!("{name}: the prover must not decide an invalid tuple, got {v:?}"),
    }
}

/// `f` adds a constant `a` per round; `g` adds `b + 1` or `2 * b` as it chooses. With
/// `b = a - 1` and always the first branch, `g.y == f.x` at every observation; the
/// invariant needs φ one step later along that branch, `f.x + f.a == g.y + (g.b + 1)`,
/// which ties the ∃ choice `b` to the ∀ value `a`. Adding only `2 * b` fails for odd `a`.
const TIED: &str = "
program f { int x, a; x = 0; a = *; repeat { observe; x = x + a; } }
program g { int y, b; y = 0; b = *; repeat { observe; if (*) { y = y + b + 1; } else { y = y + 2 * b; } } }
program h { int y, b; y = 0; b = *; repeat { observe; y = y + 2 * b; } }
tuple tied { forall p: f; exists q: g; always p.x == q.y; }
tuple even_only { forall p: f; exists q: h; always p.x == q.y; }
";

#[test]
fn an_exists_choice_tied_to_a_forall_value_by_one_branch_is_verified() {
    let proof = verified(TIED, "tied");
    let inv = &proof.loop_points[0].invariant;
    assert!(inv.contains("(p.x + p.a) == ((q.y + q.b) + 1)"), "{inv}");
    assert!(proof.warnings.is_empty(), "{:?}", proof.warnings);
    not_verified(TIED, "even_only");
}

/// `g` adds `2 * b + 1` or `2 * b`: no single branch serves every `a`, but for odd `a`
/// the choice `b = (a - 1) / 2` with the first branch, and for even `a` the choice
/// `b = a / 2` with the second, keep `q.y == p.x`. The invariant is the disjunction
/// over the ∃ copy's branches of φ one step later. With `2 * b + 2` instead of
/// `2 * b + 1`, odd `a` cannot be matched.
const EITHER: &str = "
program f { int x, a; x = 0; a = *; repeat { observe; x = x + a; } }
program g { int y, b; y = 0; b = *; repeat { observe; if (*) { y = y + 2 * b + 1; } else { y = y + 2 * b; } } }
program h { int y, b; y = 0; b = *; repeat { observe; if (*) { y = y + 2 * b + 2; } else { y = y + 2 * b; } } }
tuple either { forall p: f; exists q: g; always p.x == q.y; }
tuple both_even { forall p: f; exists q: h; always p.x == q.y; }
";

#[test]
fn a_disjunction_over_the_exists_branches_one_step_later_is_verified() {
    let proof = verified(EITHER, "either");
    let inv = &proof.loop_points[0].invariant;
    assert!(inv.contains(" || "), "{inv}");
    not_verified(EITHER, "both_even");
}

/// hyena0's "October problem": `a` counts 0, 1, 2, … at the observations and `b` is
/// chosen once. Choosing `b = -1` keeps `a != b` at every observation; the invariant
/// needs the counter's bound `c.a >= 0` and the choice on the other side, `c.b < 0`.
/// When the ∃ copy must choose `b >= 0`, `a` reaches `b` at observation `b + 1`.
const OCTOBER: &str = "
program dummy { int z; repeat { observe; } }
program counter { int a, b; a = 0; b = *; repeat { observe; a = a + 1; } }
program counter_up { int a, b; a = 0; b = *; assume b >= 0; repeat { observe; a = a + 1; } }
program countdown { int a, b; a = 5; b = *; repeat { observe; a = a - 2; } }
tuple october { forall d: dummy; exists c: counter; always c.a != c.b; }
tuple october_down { forall d: dummy; exists c: countdown; always !(c.a == c.b); }
tuple october_up { forall d: dummy; exists c: counter_up; always c.a != c.b; }
";

#[test]
fn a_choice_on_the_other_side_of_a_monotone_counter_is_verified() {
    let inv = verified(OCTOBER, "october").loop_points[0].invariant.clone();
    assert!(inv.contains("c.a >= 0") && inv.contains("c.b < 0"), "{inv}");
    let inv = verified(OCTOBER, "october_down").loop_points[0].invariant.clone();
    assert!(inv.contains("c.a <= 5") && inv.contains("c.b > 5"), "{inv}");
    not_verified(OCTOBER, "october_up");
}

/// Vacuity: an unsatisfiable `pre`, or ∀ copies that never reach their first
/// observation, make an `always` tuple hold vacuously, and the proof says so. A ∀ copy
/// that observes once and then blocks is not vacuous.
const VACUOUS: &str = "
program ticker { int x; x = 0; repeat { observe; x = x + 1; } }
program blocked { int x; x = 0; assume x > 0; repeat { observe; x = x + 1; } }
program once { int x; x = 0; repeat { observe; assume x > 0; x = x + 1; } }
tuple bad_pre { forall a: ticker; exists b: ticker; pre a.x > b.x && b.x > a.x; always a.x == b.x; }
tuple never_observes { forall a: blocked; exists b: ticker; always a.x == b.x; }
tuple observes_once { forall a: once; exists b: ticker; always a.x == b.x; }
";

#[test]
fn vacuous_temporal_proofs_carry_a_warning() {
    let w = verified(VACUOUS, "bad_pre").warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].code, code::VACUOUS_PRE);
    let w = verified(VACUOUS, "never_observes").warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].code, code::VACUOUS_RUNS);
    assert!(w[0].message.contains("first observation"), "{}", w[0].message);
    let w = verified(VACUOUS, "observes_once").warnings;
    assert!(w.is_empty(), "{w:?}");
}
