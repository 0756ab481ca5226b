//! The brute-force oracle on hand-written tuples with known answers, and sanity checks of
//! the random tuple generator (decidable, well-typed, a mix of valid and invalid).

use crate::common::brute::{decide, Answer};
use crate::common::build::*;
use forex::ir::{BinOp::*, Quantifier::*, Tuple, Type, UnOp};
use forex::value::Value;

fn valid(t: &Tuple) -> bool {
    decide(t).expect("tuple in the oracle's fragment").is_valid()
}

/// `bool`/`bv` program `p { bv4 h, l, o; o = <out>; }`.
fn hlo(out: &str) -> forex::ir::Program {
    let p = Prog::new("p", &[("h", bv(4)), ("l", bv(4)), ("o", bv(4))]);
    let s = p.assign("o", p.v(out));
    p.body(vec![s])
}

fn ni(p: &forex::ir::Program) -> Tuple {
    tuple(
        &[("a", p, Forall), ("b", p, Forall)],
        |t| eqs(t, "a", "b", &["l"]),
        |t| eqs(t, "a", "b", &["o"]),
    )
}

fn gni(p: &forex::ir::Program) -> Tuple {
    tuple(
        &[("a", p, Forall), ("b", p, Forall), ("c", p, Exists)],
        |t| and(eqs(t, "a", "c", &["l"]), eqs(t, "b", "c", &["h"])),
        |t| eqs(t, "a", "c", &["o"]),
    )
}

#[test]
fn non_interference_of_a_copy_of_the_low_input_is_valid() {
    assert!(valid(&ni(&hlo("l"))));
}

#[test]
fn non_interference_of_a_copy_of_the_high_input_is_invalid_with_a_witness() {
    let Some(Answer::Invalid(w)) = decide(&ni(&hlo("h"))) else { panic!("expected invalid") };
    // The witness satisfies pre (equal l) and shows different outputs from different h.
    assert_eq!(w.initial[0]["l"], w.initial[1]["l"]);
    assert_ne!(w.initial[0]["h"], w.initial[1]["h"]);
    assert_eq!(w.forall_finals.len(), 2);
    assert_ne!(w.forall_finals[0]["o"], w.forall_finals[1]["o"]);
    assert_eq!(w.forall_finals[0]["o"], w.initial[0]["h"]);
}

fn masked(order_havoc_first: bool) -> forex::ir::Program {
    let p = Prog::new("p", &[("h", bv(3)), ("l", bv(3)), ("o", bv(3)), ("r", bv(3))]);
    let mix = p.assign("o", bin(BitXor, p.v("h"), p.v("r")));
    let havoc = p.havoc("r");
    p.body(if order_havoc_first { vec![havoc, mix] } else { vec![mix, havoc] })
}

#[test]
fn gni_of_a_fresh_one_time_pad_is_valid_but_ni_is_not() {
    assert!(valid(&gni(&masked(true))));
    assert!(!valid(&ni(&masked(true))));
}

#[test]
fn gni_with_the_pad_drawn_after_use_is_invalid() {
    // `o = h ^ r; r = *;`: the ∃ copy's initial r is universally quantified, not chosen.
    assert!(!valid(&gni(&masked(false))));
}

#[test]
fn gni_with_a_pad_of_restricted_range_is_invalid() {
    let p = Prog::new("p", &[("h", bv(3)), ("l", bv(3)), ("o", bv(3)), ("r", bv(3))]);
    let body = vec![
        p.havoc("r"),
        assume(bin(Lt, p.v("r"), lit(2, 3))),
        p.assign("o", bin(BitXor, p.v("h"), p.v("r"))),
    ];
    assert!(!valid(&gni(&p.body(body))));
}

fn doubler() -> forex::ir::Program {
    // o = 0; while (c != 0) { c = c - 1; o = o + 2; }  computes o = 2 * c (mod 16).
    let p = Prog::new("d", &[("c", bv(4)), ("o", bv(4))]);
    let body = vec![
        p.assign("o", lit(0, 4)),
        while_(
            bin(Ne, p.v("c"), lit(0, 4)),
            vec![
                p.assign("c", bin(Sub, p.v("c"), lit(1, 4))),
                p.assign("o", bin(Add, p.v("o"), lit(2, 4))),
            ],
        ),
    ];
    p.body(body)
}

#[test]
fn a_loop_computes_its_function_exactly() {
    let d = doubler();
    let det = tuple(
        &[("a", &d, Forall), ("b", &d, Forall)],
        |t| eqs(t, "a", "b", &["c"]),
        |t| eqs(t, "a", "b", &["o"]),
    );
    assert!(valid(&det));
    // o is always even: no run ends with an odd o.
    let even = tuple(
        &[("a", &d, Forall)],
        |_| forex::ir::Expr::bool(true),
        |t| forex::ir::Expr::eq(extract(0, 0, tv(t, "a", "o")), lit(0, 1)),
    );
    assert!(valid(&even));
    // But o is not always 0 mod 4.
    let four = tuple(
        &[("a", &d, Forall)],
        |_| forex::ir::Expr::bool(true),
        |t| forex::ir::Expr::eq(extract(1, 0, tv(t, "a", "o")), lit(0, 2)),
    );
    assert!(!valid(&four));
}

#[test]
fn an_exists_copy_without_a_terminating_run_refutes_even_post_true() {
    // while (c == 0) { skip; } never terminates from c == 0: for that initial state the
    // ∃ copy has no terminating run at all.
    let p = Prog::new("p", &[("c", bv(3))]);
    let cond = bin(Eq, p.v("c"), lit(0, 3));
    let spin = p.body(vec![while_(cond, vec![forex::ir::Stmt::Skip])]);
    let t = tuple(
        &[("a", &spin, Forall), ("b", &spin, Exists)],
        |_| forex::ir::Expr::bool(true),
        |_| forex::ir::Expr::bool(true),
    );
    let Some(Answer::Invalid(w)) = decide(&t) else { panic!("expected invalid") };
    assert_eq!(w.initial[1]["c"], Value::bv(0, 3));
    // With pre excluding it, valid; and as a ∀ copy the diverging runs are vacuous.
    let t2 = tuple(
        &[("a", &spin, Forall), ("b", &spin, Exists)],
        |t| bin(Ne, tv(t, "b", "c"), lit(0, 3)),
        |t| eqs(t, "a", "b", &["c"]),
    );
    assert!(!valid(&t2), "b.c is universally quantified; it need not equal a.c");
    let t3 = tuple(
        &[("a", &spin, Forall), ("b", &spin, Exists)],
        |t| and(bin(Ne, tv(t, "b", "c"), lit(0, 3)), eqs(t, "a", "b", &["c"])),
        |t| eqs(t, "a", "b", &["c"]),
    );
    assert!(valid(&t3));
}

#[test]
fn an_assume_in_the_exists_copy_restricts_its_choices() {
    let low = hlo("l");
    let p = Prog::new("q", &[("h", bv(4)), ("l", bv(4)), ("o", bv(4))]);
    let body = vec![p.havoc("o"), assume(bin(Ne, p.v("o"), lit(0, 4)))];
    let pick = p.body(body);
    let t = tuple(
        &[("a", &low, Forall), ("b", &pick, Exists)],
        |_| forex::ir::Expr::bool(true),
        |t| eqs(t, "a", "b", &["o"]),
    );
    let Some(Answer::Invalid(w)) = decide(&t) else { panic!("expected invalid") };
    assert_eq!(w.forall_finals[0]["o"], Value::bv(0, 4));
    let t2 = tuple(
        &[("a", &low, Forall), ("b", &pick, Exists)],
        |t| bin(Ne, tv(t, "a", "l"), lit(0, 4)),
        |t| eqs(t, "a", "b", &["o"]),
    );
    assert!(valid(&t2));
}

#[test]
fn a_forall_copy_that_always_blocks_makes_the_tuple_vacuously_valid() {
    let p = Prog::new("p", &[("o", bv(4))]);
    let blocked = p.body(vec![assume(forex::ir::Expr::bool(false))]);
    let t = tuple(
        &[("a", &blocked, Forall)],
        |_| forex::ir::Expr::bool(true),
        |_| forex::ir::Expr::bool(false),
    );
    assert!(valid(&t));
}

#[test]
fn refinement_by_a_nondeterministic_spec_is_valid_and_not_the_reverse() {
    let imp = Prog::new("impl", &[("x", bv(4)), ("r", Type::Bool)]);
    let s = imp.assign("r", bin(Gt, imp.v("x"), lit(3, 4)));
    let imp = imp.body(vec![s]);
    let spec = Prog::new("spec", &[("x", bv(4)), ("r", Type::Bool)]);
    let (t1, t2) = (
        spec.assign("r", forex::ir::Expr::bool(true)),
        spec.assign("r", forex::ir::Expr::bool(false)),
    );
    let spec = spec.body(vec![if_star(vec![t1], vec![t2])]);
    let refines = |i: &forex::ir::Program, s: &forex::ir::Program| {
        tuple(
            &[("a", i, Forall), ("b", s, Exists)],
            |t| eqs(t, "a", "b", &["x"]),
            |t| eqs(t, "a", "b", &["r"]),
        )
    };
    assert!(valid(&refines(&imp, &spec)));
    assert!(!valid(&refines(&spec, &imp)));
}

#[test]
fn hypro_p1_shape_is_invalid() {
    // ∀ copy: o = 11; if (h[0:0] == 1) { o = ~o } else { o = ~o & (h | ~h) }  → o = 00.
    // ∃ copy: the same but the else branch flips o again → o = 11 when h is even; the ∃
    // copy's h is universally quantified, so it cannot pick an odd h.
    let mk = |flip: bool| {
        let p =
            Prog::new(if flip { "e" } else { "f" }, &[("o", bv(2)), ("h", bv(2)), ("l", bv(2))]);
        let not_o = un(UnOp::BitNot, p.v("o"));
        let mut els = vec![p.assign(
            "o",
            bin(BitAnd, not_o.clone(), bin(BitOr, p.v("h"), un(UnOp::BitNot, p.v("h")))),
        )];
        if flip {
            els.push(p.assign("o", un(UnOp::BitNot, p.v("o"))));
        }
        let body = vec![
            p.assign("o", lit(3, 2)),
            if_(
                forex::ir::Expr::eq(extract(0, 0, p.v("h")), lit(1, 1)),
                vec![p.assign("o", not_o)],
                els,
            ),
        ];
        p.body(body)
    };
    let (f, e) = (mk(false), mk(true));
    let t = tuple(
        &[("a", &f, Forall), ("b", &e, Exists)],
        |t| eqs(t, "a", "b", &["l"]),
        |t| eqs(t, "a", "b", &["o"]),
    );
    let Some(Answer::Invalid(w)) = decide(&t) else { panic!("expected invalid") };
    assert_eq!(w.forall_finals[0]["o"], Value::bv(0, 2));
}

#[test]
fn bit_vector_edge_semantics_follow_ir_rs() {
    // One copy, post checks each operator's result on fixed inputs.
    let cases: Vec<(forex::ir::Expr, u128)> = vec![
        (bin(Div, lit(9, 4), lit(0, 4)), 15), // x / 0 == all ones
        (bin(Mod, lit(9, 4), lit(0, 4)), 9),  // x % 0 == x
        (bin(Div, lit(9, 4), lit(2, 4)), 4),
        (bin(Mod, lit(9, 4), lit(4, 4)), 1),
        (bin(Shl, lit(3, 4), lit(2, 4)), 12),
        (bin(Shl, lit(3, 4), lit(4, 4)), 0), // shift amount ≥ width
        (bin(Shr, lit(12, 4), lit(3, 4)), 1),
        (bin(Shr, lit(12, 4), lit(9, 4)), 0),
        (bin(Add, lit(9, 4), lit(9, 4)), 2), // wrapping
        (bin(Sub, lit(2, 4), lit(3, 4)), 15),
        (bin(Mul, lit(5, 4), lit(7, 4)), 3),
        (un(UnOp::Neg, lit(1, 4)), 15),
        (un(UnOp::BitNot, lit(5, 4)), 10),
        (ite(bin(Lt, lit(15, 4), lit(1, 4)), lit(1, 4), lit(2, 4)), 2), // unsigned order
    ];
    for (e, expected) in cases {
        let prog = Prog::new("p", &[("x", bv(4))]);
        let s = prog.assign("x", e.clone());
        let prog = prog.body(vec![s]);
        let good = tuple(
            &[("a", &prog, Forall)],
            |_| forex::ir::Expr::bool(true),
            |t| forex::ir::Expr::eq(tv(t, "a", "x"), lit(expected, 4)),
        );
        assert!(valid(&good), "{e:?} should be {expected}");
        let bad = tuple(
            &[("a", &prog, Forall)],
            |_| forex::ir::Expr::bool(true),
            |t| forex::ir::Expr::eq(tv(t, "a", "x"), lit((expected + 1) % 16, 4)),
        );
        assert!(!valid(&bad));
    }
    // Extraction of bits 2..1 of 0b0110 is 0b11.
    let prog = Prog::new("p", &[("x", bv(2))]);
    let s = prog.assign("x", extract(2, 1, lit(6, 4)));
    let prog = prog.body(vec![s]);
    let t = tuple(
        &[("a", &prog, Forall)],
        |_| forex::ir::Expr::bool(true),
        |t| forex::ir::Expr::eq(tv(t, "a", "x"), lit(3, 2)),
    );
    assert!(valid(&t));
}

#[test]
fn unsupported_tuples_get_no_answer() {
    let p = Prog::new("p", &[("x", Type::Int)]);
    let p = p.body(vec![]);
    let t = tuple(
        &[("a", &p, Forall)],
        |_| forex::ir::Expr::bool(true),
        |_| forex::ir::Expr::bool(true),
    );
    assert!(decide(&t).is_none());
    let q = Prog::new("q", &[("x", bv(8))]).body(vec![]);
    let t = tuple(
        &[("a", &q, Forall)],
        |_| forex::ir::Expr::bool(true),
        |_| forex::ir::Expr::bool(true),
    );
    assert!(decide(&t).is_none(), "bv8 variables are outside the fragment");
}

fn text(s: &str) -> forex::ir::Expr {
    forex::ir::Expr { kind: forex::ir::ExprKind::Str(s.into()), ty: Type::Str }
}

/// `e == "l1" || e == "l2" || …`: a finite domain the oracle enumerates.
fn one_of(e: forex::ir::Expr, lits: &[&str]) -> forex::ir::Expr {
    let eqs = lits.iter().map(|l| forex::ir::Expr::eq(e.clone(), text(l)));
    eqs.reduce(|a, b| bin(Or, a, b)).unwrap()
}

/// `string s, o; o = concat(s, "b");`
fn append_b() -> forex::ir::Program {
    let p = Prog::new("p", &[("s", Type::Str), ("o", Type::Str)]);
    let s = p.assign("o", bin(Concat, p.v("s"), text("b")));
    p.body(vec![s])
}

/// `string r; r = *; assume r == "ab" || r == "aab";`
fn pick() -> forex::ir::Program {
    let p = Prog::new("q", &[("r", Type::Str)]);
    let body = vec![p.havoc("r"), assume(one_of(p.v("r"), &["ab", "aab"]))];
    p.body(body)
}

#[test]
fn string_tuples_with_bounded_inputs_are_decided_with_string_witnesses() {
    let (p, q) = (append_b(), pick());
    let det = tuple(
        &[("a", &p, Forall), ("b", &p, Forall)],
        |t| and(eqs(t, "a", "b", &["s"]), one_of(tv(t, "a", "s"), &["", "a", "ab"])),
        |t| eqs(t, "a", "b", &["o"]),
    );
    assert!(valid(&det));
    // The ∃ copy must pick `a.s ++ "b"`: it can for "a" and "aa" but not for "".
    let witness = |inputs: &'static [&'static str]| {
        tuple(
            &[("a", &p, Forall), ("b", &q, Exists)],
            move |t| one_of(tv(t, "a", "s"), inputs),
            |t| forex::ir::Expr::eq(tv(t, "b", "r"), tv(t, "a", "o")),
        )
    };
    assert!(valid(&witness(&["a", "aa"])));
    let Some(Answer::Invalid(w)) = decide(&witness(&["a", "", "aa"])) else {
        panic!("expected invalid")
    };
    assert_eq!(w.initial[0]["s"], Value::Str { value: String::new() });
    assert_eq!(w.forall_finals[0]["o"], Value::Str { value: "b".into() });
    // Lengths: `len(o) == len(s) + 1` always.
    let len = |e| forex::ir::Expr {
        ty: Type::Int,
        kind: forex::ir::ExprKind::Unary(UnOp::StrLen, Box::new(e)),
    };
    let grows = tuple(
        &[("a", &p, Forall)],
        |t| one_of(tv(t, "a", "s"), &["", "ba"]),
        |t| {
            forex::ir::Expr::eq(
                len(tv(t, "a", "o")),
                bin(Add, len(tv(t, "a", "s")), forex::ir::Expr::int(1)),
            )
        },
    );
    assert!(valid(&grows));
}

#[test]
fn unbounded_strings_are_outside_the_oracles_fragment() {
    let p = append_b();
    // The input string is read but ranges over all strings.
    let free = tuple(
        &[("a", &p, Forall), ("b", &p, Forall)],
        |t| eqs(t, "a", "b", &["s"]),
        |t| eqs(t, "a", "b", &["o"]),
    );
    assert_eq!(decide(&free), None);
    // `r = *` with no `assume` bounding it.
    let q = Prog::new("q", &[("r", Type::Str)]);
    let h = q.havoc("r");
    let any = q.body(vec![h]);
    let t = tuple(
        &[("a", &any, Forall)],
        |_| forex::ir::Expr::bool(true),
        |_| forex::ir::Expr::bool(true),
    );
    assert_eq!(decide(&t), None);
}
