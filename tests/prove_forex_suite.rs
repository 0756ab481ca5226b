//! The prover on the ForEx benchmark instances (`../shared/benchmarks/forex`, skipped
//! with a notice when absent): every instance expected `verified` in EXPECTED.tsv (all
//! but the listed ones) is verified — including `k_safety/squares_sum`, which ForEx
//! itself does not solve; the instances expected `violated` are never verified.

use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::Verdict;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Valid instances this prover may leave `unknown` (none at present; squares_sum was
/// the stretch goal and verifies through `old(v)` differences of lone loops).
const STRETCH: &[&str] = &[];

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/forex")
}

/// (relative path, expected verdict) for every instance.
fn instances(dir: &Path) -> Vec<(String, String)> {
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    let tsv = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap_or_default();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut cols = line.split('\t');
        if let (Some(f), Some(v)) = (cols.next(), cols.next()) {
            expected.insert(f.to_string(), v.to_string());
        }
    }
    let mut out = Vec::new();
    for entry in glob::glob(&format!("{}/*/*.txt", dir.display())).expect("pattern") {
        let path = entry.expect("readable");
        let rel = path.strip_prefix(dir).expect("inside").display().to_string();
        let verdict = expected.get(&rel).cloned().unwrap_or_else(|| "verified".into());
        out.push((rel, verdict));
    }
    out.sort();
    out
}

fn load(path: &Path) -> Tuple {
    let module = load_file(path, InputFormat::Auto)
        .unwrap_or_else(|d| panic!("{} does not load: {d:?}", path.display()));
    module.tuples.into_iter().next().expect("one tuple per ForEx file")
}

#[test]
fn forex_suite_verdicts() {
    let dir = suite_dir();
    if !dir.exists() {
        eprintln!("notice: {} is absent; skipping the ForEx suite", dir.display());
        return;
    }
    let mut failures = Vec::new();
    for (rel, expected) in instances(&dir) {
        let tuple = load(&dir.join(&rel));
        let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
        let out = prove(&tuple, &ProveOptions::default(), &cancel);
        eprintln!(
            "{rel}: {} ({:?}, {} queries, {} candidates)",
            out.verdict.name(),
            out.time,
            out.stats.queries,
            out.stats.candidates
        );
        let ok = match (expected.as_str(), &out.verdict) {
            (_, Verdict::Violated { .. }) => false, // the prover never refutes
            ("verified", Verdict::Verified { .. }) => true,
            ("verified", Verdict::Unknown { .. }) => STRETCH.contains(&rel.as_str()),
            (_, Verdict::Verified { .. }) => false,
            (_, Verdict::Unknown { .. }) => true,
        };
        if !ok {
            failures.push(format!("{rel}: expected {expected}, got {:?}", out.verdict));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hypro_p1_instances_are_never_verified() {
    let dir = suite_dir().join("hypro");
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
    let dir = suite_dir().join("k_safety");
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
