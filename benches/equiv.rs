//! The equivalence benchmark: pairs of loops before and after a program transformation
//! (`benches/equiv/<class>/*.fe`: peel, offset, unroll, fission, fusion, unswitch,
//! inversion, strength, sink, frame), each file one tuple with its `// expect:` verdict
//! on the first line; every valid pair has an invalid twin (`*_bad.fe`) that must not be
//! verified. C pairs are two files, `NAME.old.c` and `NAME.new.c` (the `// expect:` line
//! in the new one), run as `forex equiv` (class `recursion`: recursive functions). Runs the release binary on each file and prints per file the verdict and
//! time, then per class decided/total and the time.
//!
//! `cargo bench --bench equiv [-- [--engine E] [--timeout SECS] [FILTER]]` (or
//! `FOREX_ENGINE`, `FOREX_TIMEOUT`). How one pair is run is `run_pair` alone: pointing
//! the bench at a two-file command (`forex equiv old.c new.c`) changes only that function.
//! Exits 1 when a definitive verdict contradicts the expected one (an invalid twin
//! verified, a valid pair violated).

use comfy_table::{presets, CellAlignment, Table};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Config {
    engine: String,
    timeout: String,
    filter: Option<String>,
}

fn config() -> Result<Config, String> {
    let mut engine = std::env::var("FOREX_ENGINE").unwrap_or_else(|_| "all".into());
    let mut timeout = std::env::var("FOREX_TIMEOUT").unwrap_or_else(|_| "20".into());
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--engine" => engine = args.next().ok_or("--engine needs a value")?,
            "--timeout" => timeout = args.next().ok_or("--timeout needs a value")?,
            a if a.starts_with("--") => {} // cargo passes `--bench`
            a => filter = Some(a.to_string()),
        }
    }
    Ok(Config { engine, timeout, filter })
}

/// Every pair, by class (the folder), in name order.
fn pairs(filter: Option<&str>) -> BTreeMap<String, Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/equiv");
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let Ok(classes) = std::fs::read_dir(&root) else { return out };
    for class in classes.filter_map(|e| e.ok()).filter(|e| e.path().is_dir()) {
        let name = class.file_name().to_string_lossy().to_string();
        let Ok(files) = std::fs::read_dir(class.path()) else { continue };
        let mut paths: Vec<PathBuf> = files
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|e| e == "fe") || p.to_string_lossy().ends_with(".new.c")
            })
            .filter(|p| filter.is_none_or(|f| p.to_string_lossy().contains(f)))
            .collect();
        paths.sort();
        if !paths.is_empty() {
            out.insert(name, paths);
        }
    }
    out
}

/// The verdict the file's first line expects.
fn expected(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let first = text.lines().next().unwrap_or("");
    first.strip_prefix("// expect:").unwrap_or("-").trim().to_string()
}

/// One pair through the release binary: its verdict and reason (`error` with the first
/// line of forex's complaint when there is no report), and the wall time.
fn run_pair(path: &Path, cfg: &Config) -> (String, String, Duration) {
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_forex"));
    // `NAME.new.c`: the pair `forex equiv NAME.old.c NAME.new.c`.
    match path.to_string_lossy().strip_suffix(".new.c") {
        Some(stem) => cmd.args(["equiv", &format!("{stem}.old.c")]),
        None => cmd.arg("prove"),
    };
    let out = cmd
        .args(["--format", "json", "--jobs", "1", "--quiet"])
        .args(["--engine", &cfg.engine, "--timeout", &cfg.timeout])
        .arg(path)
        .output();
    let time = start.elapsed();
    let out = match out {
        Ok(o) => o,
        Err(e) => return ("error".into(), format!("cannot run forex: {e}"), time),
    };
    let report: Option<serde_json::Value> = serde_json::from_slice(&out.stdout).ok();
    let first = report.as_ref().and_then(|r| r["results"].as_array()?.first().cloned());
    match first {
        Some(r) => (
            r["verdict"].as_str().unwrap_or("error").to_string(),
            r["reason"].as_str().unwrap_or("").to_string(),
            time,
        ),
        None => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no report");
            ("error".into(), why.trim().to_string(), time)
        }
    }
}

fn secs(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

fn main() {
    let cfg = match config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("equiv bench: {e}");
            std::process::exit(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Table::new();
    files.load_style(presets::ASCII_MARKDOWN);
    files.set_header(["pair", "expected", "verdict", "s", "reason"]);
    let mut classes = Table::new();
    classes.load_style(presets::ASCII_MARKDOWN);
    classes.set_header(["class", "decided", "valid proved", "invalid refuted", "wrong", "s"]);
    let (mut all_decided, mut all_total, mut all_wrong, mut all_time) = (0, 0, 0, Duration::ZERO);
    for (class, paths) in pairs(cfg.filter.as_deref()) {
        let (mut decided, mut wrong, mut time) = (0, 0, Duration::ZERO);
        let (mut valid, mut valid_proved, mut invalid, mut invalid_refuted) = (0, 0, 0, 0);
        for path in &paths {
            let want = expected(path);
            let (verdict, reason, t) = run_pair(path, &cfg);
            time += t;
            let definitive = matches!(verdict.as_str(), "verified" | "violated");
            decided += usize::from(verdict == want);
            wrong += usize::from(definitive && verdict != want);
            if want == "verified" {
                valid += 1;
                valid_proved += usize::from(verdict == want);
            } else {
                invalid += 1;
                invalid_refuted += usize::from(verdict == want);
            }
            let shown = path.strip_prefix(root).unwrap_or(path).display().to_string();
            let reason: String = reason.lines().next().unwrap_or("").chars().take(90).collect();
            files.add_row([shown, want, verdict, secs(t), reason]);
        }
        classes.add_row([
            class,
            format!("{decided}/{}", paths.len()),
            format!("{valid_proved}/{valid}"),
            format!("{invalid_refuted}/{invalid}"),
            wrong.to_string(),
            secs(time),
        ]);
        all_decided += decided;
        all_total += paths.len();
        all_wrong += wrong;
        all_time += time;
    }
    for t in [&mut files, &mut classes] {
        if let Some(col) = t.column_mut(3) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    println!("{files}\n\n{classes}");
    println!(
        "{all_decided}/{all_total} decided as expected, {all_wrong} wrong, {} s in all \
         (engine {}, timeout {} s)",
        secs(all_time),
        cfg.engine,
        cfg.timeout
    );
    if all_wrong > 0 {
        std::process::exit(1);
    }
}
