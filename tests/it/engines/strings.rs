//! Strings (`string`, literals, `==`, `concat`/`str.++`, `len`/`str.len`, `x = *`) and arrays
//! of strings (`string[]`, `string[int,int]`, ForEx `string[int]`) in both formats: the
//! interpreter, each engine, counterexample values and `forex run --set`.

use assert_cmd::Command;
use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::interp::{run_program, Replay};
use forex::ir::{Module, Tuple};
use forex::value::Value;
use forex::verdict::Verdict;
use std::time::Duration;

const GREET: &str = r#"
program greet {
  string name, out;
  int n;
  out = concat("hi \"", name, "\\");
  n = len(out);
}
program pick {
  string s;
  s = *;
}
tuple det { forall a: greet, b: greet; pre a.name == b.name; post a.out == b.out && a.n == b.n; }
tuple long { forall a: greet; post a.n >= 5 && a.out != "hi"; }
tuple leak { forall a: greet, b: greet; post a.out == b.out; }
tuple any { forall a: greet; exists b: pick; post b.s == a.out; }
"#;

fn load(src: &str) -> Module {
    load_source("strings.fe", src.as_bytes(), InputFormat::Auto)
        .unwrap_or_else(|d| panic!("does not check:\n{}", d.render(forex::diag::DiagStyle::Short)))
}

fn tuple<'m>(m: &'m Module, name: &str) -> &'m Tuple {
    m.tuples.iter().find(|t| t.name == name).unwrap()
}

fn s(text: &str) -> Value {
    Value::Str { value: text.to_string() }
}

fn cancel() -> Cancel {
    Cancel::new().with_timeout(Duration::from_secs(30))
}

fn quick_test() -> forex::hypertest::TestOptions {
    forex::hypertest::TestOptions { budget: Duration::from_millis(1500), ..Default::default() }
}

#[test]
fn the_interpreter_concatenates_and_counts_characters() {
    let m = load(GREET);
    let p = m.program("greet").unwrap();
    let mut state = vec![s("bob"), s(""), Value::int(0)];
    run_program(p, &mut state, &mut Replay::new(vec![]), 1000).expect("runs");
    assert_eq!(state[1], s("hi \"bob\\"));
    assert_eq!(state[2], Value::int(8));
}

#[test]
fn string_tuples_are_proved() {
    let m = load(GREET);
    for name in ["det", "long", "any"] {
        let v = forex::prove::prove(tuple(&m, name), &Default::default(), &cancel()).verdict;
        assert!(matches!(v, Verdict::Verified { .. }), "{name}: prove gave {v:?}");
    }
}

#[test]
fn a_string_leak_is_refuted_and_found_by_testing_with_string_values() {
    let m = load(GREET);
    let t = tuple(&m, "leak");
    let r = forex::refute::refute(t, &Default::default(), &cancel()).verdict;
    let Verdict::Violated { counterexample } = &r else { panic!("refute gave {r:?}") };
    let json = serde_json::to_value(counterexample).unwrap();
    let text = json.to_string();
    assert!(text.contains(r#""type":"string""#), "{text}");
    let h = forex::hypertest::hypertest(t, &quick_test(), &cancel()).verdict;
    assert!(matches!(h, Verdict::Violated { .. }), "test gave {h:?}");
    let p = forex::prove::prove(t, &Default::default(), &cancel()).verdict;
    assert!(!matches!(p, Verdict::Verified { .. }), "prove gave {p:?}");
    for name in ["det", "long", "any"] {
        let r = forex::refute::refute(tuple(&m, name), &Default::default(), &cancel()).verdict;
        assert!(!matches!(r, Verdict::Violated { .. }), "{name}: refute gave {r:?}");
    }
}

const FOREX: &str = r#"[forall]
string s;
int n;
s = s str.++ "!";
n = str.len(s);

[exists]
string s;
int n;
s = "!" str.++ s;
n = str.len(s);

[pre]
s_0 == s_1

[post]
n_0 == n_1
"#;

#[test]
fn a_forex_file_with_strings_is_decided() {
    let m = load(FOREX);
    let v = forex::prove::prove(&m.tuples[0], &Default::default(), &cancel()).verdict;
    assert!(matches!(v, Verdict::Verified { .. }), "prove gave {v:?}");
}

/// ForEx's `str.len` is also a prefix operator: `(str.len s) > 8`, `str.len s + 1`.
#[test]
fn forex_str_len_is_a_prefix_operator() {
    let prefix = FOREX
        .replace("n = str.len(s);", "n = str.len s + 1;")
        .replace("n_0 == n_1", "n_0 == n_1 && ((str.len s_0) > 8 => n_0 > 9)");
    assert_ne!(prefix, FOREX);
    let m = load(&prefix);
    let v = forex::prove::prove(&m.tuples[0], &Default::default(), &cancel()).verdict;
    assert!(matches!(v, Verdict::Verified { .. }), "prove gave {v:?}");
    // The prefix binds tighter than `+`: `str.len s + 1` is one more than the length.
    let wrong = prefix.replace("n_0 > 9", "n_0 > 10");
    let m = load(&wrong);
    let v = forex::prove::prove(&m.tuples[0], &Default::default(), &cancel()).verdict;
    assert!(!matches!(v, Verdict::Verified { .. }), "prove gave {v:?}");
}

#[test]
fn string_type_errors_are_diagnostics() {
    let src = "program p { string a; int n; n = a + 1; a = len(n); }";
    let err = load_source("bad.fe", src.as_bytes(), InputFormat::Fe).expect_err("type errors");
    assert_eq!(err.messages.len(), 2, "{:?}", err.messages);
    assert!(err.messages[0].starts_with("1:34:"), "{:?}", err.messages);
    let src = "program p { string a; a = \"é\"; }";
    let err = load_source("bad.fe", src.as_bytes(), InputFormat::Fe).expect_err("not ASCII");
    assert_eq!(err.messages, ["1:28: strings hold printable ASCII characters"]);
}

#[test]
fn run_takes_string_values() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.fe"), GREET).unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .current_dir(dir.path())
        .args(["run", "g.fe", "--program", "greet", "--set", r#"name="x y""#])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(r#""hi \"x y\\""#), "{stdout}");
}

/// Arrays of strings, one- and two-dimensional.
const ARRAYS: &str = r#"
program fill {
  string[] a;
  string s;
  int n;
  a[0] = "x";
  a[1] = concat(a[0], s);
  n = len(a[1]);
}
program grid {
  string[int,int] m;
  string s;
  int n;
  m[0][1] = concat(s, "!");
  m[1][0] = m[0][1];
  n = len(m[1][0]);
}
program pick {
  string[] a;
  a = *;
  assume a[0] == "";
}
tuple det { forall p: fill, q: fill; pre p.s == q.s; post p.a[1] == q.a[1] && p.n == q.n; }
tuple whole { forall p: fill, q: fill; pre p.a == q.a && p.s == q.s; post p.a == q.a; }
tuple grown { forall p: grid; post p.n == len(p.s) + 1 && p.m[1][0] == p.m[0][1]; }
tuple leak { forall p: fill, q: fill; post p.a[1] == q.a[1]; }
tuple leak2 { forall p: grid, q: grid; post p.m[1][0] == q.m[1][0]; }
tuple choose { forall p: fill; exists q: pick; post q.a[1] == p.a[1]; }
"#;

#[test]
fn string_arrays_are_proved_refuted_and_tested() {
    let m = load(ARRAYS);
    for name in ["det", "whole", "grown"] {
        let v = forex::prove::prove(tuple(&m, name), &Default::default(), &cancel()).verdict;
        assert!(matches!(v, Verdict::Verified { .. }), "{name}: prove gave {v:?}");
        let r = forex::refute::refute(tuple(&m, name), &Default::default(), &cancel()).verdict;
        assert!(!matches!(r, Verdict::Violated { .. }), "{name}: refute gave {r:?}");
    }
    for name in ["leak", "leak2"] {
        let t = tuple(&m, name);
        let r = forex::refute::refute(t, &Default::default(), &cancel()).verdict;
        let Verdict::Violated { counterexample } = &r else { panic!("{name}: refute gave {r:?}") };
        // The counterexample holds string arrays (nested for `grid`), as JSON values.
        let text = serde_json::to_value(counterexample).unwrap().to_string();
        assert!(
            text.contains(r#""type":"array""#) && text.contains(r#""type":"string""#),
            "{text}"
        );
        let h = forex::hypertest::hypertest(t, &quick_test(), &cancel()).verdict;
        assert!(matches!(h, Verdict::Violated { .. }), "{name}: test gave {h:?}");
        let p = forex::prove::prove(t, &Default::default(), &cancel()).verdict;
        assert!(!matches!(p, Verdict::Verified { .. }), "{name}: prove gave {p:?}");
    }
}

/// The ∃ copy must choose a whole array: Z3's array theory under the prover's
/// quantifiers answers `unknown`, so this valid tuple is at best `unknown`, never
/// `violated` (the same holds for `int[]`).
#[test]
fn an_exists_string_array_choice_is_never_refuted() {
    let m = load(ARRAYS);
    let t = tuple(&m, "choose");
    let p = forex::prove::prove(t, &Default::default(), &cancel()).verdict;
    assert!(!matches!(p, Verdict::Violated { .. }), "prove gave {p:?}");
    let r = forex::refute::refute(t, &Default::default(), &cancel()).verdict;
    assert!(!matches!(r, Verdict::Violated { .. }), "refute gave {r:?}");
    let h = forex::hypertest::hypertest(t, &quick_test(), &cancel()).verdict;
    assert!(!matches!(h, Verdict::Violated { .. }), "test gave {h:?}");
}

#[test]
fn run_takes_and_prints_string_arrays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.fe"), ARRAYS).unwrap();
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("forex")
            .unwrap()
            .current_dir(dir.path())
            .args(["run", "a.fe"])
            .args(args)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        stdout
    };
    let out = run(&["-p", "fill", "--set", r#"s="A""#, "--set", r#"a=[5: "q", _: "z"]"#]);
    assert!(out.contains(r#"a = [0: "x", 1: "xA", 5: "q", _: "z"]"#), "{out}");
    assert!(out.contains("n = 2"), "{out}");
    let out = run(&["-p", "grid", "--set", r#"s="ab""#]);
    assert!(
        out.contains(r#"m = [0: [1: "ab!", _: ""], 1: [0: "ab!", _: ""], _: [_: ""]]"#),
        "{out}"
    );
    assert!(out.contains("n = 3"), "{out}");
    let out = run(&["-p", "pick", "--choices", r#"[0: "", 1: "k", _: "z"]"#]);
    assert!(out.contains(r#"a = [0: "", 1: "k", _: "z"]"#), "{out}");
}

#[test]
fn a_forex_file_with_string_arrays_is_decided() {
    let src = "[forall]\nstring[int] a;\nstring s;\na[0] = s str.++ \"!\";\n\n[exists]\n\
               string[int] a;\nstring s;\na[0] = \"!\" str.++ s;\n\n[pre]\ns_0 == s_1\n\n\
               [post]\nstr.len(a_0[0]) == str.len(a_1[0])\n";
    let m = load(src);
    let v = forex::prove::prove(&m.tuples[0], &Default::default(), &cancel()).verdict;
    assert!(matches!(v, Verdict::Verified { .. }), "prove gave {v:?}");
}

/// The ∃ copy must choose a string of a given length, or one related to the ∀ side's by
/// concatenation. Z3's sequence solver finds no such witness under the query's ∀ (before
/// witness candidates from the ∀ side, `lengthy` was `unknown` at any time limit tried).
const EXISTS_STRINGS: &str = r#"
program src { string s; int n; n = len(s); }
program pick { string s; s = *; }
program pick2 { string s, t; s = *; t = *; }
tuple lengthy { forall a: src; exists b: pick; pre len(a.s) >= 1;
  post concat(b.s, "x") == concat("x", a.s) || len(b.s) == a.n + 1; }
tuple suffix { forall a: src; exists b: pick; post b.s == concat(a.s, "x"); }
tuple split { forall a: src; exists b: pick2; post concat(b.s, b.t) == a.s; }
tuple never { forall a: src; exists b: pick; post concat(b.s, "x") == a.s; }
"#;

#[test]
fn exists_strings_are_found_from_the_forall_side() {
    let m = load(EXISTS_STRINGS);
    let quick = || Cancel::new().with_timeout(Duration::from_secs(10));
    for name in ["lengthy", "suffix", "split"] {
        let v = forex::prove::prove(tuple(&m, name), &Default::default(), &quick()).verdict;
        assert!(matches!(v, Verdict::Verified { .. }), "{name}: prove gave {v:?}");
    }
    let t = tuple(&m, "never");
    let p = forex::prove::prove(t, &Default::default(), &quick()).verdict;
    assert!(!matches!(p, Verdict::Verified { .. }), "never: prove gave {p:?}");
    let r = forex::refute::refute(t, &Default::default(), &quick()).verdict;
    assert!(matches!(r, Verdict::Violated { .. }), "never: refute gave {r:?}");
}
