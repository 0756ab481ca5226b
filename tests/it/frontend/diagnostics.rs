//! Snapshots of the diagnostics for bad inputs: short style (`file:line:col: error: …`)
//! then the JSON lines (positions, spans' ends, hints). Review `.snap` changes by eye.

use forex::diag::DiagStyle;
use forex::frontend::{load_source, InputFormat};

fn diagnose(name: &str, bytes: &[u8], format: InputFormat) -> String {
    match load_source(name, bytes, format) {
        Ok(_) => panic!("{name} was accepted"),
        Err(d) => {
            assert!(!d.is_empty());
            format!("{}\n{}", d.render(DiagStyle::Short), d.render(DiagStyle::Json))
        }
    }
}

macro_rules! bad {
    ($test:ident, $name:expr, $src:expr) => {
        bad!($test, $name, $src, InputFormat::Auto);
    };
    ($test:ident, $name:expr, $src:expr, $format:expr) => {
        #[test]
        fn $test() {
            let src: Vec<u8> = $src.into();
            insta::assert_snapshot!(diagnose($name, &src, $format));
        }
    };
}

const P: &str = "program p {\n  int h, l, o;\n  bool b;\n  bv8 k;\n  o = l;\n}\n";

bad!(empty_file, "empty.fe", "");
bad!(only_comments, "comments.fe", "// nothing here\n/* at all */\n");
bad!(truncated_file, "trunc.fe", "program p {\n  int x;\n  x = (x + ");
bad!(missing_semicolon, "semi.fe", "program p {\n  int x;\n  x = 1\n  x = 2;\n}\n");
bad!(equality_for_assignment, "eq.fe", "program p {\n  int x;\n  x == 1;\n}\n");
bad!(unterminated_comment, "comment.fe", "program p {\n  int x; /* oops\n}\n");
bad!(
    unknown_program_in_tuple,
    "unknown_program.fe",
    format!("{P}tuple t {{\n  forall a: p, b: pp;\n  post a.o == b.o;\n}}\n")
);
bad!(
    unknown_copy_and_variable,
    "unknown_copy.fe",
    format!("{P}tuple t {{\n  forall a: p, b: p;\n  pre a.hh == b.l;\n  post a.o == d.o && o == 1;\n}}\n")
);
bad!(
    unknown_variable_in_program,
    "unknown_var.fe",
    "program p {\n  int high, low;\n  hihg = 1;\n  y = low;\n}\n"
);
bad!(used_before_declaration, "before.fe", "program p {\n  int x;\n  x = y;\n  int y;\n}\n");
bad!(declared_twice, "twice.fe", "program p {\n  int x;\n  bool x;\n  x = 1;\n}\n");
bad!(
    type_mismatch,
    "types.fe",
    "program p {\n  int x;\n  bool b;\n  b = x + b;\n  x = b;\n  if (x) { skip; }\n  assume !x;\n}\n"
);
bad!(
    width_mismatch,
    "widths.fe",
    "program p {\n  bv8 k;\n  bv16 w;\n  k = k & w;\n  k = w;\n  k = k + 1;\n}\n"
);
bad!(
    bv_literal_too_wide,
    "wide.fe",
    format!("program p {{\n  bv8 k;\n  k = #x{};\n}}\n", "f".repeat(33))
);
bad!(
    extraction_out_of_range,
    "extract.fe",
    "program p {\n  bv8 k;\n  bv4 n;\n  n = k[8:5];\n  n = k[0:3];\n  n = k[7:5];\n}\n"
);
bad!(
    int_literal_too_long,
    "long.fe",
    format!("program p {{\n  int x;\n  x = {};\n}}\n", "7".repeat(300))
);
bad!(bv_width_out_of_range, "bv0.fe", "program p {\n  bv0 k;\n  bv129 w;\n}\n");
bad!(non_utf8, "latin1.fe", b"program p {\n  int x; // caf\xe9\n}\n".to_vec());
bad!(
    deep_parentheses,
    "parens.fe",
    format!("program p {{\n  int x;\n  x = {}x{};\n}}\n", "(".repeat(10_000), ")".repeat(10_000))
);
bad!(
    deep_unary,
    "unary.fe",
    format!("program p {{\n  bool b;\n  b = {}b;\n}}\n", "!".repeat(10_000))
);
bad!(
    deep_if_blocks,
    "ifs.fe",
    format!(
        "program p {{\n  int x;\n  {}skip;{}\n}}\n",
        "if (x > 0) { ".repeat(10_000),
        " }".repeat(10_000)
    )
);
bad!(
    long_else_if_chain,
    "chain.fe",
    format!(
        "program p {{\n  int x;\n  if (x == 0) {{ skip; }}{}\n}}\n",
        // Chains of `*` conditions nest for real; other long chains are balanced.
        " else if (*) { skip; }".repeat(500)
    )
);
bad!(
    forex_syntax_in_fe,
    "foreign.fe",
    "program p {\n  bv_8 k;\n  bool b;\n  b = b => b;\n  k = bv.! k bv.& k;\n}\n"
);
bad!(
    declaration_in_block,
    "block_decl.fe",
    "program p {\n  int x;\n  if (x > 0) {\n    int y;\n    x = 1;\n  }\n}\n"
);
bad!(
    shorthand_unknown_variable,
    "shorthand.fe",
    format!(
        "{P}tuple t = gni(p, low: [l, q], high: [h], out: [out]);\ntuple u = nii(p, out: [o]);\n"
    )
);
bad!(tuple_without_post_and_copies, "nopost.fe", format!("{P}tuple t {{\n  pre true;\n}}\n"));
bad!(
    unknown_function_and_quantifier_in_program,
    "funcs.fe",
    "program p {\n  int x;\n  x = mn(x, 1);\n  x = abs(x, x);\n  assume forall i: int :: i == x;\n}\n"
);
bad!(
    forex_string_declaration,
    "strings.txt",
    "[forall]\nstring s;\nint x;\nx = 1;\n\n[exists]\nint x;\nx = str.len;\n\n[pre]\ntrue\n\n[post]\nx_0 == x_1\n"
);
bad!(
    forex_bad_copy_index,
    "index.txt",
    "[forall]\nint x;\nx = 1;\n\n[exists]\nint x;\n\n[pre]\nx_0 == x_2 && y_0 == 1\n\n[post]\nx == 1\n"
);
bad!(
    forex_unknown_section_and_missing_post,
    "sections.txt",
    "[forall]\nint x;\nx = 1;\n\n[forall]\nint x;\n\n[prex]\nx_0 == x_1\n\n[pre]\ntrue\n\n[pre]\ntrue\n"
);
bad!(forex_truncated, "truncated.txt", "[forall]\nint x;\nwhile (x > 0) {\n  x = x -");
bad!(keyword_as_name, "keyword.fe", "program p {\n  int then;\n}\n");
bad!(pascal_assignment, "pascal.fe", "program p {\n  int x;\n  x := 1;\n}\n");
bad!(
    copy_without_colon,
    "colon.fe",
    "program p { int x; x = 1; }\ntuple t {\n  forall a p;\n  post true;\n}\n"
);
bad!(block_without_braces, "braces.fe", "program p {\n  int x;\n  if (x > 0) x = 1;\n}\n");
bad!(
    comparison_with_single_equals,
    "compare.fe",
    "program p { int x; x = 1; }\ntuple t {\n  forall a: p;\n  post a.x = 1;\n}\n"
);
bad!(empty_bv_literal, "bvlit.fe", "program p {\n  bv8 k;\n  k = #b;\n}\n");
bad!(missing_closing_brace, "brace.fe", "program p {\n  int x;\n  x = 1;\n");
