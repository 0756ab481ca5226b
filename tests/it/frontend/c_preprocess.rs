//! The C front end's preprocessing: local `#include "…"` headers, positions through
//! macros and headers (snapshots), `-I` and `-D` reaching the preprocessor per file,
//! macros and enum constants in formulas, standard input, and a missing compiler. Every
//! test skips with a note when no C compiler is installed (except the one about a missing
//! compiler, which makes sure there is none).

use crate::common::have_cc;
use assert_cmd::Command;
use forex::c::preprocess::CcOptions;
use forex::diag::DiagStyle;
use forex::frontend::{load_file_with, load_source, InputFormat, Options};
use std::path::Path;

/// The short and JSON renderings of `path`'s errors, the folder written `<dir>`.
fn diagnose(path: &Path, opts: &Options) -> String {
    let dir = path.parent().unwrap().display().to_string();
    match load_file_with(path, InputFormat::Auto, opts) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(d) => {
            let text = format!("{}\n{}", d.render(DiagStyle::Short), d.render(DiagStyle::Json));
            text.replace(&dir, "<dir>")
        }
    }
}

const HEADER: &str = "\
#define SQ(v) ((v) * (v))
#define ADDR(v) (&v)
#define BAD_CAST (int *) 0
#define BIG long double
enum level { LOW, HIGH = 10 };
int helper(int x);
";

/// Errors inside macro uses point at the uses (a function-like macro with its arguments,
/// an object-like one), in the user's file, past a local header.
#[test]
fn positions_through_macros_and_a_local_header() {
    if !have_cc("positions_through_macros_and_a_local_header") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("defs.h"), HEADER).unwrap();
    let src = "\
/*@forex tuple t = deterministic(f, in: [x], out: [ret]); */
#include \"defs.h\"
int f(int x) {
  int y = SQ(x + HIGH);
  BIG z = 0;
  return y + SQ(ADDR(x));
}
";
    let path = dir.path().join("macros.c");
    std::fs::write(&path, src).unwrap();
    insta::assert_snapshot!(diagnose(&path, &Options::default()));
}

/// A syntax error in a header is reported at the `#include` line, naming the header.
#[test]
fn a_header_syntax_error_points_at_the_include() {
    if !have_cc("a_header_syntax_error_points_at_the_include") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.h"), "int ok;\nint bad = ;\n").unwrap();
    let path = dir.path().join("inc.c");
    std::fs::write(&path, "int f(int x) { return x; }\n  #include \"broken.h\"\n").unwrap();
    insta::assert_snapshot!(diagnose(&path, &Options::default()));
}

/// A tuple whose verdict depends on a macro: violated with `-D LEAK`, verified without.
const LEAKY: &str = "\
/*@forex tuple t = ni(f, low: [l], high: [h], out: [ret]); */
#include \"config.h\"
int f(int h, int l) {
#ifdef LEAK
  return h + OFFSET;
#else
  return l + OFFSET;
#endif
}
";

fn prove(args: &[&str], path: &Path) -> (Option<i32>, String) {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(args)
        .args(["prove", "--format", "json"])
        .arg(path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let verdicts: Vec<String> = json["results"]
        .as_array()
        .map(|rs| rs.iter().map(|r| r["verdict"].as_str().unwrap_or("").to_string()).collect())
        .unwrap_or_default();
    (out.status.code(), format!("{verdicts:?} {}", String::from_utf8_lossy(&out.stderr)))
}

/// `-D` and `-I` reach the preprocessor: the header is found only with `-I`, and `-D`
/// changes the verdict.
#[test]
fn include_folders_and_defines_reach_the_preprocessor() {
    if !have_cc("include_folders_and_defines_reach_the_preprocessor") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let inc = dir.path().join("include");
    std::fs::create_dir(&inc).unwrap();
    std::fs::write(inc.join("config.h"), "#define OFFSET 3\n").unwrap();
    let path = dir.path().join("leaky.c");
    std::fs::write(&path, LEAKY).unwrap();
    let inc = inc.display().to_string();
    let (code, text) = prove(&[], &path);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("config.h: No such file or directory"), "{text}");
    let (code, text) = prove(&["-I", &inc], &path);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("[\"verified\"]"), "{text}");
    let (code, text) = prove(&["-I", &inc, "-D", "LEAK"], &path);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.starts_with("[\"violated\"]"), "{text}");
    // `-D NAME=VALUE` after the command name too.
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["check", "-I", &inc, "-DLEAK=1"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Options are a value per file: the same source read twice in one process with
/// different options gives different programs (no process-wide state).
#[test]
fn two_reads_in_one_process_keep_their_own_options() {
    if !have_cc("two_reads_in_one_process_keep_their_own_options") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.h"), "#define OFFSET 3\n").unwrap();
    let path = dir.path().join("leaky.c");
    std::fs::write(&path, LEAKY).unwrap();
    let leak = Options {
        cc: CcOptions { defines: vec!["LEAK".into()], ..CcOptions::default() },
        ..Options::default()
    };
    let machine =
        Options { int_model: Some(forex::ir::c::IntModel::Machine), ..Options::default() };
    let a = load_file_with(&path, InputFormat::Auto, &leak).expect("loads");
    let b = load_file_with(&path, InputFormat::Auto, &machine).expect("loads");
    let c = load_file_with(&path, InputFormat::Auto, &Options::default()).expect("loads");
    // Whether `f`'s assignments read the variable named `v`.
    let reads = |m: &forex::ir::Module, v: &str| {
        let p = &m.programs[0];
        let mut found = false;
        for s in &p.body {
            if let forex::ir::Stmt::Assign { value, .. } = s {
                value.for_each_var(&mut |x| found |= p.vars[x.index()].name == v);
            }
        }
        found
    };
    assert!(reads(&a, "h") && !reads(&b, "h") && !reads(&c, "h"));
    assert_eq!(a.c.as_ref().unwrap().model, forex::ir::c::IntModel::Machine);
    assert_eq!(c.c.as_ref().unwrap().model, forex::ir::c::IntModel::Machine);
}

/// Object-like macros (the file's and the headers') and enum constants are values in
/// formulas; a macro that is no formula is an error at its use.
#[test]
fn macros_and_enum_constants_in_formulas() {
    if !have_cc("macros_and_enum_constants_in_formulas") {
        return;
    }
    let src = "\
/*@forex tuple t { forall a: f, b: f; pre a.x == b.x && a.x < LIMIT && a.x > RED;
   post a.ret == b.ret && a.ret <= INT_MAX; } */
#include <limits.h>
#define LIMIT 5
enum { RED = 3 };
int f(int x) { return x * 2; }
";
    let m = load_source("t.c", src.as_bytes(), InputFormat::Auto).expect("loads");
    let pre = forex::pretty::tuple_expr(&m.tuples[0], &m.tuples[0].pre);
    assert!(pre.contains('5') && pre.contains('3'), "{pre}");
    let bad = src
        .replace("a.x < LIMIT", "a.x < NOT_A_FORMULA")
        .replace("#define LIMIT 5", "#define NOT_A_FORMULA int");
    let err = load_source("t.c", bad.as_bytes(), InputFormat::Auto).expect_err("bad macro");
    let text = err.render(DiagStyle::Short);
    assert!(
        text.contains("t.c:1:63: error: the macro `NOT_A_FORMULA` is not an expression"),
        "{text}"
    );
}

/// Standard input is a C file with `--input c`; its `#include "…"` looks in the current
/// folder.
#[test]
fn standard_input_is_preprocessed_too() {
    if !have_cc("standard_input_is_preprocessed_too") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.h"), "#define OFFSET 3\n").unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .current_dir(dir.path())
        .args(["prove", "--input", "c", "-"])
        .write_stdin(LEAKY)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("<stdin>") && stdout.contains("verified"), "{stdout}");
}

/// Without a C compiler a C file is one clear diagnostic (exit 3).
#[test]
fn no_compiler_is_one_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.c");
    std::fs::write(&path, "int f(int x) { return x; }\n").unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .env("PATH", dir.path())
        .env_remove("FOREX_CC")
        .env_remove("CC")
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(stderr.matches("error").count(), 1, "{stderr}");
    assert!(stderr.contains("no C compiler found to preprocess the file"), "{stderr}");
}
