//! Recursion in C: a self tail call becomes a loop, other recursion (mutual too) is
//! unfolded `--recursion-depth` calls deep (default 8) and a deeper call is a cut. So
//! counterexamples within the depth are found, tuples whose `pre` keeps every run within
//! it are proved, and a tuple that needs deeper runs is never verified. Our own programs:
//! factorial, Fibonacci, sums, McCarthy's 91, gcd, even/odd, each against a loop and an
//! invalid twin. Every test skips with a note when no C compiler (the preprocessor) is
//! installed.

use crate::common::have_cc;
use assert_cmd::Command;
use forex::frontend::{load_source, InputFormat};
use forex::ir;

const PROGRAMS: &str = r#"
int fact_rec(int n) { if (n <= 1) return 1; return n * fact_rec(n - 1); }
int fact_loop(int n) { int r = 1; while (n > 1) { r = r * n; n = n - 1; } return r; }
int fact_bad(int n) { int r = 1; while (n > 2) { r = r * n; n = n - 1; } return r; }
int fib_rec(int n) { if (n < 2) return n; return fib_rec(n - 1) + fib_rec(n - 2); }
int fib_loop(int n) { int a = 0, b = 1; for (int i = 0; i < n; i++) { int t = a + b; a = b; b = t; } return a; }
int fib_off(int n) { int a = 0, b = 1; for (int i = 1; i < n; i++) { int t = a + b; a = b; b = t; } return a; }
int sum_rec(int n) { if (n <= 0) return 0; return n + sum_rec(n - 1); }
int sum_loop(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }
int sum_loop_bad(int n) { int s = 0; while (n > 1) { s += n; n--; } return s; }
int sum_capped(int n) { if (n > 20) return 0; return sum_loop(n); }
int gcd_rec(int x, int y) { if (y == 0) return x; return gcd_rec(y, x % y); }
int gcd_loop(int x, int y) { while (y != 0) { int t = y; y = x % y; x = t; } return x; }
int gcd_bad(int x, int y) { while (y > 1) { int t = y; y = x % y; x = t; } return x; }
int mc91(int n) { if (n > 100) return n - 10; return mc91(mc91(n + 11)); }
int is_odd(int n);
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
int parity(int n) { return n % 2 == 0; }
"#;

/// `PROGRAMS` under `tuples`.
fn file(tuples: &str) -> String {
    format!("/*@forex\n{tuples}*/\n{PROGRAMS}")
}

/// `forex [GLOBAL] prove --format json FILE` on `src`: each tuple's (name, verdict,
/// reason).
fn prove(global: &[&str], src: &str) -> Vec<(String, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rec.c");
    std::fs::write(&path, src).unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(global)
        .args(["prove", "--timeout", "60", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (text(&r["tuple"]), text(&r["verdict"]), text(&r["reason"])))
        .collect()
}

fn verdict<'r>(results: &'r [(String, String, String)], tuple: &str) -> &'r str {
    let r = results.iter().find(|r| r.0 == tuple).unwrap_or_else(|| panic!("{tuple}"));
    &r.1
}

#[test]
fn recursive_functions_are_decided_within_the_unfolding() {
    if !have_cc("recursive_functions_are_decided_within_the_unfolding") {
        return;
    }
    let results = prove(
        &[],
        &file(
            "tuple fact_eq { forall a: fact_rec, b: fact_loop; pre a.n == b.n && a.n <= 6; post a.ret == b.ret; }
tuple fact_bad { forall a: fact_rec, b: fact_bad; pre a.n == b.n && a.n <= 6; post a.ret == b.ret; }
tuple fib_eq { forall a: fib_rec, b: fib_loop; pre a.n == b.n && a.n >= 0 && a.n <= 6; post a.ret == b.ret; }
tuple fib_bad { forall a: fib_rec, b: fib_off; pre a.n == b.n && a.n >= 0 && a.n <= 6; post a.ret == b.ret; }
tuple sum_eq { forall a: sum_rec, b: sum_loop; pre a.n == b.n && a.n <= 7; post a.ret == b.ret; }
tuple sum_bad { forall a: sum_rec, b: sum_loop_bad; pre a.n == b.n && a.n <= 7; post a.ret == b.ret; }
tuple m91 { forall a: mc91; pre a.n >= 95 && a.n <= 100; post a.ret == 91; }
tuple m91_high { forall a: mc91; pre a.n > 100; post a.ret == a.n - 10; }
tuple m91_bad { forall a: mc91; pre a.n >= 95 && a.n <= 100; post a.ret == 92; }
tuple even_odd { forall a: is_even, b: parity; pre a.n == b.n && a.n >= 0 && a.n <= 6; post a.ret == b.ret; }
tuple even_bad { forall a: is_even, b: parity; pre a.n == b.n && a.n >= 0 && a.n <= 6; post a.ret != b.ret; }
",
        ),
    );
    for (tuple, expected) in [
        ("fact_eq", "verified"),
        ("fact_bad", "violated"),
        ("fib_eq", "verified"),
        ("fib_bad", "violated"),
        ("sum_eq", "verified"),
        ("sum_bad", "violated"),
        ("m91", "verified"),
        ("m91_high", "verified"),
        ("m91_bad", "violated"),
        ("even_odd", "verified"),
        ("even_bad", "violated"),
    ] {
        assert_eq!(verdict(&results, tuple), expected, "{tuple}: {results:?}");
    }
}

/// A tuple that needs runs deeper than the unfolding is never verified; the reason
/// names the recursive call. A deeper unfolding (`--recursion-depth`) decides it.
#[test]
fn runs_deeper_than_the_unfolding_are_never_verified() {
    if !have_cc("runs_deeper_than_the_unfolding_are_never_verified") {
        return;
    }
    let src = file(
        "tuple sum8 { forall a: sum_rec, b: sum_loop; pre a.n == b.n && a.n <= 8; post a.ret == b.ret; }
tuple unbounded { forall a: sum_rec, b: sum_loop; pre a.n == b.n; post a.ret == b.ret; }
tuple deep_bug { forall a: sum_rec, b: sum_capped; pre a.n == b.n; post a.ret == b.ret; }
tuple mutual { forall a: is_even, b: parity; pre a.n == b.n && a.n >= 0; post a.ret == b.ret; }
",
    );
    let results = prove(&[], &src);
    for tuple in ["sum8", "unbounded", "deep_bug", "mutual"] {
        assert_eq!(verdict(&results, tuple), "unknown", "{tuple}: {results:?}");
    }
    let sum8 = &results.iter().find(|r| r.0 == "sum8").unwrap().2;
    assert!(sum8.contains("recursive call at"), "{sum8}");
    assert!(sum8.contains("goes deeper than unfolded"), "{sum8}");
    let results = prove(&["--recursion-depth", "9"], &src);
    assert_eq!(verdict(&results, "sum8"), "verified", "{results:?}");
}

/// `return f(…);` in `f` is a loop (no cut, whatever the depth); other recursion is
/// unfolded and cut.
#[test]
fn a_self_tail_call_is_a_loop() {
    if !have_cc("a_self_tail_call_is_a_loop") {
        return;
    }
    let src = file("tuple t { forall a: gcd_rec; post a.ret == a.ret; }\n");
    let m = load_source("rec.c", src.as_bytes(), InputFormat::Auto).expect("loads");
    let program = |name: &str| m.programs.iter().find(|p| p.name == name).expect(name);
    let gcd = program("gcd_rec");
    assert!(ir::has_loop(&gcd.body) && !ir::has_cut(&gcd.body));
    let fib = program("fib_rec");
    assert!(!ir::has_loop(&fib.body) && ir::has_cut(&fib.body));
    // McCarthy's 91: the outer call is a tail call (a loop), the inner one is unfolded.
    let mc = program("mc91");
    assert!(ir::has_loop(&mc.body) && ir::has_cut(&mc.body));
    let results = prove(
        &[],
        &file(
            "tuple gcd_eq { forall a: gcd_rec, b: gcd_loop; pre a.x == b.x && a.y == b.y && a.x >= 0 && a.y >= 0; post a.ret == b.ret; }
tuple gcd_bad { forall a: gcd_rec, b: gcd_bad; pre a.x == b.x && a.y == b.y && a.x >= 0 && a.y >= 0; post a.ret == b.ret; }
",
        ),
    );
    // `if (y == 0) return x; return gcd_rec(y, x % y);` is `while (y != 0) …`: in step
    // with the hand-written loop, proved for all inputs.
    assert_eq!(verdict(&results, "gcd_eq"), "verified", "{results:?}");
    assert_eq!(verdict(&results, "gcd_bad"), "violated", "{results:?}");
}

/// `forex run` through recursion: within the unfolding it computes C's result; past it
/// the run stops at the cut (exit 2) and says where.
#[test]
fn a_run_past_the_unfolding_stops_at_the_cut() {
    if !have_cc("a_run_past_the_unfolding_stops_at_the_cut") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rec.c");
    std::fs::write(&path, file("tuple t { forall a: fib_rec; post a.ret >= 0; }\n")).unwrap();
    let run = |function: &str, sets: &[&str]| {
        let mut c = Command::cargo_bin("forex").unwrap();
        c.args(["--int-model", "math", "run"]).arg(&path).args(["-p", function]);
        for s in sets {
            c.args(["--set", s]);
        }
        let out = c.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let ret = stdout.lines().find_map(|l| l.strip_prefix("ret = ")).map(str::to_string);
        (out.status.code(), ret, String::from_utf8_lossy(&out.stderr).to_string())
    };
    assert_eq!(run("fib_rec", &["n=6"]).1.as_deref(), Some("8"));
    assert_eq!(run("gcd_rec", &["x=12", "y=18"]).1.as_deref(), Some("6"));
    // gcd's loop has no depth: 40 rounds.
    assert_eq!(run("gcd_rec", &["x=165580141", "y=102334155"]).1.as_deref(), Some("1"));
    let (code, _, stderr) = run("fib_rec", &["n=12"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("goes deeper than the front end unfolded it"), "{stderr}");
}

#[test]
fn a_bad_recursion_depth_is_a_usage_error() {
    for bad in ["0", "65", "x"] {
        let out = Command::cargo_bin("forex")
            .unwrap()
            .args(["--recursion-depth", bad, "check", "nothing.c"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--recursion-depth"), "{stderr}");
    }
}
