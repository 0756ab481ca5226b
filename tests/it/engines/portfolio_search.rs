//! The portfolio's concrete search beside the refuter (issue 22): once the prover gives
//! up, its core runs the hypertester while the refuter deepens, so a violation that
//! needs a ∀ loop to run thousands of times, or a nonlinear equation a small search
//! solves, is found in milliseconds rather than left to the refuter's unrollings.

use assert_cmd::Command;

fn verdict_of(src: &str, timeout: &str) -> (String, String) {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--format", "json", "--quiet", "--timeout", timeout, "-"])
        .write_stdin(src)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let r = &report["results"][0];
    (r["verdict"].as_str().unwrap().to_string(), r["engine"].as_str().unwrap().to_string())
}

#[test]
fn a_leak_after_thousands_of_iterations_is_found_by_the_search() {
    // The refuter would unroll 3000 iterations; a run with l = 3000 takes microseconds.
    let src = r#"
program p {
  int x, i, o, h;
  i = 0; o = 0;
  while (i < x) { i = i + 1; }
  if (i == 3000) { o = h; }
}
tuple ni { forall a: p, b: p; pre a.x == b.x; post a.o == b.o; }
"#;
    assert_eq!(verdict_of(src, "5"), ("violated".into(), "test".into()));
}

#[test]
fn an_exists_copy_that_must_count_to_hundreds_is_found_by_the_search() {
    let src = r#"
program p {
  int x, i, o;
  i = 0; o = 0;
  while (i < x) { i = i + 1; o = o + 2; }
}
program q {
  int x, i, o;
  i = 0; o = 0;
  while (i < x && i < 2500) { i = i + 1; o = o + 2; }
}
tuple refine { forall a: p; exists b: q; pre a.x == b.x; post a.o == b.o; }
"#;
    assert_eq!(verdict_of(src, "5").0, "violated");
}

#[test]
fn a_nonlinear_leak_a_small_search_away_is_violated() {
    // x*y*(x - 3y) == 10 at (x, y) = (-2, 1) or (5, 1): the solver's nonlinear
    // arithmetic gives up, small inputs do not.
    let src = r#"
program p {
  int x, y, o, h;
  o = 0;
  if (x * x * y - 3 * x * y * y == 10) { o = h; }
}
tuple ni { forall a: p, b: p; pre a.x == b.x && a.y == b.y; post a.o == b.o; }
"#;
    // 10 s, not 3: on a loaded 2-core machine the search may start late (it runs once the
    // prover gave up); the small search still answers in milliseconds when it runs.
    assert_eq!(verdict_of(src, "10").0, "violated");
}

#[test]
fn a_silent_forall_loop_that_must_spin_thousands_of_times_is_found() {
    // Between observations the ∀ copy's `while (*)` may add any count; the ∃ copy adds
    // less than 3000 per observation. Fair coin flips never spin 3000 times; streaks of
    // `true` as long as the tuple's constants do (issue 23, item 4).
    let src = r#"
program spin {
  int x;
  x = 0;
  repeat {
    while (*) { x = x + 1; }
    observe;
  }
}
program hop {
  int x, y;
  x = 0;
  repeat {
    y = *;
    assume y >= 0 && y < 3000;
    x = x + y;
    observe;
  }
}
tuple t { forall a: spin; exists b: hop; pre true; always a.x == b.x; observations 3; }
"#;
    assert_eq!(verdict_of(src, "10"), ("violated".into(), "test".into()));
}
