//! The prover on the project's examples (`examples/*.fe`, first line `// expect: …`):
//! every tuple of an example expected `verified` is verified; no tuple of an example
//! expected `violated` is.

use crate::common::corpus::{self, Expect};
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::prove::{prove, ProveOptions};
use std::time::Duration;

#[test]
fn examples_get_their_expected_verdicts_from_the_prover() {
    let mut failures = Vec::new();
    let mut seen = 0;
    for ex in corpus::examples() {
        let Some(expected) = ex.expect else { continue };
        let path = ex.path;
        let module = load_file(&path, InputFormat::Auto).expect("examples load");
        for t in &module.tuples {
            seen += 1;
            let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
            let out = prove(t, &ProveOptions::default(), &cancel);
            eprintln!("{}::{}: {} {:?}", path.display(), t.name, out.verdict.name(), out.stats);
            let ok = match expected {
                // The prover has no temporal engine yet: the refuter's exhaustive search
                // verifies these (engines/examples.rs), the prover must not contradict.
                Expect::Verified if t.is_reactive() => out.verdict.name() != "violated",
                Expect::Verified => out.verdict.name() == "verified",
                Expect::Violated => out.verdict.name() != "verified",
                Expect::Unknown => out.verdict.name() == "unknown",
            };
            if !ok {
                failures.push(format!(
                    "{}::{}: expected {}, got {:?}",
                    path.display(),
                    t.name,
                    expected.name(),
                    out.verdict
                ));
            }
        }
    }
    if seen == 0 {
        let dir = corpus::examples_dir();
        eprintln!("notice: no examples with an `// expect:` line under {}", dir.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
