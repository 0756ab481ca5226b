//! Hypertesting on the ForEx benchmark instances expected `violated` (EXPECTED.tsv):
//! the `hypro/p1_*` GNI instances, which the original ForEx wrongly verified.
//! Skipped with a notice when the benchmarks are not next to the project.

use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::hypertest::{hypertest_report, Strategy, TestOptions};
use std::path::Path;
use std::time::Duration;

#[test]
fn finds_the_violations_of_the_invalid_forex_instances() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/forex");
    let Ok(expected) = std::fs::read_to_string(root.join("EXPECTED.tsv")) else {
        eprintln!("skipped: no ForEx benchmarks at {}", root.display());
        return;
    };
    let violated: Vec<&str> = expected
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (file, verdict) = (f.next()?, f.next()?);
            (verdict == "violated").then_some(file)
        })
        .collect();
    assert!(!violated.is_empty());
    for file in violated {
        let module = load_file(&root.join(file), InputFormat::Auto)
            .unwrap_or_else(|d| panic!("{file}: {}", d.messages.join("; ")));
        for t in &module.tuples {
            let opts =
                TestOptions { strategy: Strategy::Evo, budget: Duration::from_secs(60), seed: 1 };
            let r = hypertest_report(t, &opts, Some(400), &Cancel::new());
            assert!(r.counterexample.is_some(), "{file}: {}", r.reason());
        }
    }
}
