//! Snapshots (insta) of what `forex prove` prints in each report format, on a few
//! examples: a verified tuple with a loop point, a loop-free verified one and a violated
//! one. Times vary from run to run and are masked; the winning engine does not (only the
//! prover verifies, only the refuter finds violations), nor does the counterexample. (`gni_leak.fe` is not used: its ∃ counterexample
//! has varied between runs since before the engine-thread pool.)
//!
//! A changed snapshot is a changed report: review it with `cargo insta review`, never
//! accept it blindly.

use assert_cmd::Command;

const EXAMPLES: &[&str] = &["examples/async_loops.fe", "examples/ni_leak.fe", "examples/ni.fe"];

/// `forex prove` on [`EXAMPLES`] with `args`; its stdout (exit code 1: one violation).
fn prove(args: &[&str]) -> String {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // Prover and refuter only: the hypertester's burst is bounded in wall time, so
        // whether it or the refuter reports the violation depends on the machine's load.
        .args(["prove", "--engine", "both", "--timeout", "60", "--jobs", "1"])
        .args(args)
        .args(EXAMPLES)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    stdout
}

/// Whether `word` is a duration as the human report prints it: `12 ms` or `1.04 s`
/// (given as the number, then the unit).
fn is_time(number: &str, unit: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match unit {
        "ms" => digits(number),
        "s" => number.split_once('.').is_some_and(|(a, b)| digits(a) && digits(b)),
        _ => false,
    }
}

/// The human report with the duration that ends a line (the summary table's last,
/// right-aligned column and the totals line) replaced by `<time>`, and the padding before
/// it (and before the column's header) shortened to two spaces, so that the layout does
/// not depend on how wide the times are.
fn mask_human(text: &str) -> String {
    let mask = |line: &str| -> String {
        if let Some(rest) = line.strip_suffix(" time").filter(|r| r.ends_with(' ')) {
            return format!("{}  time", rest.trim_end());
        }
        let Some((rest, unit)) = line.rsplit_once(' ') else { return line.to_string() };
        let Some((rest, number)) = rest.rsplit_once(' ') else { return line.to_string() };
        match (is_time(number, unit), rest.ends_with(' ')) {
            (false, _) => line.to_string(),
            (true, true) => format!("{}  <time>", rest.trim_end()),
            (true, false) => format!("{rest} <time>"),
        }
    };
    text.lines().map(|l| mask(l) + "\n").collect()
}

/// Every `time="…"` attribute of the JUnit report replaced by `time="<time>"`.
fn mask_junit(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("time=\"") {
        let (head, tail) = rest.split_at(at + "time=\"".len());
        out.push_str(head);
        out.push_str("<time>");
        rest = &tail[tail.find('"').expect("closed attribute")..];
    }
    out.push_str(rest);
    out
}

/// Every `time_ms` field of the JSON report set to `"<time>"`.
fn mask_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if key == "time_ms" {
                    *v = "<time>".into();
                } else {
                    mask_json(v);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(mask_json),
        _ => {}
    }
}

#[test]
fn the_masks_hide_times_only() {
    let table = "engine    time\nprove    58 ms\nrefute  160 ms\n3 results in 1.04 s\n";
    let masked = "engine  time\nprove  <time>\nrefute  <time>\n3 results in <time>\n";
    assert_eq!(mask_human(table), masked);
    assert_eq!(mask_human("x 12 items, 3.5 apples\n"), "x 12 items, 3.5 apples\n");
    assert_eq!(mask_junit(r#"<a time="0.234" n="1"/>"#), r#"<a time="<time>" n="1"/>"#);
}

#[test]
fn human_report() {
    insta::assert_snapshot!(mask_human(&prove(&[])));
}

#[test]
fn human_report_with_explain() {
    insta::assert_snapshot!(mask_human(&prove(&["--explain"])));
}

#[test]
fn json_report() {
    let mut json: serde_json::Value = serde_json::from_str(&prove(&["--format", "json"])).unwrap();
    mask_json(&mut json);
    insta::assert_snapshot!(serde_json::to_string_pretty(&json).unwrap());
}

#[test]
fn junit_report() {
    insta::assert_snapshot!(mask_junit(&prove(&["--format", "junit"])));
}
