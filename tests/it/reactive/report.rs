//! The human report of a reactive violation (issue 11): a snapshot (insta) of the
//! counterexample at 10 observations of a ∀ copy with 5 variables, which must stay
//! readable: one row per observation index, one right-aligned column per variable,
//! every index shown (no elision), no line wider than a terminal.
//!
//! A changed snapshot is a changed report: review it with `cargo insta review`.

use assert_cmd::Command;

/// A tank filled by 1..3 and drained by 0..1 per step may not pass a limit that starts
/// at 16 and grows by at most 1 per step: first possible at observation 10 (level 27
/// after 9 steps of 3 against at most 16 + 9 = 25).
const TANK: &str = "
program tank {
  int step, level, inflow, outflow, alarm;
  step = 0; level = 0; inflow = 0; outflow = 0; alarm = 0;
  repeat {
    observe;
    inflow = *; assume 1 <= inflow && inflow <= 3;
    outflow = *; assume 0 <= outflow && outflow <= 1;
    level = level + inflow - outflow;
    step = step + 1;
    if (level > 12) { alarm = 1; }
  }
}
program limit {
  int max;
  max = 16;
  repeat { observe; if (*) { max = max + 1; } }
}
tuple bounded {
  forall a: tank;
  exists c: limit;
  always a.level <= c.max;
  observations 12;
}
";

#[test]
fn reactive_counterexample_table_at_10_observations() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tank.fe"), TANK).unwrap();
    let out = Command::cargo_bin("forex")
        .unwrap()
        .current_dir(dir.path())
        // The refuter alone, on one thread: its model is the same from run to run.
        .args(["prove", "--engine", "refute", "--jobs", "1", "--timeout", "60", "tank.fe"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    // The counterexample, without the summary table (its times vary).
    let cex = stdout.split("\ntuple ").next().unwrap();
    assert!(cex.contains("fails at observation 10; observed:"), "{cex}");
    assert!(cex.lines().all(|l| l.chars().count() <= 100), "{cex}");
    insta::assert_snapshot!("reactive_counterexample_10x5", cex);
}
