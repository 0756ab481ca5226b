//! The deepening refuter against the brute-force oracle on tuples whose loops need more
//! than 8 iterations and whose ∃ copies loop, possibly forever
//! (`gen::deep_loop_tuples`). No verdict may contradict the oracle: `violated` only for
//! invalid tuples, `verified` (exhaustive search) only for valid ones. How many tuples
//! each engine decided is printed (`--nocapture`), never asserted.

use crate::common::brute::{decide, Answer};
use crate::common::gen::{deep_loop_tuples, sample, to_fe};
use forex::cancel::Cancel;
use forex::prove::{prove, ProveOptions};
use forex::refute::{refute, replay_counterexample, RefuteOptions};
use forex::verdict::Verdict;
use std::time::Duration;

/// `unknown` is always acceptable here: the limit only bounds the runtime.
const LIMIT: Duration = Duration::from_secs(2);

fn contradicts(v: &Verdict, answer: &Answer) -> bool {
    matches!(
        (v, answer),
        (Verdict::Violated { .. }, Answer::Valid) | (Verdict::Verified { .. }, Answer::Invalid(_))
    )
}

#[test]
fn deep_and_exists_loops_never_contradict_the_oracle() {
    let (mut decided, mut refuted, mut proved, mut total) = (0, 0, 0, 0);
    for t in sample(&deep_loop_tuples(), 80, 41) {
        let Some(answer) = decide(&t) else { continue };
        total += 1;
        let r = refute(&t, &RefuteOptions::default(), &Cancel::new().with_timeout(LIMIT)).verdict;
        assert!(
            !contradicts(&r, &answer),
            "refuter said {} ({r:?}); oracle: {answer:?}\n{}",
            r.name(),
            to_fe(&t)
        );
        match &r {
            Verdict::Violated { counterexample } => {
                replay_counterexample(&t, counterexample, &Cancel::new())
                    .unwrap_or_else(|e| panic!("does not replay: {e}\n{}", to_fe(&t)));
                refuted += 1;
            }
            Verdict::Verified { .. } => proved += 1,
            Verdict::Unknown { .. } => {}
        }
        let p = prove(&t, &ProveOptions::default(), &Cancel::new().with_timeout(LIMIT)).verdict;
        assert!(!contradicts(&p, &answer), "prover said {}\n{}", p.name(), to_fe(&t));
        if r.is_definitive() || p.is_definitive() {
            decided += 1;
        }
    }
    eprintln!(
        "deep loops: {total} tuples in the oracle's fragment, refuter: {refuted} violated, \
         {proved} verified; decided by either engine: {decided}"
    );
    assert!(total >= 10, "too few tuples in the oracle's fragment ({total})");
}
