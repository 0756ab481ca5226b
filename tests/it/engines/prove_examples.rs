//! The prover on the project's examples (`examples/*.fe`, first line `// expect: …`):
//! every tuple of an example expected `verified` is verified; no tuple of an example
//! expected `violated` is.

use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::prove::{prove, ProveOptions};
use std::time::Duration;

#[test]
fn examples_get_their_expected_verdicts_from_the_prover() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut failures = Vec::new();
    let mut seen = 0;
    for entry in glob::glob(&format!("{}/*.fe", dir.display())).expect("pattern") {
        let path = entry.expect("readable");
        let text = std::fs::read_to_string(&path).expect("readable");
        let Some(expected) = text.lines().next().and_then(|l| l.strip_prefix("// expect: ")) else {
            continue;
        };
        let module = load_file(&path, InputFormat::Auto).expect("examples load");
        for t in &module.tuples {
            seen += 1;
            let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
            let out = prove(t, &ProveOptions::default(), &cancel);
            eprintln!("{}::{}: {} {:?}", path.display(), t.name, out.verdict.name(), out.stats);
            let ok = match expected.trim() {
                "verified" => out.verdict.name() == "verified",
                _ => out.verdict.name() != "verified",
            };
            if !ok {
                failures.push(format!(
                    "{}::{}: expected {expected}, got {:?}",
                    path.display(),
                    t.name,
                    out.verdict
                ));
            }
        }
    }
    if seen == 0 {
        eprintln!("notice: no examples with an `// expect:` line under {}", dir.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
