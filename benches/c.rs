//! The C benchmark: `forex prove` on every `examples/c/*.c` and
//! `../shared/benchmarks/c/*.c`, N runs per file, a table per tuple (expected verdict
//! from the file's first line, verdict, median forex time) and the median time per file
//! against Elaenia's published median of 7.0 s per file (target: at most 1/20 of it).
//!
//! `cargo bench --bench c [-- [--runs N] [--timeout SECS] [FILTER]]` (or `FOREX_C_RUNS`,
//! `FOREX_TIMEOUT`). Times are wall-clock times of the `forex` process (start-up
//! included), which is what a user waits for. A file forex cannot read shows as `error`
//! with the first line of its diagnostic. Exits 1 when a definitive verdict contradicts
//! the expected one.

use comfy_table::{presets, CellAlignment, Table};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Elaenia's published median time per file on its ∀∃ C benchmarks.
const ELAENIA_MEDIAN: Duration = Duration::from_millis(7000);

struct Config {
    runs: usize,
    timeout: String,
    filter: Option<String>,
}

fn config() -> Result<Config, String> {
    let mut runs = std::env::var("FOREX_C_RUNS").unwrap_or_else(|_| "5".into());
    let mut timeout = std::env::var("FOREX_TIMEOUT").unwrap_or_else(|_| "60".into());
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().ok_or("--runs needs a value")?,
            "--timeout" => timeout = args.next().ok_or("--timeout needs a value")?,
            a if a.starts_with("--") => {} // cargo passes `--bench`
            a => filter = Some(a.to_string()),
        }
    }
    let runs = runs.parse::<usize>().ok().filter(|n| *n > 0).ok_or("--runs: a positive count")?;
    Ok(Config { runs, timeout, filter })
}

fn files(filter: Option<&str>) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [root.join("examples/c"), root.join("../shared/benchmarks/c")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            println!("note: no folder {}", dir.display());
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .filter(|p| filter.is_none_or(|f| p.to_string_lossy().contains(f)))
            .collect();
        paths.sort();
        out.extend(paths);
    }
    out
}

/// The verdicts the file's first line expects, one per tuple in order.
fn expected(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let first = text.lines().next().unwrap_or("");
    let words = first
        .strip_prefix("// expect-each:")
        .or_else(|| first.strip_prefix("// expect:"))
        .unwrap_or("");
    words.split_whitespace().map(str::to_string).collect()
}

/// One run: per tuple (name, verdict), and the wall time; `Err` with the first line of
/// forex's complaint when there is no report.
/// Per tuple: name, verdict, reason.
type Rows = Vec<(String, String, String)>;

fn run_once(path: &Path, timeout: &str) -> (Result<Rows, String>, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_forex"))
        .args(["prove", "--format", "json", "--jobs", "1", "--timeout", timeout, "--quiet"])
        .arg(path)
        .output();
    let time = start.elapsed();
    let out = match out {
        Ok(o) => o,
        Err(e) => return (Err(format!("cannot run forex: {e}")), time),
    };
    let report: Option<serde_json::Value> = serde_json::from_slice(&out.stdout).ok();
    let rows = report.as_ref().and_then(|r| r["results"].as_array()).map(|results| {
        results
            .iter()
            .map(|r| {
                let tuple = r["tuple"].as_str().unwrap_or("-").to_string();
                let verdict = r["verdict"].as_str().unwrap_or("error").to_string();
                (tuple, verdict, r["reason"].as_str().unwrap_or("").to_string())
            })
            .collect::<Vec<_>>()
    });
    match rows {
        Some(rows) if !rows.is_empty() => (Ok(rows), time),
        _ => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no report");
            (Err(why.trim().to_string()), time)
        }
    }
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    match xs.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2,
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn main() {
    let cfg = match config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("c bench: {e}");
            std::process::exit(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut table = Table::new();
    table.load_style(presets::ASCII_MARKDOWN);
    table.set_header(["file", "tuple", "expected", "verdict", "median ms"]);
    let mut per_file = Vec::new();
    let mut wrong = 0;
    let mut errors = 0;
    for path in files(cfg.filter.as_deref()) {
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let expect = expected(&path);
        let mut times = Vec::new();
        let mut last = Err("not run".to_string());
        for _ in 0..cfg.runs {
            let (rows, time) = run_once(&path, &cfg.timeout);
            times.push(time);
            last = rows;
        }
        let file_median = median(times);
        match last {
            Ok(rows) => {
                if rows.iter().all(|(_, v, _)| v != "error") {
                    per_file.push(file_median);
                }
                for (i, (tuple, verdict, reason)) in rows.iter().enumerate() {
                    let want = expect.get(i).map_or("-", String::as_str);
                    if matches!(verdict.as_str(), "verified" | "violated") && verdict != want {
                        wrong += 1;
                    }
                    errors += usize::from(verdict == "error");
                    let shown_verdict = match verdict.as_str() {
                        "error" => {
                            format!("error: {}", reason.chars().take(50).collect::<String>())
                        }
                        _ => verdict.clone(),
                    };
                    table.add_row([&shown, tuple, want, &shown_verdict, &ms(file_median)]);
                }
            }
            Err(why) => {
                errors += 1;
                let want = expect.join(" ");
                let verdict = format!("error: {}", why.chars().take(60).collect::<String>());
                table.add_row([&shown, "-", &want, &verdict, &ms(file_median)]);
            }
        }
    }
    if let Some(col) = table.column_mut(4) {
        col.set_cell_alignment(CellAlignment::Right);
    }
    println!("{table}");
    if per_file.is_empty() {
        println!("no file was decided ({errors} errors): no median to compare with Elaenia's");
        return;
    }
    let overall = median(per_file.clone());
    let ratio = ELAENIA_MEDIAN.as_secs_f64() / overall.as_secs_f64().max(1e-9);
    println!(
        "{} files decided, {} runs each: median {} ms per file (forex process, wall clock); \
         Elaenia's published median 7000 ms; forex is {ratio:.0}x faster (target: 20x, i.e. \
         at most 350 ms){}",
        per_file.len(),
        cfg.runs,
        ms(overall),
        if errors > 0 { format!("; {errors} errors, not counted") } else { String::new() }
    );
    if wrong > 0 {
        println!("{wrong} definitive verdicts contradict the expected ones");
        std::process::exit(1);
    }
}
