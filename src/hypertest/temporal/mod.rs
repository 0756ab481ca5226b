//! Testing temporal tuples (`forex test`): the ∀ copies run concretely with random
//! inputs and choices up to the observation bound; at every index n of the run, the ∃
//! side is checked symbolically ([`prefix::exists_side`] on the concrete observations):
//! no ∃ prefix with n observations satisfying φ at every index is a violation, which
//! is replayed like the refuter's before it is reported. Hypercoverage counts branch
//! outcomes per observation index ([`coverage`]).

mod coverage;

use crate::cancel::Cancel;
use crate::hypertest::inputs::PreSolver;
use crate::hypertest::values::{Streaks, Values};
use crate::hypertest::TestReport;
use crate::interp::{run_copy_observing, Chooser, Limits, RunEnd};
use crate::ir::{Loc, Tuple, Type};
use crate::refute::temporal::prefix::{check, encode_exists, exists_side, terms, Candidate};
use crate::refute::temporal::{counterexample, replay, UNROLLS};
use crate::value::Value;
use crate::verdict::{Engine, Outcome, Stats, Verdict};
use coverage::ObservationGoals;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::SatResult;

/// Observation bound when the tuple sets none.
const DEFAULT_OBSERVATIONS: u32 = 8;
const MAX_STEPS: u64 = 100_000;

struct Random<'a> {
    values: &'a Values,
    rng: &'a mut ChaCha8Rng,
    streaks: Streaks,
}

impl Chooser for Random<'_> {
    fn choose(&mut self, ty: &Type, at: Loc) -> Option<Value> {
        Some(self.streaks.choose(self.values, ty, at, self.rng))
    }
}

/// Random tests of a reactive tuple within `budget` (and at most `max_runs` tests).
pub fn hypertest(
    tuple: &Tuple,
    seed: u64,
    budget: Duration,
    max_runs: Option<u64>,
    cancel: &Cancel,
) -> Outcome {
    let start = Instant::now();
    let report = campaign(tuple, seed, budget, max_runs, cancel);
    let hypercoverage = Some(report.hypercoverage());
    let verdict = match report.counterexample {
        Some(counterexample) => Verdict::Violated { counterexample },
        None => {
            let bound = tuple.observations.unwrap_or(DEFAULT_OBSERVATIONS);
            let reason = crate::verdict::UnknownReason::NoViolationFound(format!(
                "no violation found in {} runs of up to {bound} observations, hypercoverage \
                 {}/{} goals (branch outcomes per observation index; {} blocked or without \
                 observations, {} undecided)",
                report.runs, report.covered, report.goals, report.vacuous, report.undecided
            ))
            .from_engine(crate::verdict::Engine::Test);
            Verdict::Unknown { reason }
        }
    };
    Outcome {
        verdict,
        engine: Engine::Test,
        time: start.elapsed(),
        stats: Stats { runs: report.runs, hypercoverage, ..Stats::default() },
    }
}

/// The campaign behind [`hypertest`], as the report `hypertest_report` gives for
/// `post` tuples (`vacuous`: runs blocked or without observations).
pub fn campaign(
    tuple: &Tuple,
    seed: u64,
    budget: Duration,
    max_runs: Option<u64>,
    cancel: &Cancel,
) -> TestReport {
    let cancel = cancel.with_timeout(budget);
    let values = Values::of(tuple);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bound = tuple.observations.unwrap_or(DEFAULT_OBSERVATIONS) as usize;
    let pre = PreSolver::new(tuple, &cancel);
    let mut goals = ObservationGoals::new(tuple, bound);
    let mut report = TestReport::new(goals.total());
    while !cancel.is_cancelled() && max_runs.is_none_or(|m| report.runs < m) {
        report.runs += 1;
        report.covered = goals.covered();
        // Random values, repaired by Z3 where they miss `pre` (equalities between
        // copies are rarely met at random).
        let wish = values.random_input(tuple, &mut rng);
        let Some(init) = pre.solve(&wish, &[], &mut rng) else {
            report.vacuous += 1;
            continue;
        };
        let mut choices = vec![Vec::new(); tuple.copies.len()];
        let mut observed = vec![Vec::new(); tuple.copies.len()];
        let mut reached = bound;
        for (c, _) in tuple.forall_copies() {
            let mut state = init.clone();
            let mut chooser =
                Random { values: &values, rng: &mut rng, streaks: Streaks::default() };
            let limits = Limits { max_steps: MAX_STEPS, max_observations: Some(bound as u32) };
            let mut tracker = goals.tracker(c);
            let Ok(run) =
                run_copy_observing(tuple, c, &mut state, &mut chooser, limits, &mut tracker)
            else {
                reached = 0;
                break;
            };
            let mut obs = run.observations;
            if !crate::ir::has_observe(&tuple.copies[c].body) && run.end == RunEnd::Finished {
                obs.push(tuple.copies[c].vars.iter().map(|v| state[v.index()].clone()).collect());
            }
            reached = reached.min(obs.len());
            choices[c] = run.choices;
            observed[c] = obs;
        }
        if reached == 0 {
            report.vacuous += 1;
            continue;
        }
        for n in 1..=reached {
            let cand = Candidate {
                n,
                unroll: UNROLLS[0],
                init: init.clone(),
                choices: choices.clone(),
                observed: observed.iter().map(|o| o.iter().take(n).cloned().collect()).collect(),
            };
            let enc = encode_exists(tuple, &terms(&init), n, cand.unroll, &cancel);
            let (witness, residual) =
                exists_side(tuple, &enc, n, &|c, i| terms(&cand.observed[c][i]));
            let solver = crate::smt::session::solver();
            solver.assert(Bool::or(&[witness, residual]));
            match check(&solver, &cancel) {
                SatResult::Sat => continue,
                SatResult::Unknown => {
                    report.undecided += 1;
                    break;
                }
                SatResult::Unsat => {}
            }
            if replay::replay(tuple, &cand, &cancel).is_ok() {
                report.covered = goals.covered();
                report.counterexample = Some(counterexample(tuple, &cand));
                return report;
            }
            report.undecided += 1;
            break;
        }
    }
    report.covered = goals.covered();
    report
}
