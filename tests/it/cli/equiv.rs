//! `forex equiv OLD NEW` end to end: pairing by name and by `--function old=new`, the
//! default inputs and outputs of C and `.fe` versions, `--in`/`--out`, `--refines`,
//! `--git`, report formats, and bad input (missing functions, different parameter
//! types, mixed languages) with exit code 3.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

const OLD_C: &str = "\
int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  return s;
}
int twice(int x) { return x + x; }
int dec(int x) { return x - 1; }
void clear(int a[], int k) { a[k] = 0; }
int only_old(int x) { return x; }
int widen(int x) { return x; }
";

const NEW_C: &str = "\
int sum(int n) {
  int s = 0;
  int i = 0;
  while (i < n) { s = s + i; i = i + 1; }
  return s;
}
int twice(int x) { return 2 * x; }
int dec(int x) { return x + 1; }
void clear(int a[], int k) { a[k] = 1; }
int minus_one(int y) { return y - 1; }
int widen(long x) { return (int)x; }
";

fn forex() -> Command {
    Command::cargo_bin("forex").expect("the forex binary")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// `forex equiv` with `args`, as JSON: (exit code, results by tuple name → verdict).
fn equiv_json(args: &[&str]) -> (i32, Vec<(String, String)>, Value) {
    let out = forex()
        .arg("equiv")
        .args(args)
        .args(["--format", "json", "--timeout", "20"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let results = json["results"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| {
                    (
                        r["tuple"].as_str().unwrap_or("").to_string(),
                        r["verdict"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (out.status.code().unwrap_or(-1), results, json)
}

fn verdict<'a>(results: &'a [(String, String)], name: &str) -> &'a str {
    results.iter().find(|(t, _)| t == name).map(|(_, v)| v.as_str()).unwrap_or("missing")
}

#[test]
fn same_named_c_functions_are_paired_and_decided() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    let (code, results, _) =
        equiv_json(&[&old, &new, "-f", "sum", "-f", "twice", "-f", "dec", "-f", "clear"]);
    assert_eq!(verdict(&results, "sum"), "verified", "{results:?}");
    assert_eq!(verdict(&results, "twice"), "verified");
    assert_eq!(verdict(&results, "dec"), "violated");
    // An array parameter either version writes is an output: a[k] differs.
    assert_eq!(verdict(&results, "clear"), "violated");
    assert_eq!(code, 1);
}

#[test]
fn a_difference_shows_both_versions_runs_and_the_output_that_differs() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    let out = forex().args(["equiv", &old, &new, "-f", "dec"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("∀ old: dec"), "{text}");
    assert!(text.contains("∀ new: dec"), "{text}");
    assert!(text.contains("violated conjunct: old.ret == new.ret"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn by_default_every_function_of_both_is_compared_and_the_others_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let same = "int f(int x) { return x * 3; }\nint g(int x) { return x; }\n";
    let (old, new) = (write(dir.path(), "a.c", same), write(dir.path(), "b.c", same));
    let out = forex().args(["equiv", &old, &new, "--format", "json"]).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> =
        json["results"].as_array().unwrap().iter().map(|r| r["tuple"].as_str().unwrap()).collect();
    assert_eq!(names, ["f", "g"]);
    assert_eq!(json["summary"]["verified"], 2);
    assert_eq!(out.status.code(), Some(0));
    // A function in one version only is named in a warning, and not compared.
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    let out = forex().args(["equiv", &old, &new, "-f", "twice"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = forex().args(["equiv", &old, &new, "--timeout", "5"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`only_old` is defined in"), "{err}");
    assert!(err.contains("`minus_one` is defined in"), "{err}");
}

#[test]
fn renamed_functions_are_paired_with_old_equals_new() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    let (code, results, _) = equiv_json(&[&old, &new, "--function", "dec=minus_one"]);
    assert_eq!(results, [("dec=minus_one".to_string(), "verified".to_string())]);
    assert_eq!(code, 0);
}

#[test]
fn in_and_out_replace_the_default_lists() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "old.fe", "program p { int x, y, t; t = x; y = x + 1; }\n");
    let new = write(dir.path(), "new.fe", "program p { int x, y, t; t = 0; y = 1 + x; }\n");
    // By default every common variable is an input and an output: `t` differs.
    let (code, results, _) = equiv_json(&[&old, &new]);
    assert_eq!(results, [("p".to_string(), "violated".to_string())]);
    assert_eq!(code, 1);
    let (code, results, _) = equiv_json(&[&old, &new, "--out", "y"]);
    assert_eq!(results, [("p".to_string(), "verified".to_string())]);
    assert_eq!(code, 0);
    // Without `x` among the inputs the versions start from different `x`.
    let (_, results, _) = equiv_json(&[&old, &new, "--in", "t", "--out", "y"]);
    assert_eq!(results, [("p".to_string(), "violated".to_string())]);
    // Renamed variables: old_name=new_name.
    let new2 = write(dir.path(), "new2.fe", "program p { int a, b; b = a + 1; }\n");
    let (_, results, _) = equiv_json(&[&old, &new2, "--in", "x=a", "--out", "y=b"]);
    assert_eq!(results, [("p".to_string(), "verified".to_string())]);
}

#[test]
fn refines_asks_that_every_new_run_is_an_old_run() {
    let dir = tempfile::tempdir().unwrap();
    let wide = "program pick { int x, r; r = *; assume 0 <= r && r < 10; x = r; }\n";
    let narrow = "program pick { int x, r; r = *; assume 2 <= r && r < 5; x = r; }\n";
    let (wide, narrow) =
        (write(dir.path(), "wide.fe", wide), write(dir.path(), "narrow.fe", narrow));
    let (code, results, _) = equiv_json(&["--refines", &wide, &narrow, "--out", "x"]);
    assert_eq!(results, [("pick".to_string(), "verified".to_string())]);
    assert_eq!(code, 0);
    let (code, results, _) = equiv_json(&["--refines", &narrow, &wide, "--out", "x"]);
    assert_eq!(results, [("pick".to_string(), "violated".to_string())]);
    assert_eq!(code, 1);
    // Without --refines two nondeterministic runs need not agree.
    let (_, results, _) = equiv_json(&[&wide, &wide, "--out", "x"]);
    assert_eq!(results, [("pick".to_string(), "violated".to_string())]);
}

#[test]
fn git_reads_the_old_version_from_a_revision() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(d)
            .args(["-c", "user.email=t@t", "-c", "user.name=t"])
            .args(args)
            .output()
            .map(|o| o.status.success());
        ok.unwrap_or(false)
    };
    if !git(&["init", "-q"]) {
        eprintln!("note: git is not available here; --git is not tested");
        return;
    }
    let file = write(d, "x.c", OLD_C);
    assert!(git(&["add", "x.c"]) && git(&["commit", "-qm", "old"]));
    write(d, "x.c", NEW_C);
    let (code, results, json) = equiv_json(&["--git", "HEAD", &file, "-f", "twice", "-f", "dec"]);
    assert_eq!(verdict(&results, "twice"), "verified", "{json}");
    assert_eq!(verdict(&results, "dec"), "violated");
    assert_eq!(code, 1);
    // A revision git does not know is a command-line error.
    let out = forex().args(["equiv", "--git", "no-such-rev", &file]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--git no-such-rev"));
}

#[test]
fn bad_input_is_a_clear_diagnostic_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    let run = |args: &[&str]| {
        let out = forex().arg("equiv").args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // A function missing from one version.
    let (code, err) = run(&[&old, &new, "-f", "nope"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("has no function `nope`"), "{err}");
    assert!(err.contains("it defines `sum`"), "{err}");
    // Different parameter types, unless --in says how the inputs correspond.
    let (code, err) = run(&[&old, &new, "-f", "widen"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("parameter `x` of `widen` is int in"), "{err}");
    assert!(err.contains("--in"), "{err}");
    // An unknown variable in --in.
    let (code, err) = run(&[&old, &new, "-f", "twice", "--in", "nope"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("input `nope` is not a variable of `twice`"), "{err}");
    // Two languages.
    let fe = write(dir.path(), "p.fe", "program sum { int n; n = 1; }\n");
    let (code, err) = run(&[&fe, &new]);
    assert_eq!(code, Some(3));
    assert!(err.contains("both versions must be of one language"), "{err}");
    // One file without --git, three files, a missing file, a malformed --function.
    assert_eq!(run(&[&old]).0, Some(3));
    assert_eq!(run(&[&old, &new, &new]).0, Some(3));
    let (code, err) = run(&[&old, "/nonexistent/new.c"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("/nonexistent/new.c"), "{err}");
    let (code, err) = run(&[&old, &new, "-f", "=g"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("expected NAME or OLD_NAME=NEW_NAME"), "{err}");
    // A syntax error in one version is that file's diagnostic, with its position.
    let broken = write(dir.path(), "broken.c", "int f(int x) { return x +; }\n");
    let (code, err) = run(&[&old, &broken]);
    assert_eq!(code, Some(3));
    assert!(err.contains("broken.c:1:"), "{err}");
    // No function of the same name.
    let other = write(dir.path(), "other.c", "int zzz(int x) { return x; }\n");
    let (code, err) = run(&[&old, &other]);
    assert_eq!(code, Some(3));
    assert!(err.contains("define no function of the same name"), "{err}");
}

#[test]
fn a_broken_function_breaks_only_its_pair() {
    let dir = tempfile::tempdir().unwrap();
    let old =
        write(dir.path(), "old.c", "int f(int x) { return x; }\nint g(int x) { return x; }\n");
    let new = write(
        dir.path(),
        "new.c",
        "int f(int x) { return x; }\nint g(int x) { return undefined_thing; }\n",
    );
    let (code, results, _) = equiv_json(&[&old, &new]);
    assert_eq!(verdict(&results, "f"), "verified");
    assert_eq!(verdict(&results, "g"), "error");
    assert_eq!(code, 3);
}

#[test]
fn every_report_format_names_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    for (format, needle) in
        [("junit", "testcase"), ("sarif", "\"ruleId\""), ("github", "::error"), ("human", "dec")]
    {
        let out =
            forex().args(["equiv", &old, &new, "-f", "dec", "--format", format]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(needle), "{format}: {text}");
        assert!(text.contains("dec"), "{format}: {text}");
        assert_eq!(out.status.code(), Some(1), "{format}");
    }
}

#[test]
fn native_check_runs_both_compiled_versions_on_the_difference() {
    if forex::native::exec::find_compiler(None).is_err() {
        eprintln!("note: no C compiler found: equiv --native-check test skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_C), write(dir.path(), "new.c", NEW_C));
    let (code, results, json) = equiv_json(&[&old, &new, "-f", "dec", "--native-check"]);
    assert_eq!(results, [("dec".to_string(), "violated".to_string())]);
    assert_eq!(code, 1);
    let native = &json["results"][0]["native"];
    assert_eq!(native["result"], "agrees", "{json}");
    // Both versions' ret and x: four values.
    assert_eq!(native["compared"], 4, "{json}");
}
