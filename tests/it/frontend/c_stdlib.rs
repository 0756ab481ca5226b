//! `string.h` (LANGUAGE.md "The standard library"): `memcmp`, `memcpy`, `memmove`,
//! `memset`, `strlen`, `strcmp`, `strncmp`, `strcpy` over arrays and pointers, read through
//! `#include <string.h>`. tests/inputs/c/stdlib.c names each tuple for the verdict it must
//! get (`ok_…` verified, `bad_…` violated); the undefined behaviour of a call (past the
//! end, overlapping, `NULL`) is the reason with the call's line; counterexamples replay;
//! bad calls are diagnostics at their span. Every test skips with a note without a C
//! compiler.

use crate::common::{have_cc, prove_report, tuple_result as result};
use forex::cancel::Cancel;
use forex::frontend::{load_file, load_source, InputFormat};
use forex::refute::{refute, replay_counterexample, RefuteOptions};
use forex::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn stdlib_c() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c/stdlib.c")
}

#[test]
fn every_tuple_of_stdlib_c_gets_the_verdict_its_name_says() {
    if !have_cc("every_tuple_of_stdlib_c_gets_the_verdict_its_name_says") {
        return;
    }
    let json = prove_report(&stdlib_c(), &[]);
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

/// Calls whose trip count is a constant, or bounded by arrays of known length, are
/// straight-line code: the prover alone proves the tuples through them.
#[test]
fn the_prover_alone_proves_tuples_through_bounded_calls() {
    if !have_cc("the_prover_alone_proves_tuples_through_bounded_calls") {
        return;
    }
    let json = prove_report(&stdlib_c(), &["--engine", "prove"]);
    for name in [
        "ok_memcpy",
        "ok_memcpy_n",
        "ok_memmove",
        "ok_memset",
        "ok_memset_bytes",
        "ok_memcmp_det",
        "ok_memcmp_sign",
        "ok_strlen",
        "ok_strcmp",
        "ok_strncmp",
        "ok_strcpy",
        "ok_struct_copy",
        "ok_strcmp_lit",
        "ok_strncmp_lit",
        "ok_strlen_lit",
    ] {
        assert_eq!(result(&json, name)["verdict"], "verified", "{name}: {json}");
    }
}

#[test]
fn undefined_behaviour_of_a_call_is_the_reason_with_its_line() {
    if !have_cc("undefined_behaviour_of_a_call_is_the_reason_with_its_line") {
        return;
    }
    let json = prove_report(&stdlib_c(), &[]);
    for (name, why, line) in [
        ("bad_memcpy_past_end", "access outside its object", "line 71:3"),
        ("bad_memcpy_overlap", "copy between overlapping objects", "line 83:3"),
        ("bad_strcpy_overflow", "access outside its object", "line 138:3"),
        ("bad_cp_null", "null dereference", "line 156:38"),
    ] {
        let t = result(&json, name).to_string();
        assert!(t.contains(&format!("undefined behaviour in copy `a`: {why}")), "{name}: {t}");
        assert!(t.contains(line), "{name}: {t}");
    }
    // `--no-ub` drops the runs that reach it.
    let json = prove_report(&stdlib_c(), &["--no-ub"]);
    for name in ["bad_memcpy_overlap", "bad_strcpy_overflow", "bad_cp_null"] {
        assert_eq!(result(&json, name)["verdict"], "verified", "{name}: {json}");
    }
}

/// The refuter's counterexamples through the calls replay on the interpreter.
#[test]
fn counterexamples_through_the_calls_replay() {
    if !have_cc("counterexamples_through_the_calls_replay") {
        return;
    }
    let m = load_file(&stdlib_c(), InputFormat::Auto).expect("stdlib.c loads");
    for name in ["bad_memcmp_order", "bad_strcmp", "bad_strncmp", "bad_memmove", "bad_cp_param"] {
        let t = m.tuples.iter().find(|t| t.name == name).expect(name);
        let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
        match refute(t, &RefuteOptions::default(), &cancel).verdict {
            Verdict::Violated { counterexample } => {
                replay_counterexample(t, &counterexample, &Cancel::new())
                    .unwrap_or_else(|e| panic!("{name}: does not replay: {e}"));
            }
            other => panic!("{name}: expected violated, got {other:?}"),
        }
    }
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

/// A function `f` using `string.h` on line 3 onwards.
fn in_function(body: &str) -> String {
    format!(
        "/*@forex tuple t = deterministic(f, in: [x], out: [ret]); */\n#include <string.h>\nint f(int x) {{\n  int a[4] = {{0}}, b[4];\n  char s[4] = {{0}}, d[4];\n  float g[2];\n{body}\n}}\n"
    )
}

macro_rules! bad_input {
    ($test:ident, $body:expr, $msg:expr, $at:expr) => {
        #[test]
        fn $test() {
            if !have_cc(stringify!($test)) {
                return;
            }
            let (msg, at) = first_error(&in_function($body));
            assert!(msg.contains($msg), "message {msg:?} lacks {:?}", $msg);
            assert_eq!(at, $at, "position of {msg:?}");
        }
    };
}

bad_input!(
    too_few_arguments,
    "  memcpy(b, a);\n  return x;",
    "`memcpy` takes 3 argument(s), given 2",
    "7:3"
);
bad_input!(
    too_many_arguments,
    "  return strlen(s, 1);",
    "`strlen` takes 1 argument(s), given 2",
    "7:10"
);
bad_input!(
    number_for_a_pointer,
    "  return strlen(x);",
    "`strlen`'s argument 1 must be a pointer, not a value of type int",
    "7:17"
);
bad_input!(
    number_for_a_destination,
    "  memset(x, 0, 4);\n  return x;",
    "`memset`'s argument 1 must be a pointer",
    "7:10"
);
bad_input!(
    part_of_an_element,
    "  memcpy(b, a, 6);\n  return x;",
    "`memcpy` of 6 bytes over `int` elements (4 bytes each): forex models whole elements only",
    "7:16"
);
bad_input!(
    count_not_in_elements,
    "  memcpy(b, a, x);\n  return x;",
    "must be a constant or written `n * sizeof(int)`",
    "7:16"
);
bad_input!(
    through_void_pointer,
    "  void *p = b;\n  memcpy(p, a, 16);\n  return x;",
    "`memcpy` through a `void *`",
    "8:10"
);
bad_input!(
    different_element_types,
    "  memcpy(d, a, 4);\n  return x;",
    "`memcpy` from `int` elements to `char` elements is not supported",
    "7:3"
);
bad_input!(
    string_of_ints,
    "  return strlen(a);",
    "`strlen` takes `char` strings, not int *",
    "7:17"
);
bad_input!(
    string_literal_copied,
    "  strcpy(d, \"ab\");\n  return x;",
    "string literals are not supported yet (`strcpy` of a literal)",
    "7:13"
);
bad_input!(
    string_literal_too_long,
    "  return strcmp(s, \"0123456789012345678901234567890123456789012345678901234567890123\");",
    "`strcmp` of a string literal longer than 63 characters",
    "7:20"
);
bad_input!(
    string_literal_of_ints,
    "  return memcmp(a, \"ab\", 2);",
    "string literals are not supported",
    "7:20"
);
bad_input!(
    memset_of_floats_to_a_byte,
    "  memset(g, 1, sizeof g);\n  return x;",
    "`memset` of `float` elements to a byte forex cannot model",
    "7:13"
);
bad_input!(
    memcmp_of_floats,
    "  return memcmp(g, g, sizeof g);",
    "`memcmp` of `float` elements is not supported",
    "7:17"
);
