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
    let bounded = forex::refute::RefuteOptions::bounded(8);
    let r = forex::refute::refute(t, &bounded, &cancel()).verdict;
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

// ------------------------------------------------------------------ .fe conveniences

const SUM: &str = "
int sum(int n) {
  int s = 0, i;
  for (i = 0; i < n; i++) { s += i; }
  return s;
}
int twice(int a) { return a + a; }
program p {
  int n, h, o, t = 1, k = t + 1;
  o = sum(n);
  t *= twice(k);
  t -= 1;
  t--;
  k++;
}
program leaky {
  int n, h, o;
  o = sum(n + h);
}
tuple det { forall a: p, b: p; pre a.n == b.n; post a.o == b.o && a.t == b.t && a.k == 3; }
tuple leak { forall a: leaky, b: leaky; pre a.n == b.n && a.n >= 0 && b.n >= 0; post a.o == b.o; }
";

#[test]
fn for_compound_assignments_initialisers_and_functions_run() {
    let m = load("sum.fe", SUM);
    assert_eq!(run(&m, "p", &[("n", int(5))], "o"), int(10));
    // t = 1, k = 2; t *= 4; t -= 1; t--  → 2
    assert_eq!(run(&m, "p", &[("n", int(5))], "t"), int(2));
    assert_eq!(run(&m, "p", &[], "k"), int(3));
    // The function's variables are the program's, named `f::x`.
    let p = m.program("p").unwrap();
    assert!(p.var_by_name("sum::s").is_some());
    assert!(p.var_by_name("twice::a").is_none(), "pure functions are substituted");
}

#[test]
fn for_compound_assignments_initialisers_and_functions_are_decided() {
    let m = load("sum.fe", SUM);
    assert_verified(tuple(&m, "det"));
    assert_violated(tuple(&m, "leak"));
}

const CONVERSIONS: &str = "
program p {
  int x, r, back;
  bv4 b;
  b = bv4(x);
  r = int(b);
  back = int(bv4(r));
}
tuple wraps { forall a: p, b: p; pre a.x == b.x + 16; post a.r == b.r && a.back == a.r; }
tuple half { forall a: p, b: p; pre a.x == b.x + 8; post a.r == b.r; }
";

#[test]
fn conversions_wrap_modulo_the_width() {
    let m = load("conv.fe", CONVERSIONS);
    for (x, r) in [(0, 0), (15, 15), (16, 0), (20, 4), (-1, 15), (-16, 0), (-20, 12)] {
        assert_eq!(run(&m, "p", &[("x", int(x))], "r"), int(r), "x = {x}");
        assert_eq!(run(&m, "p", &[("x", int(x))], "b"), Value::bv(r as u128, 4), "x = {x}");
    }
    assert_verified(tuple(&m, "wraps"));
    assert_violated(tuple(&m, "half"));
}

const SIGNED: &str = "
program p {
  bv4 a, b, q, r, s;
  bool lt, le, gt, ge;
  lt = slt(a, b); le = sle(a, b); gt = sgt(a, b); ge = sge(a, b);
  q = sdiv(a, b); r = srem(a, b); s = ashr(a, b);
}
tuple euclid { forall x: p; exists y: p; pre x.a == y.a && x.b == y.b && x.b != #x0;
  post x.q * x.b + x.r == x.a && (x.lt <==> !x.ge) && (x.le <==> !x.gt); }
tuple unsigned_differs { forall x: p, y: p; pre x.a == y.a && x.b == y.b; post x.lt == (x.a < x.b); }
";

fn bv4(v: i64) -> Value {
    Value::bv((v & 0xf) as u128, 4)
}

#[test]
fn signed_bit_vector_functions_follow_smt_lib() {
    let m = load("signed.fe", SIGNED);
    let at = |a: i64, b: i64, var: &str| run(&m, "p", &[("a", bv4(a)), ("b", bv4(b))], var);
    assert_eq!(at(-1, 0, "lt"), Value::bool(true));
    assert_eq!(at(7, -8, "gt"), Value::bool(true));
    assert_eq!(at(-7, 2, "q"), bv4(-3), "division truncates toward zero");
    assert_eq!(at(-7, 2, "r"), bv4(-1), "the remainder has the dividend's sign");
    assert_eq!(at(7, -2, "q"), bv4(-3));
    assert_eq!(at(7, -2, "r"), bv4(1));
    assert_eq!(at(-8, 1, "s"), bv4(-4), "arithmetic shift keeps the sign");
    assert_eq!(at(4, 1, "s"), bv4(2));
    assert_eq!(at(-1, 9, "s"), bv4(-1));
    assert_eq!(at(5, 0, "q"), bv4(-1), "sdiv by zero as SMT-LIB");
    assert_eq!(at(-5, 0, "q"), bv4(1));
    assert_eq!(at(-5, 0, "r"), bv4(-5));
}

#[test]
fn signed_bit_vector_functions_are_decided_by_every_engine_and_the_oracle() {
    let m = load("signed.fe", SIGNED);
    for (name, valid) in [("euclid", true), ("unsigned_differs", false)] {
        let t = tuple(&m, name);
        let answer = crate::common::brute::decide(t).expect("in the oracle's fragment");
        assert_eq!(answer.is_valid(), valid, "{name}: oracle");
        if valid {
            assert_verified(t)
        } else {
            assert_violated(t)
        }
    }
}

const MATRIX: &str = "
program p {
  int[int,int] m;
  int i, j, o;
  m[i][j] = 5;
  m[i][j + 1] = m[i][j] + 1;
  o = m[i][j + 1];
}
program q {
  int[int,int] m;
  int i, j, o;
  m[i][j] = 5;
  m[j][i] = 7;
  o = m[i][j];
}
tuple six { forall a: p; exists b: p; post a.o == 6; }
tuple overwritten { forall a: q, b: q; pre a.i == b.i && a.j == b.j; post a.o == 5; }
";

#[test]
fn two_dimensional_arrays_store_and_read_by_row() {
    let m = load("matrix.fe", MATRIX);
    assert_eq!(run(&m, "p", &[("i", int(2)), ("j", int(3))], "o"), int(6));
    assert_eq!(run(&m, "q", &[("i", int(2)), ("j", int(2))], "o"), int(7));
    assert_eq!(run(&m, "q", &[("i", int(2)), ("j", int(3))], "o"), int(5));
    assert_verified(tuple(&m, "six"));
    assert_violated(tuple(&m, "overwritten"));
}

// ------------------------------------------------------------------ ForEx parity

fn forex_file(name: &str) -> Module {
    let path = format!("{}/tests/inputs/lang/{name}", env!("CARGO_MANIFEST_DIR"));
    forex::frontend::load_file(std::path::Path::new(&path), InputFormat::Auto)
        .unwrap_or_else(|d| panic!("{name}:\n{}", d.render(forex::diag::DiagStyle::Short)))
}

#[test]
fn forex_files_with_procedures_elif_matrices_and_every_section_are_decided() {
    let m = forex_file("forex_parity.txt");
    let t = &m.tuples[0];
    assert_eq!(t.hints.trace_bound, Some(4));
    assert!(t.hints.only_hints);
    assert_verified(t);
    let m = forex_file("forex_parity_violated.txt");
    assert_violated(&m.tuples[0]);
}

#[test]
fn elif_chains_run_like_else_if() {
    let m = forex_file("forex_parity_violated.txt");
    let p = &m.programs[0];
    let mut state: Vec<Value> = p.vars.iter().map(|v| Value::default_of(&v.ty)).collect();
    for (x, want) in [(11, 1), (6, 2), (0, 3)] {
        state[p.var_by_name("x").unwrap().index()] = int(x);
        run_program(p, &mut state, &mut Replay::new(vec![]), 1000).unwrap();
        assert_eq!(state[p.var_by_name("o").unwrap().index()], int(want), "x = {x}");
    }
}

fn expr_size(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Extract { arg: a, .. } => expr_size(a),
        ExprKind::Quant { body, .. } => expr_size(body),
        ExprKind::Binary(_, a, b) | ExprKind::Select(a, b) => expr_size(a) + expr_size(b),
        ExprKind::Ite(c, a, b) => expr_size(c) + expr_size(a) + expr_size(b),
        _ => 0,
    }
}

fn assigned_value<'m>(m: &'m Module, program: &str) -> &'m Expr {
    match &m.program(program).unwrap().body[..] {
        [Stmt::Assign { value, .. }, ..] => value,
        other => panic!("expected an assignment first, found {other:?}"),
    }
}

#[test]
fn nested_signed_functions_grow_linearly_and_are_decided() {
    // Twelve nested `sdiv`s under an `slt`: an unsigned rewrite copies each operand about
    // four times per level (4^12 nodes); native operators keep one node per call.
    let mut e = "x".to_string();
    for _ in 0..12 {
        e = format!("sdiv({e}, y)");
    }
    let src = format!(
        "program p {{ bv8 x, y; bool r; r = slt({e}, srem(ashr(x, y), y)); }}
         tuple det {{ forall a: p, b: p; pre a.x == b.x && a.y == b.y; post a.r == b.r; }}
         tuple leak {{ forall a: p, b: p; pre a.y == b.y; post a.r == b.r; }}"
    );
    let m = load("nested.fe", &src);
    assert_eq!(expr_size(assigned_value(&m, "p")), 2 * 12 + 1 + 1 + 5);
    let prove = |t| forex::prove::prove(t, &Default::default(), &cancel()).verdict;
    assert!(matches!(prove(tuple(&m, "det")), Verdict::Verified { .. }));
    let r = forex::refute::refute(tuple(&m, "leak"), &Default::default(), &cancel()).verdict;
    assert!(matches!(r, Verdict::Violated { .. }), "refute gave {r:?}");
}

const INT_OF_BV8: &str = "
program p { bv8 k; int y; y = int(k) * 3 + int(k); }
program q { bv8 k; int y; k = *; y = 4 * int(k); }
tuple same { forall a: p; exists b: q; post a.y == b.y && 0 <= a.y && a.y <= 1020; }
tuple too_big { forall a: p; exists b: q; post b.y == a.y + 1; }
";

#[test]
fn int_of_a_bit_vector_is_one_term_and_decided() {
    let m = load("int_of_bv.fe", INT_OF_BV8);
    // `int(k) * 3 + int(k)`: two conversions, one node each.
    assert_eq!(expr_size(assigned_value(&m, "p")), 7);
    assert_eq!(run(&m, "p", &[("k", Value::bv(255, 8))], "y"), int(1020));
    let prove = |t| forex::prove::prove(t, &Default::default(), &cancel()).verdict;
    let v = prove(tuple(&m, "same"));
    assert!(matches!(v, Verdict::Verified { .. }), "prove gave {v:?}");
    assert_violated(tuple(&m, "too_big"));
}
