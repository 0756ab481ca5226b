//! The harness end to end without the C front end: the tuple comes from an equivalent
//! `.fe` file (only its copies and variable names matter here), the C facts and the
//! counterexample are built by hand. Each test skips, with a note, where no C compiler
//! is installed.

use super::*;
use crate::frontend::{load_source, InputFormat};
use crate::ir::c::{CFunction, CLibrary, CParam, CScalar, CType, LibraryModel};
use crate::ir::Quantifier;
use crate::value::Value;
use crate::verdict::CopyRun;
use std::collections::BTreeMap;

fn have_cc() -> bool {
    let ok = exec::find_compiler(None).is_ok();
    if !ok {
        eprintln!("note: no C compiler found (cc, gcc, clang): native harness tests skipped");
    }
    ok
}

/// A tuple with ∀ copies `a` and `b` of program `f` declaring `decls`.
fn tuple(f: &str, decls: &str) -> Tuple {
    let src = format!(
        "program {f} {{ {decls} skip; }}\ntuple t {{ forall a: {f}, b: {f}; pre true; post true; }}"
    );
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe).expect("test tuple");
    m.tuples[0].clone()
}

fn scalar(name: &str, ty: CScalar) -> CParam {
    CParam {
        name: name.into(),
        ty: CType::Scalar(ty),
        var: name.into(),
        inputs: vec![name.into()],
        pointee: None,
        nested_pointers: false,
    }
}

fn info(model: IntModel, functions: Vec<CFunction>, libraries: Vec<CLibrary>) -> CInfo {
    CInfo { source: "t.c".into(), model, functions, libraries, ..Default::default() }
}

fn function(name: &str, ret: CType, params: Vec<CParam>) -> CFunction {
    let ret_var = (ret != CType::Void).then(|| "ret".to_string());
    let ret_leaves = ret_var.iter().cloned().collect();
    CFunction {
        name: name.into(),
        ret,
        params,
        ret_var,
        ret_leaves,
        ret_pointers: false,
        globals: vec![],
        ub: vec![],
        objects: vec![],
        line: 0,
    }
}

type Vals<'a> = &'a [(&'a str, Value)];

fn run(copy: &str, f: &str, initial: Vals, choices: Vec<Value>, fin: Vals) -> CopyRun {
    let map = |v: Vals| v.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    CopyRun {
        copy: copy.into(),
        program: f.into(),
        quantifier: Quantifier::Forall,
        initial: map(initial),
        choices,
        final_state: Some(map(fin)),
    }
}

fn cex(copies: Vec<CopyRun>) -> Counterexample {
    Counterexample {
        copies,
        explanation: String::new(),
        violated_conjunct: None,
        c_types: None,
        observations: None,
    }
}

fn check(src: &str, info: &CInfo, t: &Tuple, c: &Counterexample) -> NativeOutcome {
    check_counterexample(src, "t.c", info, t, c, &NativeOptions::default())
}

fn bv32(n: i64) -> Value {
    Value::bv(n as u32 as u128, 32)
}

const WRAP: &str = "int f(int x, int y) {\n  x = x * y;\n  return x + 1;\n}\n";

fn wrap_case(ret_b: i64) -> (CInfo, Tuple, Counterexample) {
    let i = info(
        IntModel::Machine,
        vec![function(
            "f",
            CType::Scalar(CScalar::Int),
            vec![scalar("x", CScalar::Int), scalar("y", CScalar::Int)],
        )],
        vec![],
    );
    let t = tuple("f", "bv32 x, y, ret;");
    let a = run(
        "a",
        "f",
        &[("x", bv32(65536)), ("y", bv32(65536)), ("ret", bv32(0))],
        vec![],
        &[("x", bv32(0)), ("y", bv32(65536)), ("ret", bv32(1))],
    );
    // INT_MAX * 2 wraps to -2 under -fwrapv.
    let b = run(
        "b",
        "f",
        &[("x", bv32(i32::MAX as i64)), ("y", bv32(2)), ("ret", bv32(0))],
        vec![],
        &[("x", bv32(-2)), ("y", bv32(2)), ("ret", bv32(ret_b))],
    );
    (i, t, cex(vec![a, b]))
}

#[test]
fn signed_wrap_agrees_and_a_wrong_result_disagrees() {
    if !have_cc() {
        return;
    }
    let (i, t, c) = wrap_case(-1);
    assert_eq!(check(WRAP, &i, &t, &c), NativeOutcome::Agrees { compared: 6, unobserved: vec![] });
    let (i, t, c) = wrap_case(7);
    match check(WRAP, &i, &t, &c) {
        NativeOutcome::Disagrees { differences, stopped: None, .. } => assert_eq!(
            differences,
            [Difference { variable: "b.ret".into(), forex: "7".into(), native: "-1".into() }]
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn unsigned_wrap_and_a_final_parameter_value() {
    if !have_cc() {
        return;
    }
    let src = "unsigned g(unsigned u) { u = u - 1; return u / 2; }";
    let i = info(
        IntModel::Machine,
        vec![function("g", CType::Scalar(CScalar::UInt), vec![scalar("u", CScalar::UInt)])],
        vec![],
    );
    let t = tuple("g", "bv32 u, ret;");
    let make = |u_final: i64| {
        let r = |name| {
            run(
                name,
                "g",
                &[("u", bv32(0)), ("ret", bv32(0))],
                vec![],
                &[("u", bv32(u_final)), ("ret", bv32(0x7fff_ffff))],
            )
        };
        cex(vec![r("a"), r("b")])
    };
    assert!(matches!(check(src, &i, &t, &make(-1)), NativeOutcome::Agrees { compared: 4, .. }));
    match check(src, &i, &t, &make(0)) {
        NativeOutcome::Disagrees { differences, .. } => {
            assert_eq!(differences.len(), 2);
            assert_eq!(differences[0].variable, "a.u");
            assert_eq!(differences[0].native, "4294967295");
        }
        other => panic!("{other:?}"),
    }
}

fn array(entries: &[(i64, i64)], default: i64) -> Value {
    let mut a = Value::Array { default: Box::new(Value::int(default)), entries: BTreeMap::new() };
    for (i, v) in entries {
        a.store((*i).into(), Value::int(*v));
    }
    a
}

#[test]
fn arrays_are_laid_out_and_compared_per_element() {
    if !have_cc() {
        return;
    }
    // A negative index, as the published benchmarks read a[i-1] at i == 0.
    let src = "#include <stdio.h>\nvoid h(int n, int a[n]) {\n  for (int i = 0; i < n; i++)\n    \
               a[i] = a[i - 1] * 2 + i;\n}\nint main(void) { return 3; }\n";
    let f = CFunction {
        name: "h".into(),
        ret: CType::Void,
        params: vec![
            scalar("n", CScalar::Int),
            CParam {
                ty: CType::Array { elem: CScalar::Int, dims: 1 },
                ..scalar("a", CScalar::Int)
            },
        ],
        ret_var: None,
        line: 2,
        ..function("h", CType::Void, vec![])
    };
    let i = info(IntModel::Math, vec![f], vec![]);
    let t = tuple("h", "int n, i; int[] a;");
    let make = |last: i64| {
        let r = |name| {
            run(
                name,
                "h",
                &[("n", Value::int(3)), ("a", array(&[(-1, 1), (0, 5)], 0)), ("i", Value::int(0))],
                vec![],
                &[
                    ("n", Value::int(3)),
                    ("a", array(&[(-1, 1), (0, 2), (1, 5), (2, last)], 0)),
                    ("i", Value::int(3)),
                ],
            )
        };
        cex(vec![r("a"), r("b")])
    };
    match check(src, &i, &t, &make(12)) {
        NativeOutcome::Agrees { unobserved, .. } => assert_eq!(unobserved, ["a.i", "b.i"]),
        other => panic!("{other:?}"),
    }
    match check(src, &i, &t, &make(13)) {
        NativeOutcome::Disagrees { differences, .. } => {
            assert_eq!(differences.len(), 2);
            assert_eq!(differences[1].variable, "b.a[2]");
            assert_eq!((&*differences[1].forex, &*differences[1].native), ("13", "12"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn uninterpreted_library_function_reads_the_table() {
    if !have_cc() {
        return;
    }
    let src = "int mix(int x);\nint k(int x) { return mix(x) + mix(x + 1); }\n";
    let i = info(
        IntModel::Math,
        vec![function("k", CType::Scalar(CScalar::Int), vec![scalar("x", CScalar::Int)])],
        vec![CLibrary {
            name: "mix".into(),
            ret: CScalar::Int,
            params: vec![CScalar::Int],
            model: LibraryModel::Uninterpreted { var: "mix".into() },
        }],
    );
    let t = tuple("k", "int x, ret; int[] mix;");
    let r = |name, x: i64, ret: i64| {
        let table = array(&[(3, 10), (-2, -4)], 7);
        let init = [("x", Value::int(x)), ("ret", Value::int(0)), ("mix", table.clone())];
        let fin = [("x", Value::int(x)), ("ret", Value::int(ret)), ("mix", table)];
        run(name, "k", &init, vec![], &fin)
    };
    let c = cex(vec![r("a", 3, 17), r("b", -3, 3)]);
    match check(src, &i, &t, &c) {
        NativeOutcome::Agrees { unobserved, .. } => assert_eq!(unobserved, ["a.mix", "b.mix"]),
        other => panic!("{other:?}"),
    }
}

const CHOICES: &str = r#"#include <stdlib.h>
int noise(int bound);
int _noise(int bound) { return rand() % bound; }
int p(int pub) {
  int r = __VERIFIER_nondet_int();
  __VERIFIER_assume(r > 0);
  return pub + r + noise(2);
}
int main(void) { return p(_noise(3)); }
"#;

#[test]
fn choices_feed_nondet_and_specified_library_functions_in_order() {
    if !have_cc() {
        return;
    }
    let i = info(
        IntModel::Machine,
        vec![function("p", CType::Scalar(CScalar::Int), vec![scalar("pub", CScalar::Int)])],
        vec![CLibrary {
            name: "noise".into(),
            ret: CScalar::Int,
            params: vec![CScalar::Int],
            model: LibraryModel::Specified,
        }],
    );
    let t = tuple("p", "bv32 pub, r, ret;");
    let make = |r: i64, ret: i64| {
        let init = [("pub", bv32(10)), ("r", bv32(0)), ("ret", bv32(0))];
        let fin = [("pub", bv32(10)), ("r", bv32(r)), ("ret", bv32(ret))];
        let a = run("a", "p", &init, vec![bv32(r), bv32(1)], &fin);
        let b = run("b", "p", &init, vec![bv32(1), bv32(0)], &[("ret", bv32(11))]);
        cex(vec![a, b])
    };
    assert!(matches!(check(CHOICES, &i, &t, &make(5, 16)), NativeOutcome::Agrees { .. }));
    match check(CHOICES, &i, &t, &make(-1, 10)) {
        NativeOutcome::Disagrees { stopped: Some(why), .. } => {
            assert_eq!(why, "copy a: an assume is false")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn math_model_values_that_do_not_fit_are_said_so() {
    if !have_cc() {
        return;
    }
    let src = "int sq(int x) { return x * x / x; }";
    let i = info(
        IntModel::Math,
        vec![function("sq", CType::Scalar(CScalar::Int), vec![scalar("x", CScalar::Int)])],
        vec![],
    );
    let t = tuple("sq", "int x, ret;");
    let make = |x: i64| {
        let r = |n| {
            run(
                n,
                "sq",
                &[("x", Value::int(x)), ("ret", Value::int(0))],
                vec![],
                &[("x", Value::int(x)), ("ret", Value::int(x))],
            )
        };
        cex(vec![r("a"), r("b")])
    };
    match check(src, &i, &t, &make(1 << 40)) {
        NativeOutcome::NotRepresentable { reasons } => {
            assert!(reasons[0].starts_with("initial a.x: 1099511627776 does not fit C type int"))
        }
        other => panic!("{other:?}"),
    }
    // x * x overflows int: the trap (-ftrapv) says so instead of a wrong disagreement.
    match check(src, &i, &t, &make(100_000)) {
        NativeOutcome::NotRepresentable { reasons } => {
            assert!(reasons[0].contains("overflowed"), "{reasons:?}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn compiler_missing_rejecting_or_too_slow() {
    let (i, t, c) = wrap_case(-1);
    let missing =
        NativeOptions { compiler: Some("/nonexistent/forex-cc".into()), ..Default::default() };
    assert_eq!(
        check_counterexample(WRAP, "t.c", &i, &t, &c, &missing),
        NativeOutcome::NoCompiler { tried: vec!["/nonexistent/forex-cc".into()] }
    );
    if !have_cc() {
        return;
    }
    let bad = "int f(int x, int y) { return x +; }";
    match check(bad, &i, &t, &c) {
        NativeOutcome::CompileError { message, .. } => {
            assert!(message.contains("t.c:1"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let slow = "int f(int x, int y) { while (x != 0) { y++; } return y; }";
    let opts = NativeOptions { time_limit: Duration::from_millis(300), ..Default::default() };
    assert_eq!(
        check_counterexample(slow, "t.c", &i, &t, &c, &opts),
        NativeOutcome::TimeLimit { limit_ms: 300 }
    );
}

#[test]
fn json_of_an_outcome_names_its_result() {
    let o = NativeOutcome::Disagrees {
        differences: vec![Difference {
            variable: "a.r".into(),
            forex: "1".into(),
            native: "2".into(),
        }],
        stopped: None,
        unobserved: vec![],
    };
    let v = serde_json::to_value(&o).unwrap();
    assert_eq!(v["result"], "disagrees");
    assert_eq!(v["differences"][0]["native"], "2");
    assert_eq!(o.name(), "disagrees");
}

fn bv_array(entries: &[(i64, i64)]) -> Value {
    let mut a = Value::Array { default: Box::new(bv32(0)), entries: BTreeMap::new() };
    for (i, v) in entries {
        a.store((*i).into(), bv32(*v));
    }
    a
}

/// The counterexample the refuter would report for examples/c/pin_early_exit.c: the
/// same wrong guess costs 2 digit compares against one PIN and 1 against the other.
#[test]
fn the_pin_example_counterexample_agrees() {
    if !have_cc() {
        return;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/c/pin_early_exit.c");
    let src = std::fs::read_to_string(path).unwrap();
    let arr = |name: &str| CParam {
        ty: CType::Array { elem: CScalar::Int, dims: 1 },
        ..scalar(name, CScalar::Int)
    };
    let f = CFunction {
        name: "check_pin".into(),
        ret: CType::Scalar(CScalar::Bool),
        params: vec![arr("guess"), arr("pin"), arr("cost")],
        ret_var: Some("ret".into()),
        line: 30,
        ..function("check_pin", CType::Scalar(CScalar::Bool), vec![])
    };
    let i = info(IntModel::Machine, vec![f], vec![]);
    let t = tuple("check_pin", "bv32[] guess, pin, cost; bv32 i; bool ret;");
    let r = |name, pin: &[(i64, i64)], cost: i64| {
        let init = [
            ("guess", bv_array(&[])),
            ("pin", bv_array(pin)),
            ("cost", bv_array(&[(0, 9)])),
            ("i", bv32(0)),
            ("ret", Value::bool(true)),
        ];
        let fin = [
            ("guess", bv_array(&[])),
            ("pin", bv_array(pin)),
            ("cost", bv_array(&[(0, cost)])),
            ("i", bv32(cost - 1)),
            ("ret", Value::bool(false)),
        ];
        run(name, "check_pin", &init, vec![], &fin)
    };
    let c = cex(vec![r("a", &[(1, 1)], 2), r("b", &[(0, 1)], 1)]);
    match check(&src, &i, &t, &c) {
        NativeOutcome::Agrees { unobserved, .. } => assert_eq!(unobserved, ["a.i", "b.i"]),
        other => panic!("{other:?}"),
    }
}
