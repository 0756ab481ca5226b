//! Every example marked `// expect: violated` is refuted with a counterexample that
//! replays; no example marked `// expect: verified` is refuted. Times are printed.

use crate::common::corpus;
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::refute::{refute, replay_counterexample, RefuteOptions};
use forex::verdict::Verdict;
use std::path::PathBuf;
use std::time::Duration;

fn examples() -> Vec<(PathBuf, String)> {
    corpus::examples()
        .into_iter()
        .filter_map(|ex| Some((ex.path, ex.expect?.name().to_string())))
        .collect()
}

#[test]
fn violated_examples_are_refuted_and_verified_ones_are_not() {
    let all = examples();
    assert!(all.iter().filter(|(_, e)| e == "violated").count() >= 3, "too few examples");
    for (path, expect) in all {
        let module = load_file(&path, InputFormat::Auto).expect("examples load");
        for tuple in &module.tuples {
            let cancel = Cancel::new().with_timeout(Duration::from_secs(60));
            // Bounded, so valid examples end without waiting for the time limit.
            let out = refute(tuple, &RefuteOptions::bounded(8), &cancel);
            let name = format!("{}:{}", path.file_name().unwrap().to_string_lossy(), tuple.name);
            eprintln!("{name:36} expect {expect:9} refute {:9} {:?}", out.verdict.name(), out.time);
            match (expect.as_str(), &out.verdict) {
                ("violated", Verdict::Violated { counterexample }) => {
                    replay_counterexample(tuple, counterexample, &Cancel::new())
                        .unwrap_or_else(|e| panic!("{name}: does not replay: {e}"));
                    assert!(!counterexample.explanation.is_empty());
                }
                ("violated", v) => panic!("{name}: expected a counterexample, got {v:?}"),
                (_, Verdict::Violated { counterexample }) => {
                    panic!("{name}: refuted an example expected {expect}: {counterexample:?}")
                }
                _ => {}
            }
        }
    }
}
