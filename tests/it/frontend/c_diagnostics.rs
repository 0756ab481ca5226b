//! The C front end's diagnostics: every construct outside the subset is named at its
//! span (line:col), truncated and empty files, huge literals, deep nesting, and a
//! fuzz-style pass that no input panics.

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
            let (msg, at) = first_error(&$src);
            assert!(msg.contains($msg), "message {msg:?} lacks {:?}", $msg);
            assert_eq!(at, $at, "position of {msg:?}");
        }
    };
}

unsupported!(
    pointer_local,
    in_function("  int *p;\n  return 0;"),
    "pointers are not supported",
    "3:7"
);
unsupported!(
    address_of,
    in_function("  int y = &x;\n  return y;"),
    "pointers (taking an address",
    "3:11"
);
unsupported!(deref, in_function("  return *x;"), "pointers (dereferencing", "3:10");
unsupported!(goto_stmt, in_function("  goto end;\n  return 0;"), "`goto` is not supported", "3:3");
unsupported!(
    switch_stmt,
    in_function("  switch (x) { case 1: return 1; }\n  return 0;"),
    "`switch` is not supported",
    "3:3"
);
unsupported!(
    float_type,
    in_function("  double d = 1;\n  return 0;"),
    "floating point is not supported",
    "3:3"
);
unsupported!(
    float_literal,
    in_function("  return 1.5;"),
    "floating point is not supported",
    "3:10"
);
unsupported!(
    struct_type,
    in_function("  struct s v;\n  return 0;"),
    "`struct` types are not supported",
    "3:3"
);
unsupported!(member, in_function("  return x.y;"), "`struct` members are not supported", "3:10");
unsupported!(sizeof_op, in_function("  return sizeof x;"), "`sizeof` is not supported", "3:10");
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
unsupported!(
    global_variable,
    format!("{TUPLE}int counter;\nint f(int x) {{ return x; }}\n"),
    "global variables are not supported",
    "2:1"
);
unsupported!(
    function_macro,
    format!("{TUPLE}#define SQ(a) ((a) * (a))\nint f(int x) {{ return x; }}\n"),
    "function-like macros are not supported",
    "2:1"
);
unsupported!(
    conditional_directive,
    format!("{TUPLE}#ifdef X\nint f(int x) {{ return x; }}\n#endif\n"),
    "`#ifdef` is not supported",
    "2:1"
);
unsupported!(
    recursion,
    format!("{TUPLE}int f(int x) {{ if (x > 0) {{ return f(x - 1); }} return 0; }}\n"),
    "recursion: f calls itself",
    "2:36"
);
unsupported!(
    mutual_recursion,
    format!(
        "{TUPLE}int g(int y);\nint h(int y) {{ return f(y); }}\nint f(int x) {{ return h(x); }}\n"
    ),
    "recursion: f calls h calls f",
    "3:23"
);
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
    for src in ["", "// nothing\n", "#include <stdio.h>\n"] {
        let m = load_source("t.c", src.as_bytes(), InputFormat::Auto).expect("empty C file");
        assert!(m.tuples.is_empty());
    }
}

#[test]
fn deep_nesting_is_a_diagnostic() {
    let deep =
        format!("{TUPLE}int f(int x) {{ return {}x{}; }}\n", "(".repeat(5000), ")".repeat(5000));
    let (msg, _) = first_error(&deep);
    assert!(msg.contains("nesting is too deep"), "{msg}");
    let chain = format!("{TUPLE}int f(int x) {{ return x{}; }}\n", " + 1".repeat(3000));
    let (msg, _) = first_error(&chain);
    assert!(msg.contains("nests too deeply"), "{msg}");
}

#[test]
fn errors_break_only_the_tuples_that_use_the_function() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.c");
    let src = "/*@forex tuple good = deterministic(f, in: [x], out: [ret]);\n tuple bad = deterministic(g, in: [x], out: [ret]); */\nint f(int x) { return x + 1; }\nint g(int x) { int *p; return x; }\n";
    std::fs::write(&path, src).unwrap();
    let r = forex::frontend::load_file_recovering(&path, InputFormat::Auto).expect("recovered");
    assert_eq!(r.module.tuples.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["good"]);
    assert_eq!(r.broken.len(), 1);
    assert_eq!(r.broken[0].name, "bad");
    let text = r.broken[0].diagnostics.render(DiagStyle::Short);
    assert!(text.contains("two.c:4:20") && text.contains("pointers are not supported"), "{text}");
}

/// Mutations of the samples (cut, byte flips, duplications) never panic the front end.
#[test]
fn fuzzed_c_sources_never_panic() {
    use rand::{Rng, SeedableRng};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c");
    let mut seeds: Vec<String> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        seeds.push(std::fs::read_to_string(e.unwrap().path()).unwrap());
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
        if let Err(d) = load_source("fuzz.c", &bytes, InputFormat::Auto) {
            let text = d.render(DiagStyle::Short);
            assert!(
                !text.contains("internal error"),
                "panic on:\n{}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}
