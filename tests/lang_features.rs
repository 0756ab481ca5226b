//! The language additions of issue 13 (branch `lang`): flat input of any length, the `.fe`
//! conveniences and ForEx-format parity. Each construct is checked, run by the
//! interpreter, and decided by the engines (prove / refute / test) on a small tuple.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::interp::{run_program, Replay};
use forex::ir::{Block, Expr, ExprKind, Module, Stmt, Tuple, MAX_DEPTH};
use forex::value::Value;
use forex::verdict::Verdict;
use std::time::Duration;

fn load(name: &str, src: &str) -> Module {
    load_source(name, src.as_bytes(), InputFormat::Auto).unwrap_or_else(|d| {
        panic!("{name} does not check:\n{}", d.render(forex::diag::DiagStyle::Short))
    })
}

fn tuple<'m>(m: &'m Module, name: &str) -> &'m Tuple {
    m.tuples.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no tuple {name}"))
}

/// Runs program `name` of `m` from `init` (values by declaration order, missing ones
/// default) and returns the final value of variable `var`.
fn run(m: &Module, name: &str, init: &[(&str, Value)], var: &str) -> Value {
    let p = m.program(name).unwrap();
    let mut state: Vec<Value> = p.vars.iter().map(|v| Value::default_of(&v.ty)).collect();
    for (n, v) in init {
        state[p.var_by_name(n).unwrap().index()] = v.clone();
    }
    run_program(p, &mut state, &mut Replay::new(vec![]), 100_000).expect("runs");
    state[p.var_by_name(var).unwrap().index()].clone()
}

fn int(n: i64) -> Value {
    Value::int(n)
}

fn cancel() -> Cancel {
    Cancel::new().with_timeout(Duration::from_secs(30))
}

/// Valid: the prover verifies it and neither the refuter nor the tester refutes it.
fn assert_verified(t: &Tuple) {
    let p = forex::prove::prove(t, &Default::default(), &cancel()).verdict;
    assert!(matches!(p, Verdict::Verified { .. }), "{}: prove gave {p:?}", t.name);
    let r = forex::refute::refute(t, &Default::default(), &cancel()).verdict;
    assert!(!matches!(r, Verdict::Violated { .. }), "{}: refute gave {r:?}", t.name);
    let h = forex::hypertest::hypertest(t, &quick_test(), &cancel()).verdict;
    assert!(!matches!(h, Verdict::Violated { .. }), "{}: test gave {h:?}", t.name);
}

/// Invalid: the refuter and the tester find a replayed counterexample; the prover does
/// not verify it.
fn assert_violated(t: &Tuple) {
    let r = forex::refute::refute(t, &Default::default(), &cancel()).verdict;
    assert!(matches!(r, Verdict::Violated { .. }), "{}: refute gave {r:?}", t.name);
    let h = forex::hypertest::hypertest(t, &quick_test(), &cancel()).verdict;
    assert!(matches!(h, Verdict::Violated { .. }), "{}: test gave {h:?}", t.name);
    let p = forex::prove::prove(t, &Default::default(), &cancel()).verdict;
    assert!(!matches!(p, Verdict::Verified { .. }), "{}: prove gave {p:?}", t.name);
}

fn quick_test() -> forex::hypertest::TestOptions {
    forex::hypertest::TestOptions { budget: Duration::from_millis(1500), ..Default::default() }
}

fn expr_depth(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Extract { arg: a, .. } => expr_depth(a),
        ExprKind::Quant { body, .. } => expr_depth(body),
        ExprKind::Binary(_, a, b) | ExprKind::Select(a, b) => expr_depth(a).max(expr_depth(b)),
        ExprKind::Ite(c, a, b) => expr_depth(c).max(expr_depth(a)).max(expr_depth(b)),
        _ => 0,
    }
}

fn block_depth(b: &Block) -> usize {
    b.iter()
        .map(|s| match s {
            Stmt::If { cond, then_branch, else_branch, .. } => {
                (1 + block_depth(then_branch).max(block_depth(else_branch))).max(expr_depth(cond))
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                1 + block_depth(then_branch).max(block_depth(else_branch))
            }
            Stmt::While { cond, body, .. } => (1 + block_depth(body)).max(expr_depth(cond)),
            Stmt::Assign { value, .. } => expr_depth(value),
            _ => 1,
        })
        .max()
        .unwrap_or(0)
}

// ------------------------------------------------------------------ flat input

#[test]
fn ten_thousand_term_operator_chains_parse_and_stay_shallow() {
    let n = 10_000;
    let terms = |op: &str| vec!["l"; n].join(op);
    let src = format!(
        "program p {{\n  int l, o, m;\n  bool b;\n  o = {};\n  m = l - {};\n  b = {};\n}}\n",
        terms(" + "),
        terms(" - "),
        vec!["l > 0"; n].join(" && ")
    );
    let m = load("flat.fe", &src);
    let p = m.program("p").unwrap();
    assert!(block_depth(&p.body) <= MAX_DEPTH);
    assert_eq!(run(&m, "p", &[("l", int(3))], "o"), int(3 * n as i64));
    assert_eq!(run(&m, "p", &[("l", int(3))], "m"), int(3 - 3 * n as i64));
    assert_eq!(run(&m, "p", &[("l", int(3))], "b"), Value::bool(true));
    assert_eq!(run(&m, "p", &[("l", int(-3))], "b"), Value::bool(false));
}

#[test]
fn mixed_plus_minus_chains_keep_their_meaning() {
    // 100 operators: balanced as (sum of the added) - (sum of the subtracted).
    let mut e = String::from("1");
    let mut want = 1i64;
    for i in 0..100 {
        if i % 3 == 0 {
            e.push_str(&format!(" - {i}"));
            want -= i;
        } else {
            e.push_str(&format!(" + {i} * x"));
            want += i * 2;
        }
    }
    let m = load("mixed.fe", &format!("program p {{\n  int x, o;\n  o = {e};\n}}\n"));
    assert_eq!(run(&m, "p", &[("x", int(2))], "o"), int(want));
}

#[test]
fn ten_thousand_else_ifs_parse_and_stay_shallow() {
    let n = 10_000;
    let arms: String =
        (1..n).map(|i| format!(" else if (x == {i}) {{ o = {}; }}", 2 * i)).collect();
    let src = format!(
        "program p {{\n  int x, o;\n  if (x == 0) {{ o = 0; }}{arms} else {{ o = -1; }}\n}}\n"
    );
    let m = load("chain.fe", &src);
    let p = m.program("p").unwrap();
    assert!(block_depth(&p.body) <= MAX_DEPTH, "depth {}", block_depth(&p.body));
    for x in [0, 1, 2, 4999, 5000, 9999, 10_000, -5] {
        let want = if (0..n as i64).contains(&x) { 2 * x } else { -1 };
        assert_eq!(run(&m, "p", &[("x", int(x))], "o"), int(want), "x = {x}");
    }
}

#[test]
fn a_long_else_if_chain_is_decided_by_every_engine() {
    let arms: String = (1..100).map(|i| format!(" else if (x == {i}) {{ o = {i}; }}")).collect();
    let prog = |name: &str, last: i64| {
        format!("program {name} {{\n  int x, o;\n  if (x == 0) {{ o = 0; }}{arms} else {{ o = {last}; }}\n}}\n")
    };
    let src = format!(
        "{}{}tuple same {{ forall a: p; exists b: p; pre a.x == b.x; post a.o == b.o; }}\n\
         tuple differs {{ forall a: p, b: q; pre a.x == b.x; post a.o == b.o; }}\n",
        prog("p", -1),
        prog("q", -2)
    );
    let m = load("chain.fe", &src);
    assert_verified(tuple(&m, "same"));
    assert_violated(tuple(&m, "differs"));
}
