//! The two search strategies over tests: HyperFuzz (random inputs from `pre`'s models
//! and mutants of earlier tests) and HyperEvo (MOSA-style many-objective search with
//! one objective per uncovered hypercoverage goal).

use super::coverage::{Goals, MAX_GOALS};
use super::exec::{Executor, Test, Verdict};
use super::inputs::PreSolver;
use super::shrink::shrink;
use super::{Strategy, TestOptions, TestReport};
use crate::cancel::Cancel;
use crate::ir::{Tuple, Type, VarId};
use crate::value::Value;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;

/// Consecutive failures to find an input satisfying `pre` before giving up.
const MAX_PRE_FAILURES: u32 = 30;
/// HyperEvo population size.
const POPULATION: usize = 16;
/// HyperEvo optimises at most this many uncovered goals at once.
const MAX_OBJECTIVES: usize = 1000;
/// Fuzzing keeps this many earlier inputs to mutate.
const POOL: usize = 64;

pub fn run(
    tuple: &Tuple,
    opts: &TestOptions,
    max_runs: Option<u64>,
    cancel: &Cancel,
) -> TestReport {
    let goals = Goals::new(tuple);
    let mut s = Search {
        tuple,
        goals: &goals,
        exec: Executor::new(tuple, &goals, cancel.clone()),
        pre: PreSolver::new(tuple, cancel),
        rng: ChaCha8Rng::seed_from_u64(opts.seed),
        // Beyond MAX_GOALS coverage is not tracked (reported as 0 covered).
        covered: vec![false; if goals.total <= MAX_GOALS { goals.total } else { 0 }],
        cancel,
        max_runs,
        pre_failures: 0,
        report: TestReport::new(goals.total),
    };
    match opts.strategy {
        Strategy::Fuzz => s.fuzz(),
        Strategy::Evo => s.evo(),
    }
    s.report.covered = s.covered.iter().filter(|c| **c).count();
    s.report
}

struct Search<'t> {
    tuple: &'t Tuple,
    goals: &'t Goals,
    exec: Executor<'t>,
    pre: PreSolver<'t>,
    rng: ChaCha8Rng,
    covered: Vec<bool>,
    cancel: &'t Cancel,
    max_runs: Option<u64>,
    pre_failures: u32,
    report: TestReport,
}

/// A tested individual of HyperEvo with its per-copy, per-point distances.
struct Individual {
    test: Test,
    distances: Vec<Vec<f64>>,
    rank: usize,
    crowding: f64,
}

impl Search<'_> {
    /// Whether the search should go on.
    fn going(&self) -> bool {
        self.report.counterexample.is_none()
            && self.report.stopped.is_none()
            && !self.cancel.is_cancelled()
            && self.max_runs.is_none_or(|m| self.report.runs < m)
    }

    /// Accepts a wished-for input if `pre` allows it, else repairs it with Z3 keeping
    /// the `fixed` variables; counts failures so an unsatisfiable `pre` ends the search.
    fn admit(&mut self, wish: Vec<Value>, fixed: &[usize]) -> Option<Vec<Value>> {
        match self.pre.solve(&wish, fixed, &mut self.rng) {
            Some(input) => {
                self.pre_failures = 0;
                Some(input)
            }
            None => {
                // Out of memory, Z3 fails every repair at once, and asking again only
                // grows the process (measured: 1 GB of address space a second).
                if crate::smt::memory::out_of_memory() {
                    self.report.stopped = Some(crate::smt::session::Why::MemoryOut.to_string());
                    return None;
                }
                self.pre_failures += 1;
                if self.pre_failures >= MAX_PRE_FAILURES {
                    self.report.stopped =
                        Some(format!("{MAX_PRE_FAILURES} attempts found no input satisfying pre"));
                }
                None
            }
        }
    }

    fn fresh(&mut self) -> Option<Test> {
        let wish = self.exec.values.random_input(self.tuple, &mut self.rng);
        let input = self.admit(wish, &[])?;
        Some(Test { input, choices: Vec::new(), seed: self.rng.next_u64() })
    }

    /// Single-memory mutation: change one or two variables of one copy's initial state
    /// (then repair `pre` keeping them), or perturb one ∀ copy's choices.
    fn mutate(&mut self, test: &Test) -> Option<Test> {
        let mut t = test.clone();
        let has_choices = t.choices.iter().any(|c| !c.is_empty());
        if has_choices && self.rng.gen_bool(0.3) {
            let nonempty: Vec<usize> =
                (0..t.choices.len()).filter(|&j| !t.choices[j].is_empty()).collect();
            let j = *nonempty.choose(&mut self.rng)?;
            let i = self.rng.gen_range(0..t.choices[j].len());
            if self.rng.gen_bool(0.5) {
                let ty = type_of(&t.choices[j][i]);
                t.choices[j][i] = self.exec.values.mutate(&t.choices[j][i], &ty, &mut self.rng);
            } else {
                // Keep a prefix, draw the rest afresh.
                t.choices[j].truncate(i);
                t.seed = self.rng.next_u64();
            }
            return Some(t);
        }
        let copy = self.rng.gen_range(0..self.tuple.copies.len());
        let vars = &self.tuple.copies[copy].vars;
        if vars.is_empty() {
            return Some(t);
        }
        let mut fixed = Vec::new();
        for _ in 0..self.rng.gen_range(1..=2) {
            let v = *vars.choose(&mut self.rng)?;
            let ty = &self.tuple.var(v).ty;
            t.input[v.index()] = self.exec.values.mutate(&t.input[v.index()], ty, &mut self.rng);
            fixed.push(v.index());
        }
        t.input = self.admit(t.input, &fixed)?;
        Some(t)
    }

    /// Pair-wise memory crossover: swap one variable's initial values between two tests.
    fn crossover(&mut self, a: &Test, b: &Test) -> (Option<Test>, Option<Test>) {
        let (mut x, mut y) = (a.clone(), b.clone());
        let v = self.rng.gen_range(0..self.tuple.vars.len().max(1));
        // A tuple without variables has nothing to swap (and nothing to fix).
        let fixed: Vec<usize> = (v < self.tuple.vars.len()).then_some(v).into_iter().collect();
        if !fixed.is_empty() {
            std::mem::swap(&mut x.input[v], &mut y.input[v]);
        }
        let x = self.admit(x.input.clone(), &fixed).map(|input| Test { input, ..x });
        let y = self.admit(y.input.clone(), &fixed).map(|input| Test { input, ..y });
        (x, y)
    }

    /// A variant of `test` whose tables give each index the copies read (`reads`) a
    /// value of its own (`tables`), half of the time; `None` when nothing changed.
    fn spread(&mut self, test: &Test, reads: &[(VarId, Value)]) -> Option<Test> {
        if reads.is_empty() || !self.rng.gen_bool(0.5) {
            return None;
        }
        let mut t = test.clone();
        let salt = self.rng.next_u64();
        if !self.exec.tables.spread(self.tuple, &mut t.input, reads, &self.exec.values, salt) {
            return None;
        }
        let fixed: Vec<usize> = self.exec.tables.vars().iter().map(|v| v.index()).collect();
        t.input = self.admit(t.input, &fixed)?;
        Some(t)
    }

    /// Executes a test and its spread variant (`spread`), if any; the distances of the
    /// first.
    fn evaluate(&mut self, test: &mut Test, distances: bool) -> Vec<Vec<f64>> {
        let (d, reads) = self.evaluate_one(test, distances);
        if let Some(mut spread) = self.spread(test, &reads) {
            if self.going() {
                self.evaluate_one(&mut spread, false);
            }
        }
        d
    }

    /// Executes a test, records coverage, and on a violation replays it.
    fn evaluate_one(
        &mut self,
        test: &mut Test,
        distances: bool,
    ) -> (Vec<Vec<f64>>, Vec<(VarId, Value)>) {
        self.report.runs += 1;
        let out = self.exec.execute(test, distances);
        if !self.covered.is_empty() {
            self.goals.covered_by(&out.hits, &mut self.covered);
        }
        match out.verdict {
            Verdict::Pass => {}
            Verdict::Vacuous => self.report.vacuous += 1,
            Verdict::NoRun => self.report.no_run += 1,
            Verdict::Undecided => self.report.undecided += 1,
            Verdict::Violation { .. } => {
                let small = shrink(&mut self.exec, test);
                let cex = self.exec.replay(&small).or_else(|_| self.exec.replay(test));
                match cex {
                    // The refuter's replay re-checks it independently (the ∃ side anew).
                    Ok(cex)
                        if crate::refute::replay_counterexample(self.tuple, &cex, self.cancel)
                            .is_ok() =>
                    {
                        self.report.counterexample = Some(cex)
                    }
                    // A violation that does not replay is never reported.
                    _ => self.report.undecided += 1,
                }
            }
        }
        (out.distances, out.reads)
    }

    fn fuzz(&mut self) {
        let mut pool: Vec<Test> = Vec::new();
        while self.going() {
            let candidate = if pool.is_empty() || self.rng.gen_bool(0.5) {
                self.fresh()
            } else {
                let parent = pool[self.rng.gen_range(0..pool.len())].clone();
                self.mutate(&parent)
            };
            let Some(mut test) = candidate else { continue };
            self.evaluate(&mut test, false);
            if pool.len() < POOL {
                pool.push(test);
            } else {
                let i = self.rng.gen_range(0..POOL);
                pool[i] = test;
            }
        }
    }

    fn evo(&mut self) {
        let mut pop: Vec<Individual> = Vec::new();
        while pop.len() < POPULATION && self.going() {
            if let Some(mut test) = self.fresh() {
                let distances = self.evaluate(&mut test, true);
                pop.push(Individual { test, distances, rank: 0, crowding: 0.0 });
            }
        }
        while self.going() && !pop.is_empty() {
            let mut offspring: Vec<Individual> = Vec::new();
            while offspring.len() < POPULATION && self.going() {
                let a = self.tournament(&pop);
                let b = self.tournament(&pop);
                let (x, y) = if self.rng.gen_bool(0.75) {
                    self.crossover(&pop[a].test, &pop[b].test)
                } else {
                    (Some(pop[a].test.clone()), Some(pop[b].test.clone()))
                };
                for child in [x, y].into_iter().flatten() {
                    // A few fresh individuals keep the population from collapsing.
                    let child =
                        if self.rng.gen_bool(0.1) { self.fresh() } else { self.mutate(&child) };
                    let Some(mut test) = child else { continue };
                    if !self.going() {
                        break;
                    }
                    let distances = self.evaluate(&mut test, true);
                    offspring.push(Individual { test, distances, rank: 0, crowding: 0.0 });
                }
            }
            pop.extend(offspring);
            pop = self.select(pop);
        }
    }

    fn tournament(&mut self, pop: &[Individual]) -> usize {
        let a = self.rng.gen_range(0..pop.len());
        let b = self.rng.gen_range(0..pop.len());
        let better = |x: &Individual, y: &Individual| {
            x.rank < y.rank || (x.rank == y.rank && x.crowding > y.crowding)
        };
        if better(&pop[b], &pop[a]) {
            b
        } else {
            a
        }
    }

    /// MOSA's preference sorting over the uncovered goals, then crowding distance.
    fn select(&mut self, union: Vec<Individual>) -> Vec<Individual> {
        let uncovered: Vec<Vec<usize>> = (0..self.covered.len())
            .filter(|&g| !self.covered[g])
            // Many-objective sorting costs objectives × population²: bound the objectives.
            .take(MAX_OBJECTIVES)
            .map(|g| self.goals.decode(g))
            .collect();
        if uncovered.is_empty() {
            // Everything covered: keep the newest individuals, for variety.
            let skip = union.len().saturating_sub(POPULATION);
            return union.into_iter().skip(skip).collect();
        }
        let objectives: Vec<Vec<f64>> = union
            .iter()
            .map(|ind| {
                uncovered
                    .iter()
                    .map(|goal| {
                        goal.iter()
                            .enumerate()
                            .map(|(j, &p)| ind.distances[j].get(p).copied().unwrap_or(1.0))
                            .sum()
                    })
                    .collect()
            })
            .collect();
        let fronts = preference_sort(&objectives);
        let mut union: Vec<Option<Individual>> = union.into_iter().map(Some).collect();
        let mut next = Vec::new();
        for (rank, front) in fronts.into_iter().enumerate() {
            if next.len() >= POPULATION {
                break;
            }
            let crowd = crowding(&front, &objectives);
            let mut order: Vec<usize> = (0..front.len()).collect();
            order.sort_by(|&x, &y| crowd[y].partial_cmp(&crowd[x]).unwrap_or(Ordering::Equal));
            for k in order {
                if next.len() >= POPULATION {
                    break;
                }
                if let Some(mut ind) = union[front[k]].take() {
                    ind.rank = rank;
                    ind.crowding = crowd[k];
                    next.push(ind);
                }
            }
        }
        next
    }
}

/// Front 0: for each objective, the individual minimising it; the rest by
/// non-dominated sorting.
// `g` indexes the objective within every row, which an iterator cannot express.
#[allow(clippy::needless_range_loop)]
fn preference_sort(obj: &[Vec<f64>]) -> Vec<Vec<usize>> {
    let n = obj.len();
    let m = obj.first().map_or(0, |o| o.len());
    let mut first: Vec<usize> = Vec::new();
    for g in 0..m {
        let best =
            (0..n).min_by(|&a, &b| obj[a][g].partial_cmp(&obj[b][g]).unwrap_or(Ordering::Equal));
        if let Some(b) = best {
            if !first.contains(&b) {
                first.push(b);
            }
        }
    }
    first.sort_unstable();
    let mut fronts = vec![first.clone()];
    let mut rest: Vec<usize> = (0..n).filter(|i| !first.contains(i)).collect();
    let dominates = |a: usize, b: usize| {
        obj[a].iter().zip(&obj[b]).all(|(x, y)| x <= y)
            && obj[a].iter().zip(&obj[b]).any(|(x, y)| x < y)
    };
    while !rest.is_empty() {
        let front: Vec<usize> =
            rest.iter().copied().filter(|&a| !rest.iter().any(|&b| dominates(b, a))).collect();
        rest.retain(|i| !front.contains(i));
        fronts.push(front);
    }
    fronts
}

/// NSGA-II crowding distance of each member of `front`.
#[allow(clippy::needless_range_loop)]
fn crowding(front: &[usize], obj: &[Vec<f64>]) -> Vec<f64> {
    let mut d = vec![0.0; front.len()];
    if front.len() <= 2 {
        return vec![f64::INFINITY; front.len()];
    }
    let m = obj[front[0]].len();
    let mut order: Vec<usize> = (0..front.len()).collect();
    for g in 0..m {
        order.sort_by(|&a, &b| {
            obj[front[a]][g].partial_cmp(&obj[front[b]][g]).unwrap_or(Ordering::Equal)
        });
        let lo = obj[front[order[0]]][g];
        let hi = obj[front[order[front.len() - 1]]][g];
        d[order[0]] = f64::INFINITY;
        d[order[front.len() - 1]] = f64::INFINITY;
        if hi > lo {
            for w in 1..front.len() - 1 {
                let span = obj[front[order[w + 1]]][g] - obj[front[order[w - 1]]][g];
                d[order[w]] += span / (hi - lo);
            }
        }
    }
    d
}

fn type_of(v: &Value) -> Type {
    match v {
        Value::Int { .. } => Type::Int,
        Value::Bool { .. } => Type::Bool,
        Value::Bv { width, .. } => Type::Bv(*width),
        Value::Str { .. } => Type::Str,
        Value::Float { kind, .. } => Type::Float(*kind),
        Value::Array { default, .. } => Type::Array(Box::new(type_of(default))),
    }
}
