//! The C benchmark: `forex prove` on every `examples/c/*.c` and
//! `../shared/benchmarks/c/*.c`, N runs per file, a table per tuple (expected verdict
//! from the file's first line, verdict, median forex time) and the median time per file
//! against Elaenia's published median of 7.0 s per file (target: at most 1/20 of it).
//! Then Elaenia's own 37 files (`../shared/benchmarks/elaenia`, verdicts from its
//! `EXPECTED.tsv`, Elaenia's times from its `RESULTS.tsv`), read verbatim: decided/total,
//! wrong verdicts, and forex's median time over the decided files beside Elaenia's
//! published median over the files it reports (target: at most 1/50 of it).
//!
//! Then forex's own comparators (`tests/inputs/c/comparators`, antisymmetry and
//! transitivity of comparators that return early; `ok_` tuples valid, `bad_` ones not)
//! in both integer models: decided/total, wrong verdicts and the total time of the run.
//!
//! `cargo bench --bench c [-- [--runs N] [--timeout SECS] [--elaenia-runs N]
//! [--elaenia-timeout SECS] [FILTER]]` (or `FOREX_C_RUNS`, `FOREX_TIMEOUT`). Times are wall-clock times of the `forex` process (start-up
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
    elaenia_runs: usize,
    elaenia_timeout: String,
}

fn config() -> Result<Config, String> {
    let mut runs = std::env::var("FOREX_C_RUNS").unwrap_or_else(|_| "5".into());
    let mut timeout = std::env::var("FOREX_TIMEOUT").unwrap_or_else(|_| "60".into());
    let mut filter = None;
    let mut elaenia_runs = "1".to_string();
    let mut elaenia_timeout = "20".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().ok_or("--runs needs a value")?,
            "--timeout" => timeout = args.next().ok_or("--timeout needs a value")?,
            "--elaenia-runs" => elaenia_runs = args.next().ok_or("--elaenia-runs needs a value")?,
            "--elaenia-timeout" => {
                elaenia_timeout = args.next().ok_or("--elaenia-timeout needs a value")?
            }
            a if a.starts_with("--") => {} // cargo passes `--bench`
            a => filter = Some(a.to_string()),
        }
    }
    let runs = runs.parse::<usize>().ok().filter(|n| *n > 0).ok_or("--runs: a positive count")?;
    let elaenia_runs = elaenia_runs
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or("--elaenia-runs: a positive count")?;
    Ok(Config { runs, timeout, filter, elaenia_runs, elaenia_timeout })
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
    let more_wrong = elaenia(&cfg) + comparators(&cfg);
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
    if wrong + more_wrong > 0 {
        println!("{} definitive verdicts contradict the expected ones", wrong + more_wrong);
        std::process::exit(1);
    }
}

/// Elaenia's 37 published files: a table and a summary line; returns the number of
/// definitive verdicts that contradict `EXPECTED.tsv`.
fn elaenia(cfg: &Config) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/elaenia");
    let Ok(expected) = std::fs::read_to_string(dir.join("EXPECTED.tsv")) else {
        println!("note: no {}; Elaenia's files are not measured", dir.display());
        return 0;
    };
    let published: Vec<(String, f64)> = std::fs::read_to_string(dir.join("RESULTS.tsv"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.to_string(), f.next()?.parse().ok()?))
        })
        .collect();
    let mut table = Table::new();
    table.load_style(presets::ASCII_MARKDOWN);
    table.set_header(["Elaenia's file", "expected", "verdict", "forex ms", "Elaenia ms"]);
    let (mut decided, mut total, mut wrong) = (0, 0, 0);
    let mut times = Vec::new();
    for line in expected.lines().skip(1) {
        let mut f = line.split('\t');
        let (Some(path), Some(want)) = (f.next(), f.next()) else { continue };
        if cfg.filter.as_deref().is_some_and(|x| !path.contains(x)) {
            continue;
        }
        total += 1;
        let mut runs = Vec::new();
        let mut last = Err("not run".to_string());
        for _ in 0..cfg.elaenia_runs {
            let (rows, time) = run_once(&dir.join(path), &cfg.elaenia_timeout);
            runs.push(time);
            last = rows;
        }
        let time = median(runs);
        let verdict = match &last {
            Ok(rows) => rows.first().map_or("error".to_string(), |r| r.1.clone()),
            Err(why) => format!("error: {}", why.chars().take(50).collect::<String>()),
        };
        if verdict == want {
            decided += 1;
            times.push(time);
        } else if matches!(verdict.as_str(), "verified" | "violated") {
            wrong += 1;
        }
        let stem = path.trim_end_matches(".c");
        let theirs = published
            .iter()
            .find(|(b, _)| b == stem)
            .map_or("-".to_string(), |(_, t)| format!("{t:.0}"));
        table.add_row([path, want, &verdict, &ms(time), &theirs]);
    }
    for col in [3, 4] {
        if let Some(c) = table.column_mut(col) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    println!("{table}");
    let theirs = {
        let mut t: Vec<Duration> =
            published.iter().map(|(_, ms)| Duration::from_secs_f64(ms / 1000.0)).collect();
        t.sort();
        median(t)
    };
    let ours = median(times);
    let ratio = theirs.as_secs_f64() / ours.as_secs_f64().max(1e-9);
    println!(
        "Elaenia's files: {decided}/{total} decided as EXPECTED.tsv says, {wrong} wrong \
         (timeout {} s, {} run(s) each); forex median {} ms over the decided files, \
         Elaenia's published median {} ms over the {} it reports: {ratio:.0}x (target: 50x)",
        cfg.elaenia_timeout,
        cfg.elaenia_runs,
        ms(ours),
        ms(theirs),
        published.len()
    );
    wrong
}

/// forex's comparators in both integer models, the whole folder in one run each (the
/// default `--jobs`, `--elaenia-timeout`): a table and a summary line per model;
/// returns the number of definitive verdicts that contradict the tuples' names.
fn comparators(cfg: &Config) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c/comparators");
    if cfg.filter.as_deref().is_some_and(|f| !"comparators".contains(f)) {
        return 0;
    }
    let mut table = Table::new();
    table.load_style(presets::ASCII_MARKDOWN);
    table.set_header(["int model", "tuple", "expected", "verdict", "engine"]);
    let mut wrong = 0;
    let mut lines = Vec::new();
    for model in ["machine", "math"] {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_forex"))
            .args(["prove", "--format", "json", "--quiet", "--timeout", &cfg.elaenia_timeout])
            .args(["--int-model", model])
            .arg(&dir)
            .output();
        let time = start.elapsed();
        let report: Option<serde_json::Value> =
            out.ok().and_then(|o| serde_json::from_slice(&o.stdout).ok());
        let results = report.as_ref().and_then(|r| r["results"].as_array()).cloned();
        let (mut decided, mut total) = (0, 0);
        for r in results.unwrap_or_default() {
            let tuple = r["tuple"].as_str().unwrap_or("-");
            let verdict = r["verdict"].as_str().unwrap_or("error");
            let want = if tuple.starts_with("bad_") { "violated" } else { "verified" };
            total += 1;
            if verdict == want {
                decided += 1;
            } else if matches!(verdict, "verified" | "violated") {
                wrong += 1;
            }
            let engine = r["engine"].as_str().unwrap_or("-");
            table.add_row([model, tuple, want, verdict, engine]);
        }
        lines.push(format!(
            "comparators ({model} integers): {decided}/{total} decided, timeout {} s, \
             total {} ms (one run, default --jobs)",
            cfg.elaenia_timeout,
            ms(time)
        ));
    }
    println!("{table}");
    for l in lines {
        println!("{l}");
    }
    wrong
}
