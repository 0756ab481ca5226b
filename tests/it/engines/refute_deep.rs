//! The refuter past its old fixed bound (issue 12, refuting side): iterative deepening
//! finds violations that need a ∀ loop to run 11 or 150 times, forced iterations are
//! stepped without branching, an exhaustive search is a proof, ∃ loops past the bound
//! are summarised, and `--unroll` / `--max-paths` bound the search and are named in the
//! reasons.

use assert_cmd::Command;
use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::{Module, Tuple};
use forex::refute::{refute, replay_counterexample, RefuteOptions};
use forex::verdict::{Counterexample, ExhaustiveSearch, Verdict};
use std::time::Duration;

const TUPLES: &str = r#"
// Leaks h only when the loop runs 11 times or more.
program late {
  int h, l, o, i;
  o = 0;
  i = 0;
  while (i < l) {
    i = i + 1;
    if (i == 11) { o = h; }
  }
}
tuple late11 = ni(late, low: [l], high: [h], out: [o]);

// A loop whose count is fixed by a constant: 124 forced iterations.
program fixed {
  int h, l, o, i;
  o = 0;
  i = 0;
  while (i < 124) {
    i = i + 1;
    if (i == 124) { o = h; }
  }
}
tuple fixed124 = ni(fixed, low: [l], high: [h], out: [o]);

// The count is fixed by pre (l == 150): the solver forces each iteration.
tuple late150 {
  forall a: late;
  forall b: late;
  pre a.l == b.l && a.l == 150;
  post a.o == b.o;
}

// Every loop exits within 3 iterations: the search covers every run.
program small {
  int h, l, o, i;
  assume l >= 0 && l <= 3;
  o = 0;
  i = 0;
  while (i < l) {
    i = i + 1;
    o = o + 2;
  }
}
tuple small_ni = ni(small, low: [l], high: [h], out: [o]);

// ∀∃ with an ∃ loop: each ∀ run (x in 0..5) is matched by counting up to x.
program upto5 {
  int x, o;
  assume x >= 0 && x <= 5;
  o = x;
}
program count_up {
  int x, o;
  o = 0;
  while (o < x) { o = o + 1; }
}
tuple count_refines {
  forall a: upto5;
  exists b: count_up;
  pre a.x == b.x;
  post a.o == b.o;
}

// Sums 1..n, refined by a loop that may spin forever but only reaches sums of 1..m,
// m < n: no ∃ run matches (the ∃ loop has no bound, so only its summary shows it).
program sum {
  int n, s, i;
  s = 0;
  i = 1;
  while (i <= n) {
    s = s + i;
    i = i + 1;
  }
}
program smaller {
  int n, s, i;
  bool c;
  s = 0;
  i = 1;
  c = *;
  while (c) {
    if (i < n) {
      s = s + i;
      i = i + 1;
    }
    c = *;
  }
}
tuple sum_refines {
  forall a: sum;
  exists b: smaller;
  pre a.n == b.n && a.n >= 3;
  post a.s == b.s;
}

// An ∃ loop of 12 forced iterations, each choosing +1 or +2: 4096 paths unmerged (over
// the path limit at bound 1), one merged. Sums 12..24 are reachable, 5 is not.
program any_x {
  int x, s;
  s = x;
}
program twelve_steps {
  int i, s;
  i = 0;
  s = 0;
  while (i < 12) {
    if (*) { s = s + 1; } else { s = s + 2; }
    i = i + 1;
  }
}
tuple steps_reach_all { forall a: any_x; exists b: twelve_steps; pre true; post a.s == b.s; }
program in_range {
  int x, s;
  assume x >= 12 && x <= 24;
  s = x;
}
tuple steps_reach_range { forall a: in_range; exists b: twelve_steps; pre true; post a.s == b.s; }

// The ∃ copy never terminates when x < 0: those ∀ runs have no ∃ run.
program same {
  int x, o;
  o = x;
}
program step_to {
  int x, o;
  o = 0;
  while (o != x) { o = o + 1; }
}
tuple never_terminates {
  forall a: same;
  exists b: step_to;
  pre a.x == b.x;
  post a.o == b.o;
}
"#;

fn module() -> Module {
    load_source("deep.fe", TUPLES.as_bytes(), InputFormat::Auto).unwrap_or_else(|d| {
        panic!("the tuples do not check:\n{}", d.render(forex::diag::DiagStyle::Short))
    })
}

fn tuple<'m>(m: &'m Module, name: &str) -> &'m Tuple {
    m.tuples.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no tuple {name}"))
}

fn opts(unroll: Option<u32>) -> RefuteOptions {
    RefuteOptions { max_unroll: unroll, ..RefuteOptions::default() }
}

fn cancel() -> Cancel {
    Cancel::new().with_timeout(Duration::from_secs(60))
}

fn violated(t: &Tuple, o: &RefuteOptions) -> Counterexample {
    match refute(t, o, &cancel()).verdict {
        Verdict::Violated { counterexample } => {
            replay_counterexample(t, &counterexample, &Cancel::new()).expect("replays");
            counterexample
        }
        other => panic!("{}: expected violated, got {other:?}", t.name),
    }
}

fn exhaustive(t: &Tuple, o: &RefuteOptions) -> ExhaustiveSearch {
    match refute(t, o, &cancel()).verdict {
        Verdict::Verified { proof } => proof.exhaustive.expect("an exhaustive-search proof"),
        other => panic!("{}: expected verified, got {other:?}", t.name),
    }
}

fn unknown(t: &Tuple, o: &RefuteOptions) -> (String, &'static str) {
    match refute(t, o, &cancel()).verdict {
        Verdict::Unknown { reason } => (reason.to_string(), reason.kind()),
        other => panic!("{}: expected unknown, got {other:?}", t.name),
    }
}

fn int(cex: &Counterexample, copy: usize, var: &str) -> i64 {
    cex.copies[copy].initial[var].to_string().parse().expect("an int")
}

#[test]
fn a_violation_needing_11_iterations_is_found_by_deepening() {
    let m = module();
    let t = tuple(&m, "late11");
    let cex = violated(t, &opts(None));
    assert!(int(&cex, 0, "l") >= 11, "{cex:?}");
    // Bounded at 8, the same search gives up and names the option that bounds it.
    let (reason, kind) = unknown(t, &opts(Some(8)));
    assert_eq!(kind, "bound_reached");
    assert!(reason.contains("unrolled up to 8 times") && reason.contains("`--unroll`"), "{reason}");
}

#[test]
fn violations_needing_over_100_iterations_are_found_at_bound_1() {
    let m = module();
    // Forced iterations do not count against the bound: one round at bound 1 suffices.
    violated(tuple(&m, "fixed124"), &opts(Some(1)));
    let cex = violated(tuple(&m, "late150"), &opts(Some(1)));
    assert_eq!(int(&cex, 0, "l"), 150);
}

#[test]
fn a_search_covering_every_run_is_a_proof() {
    let m = module();
    let proof = exhaustive(tuple(&m, "small_ni"), &opts(None));
    assert_eq!(proof.unroll, 4, "loops exit within 3 iterations: bound 4 covers them");
    assert_eq!(proof.forall_paths, 4, "one ∀ path per value of l");
    // Below that bound it is not a proof.
    let (reason, _) = unknown(tuple(&m, "small_ni"), &opts(Some(2)));
    assert!(reason.contains("`--unroll`"), "{reason}");
    // ∀∃: the ∃ loop's exact runs must match every ∀ run (x up to 5: bound 8).
    let proof = exhaustive(tuple(&m, "count_refines"), &opts(None));
    assert_eq!(proof.unroll, 8);
    let (reason, _) = unknown(tuple(&m, "count_refines"), &opts(Some(4)));
    assert!(reason.contains("not every ∀ run was matched"), "{reason}");
}

#[test]
fn summing_loop_refined_by_a_smaller_sum_is_violated() {
    let m = module();
    let cex = violated(tuple(&m, "sum_refines"), &opts(None));
    assert!(int(&cex, 0, "n") >= 3);
    assert!(cex.explanation.contains("loop summary"), "{}", cex.explanation);
}

#[test]
fn an_exists_copy_that_never_terminates_is_refuted() {
    let m = module();
    let cex = violated(tuple(&m, "never_terminates"), &opts(None));
    assert!(int(&cex, 0, "x") < 0, "{cex:?}");
}

#[test]
fn the_path_budget_is_named_in_the_reason() {
    let m = module();
    let o = RefuteOptions { max_paths: 5, ..opts(None) };
    let (reason, kind) = unknown(tuple(&m, "late11"), &o);
    assert_eq!(kind, "path_limit");
    assert!(reason.contains("more than 5 symbolic paths") && reason.contains("`--max-paths`"));
}

#[test]
fn unroll_and_max_paths_flags_reach_the_refuter() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.fe");
    std::fs::write(&file, TUPLES).unwrap();
    let json = |extra: &[&str]| -> serde_json::Value {
        let out = Command::cargo_bin("forex")
            .unwrap()
            .args(["prove", "--engine", "refute", "--format", "json", "--quiet", "--timeout"])
            .args(["30", "--tuple", "late11"])
            .args(extra)
            .arg(&file)
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).expect("JSON report")
    };
    let r = &json(&["--unroll", "8"])["results"][0];
    assert_eq!(r["verdict"], "unknown");
    assert_eq!(r["reason_kind"], "bound_reached");
    assert!(r["reason"].as_str().unwrap().contains("`--unroll`"), "{r}");
    let r = &json(&["--max-paths", "5"])["results"][0];
    assert_eq!(r["reason_kind"], "path_limit");
    let r = &json(&[])["results"][0];
    assert_eq!(r["verdict"], "violated");
    // An exhaustive search is reported as a proof by the refuter, with its bound.
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--engine", "refute", "--format", "json", "--quiet", "--tuple"])
        .args(["small_ni"])
        .arg(&file)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &report["results"][0];
    assert_eq!((&r["verdict"], &r["engine"]), (&"verified".into(), &"refute".into()));
    assert_eq!(r["proof"]["exhaustive"]["unroll"], 4);
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--engine", "refute", "--explain", "--quiet", "--tuple", "small_ni"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("exhaustive search") && text.contains("at most 4 times"), "{text}");
}

#[test]
fn forced_exists_iterations_with_choices_are_merged_when_paths_run_out() {
    let m = module();
    let cex = violated(tuple(&m, "steps_reach_all"), &opts(None));
    let x = int(&cex, 0, "x");
    assert!(!(12..=24).contains(&x), "{cex:?}");
    // Every ∀ run is matched within one merged path of the ∃ copy: a proof.
    exhaustive(tuple(&m, "steps_reach_range"), &opts(None));
}

/// An ∃-only loop stepping x by 2 (or by 3 or 6) past the unrolling bound: its summary
/// keeps the residue `(x - x₀) % g == 0` when inductive, so no ∃ run reaching an odd
/// target (or one not a multiple of 3) is assumed beyond the bound (before: unknown,
/// "the summary of longer runs does not rule them out").
#[test]
fn an_exists_loop_summary_keeps_the_residue_of_its_steps() {
    let src = "
program by2 { int x; x = 0; while (*) { x = x + 2; } }
program by36 { int x; x = 0; while (*) { if (*) { x = x + 3; } else { x = x + 6; } } }
program target { int n; assume n >= 1000; }
tuple odd { exists c: by2; post c.x == 515; }
tuple big_odd { forall a: target; exists c: by2; post c.x == a.n; }
tuple not_by3 { exists c: by36; post c.x == 1000; }
";
    let m = load_source("residue.fe", src.as_bytes(), InputFormat::Fe).expect("checks");
    for name in ["odd", "big_odd", "not_by3"] {
        violated(tuple(&m, name), &opts(None));
    }
}
