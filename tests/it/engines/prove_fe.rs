//! The prover on `.fe` sources: proof contents (loop positions, counts, invariants),
//! reasons for `unknown`, deadlines, and `--dump-smt` files.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::Verdict;
use std::time::Duration;

fn tuple(src: &str, name: &str) -> Tuple {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe)
        .unwrap_or_else(|d| panic!("does not load: {d:?}"));
    m.tuples.into_iter().find(|t| t.name == name).expect("tuple")
}

const COUNTER: &str = "
program counter {
  int c, x, n;
  c = 0;
  while (x < n) {
    x = x + 1;
    c = c + 1;
  }
}
tuple det {
  forall a: counter, b: counter;
  pre a.x == b.x && a.n == b.n;
  post a.c == b.c;
}
tuple wrong {
  forall a: counter, b: counter;
  pre a.x == b.x;
  post a.c == b.c;
}
";

#[test]
fn proof_names_loops_counts_and_invariant() {
    let out = prove(&tuple(COUNTER, "det"), &ProveOptions::default(), &Cancel::new());
    let Verdict::Verified { proof } = out.verdict else { panic!("{:?}", out.verdict) };
    assert_eq!(proof.loop_points.len(), 1);
    let lp = &proof.loop_points[0];
    assert_eq!(lp.loops, vec!["a@t.fe:5:3".to_string(), "b@t.fe:5:3".to_string()]);
    assert_eq!(lp.counts, vec![1, 1]);
    assert!(lp.invariant.contains("a.c == b.c"), "{}", lp.invariant);
    assert!(lp.invariant.contains("a.x == b.x"), "{}", lp.invariant);
    assert!(lp.candidates_tried >= 1);
    assert!(proof.obligations >= 3, "initiation, termination, consecution, post");
    assert!(out.stats.queries >= 1 && out.stats.candidates >= 1, "{:?}", out.stats);
}

#[test]
fn failed_search_names_the_loops() {
    let out = prove(&tuple(COUNTER, "wrong"), &ProveOptions::default(), &Cancel::new());
    let Verdict::Unknown { reason } = out.verdict else { panic!("{:?}", out.verdict) };
    let reason = reason.to_string();
    assert!(reason.contains("no invariant among"), "{reason}");
    assert!(reason.contains("a@t.fe:5:3 and b@t.fe:5:3"), "{reason}");
}

#[test]
fn an_expired_deadline_is_unknown_never_verified() {
    let cancel = Cancel::new().with_timeout(Duration::from_millis(0));
    let out = prove(&tuple(COUNTER, "det"), &ProveOptions::default(), &cancel);
    let Verdict::Unknown { reason } = out.verdict else { panic!("{:?}", out.verdict) };
    let reason = reason.to_string();
    assert!(reason.contains("time limit"), "{reason}");
}

#[test]
fn dump_smt_writes_every_query() {
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = ProveOptions { dump_smt: Some(dir.path().join("q")), ..Default::default() };
    let out = prove(&tuple(COUNTER, "det"), &opts, &Cancel::new());
    assert_eq!(out.verdict.name(), "verified");
    let files: Vec<_> = std::fs::read_dir(dir.path().join("q")).expect("dump dir").collect();
    // The proof's queries, plus the vacuity checks made after it.
    assert!(files.len() as u64 > out.stats.queries, "{} files", files.len());
    let first = files[0].as_ref().expect("entry").path();
    let text = std::fs::read_to_string(first).expect("readable");
    assert!(text.contains("(check-sat)") && text.contains("(assert"), "{text}");
}

#[test]
fn a_parameter_chosen_before_a_branch_is_one_parameter() {
    // ∃ picks x once; both branches copy it, so the post needs the same value in both.
    let src = "
program p { int h, x, y; x = *; if (h > 0) { y = x; } else { y = x + 0; } }
program q { int h, x, y; x = *; y = x; }
tuple t { forall a: q; exists b: p; post b.y == a.y && b.x == a.x; }
tuple bad { forall a: q; exists b: p; post b.y == a.y && b.x == a.x + 1; }
";
    let out = prove(&tuple(src, "t"), &ProveOptions::default(), &Cancel::new());
    assert_eq!(out.verdict.name(), "verified", "{:?}", out.verdict);
    let out = prove(&tuple(src, "bad"), &ProveOptions::default(), &Cancel::new());
    assert_eq!(out.verdict.name(), "unknown", "{:?}", out.verdict);
}

#[test]
fn branch_join_keeps_each_branch_latest_values() {
    // The ForEx join bug: the else branch's final o must be kept.
    let src = "
program f { bv2 o, h; o = #b11; if (h[0:0] == #b1) { o = ~o; } else { o = ~o; } }
program g { bv2 o, h; o = #b11; if (h[0:0] == #b1) { o = ~o; } else { o = ~o; o = ~o; } }
tuple t { forall a: f; exists b: g; post a.o == b.o; }
";
    let out = prove(&tuple(src, "t"), &ProveOptions::default(), &Cancel::new());
    let Verdict::Unknown { reason } = out.verdict else { panic!("{:?}", out.verdict) };
    let reason = reason.to_string();
    assert!(reason.contains("not valid"), "{reason}");
}

#[test]
fn exists_only_loops_terminate_by_a_ranking_function() {
    let src = "
program p { int n, y; y = n; }
program q { int n, x; x = 0; while (x < n) { x = x + 1; } }
program r { int n, x, s; x = 0; while (x < n) { s = *; assume s >= 1; x = x + s; } }
program d { int n, x; x = 0; while (x < n) { x = x - 1; } }
tuple counts { forall a: p; exists b: q; pre a.n == b.n; post b.x >= a.y; }
tuple chooses { forall a: p; exists b: r; pre a.n == b.n; post b.x >= a.y; }
tuple diverges { forall a: p; exists b: d; pre a.n == b.n; post true; }
";
    for name in ["counts", "chooses"] {
        let out = prove(&tuple(src, name), &ProveOptions::default(), &Cancel::new());
        let Verdict::Verified { proof } = out.verdict else { panic!("{name}: {:?}", out.verdict) };
        assert!(proof.loop_points[0].invariant.contains("ranking function"), "{proof:?}");
    }
    // x decreases while x < n: for n > 0 no ∃ run terminates, so the tuple is invalid.
    let out = prove(&tuple(src, "diverges"), &ProveOptions::default(), &Cancel::new());
    assert_eq!(out.verdict.name(), "unknown", "{:?}", out.verdict);
}

/// Loop-free ∃ copies whose `assume`s are checked once, at the end, with the
/// postcondition (`Prover::assumes_at_end`): an assume no choice can pass for some ∀
/// run still fails the proof, whichever `assume` it is and whatever follows it.
const EXISTS_ASSUMES: &str = "
program given {
  int x, y, z;
}
program pick {
  int x, y, z;
  y = *;
  assume y > 0 && y < x;
  z = *;
  assume z == y + 1;
}
tuple all_x {
  forall a: given;
  exists b: pick;
  pre a.x == b.x;
  post b.z >= 2;
}
tuple big_x {
  forall a: given;
  exists b: pick;
  pre a.x == b.x && a.x > 1;
  post b.z >= 2;
}
tuple second_assume_fails {
  forall a: given;
  exists b: pick;
  pre a.x == b.x && a.x > 1;
  post b.z == b.y;
}
";

#[test]
fn exists_assumes_checked_at_the_end_still_fail_the_proof() {
    let verdict = |name: &str| {
        prove(&tuple(EXISTS_ASSUMES, name), &ProveOptions::default(), &Cancel::new()).verdict
    };
    // x ≤ 1 leaves no y with 0 < y < x.
    let Verdict::Unknown { reason } = verdict("all_x") else {
        panic!("all_x must not be verified")
    };
    let reason = reason.to_string();
    assert!(reason.contains("not valid"), "{reason}");
    assert!(reason.contains("the postcondition (with the ∃-side assumes before it)"), "{reason}");
    assert_eq!(verdict("big_x").name(), "verified");
    assert_eq!(verdict("second_assume_fails").name(), "unknown");
}
