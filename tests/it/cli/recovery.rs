//! `forex prove` on a file with one broken tuple and one broken program: the others are
//! still decided, the broken ones are `error` results with their diagnostic, exit code 3;
//! `--tuple` selects a tuple that checks even when another one is broken.

use assert_cmd::Command;
use serde_json::Value;

const FILE: &str = "\
program good { int h, l, o; o = l; }
program bad { int x; x = y + 1; }
tuple ok { forall a: good, b: good; pre a.l == b.l; post a.o == b.o; }
tuple uses_bad { forall a: bad, b: bad; post a.x == b.x; }
tuple own_error { forall a: good, b: good; post a.o == b.q; }
tuple leak { forall a: good, b: good; post a.o == b.o; }
";

fn prove(args: &[&str]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("partial.fe"), FILE).unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .current_dir(dir.path())
        .args(["prove", "--timeout", "20", "--format", "json", "partial.fe"])
        .args(args)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).expect("a JSON report");
    (out.status.code().unwrap(), json)
}

#[test]
fn broken_tuples_are_errors_and_the_others_are_decided() {
    let (code, json) = prove(&[]);
    assert_eq!(code, 3);
    let results = json["results"].as_array().unwrap();
    let got: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["tuple"].as_str().unwrap(), r["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [("ok", "verified"), ("uses_bad", "error"), ("own_error", "error"), ("leak", "violated")]
    );
    assert_eq!(results[1]["reason"], "partial.fe:2:26: error: unknown variable `y`");
    assert_eq!(
        results[2]["reason"],
        "partial.fe:5:58: error: copy `b` (program `good`) has no variable `q`"
    );
    assert_eq!(json["summary"]["error"], 2);
}

#[test]
fn a_selected_tuple_is_decided_even_when_another_is_broken() {
    let (code, json) = prove(&["--tuple", "ok"]);
    assert_eq!(code, 0);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["verdict"], "verified");
}
