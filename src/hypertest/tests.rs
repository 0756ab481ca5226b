//! Hypertesting on hand-built IR (independent of the front end).

use super::coverage::Goals;
use super::*;
use crate::ir::{BinOp, Block, Expr, Loc, LoopId, Program, Quantifier, Stmt, Type, VarDecl, VarId};
use crate::value::Value;

fn loc(line: u32) -> Loc {
    Loc { line, col: 1 }
}

fn int_program(name: &str, vars: &[&str], body: Block) -> Program {
    Program {
        name: name.into(),
        vars: vars
            .iter()
            .map(|n| VarDecl { name: n.to_string(), ty: Type::Int, loc: loc(1) })
            .collect(),
        body,
        loc: loc(1),
    }
}

fn var(p: &Program, name: &str) -> Expr {
    Expr::var(p.var_by_name(name).unwrap(), Type::Int)
}

fn assign(p: &Program, name: &str, e: Expr, line: u32) -> Stmt {
    Stmt::Assign { var: p.var_by_name(name).unwrap(), value: e, loc: loc(line) }
}

/// `forall a, b: p; [exists c: p;] pre <pre(a,b,c)>; post <post(a,b,c)>`.
fn tuple(
    p: &Program,
    exists: bool,
    pre: &dyn Fn(&Tuple) -> Expr,
    post: &dyn Fn(&Tuple) -> Expr,
) -> Tuple {
    let mut t = Tuple {
        name: "t".into(),
        file: "t.fe".into(),
        loc: loc(1),
        copies: vec![],
        vars: vec![],
        pre: Expr::bool(true),
        post: Expr::bool(true),
        kind: Default::default(),
        observations: None,
        hints: Default::default(),
        c_view: None,
    };
    t.add_copy("a", p, Quantifier::Forall);
    t.add_copy("b", p, Quantifier::Forall);
    if exists {
        t.add_copy("c", p, Quantifier::Exists);
    }
    t.pre = pre(&t);
    t.post = post(&t);
    t
}

fn tv(t: &Tuple, copy: usize, name: &str) -> Expr {
    Expr::var(t.copy_var(copy, name).unwrap(), Type::Int)
}

fn same(t: &Tuple, name: &str) -> Expr {
    Expr::eq(tv(t, 0, name), tv(t, 1, name))
}

/// `if (h > 0) { o = then_value; } else { o = l; }` with `t = l + 1` first.
fn branchy(then_value: &str) -> Program {
    let mut p = int_program("p", &["h", "l", "t", "o", "x"], vec![]);
    p.body = vec![
        assign(&p, "t", Expr::binary(BinOp::Add, var(&p, "l"), Expr::int(1)), 2),
        Stmt::If {
            cond: Expr::binary(BinOp::Gt, var(&p, "h"), Expr::int(0)),
            then_branch: vec![assign(&p, "o", var(&p, then_value), 4)],
            else_branch: vec![assign(&p, "o", var(&p, "l"), 6)],
            loc: loc(3),
        },
        assign(&p, "x", Expr::int(5), 7),
    ];
    p
}

fn opts(strategy: Strategy, seed: u64) -> TestOptions {
    TestOptions { strategy, budget: Duration::from_secs(60), seed, dump_smt: None }
}

fn run(t: &Tuple, strategy: Strategy, seed: u64, runs: u64) -> TestReport {
    hypertest_report(t, &opts(strategy, seed), Some(runs), &Cancel::new())
}

#[test]
fn goals_are_products_of_slice_points() {
    // Depth 1: `o = t` and `o = l`; depth 2: `t = l + 1` (read by `o = t`). `x = 5`
    // is outside the slice. 3 points per copy, 2 copies: 9 goals.
    let p = branchy("t");
    let t = tuple(&p, false, &|t| same(t, "l"), &|t| same(t, "o"));
    let goals = Goals::new(&t);
    assert_eq!(goals.index.iter().map(|c| c.points.len()).collect::<Vec<_>>(), vec![3, 3]);
    assert_eq!(goals.total, 9);
}

#[test]
fn valid_tuple_reaches_full_hypercoverage_and_is_never_violated() {
    // A true relational post: in each copy, o is t (= l + 1) or l.
    let p = branchy("t");
    let t = tuple(&p, false, &|t| same(t, "l"), &|t| {
        let ok = |c: usize| {
            Expr::binary(
                BinOp::Or,
                Expr::eq(tv(t, c, "o"), tv(t, c, "t")),
                Expr::eq(tv(t, c, "o"), tv(t, c, "l")),
            )
        };
        Expr::binary(BinOp::And, ok(0), ok(1))
    });
    for strategy in [Strategy::Fuzz, Strategy::Evo] {
        let r = run(&t, strategy, 7, 300);
        assert!(r.counterexample.is_none(), "{strategy:?}");
        assert_eq!(r.runs, 300);
        assert_eq!((r.covered, r.goals), (9, 9), "{strategy:?}");
        assert_eq!(r.reason(), "no violation found in 300 runs, hypercoverage 9/9 goals");
    }
}

#[test]
fn finds_and_replays_a_non_interference_leak() {
    let p = branchy("t");
    let t = tuple(&p, false, &|t| same(t, "l"), &|t| same(t, "o"));
    for strategy in [Strategy::Fuzz, Strategy::Evo] {
        let r = run(&t, strategy, 1, 2000);
        let cex =
            r.counterexample.clone().unwrap_or_else(|| panic!("{strategy:?}: {}", r.reason()));
        assert_eq!(cex.copies.len(), 2);
        assert_eq!(cex.violated_conjunct.as_deref(), Some("a.o == b.o"));
        let h = |c: usize| cex.copies[c].initial["h"].as_int().unwrap().clone();
        let l = |c: usize| cex.copies[c].initial["l"].as_int().unwrap().clone();
        assert_eq!(l(0), l(1), "pre holds");
        assert!((h(0) > 0.into()) != (h(1) > 0.into()), "the copies take different branches");
        let o = |c: usize| cex.copies[c].final_state.as_ref().unwrap()["o"].clone();
        assert_ne!(o(0), o(1));
        // Shrunk to the smallest violation: l = 0, secrets 0 and 1.
        assert_eq!(l(0), 0.into());
        let mut hs = [h(0), h(1)];
        hs.sort();
        assert_eq!(hs, [0.into(), 1.into()]);
    }
}

#[test]
fn seeded_runs_are_reproducible() {
    let p = branchy("t");
    let leak = tuple(&p, false, &|t| same(t, "l"), &|t| same(t, "o"));
    for strategy in [Strategy::Fuzz, Strategy::Evo] {
        let a = run(&leak, strategy, 42, 500);
        let b = run(&leak, strategy, 42, 500);
        assert_eq!(a.runs, b.runs);
        assert_eq!(a.counterexample, b.counterexample);
        assert_eq!(a.covered, b.covered);
    }
}

#[test]
fn nontermination_is_no_run_not_a_violation() {
    // while (h > 0) { skip; } o = h;  NI with high h: only h <= 0 runs terminate, and
    // then o == h differs; but pre pins h, so no violation exists.
    let mut p = int_program("p", &["h", "o"], vec![]);
    p.body = vec![
        Stmt::While {
            id: LoopId(0),
            cond: Expr::binary(BinOp::Gt, var(&p, "h"), Expr::int(0)),
            body: vec![Stmt::Skip],
            loc: loc(2),
        },
        assign(&p, "o", var(&p, "h"), 3),
    ];
    let t = tuple(&p, false, &|t| same(t, "h"), &|t| same(t, "o"));
    let r = run(&t, Strategy::Fuzz, 3, 40);
    assert!(r.counterexample.is_none());
    assert!(r.no_run > 0, "{}", r.reason());
    assert!(r.reason().contains("did not terminate within 100000 steps"), "{}", r.reason());
}

#[test]
fn unsatisfiable_pre_stops_with_a_reason() {
    let p = branchy("t");
    let t = tuple(&p, false, &|_| Expr::bool(false), &|t| same(t, "o"));
    let r = run(&t, Strategy::Evo, 0, 100);
    assert!(r.counterexample.is_none());
    assert_eq!(r.runs, 0);
    assert!(r.reason().contains("no input satisfying pre"), "{}", r.reason());
    let out = hypertest(&t, &opts(Strategy::Fuzz, 0), &Cancel::new());
    assert_eq!(out.verdict.name(), "unknown");
}

#[test]
fn choices_are_part_of_the_counterexample() {
    // r = *; if (r == 3) { o = h; } else { o = 0; }  — leaks h only when r == 3.
    let mut p = int_program("p", &["h", "r", "o"], vec![]);
    p.body = vec![
        Stmt::Havoc { var: VarId(1), loc: loc(2) },
        Stmt::If {
            cond: Expr::eq(var(&p, "r"), Expr::int(3)),
            then_branch: vec![assign(&p, "o", var(&p, "h"), 4)],
            else_branch: vec![assign(&p, "o", Expr::int(0), 6)],
            loc: loc(3),
        },
    ];
    let t = tuple(&p, false, &|_| Expr::bool(true), &|t| same(t, "o"));
    let r = run(&t, Strategy::Evo, 5, 3000);
    let cex = r.counterexample.clone().unwrap_or_else(|| panic!("{}", r.reason()));
    let with_three = cex.copies.iter().filter(|c| c.choices == vec![Value::int(3)]).count();
    assert!(with_three >= 1, "{cex:?}");
}

/// GNI: `forall a, b; exists c; pre a.l == c.l && b.h == c.h; post a.o == c.o`.
fn gni(p: &Program) -> Tuple {
    tuple(
        p,
        true,
        &|t| {
            Expr::binary(
                BinOp::And,
                Expr::eq(tv(t, 0, "l"), tv(t, 2, "l")),
                Expr::eq(tv(t, 1, "h"), tv(t, 2, "h")),
            )
        },
        &|t| Expr::eq(tv(t, 0, "o"), tv(t, 2, "o")),
    )
}

#[test]
fn gni_violation_needs_a_proved_absence_of_exists_runs() {
    // o = h + l: c must match a's output with b's secret: impossible when a.h != b.h.
    let mut p = int_program("p", &["h", "l", "r", "o"], vec![]);
    p.body = vec![assign(&p, "o", Expr::binary(BinOp::Add, var(&p, "h"), var(&p, "l")), 2)];
    let t = gni(&p);
    for strategy in [Strategy::Fuzz, Strategy::Evo] {
        let r = run(&t, strategy, 11, 200);
        let cex = r.counterexample.clone().unwrap_or_else(|| panic!("{}", r.reason()));
        assert_eq!(cex.copies[2].quantifier, crate::ir::Quantifier::Exists);
        assert!(cex.copies[2].final_state.is_none());
        assert_ne!(cex.copies[0].initial["h"], cex.copies[1].initial["h"]);
        assert!(crate::refute::replay_counterexample(&t, &cex, &Cancel::new()).is_ok());
    }
}

#[test]
fn valid_gni_is_never_violated() {
    // r = *; o = h + r: c can choose r to produce any output.
    let mut p = int_program("p", &["h", "l", "r", "o"], vec![]);
    p.body = vec![
        Stmt::Havoc { var: p.var_by_name("r").unwrap(), loc: loc(2) },
        assign(&p, "o", Expr::binary(BinOp::Add, var(&p, "h"), var(&p, "r")), 3),
    ];
    let t = gni(&p);
    for strategy in [Strategy::Fuzz, Strategy::Evo] {
        let r = run(&t, strategy, 13, 60);
        assert!(r.counterexample.is_none(), "{:?}", r.counterexample);
        assert_eq!(r.undecided, 0, "{}", r.reason());
    }
}

#[test]
fn finds_a_delimited_release_leak_on_bit_vectors() {
    // o = l + h may release only the parity of h; it releases all of it.
    let bv4 = Type::Bv(4);
    let p = Program {
        name: "p".into(),
        vars: ["h", "l", "o"]
            .iter()
            .map(|n| VarDecl { name: n.to_string(), ty: bv4.clone(), loc: loc(1) })
            .collect(),
        body: vec![Stmt::Assign {
            var: VarId(2),
            value: Expr::binary(
                BinOp::Add,
                Expr::var(VarId(1), bv4.clone()),
                Expr::var(VarId(0), bv4.clone()),
            ),
            loc: loc(2),
        }],
        loc: loc(1),
    };
    let v = |t: &Tuple, c: usize, n: &str| Expr::var(t.copy_var(c, n).unwrap(), Type::Bv(4));
    let parity = |t: &Tuple, c: usize| Expr::binary(BinOp::BitAnd, v(t, c, "h"), Expr::bv(1, 4));
    let t = tuple(
        &p,
        false,
        &|t| {
            Expr::binary(
                BinOp::And,
                Expr::eq(v(t, 0, "l"), v(t, 1, "l")),
                Expr::eq(parity(t, 0), parity(t, 1)),
            )
        },
        &|t| Expr::eq(v(t, 0, "o"), v(t, 1, "o")),
    );
    for strategy in [Strategy::Fuzz, Strategy::Evo] {
        let r = run(&t, strategy, 2, 1000);
        let cex = r.counterexample.clone().unwrap_or_else(|| panic!("{}", r.reason()));
        let h = |c: usize| cex.copies[c].initial["h"].clone();
        assert_ne!(h(0), h(1));
    }
}
