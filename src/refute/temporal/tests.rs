//! Reactive refutation on hand-built IR (independent of the front end).

use super::refute;
use crate::cancel::Cancel;
use crate::ir::*;
use crate::refute::testkit::*;
use crate::verdict::Verdict;
use std::time::Duration;

fn observe() -> Stmt {
    Stmt::Observe { loc: loc(8) }
}
fn forever(body: Block) -> Stmt {
    while_(Expr::bool(true), body)
}
fn int() -> Type {
    Type::Int
}

/// `x = *; y = 0; repeat { observe; if (*) y = y + 1 else y = y + x }`.
fn counter() -> Program {
    let p = P::new("counter", &[("x", int()), ("y", int())]);
    let body = vec![
        p.havoc("x"),
        p.assign("y", Expr::int(0)),
        forever(vec![
            observe(),
            star(
                vec![p.assign("y", bin(BinOp::Add, p.v("y"), Expr::int(1)))],
                vec![p.assign("y", bin(BinOp::Add, p.v("y"), p.v("x")))],
            ),
        ]),
    ];
    p.body(body)
}

/// `x = *; y = 0; repeat { observe; y = y + 1 }`.
fn ticker() -> Program {
    let p = P::new("ticker", &[("x", int()), ("y", int())]);
    let body = vec![
        p.havoc("x"),
        p.assign("y", Expr::int(0)),
        forever(vec![observe(), p.assign("y", bin(BinOp::Add, p.v("y"), Expr::int(1)))]),
    ];
    p.body(body)
}

fn always(mut t: Tuple, bound: u32) -> Tuple {
    t.kind = PropertyKind::Always;
    t.observations = Some(bound);
    assert!(t.is_reactive());
    t
}

fn run(t: &Tuple) -> Verdict {
    refute(t, None, &Cancel::new().with_timeout(Duration::from_secs(60))).verdict
}

#[test]
fn od_counter_is_never_violated() {
    let (p, q) = (counter(), counter());
    let t = tuple(
        &[
            ("a", &p, Quantifier::Forall),
            ("b", &p, Quantifier::Forall),
            ("c", &q, Quantifier::Exists),
        ],
        |v| eq(v("a", "x"), v("c", "x")),
        |v| bin(BinOp::Or, eq(v("a", "y"), v("c", "y")), eq(v("b", "y"), v("c", "y"))),
    );
    match run(&always(t, 4)) {
        Verdict::Unknown { reason } => {
            assert!(
                reason.to_string().contains("no violation with up to 4 observations"),
                "{reason}"
            )
        }
        v => panic!("expected unknown, got {v:?}"),
    }
}

/// `--unroll N` ends the search on a tuple without an `observations` bound: prefixes of
/// at most N observations (without it, only the time limit does).
#[test]
fn an_unrolling_bound_also_bounds_the_prefixes() {
    let (p, q) = (counter(), counter());
    let mut t = tuple(
        &[("a", &p, Quantifier::Forall), ("c", &q, Quantifier::Exists)],
        |v| eq(v("a", "x"), v("c", "x")),
        |v| eq(v("a", "y"), v("c", "y")),
    );
    t.kind = PropertyKind::Always;
    assert!(t.is_reactive() && t.observations.is_none());
    let out = refute(&t, Some(3), &Cancel::new().with_timeout(Duration::from_secs(600)));
    match out.verdict {
        Verdict::Unknown { reason } => {
            let text = reason.to_string();
            assert!(text.contains("no violation with up to 3 observations"), "{text}");
            assert!(!text.contains("time limit"), "{text}");
        }
        v => panic!("expected unknown, got {v:?}"),
    }
}

#[test]
fn ticker_does_not_refine_counter_at_observation_3() {
    let (p, q) = (counter(), ticker());
    let t = tuple(
        &[("a", &p, Quantifier::Forall), ("c", &q, Quantifier::Exists)],
        |v| eq(v("a", "x"), v("c", "x")),
        |v| eq(v("a", "y"), v("c", "y")),
    );
    let Verdict::Violated { counterexample } = run(&always(t, 5)) else {
        panic!("expected violated")
    };
    let obs = counterexample.observations.clone().expect("observation trace");
    // y is 0 at observation 1 and 1 or x at 2: a differs from c at 2 only when x != 1.
    assert_eq!(obs.failing_index, 2);
    let a = &obs.copies["a"];
    assert_eq!(a.len(), 2);
    assert_ne!(a[1]["y"], crate::value::Value::int(1));
    assert!(obs.infinite_extension);
    let json = serde_json::to_value(&counterexample).unwrap();
    assert_eq!(json["copies"][0]["choices"].as_array().unwrap().len(), 2, "x = *, one if (*)");
    assert_eq!(json["observations"]["failing_index"], 2);
    assert_eq!(json["observations"]["copies"]["a"][0]["y"]["value"], "0");
}

/// hyena0's `escalating` against `max-diff` (our-benchmarks), with `max` starting at
/// `start`: `y` outgrows any `max` that gains at most 1 per step.
fn escalating(start: i64) -> Tuple {
    let p = P::new("escalating", &[("x", int()), ("y", int()), ("t", int())]);
    let two = Expr::int(2);
    let body = vec![
        p.assign("x", Expr::int(0)),
        p.assign("y", Expr::int(0)),
        forever(vec![
            observe(),
            ite_stmt(
                eq(bin(BinOp::Mod, p.v("x"), two.clone()), Expr::int(0)),
                vec![p.assign("y", bin(BinOp::Add, p.v("y"), Expr::int(1)))],
                vec![p.assign("y", bin(BinOp::Add, p.v("y"), p.v("x")))],
            ),
            p.havoc("t"),
            assume(bin(
                BinOp::And,
                bin(BinOp::Ge, p.v("t"), Expr::int(1)),
                bin(BinOp::Le, p.v("t"), two),
            )),
            p.assign("x", bin(BinOp::Add, p.v("x"), p.v("t"))),
        ]),
    ];
    let p = p.body(body);
    let q = P::new("max_diff", &[("max", int())]);
    let body = vec![
        q.assign("max", Expr::int(start)),
        forever(vec![
            observe(),
            star(vec![q.assign("max", bin(BinOp::Add, q.v("max"), Expr::int(1)))], vec![]),
        ]),
    ];
    let q = q.body(body);
    let t = tuple(
        &[("a", &p, Quantifier::Forall), ("c", &q, Quantifier::Exists)],
        |_| Expr::bool(true),
        |v| bin(BinOp::Le, v("a", "y"), v("c", "max")),
    );
    always(t, 12)
}

#[test]
fn escalating_is_violated_and_replayed() {
    let Verdict::Violated { counterexample } = run(&escalating(15)) else {
        panic!("expected violated")
    };
    let obs = counterexample.observations.expect("observation trace");
    assert!(obs.failing_index <= 7, "hyena0's file bounds it by 7: {}", obs.failing_index);
    assert!(obs.infinite_extension);
}

#[test]
fn escalating_far_counterexample_is_found() {
    // The best ∀ run has y = 65 at observation 10 and 50 at 9; max ≤ 55 + 9 and ≥ 55 + 8.
    let Verdict::Violated { counterexample } = run(&escalating(55)) else {
        panic!("expected violated")
    };
    assert_eq!(counterexample.observations.unwrap().failing_index, 10);
}

/// An ∃ copy that may postpone its observation forever: "no ∃ prefix" is not provable.
#[test]
fn unbounded_silent_exists_loop_is_unknown() {
    let p = ticker();
    let q = P::new("lazy", &[("x", int()), ("y", int())]);
    let body = vec![q.assign("y", Expr::int(5)), forever(vec![star(vec![observe()], vec![])])];
    let q = q.body(body);
    let t = tuple(
        &[("a", &p, Quantifier::Forall), ("c", &q, Quantifier::Exists)],
        |_| Expr::bool(true),
        |v| eq(v("a", "y"), v("c", "y")),
    );
    match run(&always(t, 2)) {
        Verdict::Unknown { reason } => assert!(reason.to_string().contains("may loop"), "{reason}"),
        v => panic!("expected unknown, got {v:?}"),
    }
}

/// A bounded silent ∃ loop (it exits within 3 iterations) does not stop the search.
#[test]
fn bounded_silent_exists_loop_still_refutes() {
    let p = counter();
    let q = P::new("slow", &[("x", int()), ("y", int()), ("i", int())]);
    let body = vec![
        q.havoc("x"),
        q.assign("y", Expr::int(0)),
        forever(vec![
            observe(),
            q.assign("i", Expr::int(0)),
            while_(
                bin(BinOp::Lt, q.v("i"), Expr::int(3)),
                vec![q.assign("i", bin(BinOp::Add, q.v("i"), Expr::int(1)))],
            ),
            q.assign("y", bin(BinOp::Add, q.v("y"), Expr::int(1))),
        ]),
    ];
    let q = q.body(body);
    let t = tuple(
        &[("a", &p, Quantifier::Forall), ("c", &q, Quantifier::Exists)],
        |v| eq(v("a", "x"), v("c", "x")),
        |v| eq(v("a", "y"), v("c", "y")),
    );
    let Verdict::Violated { counterexample } = run(&always(t, 3)) else {
        panic!("expected violated")
    };
    assert_eq!(counterexample.observations.unwrap().failing_index, 2);
}

/// `escalating` starts whose first counterexample is at observation n = 4..=10.
pub const ESCALATING_STARTS: [(u32, i64); 7] =
    [(4, 1), (5, 5), (6, 11), (7, 19), (8, 29), (9, 41), (10, 55)];

/// The scaling curve (times are printed, never asserted):
/// `cargo test --release --lib refute::temporal::tests::escalating_curve -- --ignored --nocapture`.
#[test]
#[ignore = "prints timing; for manual inspection"]
fn escalating_curve() {
    for (n, start) in ESCALATING_STARTS {
        let t0 = std::time::Instant::now();
        let v = run(&escalating(start));
        let Verdict::Violated { counterexample } = v else { panic!("n = {n}: {v:?}") };
        assert_eq!(counterexample.observations.unwrap().failing_index, n);
        eprintln!("n = {n:2}: {:?}", t0.elapsed());
    }
}
