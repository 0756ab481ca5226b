//! Runs prover and refuter on one tuple concurrently; the first definitive answer wins
//! and the other engine is cancelled.
//!
//! The prover runs on the calling thread and the refuter on a pooled worker thread;
//! each builds its terms in its own thread's Z3 context and runs under its own child
//! cancellation token (also wired to Z3 interrupts). Two `unknown`s never become a
//! definitive answer: the result is then `unknown` with both reasons.

use crate::cancel::Cancel;
use crate::interrupt;
use crate::ir::Tuple;
use crate::prove::{prove, ProveOptions};
use crate::refute::{refute, RefuteOptions};
use crate::verdict::{Engine, Outcome, Stats, UnknownReason, Verdict};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    Prove,
    Refute,
    #[default]
    Both,
}

impl std::str::FromStr for EngineChoice {
    type Err = String;
    /// `prove`, `refute` or `both` (any case), as the command line spells them.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "prove" => Ok(EngineChoice::Prove),
            "refute" => Ok(EngineChoice::Refute),
            "both" => Ok(EngineChoice::Both),
            _ => Err(format!("unknown engine `{s}` (prove, refute, both)")),
        }
    }
}

#[derive(Clone, Debug)]
pub struct DecideOptions {
    pub engine: EngineChoice,
    /// Wall-clock limit for the tuple.
    pub timeout: Duration,
    pub prove: ProveOptions,
    pub refute: RefuteOptions,
}

impl Default for DecideOptions {
    fn default() -> Self {
        DecideOptions {
            engine: EngineChoice::Both,
            timeout: Duration::from_secs(60),
            prove: ProveOptions::default(),
            refute: RefuteOptions::default(),
        }
    }
}

/// Decides one tuple with the chosen engines under `opts.timeout` and `cancel`.
pub fn decide(tuple: &Tuple, opts: &DecideOptions, cancel: &Cancel) -> Outcome {
    let cancel = cancel.with_timeout(opts.timeout);
    match opts.engine {
        EngineChoice::Prove => prove(tuple, &opts.prove, &cancel),
        EngineChoice::Refute => refute(tuple, &opts.refute, &cancel),
        EngineChoice::Both => {
            let owned = Arc::new(tuple.clone());
            let refute_opts = opts.refute.clone();
            let delay = refute_opts.portfolio_delay;
            race(
                &cancel,
                delay,
                |c| prove(tuple, &opts.prove, c),
                move |c| refute(&owned, &refute_opts, c),
            )
        }
    }
}

/// Runs `first` and `second` concurrently under child tokens of `cancel`. The first
/// definitive outcome is returned at once and the other engine cancelled; if neither
/// is definitive, their reasons are combined.
///
/// `first` runs on the calling thread, keeping its Z3 context. `second` runs on a
/// long-lived worker thread (see [`workers`]): creating a Z3 context and joining a
/// thread each cost milliseconds, which the prover's fast answers should not pay.
/// When `first` wins, the cancelled `second` finishes on its worker unobserved.
///
/// `second` starts once `first` has run for `delay` or has given up, whichever comes
/// first: answers `first` finds quickly then pay nothing for the race (no competing
/// thread, no Z3 context to create), and slower ones lose at most `delay` of `second`.
pub fn race(
    cancel: &Cancel,
    delay: Duration,
    first: impl FnOnce(&Cancel) -> Outcome,
    second: impl FnOnce(&Cancel) -> Outcome + Send + 'static,
) -> Outcome {
    let start = Instant::now();
    let first_token = cancel.child();
    let second_token = cancel.child();
    let (tx, rx) = mpsc::channel();
    // Dropped when `first` is done: wakes `second` early.
    let (go_tx, go_rx) = mpsc::channel::<()>();
    {
        let (mine, theirs) = (second_token.clone(), first_token.clone());
        workers::submit(Box::new(move || {
            let _ = go_rx.recv_timeout(delay);
            if mine.is_cancelled() {
                let _ = tx.send(unknown_outcome(
                    Engine::Refute,
                    UnknownReason::Cancelled("cancelled before it started".into()),
                ));
                return;
            }
            // A lost race interrupts this engine's running Z3 query at once.
            let _watch = interrupt::watch(&mine);
            let out = guarded(Engine::Refute, || second(&mine));
            if out.verdict.is_definitive() {
                theirs.cancel();
            }
            // The receiver is gone when the race was already decided.
            let _ = tx.send(out);
        }));
    }
    let a = {
        let _watch = interrupt::watch(&first_token);
        guarded(Engine::Prove, || first(&first_token))
    };
    if a.verdict.is_definitive() {
        second_token.cancel();
    }
    drop(go_tx);
    let mut out = if a.verdict.is_definitive() {
        a
    } else {
        let b = rx.recv().unwrap_or_else(|_| {
            unknown_outcome(
                Engine::Refute,
                UnknownReason::EnginePanic("internal error (engine thread died)".into()),
            )
        });
        if b.verdict.is_definitive() {
            b
        } else {
            combine_unknowns(a, b)
        }
    };
    out.time = start.elapsed();
    out
}

/// Long-lived threads that run the portfolio's second engine. Each keeps its Z3
/// context between jobs; a job that finds no idle worker starts a new one, so jobs
/// never wait for each other.
mod workers {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{mpsc, Mutex, OnceLock};

    pub type Job = Box<dyn FnOnce() + Send>;

    /// Stack of a worker: engines recurse over the IR (depth ≤ `ir::MAX_DEPTH`).
    const STACK: usize = 64 * 1024 * 1024;

    struct Pool {
        jobs: Mutex<mpsc::Sender<Job>>,
        queue: Mutex<mpsc::Receiver<Job>>,
        idle: AtomicUsize,
    }

    fn pool() -> &'static Pool {
        static POOL: OnceLock<Pool> = OnceLock::new();
        POOL.get_or_init(|| {
            let (tx, rx) = mpsc::channel();
            Pool { jobs: Mutex::new(tx), queue: Mutex::new(rx), idle: AtomicUsize::new(0) }
        })
    }

    pub fn submit(job: Job) {
        let p = pool();
        // Claim an idle worker, or start one for this job.
        let claimed =
            p.idle.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
        if !claimed {
            let started = std::thread::Builder::new()
                .name("forex engine worker".into())
                .stack_size(STACK)
                .spawn(work);
            if started.is_err() {
                // No thread: run the job here rather than lose it.
                return job();
            }
        }
        let sent = p.jobs.lock().unwrap_or_else(|e| e.into_inner()).send(job);
        debug_assert!(sent.is_ok(), "the pool's receiver lives forever");
    }

    fn work() {
        let p = pool();
        loop {
            let job = {
                let queue = p.queue.lock().unwrap_or_else(|e| e.into_inner());
                match queue.recv() {
                    Ok(job) => job,
                    Err(_) => return,
                }
            };
            // Jobs catch their own panics (`guarded`), so the worker survives them.
            job();
            p.idle.fetch_add(1, Ordering::SeqCst);
        }
    }
}

fn unknown_outcome(engine: Engine, reason: UnknownReason) -> Outcome {
    Outcome {
        verdict: Verdict::Unknown { reason },
        engine,
        time: Duration::ZERO,
        stats: Stats::default(),
    }
}

/// Runs an engine, turning a panic into `unknown` so that the other engine's answer
/// still counts and the process survives.
fn guarded(engine: Engine, f: impl FnOnce() -> Outcome) -> Outcome {
    let start = Instant::now();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".into());
        let reason = UnknownReason::EnginePanic(format!("internal error (panic: {msg})"));
        let mut out = unknown_outcome(engine, reason);
        out.time = start.elapsed();
        out
    })
}

/// Both engines gave up: one `unknown` carrying both reasons and the work of both.
fn combine_unknowns(a: Outcome, b: Outcome) -> Outcome {
    let reason_of = |o: &Outcome| match &o.verdict {
        Verdict::Unknown { reason } => reason.clone(),
        other => UnknownReason::Internal(format!("(unexpected {} verdict)", other.name())),
    };
    let reason = UnknownReason::combine((a.engine, &reason_of(&a)), (b.engine, &reason_of(&b)));
    let stats = Stats {
        queries: a.stats.queries + b.stats.queries,
        candidates: a.stats.candidates + b.stats.candidates,
        paths: a.stats.paths + b.stats.paths,
        runs: a.stats.runs + b.stats.runs,
    };
    // The engine that gave up last is reported.
    let engine = if a.time >= b.time { a.engine } else { b.engine };
    Outcome { verdict: Verdict::Unknown { reason }, engine, time: a.time.max(b.time), stats }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(engine: Engine, verdict: Verdict, ms: u64) -> Outcome {
        Outcome { verdict, engine, time: Duration::from_millis(ms), stats: Stats::default() }
    }
    fn unknown(engine: Engine, why: &str) -> Outcome {
        let reason = UnknownReason::Internal(why.into());
        outcome(engine, Verdict::Unknown { reason }, 1)
    }

    fn labelled_refuter_unknown(why: &str) -> Outcome {
        let reason = UnknownReason::BoundReached(why.into()).from_engine(Engine::Refute);
        outcome(Engine::Refute, Verdict::Unknown { reason }, 1)
    }

    #[test]
    fn two_unknowns_stay_unknown_with_both_reasons() {
        let out = race(
            &Cancel::new(),
            Duration::ZERO,
            |_| unknown(Engine::Prove, "no invariant found"),
            |_| labelled_refuter_unknown("no counterexample up to 8"),
        );
        let Verdict::Unknown { reason } = out.verdict else { panic!("must stay unknown") };
        assert_eq!(
            reason.to_string(),
            "prover: no invariant found; refuter: no counterexample up to 8"
        );
    }

    #[test]
    fn definitive_answer_wins_and_cancels_the_other() {
        let out = race(
            &Cancel::new(),
            Duration::ZERO,
            |c| {
                // Runs until cancelled: the refuter's answer must stop it.
                while !c.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                unknown(Engine::Prove, "cancelled")
            },
            |_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1),
        );
        assert_eq!(out.engine, Engine::Refute);
        assert!(out.verdict.is_definitive());
    }

    #[test]
    fn the_first_definitive_answer_is_kept() {
        let out = race(
            &Cancel::new(),
            Duration::ZERO,
            |_| outcome(Engine::Prove, Verdict::Verified { proof: Default::default() }, 1),
            |c| {
                while !c.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                unknown(Engine::Refute, "cancelled")
            },
        );
        assert_eq!(out.engine, Engine::Prove);
        assert_eq!(out.verdict.name(), "verified");
    }

    #[test]
    fn a_panicking_engine_does_not_hide_the_other_answer() {
        let out = race(
            &Cancel::new(),
            Duration::ZERO,
            |_| panic!("boom"),
            |_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1),
        );
        assert_eq!(out.engine, Engine::Refute);
        let out = race(
            &Cancel::new(),
            Duration::ZERO,
            |_| unknown(Engine::Prove, "gave up"),
            |_| panic!("boom"),
        );
        let Verdict::Unknown { reason } = out.verdict else { panic!("must stay unknown") };
        assert_eq!(reason.to_string(), "prover: gave up; refuter: internal error (panic: boom)");
    }

    #[test]
    fn parent_cancellation_reaches_both_engines() {
        let parent = Cancel::new();
        parent.cancel();
        let out = race(
            &parent,
            Duration::ZERO,
            |c| unknown(Engine::Prove, if c.is_cancelled() { "stopped" } else { "ran" }),
            |c| unknown(Engine::Refute, if c.is_cancelled() { "stopped" } else { "ran" }),
        );
        let Verdict::Unknown { reason } = out.verdict else { panic!() };
        assert_eq!(reason.to_string(), "prover: stopped; refuter: cancelled before it started");
    }

    #[test]
    fn a_quick_first_answer_never_starts_the_second_engine() {
        use std::sync::atomic::{AtomicBool, Ordering};
        static STARTED: AtomicBool = AtomicBool::new(false);
        let out = race(
            &Cancel::new(),
            Duration::from_secs(60),
            |_| outcome(Engine::Prove, Verdict::Verified { proof: Default::default() }, 1),
            |_| {
                STARTED.store(true, Ordering::SeqCst);
                unknown(Engine::Refute, "ran")
            },
        );
        assert_eq!(out.verdict.name(), "verified");
        // Give the worker time to wake up and see the cancellation.
        std::thread::sleep(Duration::from_millis(300));
        assert!(!STARTED.load(Ordering::SeqCst));
    }

    #[test]
    fn the_second_engine_starts_as_soon_as_the_first_gives_up() {
        // With a 10-minute delay, this only finishes if giving up starts the refuter.
        let out = race(
            &Cancel::new(),
            Duration::from_secs(600),
            |_| unknown(Engine::Prove, "gave up"),
            |_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1),
        );
        assert_eq!(out.engine, Engine::Refute);
    }
}
