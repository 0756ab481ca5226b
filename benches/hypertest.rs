//! Hypertesting benchmark: for every example expected to be violated
//! (`// expect: violated` in `examples/*.fe`), HyperFuzz against HyperEvo with the same
//! time budget and seed. Prints one row per tuple and strategy: violation found?, runs
//! executed, hypercoverage reached.
//!
//! The examples are easy; three harder leaks written here (narrow branches guarded by
//! arithmetic) show what the search strategies add.
//!
//! `cargo bench --bench hypertest`; budget per run: `FOREX_HT_BUDGET_MS` (default 1000).

use forex::cancel::Cancel;
use forex::frontend::{load_file, load_source, InputFormat};
use forex::hypertest::{hypertest_report, Strategy, TestOptions};
use forex::ir::Module;
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
        compare(&stem, &module, budget_ms);
    }
    for (name, source) in HARD {
        match load_source(name, source.as_bytes(), InputFormat::Fe) {
            Ok(module) => compare(name, &module, budget_ms),
            Err(d) => println!("{name}: does not load: {}", d.messages.join("; ")),
        }
    }
}

/// Leaks behind narrow, arithmetic branch conditions.
const HARD: [(&str, &str); 3] = [
    (
        "hard_nested",
        "program p { int h, l, o; o = 0;
           if (h > 100) { if (h - l == 777) { o = 1; } } }
         tuple ni = ni(p, low: [l], high: [h], out: [o]);",
    ),
    (
        "hard_product",
        "program p { int h, l, o; o = l;
           if (h * 3 + l == 5000) { if (l > 40) { o = l + 1; } } }
         tuple ni = ni(p, low: [l], high: [h], out: [o]);",
    ),
    (
        "hard_loop",
        "program p { int h, l, o, i; o = 0; i = 0;
           while (i < 20) { if (h - i == 1234) { o = 1; } i = i + 1; } }
         tuple ni = ni(p, low: [l], high: [h], out: [o]);",
    ),
];

fn compare(stem: &str, module: &Module, budget_ms: u64) {
    {
        for tuple in &module.tuples {
            for (name, strategy) in [("fuzz", Strategy::Fuzz), ("evo", Strategy::Evo)] {
                let opts = TestOptions {
                    strategy,
                    budget: Duration::from_millis(budget_ms),
                    ..TestOptions::default()
                };
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
