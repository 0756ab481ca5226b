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
        &Schedule::after(Duration::ZERO),
        |_| unknown(Engine::Prove, "no invariant found"),
        after_gate(|_| labelled_refuter_unknown("no counterexample up to 8")),
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
        &Schedule::after(Duration::ZERO),
        |c| {
            // Runs until cancelled: the refuter's answer must stop it.
            while !c.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            unknown(Engine::Prove, "cancelled")
        },
        after_gate(|_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1)),
    );
    assert_eq!(out.engine, Engine::Refute);
    assert!(out.verdict.is_definitive());
}

#[test]
fn the_first_definitive_answer_is_kept() {
    let out = race(
        &Cancel::new(),
        &Schedule::after(Duration::ZERO),
        |_| outcome(Engine::Prove, Verdict::Verified { proof: Default::default() }, 1),
        after_gate(|c| {
            while !c.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            unknown(Engine::Refute, "cancelled")
        }),
    );
    assert_eq!(out.engine, Engine::Prove);
    assert_eq!(out.verdict.name(), "verified");
}

#[test]
fn a_panicking_engine_does_not_hide_the_other_answer() {
    let out = race(
        &Cancel::new(),
        &Schedule::after(Duration::ZERO),
        |_| panic!("boom"),
        after_gate(|_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1)),
    );
    assert_eq!(out.engine, Engine::Refute);
    let out = race(
        &Cancel::new(),
        &Schedule::after(Duration::ZERO),
        |_| unknown(Engine::Prove, "gave up"),
        after_gate(|_| panic!("boom")),
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
        &Schedule::after(Duration::ZERO),
        |c| unknown(Engine::Prove, if c.is_cancelled() { "stopped" } else { "ran" }),
        after_gate(|c| unknown(Engine::Refute, if c.is_cancelled() { "stopped" } else { "ran" })),
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
        &Schedule::after(Duration::from_secs(60)),
        |_| outcome(Engine::Prove, Verdict::Verified { proof: Default::default() }, 1),
        after_gate(|_| {
            STARTED.store(true, Ordering::SeqCst);
            unknown(Engine::Refute, "ran")
        }),
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
        &Schedule::after(Duration::from_secs(600)),
        |_| unknown(Engine::Prove, "gave up"),
        after_gate(|_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1)),
    );
    assert_eq!(out.engine, Engine::Refute);
}

#[test]
fn engine_names_parse_and_both_stays_an_alias() {
    assert_eq!("ALL".parse::<EngineChoice>(), Ok(EngineChoice::All));
    assert_eq!("test".parse::<EngineChoice>(), Ok(EngineChoice::Test));
    assert_eq!("both".parse::<EngineChoice>(), Ok(EngineChoice::Both));
    assert_eq!(DecideOptions::default().engine, EngineChoice::All);
    let err = "fast".parse::<EngineChoice>().unwrap_err();
    assert!(err.contains("(prove, refute, test, all)"), "{err}");
}

#[test]
fn three_unknowns_keep_every_reason_in_order() {
    let out = race(
        &Cancel::new(),
        &Schedule::after(Duration::ZERO),
        |_| unknown(Engine::Prove, "no invariant found"),
        after_gate(|_| {
            combine_unknowns(vec![
                labelled_refuter_unknown("no counterexample up to 8"),
                unknown(Engine::Test, "no violation found in 9 runs"),
            ])
        }),
    );
    let Verdict::Unknown { reason } = out.verdict else { panic!("must stay unknown") };
    assert_eq!(
        reason.to_string(),
        "prover: no invariant found; refuter: no counterexample up to 8; tester: no violation \
         found in 9 runs"
    );
    assert_eq!(reason.kind(), "combined");
}

#[test]
fn a_definitive_part_wins_over_the_unknowns() {
    let proved = outcome(Engine::Prove, Verdict::Verified { proof: Default::default() }, 1);
    let out = combine_unknowns(vec![unknown(Engine::Refute, "bound"), proved]);
    assert_eq!(out.engine, Engine::Prove);
    assert!(out.verdict.is_definitive());
}

/// The hypertester can only ever show violations.
#[test]
fn the_tester_never_verifies() {
    let claimed = outcome(Engine::Test, Verdict::Verified { proof: Default::default() }, 1);
    assert_eq!(tested(claimed).verdict.name(), "unknown");
}

/// A first engine that gives up before the delay leaves the second one to its own
/// thread: no hand-off, no second Z3 context.
#[test]
fn the_second_engine_runs_inline_when_the_first_gives_up_early() {
    let here = std::thread::current().id();
    let out = race(
        &Cancel::new(),
        &Schedule::after(Duration::from_secs(600)),
        |_| unknown(Engine::Prove, "gave up"),
        after_gate(move |_| {
            let inline = std::thread::current().id() == here;
            let verdict = if inline {
                Verdict::Verified { proof: Default::default() }
            } else {
                Verdict::Unknown { reason: UnknownReason::Internal("on a worker".into()) }
            };
            outcome(Engine::Refute, verdict, 1)
        }),
    );
    assert_eq!(out.verdict.name(), "verified", "{:?}", out.verdict);
}

/// A panic after the engine's token fired is the stop (an interrupted `simplify` makes
/// the z3 crate panic), reported as such; before, it is an internal error.
#[test]
fn a_panic_under_a_stopped_token_is_the_stop_not_a_fault() {
    let stopped = Cancel::new().with_timeout(Duration::ZERO);
    let out = guarded(Engine::Refute, &stopped, || panic!("null from Z3"));
    let Verdict::Unknown { reason } = out.verdict else { panic!("not unknown") };
    assert_eq!(reason.to_string(), "the time limit was reached");
    let live = Cancel::new();
    let out = guarded(Engine::Refute, &live, || panic!("a real bug"));
    let Verdict::Unknown { reason } = out.verdict else { panic!("not unknown") };
    assert!(matches!(reason, UnknownReason::EnginePanic(ref m) if m.contains("a real bug")));
}

/// The first engine runs on a long-lived worker: its thread's CPU clock also counts
/// earlier tuples, and the gate counted those too (it opened at once for every tuple
/// after the first few, and short batches ran a second engine beside every proof).
#[test]
fn the_gate_counts_only_cpu_time_since_the_race_began() {
    busy_prover(60)(&Cancel::new());
    let (_go, rx) = mpsc::channel();
    let gate = Gate::new(rx, Schedule::after(Duration::from_millis(30)));
    let used = gate.first_engine_cpu().expect("a thread CPU clock");
    assert!(used < Duration::from_millis(20), "{used:?} counted from before the race");
}

/// A first engine that spins for `ms` of CPU time, then gives up.
fn busy_prover(ms: u64) -> impl FnOnce(&Cancel) -> Outcome {
    move |c| {
        let t = Instant::now();
        let mut x = 0u64;
        while t.elapsed() < Duration::from_millis(ms) && !c.is_cancelled() {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        unknown(Engine::Prove, "gave up")
    }
}

/// Where the second engine ran and whether it had a core of the budget.
fn second_engine_report(budget: Arc<CoreBudget>) -> impl FnOnce(&Cancel, &Gate) -> Outcome {
    let here = std::thread::current().id();
    after_gate(move |_| {
        let place = if std::thread::current().id() == here { "inline" } else { "worker" };
        unknown(Engine::Refute, &format!("{place} with {} busy", budget.busy()))
    })
}

/// Races [`busy_prover`]`(prover_ms)` against [`second_engine_report`] with a 5 ms delay
/// and `patience`, on a budget of `cores` of which the tuple holds one (returned with the
/// budget, still held), and gives the outcome's reason.
fn race_on_budget(
    cores: usize,
    patience: Duration,
    prover_ms: u64,
) -> (Arc<CoreBudget>, Core, String) {
    let budget = CoreBudget::new(cores);
    let tuple = budget.try_take().expect("the tuple's own core");
    let schedule =
        Schedule { delay: Duration::from_millis(5), patience, cores: Some(budget.clone()) };
    let out = race(
        &Cancel::new(),
        &schedule,
        busy_prover(prover_ms),
        second_engine_report(budget.clone()),
    );
    (budget, tuple, reason_text(&out))
}

fn reason_text(out: &Outcome) -> String {
    match &out.verdict {
        Verdict::Unknown { reason } => reason.to_string(),
        other => panic!("not unknown: {other:?}"),
    }
}

/// `--jobs`: a free core lets the second engine start at the delay, beside the prover.
#[test]
fn a_free_core_starts_the_second_engine_at_the_delay() {
    let (_, _tuple, reason) = race_on_budget(2, Duration::from_secs(600), 400);
    assert!(reason.contains("refuter: worker with 2 busy"), "{reason}");
}

/// On a full budget the second engine waits for the prover: here the prover gives up
/// first, and the second engine runs after it on the same thread and core.
#[test]
fn a_full_budget_keeps_the_second_engine_waiting() {
    let (_, _tuple, reason) = race_on_budget(1, Duration::from_secs(600), 150);
    assert!(reason.contains("refuter: inline with 1 busy"), "{reason}");
}

/// ... until the prover has run for the patience: then it starts over the budget.
#[test]
fn patience_starts_the_second_engine_over_a_full_budget() {
    let (budget, _tuple, reason) = race_on_budget(1, Duration::from_millis(40), 600);
    assert!(reason.contains("refuter: worker with 2 busy"), "{reason}");
    // Its core was given back when it finished.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(budget.busy(), 1);
}

#[test]
fn patience_is_at_most_a_quarter_of_the_timeout_and_at_least_the_delay() {
    let opts = DecideOptions { timeout: Duration::from_millis(400), ..DecideOptions::default() };
    assert_eq!(opts.schedule().patience, Duration::from_millis(100));
    assert_eq!(DecideOptions::default().schedule().patience, Duration::from_millis(200));
    let opts = DecideOptions { timeout: Duration::from_millis(40), ..DecideOptions::default() };
    assert_eq!(opts.schedule().patience, opts.delay);
}

#[test]
fn a_follow_up_on_the_first_engines_core_answers_beside_the_second() {
    // The refuter runs until cancelled; the follow-up, started when the prover gave up,
    // finds the violation, and its answer must end the race.
    let out = race_then(
        &Cancel::new(),
        &Schedule::after(Duration::ZERO),
        |_| unknown(Engine::Prove, "gave up"),
        after_gate(|c| {
            while !c.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            unknown(Engine::Refute, "cancelled")
        }),
        Some(|_: &Cancel| {
            outcome(Engine::Test, Verdict::Verified { proof: Default::default() }, 1)
        }),
    );
    assert_eq!(out.engine, Engine::Test);
    // And when the second engine answers, the follow-up is stopped.
    let out = race_then(
        &Cancel::new(),
        &Schedule::after(Duration::ZERO),
        |_| unknown(Engine::Prove, "gave up"),
        after_gate(|_| outcome(Engine::Refute, Verdict::Verified { proof: Default::default() }, 1)),
        Some(|c: &Cancel| {
            while !c.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            unknown(Engine::Test, "cancelled")
        }),
    );
    assert_eq!(out.engine, Engine::Refute);
}
