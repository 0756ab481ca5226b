//! The float benchmark (issue 34): forex's own float pairs and tuples, equal and different
//! (reassociation, Kahan against the naive sum, `x/2` against `x*0.5`, `x*2` against
//! `x+x`, `(float)(double)x`, `(double)(float)x`, NaN comparisons, `fabs`/`sqrt` rewrites,
//! `x*0.1` against `x/10`, `-0.0`, float arrays, uninterpreted and modelled library calls).
//! Every tuple of the files below says its expected verdict in its name: `eq_…` must be
//! `verified`, `ne_…` `violated`. A table per pair (expected, verdict, engine, forex's time
//! for the pair), then decided/total, wrong verdicts and the median time per decided pair.
//!
//! `cargo bench --bench floats [-- [--timeout SECS] [FILTER]]` (or `FOREX_TIMEOUT`). Each
//! file is one `forex prove --format json --jobs 1` run; a pair's time is the report's
//! `time_ms`. Exits 1 when a verdict contradicts the expected one.

use comfy_table::{presets, CellAlignment, Table};
use std::path::Path;
use std::process::Command;

/// The suite: files whose tuples are named `eq_…` or `ne_…`.
const FILES: &[&str] = &["tests/inputs/c/floats.c", "tests/inputs/c/floats_native.c"];

fn main() {
    let mut timeout = std::env::var("FOREX_TIMEOUT").unwrap_or_else(|_| "10".into());
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--timeout" => timeout = args.next().unwrap_or(timeout),
            a if a.starts_with("--") => {} // cargo passes `--bench`
            a => filter = Some(a.to_string()),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut table = Table::new();
    table.load_style(presets::ASCII_MARKDOWN);
    table.set_header(["file", "pair", "expected", "verdict", "engine", "ms"]);
    let (mut total, mut decided, mut wrong) = (0, 0, 0);
    let mut times = Vec::new();
    for file in FILES {
        let out = Command::new(env!("CARGO_BIN_EXE_forex"))
            .args(["prove", "--format", "json", "--jobs", "1", "--quiet", "--timeout", &timeout])
            .arg(root.join(file))
            .output()
            .expect("forex runs");
        let report: serde_json::Value = match serde_json::from_slice(&out.stdout) {
            Ok(r) => r,
            Err(e) => {
                println!("{file}: no report ({e}): {}", String::from_utf8_lossy(&out.stderr));
                wrong += 1;
                continue;
            }
        };
        for r in report["results"].as_array().into_iter().flatten() {
            let name = r["tuple"].as_str().unwrap_or("-");
            if filter.as_deref().is_some_and(|f| !name.contains(f) && !file.contains(f)) {
                continue;
            }
            let expected = if name.starts_with("eq_") { "verified" } else { "violated" };
            let verdict = r["verdict"].as_str().unwrap_or("error");
            let ms = r["time_ms"].as_f64().unwrap_or(f64::NAN);
            total += 1;
            if verdict == expected {
                decided += 1;
                times.push(ms);
            } else if matches!(verdict, "verified" | "violated") {
                wrong += 1;
            }
            let file_name = Path::new(file).file_name().unwrap().to_string_lossy();
            table.add_row([
                file_name.as_ref(),
                name,
                expected,
                verdict,
                r["engine"].as_str().unwrap_or("-"),
                &format!("{ms:.1}"),
            ]);
        }
    }
    if let Some(col) = table.column_mut(5) {
        col.set_cell_alignment(CellAlignment::Right);
    }
    println!("{table}");
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
    };
    println!(
        "float pairs: {decided}/{total} decided as expected, {wrong} wrong, median {median:.1} ms \
         per decided pair (timeout {timeout} s)"
    );
    if wrong > 0 {
        std::process::exit(1);
    }
}
