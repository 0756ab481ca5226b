//! Sequential temporal tuples: every copy observes once, at its end (hyena0's `orhle/`
//! queries). For them `always φ` means exactly `post φ`, so the ordinary prover and
//! refuter decide them.
//!
//! Why this is exact (LANGUAGE.md, finite-prefix semantics). Suppose every copy's body
//! is either observe-free (it observes once, when it terminates) or ends in a top-level
//! `observe;` with no other `observe;` anywhere. Then each run has at most one
//! observation, and that observation is the final state: the `observe;` is the last
//! statement, so a run reaches it exactly when the rest of the body terminates, and
//! nothing changes the state after it.
//! - n = 1: "for all ∀ runs reaching their 1st observation, some ∃ runs reach theirs with
//!   φ" is "for all terminating ∀ runs, some terminating ∃ runs satisfy φ in their final
//!   states": `post φ`.
//! - n ≥ 2: no ∀ copy has a 2nd observation, so there is no ∀ n-prefix and nothing to
//!   check. This needs at least one ∀ copy: with none, the ∃ copies would have to show a
//!   2nd observation, which they cannot, so such tuples are left to the other engines.

use crate::ir::{has_observe, PropertyKind, Quantifier, Stmt, Tuple};

/// Whether `tuple` is an `always` tuple whose copies observe at most once, at their end,
/// with at least one ∀ copy (see the module comment for why it then means `post`).
pub fn observes_once_at_end(tuple: &Tuple) -> bool {
    tuple.kind == PropertyKind::Always
        && tuple.copies.iter().any(|c| c.quantifier == Quantifier::Forall)
        && tuple.copies.iter().all(|c| match c.body.split_last() {
            Some((Stmt::Observe { .. }, before)) => !has_observe(before),
            _ => !has_observe(&c.body),
        })
}

/// The `post` tuple with the same meaning, when [`observes_once_at_end`] holds. Under
/// `post`, `observe;` is `skip` (ir.rs), so the bodies stay as they are.
pub fn as_post_tuple(tuple: &Tuple) -> Option<Tuple> {
    observes_once_at_end(tuple).then(|| Tuple { kind: PropertyKind::Post, ..tuple.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuple(src: &str) -> Tuple {
        let fe = crate::frontend::InputFormat::Fe;
        let m = crate::frontend::load_inline("t.fe", src.as_bytes(), fe).expect("parses");
        m.tuples.into_iter().next().expect("one tuple")
    }

    const HEADER: &str = "program p { int x; x = *; BODY }\n";

    fn with(body: &str, quants: &str) -> Tuple {
        tuple(&format!("{}tuple t {{ {quants} always a.x == e.x; }}", HEADER.replace("BODY", body)))
    }

    #[test]
    fn final_observe_is_sequential() {
        let t = with("x = x + 1; observe;", "forall a: p; exists e: p;");
        assert!(observes_once_at_end(&t));
        assert_eq!(as_post_tuple(&t).expect("sequential").kind, PropertyKind::Post);
    }

    #[test]
    fn observe_in_a_loop_or_twice_is_not() {
        let looped = with("while (x > 0) { observe; x = x - 1; }", "forall a: p; exists e: p;");
        assert!(!observes_once_at_end(&looped));
        let twice = with("observe; x = x + 1; observe;", "forall a: p; exists e: p;");
        assert!(!observes_once_at_end(&twice));
        let not_last = with("observe; x = x + 1;", "forall a: p; exists e: p;");
        assert!(!observes_once_at_end(&not_last));
    }

    #[test]
    fn no_forall_copy_is_not() {
        let t = with("observe;", "exists a: p; exists e: p;");
        assert!(!observes_once_at_end(&t));
    }
}
