//! `forex check` end to end: summary lines, diagnostics on stderr, exit codes.

use assert_cmd::Command;
use predicates::prelude::*;

fn forex() -> Command {
    Command::cargo_bin("forex").unwrap()
}

#[test]
fn good_files_exit_zero_with_a_summary_line_each() {
    forex()
        .args(["check", "tests/inputs/gni.fe", "tests/inputs/features.fe"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("tests/inputs/gni.fe: ok (1 program, 2 tuples)"))
        .stdout(predicate::str::contains("tests/inputs/features.fe: ok (1 program, 4 tuples)"));
}

#[test]
fn bad_files_exit_three_with_file_line_col_in_short_diagnostics() {
    forex()
        .args([
            "check",
            "--diagnostics",
            "short",
            "tests/inputs/gni.fe",
            "tests/inputs/bad_types.fe",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("tests/inputs/gni.fe: ok"))
        .stdout(predicate::str::contains("tests/inputs/bad_types.fe: 4 errors"))
        .stderr(predicate::str::contains(
            "tests/inputs/bad_types.fe:6:7: error: cannot assign a bool value to `x` of type int",
        ))
        .stderr(predicate::str::contains(
            "tests/inputs/bad_types.fe:7:11: error: bit-vector width mismatch",
        ))
        .stderr(predicate::str::contains(
            "tests/inputs/bad_types.fe:8:3: error: unknown variable `z`",
        ))
        .stderr(predicate::str::contains(
            "tests/inputs/bad_types.fe:12:15: error: unknown copy `c`",
        ));
}

#[test]
fn json_diagnostics_are_one_object_per_line() {
    let out = forex()
        .args(["check", "--diagnostics", "json", "tests/inputs/bad_types.fe"])
        .assert()
        .code(3)
        .get_output()
        .stderr
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[2]["file"], "tests/inputs/bad_types.fe");
    assert_eq!((lines[2]["line"].as_u64(), lines[2]["column"].as_u64()), (Some(8), Some(3)));
    assert_eq!(lines[2]["hint"], "declare `z` first: `int z;`");
    assert_eq!(lines[3]["hint"], "the copies are `a`, `b`");
}

#[test]
fn missing_files_and_the_forex_format_are_handled() {
    forex()
        .args(["check", "--diagnostics", "short", "tests/inputs/no_such_file.fe"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("cannot read tests/inputs/no_such_file.fe"));
    forex()
        .args(["check", "tests/inputs/forex_small.txt"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("forex_small.txt: ok (2 programs, 1 tuple)"));
}

#[test]
fn fancy_diagnostics_show_the_source_and_hint() {
    forex()
        .args(["check", "--diagnostics", "fancy", "tests/inputs/bad_types.fe"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("unknown variable `z`"))
        .stderr(predicate::str::contains("z = y;"))
        .stderr(predicate::str::contains("declare `z` first: `int z;`"));
}
