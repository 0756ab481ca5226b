//! Batch scaling: wall time of `forex prove --jobs 1` against `--jobs 2` on two batches,
//! with the ratio (issue 10: `--jobs 2` should be at least 1.75× faster on 2 cores) and
//! the cores each run kept busy (CPU time of the process over wall time).
//!
//! `cargo bench --bench batch [-- [--runs N] [--engine E]]`. The batches are made at run
//! time in a temporary folder, never kept:
//! - `short`: the ForEx suite (`../shared/benchmarks/forex`, or `FOREX_SUITE_DIR`) copied
//!   8 times (424 short tuples);
//! - `mixed`: the ForEx suite twice, the examples twice (sequential and reactive tuples,
//!   verified and violated), the hyena0 ORHLE files twice
//!   (`../shared/benchmarks/hyena0/orhle`, or `FOREX_HYENA_DIR`) and the portfolio test
//!   input whose violation only the tester finds (`eleven.fe`). Not `squares.fe`: its
//!   refuter runs to the time limit, and a batch bounded by one tuple measures that
//!   tuple, not parallelism (with it, the batch took 17 s at `--jobs 1`, 15.3 s of it
//!   on that tuple).
//!
//! `--jobs N` is a budget of cores (`portfolio::cores`): at most N engines compute at
//! once, tuples and portfolio second engines together, so `--jobs 1` keeps one core
//! busy. Each configuration runs `--runs` times (default 5), alternating jobs 1 and jobs
//! 2 so that a change in the machine's load hits both; the table shows medians. Other
//! processes on the machine distort the ratio: run it on an idle machine.

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

/// CPU time (user and system) used so far by this process's finished children.
fn children_cpu() -> Duration {
    // SAFETY: `usage` is a valid out-pointer for getrusage.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// One `forex prove` over `dir`: its wall time, CPU time and summary line.
fn run(dir: &Path, jobs: usize, engine: &str) -> (Duration, Duration, String) {
    let cpu = children_cpu();
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
    (time, children_cpu() - cpu, summary)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut runs = 5;
    let mut engine = "all".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(5),
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
        copy_tree(&manifest.join("examples"), &mixed.join(format!("examples{i}")))
            .expect("copies examples");
        if hyena.is_dir() {
            copy_tree(&hyena, &mixed.join(format!("orhle{i}"))).expect("copies the hyena0 files");
        }
    }
    std::fs::create_dir_all(mixed.join("portfolio")).expect("a folder");
    std::fs::copy(
        manifest.join("tests/inputs/portfolio/eleven.fe"),
        mixed.join("portfolio/eleven.fe"),
    )
    .expect("copies eleven.fe");
    println!("batch: engine {engine}, {runs} runs per configuration (medians)");
    println!(
        "{:<8} {:>10} {:>6} {:>10} {:>6} {:>7}  summary",
        "batch", "jobs 1", "cores", "jobs 2", "cores", "ratio"
    );
    for (name, dir) in [("short", &short), ("mixed", &mixed)] {
        let (mut one, mut two) = (Vec::new(), Vec::new());
        let (mut one_cpu, mut two_cpu) = (Vec::new(), Vec::new());
        let mut summary = String::new();
        for _ in 0..runs {
            let (t, cpu, _) = run(dir, 1, &engine);
            one.push(t);
            one_cpu.push(cpu.as_secs_f64() / t.as_secs_f64());
            let (t, cpu, s) = run(dir, 2, &engine);
            two.push(t);
            two_cpu.push(cpu.as_secs_f64() / t.as_secs_f64());
            summary = s;
        }
        let (one, two) = (median(one), median(two));
        println!(
            "{name:<8} {:>9.2}s {:>6.2} {:>9.2}s {:>6.2} {:>6.2}×  {summary}",
            one.as_secs_f64(),
            median_f(one_cpu),
            two.as_secs_f64(),
            median_f(two_cpu),
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
}
