//! The prover on hand-built tuples with loops, shaped like the ForEx benchmarks (they
//! run without the front end): verdicts, and the proof's loop points.

use crate::common::build::*;
use forex::cancel::Cancel;
use forex::ir::{BinOp, Expr, Program, Quantifier, Tuple, Type};
use forex::prove::{prove, ProveOptions};
use forex::verdict::{Proof, Verdict};
use std::time::Duration;

const A: Quantifier = Quantifier::Forall;
const E: Quantifier = Quantifier::Exists;

fn int(n: i64) -> Expr {
    Expr::int(n)
}
fn add(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, a, b)
}
fn sub(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Sub, a, b)
}
fn mul(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Mul, a, b)
}
fn gt(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Gt, a, b)
}

fn run(t: &Tuple) -> Verdict {
    let out =
        prove(t, &ProveOptions::default(), &Cancel::new().with_timeout(Duration::from_secs(60)));
    eprintln!("{}: {:?} {:?}", t.name, out.verdict, out.stats);
    out.verdict
}

fn verified(t: &Tuple) -> Proof {
    match run(t) {
        Verdict::Verified { proof } => proof,
        v => panic!("expected verified, got {v:?}"),
    }
}

fn not_verified(t: &Tuple) -> String {
    match run(t) {
        Verdict::Unknown { reason } => reason.to_string(),
        v => panic!("expected unknown, got {v:?}"),
    }
}

/// `a = 0; x = *; while (t > 0) { t = t - 1; a = a + x; }`
fn counter() -> Program {
    let p = Prog::new("counter", &[("a", Type::Int), ("x", Type::Int), ("t", Type::Int)]);
    let body = vec![
        p.assign("a", int(0)),
        p.havoc("x"),
        while_(
            gt(p.v("t"), int(0)),
            vec![p.assign("t", sub(p.v("t"), int(1))), p.assign("a", add(p.v("a"), p.v("x")))],
        ),
    ];
    p.body(body)
}

#[test]
fn counter_diff_needs_a_parameter_chosen_before_the_loop() {
    // ∃ picks x = -x_a before the loop; consecution needs that same choice.
    let p = counter();
    let mut t = tuple(
        &[("a", &p, A), ("b", &p, E)],
        |t| eqs(t, "a", "b", &["t"]),
        |t| Expr::eq(tv(t, "a", "a"), un(forex::ir::UnOp::Neg, tv(t, "b", "a"))),
    );
    let proof = verified(&t);
    assert_eq!(proof.loop_points.len(), 1);
    assert_eq!(proof.loop_points[0].loops.len(), 2);
    // a.a == b.a + 1 is not valid (t = 0 gives 0 == 1).
    t.post = Expr::eq(tv(&t, "a", "a"), add(tv(&t, "b", "a"), int(1)));
    not_verified(&t);
}

#[test]
fn counter_sum_with_two_forall_copies() {
    let p = counter();
    let t = tuple(
        &[("a", &p, A), ("b", &p, A), ("c", &p, E)],
        |t| and(eqs(t, "a", "b", &["t"]), eqs(t, "b", "c", &["t"])),
        |t| Expr::eq(tv(t, "c", "a"), add(tv(t, "a", "a"), tv(t, "b", "a"))),
    );
    verified(&t);
}

/// `o = 0; while (x > 0) { x = x - 1; s = *; o = o + s; }`
fn asynch() -> Program {
    let p = Prog::new("asynch", &[("o", Type::Int), ("x", Type::Int), ("s", Type::Int)]);
    let body = vec![
        p.assign("o", int(0)),
        while_(
            gt(p.v("x"), int(0)),
            vec![
                p.assign("x", sub(p.v("x"), int(1))),
                p.havoc("s"),
                p.assign("o", add(p.v("o"), p.v("s"))),
            ],
        ),
    ];
    p.body(body)
}

#[test]
fn asynch_gni_chooses_inside_the_loop() {
    let p = asynch();
    let t = tuple(
        &[("a", &p, A), ("b", &p, E)],
        |t| eqs(t, "a", "b", &["x"]),
        |t| eqs(t, "a", "b", &["o"]),
    );
    verified(&t);
    // Swapped quantifiers of a deterministic-output claim: ∀∀ o equal is invalid.
    let t = tuple(
        &[("a", &p, A), ("b", &p, A)],
        |t| eqs(t, "a", "b", &["x"]),
        |t| eqs(t, "a", "b", &["o"]),
    );
    not_verified(&t);
}

#[test]
fn fig2_needs_counts_and_a_mined_linear_relation() {
    // x = 1; y = 2*x; while (y > 0) { y--; x = 2*x }  vs  x = 1; y = x; while (y > 0) { y--; x = 4*x }
    let mk = |k: i64, factor: i64| {
        let p = Prog::new("p", &[("x", Type::Int), ("y", Type::Int)]);
        let body = vec![
            p.assign("x", int(1)),
            p.assign("y", mul(int(k), p.v("x"))),
            while_(
                gt(p.v("y"), int(0)),
                vec![
                    p.assign("y", sub(p.v("y"), int(1))),
                    p.assign("x", mul(int(factor), p.v("x"))),
                ],
            ),
        ];
        p.body(body)
    };
    let (p0, p1) = (mk(2, 2), mk(1, 4));
    let t = tuple(
        &[("a", &p0, A), ("b", &p1, A)],
        |t| eqs(t, "a", "b", &["x"]),
        |t| eqs(t, "a", "b", &["x"]),
    );
    let proof = verified(&t);
    assert_eq!(proof.loop_points[0].counts, vec![2, 1]);
    assert!(proof.loop_points[0].invariant.contains("a.y == (2 * b.y)"), "{:?}", proof);
}

#[test]
fn sequential_loops_and_a_parameter_after_the_first() {
    // paper_example_fig3: ∀: x = *; t = *; while (t) { t = *; x++ }; y = x; while (y > 0) { y--; a += x }
    //                      ∃: x = *; y = x; while (y > 0) { y--; a += x }
    let p =
        Prog::new("p", &[("x", Type::Int), ("t", Type::Bool), ("y", Type::Int), ("a", Type::Int)]);
    let second = |p: &Prog| {
        while_(
            gt(p.v("y"), int(0)),
            vec![p.assign("y", sub(p.v("y"), int(1))), p.assign("a", add(p.v("a"), p.v("x")))],
        )
    };
    let body = vec![
        p.havoc("x"),
        p.havoc("t"),
        while_(p.v("t"), vec![p.havoc("t"), p.assign("x", add(p.v("x"), int(1)))]),
        p.assign("y", p.v("x")),
        second(&p),
    ];
    let p0 = p.body(body);
    let q = Prog::new("q", &[("x", Type::Int), ("y", Type::Int), ("a", Type::Int)]);
    let body = vec![q.havoc("x"), q.assign("y", q.v("x")), second(&q)];
    let p1 = q.body(body);
    let t = tuple(
        &[("a", &p0, A), ("b", &p1, E)],
        |t| eqs(t, "a", "b", &["a"]),
        |t| eqs(t, "a", "b", &["y"]),
    );
    let proof = verified(&t);
    assert_eq!(proof.loop_points.len(), 2);
}

#[test]
fn branches_with_loops_split_and_commit() {
    // refine: if (*) { x = 0; c = 0; while (t > 0) { t--; x++ } }
    //         else   { x = 0; c = 1; while (t > 0) { t--; s = *; x = x + s } }
    // post: a.c == 0 ==> (b.c == 1 && a.x == b.x)
    let p =
        Prog::new("p", &[("x", Type::Int), ("c", Type::Int), ("t", Type::Int), ("s", Type::Int)]);
    let dec = p.assign("t", sub(p.v("t"), int(1)));
    let body = vec![if_star(
        vec![
            p.assign("x", int(0)),
            p.assign("c", int(0)),
            while_(gt(p.v("t"), int(0)), vec![dec.clone(), p.assign("x", add(p.v("x"), int(1)))]),
        ],
        vec![
            p.assign("x", int(0)),
            p.assign("c", int(1)),
            while_(
                gt(p.v("t"), int(0)),
                vec![dec, p.havoc("s"), p.assign("x", add(p.v("x"), p.v("s")))],
            ),
        ],
    )];
    let p = p.body(body);
    let t = tuple(
        &[("a", &p, A), ("b", &p, E)],
        |t| eqs(t, "a", "b", &["t"]),
        |t| {
            bin(
                BinOp::Implies,
                Expr::eq(tv(t, "a", "c"), int(0)),
                and(Expr::eq(tv(t, "b", "c"), int(1)), eqs(t, "a", "b", &["x"])),
            )
        },
    );
    verified(&t);
}

#[test]
fn nested_forall_loop_inside_an_aligned_loop() {
    // compiler_opt2: ∀: o = 0; while (time > 0) { time--; t = *; while (t > 0) { t--; s = *; o += s } }
    //                ∃: o = 0; while (time > 0) { time--; s = *; o += s }
    let p = Prog::new(
        "p",
        &[("o", Type::Int), ("time", Type::Int), ("t", Type::Int), ("s", Type::Int)],
    );
    let body = vec![
        p.assign("o", int(0)),
        while_(
            gt(p.v("time"), int(0)),
            vec![
                p.assign("time", sub(p.v("time"), int(1))),
                p.havoc("t"),
                while_(
                    gt(p.v("t"), int(0)),
                    vec![
                        p.assign("t", sub(p.v("t"), int(1))),
                        p.havoc("s"),
                        p.assign("o", add(p.v("o"), p.v("s"))),
                    ],
                ),
            ],
        ),
    ];
    let p0 = p.body(body);
    let q = Prog::new("q", &[("o", Type::Int), ("time", Type::Int), ("s", Type::Int)]);
    let body = vec![
        q.assign("o", int(0)),
        while_(
            gt(q.v("time"), int(0)),
            vec![
                q.assign("time", sub(q.v("time"), int(1))),
                q.havoc("s"),
                q.assign("o", add(q.v("o"), q.v("s"))),
            ],
        ),
    ];
    let p1 = q.body(body);
    let t = tuple(
        &[("a", &p0, A), ("b", &p1, E)],
        |t| eqs(t, "a", "b", &["time"]),
        |t| eqs(t, "a", "b", &["o"]),
    );
    verified(&t);
}

#[test]
fn exists_only_loop_must_be_avoided_by_the_choice() {
    // TS_GNI_hFT-like: ∀: x = *;  ∃: x = *; if (x >= l) skip else while (true) skip;  post a.x == b.x
    let p = Prog::new("p", &[("l", Type::Int), ("x", Type::Int)]);
    let body = vec![p.havoc("x"), assume(bin(BinOp::Ge, p.v("x"), p.v("l")))];
    let p0 = p.body(body);
    let q = Prog::new("q", &[("l", Type::Int), ("x", Type::Int)]);
    let body = vec![
        q.havoc("x"),
        if_(bin(BinOp::Ge, q.v("x"), q.v("l")), vec![], vec![while_(Expr::bool(true), vec![])]),
    ];
    let p1 = q.body(body);
    let t = tuple(
        &[("a", &p0, A), ("b", &p1, E)],
        |t| eqs(t, "a", "b", &["l"]),
        |t| eqs(t, "a", "b", &["x"]),
    );
    verified(&t);
    // Without the ∀ copy's assume, a.x < l has no terminating ∃ match.
    let p0 = Prog::new("p", &[("l", Type::Int), ("x", Type::Int)]);
    let p0 = {
        let h = p0.havoc("x");
        p0.body(vec![h])
    };
    let t = tuple(
        &[("a", &p0, A), ("b", &p1, E)],
        |t| eqs(t, "a", "b", &["l"]),
        |t| eqs(t, "a", "b", &["x"]),
    );
    not_verified(&t);
}
