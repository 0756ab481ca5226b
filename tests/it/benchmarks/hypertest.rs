//! Hypertesting on the ForEx benchmark instances expected `violated` (EXPECTED.tsv):
//! the `hypro/p1_*` GNI instances, which the original ForEx wrongly verified.
//! Skipped with a notice when the benchmarks are not next to the project.

use crate::common::corpus::{self, Expect, Instance};
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::hypertest::{hypertest_report, TestOptions};
use std::time::Duration;

#[test]
fn finds_the_violations_of_the_invalid_forex_instances() {
    let Some(instances) = corpus::forex_suite() else { return };
    let violated: Vec<_> = instances.iter().filter(|i| i.expect == Expect::Violated).collect();
    assert!(!violated.is_empty());
    for Instance { rel: file, path, .. } in violated {
        let module = load_file(path, InputFormat::Auto)
            .unwrap_or_else(|d| panic!("{file}: {}", d.messages.join("; ")));
        for t in &module.tuples {
            let opts =
                TestOptions { seed: 1, budget: Duration::from_secs(60), ..TestOptions::default() };
            let r = hypertest_report(t, &opts, Some(400), &Cancel::new());
            assert!(r.counterexample.is_some(), "{file}: {}", r.reason());
        }
    }
}
