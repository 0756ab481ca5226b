//! The prover on the ForEx benchmark instances (`../shared/benchmarks/forex`, skipped
//! with a notice when absent): every instance expected `verified` in EXPECTED.tsv (all
//! but the listed ones) is verified — including `k_safety/squares_sum`, which ForEx
//! itself does not solve; the instances expected `violated` are never verified.

use crate::common::corpus::{self, Expect, Instance};
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::Verdict;
use std::path::Path;
use std::time::Duration;

/// Valid instances this prover may leave `unknown` (none at present; squares_sum was
/// the stretch goal and verifies through `old(v)` differences of lone loops).
const STRETCH: &[&str] = &[];

fn load(path: &Path) -> Tuple {
    let module = load_file(path, InputFormat::Auto)
        .unwrap_or_else(|d| panic!("{} does not load: {d:?}", path.display()));
    module.tuples.into_iter().next().expect("one tuple per ForEx file")
}

#[test]
fn forex_suite_verdicts() {
    let Some(instances) = corpus::forex_suite() else { return };
    let mut failures = Vec::new();
    for Instance { rel, path, expect } in instances {
        let tuple = load(&path);
        let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
        let out = prove(&tuple, &ProveOptions::default(), &cancel);
        eprintln!(
            "{rel}: {} ({:?}, {} queries, {} candidates)",
            out.verdict.name(),
            out.time,
            out.stats.queries,
            out.stats.candidates
        );
        let ok = match (expect, &out.verdict) {
            (_, Verdict::Violated { .. }) => false, // the prover never refutes
            (Expect::Verified, Verdict::Verified { .. }) => true,
            (Expect::Verified, Verdict::Unknown { .. }) => STRETCH.contains(&rel.as_str()),
            (_, Verdict::Verified { .. }) => false,
            (_, Verdict::Unknown { .. }) => true,
        };
        if !ok {
            failures.push(format!("{rel}: expected {}, got {:?}", expect.name(), out.verdict));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hypro_p1_instances_are_never_verified() {
    let dir = corpus::forex_dir().join("hypro");
    if !dir.exists() {
        eprintln!("notice: {} is absent; skipping", dir.display());
        return;
    }
    for bits in 1..=6 {
        let tuple = load(&dir.join(format!("p1_{bits}bit.txt")));
        let out = prove(&tuple, &ProveOptions::default(), &Cancel::new());
        let Verdict::Unknown { reason } = &out.verdict else {
            panic!("p1_{bits}bit must not be verified: {:?}", out.verdict)
        };
        let reason = reason.to_string();
        assert!(reason.contains("not valid"), "p1_{bits}bit: {reason}");
    }
}

#[test]
fn fig2_and_double_square_verify_without_their_hints() {
    let dir = corpus::forex_dir().join("k_safety");
    if !dir.exists() {
        eprintln!("notice: {} is absent; skipping", dir.display());
        return;
    }
    for name in ["fig2.txt", "double_square_ni.txt"] {
        let mut tuple = load(&dir.join(name));
        tuple.hints = Default::default();
        let out = prove(&tuple, &ProveOptions::default(), &Cancel::new());
        let Verdict::Verified { proof } = &out.verdict else {
            panic!("{name} without hints: {:?}", out.verdict)
        };
        assert_eq!(proof.loop_points.len(), 1, "{name}: {proof:?}");
        assert_eq!(proof.loop_points[0].counts, vec![2, 1], "{name}: {proof:?}");
    }
}
