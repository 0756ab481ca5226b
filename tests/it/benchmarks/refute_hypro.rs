//! The six `hypro/p1_*` ForEx instances are invalid (ForEx "verified" them through a
//! join bug, DESIGN.md §2): the refuter must find counterexamples that replay.

use crate::common::corpus;
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::refute::{refute, replay_counterexample, RefuteOptions};
use forex::verdict::Verdict;
use std::path::PathBuf;

fn hypro_dir() -> PathBuf {
    corpus::forex_dir().join("hypro")
}

#[test]
fn hypro_p1_instances_are_refuted() {
    let dir = hypro_dir();
    let mut seen = 0;
    for bits in 1..=6 {
        let path = dir.join(format!("p1_{bits}bit.txt"));
        if !path.exists() {
            eprintln!("notice: {} is absent; skipping", path.display());
            continue;
        }
        seen += 1;
        let module = load_file(&path, InputFormat::Auto)
            .unwrap_or_else(|d| panic!("{} does not load: {d:?}", path.display()));
        assert_eq!(module.tuples.len(), 1);
        let tuple = &module.tuples[0];
        let out = refute(tuple, &RefuteOptions::default(), &Cancel::new());
        eprintln!("p1_{bits}bit: {} in {:?} ({:?})", out.verdict.name(), out.time, out.stats);
        let Verdict::Violated { counterexample } = out.verdict else {
            panic!("p1_{bits}bit must be refuted, got {:?}", out.verdict)
        };
        replay_counterexample(tuple, &counterexample, &Cancel::new()).expect("replays");
        assert_eq!(counterexample.copies.len(), 2);
        assert_eq!(counterexample.copies[1].quantifier, forex::ir::Quantifier::Exists);
        // The post is the one conjunct `o_0 == o_1`: it is the one to blame.
        let conj = counterexample.violated_conjunct.expect("the post conjunct is named");
        assert!(conj.contains("=="), "{conj}");
    }
    if seen == 0 {
        eprintln!("notice: no hypro/p1_* instances found under {}", dir.display());
    }
}
