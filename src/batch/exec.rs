//! Running tuples in parallel and collecting their outcomes in input order.
//!
//! `jobs` lanes, each a long-lived engine worker (`portfolio::workers`) that keeps its
//! thread-local Z3 context between tuples, take tuples from one shared queue
//! (probably-longest first) and decide each on a core of the batch's `CoreBudget`, which
//! the portfolios' second engines share: `--jobs N` keeps at most N engines computing.
//! A lane takes its next tuple itself, so no tuple waits for the coordinating thread.
//! Terms never cross threads: each lane builds its own, and drops them when the tuple
//! ends. The coordinating thread receives outcomes over a channel, draws progress and
//! enforces stopping: on Ctrl-C or `--fail-fast` it cancels the batch's token (which
//! interrupts the lanes' Z3 contexts, see `crate::interrupt`), and after a grace period stops
//! waiting for them. Every tuple, a lone one too, runs on a lane: measured on `forex prove
//! examples/ni.fe`, 100 runs, the hand-off is lost in the noise (1.36–1.50 s against
//! 1.35–1.46 s on the calling thread), and it lets this thread keep the deadline promise
//! (`HARD_MARGIN`).

use super::progress::Progress;
use super::Entry;
use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::portfolio::cores::CoreBudget;
use crate::portfolio::workers;
use crate::report::{Report, Status, Stop, TupleResult};
use crate::verdict::{Engine, Outcome, Stats, UnknownReason, Verdict};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Decides one tuple under a token that carries its deadline and cancellation.
pub type Decider = Arc<dyn Fn(&Tuple, &Cancel) -> Outcome + Send + Sync>;

#[derive(Clone, Debug)]
pub struct ExecOptions {
    /// Engines computing at the same time (at least 1): tuples, and the second engines of
    /// their portfolios when these take their cores from `cores`.
    pub jobs: usize,
    /// The cores shared with the deciders' portfolios (`DecideOptions::cores`); none: a
    /// budget of `jobs` cores of the batch's own.
    pub cores: Option<Arc<CoreBudget>>,
    /// Wall-clock limit per tuple.
    pub timeout: Duration,
    pub fail_fast: bool,
    pub progress: bool,
    /// How long to wait for running tuples after a stop before giving up on them.
    pub grace: Duration,
}

/// How long past its deadline a tuple may run before the batch stops waiting for it.
/// Engines answer their token within milliseconds; only a Z3 call that does not poll
/// its interrupt (some preprocessing of huge terms) outlives the deadline, and the
/// report must not wait for it: the tuple is `unknown` (timeout), its lane abandoned.
pub const HARD_MARGIN: Duration = Duration::from_secs(2);

/// A tuple being decided, as the coordinating thread sees it.
struct Running {
    index: usize,
    name: String,
    started: Instant,
}

/// What the lanes tell the coordinating thread.
enum Event {
    Started(usize, Instant),
    /// A tuple's outcome (a deadline already noted in its reason).
    Done(usize, Box<Outcome>),
}

fn internal_error(reason: UnknownReason) -> Outcome {
    Outcome {
        verdict: Verdict::Unknown { reason },
        engine: Engine::Prove,
        time: Duration::ZERO,
        stats: Stats::default(),
    }
}

/// Decides one tuple on the calling thread; an engine panic is an `unknown`. A cancelled
/// token (Ctrl-C, fail-fast, deadline) interrupts Z3 at once: each engine registers it
/// with the interrupt watcher (`smt::session::engine_scope`).
fn run_one(tuple: &Tuple, cancel: &Cancel, decide: &Decider) -> Outcome {
    let start = Instant::now();
    let mut outcome =
        catch_unwind(AssertUnwindSafe(|| decide(tuple, cancel))).unwrap_or_else(|p| {
            let message = crate::portfolio::panic_message(&*p);
            internal_error(crate::smt::session::panic_reason(cancel, &message))
        });
    // The report's time is the tuple's wall-clock time, whatever the engines count.
    outcome.time = start.elapsed();
    if let (Verdict::Violated { counterexample }, Some(view)) =
        (&mut outcome.verdict, &tuple.c_view)
    {
        counterexample.c_types = Some(view.copies.clone());
        if let Some(why) = undefined_behaviour(view, counterexample) {
            counterexample.explanation = format!("{why}; {}", counterexample.explanation);
        }
    }
    outcome
}

/// The tuples still to decide, by entry index, in the order lanes take them.
type Queue = Arc<Mutex<VecDeque<(usize, Arc<Tuple>)>>>;

/// What a lane needs to decide tuples: the queue it takes them from and where it says
/// what it did.
struct Lane {
    queue: Queue,
    /// Tuples taken from the queue whose outcome has not been sent yet.
    in_flight: Arc<AtomicUsize>,
    cores: Arc<CoreBudget>,
    /// The batch's token: cancelled on Ctrl-C and fail-fast; each tuple gets a child.
    batch: Cancel,
    timeout: Duration,
    /// A violation stops the batch: no lane takes another tuple.
    fail_fast: bool,
    decide: Decider,
    tx: mpsc::Sender<Event>,
    /// A lane started in place of an abandoned one: it takes its core even when the
    /// abandoned lane still holds one (that lane's engine no longer computes much).
    spare: bool,
}

impl Lane {
    /// Decides tuples from the queue, one at a time on a core of the budget, until the
    /// queue is empty or the batch stops. The lane takes its next tuple itself: a round
    /// trip through the coordinating thread between tuples cost a thread wake-up each
    /// (on these virtual machines up to milliseconds, as long as a short tuple).
    fn run(self) {
        loop {
            let core = if self.spare { self.cores.take_anyway() } else { self.cores.take() };
            if self.batch.is_cancelled() {
                return;
            }
            let next = {
                let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                let next = queue.pop_front();
                // Under the queue's lock, so that the coordinating thread never sees a
                // tuple neither queued nor in flight.
                if next.is_some() {
                    self.in_flight.fetch_add(1, Ordering::SeqCst);
                }
                next
            };
            let Some((index, tuple)) = next else { return };
            let cancel = self.batch.with_timeout(self.timeout);
            let _ = self.tx.send(Event::Started(index, Instant::now()));
            let outcome = run_one(&tuple, &cancel, &self.decide);
            drop(core);
            let outcome = note_timeout(outcome, &cancel, self.timeout);
            if self.fail_fast && matches!(outcome.verdict, Verdict::Violated { .. }) {
                self.batch.cancel();
            }
            let _ = self.tx.send(Event::Done(index, Box::new(outcome)));
            // After the send: the coordinating thread may count this tuple in flight a
            // moment too long (it waits once more), never too short.
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The outcome of a tuple whose engines were still running `HARD_MARGIN` past its
/// deadline.
fn abandoned_outcome(timeout: Duration, time: Duration) -> Outcome {
    let during = UnknownReason::Internal(format!(
        "the solver did not answer its interrupt within {} s of the deadline; its work \
         was abandoned",
        HARD_MARGIN.as_secs()
    ));
    Outcome {
        verdict: Verdict::Unknown {
            reason: UnknownReason::Timeout { limit: timeout, during: Box::new(during) },
        },
        engine: Engine::Prove,
        time,
        stats: Stats::default(),
    }
}

/// Makes sure an `unknown` caused by the deadline says so, whatever the engine wrote.
fn note_timeout(mut outcome: Outcome, cancel: &Cancel, timeout: Duration) -> Outcome {
    if let Verdict::Unknown { reason } = &mut outcome.verdict {
        if cancel.timed_out() && !reason.is_timeout() {
            let during = Box::new(reason.clone());
            *reason = UnknownReason::Timeout { limit: timeout, during };
        }
    }
    outcome
}

fn notice_interrupt(root: &Cancel, stopped: &mut Option<(Stop, Instant)>, progress: &Progress) {
    if stopped.is_none() && root.is_cancelled() {
        *stopped = Some((Stop::Interrupted, Instant::now()));
        progress.println("interrupted: stopping the running tuples");
    }
}

/// A tuple still to decide: its file, the tuple, and the outcome its file expects.
type Pending = (String, Arc<Tuple>, Option<crate::ir::ExpectedOutcome>);

/// Decides every `Todo` entry with `decide` and returns the report in entry order.
/// `root` is the batch's token: cancelling it (Ctrl-C) stops the batch; the tuples that
/// finished are reported, the others listed as not finished.
pub fn execute(entries: Vec<Entry>, opts: &ExecOptions, root: &Cancel, decide: Decider) -> Report {
    let start = Instant::now();
    let n = entries.len();
    let mut results: Vec<Option<TupleResult>> = Vec::with_capacity(n);
    let mut todo: Vec<Option<Pending>> = Vec::with_capacity(n);
    for e in entries {
        match e {
            Entry::Done(r) => {
                results.push(Some(r));
                todo.push(None);
            }
            Entry::Todo { file, tuple, expected } => {
                results.push(None);
                todo.push(Some((file, tuple, expected)));
            }
        }
    }
    // Probably-longest first (stable: equal estimates keep input order), so that no
    // long tuple is left to run alone at the end; see [`super::cost`].
    let mut order: Vec<(u64, usize)> = (0..n)
        .filter_map(|i| todo[i].as_ref().map(|(_, t, _)| (super::cost::estimate(t), i)))
        .collect();
    order.sort_by_key(|&(cost, i)| (std::cmp::Reverse(cost), i));
    if std::env::var_os("FOREX_DEBUG_COST").is_some() {
        for (cost, i) in &order {
            eprintln!("cost {cost} {}", todo[*i].as_ref().map_or("", |(_, t, _)| t.name.as_str()));
        }
    }
    let mut notes: Vec<String> = Vec::new();
    // One warning per file naming its uninterpreted library functions (LANGUAGE.md).
    let mut uninterpreted: Vec<(String, std::collections::BTreeSet<String>)> = Vec::new();
    for (file, tuple, _) in todo.iter().flatten() {
        if let Some(view) = &tuple.c_view {
            let note = format!("{file}: {}", view.model.describe());
            if !notes.contains(&note) {
                notes.push(note);
            }
            if !view.uninterpreted.is_empty() {
                let name = file.to_string();
                let at = match uninterpreted.iter().position(|(f, _)| *f == name) {
                    Some(i) => i,
                    None => {
                        uninterpreted.push((name, Default::default()));
                        uninterpreted.len() - 1
                    }
                };
                uninterpreted[at].1.extend(view.uninterpreted.iter().cloned());
            }
        }
    }
    for (file, names) in uninterpreted {
        let names: Vec<String> = names.into_iter().collect();
        notes.push(format!(
            "{file}: warning: library functions without a model are uninterpreted (the same \
             arguments give the same result in every call and copy): {}",
            names.join(", ")
        ));
    }
    let mut queue: VecDeque<usize> = order.into_iter().map(|(_, i)| i).collect();
    let mut progress = Progress::new(opts.progress, queue.len());
    let (tx, rx) = mpsc::channel::<Event>();
    let mut running: Vec<Running> = Vec::new();
    let mut stopped: Option<(Stop, Instant)> = None;
    let cores = opts.cores.clone().unwrap_or_else(|| CoreBudget::new(opts.jobs));
    let batch = root.child();

    // Every tuple, a lone one too, is decided on a lane so that this thread can keep its
    // promise of a deadline: a tuple still running `HARD_MARGIN` past its timeout (an
    // engine stuck in a Z3 call that ignores interrupts) is reported unknown and its lane
    // abandoned, and a spare lane takes the rest of the queue.
    let shared: VecDeque<(usize, Arc<Tuple>)> = queue
        .drain(..)
        .map(|i| (i, todo[i].as_ref().expect("queued entries are todo").1.clone()))
        .collect();
    let mut pending = shared.len();
    let lanes = opts.jobs.max(1).min(shared.len());
    let shared = Arc::new(Mutex::new(shared));
    let in_flight = Arc::new(AtomicUsize::new(0));
    let start_lane = |spare: bool| {
        let lane = Lane {
            queue: shared.clone(),
            in_flight: in_flight.clone(),
            cores: cores.clone(),
            batch: batch.clone(),
            timeout: opts.timeout,
            fail_fast: opts.fail_fast,
            decide: decide.clone(),
            tx: tx.clone(),
            spare,
        };
        workers::submit(Box::new(move || {
            lane.run();
            Box::new(|| ())
        }));
    };
    for _ in 0..lanes {
        start_lane(false);
    }
    let hard_deadline = opts.timeout.saturating_add(HARD_MARGIN);
    // Abandoned tuples whose lanes have not come back: they still count in `in_flight`.
    let mut abandoned: Vec<usize> = Vec::new();

    while pending > 0 {
        notice_interrupt(root, &mut stopped, &progress);
        if stopped.is_some() {
            batch.cancel();
        }
        if let Some((_, at)) = stopped {
            if at.elapsed() > opts.grace {
                // Engines that ignore cancellation do not hold the report hostage.
                break;
            }
        }
        // No lane will send anything more: every tuple taken has been sent back (or was
        // abandoned), and none will be taken (the queue is empty or the batch stopped).
        // What they sent is in the channel; once it is read, the batch is over.
        let idle = {
            let q = shared.lock().unwrap_or_else(|e| e.into_inner());
            in_flight.load(Ordering::SeqCst) <= abandoned.len()
                && (q.is_empty() || stopped.is_some())
        };
        let received = if idle {
            match rx.try_recv() {
                Ok(event) => Ok(event),
                Err(_) => break,
            }
        } else {
            rx.recv_timeout(Duration::from_millis(100))
        };
        // Before judging the outcome: it may be unknown only because of the Ctrl-C.
        notice_interrupt(root, &mut stopped, &progress);
        match received {
            Ok(Event::Started(index, started)) => {
                if todo[index].is_some() {
                    let name =
                        todo[index].as_ref().map_or(String::new(), |(_, t, _)| t.name.clone());
                    running.push(Running { index, name, started });
                }
            }
            Ok(Event::Done(i, outcome)) => {
                running.retain(|r| r.index != i);
                if todo[i].is_none() {
                    // An abandoned tuple's late outcome: already reported as a timeout.
                    abandoned.retain(|&a| a != i);
                    continue;
                }
                // A tuple cut short by the stop did not finish: it is listed, not reported.
                let cut_short = stopped.is_some() && !outcome.verdict.is_definitive();
                if !cut_short {
                    pending -= 1;
                    progress.record(outcome.verdict.kind());
                    let violated = matches!(outcome.verdict, Verdict::Violated { .. });
                    let (file, tuple, expected) = todo[i].take().expect("a todo entry");
                    results[i] = Some(TupleResult {
                        file,
                        tuple: Some(tuple.name.clone()),
                        loc: Some(tuple.loc),
                        status: Status::Done(*outcome),
                        expected,
                    });
                    if violated && opts.fail_fast && stopped.is_none() {
                        stopped = Some((Stop::FailFast, Instant::now()));
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if stopped.is_none() {
            let overdue: Vec<(usize, Instant)> = running
                .iter()
                .filter(|r| r.started.elapsed() > hard_deadline)
                .map(|r| (r.index, r.started))
                .collect();
            for (i, started) in overdue {
                running.retain(|r| r.index != i);
                let (file, tuple, expected) = todo[i].take().expect("a running entry");
                pending -= 1;
                abandoned.push(i);
                let outcome = abandoned_outcome(opts.timeout, started.elapsed());
                progress.record(outcome.verdict.kind());
                results[i] = Some(TupleResult {
                    file,
                    tuple: Some(tuple.name.clone()),
                    loc: Some(tuple.loc),
                    status: Status::Done(outcome),
                    expected,
                });
                start_lane(true);
            }
        }
        let longest =
            running.iter().min_by_key(|r| r.started).map(|r| (r.name.as_str(), r.started));
        progress.update(longest);
    }
    progress.finish();

    let not_run =
        todo.iter().flatten().map(|(file, tuple, _)| format!("{file}: {}", tuple.name)).collect();
    Report {
        notes,
        results: results.into_iter().flatten().collect(),
        not_run,
        stopped: stopped.map(|(s, _)| s),
        time: start.elapsed(),
    }
}

/// The undefined behaviour a C counterexample's ∀ run reaches (its `$ub` site), as the
/// report's reason: `undefined behaviour in copy a: null dereference at line 7:5`.
fn undefined_behaviour(
    view: &crate::ir::c::CView,
    cex: &crate::verdict::Counterexample,
) -> Option<String> {
    use num_traits::ToPrimitive;
    for run in &cex.copies {
        if run.quantifier != crate::ir::Quantifier::Forall {
            continue;
        }
        let k = match run.final_state.as_ref()?.get(crate::ir::c::UB_VAR)? {
            crate::value::Value::Int { value } => value.to_usize()?,
            crate::value::Value::Bv { value, .. } => usize::try_from(*value).ok()?,
            _ => continue,
        };
        let Some(site) = k.checked_sub(1).and_then(|i| view.ub.get(&run.copy)?.get(i)) else {
            continue;
        };
        let what = if site.kind == "assertion failed" {
            format!("assertion failed in copy `{}`", run.copy)
        } else {
            format!("undefined behaviour in copy `{}`: {}", run.copy, site.kind)
        };
        return Some(format!("{what} at line {}:{}", site.line, site.col));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, Hints, Loc};
    use crate::verdict::{Counterexample, Proof};
    use std::sync::atomic::{AtomicBool, Ordering};

    fn tuple(name: &str, line: u32) -> Arc<Tuple> {
        Arc::new(Tuple {
            name: name.into(),
            file: "t.fe".into(),
            loc: Loc { line, col: 1 },
            copies: vec![],
            vars: vec![],
            pre: Expr::bool(true),
            post: Expr::bool(true),
            kind: Default::default(),
            observations: None,
            hints: Hints::default(),
            c_view: None,
        })
    }

    fn entries(names: &[&str]) -> Vec<Entry> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| Entry::Todo {
                file: "t.fe".into(),
                tuple: tuple(n, i as u32 + 1),
                expected: None,
            })
            .collect()
    }

    fn outcome(verdict: Verdict) -> Outcome {
        Outcome {
            verdict,
            engine: Engine::Refute,
            time: Duration::from_millis(1),
            stats: Stats::default(),
        }
    }

    /// Verdicts by name prefix; `sN_` sleeps N×10 ms first (so finishing order differs
    /// from input order); `slow` waits for cancellation; `panic` panics.
    fn fake() -> Decider {
        Arc::new(|t: &Tuple, cancel: &Cancel| {
            let mut name = t.name.as_str();
            if let Some(rest) = name.strip_prefix('s') {
                if let Some((n, tail)) = rest.split_once('_') {
                    std::thread::sleep(Duration::from_millis(n.parse::<u64>().unwrap() * 10));
                    name = tail;
                }
            }
            if name.starts_with("ok") {
                outcome(Verdict::Verified { proof: Proof::default() })
            } else if name.starts_with("bad") {
                let counterexample = Counterexample {
                    copies: vec![],
                    explanation: "x".into(),
                    violated_conjunct: None,
                    c_types: None,
                    observations: None,
                };
                outcome(Verdict::Violated { counterexample })
            } else if name.starts_with("slow") {
                while !cancel.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                outcome(Verdict::Unknown { reason: UnknownReason::Cancelled("cancelled".into()) })
            } else if name.starts_with("panic") {
                panic!("engine bug");
            } else {
                outcome(Verdict::Unknown { reason: UnknownReason::Internal("no idea".into()) })
            }
        })
    }

    fn opts(jobs: usize) -> ExecOptions {
        ExecOptions {
            jobs,
            cores: None,
            timeout: Duration::from_secs(600),
            fail_fast: false,
            progress: false,
            grace: Duration::from_secs(600),
        }
    }

    fn summary(r: &Report) -> Vec<(String, &'static str)> {
        r.results.iter().map(|r| (r.display_name(), r.verdict_name())).collect()
    }

    #[test]
    fn input_order_whatever_the_finishing_order() {
        let names = ["s9_ok1", "s1_bad", "s5_huh", "ok2", "s3_ok3"];
        let expected: Vec<(String, &str)> = names
            .iter()
            .zip(["verified", "violated", "unknown", "verified", "verified"])
            .map(|(n, v)| (n.to_string(), v))
            .collect();
        for jobs in [1, 2, 5] {
            let r = execute(entries(&names), &opts(jobs), &Cancel::new(), fake());
            assert_eq!(summary(&r), expected, "jobs {jobs}");
            assert_eq!(r.results[1].location(), "t.fe:2");
            assert!(r.stopped.is_none() && r.not_run.is_empty());
            assert_eq!(r.exit_code(), 2);
        }
    }

    #[test]
    fn finished_entries_keep_their_place() {
        let mut es = entries(&["ok1", "bad"]);
        let err = TupleResult {
            file: "broken.fe".into(),
            tuple: None,
            loc: None,
            status: Status::Error { reason: "broken".into() },
            expected: None,
        };
        es.insert(1, Entry::Done(err));
        let r = execute(es, &opts(2), &Cancel::new(), fake());
        let got: Vec<_> = r.results.iter().map(|r| r.verdict_name()).collect();
        assert_eq!(got, ["verified", "error", "violated"]);
        assert_eq!(r.exit_code(), 3);
    }

    #[test]
    fn deadline_gives_unknown_with_timeout() {
        let o = ExecOptions { timeout: Duration::from_millis(30), ..opts(2) };
        let r = execute(entries(&["slow", "ok"]), &o, &Cancel::new(), fake());
        assert_eq!(r.results[0].verdict_name(), "unknown");
        let reason = r.results[0].reason().unwrap();
        assert!(reason.contains("timeout"), "{reason}");
        assert!(reason.contains("cancelled"), "the engine's reason is kept: {reason}");
        assert_eq!(r.results[1].verdict_name(), "verified");
    }

    #[test]
    fn fail_fast_stops_after_the_first_violation() {
        let o = ExecOptions { fail_fast: true, ..opts(1) };
        let r = execute(entries(&["ok1", "bad", "ok2", "slow"]), &o, &Cancel::new(), fake());
        assert_eq!(summary(&r), [("ok1".into(), "verified"), ("bad".into(), "violated")]);
        assert_eq!(r.stopped, Some(Stop::FailFast));
        assert_eq!(r.not_run, ["t.fe: ok2", "t.fe: slow"]);
        assert_eq!(r.exit_code(), 1);
        // A running tuple is cancelled too.
        let o = ExecOptions { fail_fast: true, ..opts(2) };
        let r = execute(entries(&["slow", "s2_bad", "ok"]), &o, &Cancel::new(), fake());
        assert_eq!(summary(&r), [("s2_bad".into(), "violated")]);
        assert_eq!(r.not_run, ["t.fe: slow", "t.fe: ok"]);
    }

    #[test]
    fn interrupt_reports_what_finished() {
        let root = Cancel::new();
        let trigger = root.clone();
        let d = fake();
        let decide: Decider = Arc::new(move |t: &Tuple, c: &Cancel| {
            if t.name == "s1_stop" {
                trigger.cancel(); // Ctrl-C while `slow` runs
            }
            d(t, c)
        });
        let r = execute(entries(&["ok1", "slow", "s1_stop", "ok2"]), &opts(2), &root, decide);
        assert_eq!(r.stopped, Some(Stop::Interrupted));
        assert_eq!(r.results[0].display_name(), "ok1");
        assert!(r.not_run.contains(&"t.fe: slow".to_string()));
        assert!(r.not_run.contains(&"t.fe: ok2".to_string()));
        assert_eq!(r.results.len() + r.not_run.len(), 4);
        assert!(r.exit_code() >= 2);
    }

    #[test]
    fn a_panicking_engine_is_an_unknown_with_the_message() {
        let r = execute(entries(&["panic", "ok"]), &opts(1), &Cancel::new(), fake());
        assert_eq!(summary(&r), [("panic".into(), "unknown"), ("ok".into(), "verified")]);
        let reason = r.results[0].reason().unwrap();
        assert!(reason.contains("internal error") && reason.contains("engine bug"), "{reason}");
    }

    #[test]
    fn engines_that_ignore_cancellation_are_abandoned_after_the_grace() {
        let root = Cancel::new();
        let trigger = root.clone();
        let decide: Decider = Arc::new(move |t: &Tuple, _: &Cancel| {
            if t.name == "stuck" {
                trigger.cancel();
                std::thread::sleep(Duration::from_secs(30));
            }
            outcome(Verdict::Unknown { reason: UnknownReason::Internal("late".into()) })
        });
        let o = ExecOptions { grace: Duration::from_millis(50), ..opts(1) };
        let r = execute(entries(&["stuck", "never"]), &o, &root, decide);
        assert!(r.results.is_empty());
        assert_eq!(r.not_run, ["t.fe: stuck", "t.fe: never"]);
    }

    /// An engine that ignores its deadline (a Z3 call that does not poll the interrupt)
    /// does not hold the report: `HARD_MARGIN` past the timeout its tuple is unknown
    /// (timeout) and a spare lane decides the rest, a lone tuple included.
    #[test]
    fn a_tuple_past_its_hard_deadline_is_abandoned() {
        let decide: Decider = Arc::new(move |t: &Tuple, c: &Cancel| {
            if t.name == "stuck" {
                std::thread::sleep(Duration::from_secs(60));
            }
            fake()(t, c)
        });
        for names in [&["stuck"][..], &["stuck", "ok", "bad"][..]] {
            let o = ExecOptions { timeout: Duration::from_millis(100), ..opts(1) };
            let started = Instant::now();
            let r = execute(entries(names), &o, &Cancel::new(), decide.clone());
            assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
            let got: Vec<_> = r.results.iter().map(|r| r.verdict_name()).collect();
            assert_eq!(got, ["unknown", "verified", "violated"][..names.len()]);
            let reason = r.results[0].reason().unwrap();
            assert!(reason.contains("timeout") && reason.contains("abandoned"), "{reason}");
            assert!(r.not_run.is_empty() && r.stopped.is_none());
        }
    }

    /// A Z3 query with no timeout of its own is interrupted when the batch stops, so
    /// Ctrl-C is prompt even inside the solver. (Without the interrupt this test would
    /// wait for the grace period, 10 minutes, and then fail.)
    #[test]
    fn a_running_z3_query_is_interrupted() {
        let root = Cancel::new();
        let returned = Arc::new(AtomicBool::new(false));
        let (flag, trigger) = (returned.clone(), root.clone());
        let decide: Decider = Arc::new(move |_: &Tuple, c: &Cancel| {
            // As every engine does on entry.
            let _scope = crate::smt::session::engine_scope(c, None, "fermat", "test");
            let solver = crate::smt::session::solver();
            // x³ + y³ = z³ in positive integers: no solution, and none Z3 can find fast.
            solver.from_string(
                "(declare-const x Int) (declare-const y Int) (declare-const z Int) \
                 (assert (and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z))))",
            );
            let t = trigger.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                t.cancel();
            });
            let result = solver.check();
            flag.store(true, Ordering::SeqCst);
            assert_eq!(result, z3::SatResult::Unknown);
            outcome(Verdict::Unknown { reason: UnknownReason::Cancelled("interrupted".into()) })
        });
        let r = execute(entries(&["fermat"]), &opts(1), &root, decide);
        assert!(returned.load(Ordering::SeqCst), "the query came back");
        assert_eq!(r.stopped, Some(Stop::Interrupted));
        assert_eq!(r.not_run, ["t.fe: fermat"]);
    }
}
