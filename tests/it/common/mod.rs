//! Shared test support: a brute-force oracle, random tuple generators, an IR builder.
//! A module of the `it` test crate; every layer uses what it needs through `crate::common`.
#![allow(dead_code)]

pub mod brute;
pub mod build;
pub mod cfgen;
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

/// `forex prove --timeout 60 --format json` on `path` with `extra` options: the JSON
/// report (a panic with both output streams when it is not JSON).
pub fn prove_report(path: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let out = assert_cmd::Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--timeout", "60", "--format", "json"])
        .args(extra)
        .arg(path)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The result of tuple `name` in a JSON report.
pub fn tuple_result<'j>(json: &'j serde_json::Value, name: &str) -> &'j serde_json::Value {
    json["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["tuple"] == name)
        .unwrap_or_else(|| panic!("no tuple {name} in {json}"))
}
