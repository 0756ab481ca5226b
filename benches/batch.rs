//! Batch scaling: wall time of `forex prove --jobs 1` against `--jobs 2` on two batches,
//! with the ratio (issue 10: `--jobs 2` should be at least 1.75× faster on 2 cores).
//!
//! `cargo bench --bench batch [-- [--runs N] [--engine E]]`. The batches are made at run
//! time in a temporary folder, never kept:
//! - `short`: the ForEx suite (`../shared/benchmarks/forex`, or `FOREX_SUITE_DIR`) copied
//!   8 times (424 short tuples);
//! - `mixed`: the ForEx suite twice, the examples, the hyena0 ORHLE files
//!   (`../shared/benchmarks/hyena0/orhle`, or `FOREX_HYENA_DIR`) and the portfolio test
//!   inputs (tuples that run every engine to its end).
//!
//! Each configuration runs `--runs` times (default 3), alternating jobs 1 and jobs 2 so
//! that a change in the machine's load hits both; the table shows the median wall times.
//! Other processes on the machine distort the ratio: run it on an idle machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(to)?;
    let mut n = 0;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            n += copy_tree(&path, &target)?;
        } else {
            std::fs::copy(&path, &target)?;
            n += 1;
        }
    }
    Ok(n)
}

fn shared(var: &str, rel: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
}

/// Wall time of one `forex prove` over `dir`, and its summary line.
fn run(dir: &Path, jobs: usize, engine: &str) -> (Duration, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_forex"))
        .args(["prove", "--quiet", "--timeout", "20", "--engine", engine, "--jobs"])
        .arg(jobs.to_string())
        .arg(dir)
        .output()
        .expect("forex runs");
    let time = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    let summary = text.lines().last().unwrap_or("").to_string();
    (time, summary)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mut runs = 3;
    let mut engine = "all".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(3),
            "--engine" => engine = args.next().unwrap_or(engine),
            _ => {}
        }
    }
    let suite = shared("FOREX_SUITE_DIR", "../shared/benchmarks/forex");
    let hyena = shared("FOREX_HYENA_DIR", "../shared/benchmarks/hyena0/orhle");
    if !suite.is_dir() {
        println!("batch: skipped, no benchmarks at {}", suite.display());
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let short = tmp.path().join("short");
    for i in 0..8 {
        copy_tree(&suite, &short.join(format!("copy{i}"))).expect("copies the suite");
    }
    let mixed = tmp.path().join("mixed");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    for i in 0..2 {
        copy_tree(&suite, &mixed.join(format!("forex{i}"))).expect("copies the suite");
    }
    copy_tree(&manifest.join("examples"), &mixed.join("examples")).expect("copies examples");
    copy_tree(&manifest.join("tests/inputs/portfolio"), &mixed.join("portfolio"))
        .expect("copies the portfolio inputs");
    if hyena.is_dir() {
        copy_tree(&hyena, &mixed.join("orhle")).expect("copies the hyena0 files");
    }
    println!("batch: engine {engine}, {runs} runs per configuration (median shown)");
    println!("{:<8} {:>10} {:>10} {:>7}  summary", "batch", "jobs 1", "jobs 2", "ratio");
    for (name, dir) in [("short", &short), ("mixed", &mixed)] {
        let (mut one, mut two) = (Vec::new(), Vec::new());
        let mut summary = String::new();
        for _ in 0..runs {
            one.push(run(dir, 1, &engine).0);
            let (t, s) = run(dir, 2, &engine);
            two.push(t);
            summary = s;
        }
        let (one, two) = (median(one), median(two));
        println!(
            "{name:<8} {:>9.2}s {:>9.2}s {:>6.2}×  {summary}",
            one.as_secs_f64(),
            two.as_secs_f64(),
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
}
