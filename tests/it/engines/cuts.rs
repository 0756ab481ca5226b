//! `Stmt::Cut`: where the front end stopped unfolding a recursive function. A run that
//! reaches it is not modelled, so no engine may read it as `assume false` where that
//! loses runs it must cover: a ∀ copy that can reach a cut is never proved (the runs
//! past it could violate the tuple), a counterexample never runs through one, and an ∃
//! copy's run through one is no witness. Hand-built IR, independent of the front end.

use crate::common::build::*;
use forex::cancel::Cancel;
use forex::interp::{run_program, Replay, RunEnd};
use forex::ir::{BinOp, Expr, Loc, Program, Quantifier, Stmt, Tuple, Type};
use forex::value::Value;
use forex::verdict::Verdict;
use std::time::Duration;

fn cut() -> Stmt {
    Stmt::Cut { loc: Loc { line: 7, col: 3 } }
}

fn cancel() -> Cancel {
    Cancel::new().with_timeout(Duration::from_secs(20))
}

/// `r = 1; if (n > 3) { <cut> }` : runs with `n > 3` are not modelled.
fn deep(name: &str) -> Program {
    let p = Prog::new(name, &[("n", Type::Int), ("r", Type::Int)]);
    let body = vec![
        p.assign("r", Expr::int(1)),
        if_(bin(BinOp::Gt, p.v("n"), Expr::int(3)), vec![cut()], vec![]),
    ];
    p.body(body)
}

fn verdicts(t: &Tuple) -> [Verdict; 3] {
    let c = cancel();
    [
        forex::prove::prove(t, &Default::default(), &c).verdict,
        forex::refute::refute(t, &Default::default(), &c).verdict,
        forex::hypertest::hypertest(t, &Default::default(), &c).verdict,
    ]
}

#[test]
fn the_interpreter_stops_a_run_at_a_cut() {
    let p = deep("f");
    let mut state = vec![Value::int(5), Value::int(0)];
    let run = run_program(&p, &mut state, &mut Replay::new(vec![]), 1000).unwrap();
    assert_eq!(run.end, RunEnd::Cut { at: Loc { line: 7, col: 3 } });
    let mut state = vec![Value::int(2), Value::int(0)];
    let run = run_program(&p, &mut state, &mut Replay::new(vec![]), 1000).unwrap();
    assert_eq!(run.end, RunEnd::Finished);
}

#[test]
fn a_forall_copy_that_can_reach_a_cut_is_not_proved() {
    let p = deep("f");
    // Every modelled run ends with r == 1, but runs past the cut are unknown.
    let t = tuple(
        &[("a", &p, Quantifier::Forall)],
        |_| Expr::bool(true),
        |t| Expr::eq(tv(t, "a", "r"), Expr::int(1)),
    );
    for v in verdicts(&t) {
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
    }
    // Where pre keeps the copy away from the cut, the tuple is proved.
    let t = tuple(
        &[("a", &p, Quantifier::Forall)],
        |t| bin(BinOp::Le, tv(t, "a", "n"), Expr::int(3)),
        |t| Expr::eq(tv(t, "a", "r"), Expr::int(1)),
    );
    let [prove, refute, _] = verdicts(&t);
    assert!(matches!(prove, Verdict::Verified { .. }), "{prove:?}");
    assert!(!matches!(refute, Verdict::Violated { .. }), "{refute:?}");
}

#[test]
fn an_exists_run_through_a_cut_is_no_witness_and_its_absence_no_proof() {
    let a = Prog::new("g", &[("n", Type::Int), ("r", Type::Int)]);
    let a = {
        let body = vec![a.assign("r", Expr::int(1))];
        a.body(body)
    };
    let e = deep("f");
    // ∃ copy with n > 3 only: every one of its runs reaches the cut.
    let t = tuple(
        &[("a", &a, Quantifier::Forall), ("e", &e, Quantifier::Exists)],
        |t| bin(BinOp::Gt, tv(t, "e", "n"), Expr::int(3)),
        |t| Expr::eq(tv(t, "a", "r"), tv(t, "e", "r")),
    );
    for v in verdicts(&t) {
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
    }
}
