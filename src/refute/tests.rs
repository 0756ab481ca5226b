//! Refuter tests on hand-built IR.

use super::exists::{exists_run, ExistsAnswer};
use super::testkit::*;
use super::*;
use crate::ir::{BinOp, Expr, Quantifier::*, Type};
use crate::value::Value;

/// A fixed bound: these tests run without a time limit.
fn opts() -> RefuteOptions {
    RefuteOptions { max_unroll: Some(8), ..RefuteOptions::default() }
}

/// The refuter's exhaustive-search proof of `t`.
fn exhaustive(t: &Tuple) -> crate::verdict::ExhaustiveSearch {
    match refute(t, &opts(), &Cancel::new()).verdict {
        Verdict::Verified { proof } => proof.exhaustive.expect("an exhaustive-search proof"),
        other => panic!("expected verified, got {other:?}"),
    }
}

fn counterexample(t: &Tuple) -> Counterexample {
    match refute(t, &opts(), &Cancel::new()).verdict {
        Verdict::Violated { counterexample } => {
            // Whatever the refuter reports must replay on its own.
            replay_counterexample(t, &counterexample, &Cancel::new()).expect("replays");
            counterexample
        }
        other => panic!("expected violated, got {other:?}"),
    }
}

fn unknown_reason(t: &Tuple) -> String {
    match refute(t, &opts(), &Cancel::new()).verdict {
        Verdict::Unknown { reason } => reason.to_string(),
        other => panic!("expected unknown, got {other:?}"),
    }
}

/// `o = h` (leaks) or `o = l` (does not).
fn leak(leaks: bool) -> crate::ir::Program {
    let p = P::new("leak", &[("h", Type::Int), ("l", Type::Int), ("o", Type::Int)]);
    let src = if leaks { p.v("h") } else { p.v("l") };
    let s = p.assign("o", src);
    p.body(vec![s])
}

fn ni(p: &crate::ir::Program) -> Tuple {
    tuple(
        &[("a", p, Forall), ("b", p, Forall)],
        |v| eq(v("a", "l"), v("b", "l")),
        |v| eq(v("a", "o"), v("b", "o")),
    )
}

#[test]
fn k_safety_leak_is_refuted_with_a_replayable_counterexample() {
    let t = ni(&leak(true));
    let cex = counterexample(&t);
    assert_eq!(cex.copies.len(), 2);
    let a = &cex.copies[0];
    let b = &cex.copies[1];
    assert_eq!(a.initial["l"], b.initial["l"]);
    assert_ne!(a.final_state.as_ref().unwrap()["o"], b.final_state.as_ref().unwrap()["o"]);
    assert_eq!(cex.violated_conjunct.as_deref(), Some("a.o == b.o"));
    assert!(cex.explanation.contains("violate post"), "{}", cex.explanation);
}

#[test]
fn k_safety_non_leak_is_verified_by_exhaustive_search() {
    let proof = exhaustive(&ni(&leak(false)));
    assert_eq!((proof.unroll, proof.forall_paths), (1, 1));
}

/// The example of ../shared/DESIGN.md:
/// `r = *; assume 0 <= r < 100; if (r == 50) o = h + l else o = l`.
fn design_leak() -> crate::ir::Program {
    let p =
        P::new("leak", &[("h", Type::Int), ("l", Type::Int), ("o", Type::Int), ("r", Type::Int)]);
    let body = vec![
        p.havoc("r"),
        assume(bin(
            BinOp::And,
            bin(BinOp::Le, Expr::int(0), p.v("r")),
            bin(BinOp::Lt, p.v("r"), Expr::int(100)),
        )),
        ite_stmt(
            eq(p.v("r"), Expr::int(50)),
            vec![p.assign("o", bin(BinOp::Add, p.v("h"), p.v("l")))],
            vec![p.assign("o", p.v("l"))],
        ),
    ];
    p.body(body)
}

fn gni(p: &crate::ir::Program) -> Tuple {
    tuple(
        &[("a", p, Forall), ("b", p, Forall), ("c", p, Exists)],
        |v| bin(BinOp::And, eq(v("a", "l"), v("c", "l")), eq(v("b", "h"), v("c", "h"))),
        |v| eq(v("a", "o"), v("c", "o")),
    )
}

#[test]
fn gni_violation_with_exists_choices_is_refuted() {
    let t = gni(&design_leak());
    let cex = counterexample(&t);
    let a = &cex.copies[0];
    // a must take the leaking branch (r = 50) with h ≠ 0 and h ≠ b.h.
    assert_eq!(a.choices, vec![Value::int(50)]);
    assert_ne!(a.initial["h"], Value::int(0));
    assert_ne!(a.initial["h"], cex.copies[1].initial["h"]);
    assert!(cex.copies[2].final_state.is_none());
    assert!(cex.explanation.contains("∃ copy c"), "{}", cex.explanation);
    assert_eq!(cex.violated_conjunct.as_deref(), Some("a.o == c.o"));
}

#[test]
fn gni_valid_when_exists_copy_can_choose_any_output() {
    let p = P::new("any", &[("h", Type::Int), ("l", Type::Int), ("o", Type::Int)]);
    let s = p.havoc("o");
    let t = gni(&p.body(vec![s]));
    // Loop-free: one ∀ path (a and b), matched by the ∃ copy's choice.
    let proof = exhaustive(&t);
    assert_eq!((proof.unroll, proof.forall_paths), (1, 1));
}

/// `i = 0; while (i < n) { i = i + 1; } o = i` with `n` secret: leaks through the loop.
fn counting(step_secret: bool) -> crate::ir::Program {
    let p =
        P::new("count", &[("n", Type::Int), ("l", Type::Int), ("i", Type::Int), ("o", Type::Int)]);
    let bound = if step_secret { p.v("n") } else { p.v("l") };
    let body = vec![
        p.assign("i", Expr::int(0)),
        while_(
            bin(BinOp::Lt, p.v("i"), bound),
            vec![p.assign("i", bin(BinOp::Add, p.v("i"), Expr::int(1)))],
        ),
        p.assign("o", p.v("i")),
    ];
    p.body(body)
}

#[test]
fn leak_through_a_loop_is_refuted() {
    let t = ni(&counting(true));
    let cex = counterexample(&t);
    assert_ne!(cex.copies[0].initial["n"], cex.copies[1].initial["n"]);
}

#[test]
fn loop_without_leak_is_not_refuted_and_search_is_bounded() {
    let reason = unknown_reason(&ni(&counting(false)));
    assert!(reason.contains("unrolled up to 8 times (raise `--unroll`"), "{reason}");
}

/// impl: `o = x`; spec: `o = 0; while (o < x) o = o + 1;` (they differ for x < 0).
fn copy_and_count_up() -> (crate::ir::Program, crate::ir::Program) {
    let imp = P::new("imp", &[("x", Type::Int), ("o", Type::Int)]);
    let s = imp.assign("o", imp.v("x"));
    let imp = imp.body(vec![s]);
    let spec = P::new("spec", &[("x", Type::Int), ("o", Type::Int)]);
    let body = vec![
        spec.assign("o", Expr::int(0)),
        while_(
            bin(BinOp::Lt, spec.v("o"), spec.v("x")),
            vec![spec.assign("o", bin(BinOp::Add, spec.v("o"), Expr::int(1)))],
        ),
    ];
    let spec = spec.body(body);
    (imp, spec)
}

/// The ∃ loop must be covered by the bound before a path counts as refuted.
#[test]
fn refinement_with_exists_loop_needs_bound_coverage() {
    let (imp, spec) = copy_and_count_up();
    let t = tuple(
        &[("a", &imp, Forall), ("b", &spec, Exists)],
        |v| eq(v("a", "x"), v("b", "x")),
        |v| eq(v("a", "o"), v("b", "o")),
    );
    let cex = counterexample(&t);
    let x = cex.copies[0].initial["x"].as_int().unwrap().clone();
    assert!(x < 0.into(), "only negative inputs differ, got {x}");
    assert!(cex.explanation.contains("at most"), "{}", cex.explanation);
}

#[test]
fn exists_copy_that_never_terminates_is_refuted() {
    // ∃ copy: `while (true) skip;` — no terminating run, so no ∀ outcome has an ∃ run:
    // the loop's summary (guard false on exit) is infeasible.
    let e = P::new("e", &[("x", Type::Int)]);
    let e = e.body(vec![while_(Expr::bool(true), vec![crate::ir::Stmt::Skip])]);
    let f = P::new("f", &[("x", Type::Int)]);
    let f = f.body(vec![]);
    let t =
        tuple(&[("a", &f, Forall), ("b", &e, Exists)], |_| Expr::bool(true), |_| Expr::bool(true));
    counterexample(&t);
    let state = vec![Value::int(0), Value::int(0)];
    assert!(matches!(exists_run(&t, &state, &Cancel::new()), ExistsAnswer::NoRun { .. }));
}

/// ∃: `c = *; while (c) { s = s - 1; c = *; }` can only lower `s`; the summary
/// (`s <= s₀`, proved inductive) shows it never reaches the ∀ copy's `s = 1`.
#[test]
fn exists_loop_beyond_the_bound_is_summarised_to_refute() {
    let f = P::new("f", &[("s", Type::Int), ("c", Type::Bool)]);
    let s1 = f.assign("s", Expr::int(1));
    let f = f.body(vec![s1]);
    let e = P::new("e", &[("s", Type::Int), ("c", Type::Bool)]);
    let body = vec![
        e.assign("s", Expr::int(0)),
        e.havoc("c"),
        while_(
            e.v("c"),
            vec![e.assign("s", bin(BinOp::Sub, e.v("s"), Expr::int(1))), e.havoc("c")],
        ),
    ];
    let e = e.body(body);
    let t = tuple(
        &[("a", &f, Forall), ("b", &e, Exists)],
        |_| Expr::bool(true),
        |v| eq(v("a", "s"), v("b", "s")),
    );
    let cex = counterexample(&t);
    assert!(cex.explanation.contains("loop summary"), "{}", cex.explanation);
    // Reachable targets are valid: the one ∀ run is matched by an exact ∃ run within the
    // bound (0 iterations, 5 iterations), so the search is a proof.
    for target in [0, -5] {
        let f = P::new("f", &[("s", Type::Int), ("c", Type::Bool)]);
        let st = f.assign("s", Expr::int(target));
        let f = f.body(vec![st]);
        let t2 = tuple(
            &[("a", &f, Forall), ("b", &e, Exists)],
            |_| Expr::bool(true),
            |v| eq(v("a", "s"), v("b", "s")),
        );
        match refute(&t2, &opts(), &Cancel::new()).verdict {
            Verdict::Verified { .. } => {}
            other => panic!("s = {target} is reachable, got {other:?}"),
        }
    }
}

#[test]
fn exists_run_finds_witnesses_and_proves_absence() {
    let t = gni(&design_leak());
    // State: a (h, l, o, r) final, b final, c initial.
    let st = |ao: i64, ch: i64, cl: i64| {
        let mut s = vec![Value::int(0); 12];
        s[2] = Value::int(ao);
        s[8] = Value::int(ch);
        s[9] = Value::int(cl);
        s
    };
    // c can produce o = l = 3, or h + l = 5 + 3.
    assert_eq!(exists_run(&t, &st(3, 5, 3), &Cancel::new()), ExistsAnswer::Witness);
    assert_eq!(exists_run(&t, &st(8, 5, 3), &Cancel::new()), ExistsAnswer::Witness);
    let ExistsAnswer::NoRun { explanation } = exists_run(&t, &st(7, 5, 3), &Cancel::new()) else {
        panic!("7 is neither 3 nor 8")
    };
    assert!(explanation.contains("∃ copy c"), "{explanation}");
}

#[test]
fn replay_rejects_a_tampered_counterexample() {
    let t = ni(&leak(true));
    let mut cex = counterexample(&t);
    // Make b's final state claim the same output as a's: the replay disagrees.
    let ao = cex.copies[0].final_state.as_ref().unwrap()["o"].clone();
    cex.copies[1].final_state.as_mut().unwrap().insert("o".into(), ao);
    let err = replay_counterexample(&t, &cex, &Cancel::new()).unwrap_err();
    assert!(err.contains("replayed final value of o"), "{err}");
    // Initial values that break pre are rejected too.
    let mut cex2 = counterexample(&t);
    cex2.copies[0].initial.insert("l".into(), Value::int(1));
    cex2.copies[1].initial.insert("l".into(), Value::int(2));
    let err = replay_counterexample(&t, &cex2, &Cancel::new()).unwrap_err();
    assert!(err.contains("pre"), "{err}");
}

#[test]
fn stats_count_paths_and_queries() {
    let out = refute(&ni(&counting(true)), &opts(), &Cancel::new());
    assert!(out.stats.paths >= 1);
    assert!(out.stats.queries >= 1);
}

#[test]
fn cancelled_refuter_says_so() {
    let c = Cancel::new();
    c.cancel();
    let out = refute(&ni(&leak(true)), &opts(), &c);
    let Verdict::Unknown { reason } = out.verdict else { panic!("cancelled") };
    assert_eq!(reason.kind(), "cancelled");
    assert!(reason.to_string().contains("cancelled"), "{reason}");
}

#[test]
fn forall_branch_choices_are_recorded_in_order() {
    // `if (*) { o = h; } else { o = l; } x = *;` — only the first branch leaks.
    let p = P::new("p", &[("h", Type::Int), ("l", Type::Int), ("o", Type::Int), ("x", Type::Bool)]);
    let body =
        vec![star(vec![p.assign("o", p.v("h"))], vec![p.assign("o", p.v("l"))]), p.havoc("x")];
    let t = ni(&p.body(body));
    let cex = counterexample(&t);
    let leaking = cex.copies.iter().filter(|c| c.choices[0] == Value::bool(true)).count();
    assert!(leaking >= 1);
    assert!(cex.copies.iter().all(|c| c.choices.len() == 2 && c.choices[1].as_bool().is_some()));
}

#[test]
fn array_inputs_are_reported_concretely() {
    // `o = arr[h]`, arrays and h secret: a leak through an array read.
    let int_arr = Type::Array(Box::new(Type::Int));
    let p = P::new("p", &[("h", Type::Int), ("l", Type::Int), ("o", Type::Int), ("arr", int_arr)]);
    let read = Expr {
        kind: crate::ir::ExprKind::Select(Box::new(p.v("arr")), Box::new(p.v("h"))),
        ty: Type::Int,
    };
    let s = p.assign("o", read);
    let t = ni(&p.body(vec![s]));
    let cex = counterexample(&t);
    assert!(matches!(cex.copies[0].initial["arr"], Value::Array { .. }));
}

/// impl: `o = x`; spec: `o = 0; while (o < x) o = o + 1;` with `x == 20` by `pre`: valid,
/// but the ∃ loop needs 20 iterations, beyond the bound. Without the coverage condition
/// the refuter would see "no ∃ run within the bound matches" and wrongly refute.
#[test]
fn exists_runs_longer_than_the_bound_are_never_taken_as_absent() {
    let (imp, spec) = copy_and_count_up();
    let t = tuple(
        &[("a", &imp, Forall), ("b", &spec, Exists)],
        |v| bin(BinOp::And, eq(v("a", "x"), v("b", "x")), eq(v("a", "x"), Expr::int(20))),
        |v| eq(v("a", "o"), v("b", "o")),
    );
    // `pre` fixes x, so the ∃ loop's 20 iterations are forced (no exit before): they are
    // stepped at bound 1 and the search is a complete proof.
    let proof = exhaustive(&t);
    assert_eq!(proof.unroll, 1);
}

#[test]
fn purely_existential_tuples_are_refuted_by_initial_values() {
    // exists b: `o = x`; post b.o == 1: false whenever b.x != 1.
    let p = P::new("p", &[("x", Type::Int), ("o", Type::Int)]);
    let s = p.assign("o", p.v("x"));
    let p = p.body(vec![s]);
    let t = tuple(&[("b", &p, Exists)], |_| Expr::bool(true), |v| eq(v("b", "o"), Expr::int(1)));
    let cex = counterexample(&t);
    assert_ne!(cex.copies[0].initial["x"], Value::int(1));
    assert!(cex.copies[0].choices.is_empty() && cex.copies[0].final_state.is_none());
}

/// With an unsatisfiable `pre`, the solver refutes every loop exit; the loop must not be
/// stepped as if forced (its terms would grow at every step): the path is infeasible.
#[test]
fn unsatisfiable_pre_is_verified_without_stepping_loops() {
    let p = P::new("p", &[("x", Type::Int), ("y", Type::Int)]);
    let body = vec![while_(
        bin(BinOp::Gt, p.v("y"), Expr::int(0)),
        vec![
            p.assign("x", bin(BinOp::Add, p.v("x"), p.v("x"))),
            p.assign("y", bin(BinOp::Sub, p.v("y"), Expr::int(1))),
        ],
    )];
    let p = p.body(body);
    // `a.x < a.x`: not folded to false by the simplifier, refuted by the solver.
    let t = tuple(
        &[("a", &p, Forall), ("b", &p, Exists)],
        |v| bin(BinOp::Lt, v("a", "x"), v("a", "x")),
        |v| eq(v("a", "x"), v("b", "y")),
    );
    let out = refute(&t, &opts(), &Cancel::new());
    assert!(matches!(out.verdict, Verdict::Verified { .. }), "{:?}", out.verdict);
    assert!(out.stats.queries < 50, "{:?}", out.stats);
}
