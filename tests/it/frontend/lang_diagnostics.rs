//! Snapshots of the diagnostics for the language additions of issue 13 (branch `lang`):
//! short style, then JSON lines (positions, hints, related spans).

use forex::diag::DiagStyle;
use forex::frontend::{load_source, InputFormat};

fn diagnose(name: &str, src: &str) -> String {
    match load_source(name, src.as_bytes(), InputFormat::Auto) {
        Ok(_) => panic!("{name} was accepted"),
        Err(d) => {
            assert!(!d.is_empty());
            format!("{}\n{}", d.render(DiagStyle::Short), d.render(DiagStyle::Json))
        }
    }
}

macro_rules! bad {
    ($test:ident, $name:expr, $src:expr) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!(diagnose($name, &$src));
        }
    };
}

bad!(
    for_with_declaration,
    "for.fe",
    "program p {\n  int s;\n  for (int i = 0; i < 3; i++) { s += i; }\n}\n"
);
bad!(
    misspelt_forex_section,
    "section.txt",
    "[forall]\nint x;\nx = 1;\n[post]\nx_0 == 1\n[traceBund]\n3\n"
);
bad!(
    unclosed_brace_points_at_its_opener,
    "brace.fe",
    "program p {\n  int x;\n  if (x > 0) {\n    x = 1;\n\n"
);
bad!(
    bad_width_is_one_error,
    "width.fe",
    "program p {\n  bv0 x;\n  x = x;\n  x = x + x;\n  assume x == x;\n}\n"
);
bad!(
    recursive_function,
    "rec.fe",
    "int f(int a) {\n  int r;\n  r = f(a - 1);\n  return r;\n}\nprogram p {\n  int x;\n  x = f(x);\n}\n"
);
bad!(
    function_defined_later,
    "later.fe",
    "int f(int a) {\n  int r;\n  r = g(a);\n  return r;\n}\nint g(int a) { return a; }\nprogram p {\n  int x;\n  x = f(x);\n}\n"
);
bad!(len_of_array, "len.fe", "program p {\n  int[] a;\n  int n;\n  n = len(a);\n}\n");
bad!(
    function_with_statements_in_expression,
    "impure.fe",
    "int f(int a) {\n  int r;\n  r = a;\n  return r;\n}\nprogram p {\n  int x;\n  x = f(x) + 1;\n}\n"
);
bad!(
    return_not_last,
    "ret.fe",
    "int f(int a) {\n  return a;\n  a = 1;\n}\nprogram p {\n  int x;\n  x = f(x);\n}\n"
);
bad!(
    return_in_a_block,
    "retblock.fe",
    "int f(int a) {\n  if (a > 0) { return a; }\n  return 0;\n}\n"
);
bad!(
    signed_function_on_int,
    "signed.fe",
    "program p {\n  int x;\n  bool b;\n  b = slt(x, 0);\n}\n"
);
bad!(
    three_dimensional_array,
    "dims.txt",
    "[forall]\nint[int,int,int] m;\nint x;\nx = 1;\n[post]\nx_0 == 1\n"
);
bad!(
    nondeterministic_array_store,
    "havoc.fe",
    "program p {\n  int[] t;\n  int i;\n  t[i] = *;\n}\n"
);
bad!(increment_of_bool, "incr.fe", "program p {\n  bool b;\n  b++;\n}\n");
bad!(string_assigned_to_an_int, "s.fe", "program p {\n  string s;\n  int x;\n  x = s;\n}\n");

#[test]
fn an_unclosed_brace_is_shown_where_it_opened() {
    let src = "program p {\n  int x;\n  if (x > 0) {\n    x = 1;\n\n";
    let d = load_source("brace.fe", src.as_bytes(), InputFormat::Auto).unwrap_err();
    let text = d.render(DiagStyle::Fancy);
    assert!(text.contains("this `{` is never closed"), "{text}");
    assert!(text.contains("if (x > 0) {"), "{text}");
}
