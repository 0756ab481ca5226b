//! Hypertesting: fuzzing and hypercoverage-guided evolutionary search for violations.
//! Never concludes `verified`.
//!
//! A test is an input tuple (initial values of every copy, satisfying `pre`) plus the ∀
//! copies' nondeterministic choices. The ∀ copies run concretely; then `post` is
//! checked on their final states (k-safety) or the refuter's ∃-run check is asked
//! whether some ∃ runs match (∀∃; only a proved "no run" is a violation). A violating
//! test is replayed with exactly its recorded choices before it is reported.
//!
//! Everything random flows from one ChaCha stream seeded by `TestOptions::seed`, so a
//! seed fixes the sequence of tests; with a run budget (`max_runs`) rather than a time
//! budget, it fixes the result too.

mod coverage;
mod exec;
pub(crate) mod inputs;
mod search;
mod shrink;
mod tables;
pub mod temporal;
pub(crate) mod values;

pub use coverage::branch_distance;

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::verdict::{Counterexample, Engine, Outcome, Stats, Verdict};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// HyperFuzz: random generation.
    Fuzz,
    /// HyperEvo: many-objective evolutionary search over hypercoverage goals.
    #[default]
    Evo,
}

#[derive(Clone, Debug)]
pub struct TestOptions {
    pub strategy: Strategy,
    pub budget: Duration,
    pub seed: u64,
    /// `--dump-smt`: write every SMT check of the tester (input solving, ∃ checks) into
    /// this folder.
    pub dump_smt: Option<std::path::PathBuf>,
}

impl Default for TestOptions {
    fn default() -> Self {
        TestOptions {
            strategy: Strategy::Evo,
            budget: Duration::from_millis(2000),
            seed: 0,
            dump_smt: None,
        }
    }
}

/// What one hypertest campaign found.
#[derive(Clone, Debug)]
pub struct TestReport {
    /// A replayed counterexample, if a violation was found.
    pub counterexample: Option<Counterexample>,
    /// Tests executed.
    pub runs: u64,
    /// Tests discarded because an `assume` of a ∀ copy failed.
    pub vacuous: u64,
    /// Tests where a ∀ copy did not terminate within the step limit.
    pub no_run: u64,
    /// Tests whose `post` or ∃ check could not be decided.
    pub undecided: u64,
    /// Hypercoverage: goals covered and goals in total.
    pub covered: usize,
    pub goals: usize,
    /// Why the search stopped before its budget, if it did (e.g. no input satisfies pre).
    pub stopped: Option<String>,
}

impl TestReport {
    /// A campaign's report before its first test, over `goals` hypercoverage goals.
    pub fn new(goals: usize) -> TestReport {
        TestReport {
            counterexample: None,
            runs: 0,
            vacuous: 0,
            no_run: 0,
            undecided: 0,
            covered: 0,
            goals,
            stopped: None,
        }
    }

    /// The hypercoverage reached, as reported data.
    pub fn hypercoverage(&self) -> crate::verdict::Hypercoverage {
        crate::verdict::Hypercoverage { goals: self.goals as u64, hit: self.covered as u64 }
    }

    /// The `unknown` reason: runs and hypercoverage, plus what the runs could not judge.
    pub fn reason(&self) -> String {
        let mut s = format!(
            "no violation found in {} runs, hypercoverage {}/{} goals",
            self.runs, self.covered, self.goals
        );
        let mut notes = Vec::new();
        if self.vacuous > 0 {
            notes.push(format!("{} blocked by an assume", self.vacuous));
        }
        if self.no_run > 0 {
            notes.push(format!(
                "{} did not terminate within {} steps",
                self.no_run,
                exec::MAX_STEPS
            ));
        }
        if self.undecided > 0 {
            notes.push(format!(
                "{} could not be judged (∃ check or post undecided)",
                self.undecided
            ));
        }
        if !notes.is_empty() {
            s += &format!(" ({})", notes.join(", "));
        }
        if let Some(why) = &self.stopped {
            s += &format!("; stopped early: {why}");
        }
        s
    }
}

/// Searches for a violation of `tuple` within the budget.
pub fn hypertest(tuple: &Tuple, opts: &TestOptions, cancel: &Cancel) -> Outcome {
    hypertest_runs(tuple, opts, None, cancel)
}

/// [`hypertest`] that also stops after `max_runs` tests (the result then does not
/// depend on the machine's speed).
pub fn hypertest_runs(
    tuple: &Tuple,
    opts: &TestOptions,
    max_runs: Option<u64>,
    cancel: &Cancel,
) -> Outcome {
    crate::smt::session::guarded(Engine::Test, cancel, || runs(tuple, opts, max_runs, cancel))
}

fn runs(tuple: &Tuple, opts: &TestOptions, max_runs: Option<u64>, cancel: &Cancel) -> Outcome {
    let _scope =
        crate::smt::session::engine_scope(cancel, opts.dump_smt.as_ref(), &tuple.name, "test");
    if tuple.is_reactive() {
        return crate::hypertest::temporal::hypertest(
            tuple,
            opts.seed,
            opts.budget,
            max_runs,
            cancel,
        );
    }
    let start = Instant::now();
    let report = hypertest_report(tuple, opts, max_runs, cancel);
    let runs = report.runs;
    let hypercoverage = Some(report.hypercoverage());
    let verdict = match report.counterexample {
        Some(counterexample) => Verdict::Violated { counterexample },
        None => Verdict::Unknown {
            reason: crate::verdict::UnknownReason::NoViolationFound(report.reason()),
        },
    };
    Outcome {
        verdict,
        engine: Engine::Test,
        time: start.elapsed(),
        stats: Stats { runs, hypercoverage, ..Stats::default() },
    }
}

/// The full campaign report. `max_runs` bounds the number of tests in addition to the
/// time budget (a run bound makes the result independent of machine speed).
pub fn hypertest_report(
    tuple: &Tuple,
    opts: &TestOptions,
    max_runs: Option<u64>,
    cancel: &Cancel,
) -> TestReport {
    if tuple.is_reactive() {
        // Temporal tuples: observations, not final states (`hypertest::temporal`).
        return crate::hypertest::temporal::campaign(
            tuple,
            opts.seed,
            opts.budget,
            max_runs,
            cancel,
        );
    }
    let cancel = cancel.with_timeout(opts.budget);
    search::run(tuple, opts, max_runs, &cancel)
}

#[cfg(test)]
mod tests;
