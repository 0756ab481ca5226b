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

/// Pointers, structs and globals: the old version of each function.
const OLD_MEM: &str = "\
struct point { int x; int y; };
int counter;
int hits;
void set(int *out, int x) { *out = x + 1; }
void set_off(int *out, int x) { *out = x + 1; }
int sum(struct point s) { return s.x + s.y; }
void shift(struct point *p) { p->x = p->x + 1; }
void tick(void) { counter = counter + 2; }
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
int get(int *p) { if (!p) return 0; return *p; }
int get_guarded(int *p) { if (!p) return 0; return *p; }
int echo(int x) { hits++; return x; }
struct point mk(int a) { struct point p; p.x = a; p.y = a; return p; }
";

/// The new version: `set`, `sum`, `shift`, `swap`, `get_guarded` are equivalent
/// rewrites; `set_off`, `tick` (counts by 3), `get` (no NULL check) and `mk` differ;
/// `echo` no longer counts its calls, and `hits` is gone from the file.
const NEW_MEM: &str = "\
struct point { int x; int y; };
int counter;
void set(int *out, int x) { int y = x; y++; *out = y; }
void set_off(int *out, int x) { *out = x + 2; }
int sum(struct point s) { return s.y + s.x; }
void shift(struct point *p) { p->x += 1; p->y = p->y; }
void tick(void) { counter++; counter++; counter++; }
void swap(int *a, int *b) { *a = *a + *b; *b = *a - *b; *a = *a - *b; }
int get(int *p) { return *p; }
int get_guarded(int *p) { return p ? *p : 0; }
int echo(int x) { return x; }
struct point mk(int a) { struct point p = {a, a + 1}; return p; }
";

#[test]
fn pointer_parameters_compare_their_pointees() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_MEM), write(dir.path(), "new.c", NEW_MEM));
    // Every pointer parameter may be NULL, and writing through it is undefined behaviour;
    // where both versions reach it on one input, nothing C defines tells them apart (and
    // the compiled versions both fail): that input is no difference (LANGUAGE.md "forex
    // equiv"). The rewrites are equivalent without `--no-ub`.
    let fs = ["-f", "set", "-f", "set_off", "-f", "shift", "-f", "swap"];
    let (code, results, json) = equiv_json(&[&[old.as_str(), new.as_str()][..], &fs].concat());
    assert_eq!(verdict(&results, "set"), "verified", "{json}");
    assert_eq!(verdict(&results, "shift"), "verified", "{json}");
    assert_eq!(verdict(&results, "swap"), "verified", "{json}");
    assert_eq!(verdict(&results, "set_off"), "violated", "{json}");
    assert_eq!(code, 1);
    // Undefined behaviour in one version only is a difference; the tester's failed
    // conjunct is said in words, not as forex's ghost variable `$ub`.
    let (code, _, json) = equiv_json(&[&old, &new, "-f", "get", "--engine", "test"]);
    let cex = &json["results"][0]["counterexample"];
    assert_eq!(cex["violated_conjunct"], "undefined behaviour in one version only", "{json}");
    assert!(cex["explanation"].as_str().unwrap_or("").contains("null dereference"), "{json}");
    assert_eq!(code, 1);
    // The counterexample shows the pointee's contents, before and after, in both copies.
    let out = forex().args(["equiv", &old, &new, "-f", "set_off", "--no-ub"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("violated conjunct: old.*out == new.*out"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("*out ") && l.contains('[')).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows.iter().all(|r| r.contains("[0: ")), "the written element: {text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_null_check_in_one_version_only_differs_unless_undefined_behaviour_is_assumed_away() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_MEM), write(dir.path(), "new.c", NEW_MEM));
    // On NULL the old version returns 0 and the new one dereferences it.
    let (code, results, json) = equiv_json(&[&old, &new, "-f", "get", "-f", "get_guarded"]);
    assert_eq!(verdict(&results, "get"), "violated", "{json}");
    assert_eq!(verdict(&results, "get_guarded"), "verified", "{json}");
    let get = json["results"].as_array().unwrap().iter().find(|r| r["tuple"] == "get").unwrap();
    assert!(
        get["counterexample"]["explanation"]
            .as_str()
            .unwrap_or("")
            .contains("undefined behaviour in copy `new`"),
        "{json}"
    );
    assert_eq!(code, 1);
    // Runs that reach undefined behaviour assumed absent: the new version never sees NULL.
    let (code, results, _) = equiv_json(&[&old, &new, "-f", "get", "--no-ub"]);
    assert_eq!(results, [("get".to_string(), "verified".to_string())]);
    assert_eq!(code, 0);
}

#[test]
fn struct_parameters_and_results_compare_member_by_member() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_MEM), write(dir.path(), "new.c", NEW_MEM));
    let (code, results, json) = equiv_json(&[&old, &new, "-f", "sum", "-f", "mk"]);
    assert_eq!(verdict(&results, "sum"), "verified", "{json}");
    assert_eq!(verdict(&results, "mk"), "violated", "{json}");
    assert_eq!(code, 1);
    let out = forex().args(["equiv", &old, &new, "-f", "mk"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("violated conjunct: old.ret.y == new.ret.y"), "{text}");
    // Renamed struct parameters pair member by member, by position.
    let a = write(
        dir.path(),
        "a.c",
        "struct p { int x; int y; };\nint f(struct p s) { return s.x; }\n",
    );
    let b = write(
        dir.path(),
        "b.c",
        "struct p { int x; int y; };\nint f(struct p t) { return t.x; }\n",
    );
    let (code, results, _) = equiv_json(&[&a, &b]);
    assert_eq!(results, [("f".to_string(), "verified".to_string())]);
    assert_eq!(code, 0);
}

#[test]
fn globals_are_inputs_and_the_written_ones_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_MEM), write(dir.path(), "new.c", NEW_MEM));
    let (code, results, json) = equiv_json(&[&old, &new, "-f", "tick"]);
    assert_eq!(results, [("tick".to_string(), "violated".to_string())], "{json}");
    assert_eq!(code, 1);
    let out = forex().args(["equiv", &old, &new, "-f", "tick"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("violated conjunct: old.counter == new.counter"), "{text}");
    // Read as inputs: equal at the start in both versions.
    let a = write(dir.path(), "a.c", "int g;\nint f(int x) { return x + g; }\n");
    let b = write(dir.path(), "b.c", "int g;\nint f(int x) { return g + x; }\n");
    assert_eq!(equiv_json(&[&a, &b]).1, [("f".to_string(), "verified".to_string())]);
    // Static locals too (`f::n`).
    let a = write(dir.path(), "sa.c", "int f(void) { static int n; n++; return n; }\n");
    let b = write(dir.path(), "sb.c", "int f(void) { static int n; n += 2; return n - 1; }\n");
    let (code, results, json) = equiv_json(&[&a, &b]);
    assert_eq!(results, [("f".to_string(), "violated".to_string())], "{json}");
    assert_eq!(code, 1);
    // A global the new version's file declares but its function no longer writes stays
    // unchanged there: the old one counts calls, the new one does not.
    let c = write(dir.path(), "c.c", "int hits;\nint echo(int x) { return x; }\n");
    let (code, results, _) = equiv_json(&[&old, &c, "-f", "echo"]);
    assert_eq!(results, [("echo".to_string(), "violated".to_string())]);
    assert_eq!(code, 1);
    let out = forex().args(["equiv", &old, &c, "-f", "echo"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("violated conjunct: old.hits == new.hits"), "{text}");
    // --out says what to compare instead.
    let (code, results, _) = equiv_json(&[&old, &new, "-f", "echo", "--out", "ret"]);
    assert_eq!(results, [("echo".to_string(), "verified".to_string())]);
    assert_eq!(code, 0);
}

#[test]
fn pointer_struct_and_global_mismatches_are_diagnostics_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (write(dir.path(), "old.c", OLD_MEM), write(dir.path(), "new.c", NEW_MEM));
    let run = |args: &[&str]| {
        let out = forex().arg("equiv").args(args).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // A global written by one version that the other file does not have.
    let (code, err) = run(&[&old, &new, "-f", "echo"]);
    assert_eq!(code, Some(3));
    assert!(err.contains("`echo` writes the global `hits` in"), "{err}");
    assert!(err.contains("--out"), "{err}");
    // A pointer parameter in one version, an int in the other.
    let a = write(dir.path(), "a.c", "int f(int *p, int x) { return x; }\n");
    let b = write(dir.path(), "b.c", "int f(int p, int x) { return x; }\n");
    let (code, err) = run(&[&a, &b]);
    assert_eq!(code, Some(3));
    assert!(err.contains("parameter `p` of `f` is int * in"), "{err}");
    assert!(err.contains("`p` is int in"), "{err}");
    // Structs of different tags, pointers to them.
    let a = write(dir.path(), "sa.c", "struct p { int x; };\nint f(struct p *s) { return 0; }\n");
    let b = write(dir.path(), "sb.c", "struct q { int x; };\nint f(struct q *s) { return 0; }\n");
    let (code, err) = run(&[&a, &b]);
    assert_eq!(code, Some(3));
    assert!(err.contains("is struct p * in"), "{err}");
    assert!(err.contains("`s` is struct q * in"), "{err}");
    // One struct whose members changed.
    let a = write(dir.path(), "ma.c", "struct p { int x; };\nint f(struct p s) { return s.x; }\n");
    let b = write(
        dir.path(),
        "mb.c",
        "struct p { int x; int y; };\nint f(struct p s) { return s.x; }\n",
    );
    let (code, err) = run(&[&a, &b]);
    assert_eq!(code, Some(3));
    assert!(err.contains("has 1 part(s) in the old version (s.x) and 2 in the new one"), "{err}");
    // A global of two types.
    let a = write(dir.path(), "ga.c", "int g;\nint f(void) { return g; }\n");
    let b = write(dir.path(), "gb.c", "long g;\nint f(void) { return (int)g; }\n");
    let (code, err) = run(&[&a, &b]);
    assert_eq!(code, Some(3));
    assert!(err.contains("the global `g` is int in"), "{err}");
    assert!(err.contains("and long in"), "{err}");
    // A pointer result: its target is an object of one version.
    let a = write(dir.path(), "pa.c", "int *f(int *p) { return p; }\n");
    let (code, err) = run(&[&a, &a]);
    assert_eq!(code, Some(3));
    assert!(err.contains("the result of `f` is int *, which holds pointers"), "{err}");
}

/// Functions over `double` are paired like any other (they were left out of the file's C
/// facts, so equiv skipped them without a word): reassociating an addition differs.
#[test]
fn double_functions_are_paired_too() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(
        dir.path(),
        "old.c",
        "double f(double x) { return (x + 1.0) + 2.0; }\nfloat g(float x) { return x; }\n",
    );
    let new = write(
        dir.path(),
        "new.c",
        "double f(double x) { return x + 3.0; }\nfloat g(float y) { return y; }\n",
    );
    let (code, results, json) = equiv_json(&[&old, &new]);
    assert_eq!(verdict(&results, "f"), "violated", "{json}");
    assert_eq!(verdict(&results, "g"), "verified", "{json}");
    assert_eq!(code, 1);
}

/// A long float series whose rounding changed (`d *= x / a` against `d = d * x / a`):
/// the exact IEEE queries of the refuter can outlast the timeout without answering
/// Z3's interrupt, so the portfolio tests float tuples for the tester's whole budget
/// before the refuter (it answered `unknown` at the deadline before).
#[test]
fn a_float_series_with_other_rounding_differs() {
    let dir = tempfile::tempdir().unwrap();
    let series = |step: &str| {
        format!(
            "double series(double a, double x) {{\n  double sum, del, ap; int n;\n  \
             if (x <= 0.0) return 0.0;\n  ap = a; del = sum = 1.0 / a;\n  \
             for (n = 1; n <= 100; n++) {{ ++ap; {step} sum += del; }}\n  return sum;\n}}\n"
        )
    };
    let old = write(dir.path(), "old.c", &series("del *= x / ap;"));
    let new = write(dir.path(), "new.c", &series("del = del * x / ap;"));
    let (code, results, json) = equiv_json(&[&old, &new]);
    assert_eq!(verdict(&results, "series"), "violated", "{json}");
    assert_eq!(code, 1);
}

/// A continued fraction that returns from inside its loop through a library call
/// (`exp`, uninterpreted: one table both copies read), with statements reordered and
/// operands swapped in the new version. The float abstraction proves it by congruence
/// only if both copies build each commutative operation with its operands in one
/// order: ordered by Z3's term ids, which follow creation order, `old.b + 2.0` and
/// `new.b + 2.0` came out as `add(b, 2.0)` and `add(2.0, b)` (`unknown` at 20 s).
#[test]
fn a_loop_returning_through_a_library_call_is_proved_by_the_abstraction() {
    let dir = tempfile::tempdir().unwrap();
    let fraction = |start: &str, step: &str| {
        format!(
            "#include <math.h>\ndouble tail(int n, double x) {{\n  double b, c, d, h, del; int i;\n  \
             if (x <= 1.0) return -1.0;\n  {start}\n  \
             for (i = 1; i <= 100; i++) {{\n    double a = -i * (n - 1.0 + i);\n    \
             {step}\n    d = 1.0 / (a * d + b); c = b + a / c; del = c * d; h *= del;\n    \
             if (fabs(del - 1.0) < 1.0e-7) return h * exp(-x);\n  }}\n  return 0.0;\n}}\n"
        )
    };
    let old = write(
        dir.path(),
        "old.c",
        &fraction("b = x + n; c = 1.0e30; d = 1.0 / b; h = d;", "b += 2.0;"),
    );
    let new = write(
        dir.path(),
        "new.c",
        &fraction("c = 1.0e30; b = n + x; d = 1.0 / b; h = d;", "b = 2.0 + b;"),
    );
    let (code, results, json) = equiv_json(&[&old, &new, "--engine", "prove"]);
    assert_eq!(verdict(&results, "tail"), "verified", "{json}");
    let tail = json["results"].as_array().unwrap().iter().find(|r| r["tuple"] == "tail");
    assert_eq!(tail.unwrap()["proof"]["float_encoding"], "abstract", "{json}");
    assert_eq!(code, 0);
    // A different tolerance is a different function; the tester shows it.
    let off = write(
        dir.path(),
        "off.c",
        &fraction("b = x + n; c = 1.0e30; d = 1.0 / b; h = d;", "b += 2.5;"),
    );
    let (code, results, json) = equiv_json(&[&old, &off]);
    assert_eq!(verdict(&results, "tail"), "violated", "{json}");
    assert_eq!(code, 1);
}

/// Loops that set a variable before reading it: `ret` by a `return` inside the loop, a
/// local a `do … while` assigns each round. Each copy starts them at its own arbitrary
/// value, so their equality is not a loop invariant until the loop set them (`$return
/// ==> ret == ret'`, `!$loop ==> m == m'`); and the copies' array reads at `lo + (hi -
/// lo) / 2` are one term once the copies' `lo == lo'` is solved (they kept Z3 past its
/// limit). The prover alone proves the refactorings; the changed versions differ.
#[test]
fn loops_that_return_early_or_set_before_reading_are_proved_in_lockstep() {
    let dir = tempfile::tempdir().unwrap();
    let search = |found: &str, step: &str| {
        format!(
            "int search(int a[], int n, int key) {{\n  int lo = 0, hi = n - 1;\n  \
             while (lo <= hi) {{\n    int mid = lo + (hi - lo) / 2;\n    \
             if (a[mid] == key) return {found};\n    \
             if (a[mid] < key) lo = mid + 1; else hi = mid - {step};\n  }}\n  return -1;\n}}\n\
             int last(int x, int y) {{\n  int m;\n  do {{ m = x > y ? x : y; x--; }} while (x > 0);\n  \
             return m;\n}}\n"
        )
    };
    let old = write(dir.path(), "old.c", &search("mid", "1"));
    let same = write(dir.path(), "same.c", &search("lo + (hi - lo) / 2", "1"));
    let found = write(dir.path(), "found.c", &search("mid + 0 * lo + 1", "1"));
    let (code, results, json) = equiv_json(&[&old, &same, "--engine", "prove"]);
    assert_eq!(verdict(&results, "search"), "verified", "{json}");
    assert_eq!(verdict(&results, "last"), "verified", "{json}");
    assert_eq!(code, 0);
    let (code, results, json) = equiv_json(&[&old, &found, "--function", "search"]);
    assert_eq!(verdict(&results, "search"), "violated", "{json}");
    assert_eq!(code, 1);
}

/// A loop over a local table of coefficients (`static double cof[6] = {…}` read at
/// `cof[j]`), as numerical code writes it, with `++y` inside the division against the
/// increment on its own line. Under machine integers `j` is a bit-vector whose guard
/// compares signed (`slt(j, 6)`) and each read checks `0 <= j < 6`: the invariant needs
/// the signed `sge(j, old(j))`, and the miner offered only the unsigned `j >= old(j)`
/// (true of every bit-vector): `unknown` at 20 s before. A changed coefficient differs.
#[test]
fn a_loop_over_a_local_table_is_proved_under_machine_integers() {
    let dir = tempfile::tempdir().unwrap();
    let gamma = |table: &str, step: &str| {
        format!(
            "#include <math.h>\ndouble gammln(double xx) {{\n  double x, y, tmp, ser;\n  \
             static double cof[6] = {{{table}}};\n  int j;\n  y = x = xx;\n  \
             tmp = x + 5.5;\n  tmp -= (x + 0.5) * log(tmp);\n  ser = 1.000000000190015;\n  \
             for (j = 0; j <= 5; j++) {step}\n  return -tmp + log(2.5066282746310005 * ser / x);\n}}\n\
             int total(int n) {{\n  int w[4] = {{3, 1, 4, 1}};\n  int s = n, i;\n  \
             for (i = 0; i < 4; i++) {step_int}\n  return s;\n}}\n",
            step_int = if step.contains("++y") { "s += w[i];" } else { "{ s = s + w[i]; }" }
        )
    };
    let table = "76.18009172947146, -86.50532032941677, 24.01409824083091, \
                 -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5";
    let old = write(dir.path(), "old.c", &gamma(table, "ser += cof[j] / ++y;"));
    let new = write(dir.path(), "new.c", &gamma(table, "{ y = y + 1; ser += cof[j] / y; }"));
    let (code, results, json) = equiv_json(&[&old, &new, "--engine", "prove"]);
    assert_eq!(verdict(&results, "gammln"), "verified", "{json}");
    assert_eq!(verdict(&results, "total"), "verified", "{json}");
    assert_eq!(code, 0);
    let changed = write(
        dir.path(),
        "changed.c",
        &gamma(&table.replace("24.01409824083091", "24.5"), "ser += cof[j] / ++y;"),
    );
    let (code, results, json) = equiv_json(&[&old, &changed]);
    assert_eq!(verdict(&results, "gammln"), "violated", "{json}");
    assert_eq!(code, 1);
}

/// A difference that flows only through a library function's argument (`log(x * x +
/// 1.0)` against `log(x * x + 2.0)`): `log` is a table both versions read, and a random
/// table is one default value with entries at small indices, which the bit patterns of
/// these arguments never are; the tester now learns where the copies read it and gives
/// each of those indices a value of its own (`hypertest::tables`). Before: `unknown`
/// from every engine at 10 s; the tester alone finds it now.
#[test]
fn a_difference_only_in_a_library_call_argument_is_found_by_testing() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(
        dir.path(),
        "old.c",
        "#include <math.h>\ndouble f(double x) { return log(x * x + 1.0) * 2.0; }\n",
    );
    let new = write(
        dir.path(),
        "new.c",
        "#include <math.h>\ndouble f(double x) { return 2.0 * log(x * x + 2.0); }\n",
    );
    let (code, results, json) = equiv_json(&[&old, &new, "--engine", "test"]);
    assert_eq!(verdict(&results, "f"), "violated", "{json}");
    assert_eq!(code, 1);
    // Equal arguments read equal entries: the same function is never shown to differ.
    let same = write(
        dir.path(),
        "same.c",
        "#include <math.h>\ndouble f(double x) { return 2.0 * log(1.0 + x * x); }\n",
    );
    let (_, results, json) = equiv_json(&[&old, &same, "--engine", "test"]);
    assert_eq!(verdict(&results, "f"), "unknown", "{json}");
}

/// Standard functions called without their header (`abs`, `fabs`, `memset` with no
/// `#include`), which gcc compiles as the builtins they name: read with the header
/// included first (`c::implicit`), so that `abs(n)` is the standard `abs` and the pair is
/// decided; positions stay the user's; a name that is no standard function stays an
/// error at its call.
#[test]
fn standard_functions_called_without_their_header_are_read_as_gcc_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(
        dir.path(),
        "old.c",
        "int g(int n) { return abs(n); }\ndouble d(double x) { return fabs(x); }\n\
         void z(char p[4]) { memset(p, 0, 4); }\nint h(int n) { return n; }\n",
    );
    let new = write(
        dir.path(),
        "new.c",
        "int g(int n) { return n < 0 ? -n : n; }\ndouble d(double x) { return x < 0 ? -x : x; }\n\
         void z(char p[4]) { p[0] = p[1] = p[2] = p[3] = 0; }\nint h(int n) {\n  return zz(n);\n}\n",
    );
    let (code, results, json) = equiv_json(&[&old, &new]);
    assert_eq!(verdict(&results, "g"), "verified", "{json}");
    // fabs(-0.0) is +0.0, the comparison keeps -0.0.
    assert_eq!(verdict(&results, "d"), "violated", "{json}");
    assert_eq!(verdict(&results, "z"), "verified", "{json}");
    assert_eq!(verdict(&results, "h"), "error", "{json}");
    assert_eq!(code, 3);
    let out = forex().args(["equiv", &old, &new, "--diagnostics", "short"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("new.c:5:10: error: call of `zz`"), "{err}");
}

/// Euclid's loop written two ways (`b != 0` with a temporary for `b`, `b > 0` with one
/// for the remainder) after the code before it returned on negative inputs: the copies
/// agree only while `a >= 0` (C's `%` takes the dividend's sign), a fact the code before
/// the loop checked and no counter gives. Variables a loop divides or guards on now get
/// a sign candidate (`sge(a, 0)`): `unknown` at 20 s before. Returning `b` (0) differs.
#[test]
fn a_remainder_loop_keeps_the_signs_the_code_before_it_checked() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(
        dir.path(),
        "old.c",
        "int gcd(int a, int b) {\n  if (a < 0 || b < 0) return 0;\n  \
         while (b != 0) { int t = b; b = a % b; a = t; }\n  return a;\n}\n",
    );
    let gcd = |ret: &str| {
        format!(
            "int gcd(int a, int b) {{\n  if (a < 0 || b < 0) return 0;\n  \
             while (b > 0) {{ int t = a % b; a = b; b = t; }}\n  return {ret};\n}}\n"
        )
    };
    let new = write(dir.path(), "new.c", &gcd("a"));
    let (code, results, json) = equiv_json(&[&old, &new, "--engine", "prove"]);
    assert_eq!(verdict(&results, "gcd"), "verified", "{json}");
    assert_eq!(code, 0);
    let bad = write(dir.path(), "bad.c", &gcd("b"));
    let (code, results, json) = equiv_json(&[&old, &bad]);
    assert_eq!(verdict(&results, "gcd"), "violated", "{json}");
    assert_eq!(code, 1);
}

/// Output calls whose result is unused (`printf("%d\n", x++);`, `puts`): standard output
/// is no part of a copy's state, so they are their arguments' effects alone, with or
/// without `#include <stdio.h>`; a used result is an error at the call.
#[test]
fn output_calls_are_their_arguments_effects() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(
        dir.path(),
        "old.c",
        "#include <stdio.h>\nint p(int x) { printf(\"x = %d\\n\", x++); puts(\"done\"); return x; }\n\
         int q(int x) { return x; }\n",
    );
    let new = write(
        dir.path(),
        "new.c",
        "int p(int x) { printf(\"%d\\n\", x); return x + 1; }\n\
         int q(int x) {\n  return printf(\"%d\", x);\n}\n",
    );
    let (code, results, json) = equiv_json(&[&old, &new]);
    assert_eq!(verdict(&results, "p"), "verified", "{json}");
    assert_eq!(verdict(&results, "q"), "error", "{json}");
    assert_eq!(code, 3);
    let out = forex().args(["equiv", &old, &new, "--diagnostics", "short"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("new.c:3:10: error: the result of `printf` is not modelled"), "{err}");
}
