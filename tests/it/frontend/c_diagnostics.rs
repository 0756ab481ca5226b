//! The C front end's diagnostics: every construct forex does not verify (yet) is named
//! at its span (line:col), through macros too; truncated and empty files, huge literals,
//! deep nesting, one error per tuple, and fuzz-style passes (mutated samples, random
//! token streams, random C programs) that no input panics. C needs the system
//! preprocessor: every test here skips with a note when no C compiler is installed.

use crate::common::have_cc;
use forex::diag::DiagStyle;
use forex::frontend::{load_source, InputFormat};

/// The first error's message and `line:col`.
fn first_error(src: &str) -> (String, String) {
    match load_source("t.c", src.as_bytes(), InputFormat::Auto) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(d) => {
            let (start, _) = d.positions()[0];
            (d.items[0].message.clone(), start.to_string())
        }
    }
}

const TUPLE: &str = "/*@forex tuple t = deterministic(f, in: [x], out: [ret]); */\n";

fn in_function(body: &str) -> String {
    format!("{TUPLE}int f(int x) {{\n{body}\n}}\n")
}

macro_rules! unsupported {
    ($test:ident, $src:expr, $msg:expr, $at:expr) => {
        #[test]
        fn $test() {
            if !have_cc(stringify!($test)) {
                return;
            }
            let (msg, at) = first_error(&$src);
            assert!(msg.contains($msg), "message {msg:?} lacks {:?}", $msg);
            assert_eq!(at, $at, "position of {msg:?}");
        }
    };
}

unsupported!(
    address_of,
    in_function("  int y = &x;\n  return y;"),
    "a pointer converted to an integer is not supported",
    "3:11"
);
unsupported!(deref, in_function("  return *x;"), "`*` needs a pointer", "3:11");
unsupported!(
    incomplete_struct,
    in_function("  struct s v;\n  return 0;"),
    "`struct s` is incomplete",
    "3:12"
);
unsupported!(
    goto_without_label,
    in_function("  goto end;\n  return 0;"),
    "`goto end` does not jump forward to a label",
    "3:3"
);
unsupported!(
    goto_backward,
    in_function("  again: x = x - 1;\n  if (x > 0) goto again;\n  return x;"),
    "`goto again` does not jump forward to a label",
    "4:14"
);
unsupported!(
    case_outside_switch,
    in_function("  case 1: return 1;\n  return 0;"),
    "`case` and `default` labels are read only directly in a `switch` body",
    "3:3"
);
unsupported!(
    case_nested_in_switch,
    in_function("  switch (x) { case 1: if (x) { case 2: return 1; } }\n  return 0;"),
    "`case` and `default` labels are read only directly in a `switch` body",
    "3:33"
);
unsupported!(
    long_double_type,
    in_function("  long double d = 1;\n  return 0;"),
    "`long double` is not supported",
    "3:3"
);
unsupported!(member, in_function("  return x.y;"), "`.y` on a value that is not a struct", "3:12");
unsupported!(
    union_value,
    in_function("  union u { int i; char c; } v;\n  return x;"),
    "`union` types are not supported yet",
    "3:3"
);
unsupported!(
    typedef_of_long_double,
    format!("{TUPLE}typedef long double real;\nint f(int x) {{\n  real r = x;\n  return x;\n}}\n"),
    "`long double` is not supported",
    "4:3"
);
unsupported!(
    call_through_pointer,
    in_function("  int (*g)(int);\n  return g(x);"),
    "function pointers are not supported",
    "3:7"
);
unsupported!(
    sizeof_incomplete,
    format!("{TUPLE}struct s;\nint f(int x) {{\n  return sizeof(struct s);\n}}\n"),
    "`sizeof` of a type without a size",
    "4:10"
);
unsupported!(
    varargs,
    format!("{TUPLE}int f(int x, ...) {{ return x; }}\n"),
    "variadic functions",
    "2:14"
);
unsupported!(
    function_pointer,
    format!("{TUPLE}int f(int x) {{ int (*g)(int); return x; }}\n"),
    "function pointers are not supported",
    "2:20"
);
// A macro's expansion is at its use: the error inside `SQ(&x)` points at `SQ`.
unsupported!(
    error_inside_a_function_like_macro,
    format!("{TUPLE}#define SQ(a) ((a) * (a))\nint f(int x) {{\n  return SQ(&x);\n}}\n"),
    "`*` between int * and int *",
    "4:10"
);
unsupported!(
    error_inside_an_object_like_macro,
    format!("{TUPLE}#define DEREF *x\nint f(int x) {{\n  int y = 1 + DEREF;\n  return y;\n}}\n"),
    "`*` needs a pointer",
    "4:15"
);
// `#ifdef` is the preprocessor's: without `X`, `f` is not there.
unsupported!(
    conditional_directive,
    format!("{TUPLE}#ifdef X\nint f(int x) {{ return x; }}\n#endif\n"),
    "the function `f` is not defined in the file",
    "1:34"
);
unsupported!(
    missing_header,
    format!("{TUPLE}#include \"nowhere.h\"\nint f(int x) {{ return x; }}\n"),
    "nowhere.h: No such file or directory",
    "2:10"
);
unsupported!(
    error_directive,
    format!("{TUPLE}#if 1\n#error not for forex\n#endif\nint f(int x) {{ return x; }}\n"),
    "not for forex",
    "3:2"
);
unsupported!(syntax_error, in_function("  int y = ;\n  return y;"), "syntax error", "3:11");
unsupported!(
    math_bitwise,
    "/* @ELAENIA\n * forall: f; exists: f; post: forall.ret == exists.ret;\n */\nint f(int x) { return x & 1; }\n",
    "needs a width",
    "4:23"
);
unsupported!(
    huge_literal,
    in_function("  return 99999999999999999999999;"),
    "too large for any C integer type",
    "3:10"
);
unsupported!(unknown_variable, in_function("  return y;"), "unknown variable `y`", "3:10");
unsupported!(
    unknown_function,
    in_function("  return g(x);"),
    "call of `g`, which the file neither defines nor declares",
    "3:10"
);
unsupported!(
    annotation_operator_in_code,
    in_function("  return x ==> x;"),
    "`==>` belongs to annotation formulas",
    "3:12"
);
unsupported!(
    unknown_copy_variable,
    "/*@forex tuple t { forall a: f, b: f; post a.nope == b.ret; } */\nint f(int x) { return x; }\n",
    "`f` has no variable `nope`",
    "1:46"
);
unsupported!(
    ambiguous_local,
    "/*@forex tuple t { forall a: f, b: f; post a.y == b.y; } */\nint f(int x) { { int y = 1; } { int y = 2; } return x; }\n",
    "`y` names 2 different locals of `f`",
    "1:46"
);
unsupported!(truncated, in_function("  return (x + "), "expected", "4:1");

#[test]
fn empty_and_comment_only_files_are_accepted_without_tuples() {
    if !have_cc("empty_and_comment_only_files_are_accepted_without_tuples") {
        return;
    }
    for src in ["", "// nothing\n", "#include <stdio.h>\n"] {
        let m = load_source("t.c", src.as_bytes(), InputFormat::Auto).expect("empty C file");
        assert!(m.tuples.is_empty());
    }
}

#[test]
fn deep_nesting_is_a_diagnostic() {
    if !have_cc("deep_nesting_is_a_diagnostic") {
        return;
    }
    let deep =
        format!("{TUPLE}int f(int x) {{ return {}x{}; }}\n", "(".repeat(5000), ")".repeat(5000));
    let (msg, _) = first_error(&deep);
    assert!(msg.contains("nesting is too deep"), "{msg}");
    let chain = format!("{TUPLE}int f(int x) {{ return x{}; }}\n", " + 1".repeat(3000));
    let (msg, _) = first_error(&chain);
    assert!(msg.contains("nests too deeply"), "{msg}");
}

/// Expressions 10,000 deep without brackets (operator chains, prefix operators, nested
/// assignments and conditionals) load or end in a diagnostic, never in a stack overflow.
#[test]
fn ten_thousand_deep_expressions_never_overflow() {
    if !have_cc("ten_thousand_deep_expressions_never_overflow") {
        return;
    }
    let n = 10_000;
    let bodies = [
        format!("return x{};", " + 1".repeat(n)),
        format!("return {}x;", "- ".repeat(n)),
        format!("return {}x;", "!".repeat(n)),
        format!("int y; y{} = x; return y;", " = y".repeat(n)),
        format!("return {}0;", "x ? 1 : ".repeat(n)),
    ];
    for body in bodies {
        let src = format!("{TUPLE}int f(int x) {{ {body} }}\n");
        // Accepted (nested assignments are a flat sequence of statements), or too deep.
        if let Err(d) = load_source("t.c", src.as_bytes(), InputFormat::Auto) {
            let msg = &d.items[0].message;
            assert!(msg.contains("nests too deeply"), "{msg} for {}", &body[..20]);
        }
    }
}

#[test]
fn errors_break_only_the_tuples_that_use_the_function() {
    if !have_cc("errors_break_only_the_tuples_that_use_the_function") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.c");
    let src = "/*@forex tuple good = deterministic(f, in: [x], out: [ret]);\n tuple bad = deterministic(g, in: [x], out: [ret]); */\nint f(int x) { return x + 1; }\nint g(int x) { return h(x); }\n";
    std::fs::write(&path, src).unwrap();
    let r = forex::frontend::load_file_recovering(&path, InputFormat::Auto).expect("recovered");
    assert_eq!(r.module.tuples.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["good"]);
    assert_eq!(r.broken.len(), 1);
    assert_eq!(r.broken[0].name, "bad");
    let text = r.broken[0].diagnostics.render(DiagStyle::Short);
    assert!(text.contains("two.c:4:23") && text.contains("neither defines nor declares"), "{text}");
    assert!(r.unused.is_none(), "g's error is the tuple's, not the file's too");
}

/// A broken function that a tuple's function calls: its error is the tuple's, reported
/// once (one `error` result), not once for the file and once for the tuple.
#[test]
fn a_broken_callee_is_one_error_result() {
    if !have_cc("a_broken_callee_is_one_error_result") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("callee.c");
    let src = "/*@forex tuple t = deterministic(f, in: [x], out: [ret]); */\nint g(int y) { return h(y); }\nint f(int x) { return g(x); }\n";
    std::fs::write(&path, src).unwrap();
    let out = assert_cmd::Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{json}");
    assert_eq!(results[0]["tuple"], "t");
    assert_eq!(results[0]["verdict"], "error");
    assert!(results[0]["reason"].as_str().unwrap().contains("callee.c:2:23"), "{json}");
    assert_eq!(json["summary"]["error"], 1);
}

/// Only `_`-named functions with a body are the Elaenia harness: a declared one is a
/// library function like any other; `(void)e;` is `e`'s effects.
#[test]
fn declared_underscore_functions_are_library_functions() {
    if !have_cc("declared_underscore_functions_are_library_functions") {
        return;
    }
    let src = "/*@forex tuple t = deterministic(f, in: [x], out: [ret]); */\nint __mark(int);\nint _harness(int x) { int *p; return x; }\nint f(int x) { (void)x; (void)__mark(x); return __mark(x) + 1; }\n";
    let m = load_source("t.c", src.as_bytes(), InputFormat::Auto).expect("loads");
    assert_eq!(m.tuples.len(), 1);
    let info = m.c.as_ref().unwrap();
    assert_eq!(info.libraries.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["__mark"]);
    assert!(m.programs.iter().all(|p| p.name != "_harness"));
}

/// Mutations of the samples (cut, byte flips, duplications) never panic the front end.
#[test]
fn fuzzed_c_sources_never_panic() {
    if !have_cc("fuzzed_c_sources_never_panic") {
        return;
    }
    use rand::{Rng, SeedableRng};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c");
    let mut seeds: Vec<String> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        // Files only (`comparators/` is a folder of its own).
        let path = e.unwrap().path();
        if path.is_file() {
            seeds.push(std::fs::read_to_string(path).unwrap());
        }
    }
    assert!(!seeds.is_empty());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    let alphabet = b"(){}[];,=+-*/%<>!&|^~?:#'\"x0 \n*/@.";
    for round in 0..300 {
        let mut bytes = seeds[round % seeds.len()].clone().into_bytes();
        for _ in 0..rng.gen_range(1..6) {
            let n = bytes.len().max(1);
            match rng.gen_range(0..3) {
                0 => bytes.truncate(rng.gen_range(0..n)),
                1 if !bytes.is_empty() => {
                    let i = rng.gen_range(0..bytes.len());
                    bytes[i] = alphabet[rng.gen_range(0..alphabet.len())];
                }
                _ => {
                    let i = rng.gen_range(0..n.min(bytes.len() + 1));
                    let j = (i + rng.gen_range(0..40)).min(bytes.len());
                    let piece = bytes[i..j].to_vec();
                    bytes.splice(i..i, piece);
                }
            }
        }
        assert_no_panic(&bytes);
    }
}

fn assert_no_panic(bytes: &[u8]) {
    if let Err(d) = load_source("fuzz.c", bytes, InputFormat::Auto) {
        let text = d.render(DiagStyle::Short);
        assert!(!text.contains("internal error"), "panic on:\n{}", String::from_utf8_lossy(bytes));
    }
}

/// Random streams of C tokens, at file scope and inside a function body, never panic
/// the front end (whatever the preprocessor and the parser make of them).
#[test]
fn random_token_streams_never_panic() {
    if !have_cc("random_token_streams_never_panic") {
        return;
    }
    use rand::{Rng, SeedableRng};
    const TOKENS: &[&str] = &[
        "int",
        "char",
        "long",
        "unsigned",
        "double",
        "struct",
        "union",
        "enum",
        "typedef",
        "static",
        "void",
        "if",
        "else",
        "while",
        "for",
        "do",
        "switch",
        "case",
        "default",
        "break",
        "continue",
        "return",
        "goto",
        "sizeof",
        "x",
        "y",
        "f",
        "T",
        "L",
        "0",
        "1",
        "07",
        "0x1f",
        "1.5",
        "'a'",
        "\"s\"",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ",",
        ":",
        "?",
        "=",
        "+=",
        "==",
        "!=",
        "<",
        "<<",
        ">>=",
        "&&",
        "||",
        "&",
        "|",
        "^",
        "~",
        "!",
        "+",
        "-",
        "*",
        "/",
        "%",
        "++",
        "--",
        ".",
        "->",
        "...",
        "/*@forex tuple t = ni(f, low: [x], out: [ret]); */",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    for round in 0..200 {
        let n = rng.gen_range(0..60);
        let body: Vec<&str> = (0..n).map(|_| TOKENS[rng.gen_range(0..TOKENS.len())]).collect();
        let body = body.join(" ");
        let src = if round % 2 == 0 {
            format!("{TUPLE}{body}\n")
        } else {
            format!("{TUPLE}int f(int x) {{ {body} }}\n")
        };
        assert_no_panic(src.as_bytes());
    }
}

/// Random well-formed C functions (the native oracle's generator) load, and never panic.
#[test]
fn random_c_programs_load() {
    if !have_cc("random_c_programs_load") {
        return;
    }
    use crate::common::cgen::{sample_programs, Model};
    for model in [Model::Machine, Model::Math] {
        for (k, p) in sample_programs(model, true, 30, 7).iter().enumerate() {
            let src = p.file();
            if let Err(d) = load_source(&format!("gen{k}.c"), src.as_bytes(), InputFormat::C) {
                panic!("{}\n{src}", d.render(DiagStyle::Short));
            }
        }
    }
}

/// The JSON report of `forex prove ARGS FILE` on `src` (written to a temporary file).
fn prove_json(args: &[&str], src: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("limits.c");
    std::fs::write(&path, src).unwrap();
    let out = assert_cmd::Command::cargo_bin("forex")
        .unwrap()
        .arg("prove")
        .args(args)
        .args(["--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).expect("json report")
}

/// A function whose inlined calls double per level (2^40 statements) ends its tuple
/// `unknown` at the front end's size limit (the memory ceiling), at once; a tuple of the
/// same file that does not call it is decided.
#[test]
fn exponential_inlining_is_unknown_at_the_size_limit() {
    if !have_cc("exponential_inlining_is_unknown_at_the_size_limit") {
        return;
    }
    let mut src = String::from(
        "/*@forex tuple big = deterministic(f0, in: [x], out: [ret]);\n  tuple small = deterministic(g, in: [x], out: [ret]); */\nint f40(int x) { return x + 1; }\n",
    );
    for i in (0..40).rev() {
        src += &format!("int f{i}(int x) {{ return f{}(x) + f{}(x + 1); }}\n", i + 1, i + 1);
    }
    src += "int g(int x) { return x * 2; }\n";
    let json = prove_json(&["--timeout", "60"], &src);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{json}");
    assert_eq!(results[0]["tuple"], "big");
    assert_eq!(results[0]["verdict"], "unknown");
    assert_eq!(results[0]["reason_kind"], "memory_out");
    let reason = results[0]["reason"].as_str().unwrap();
    assert!(reason.contains("`f0` is too large once its calls are inlined"), "{reason}");
    assert_eq!(results[1]["tuple"], "small");
    assert_eq!(results[1]["verdict"], "verified");
}

/// Reading a file counts against `--timeout`: past it, the tuples that still need their
/// programs end `unknown` (timeout) with the front end as the reason.
#[test]
fn the_front_end_respects_the_time_limit() {
    if !have_cc("the_front_end_respects_the_time_limit") {
        return;
    }
    let mut src = String::from("/*@forex tuple t = deterministic(f0, in: [x], out: [ret]); */\n");
    src += "int f0(int x) {\n  int s = 0;\n";
    for i in 0..2000 {
        src += &format!("  s = s + x * {i};\n");
    }
    src += "  return s;\n}\n";
    // Any time limit shorter than the preprocessor's own run has passed once lowering starts.
    let json = prove_json(&["--timeout", "0.001"], &src);
    let r = &json["results"][0];
    assert_eq!(r["verdict"], "unknown", "{json}");
    assert_eq!(r["reason_kind"], "timeout", "{json}");
    assert!(r["reason"].as_str().unwrap().contains("the C front end ran out of time"), "{json}");
}

/// A chain of 3,000 nested calls `f0 → f1 → … → f3000` is read (and proved) without
/// lowering every function of the chain with all its callees (which is quadratic).
#[test]
fn a_long_chain_of_calls_is_read() {
    if !have_cc("a_long_chain_of_calls_is_read") {
        return;
    }
    let n = 3000;
    let mut src = String::from("/*@forex tuple t = deterministic(f0, in: [x], out: [ret]); */\n");
    src += &format!("int f{n}(int x) {{ return x + 1; }}\n");
    for i in (0..n).rev() {
        src += &format!("int f{i}(int x) {{ return f{}(x) + 1; }}\n", i + 1);
    }
    let m = load_source("chain.c", src.as_bytes(), InputFormat::Auto).expect("loads");
    assert_eq!(m.tuples.len(), 1);
    assert_eq!(m.tuples[0].copies[0].program, "f0");
    // f0 is a program; the chain's inner functions only while they stay small.
    assert!(m.programs.len() < n as usize / 10, "{} programs", m.programs.len());
}
