//! ∃ copies that choose arrays (`t = *;`, or stores of chosen values): Z3's array theory
//! is incomplete under the quantifier over the ∃ choice, so the prover tries the ∀
//! copies' arrays as witnesses first. Each valid tuple has invalid twins that must not be
//! verified.

use crate::common::fe::prove_first;
use forex::verdict::Verdict;

fn verified(src: &str) -> bool {
    matches!(prove_first(src, 30), Verdict::Verified { .. })
}

/// Both copies sum `n` elements of their array; `havoc_a` says whether a chooses its array
/// first (b always does); b adds `term` per element.
fn sums(havoc_a: bool, term: &str, pre: &str) -> String {
    let choose = |on: bool| if on { "t = *;" } else { "" };
    format!(
        "
program f {{ int[] t; int i, n, s; {} s = 0; i = 0; while (i < n) {{ s = s + t[i]; i = i + 1; }} }}
program e {{ int[] t; int i, n, s; t = *; s = 0; i = 0; while (i < n) {{ s = s + {term}; i = i + 1; }} }}
tuple t {{ forall a: f; exists b: e; pre a.n == b.n{pre}; post a.s == b.s; }}",
        choose(havoc_a)
    )
}

#[test]
fn an_exists_copy_chooses_the_array_a_forall_loop_reads() {
    assert!(verified(&sums(true, "t[i]", "")));
    assert!(verified(&sums(false, "t[i]", "")));
    assert!(!verified(&sums(true, "t[i] * t[i]", " && a.n == 1")));
    assert!(!verified(&sums(false, "t[i] + 1", " && a.n >= 1")));
}

/// ∀ fills `n` slots with chosen values one by one; ∃ picks its whole array at the end.
fn fill(range: &str) -> String {
    format!(
        "
program f {{ int[] t; int i, n, v; i = 0; while (i < n) {{ v = *; t[i] = v; i = i + 1; }} }}
program e {{ int[] t; int i, n; t = *; i = n; }}
tuple t {{ forall a: f; exists b: e; pre a.n == b.n && a.n >= 0;
  post (forall k: int :: {range} ==> a.t[k] == b.t[k]); }}"
    )
}

#[test]
fn an_exists_array_chosen_after_a_forall_loop_matches_what_it_wrote() {
    assert!(verified(&fill("0 <= k && k < a.n")));
    // Slot n was not written: its value is a's initial one, which b can copy too.
    assert!(verified(&fill("0 <= k && k <= a.n")));
}

#[test]
fn an_exists_array_cannot_match_values_it_must_differ_from() {
    // Invalid when a's slot i + 1 holds x: b's must hold it too, and must not.
    let src = "
program f { int[] t; int i, x; t[i] = x; }
program e { int[] t; int i, v; t = *; assume t[i + 1] != v; t[i] = v; }
tuple t { forall a: f; exists b: e; pre a.i == b.i && a.x == b.v; post a.t == b.t; }";
    assert!(!verified(src));
}
