//! Every ForEx benchmark instance parses and checks, with one copy per `[forall]` /
//! `[exists]` section (∀ first). Skipped with a notice when `../shared` is absent.

use crate::common::corpus;
use forex::frontend::{load_file, InputFormat};
use forex::ir::Quantifier;
use std::path::PathBuf;

fn instances() -> Option<Vec<PathBuf>> {
    Some(corpus::forex_suite()?.into_iter().map(|i| i.path).collect())
}

#[test]
fn every_forex_benchmark_checks_with_sensible_copies() {
    let Some(files) = instances() else { return };
    assert_eq!(files.len(), 53, "the benchmark set has 53 instances");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let foralls = text.matches("[forall]").count();
        let exists = text.matches("[exists]").count();
        let module = match load_file(path, InputFormat::Auto) {
            Ok(m) => m,
            Err(d) => {
                failures.push(d.render(forex::diag::DiagStyle::Short));
                continue;
            }
        };
        assert_eq!(module.tuples.len(), 1, "{}", path.display());
        let t = &module.tuples[0];
        assert_eq!(t.name, path.file_stem().unwrap().to_str().unwrap());
        assert_eq!(t.copies.len(), foralls + exists, "{}", path.display());
        assert!((2..=3).contains(&t.copies.len()), "{}", path.display());
        let quantifiers: Vec<_> = t.copies.iter().map(|c| c.quantifier).collect();
        let mut sorted = quantifiers.clone();
        sorted.sort_by_key(|q| *q == Quantifier::Exists);
        assert_eq!(quantifiers, sorted, "∀ copies first in {}", path.display());
        assert_eq!(t.forall_copies().count(), foralls);
        // Each copy's variables are its own.
        for (k, c) in t.copies.iter().enumerate() {
            assert!(!c.vars.is_empty());
            assert!(c.vars.iter().all(|v| t.var(*v).copy == k));
        }
    }
    assert!(failures.is_empty(), "instances with errors:\n{}", failures.join(""));
}

#[test]
fn hints_of_the_benchmarks_are_read() {
    let Some(files) = instances() else { return };
    let find = |name: &str| files.iter().find(|p| p.ends_with(name)).unwrap();
    let m = load_file(find("k_safety/double_square_ni.txt"), InputFormat::Auto).unwrap();
    let h = &m.tuples[0].hints;
    assert_eq!((h.invariants.len(), h.align), (2, Some(2)));
    let m = load_file(find("hypa/counter_sum.txt"), InputFormat::Auto).unwrap();
    assert_eq!(m.tuples[0].hints.max_conjuncts, Some(3));
    assert_eq!(m.tuples[0].copies.len(), 3);
    let m = load_file(find("pcsat/TS_GNI_hFT.txt"), InputFormat::Auto).unwrap();
    let h = &m.tuples[0].hints;
    assert_eq!((h.invariants.len(), h.max_conjuncts), (1, Some(1)));
}
