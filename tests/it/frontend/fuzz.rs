//! `load_source` never panics: random bytes and random token sequences (in both
//! formats) give a module or diagnostics, never an internal error.

use forex::frontend::{load_source, InputFormat};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "program",
    "tuple",
    "p",
    "q",
    "x",
    "y",
    "a",
    "b",
    "x_0",
    "y_1",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ":",
    "::",
    "..",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    "<==>",
    "==>",
    "=>",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "<<",
    ">>",
    "&&",
    "||",
    "!",
    "~",
    "bv.&",
    "bv.|",
    "bv.!",
    "int",
    "bool",
    "bv8",
    "bv_4",
    "int[]",
    "string",
    "if",
    "else",
    "while",
    "assume",
    "skip",
    "then",
    "forall",
    "exists",
    "pre",
    "post",
    "invariant",
    "align",
    "conjuncts",
    "true",
    "false",
    "0",
    "1",
    "42",
    "#b101",
    "#xff",
    "min",
    "max",
    "abs",
    "ni",
    "gni",
    "low",
    "out",
    "{0,1}",
    "[3:0]",
    "[forall]",
    "[exists]",
    "[pre]",
    "[post]",
    "[inv]",
    "[maxC]",
    "str.len",
    "\"s\"",
    "//",
    "/*",
    "*/",
    "\n",
    "a.x",
    "b.y",
    "99999999999999999999999999999999999999999",
];

fn check(bytes: &[u8], format: InputFormat) -> Result<(), TestCaseError> {
    if let Err(d) = load_source("fuzz.fe", bytes, format) {
        prop_assert!(!d.is_empty());
        for m in &d.messages {
            prop_assert!(!m.contains("internal"), "internal error: {m}");
        }
        // Rendering must not panic either (spans inside the text, on char boundaries).
        let _ = d.render(forex::diag::DiagStyle::Short);
        let _ = d.render(forex::diag::DiagStyle::Json);
        let _ = d.render(forex::diag::DiagStyle::Fancy);
    }
    Ok(())
}

fn tokens() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60)
        .prop_map(|ts| ts.join(" ").into_bytes())
}

/// A valid program with one token replaced or inserted (near-valid inputs reach the checker).
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    const BASE: &str = "program p { int x, y; bv8 k; x = *; if (x > 0) { y = x + 1; } else { k = k & #x0f; } while (y < 3) { y = y + 1; } }\ntuple t { forall a: p; exists b: p; pre a.x == b.x; post a.y == b.y; }";
    (0..BASE.len(), prop::sample::select(TOKENS), any::<bool>()).prop_map(|(at, tok, replace)| {
        let mut at = at;
        while !BASE.is_char_boundary(at) {
            at -= 1;
        }
        let end =
            if replace { BASE[at..].find(' ').map(|i| at + i).unwrap_or(BASE.len()) } else { at };
        format!("{} {tok} {}", &BASE[..at], &BASE[end..]).into_bytes()
    })
}

proptest! {
    // 300 cases by default; `PROPTEST_CASES=20000` for a longer hunt.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&bytes, InputFormat::Auto)?;
    }

    #[test]
    fn random_unicode_text_never_panics(text in "[\\PC\n]{0,120}", prefix in prop::sample::select(vec!["", "program p { int x; x = ", "[forall]\nint x;\n"])) {
        check(format!("{prefix}{text}").as_bytes(), InputFormat::Auto)?;
    }

    #[test]
    fn random_tokens_never_panic(bytes in tokens()) {
        check(&bytes, InputFormat::Fe)?;
        check(&bytes, InputFormat::Forex)?;
    }

    #[test]
    fn mutated_programs_never_panic(bytes in mutated()) {
        check(&bytes, InputFormat::Auto)?;
    }
}
