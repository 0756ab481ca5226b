//! Runs prover and refuter on one tuple concurrently; the first definitive answer wins
//! and the other engine is cancelled.
//!
//! Each engine runs on its own scoped thread and so builds its terms in that thread's
//! own Z3 context. Two `unknown`s never become a definitive answer: the result is then
//! `unknown` with both reasons.

use crate::cancel::Cancel;
use crate::interrupt;
use crate::ir::Tuple;
use crate::prove::{prove, ProveOptions};
use crate::refute::{refute, RefuteOptions};
use crate::verdict::{Engine, Outcome, Stats, Verdict};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EngineChoice {
    Prove,
    Refute,
    #[default]
    Both,
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
            race(&cancel, |c| prove(tuple, &opts.prove, c), |c| refute(tuple, &opts.refute, c))
        }
    }
}

/// Runs `first` and `second` concurrently under child tokens of `cancel`. The first
/// definitive outcome is returned and the other engine cancelled (and waited for);
/// if neither is definitive, their reasons are combined.
///
/// `first` runs on the calling thread, so it keeps that thread's Z3 context (creating
/// one costs milliseconds); `second` runs on a scoped thread with its own.
pub fn race<'a>(
    cancel: &Cancel,
    first: impl FnOnce(&Cancel) -> Outcome + Send + 'a,
    second: impl FnOnce(&Cancel) -> Outcome + Send + 'a,
) -> Outcome {
    let start = Instant::now();
    let tokens = [cancel.child(), cancel.child()];
    // Index of the engine whose definitive answer came first (NONE: no winner yet).
    const NONE: usize = usize::MAX;
    let winner = AtomicUsize::new(NONE);
    let finish = |i: usize, out: Outcome| {
        if out.verdict.is_definitive()
            && winner.compare_exchange(NONE, i, Ordering::SeqCst, Ordering::SeqCst).is_ok()
        {
            tokens[1 - i].cancel();
        }
        out
    };
    let (a, b) = std::thread::scope(|s| {
        let other = s.spawn(|| {
            // A lost race interrupts this engine's running Z3 query at once.
            let _watch = interrupt::watch(&tokens[1]);
            finish(1, guarded(Engine::Refute, || second(&tokens[1])))
        });
        let a = {
            let _watch = interrupt::watch(&tokens[0]);
            finish(0, guarded(Engine::Prove, || first(&tokens[0])))
        };
        let b = other.join().unwrap_or_else(|_| {
            unknown_outcome(Engine::Refute, "internal error (engine thread died)".into())
        });
        (a, b)
    });
    let mut out = match winner.load(Ordering::SeqCst) {
        0 => a,
        1 => b,
        _ => combine_unknowns(a, b),
    };
    out.time = start.elapsed();
    out
}

fn unknown_outcome(engine: Engine, reason: String) -> Outcome {
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
        let mut out = unknown_outcome(engine, format!("internal error (panic: {msg})"));
        out.time = start.elapsed();
        out
    })
}

/// Both engines gave up: one `unknown` carrying both reasons and the work of both.
fn combine_unknowns(a: Outcome, b: Outcome) -> Outcome {
    let reason_of = |o: &Outcome| match &o.verdict {
        Verdict::Unknown { reason } => reason.clone(),
        other => format!("(unexpected {} verdict)", other.name()),
    };
    let label = |e: Engine| match e {
        Engine::Prove => "prover",
        Engine::Refute => "refuter",
        Engine::Test => "tester",
    };
    let reason = format!(
        "{}: {}; {}: {}",
        label(a.engine),
        strip_label(&reason_of(&a)),
        label(b.engine),
        strip_label(&reason_of(&b))
    );
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

/// Drops a leading "refuter: " / "prover: " so the combined reason does not repeat it.
fn strip_label(reason: &str) -> &str {
    ["refuter: ", "prover: "].iter().find_map(|p| reason.strip_prefix(p)).unwrap_or(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(engine: Engine, verdict: Verdict, ms: u64) -> Outcome {
        Outcome { verdict, engine, time: Duration::from_millis(ms), stats: Stats::default() }
    }
    fn unknown(engine: Engine, why: &str) -> Outcome {
        outcome(engine, Verdict::Unknown { reason: why.into() }, 1)
    }

    #[test]
    fn two_unknowns_stay_unknown_with_both_reasons() {
        let out = race(
            &Cancel::new(),
            |_| unknown(Engine::Prove, "no invariant found"),
            |_| unknown(Engine::Refute, "refuter: no counterexample up to 8"),
        );
        let Verdict::Unknown { reason } = out.verdict else { panic!("must stay unknown") };
        assert_eq!(reason, "prover: no invariant found; refuter: no counterexample up to 8");
    }

    #[test]
    fn definitive_answer_wins_and_cancels_the_other() {
        let out = race(
            &Cancel::new(),
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
            |_| panic!("boom"),
            |_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1),
        );
        assert_eq!(out.engine, Engine::Refute);
        let out = race(&Cancel::new(), |_| unknown(Engine::Prove, "gave up"), |_| panic!("boom"));
        let Verdict::Unknown { reason } = out.verdict else { panic!("must stay unknown") };
        assert_eq!(reason, "prover: gave up; refuter: internal error (panic: boom)");
    }

    #[test]
    fn parent_cancellation_reaches_both_engines() {
        let parent = Cancel::new();
        parent.cancel();
        let out = race(
            &parent,
            |c| unknown(Engine::Prove, if c.is_cancelled() { "stopped" } else { "ran" }),
            |c| unknown(Engine::Refute, if c.is_cancelled() { "stopped" } else { "ran" }),
        );
        let Verdict::Unknown { reason } = out.verdict else { panic!() };
        assert_eq!(reason, "prover: stopped; refuter: stopped");
    }
}
