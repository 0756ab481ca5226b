//! Reports: human table, JSON and JUnit renderings of verdicts.
//!
//! A [`Report`] is what a batch run produced, in input order: one [`TupleResult`] per
//! decided tuple and one per file that could not be loaded. The renderers only read it.

mod cterms;
mod github;
mod human;
mod json;
mod junit;
pub mod merge;
pub mod oneline;
mod read;
pub mod sarif;

pub use github::render_github;
pub use human::render_human;
pub use json::{render_json, render_json_checked, CrossCheck};
pub use junit::render_junit;
pub use read::read_counterexample;
pub use sarif::render_sarif;

use crate::ir::Loc;
use crate::verdict::{Engine, Outcome, Verdict, VerdictKind, Warning};
use std::time::Duration;

/// How one tuple (or one unloadable file) ended.
// One status per tuple of a report: the size difference between an outcome and an error's
// reason costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Status {
    /// An engine's answer (verified, violated or unknown).
    Done(Outcome),
    /// The file could not be read, parsed or checked; the diagnostics went to stderr.
    Error { reason: String },
}

/// One line of a report.
#[derive(Clone, Debug)]
pub struct TupleResult {
    /// The file as the user named it (for files found in folders: folder joined with the name).
    pub file: String,
    /// The tuple's name; `None` when the whole file failed to load.
    pub tuple: Option<String>,
    /// Where the tuple starts, when known.
    pub loc: Option<Loc>,
    pub status: Status,
    /// The outcome the input file expects (hyena0's `(expect (outcome …))`), if it says.
    pub expected: Option<crate::ir::ExpectedOutcome>,
}

/// How a report line ended: an engine's verdict or an input error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultKind {
    Verdict(VerdictKind),
    Error,
}

impl ResultKind {
    /// `verified`, `violated`, `unknown` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            ResultKind::Verdict(v) => v.name(),
            ResultKind::Error => "error",
        }
    }
    /// The kind a saved report names (`verified`, …); `None` for anything else.
    pub fn from_name(name: &str) -> Option<ResultKind> {
        Some(match name {
            "verified" => ResultKind::Verdict(VerdictKind::Verified),
            "violated" => ResultKind::Verdict(VerdictKind::Violated),
            "unknown" => ResultKind::Verdict(VerdictKind::Unknown),
            "error" => ResultKind::Error,
            _ => return None,
        })
    }
}

impl TupleResult {
    pub fn kind(&self) -> ResultKind {
        match &self.status {
            Status::Done(o) => ResultKind::Verdict(o.verdict.kind()),
            Status::Error { .. } => ResultKind::Error,
        }
    }
    /// `verified`, `violated`, `unknown` or `error`.
    pub fn verdict_name(&self) -> &'static str {
        self.kind().name()
    }
    /// This result's exit-code contribution (LANGUAGE.md: 0, 1, 2, 3).
    pub fn exit_code(&self) -> i32 {
        match &self.status {
            Status::Done(o) => o.verdict.exit_code(),
            Status::Error { .. } => 3,
        }
    }
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.status {
            Status::Done(o) => Some(o),
            Status::Error { .. } => None,
        }
    }
    pub fn engine(&self) -> Option<Engine> {
        self.outcome().map(|o| o.engine)
    }
    pub fn time(&self) -> Option<Duration> {
        self.outcome().map(|o| o.time)
    }
    /// Why the tuple is `unknown` or `error`, for people.
    pub fn reason(&self) -> Option<String> {
        match &self.status {
            Status::Done(Outcome { verdict: Verdict::Unknown { reason }, .. }) => {
                Some(reason.to_string())
            }
            Status::Error { reason } => Some(reason.clone()),
            Status::Done(_) => None,
        }
    }
    /// The machine name of the reason: an `UnknownReason` kind, or `input_error`.
    pub fn reason_kind(&self) -> Option<&'static str> {
        match &self.status {
            Status::Done(o) => o.verdict.unknown_reason().map(|r| r.kind()),
            Status::Error { .. } => Some("input_error"),
        }
    }
    /// The name shown for this line: the tuple's, or the file's when it did not load.
    pub fn display_name(&self) -> String {
        match &self.tuple {
            Some(t) => t.clone(),
            None => format!("({})", file_name(&self.file)),
        }
    }
    /// Warnings about a verdict that stands (a vacuous proof); empty for most results.
    pub fn warnings(&self) -> &[Warning] {
        match &self.status {
            Status::Done(Outcome { verdict: Verdict::Verified { proof }, .. }) => &proof.warnings,
            _ => &[],
        }
    }
    /// `file:line` (or just `file`).
    pub fn location(&self) -> String {
        match self.loc {
            Some(loc) => format!("{}:{}", self.file, loc.line),
            None => self.file.clone(),
        }
    }
}

fn file_name(path: &str) -> &str {
    std::path::Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or(path)
}

/// Why a batch ended before every tuple was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-C.
    Interrupted,
    /// `--fail-fast` after a violated tuple.
    FailFast,
}

/// Everything a batch run produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Finished tuples and failed files, in input order.
    pub results: Vec<TupleResult>,
    /// Selected tuples that did not finish (fail-fast or Ctrl-C), as `file: tuple`.
    pub not_run: Vec<String>,
    pub stopped: Option<Stop>,
    /// Wall-clock time of the whole batch.
    pub time: Duration,
    /// How the inputs were read where that is a choice, one line per file (a C file's
    /// integer model).
    pub notes: Vec<String>,
}

/// Counts per verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub verified: usize,
    pub violated: usize,
    pub unknown: usize,
    pub error: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.verified + self.violated + self.unknown + self.error
    }
    pub fn add(&mut self, kind: ResultKind) {
        match kind {
            ResultKind::Verdict(VerdictKind::Verified) => self.verified += 1,
            ResultKind::Verdict(VerdictKind::Violated) => self.violated += 1,
            ResultKind::Verdict(VerdictKind::Unknown) => self.unknown += 1,
            ResultKind::Error => self.error += 1,
        }
    }
}

impl Report {
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.results {
            c.add(r.kind());
        }
        c
    }

    /// The process exit code: the largest over all results. A batch stopped by Ctrl-C left
    /// tuples undecided, so it is at least 2 (unknown); with `--fail-fast` the tuples not
    /// run are simply skipped (the violated one already gives 1).
    pub fn exit_code(&self) -> i32 {
        let worst = self.results.iter().map(TupleResult::exit_code).max().unwrap_or(0);
        match self.stopped {
            Some(Stop::Interrupted) => worst.max(2),
            _ => worst,
        }
    }
}

/// Milliseconds as a float rounded to microseconds (the JSON `time_ms` fields).
pub(crate) fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::value::Value;
    use crate::verdict::{CopyRun, Counterexample, LoopPointProof, Proof, Stats};
    use std::collections::BTreeMap;

    pub fn outcome(verdict: Verdict, engine: Engine, ms: u64) -> Outcome {
        Outcome {
            verdict,
            engine,
            time: Duration::from_millis(ms),
            stats: Stats { queries: 7, candidates: 3, ..Stats::default() },
        }
    }

    /// One result of every kind, with awkward characters where text is free.
    pub fn sample() -> Report {
        let proof = Proof {
            loop_points: vec![LoopPointProof {
                loops: vec!["a@x.fe:4:3".into(), "c@x.fe:4:3".into()],
                counts: vec![1, 2],
                invariant: "a.i == c.i && a.o <= c.o".into(),
                candidates_tried: 3,
                alignment: None,
                leftover_of: None,
            }],
            obligations: 9,
            exhaustive: None,
            warnings: Vec::new(),
            observation_bound: None,
            recorded: Default::default(),
            summary: None,
        };
        let a = CopyRun {
            copy: "a".into(),
            program: "leak".into(),
            quantifier: crate::ir::Quantifier::Forall,
            initial: BTreeMap::from([("h".into(), Value::int(1)), ("o".into(), Value::int(0))]),
            choices: vec![Value::int(50), Value::bool(true)],
            final_state: Some(BTreeMap::from([
                ("h".into(), Value::int(1)),
                ("o".into(), Value::int(51)),
            ])),
        };
        let c = CopyRun {
            copy: "c".into(),
            program: "leak".into(),
            quantifier: crate::ir::Quantifier::Exists,
            initial: BTreeMap::from([("h".into(), Value::int(2)), ("o".into(), Value::int(0))]),
            choices: vec![],
            final_state: None,
        };
        let cex = Counterexample {
            copies: vec![a, c],
            explanation: "no run of c ends with o == 51 <&> \"quoted\"".into(),
            violated_conjunct: Some("a.o == c.o".into()),
            c_types: None,
            observations: None,
        };
        let at = |line| Some(Loc { line, col: 1 });
        Report {
            notes: vec![],
            results: vec![
                TupleResult {
                    file: "x.fe".into(),
                    tuple: Some("ok".into()),
                    loc: at(3),
                    expected: None,
                    status: Status::Done(outcome(Verdict::Verified { proof }, Engine::Prove, 12)),
                },
                TupleResult {
                    file: "x.fe".into(),
                    tuple: Some("leak".into()),
                    loc: at(9),
                    expected: None,
                    status: Status::Done(outcome(
                        Verdict::Violated { counterexample: cex },
                        Engine::Refute,
                        30,
                    )),
                },
                TupleResult {
                    file: "y.fe".into(),
                    tuple: Some("hard<&>".into()),
                    loc: at(1),
                    expected: None,
                    status: Status::Done(outcome(
                        Verdict::Unknown {
                            reason: crate::verdict::UnknownReason::Timeout {
                                limit: Duration::from_secs(1),
                                during: Box::new(crate::verdict::UnknownReason::Cancelled(
                                    "the time limit was reached".into(),
                                )),
                            },
                        },
                        Engine::Prove,
                        1000,
                    )),
                },
                TupleResult {
                    file: "dir/bad.fe".into(),
                    tuple: None,
                    loc: None,
                    expected: None,
                    status: Status::Error {
                        reason: "dir/bad.fe:2:5: error: unknown variable `q` \u{1}".into(),
                    },
                },
            ],
            not_run: vec![],
            stopped: None,
            time: Duration::from_millis(1042),
        }
    }

    /// [`sample`] with a vacuity warning on its verified tuple `ok`.
    pub fn vacuous_sample() -> Report {
        let mut r = sample();
        if let Status::Done(Outcome { verdict: Verdict::Verified { proof }, .. }) =
            &mut r.results[0].status
        {
            proof.warnings.push(Warning {
                code: "W0100".into(),
                message: "`pre` is unsatisfiable <&>".into(),
            });
        }
        r
    }

    #[test]
    fn counts_and_exit_code() {
        let mut r = sample();
        assert_eq!(r.counts(), Counts { verified: 1, violated: 1, unknown: 1, error: 1 });
        assert_eq!(r.exit_code(), 3);
        r.results.truncate(2);
        assert_eq!(r.exit_code(), 1);
        r.stopped = Some(Stop::Interrupted);
        assert_eq!(r.exit_code(), 2);
        r.stopped = Some(Stop::FailFast);
        assert_eq!(r.exit_code(), 1);
        assert_eq!(Report::default().exit_code(), 0);
    }

    #[test]
    fn names_and_locations() {
        let r = sample();
        assert_eq!(r.results[0].location(), "x.fe:3");
        assert_eq!(r.results[3].location(), "dir/bad.fe");
        assert_eq!(r.results[3].display_name(), "(bad.fe)");
        assert_eq!(
            r.results[2].reason().as_deref(),
            Some("timeout after 1 s (the time limit was reached)")
        );
        assert_eq!(r.results[2].reason_kind(), Some("timeout"));
        assert_eq!(millis(Duration::from_micros(12_500)), 12.5);
    }
}
