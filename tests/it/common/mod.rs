//! Shared test support: a brute-force oracle, random tuple generators, an IR builder.
//! A module of the `it` test crate; every layer uses what it needs through `crate::common`.
#![allow(dead_code)]

pub mod brute;
pub mod build;
pub mod cgen;
pub mod corpus;
pub mod fe;
pub mod gen;

/// Whether a C compiler is installed: the C front end runs the system preprocessor. When
/// there is none, says that `test` is skipped (on stderr, visible with `--nocapture`
/// and in failures' output).
pub fn have_cc(test: &str) -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let found = *FOUND.get_or_init(|| forex::native::exec::find_compiler(None).is_ok());
    if !found {
        eprintln!("NOTICE: no C compiler found (install gcc or clang): {test} skipped");
    }
    found
}
