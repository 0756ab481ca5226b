//! The ForEx benchmark suite: every instance under `../shared/benchmarks/forex`, one at a
//! time, with a table of verdict against expectation, time and work counters.
//!
//! `cargo bench --bench suite [-- [--engine prove|refute|test|all|both] [--timeout SECS] [FILTER]]`
//! (or `FOREX_ENGINE`, `FOREX_TIMEOUT`, `FOREX_SUITE_DIR` in the environment). FILTER keeps
//! instances whose path contains it. Expected verdicts come from `EXPECTED.tsv`; an
//! instance not listed there is expected `verified`. Exits 1 when a definitive verdict
//! contradicts the expected one (a soundness bug), 0 otherwise (unknown is no failure).

use comfy_table::{presets, CellAlignment, Table};
use forex::batch::{self, execute, BatchOptions, Entry, ExecOptions, InputFile};
use forex::cancel::Cancel;
use forex::frontend::InputFormat;
use forex::portfolio::{DecideOptions, EngineChoice};
use forex::report::TupleResult;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

struct Config {
    dir: PathBuf,
    engine: EngineChoice,
    timeout: Duration,
    filter: Option<String>,
}

fn config() -> Result<Config, String> {
    let mut engine = std::env::var("FOREX_ENGINE").unwrap_or_else(|_| "all".into());
    let mut timeout = std::env::var("FOREX_TIMEOUT").unwrap_or_else(|_| "60".into());
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--engine" => engine = args.next().ok_or("--engine needs a value")?,
            "--timeout" => timeout = args.next().ok_or("--timeout needs a value")?,
            // cargo passes `--bench` to every bench target.
            a if a.starts_with("--") => {}
            a => filter = Some(a.to_string()),
        }
    }
    let engine: EngineChoice = engine.parse().map_err(|e| format!("--engine: {e}"))?;
    let timeout = timeout
        .parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("--timeout {timeout}: expected seconds"))?;
    let dir = std::env::var_os("FOREX_SUITE_DIR").map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/forex")
    });
    Ok(Config { dir, engine, timeout, filter })
}

/// `EXPECTED.tsv`: `file<TAB>expected<TAB>note`, `#` comments.
fn expectations(dir: &Path) -> HashMap<String, String> {
    let text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut cols = l.split('\t');
            Some((cols.next()?.trim().to_string(), cols.next()?.trim().to_string()))
        })
        .collect()
}

struct Row {
    instance: String,
    verdict: &'static str,
    engine: String,
    expected: String,
    time: Option<Duration>,
    queries: u64,
    candidates: u64,
}

impl Row {
    /// A definitive verdict other than the expected one.
    fn wrong(&self) -> bool {
        matches!(self.verdict, "verified" | "violated") && self.verdict != self.expected
    }
}

fn row(instance: String, expected: String, r: Option<&TupleResult>) -> Row {
    let stats = r.and_then(|r| r.outcome()).map(|o| o.stats.clone()).unwrap_or_default();
    Row {
        instance,
        verdict: r.map_or("error", TupleResult::verdict_name),
        engine: r
            .and_then(TupleResult::engine)
            .map_or("-".into(), |e| format!("{e:?}").to_lowercase()),
        expected,
        time: r.and_then(TupleResult::time),
        queries: stats.queries,
        candidates: stats.candidates,
    }
}

fn secs(d: Option<Duration>) -> String {
    d.map_or("-".into(), |d| format!("{:.2}", d.as_secs_f64()))
}

fn print_table(rows: &[Row]) {
    let mut t = Table::new();
    t.load_style(presets::ASCII_MARKDOWN);
    t.set_header(vec![
        "instance",
        "verdict",
        "engine",
        "expected",
        "ok",
        "time (s)",
        "queries",
        "candidates",
    ]);
    for r in rows {
        let ok = if r.verdict == r.expected {
            "yes"
        } else if r.wrong() {
            "WRONG"
        } else {
            "no"
        };
        t.add_row(vec![
            r.instance.clone(),
            r.verdict.to_string(),
            r.engine.clone(),
            r.expected.clone(),
            ok.to_string(),
            secs(r.time),
            r.queries.to_string(),
            r.candidates.to_string(),
        ]);
    }
    for c in 5..8 {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    println!("{t}");

    let solved = rows.iter().filter(|r| r.verdict == r.expected).count();
    let wrong = rows.iter().filter(|r| r.wrong()).count();
    let mut times: Vec<Duration> = rows.iter().filter_map(|r| r.time).collect();
    times.sort();
    let total: Duration = times.iter().sum();
    let median = match times.len() {
        0 => None,
        n if n % 2 == 1 => Some(times[n / 2]),
        n => Some((times[n / 2 - 1] + times[n / 2]) / 2),
    };
    let count = |v: &str| rows.iter().filter(|r| r.verdict == v).count();
    println!(
        "{} instances: {solved} as expected, {wrong} wrong; {} verified, {} violated, {} unknown, {} error",
        rows.len(),
        count("verified"),
        count("violated"),
        count("unknown"),
        count("error"),
    );
    println!(
        "time: total {} s, median {} s; queries {}, candidates {}",
        secs(Some(total)),
        secs(median),
        rows.iter().map(|r| r.queries).sum::<u64>(),
        rows.iter().map(|r| r.candidates).sum::<u64>(),
    );
}

fn main() {
    let cfg = match config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("suite: {e}");
            std::process::exit(2);
        }
    };
    if !cfg.dir.is_dir() {
        println!("suite: skipped, no benchmarks at {}", cfg.dir.display());
        return;
    }
    let expected = expectations(&cfg.dir);
    let files: Vec<InputFile> =
        batch::collect_files(std::slice::from_ref(&cfg.dir), InputFormat::Auto)
            .into_iter()
            .filter(|f| {
                cfg.filter.as_ref().is_none_or(|s| f.path.to_string_lossy().contains(s.as_str()))
            })
            .collect();
    let opts = BatchOptions {
        decide: DecideOptions {
            engine: cfg.engine,
            timeout: cfg.timeout,
            ..DecideOptions::default()
        },
        jobs: 1,
        ..BatchOptions::default()
    };
    let exec = ExecOptions {
        jobs: 1,
        cores: None,
        timeout: cfg.timeout,
        fail_fast: false,
        progress: false,
        grace: Duration::from_secs(5),
    };
    eprintln!(
        "suite: {} instances, engine {:?}, timeout {:?}",
        files.len(),
        cfg.engine,
        cfg.timeout
    );
    let mut rows = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let instance =
            file.path.strip_prefix(&cfg.dir).unwrap_or(&file.path).to_string_lossy().into_owned();
        let exp = expected.get(&instance).cloned().unwrap_or_else(|| "verified".into());
        // One instance at a time on a fresh thread (fresh Z3 context), as `forex prove`.
        let entries: Vec<Entry> = batch::load(std::slice::from_ref(file), &opts);
        let report =
            execute(entries, &exec, &Cancel::new(), batch::portfolio_decider(opts.decide.clone()));
        let r = row(instance, exp, report.results.first());
        eprintln!("[{}/{}] {} {} {}", i + 1, files.len(), r.instance, r.verdict, secs(r.time));
        rows.push(r);
    }
    print_table(&rows);
    if rows.iter().any(Row::wrong) {
        std::process::exit(1);
    }
}
