//! C data beyond integers (LANGUAGE.md "C programs"): globals and static locals as copy
//! state, structs (by value, nested, arrays of them, members in formulas), pointers
//! (out-parameters, `&x`, arrays passed as `int *a`, arithmetic inside one array, `NULL`),
//! `malloc`/`calloc`/`free`, and undefined behaviour a ∀ copy reaches, reported with its
//! reason and line. tests/inputs/c/memory.c names each tuple for the verdict it must get
//! (`ok_…` verified, `bad_…` violated): every valid case has an invalid twin. Bad inputs
//! are diagnostics at their span. Every test skips with a note without a C compiler.

use crate::common::{have_cc, prove_report, tuple_result as result};
use forex::frontend::{load_source, InputFormat};
use std::path::{Path, PathBuf};

fn memory_c() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c/memory.c")
}

#[test]
fn every_tuple_of_memory_c_gets_the_verdict_its_name_says() {
    if !have_cc("every_tuple_of_memory_c_gets_the_verdict_its_name_says") {
        return;
    }
    let json = prove_report(&memory_c(), &[]);
    let mut wrong = Vec::new();
    for r in json["results"].as_array().unwrap() {
        let name = r["tuple"].as_str().unwrap();
        let want = if name.starts_with("ok_") { "verified" } else { "violated" };
        if r["verdict"] != want {
            wrong.push(format!("{name}: {} ({})", r["verdict"], r));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(json["results"].as_array().unwrap().len() >= 30, "{json}");
}

#[test]
fn undefined_behaviour_is_the_violation_reason_with_its_line() {
    if !have_cc("undefined_behaviour_is_the_violation_reason_with_its_line") {
        return;
    }
    let json = prove_report(&memory_c(), &[]);
    let text = |name: &str| result(&json, name).to_string();
    for (name, why, line) in [
        ("bad_param_null", "undefined behaviour in copy `a`: null dereference", "line 123:3"),
        ("bad_oob", "undefined behaviour in copy `a`: access outside its object", "line 156:10"),
        ("bad_use_after_free", "undefined behaviour in copy `a`: use after free", "line 171:10"),
        ("bad_double_free", "free of a pointer that is not a live malloc'd object", "line 177:3"),
        ("bad_assert", "assertion failed in copy `a`", "line 190:5"),
    ] {
        let t = text(name);
        assert!(t.contains(why), "{name}: {t}");
        assert!(t.contains(line), "{name}: {t}");
    }
}

/// `--no-ub` assumes undefined behaviour away: the runs that reach it are dropped, so the
/// tuples that only undefined behaviour broke hold.
#[test]
fn no_ub_assumes_undefined_behaviour_away() {
    if !have_cc("no_ub_assumes_undefined_behaviour_away") {
        return;
    }
    let json = prove_report(&memory_c(), &["--no-ub"]);
    for name in ["bad_param_null", "bad_use_after_free", "bad_double_free", "bad_assert"] {
        assert_eq!(result(&json, name)["verdict"], "verified", "{name}: {json}");
    }
    assert_eq!(result(&json, "bad_struct")["verdict"], "violated");
}

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

macro_rules! bad_input {
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

fn in_function(body: &str) -> String {
    format!("{TUPLE}int f(int x) {{\n{body}\n}}\n")
}

bad_input!(
    no_such_member,
    format!("{TUPLE}struct s {{ int a; }};\nint f(int x) {{\n  struct s v = {{x}};\n  return v.b;\n}}\n"),
    "has no member `b`",
    "5:12"
);
bad_input!(
    member_of_a_number,
    in_function("  return x.y;"),
    "`.y` on a value that is not a struct",
    "3:12"
);
bad_input!(deref_of_a_number, in_function("  return *x;"), "`*` needs a pointer", "3:11");
bad_input!(
    unrelated_pointer_cast,
    in_function("  long l = 0;\n  int *p = (int *)&l;\n  return *p;"),
    "casts between unrelated pointer types",
    "4:12"
);
bad_input!(
    pointer_to_integer,
    in_function("  int *p = &x;\n  long a = (long)p;\n  return a;"),
    "a pointer converted to an integer is not supported",
    "4:12"
);
bad_input!(
    integer_to_pointer,
    in_function("  int *p = (int *)1234;\n  return *p;"),
    "an integer converted to a pointer is not supported",
    "3:12"
);
bad_input!(
    void_pointer_deref,
    in_function("  void *p = &x;\n  return *(int *)p + (*p, 0);"),
    "dereferencing a `void *`",
    "4:23"
);
bad_input!(
    untyped_malloc,
    format!(
        "{TUPLE}#include <stdlib.h>\nint f(int x) {{\n  void *p = malloc(4);\n  return x;\n}}\n"
    ),
    "`malloc` into a `void *`",
    "4:13"
);
bad_input!(
    malloc_in_a_loop,
    format!(
        "{TUPLE}#include <stdlib.h>\nint f(int x) {{\n  for (int i = 0; i < x; i++) {{ int *p = malloc(4); free(p); }}\n  return x;\n}}\n"
    ),
    "inside a loop is not supported yet",
    "4:42"
);
bad_input!(
    union_value,
    in_function("  union u { int i; char c; } v;\n  return x;"),
    "`union` types are not supported yet",
    "3:3"
);
bad_input!(
    struct_compared_with_number,
    "/*@forex tuple t { forall a: f, b: f; post a.s == b.x; } */\nstruct s { int a; };\nint f(int x) { struct s s = {x}; return s.a; }\n",
    "`a.s` is struct s and `b.x` is int: only values of one type compare",
    "1:44"
);
bad_input!(
    member_missing_in_formula,
    "/*@forex tuple t { forall a: f, b: f; post a.s.b == b.s.a; } */\nstruct s { int a; };\nint f(int x) { struct s s = {x}; return s.a; }\n",
    "`a.s` has no member `b`",
    "1:48"
);
bad_input!(
    whole_struct_as_number,
    "/*@forex tuple t { forall a: f, b: f; post a.s + 1 == b.x; } */\nstruct s { int a; };\nint f(int x) { struct s s = {x}; return s.a; }\n",
    "`a.s` is a struct",
    "1:44"
);
bad_input!(
    local_pointers_of_two_copies,
    "/*@forex tuple t { forall a: f, b: f; post a.p == b.p; } */\nint f(int x) { int *p = &x; return *p; }\n",
    "pointers of two copies compare by what they point to",
    "1:44"
);
