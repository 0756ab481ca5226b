//! Executing one hypertest: run the ∀ copies from an input tuple, then check `post`
//! (k-safety) or ask for an ∃ witness (∀∃).

use super::coverage::{Goals, Trace};
use super::inputs::holds;
use super::tables::Tables;
use super::values::{Streaks, Values};
use crate::cancel::Cancel;
use crate::interp::{run_copy, run_copy_observed, Chooser, Observer, Replay, RunEnd};
use crate::ir::{Loc, Stmt, Tuple, Type, VarId};
use crate::refute::exists::{exists_run, ExistsAnswer};
use crate::value::Value;
use crate::verdict::{CopyRun, Counterexample};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Steps per copy before a run counts as "no run" (did not terminate).
pub const MAX_STEPS: u64 = 100_000;

/// One test: initial values of all tuple variables, and the choices of each ∀ copy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Test {
    pub input: Vec<Value>,
    /// Per ∀ copy (in `Goals::copies` order): choices to replay first; further choices
    /// are random from `seed`, and the choices actually made are stored back.
    pub choices: Vec<Vec<Value>>,
    pub seed: u64,
}

/// Replays recorded choices where their type fits, then draws random ones.
struct TestChooser<'a> {
    recorded: &'a [Value],
    next: usize,
    rng: ChaCha8Rng,
    values: &'a Values,
    streaks: Streaks,
}

impl Chooser for TestChooser<'_> {
    fn choose(&mut self, ty: &Type, at: Loc) -> Option<Value> {
        let v = self.recorded.get(self.next).filter(|v| v.has_type(ty)).cloned();
        self.next += 1;
        Some(v.unwrap_or_else(|| self.streaks.choose(self.values, ty, at, &mut self.rng)))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every ∀ copy finished and `post` holds (or an ∃ witness exists).
    Pass,
    /// An `assume` of a ∀ copy failed: the test says nothing.
    Vacuous,
    /// A ∀ copy hit the step limit.
    NoRun,
    /// The ∃ check or a quantified `post` could not be decided.
    Undecided,
    /// `post` is false (k-safety) or no ∃ run matches (∀∃).
    Violation { explanation: String, conjunct: Option<String> },
}

pub struct Outcome {
    pub verdict: Verdict,
    /// Per ∀ copy, the point indices executed (empty unless the copy finished).
    pub hits: Vec<Vec<usize>>,
    /// Per ∀ copy, per point, the distance from executing it (evo only).
    pub distances: Vec<Vec<f64>>,
    /// Where the ∀ copies read the tables (`tables`): (table, index).
    pub reads: Vec<(VarId, Value)>,
}

/// The coverage trace and the table reads of one run.
struct Watch<'w, 'g> {
    trace: &'w mut Trace<'g>,
    tables: &'w Tables,
    reads: &'w mut Vec<(VarId, Value)>,
}

impl Observer for Watch<'_, '_> {
    fn before(&mut self, stmt: &Stmt, state: &[Value]) {
        self.trace.before(stmt, state);
        self.tables.reads(stmt, state, self.reads);
    }
}

/// Runs tests of one tuple; caches ∃ checks (they cost SMT queries).
pub struct Executor<'t> {
    pub tuple: &'t Tuple,
    pub goals: &'t Goals,
    pub cancel: Cancel,
    pub values: Values,
    pub tables: Tables,
    exists_cache: HashMap<Vec<Value>, ExistsAnswer>,
}

impl<'t> Executor<'t> {
    pub fn new(tuple: &'t Tuple, goals: &'t Goals, cancel: Cancel) -> Executor<'t> {
        Executor {
            tuple,
            goals,
            cancel,
            values: Values::of(tuple),
            tables: Tables::of(tuple),
            exists_cache: HashMap::new(),
        }
    }

    /// Runs `test`, storing the choices made back into it.
    pub fn execute(&mut self, test: &mut Test, distances: bool) -> Outcome {
        let mut state = test.input.clone();
        let mut seeds = ChaCha8Rng::seed_from_u64(test.seed);
        let k = self.goals.copies.len();
        let mut out = Outcome {
            verdict: Verdict::Pass,
            hits: vec![Vec::new(); k],
            distances: vec![Vec::new(); k],
            reads: Vec::new(),
        };
        test.choices.resize(k, Vec::new());
        let mut stopped = None;
        for (j, &c) in self.goals.copies.iter().enumerate() {
            let mut chooser = TestChooser {
                recorded: &test.choices[j],
                next: 0,
                rng: ChaCha8Rng::seed_from_u64(seeds.next_u64()),
                values: &self.values,
                streaks: Streaks::default(),
            };
            let mut trace = Trace::new(&self.goals.index[j], distances);
            let mut watch =
                Watch { trace: &mut trace, tables: &self.tables, reads: &mut out.reads };
            let run =
                run_copy_observed(self.tuple, c, &mut state, &mut chooser, MAX_STEPS, &mut watch);
            let Ok(run) = run else {
                // Only ill-formed IR makes the interpreter fail; such a test proves nothing.
                stopped.get_or_insert(Verdict::Undecided);
                continue;
            };
            let finished = run.end == RunEnd::Finished;
            if finished {
                out.hits[j] = trace.hit_points(true);
            }
            if distances {
                out.distances[j] = (0..self.goals.index[j].points.len())
                    .map(|p| trace.distance(p, finished))
                    .collect();
            }
            test.choices[j] = run.choices;
            match run.end {
                RunEnd::Finished => {}
                RunEnd::StepLimit { .. } | RunEnd::Cut { .. } => {
                    stopped.get_or_insert(Verdict::NoRun);
                }
                _ => {
                    stopped.get_or_insert(Verdict::Vacuous);
                }
            }
        }
        out.verdict = match stopped {
            Some(v) => v,
            None => self.judge(&state),
        };
        out
    }

    /// `state`: ∀ copies final, ∃ copies initial.
    fn judge(&mut self, state: &[Value]) -> Verdict {
        if self.tuple.is_k_safety() {
            return match holds(&self.cancel, &self.tuple.post, state) {
                Some(true) => Verdict::Pass,
                None => Verdict::Undecided,
                Some(false) => {
                    let conjunct = self
                        .tuple
                        .post
                        .conjuncts()
                        .into_iter()
                        .find(|c| holds(&self.cancel, c, state) == Some(false))
                        .map(|c| crate::pretty::conjunct_text(self.tuple, c));
                    let explanation = match &conjunct {
                        Some(c) if c.starts_with("no undefined behaviour") => {
                            format!("post is false on the final states: {c} does not hold")
                        }
                        Some(c) => format!("post is false on the final states: {c} fails"),
                        None => "post is false on the final states".into(),
                    };
                    Verdict::Violation { explanation, conjunct }
                }
            };
        }
        if let Some(v) = self.concrete_exists(state) {
            return v;
        }
        let answer = match self.exists_cache.get(state) {
            Some(a) => a.clone(),
            None => {
                let a = exists_run(self.tuple, state, &self.cancel);
                // A timed-out answer may differ next time; only definitive ones are kept.
                if !matches!(a, ExistsAnswer::Unknown { .. }) {
                    self.exists_cache.insert(state.to_vec(), a.clone());
                }
                a
            }
        };
        match answer {
            ExistsAnswer::Witness => Verdict::Pass,
            ExistsAnswer::Unknown { .. } => Verdict::Undecided,
            ExistsAnswer::NoRun { explanation } => {
                Verdict::Violation { explanation, conjunct: None }
            }
        }
    }

    /// Cheap ∃ checks by running the ∃ copies concretely before asking the solver: a
    /// run satisfying `post` is a witness. When the runs made no choices, they are the
    /// only runs from these initial values, so a false `post` (or a failed `assume`)
    /// proves that no ∃ run matches. `None`: the concrete runs settle nothing.
    fn concrete_exists(&self, state: &[Value]) -> Option<Verdict> {
        let exists: Vec<usize> = self.tuple.exists_copies().map(|(i, _)| i).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
        for _ in 0..4 {
            let mut s = state.to_vec();
            let mut deterministic = true;
            let mut blocked = None;
            for &c in &exists {
                let mut chooser = TestChooser {
                    recorded: &[],
                    next: 0,
                    rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
                    values: &self.values,
                    streaks: Streaks::default(),
                };
                let run = run_copy(self.tuple, c, &mut s, &mut chooser, MAX_STEPS).ok()?;
                deterministic &= run.choices.is_empty();
                match run.end {
                    RunEnd::Finished => {}
                    RunEnd::Blocked { at } if blocked.is_none() => {
                        blocked = Some((c, at));
                    }
                    RunEnd::Blocked { .. } => {}
                    _ => return None,
                }
            }
            if blocked.is_none() && holds(&self.cancel, &self.tuple.post, &s) == Some(true) {
                return Some(Verdict::Pass);
            }
            if deterministic {
                let explanation = match blocked {
                    Some((c, at)) => format!(
                        "the ∃ copy {} makes no choices here and its only run is blocked by \
                         the assume at {at}",
                        self.tuple.copies[c].name
                    ),
                    None if holds(&self.cancel, &self.tuple.post, &s) == Some(false) => {
                        "the ∃ copies make no choices here, and their only runs end in states \
                         where post is false"
                            .to_string()
                    }
                    None => return None,
                };
                return Some(Verdict::Violation { explanation, conjunct: None });
            }
        }
        None
    }

    /// Re-runs a violating test with exactly its recorded choices and checks that the
    /// same violation follows; then builds the counterexample.
    pub fn replay(&mut self, test: &Test) -> Result<Counterexample, String> {
        let mut state = test.input.clone();
        for (j, &c) in self.goals.copies.iter().enumerate() {
            let mut chooser = Replay::new(test.choices[j].clone());
            let run = run_copy(self.tuple, c, &mut state, &mut chooser, MAX_STEPS)
                .map_err(|e| e.to_string())?;
            if run.end != RunEnd::Finished || run.choices != test.choices[j] {
                return Err(format!("copy {} replayed differently: {}", c, run.end));
            }
        }
        let Verdict::Violation { explanation, conjunct } = self.judge(&state) else {
            return Err("the replayed final states do not violate the tuple".into());
        };
        let tuple = self.tuple;
        let copies = (0..tuple.copies.len())
            .map(|i| {
                let j = self.goals.copies.iter().position(|&x| x == i);
                let choices = j.map(|j| test.choices[j].clone()).unwrap_or_default();
                CopyRun::from_states(tuple, i, &test.input, choices, &state)
            })
            .collect();
        Ok(Counterexample {
            copies,
            explanation,
            violated_conjunct: conjunct,
            observations: None,
            c_types: None,
        })
    }
}
