//! ∃ choices that must anticipate what a loop does (prophecy): an ∃ copy whose count is
//! matched against a ∀ loop that runs alone first, and one that picks its count `k`
//! before a loop that must run in lockstep with a ∀ loop whose count is chosen as it
//! runs. Each valid tuple has invalid twins that the prover must not verify.

use crate::common::fe::prove_first;
use forex::verdict::Verdict;

fn assert_verified(src: &str) {
    let v = prove_first(src, 60);
    assert!(matches!(v, Verdict::Verified { .. }), "expected verified, got {v:?}");
}

/// Invalid twins: the prover's search over ~140 candidates takes ~45 s to give up on
/// them; 15 s of it is enough to catch a wrong proof among the likely candidates.
fn assert_not_verified(src: &str) {
    let v = prove_first(src, 15);
    assert!(matches!(v, Verdict::Unknown { .. }), "expected unknown, got {v:?}");
}

/// ∀ adds 3 a chosen number of times; ∃ picks how often it adds `step` before its loop.
fn count_after(step: &str, least: &str) -> String {
    format!(
        "
program loop3 {{
  int s; bool c;
  c = *;
  while (c) {{ s = s + 3; c = *; }}
}}
program counted {{
  int s, i, k;
  k = *;
  assume k >= {least};
  i = 0;
  while (i < k) {{ i = i + 1; s = s + {step}; }}
}}
tuple t {{
  forall a: loop3;
  exists b: counted;
  pre a.s == b.s;
  post a.s == b.s;
}}"
    )
}

#[test]
fn an_exists_count_matches_a_forall_loop_by_residue_and_growth() {
    // Needs `(a.s - old(a.s)) % 3 == 0` of a loop whose counter is not its guard, and an
    // invariant of the ∃ loop that holds for every count (not only for k = 0).
    assert_verified(&count_after("3", "0"));
    assert_not_verified(&count_after("2", "0"));
    assert_not_verified(&count_after("3", "1"));
}

/// ∀ adds x a chosen number of times; ∃ picks its count k first (no residue to read: the
/// loops must run in lockstep, and k must be the ∀ loop's count).
fn count_before(step: &str, least: &str, tail: &str) -> String {
    format!(
        "
program accf {{
  int s, x; bool c;
  c = *;
  while (c) {{ s = s + x; c = *; }}
}}
program acce {{
  int s, x, i, k;
  k = *;
  assume k >= {least};
  i = 0;
  while (i < k) {{ i = i + 1; s = s + {step}; }}
  {tail}
}}
tuple t {{
  forall a: accf;
  exists b: acce;
  pre a.s == b.s && a.x == b.x;
  post a.s == b.s;
}}"
    )
}

#[test]
fn an_exists_count_chosen_up_front_is_decided_at_each_loop_head() {
    assert_verified(&count_before("x", "0", ""));
    // k read after the loop is k == i there.
    assert_verified(&count_before("x", "0", "s = s + k - i;"));
    assert_not_verified(&count_before("x", "1", ""));
    assert_not_verified(&count_before("x + 1", "0", ""));
    assert_not_verified(&count_before("x", "0", "s = s + k;"));
}

#[test]
fn a_count_that_the_loop_body_reads_is_not_rewritten_unsoundly() {
    // The body reads k, so deciding at each head would change what it computes; whatever
    // the prover does, this invalid tuple (b adds k each time) must not be verified.
    assert_not_verified(&count_before("k", "0", ""));
}

/// The ∃ copy counts its chosen k down to 0; k is read after the loop in `tail`.
fn count_down(step: &str, least: &str, tail: &str) -> String {
    format!(
        "
program accf {{
  int s, x, k; bool c;
  c = *;
  while (c) {{ s = s + x; c = *; }}
  k = 0;
}}
program acce {{
  int s, x, k;
  k = *;
  assume k >= {least};
  while (k > 0) {{ s = s + {step}; k = k - 1; }}
  {tail}
}}
tuple t {{
  forall a: accf;
  exists b: acce;
  pre a.s == b.s && a.x == b.x;
  post a.s == b.s && a.k == b.k;
}}"
    )
}

#[test]
fn an_exists_count_down_chosen_up_front_is_decided_at_each_loop_head() {
    assert_verified(&count_down("x", "0", ""));
    assert_not_verified(&count_down("x", "1", ""));
    assert_not_verified(&count_down("x + 1", "0", ""));
    // k is 0 after the loop, as in the original.
    assert_not_verified(&count_down("x", "0", "k = k + 1;"));
}
