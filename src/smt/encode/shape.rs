//! A key of a term's shape that is the same in every copy: the operand order of the
//! float abstraction's commutative functions (`add`, `mul`, C's `==`, `fma`'s product).
//!
//! The abstraction applies one uninterpreted function per operation, so `a + b` and
//! `b + a` are one term only if both are built with their operands in one order. That
//! order must not depend on which copy built the term: two copies that run the same code
//! on equal values are proved equal by congruence only when their terms have the same
//! shape. Z3's term ids do not serve: they follow creation order, so `old.b + 2.0` was
//! built as `add(b, 2.0)` and `new.b + 2.0` as `add(2.0, b)` whenever the literal was made
//! between the two copies' `b` (Numerical Recipes' `expint` against itself: `unknown` at
//! 20 s; ordered by shape, verified in 84 ms). The key hashes the term with every
//! constant read without its copy and version (`old.b#136` is `b`), so equal code gives
//! equal keys in every copy; operands whose keys tie keep the source's order.
//!
//! Any order is sound (each is one interpretation of the uninterpreted functions, see
//! the float module); the key only decides which proofs congruence finds.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use z3::ast::{Ast, Dynamic};
use z3::AstKind;

/// Memoised keys, holding their terms so that Z3 cannot reuse an id while it is here.
struct Memo {
    keys: HashMap<u32, (u64, Dynamic)>,
}

/// Cleared beyond this many terms (a long batch in one thread builds millions).
const MEMO_LIMIT: usize = 1 << 18;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo { keys: HashMap::new() });
}

fn id(d: &Dynamic) -> u32 {
    // SAFETY: a live term of its own context.
    unsafe { z3_sys::Z3_get_ast_id(d.get_ctx().get_z3_context(), d.get_z3_ast()) }
}

/// `a`, `b` in the order of their shape keys; ties keep `a` first.
pub fn ordered<'a>(a: &'a Dynamic, b: &'a Dynamic) -> (&'a Dynamic, &'a Dynamic) {
    if key(b) < key(a) {
        (b, a)
    } else {
        (a, b)
    }
}

/// The shape key of `d`.
pub fn key(d: &Dynamic) -> u64 {
    let i = id(d);
    if let Some(k) = MEMO.with(|m| m.borrow().keys.get(&i).map(|(k, _)| *k)) {
        return k;
    }
    let k = stacker::maybe_grow(64 * 1024, 1024 * 1024, || compute(d));
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.keys.len() >= MEMO_LIMIT {
            m.keys.clear();
        }
        m.keys.insert(i, (k, d.clone()));
    });
    k
}

fn compute(d: &Dynamic) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match d.kind() {
        AstKind::Numeral => d.to_string().hash(&mut h),
        AstKind::App => {
            let name = d.decl().name();
            if d.num_children() == 0 {
                without_copy(&name).hash(&mut h);
            } else {
                name.hash(&mut h);
                for c in d.children() {
                    key(&c).hash(&mut h);
                }
            }
        }
        // Quantifiers and bound variables: their kind only (ties keep the source order).
        other => (other as u32).hash(&mut h),
    }
    h.finish()
}

/// A constant's name without its copy (before the first `.`) and version (from the
/// first `#` or `@`): `old.b#136` and `new.b@3` are `b`.
fn without_copy(name: &str) -> &str {
    let rest = name.split_once('.').map_or(name, |(_, r)| r);
    rest.split(['#', '@']).next().unwrap_or(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;

    #[test]
    fn copies_of_one_computation_have_one_key() {
        let (ob, nb) = (Int::new_const("old.b#3"), Int::new_const("new.b#17"));
        let two = Int::from_i64(2);
        let old: Dynamic = (&ob + &two).into();
        let new: Dynamic = (&nb + &two).into();
        assert_eq!(key(&old), key(&new));
        let other: Dynamic = (&Int::new_const("new.c#4") + &two).into();
        assert_ne!(key(&old), key(&other));
    }

    #[test]
    fn operands_are_ordered_alike_in_every_copy() {
        let lit: Dynamic = Int::from_i64(2).into();
        let ob: Dynamic = Int::new_const("old.b#3").into();
        let nb: Dynamic = Int::new_const("new.b#17").into();
        let first = |a: &Dynamic, b: &Dynamic| key(ordered(a, b).0);
        assert_eq!(first(&ob, &lit), first(&lit, &nb));
        assert_eq!(first(&lit, &ob), first(&nb, &lit));
        // Ties keep the source order.
        let (x, _) = ordered(&ob, &nb);
        assert_eq!(x.to_string(), ob.to_string());
    }

    #[test]
    fn names_lose_copy_and_version_only() {
        assert_eq!(without_copy("old.b#136"), "b");
        assert_eq!(without_copy("right.L@0"), "L");
        assert_eq!(without_copy("a.f::x#2"), "f::x");
        assert_eq!(without_copy("ufp.double.3ff0"), "double.3ff0");
        assert_eq!(without_copy("plain"), "plain");
    }
}
