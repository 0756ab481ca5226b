//! Hypertesting benchmark: for every example expected to be violated
//! (`// expect: violated` in `examples/*.fe`), HyperFuzz against HyperEvo with the same
//! time budget and seed. Prints one row per tuple and strategy: violation found?, runs
//! executed, hypercoverage reached.
//!
//! `cargo bench --bench hypertest`; budget per run: `FOREX_HT_BUDGET_MS` (default 1000).

use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::hypertest::{hypertest_report, Strategy, TestOptions};
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let budget_ms: u64 =
        std::env::var("FOREX_HT_BUDGET_MS").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            println!("no examples at {}: {e}", dir.display());
            return;
        }
    };
    files.retain(|p| p.extension().is_some_and(|e| e == "fe"));
    files.sort();
    println!("budget {budget_ms} ms per strategy, seed 0");
    println!(
        "{:<36} {:<5} {:>6} {:>8} {:>9} {:>8}",
        "tuple", "strat", "found", "runs", "coverage", "ms"
    );
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if !text.lines().any(|l| l.trim() == "// expect: violated") {
            continue;
        }
        let module = match load_file(&path, InputFormat::Auto) {
            Ok(m) => m,
            Err(d) => {
                println!("{}: does not load: {}", path.display(), d.messages.join("; "));
                continue;
            }
        };
        let stem = path.file_stem().unwrap_or_default().to_string_lossy().to_string();
        for tuple in &module.tuples {
            for (name, strategy) in [("fuzz", Strategy::Fuzz), ("evo", Strategy::Evo)] {
                let opts =
                    TestOptions { strategy, budget: Duration::from_millis(budget_ms), seed: 0 };
                let start = Instant::now();
                let r = hypertest_report(tuple, &opts, None, &Cancel::new());
                println!(
                    "{:<36} {:<5} {:>6} {:>8} {:>9} {:>8}",
                    format!("{stem}/{}", tuple.name),
                    name,
                    if r.counterexample.is_some() { "yes" } else { "no" },
                    r.runs,
                    format!("{}/{}", r.covered, r.goals),
                    start.elapsed().as_millis()
                );
            }
        }
    }
}
