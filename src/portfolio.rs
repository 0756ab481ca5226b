//! Decides one tuple with up to three engines: the prover, the refuter and the
//! hypertester. The first definitive answer wins and the others are cancelled.
//!
//! The prover runs on the calling thread; the other engines run one after another: a
//! short hypertest burst (it finds many violations in a few dozen runs), then the
//! refuter, then hypertesting again for the rest of its budget. They start on a pooled
//! worker thread ([`workers`]) once the prover has used [`DecideOptions::delay`] of CPU
//! time, or on the calling thread when the prover gave up before that: answers the
//! prover finds quickly use one core and pay nothing for the portfolio, and quick
//! give-ups pay no thread hand-off. Each engine builds its terms in its own thread's Z3 context under its own
//! child cancellation token (also wired to Z3 interrupts). Unknowns never become a
//! definitive answer: the result is then `unknown` with every engine's reason.

pub mod cores;
pub mod workers;

use crate::cancel::Cancel;
use crate::hypertest::{hypertest, TestOptions};
use crate::ir::Tuple;
use crate::prove::{prove, ProveOptions};
use crate::refute::{refute, RefuteOptions};
use crate::verdict::{Engine, Outcome, Stats, UnknownReason, Verdict};
use cores::{Core, CoreBudget};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    Prove,
    Refute,
    /// Hypertesting alone (never `verified`).
    Test,
    /// Prover, refuter and hypertester.
    #[default]
    All,
    /// Prover and refuter (the default before hypertesting joined the portfolio).
    Both,
}

impl std::str::FromStr for EngineChoice {
    type Err = String;
    /// `prove`, `refute`, `test`, `all` or `both` (any case), as the command line spells
    /// them.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "prove" => Ok(EngineChoice::Prove),
            "refute" => Ok(EngineChoice::Refute),
            "test" => Ok(EngineChoice::Test),
            "all" => Ok(EngineChoice::All),
            "both" => Ok(EngineChoice::Both),
            _ => Err(format!("unknown engine `{s}` (prove, refute, test, all)")),
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
    /// The hypertester: its budget is that of `--engine test` and of the search after the
    /// refuter gave up (always within `timeout`).
    pub test: TestOptions,
    /// The first hypertest burst of the portfolio, before the refuter.
    pub burst: Duration,
    /// The worker's engines start once the prover has used this much CPU time (on a free
    /// core) or gave up (see [`Gate`]).
    pub delay: Duration,
    /// When every core of `cores` is busy, the worker's engines start once the prover has
    /// used this much CPU time (at most a quarter of `timeout`), over the budget.
    pub patience: Duration,
    /// The cores this tuple shares with others (`--jobs`); none: every core is free.
    pub cores: Option<Arc<CoreBudget>>,
}

impl Default for DecideOptions {
    fn default() -> Self {
        DecideOptions {
            engine: EngineChoice::All,
            timeout: Duration::from_secs(60),
            prove: ProveOptions::default(),
            refute: RefuteOptions::default(),
            test: TestOptions { budget: Duration::from_secs(1), ..TestOptions::default() },
            burst: Duration::from_millis(150),
            delay: Duration::from_millis(30),
            patience: Duration::from_millis(200),
            cores: None,
        }
    }
}

impl DecideOptions {
    /// When the race's second engine starts.
    fn schedule(&self) -> Schedule {
        Schedule {
            delay: self.delay,
            patience: self.patience.min(self.timeout / 4).max(self.delay),
            cores: self.cores.clone(),
        }
    }
}

/// When a race's second engine may start: after `delay` of the first engine's CPU time
/// on a free core of `cores`, after `patience` on a busy one, at once when the first
/// engine gave up.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    pub delay: Duration,
    pub patience: Duration,
    pub cores: Option<Arc<CoreBudget>>,
}

impl Schedule {
    /// After `delay`, with every core free.
    pub fn after(delay: Duration) -> Schedule {
        Schedule { delay, patience: delay, cores: None }
    }
}

/// Decides one tuple with the chosen engines under `opts.timeout` and `cancel`.
pub fn decide(tuple: &Tuple, opts: &DecideOptions, cancel: &Cancel) -> Outcome {
    let cancel = cancel.with_timeout(opts.timeout);
    if matches!(opts.engine, EngineChoice::All | EngineChoice::Both) {
        // Loop-free reactive tuples whose ∃ choices the light elimination removes are
        // decided by one quantifier-free check, either way: before any proof attempt,
        // which a violated tuple would only wait for. A panic here is no answer.
        let light = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::refute::refute_light(tuple, &opts.refute, &cancel)
        }));
        if let Ok(Some(out)) = light {
            return out;
        }
    }
    match opts.engine {
        EngineChoice::Prove => {
            guarded(Engine::Prove, &cancel, || prove(tuple, &opts.prove, &cancel))
        }
        EngineChoice::Refute => {
            guarded(Engine::Refute, &cancel, || refute(tuple, &opts.refute, &cancel))
        }
        EngineChoice::Test => {
            guarded(Engine::Test, &cancel, || tested(hypertest(tuple, &opts.test, &cancel)))
        }
        EngineChoice::Both => {
            let owned = Arc::new(tuple.clone());
            let refute_opts = opts.refute.clone();
            race(
                &cancel,
                &opts.schedule(),
                |c| prove(tuple, &opts.prove, c),
                after_gate(move |c| refute(&owned, &refute_opts, c)),
            )
        }
        EngineChoice::All => {
            let owned = Arc::new(tuple.clone());
            let opts2 = opts.clone();
            // Once the prover gave up, its core searches too: a third seed, for the rest
            // of the time, beside the refuter (whose deep unrollings can take seconds
            // where a concrete run takes microseconds).
            let follow_up = TestOptions {
                seed: opts.test.seed.wrapping_add(2),
                budget: opts.timeout,
                ..opts.test.clone()
            };
            race_then(
                &cancel,
                &opts.schedule(),
                |c| prove(tuple, &opts.prove, c),
                move |c, gate| test_refute_test(&owned, &opts2, c, gate),
                Some(|c: &Cancel| tested(hypertest(tuple, &follow_up, c))),
            )
        }
    }
}

/// Proof-only tuples whose validity implies a tuple's (`forex equiv`'s mutual summaries of
/// a pair of recursive functions), each with how its proof proves the tuple (the proof
/// shows it), tried in order; or why the tuple has none (added to its `unknown` reason).
#[derive(Clone, Debug)]
pub struct Lemma {
    pub tuples: Result<Vec<(Arc<Tuple>, String)>, String>,
    /// What the lemmas are (`mutual summary of f`), for `unknown` reasons.
    pub what: String,
}

/// Decides `tuple` with the help of `lemma`: the prover alone on the lemma's tuples first,
/// for at most a quarter of the time in all (the first for half of it; a counterexample
/// to a proof-only tuple is none of the tuple's, so only `verified` counts: the tuple's,
/// with the lemma's `how` in the proof); then the portfolio on the tuple itself for the
/// rest, whose `unknown` also says why the lemma did not help.
pub fn decide_with_lemma(
    tuple: &Tuple,
    lemma: &Lemma,
    opts: &DecideOptions,
    cancel: &Cancel,
) -> Outcome {
    let start = Instant::now();
    let proving =
        matches!(opts.engine, EngineChoice::Prove | EngineChoice::All | EngineChoice::Both);
    let note = match &lemma.tuples {
        Ok(ls) if proving && !ls.is_empty() => {
            let budget = cancel.with_timeout(opts.timeout / 4);
            let mut why = String::new();
            for (k, (l, how)) in ls.iter().enumerate() {
                let c = if k + 1 < ls.len() {
                    budget.with_timeout(opts.timeout / 8)
                } else {
                    budget.child()
                };
                let out = guarded(Engine::Prove, &c, || prove(l, &opts.prove, &c));
                match out.verdict {
                    Verdict::Verified { mut proof } => {
                        proof.summary = Some(Box::new(how.clone()));
                        return Outcome {
                            verdict: Verdict::Verified { proof },
                            time: start.elapsed(),
                            ..out
                        };
                    }
                    Verdict::Unknown { reason } => why = reason.to_string(),
                    Verdict::Violated { .. } => why = "not valid for every table".into(),
                }
            }
            UnknownReason::NotProved(format!("{} is not proved: {why}", lemma.what))
        }
        Ok(_) => UnknownReason::Unsupported(format!("{} needs the prover", lemma.what)),
        Err(why) => UnknownReason::Unsupported(format!("no {}: {why}", lemma.what)),
    };
    let rest =
        DecideOptions { timeout: opts.timeout.saturating_sub(start.elapsed()), ..opts.clone() };
    let mut out = decide(tuple, &rest, cancel);
    out.time = start.elapsed();
    let engine = out.engine;
    if let Verdict::Unknown { reason } = &mut out.verdict {
        let add = |r: &UnknownReason| UnknownReason::combine([(Engine::Prove, &note), (engine, r)]);
        let combined = match &*reason {
            UnknownReason::Timeout { limit, during } => {
                UnknownReason::Timeout { limit: *limit, during: Box::new(add(during)) }
            }
            r => add(r),
        };
        *reason = combined;
    }
    out
}

/// The hypertester can only show violations: anything else it says is `unknown`.
fn tested(out: Outcome) -> Outcome {
    match out.verdict {
        Verdict::Verified { .. } => Outcome {
            verdict: Verdict::Unknown {
                reason: UnknownReason::Internal("the hypertester cannot verify".into()),
            },
            ..out
        },
        _ => out,
    }
}

/// The worker's engines for `--engine all`, once `gate` opens: a short hypertest
/// burst, the refuter, then hypertesting for its budget (temporal tuples: the refuter,
/// then the burst). Stops at the first definitive answer;
/// otherwise every engine's reason is kept.
fn test_refute_test(tuple: &Tuple, opts: &DecideOptions, cancel: &Cancel, gate: &Gate) -> Outcome {
    let start = Instant::now();
    if !gate.open(cancel) {
        return not_started();
    }
    let burst = TestOptions { budget: opts.burst, ..opts.test.clone() };
    if tuple.is_reactive() {
        // The refuter first: it finds the earliest failing observation, and covers the
        // tuple's own observation count, so only a short burst follows (a longer search
        // would cost its whole budget on every unknown, as on hyena0's queries).
        let refuted = refute(tuple, &opts.refute, cancel);
        if refuted.verdict.is_definitive() || cancel.is_cancelled() {
            return timed(refuted, start);
        }
        let tested = tested(hypertest(tuple, &burst, cancel));
        return timed(combine_unknowns(vec![refuted, tested]), start);
    }
    // Floats: the tester's whole budget first. The refuter's exact IEEE queries can
    // outlast the tuple's timeout without answering Z3's interrupt (bit-blasting long
    // chains of `*` and `/`), while concrete runs are cheap and most float differences
    // (rounding, reassociation) show on most inputs: measured on a 100-iteration series
    // whose `d *= x / a` became `d = d * x / a`, the tester alone finds it in 0.12 s, the
    // portfolio with the short burst answered `unknown` at the deadline.
    let burst = if tuple.has_float() { opts.test.clone() } else { burst };
    let first = tested(hypertest(tuple, &burst, cancel));
    if first.verdict.is_definitive() || cancel.is_cancelled() {
        return first;
    }
    let refuted = refute(tuple, &opts.refute, cancel);
    if refuted.verdict.is_definitive() || cancel.is_cancelled() {
        return timed(combine_unknowns(vec![first, refuted]), start);
    }
    // A different seed: the burst's tests need not run again.
    let more = TestOptions { seed: opts.test.seed.wrapping_add(1), ..opts.test.clone() };
    let second = tested(hypertest(tuple, &more, cancel));
    if second.verdict.is_definitive() {
        return second;
    }
    // One tester entry: the longer search's reason, with the runs of both searches.
    let mut tester = second;
    tester.stats.runs += first.stats.runs;
    timed(combine_unknowns(vec![refuted, tester]), start)
}

fn timed(mut out: Outcome, start: Instant) -> Outcome {
    if !out.verdict.is_definitive() {
        out.time = start.elapsed();
    }
    out
}

/// Opens when the first engine has used the race's delay in CPU time (wall time where
/// the thread's CPU clock is unavailable) and a core is free, or its patience whether a
/// core is free or not, or has finished. CPU time, not wall time: on a loaded machine the
/// prover's quick answers take longer in wall time, and a wall-time delay then started a
/// competing engine for most tuples. Wall-time caps keep a starved prover from holding
/// the others back for long.
pub struct Gate {
    go: mpsc::Receiver<()>,
    start: Instant,
    schedule: Schedule,
    /// The first engine's thread CPU clock and its reading when the race began: the
    /// thread is a long-lived worker, so its clock also counts every earlier tuple.
    first_cpu: Option<(libc::clockid_t, Duration)>,
    /// Once open, the gate stays open (the second engine's own engines ask again).
    opened: std::cell::Cell<bool>,
}

/// The longest the gate waits for the delay, in wall time, whatever the CPU clock says.
const GATE_WALL_CAP: Duration = Duration::from_millis(250);

/// How often a gate whose delay has passed looks for a free core.
const CORE_POLL: Duration = Duration::from_millis(5);

impl Gate {
    fn new(go: mpsc::Receiver<()>, schedule: Schedule) -> Gate {
        let first_cpu = thread_cpu_clock().and_then(|c| Some((c, cpu_time(c)?)));
        Gate { go, start: Instant::now(), schedule, first_cpu, opened: false.into() }
    }

    /// A gate that is already open.
    fn opened() -> Gate {
        let (_, go) = mpsc::channel();
        let schedule = Schedule::default();
        Gate { go, start: Instant::now(), schedule, first_cpu: None, opened: true.into() }
    }

    /// Waits until the gate opens; then whether to start (the race is not over). Each
    /// engine registers with the interrupt watcher itself (`smt::session::engine_scope`).
    pub fn open(&self, cancel: &Cancel) -> bool {
        self.wait();
        !cancel.is_cancelled()
    }

    /// CPU time the first engine's thread has used since the race began.
    fn first_engine_cpu(&self) -> Option<Duration> {
        let (clock, at_start) = self.first_cpu?;
        Some(cpu_time(clock)?.saturating_sub(at_start))
    }

    /// Waits until the gate opens, with the core the second engine then runs on (none
    /// when the first engine finished: the race needs no second core then).
    pub fn wait(&self) -> Option<Core> {
        if self.opened.replace(true) {
            return None;
        }
        let Schedule { delay, patience, cores } = &self.schedule;
        let (delay, patience) = (*delay, (*patience).max(*delay));
        let delay_cap = delay.max(GATE_WALL_CAP);
        let patience_cap = patience.max(GATE_WALL_CAP) * 4;
        loop {
            let wall = self.start.elapsed();
            let used = self.first_engine_cpu().unwrap_or(wall);
            let past_delay = used >= delay || wall >= delay_cap;
            if past_delay {
                match cores {
                    None => return None,
                    Some(c) => {
                        if let Some(core) = c.try_take() {
                            return Some(core);
                        }
                    }
                }
            }
            if used >= patience || wall >= patience_cap {
                return cores.as_ref().map(|c| c.take_anyway());
            }
            let left = if past_delay {
                CORE_POLL.min(patience - used)
            } else {
                (delay - used).min(delay_cap - wall)
            };
            match self.go.recv_timeout(left.max(Duration::from_millis(1))) {
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                // Disconnected: the first engine is done.
                _ => return None,
            }
        }
    }
}

/// The calling thread's CPU-time clock.
fn thread_cpu_clock() -> Option<libc::clockid_t> {
    let mut id: libc::clockid_t = 0;
    // SAFETY: `id` is a valid out-pointer; `pthread_self` is always valid.
    let r = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
    (r == 0).then_some(id)
}

/// CPU time used so far on `clock` (None when the clock cannot be read, e.g. its
/// thread has exited).
fn cpu_time(clock: libc::clockid_t) -> Option<Duration> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer.
    let r = unsafe { libc::clock_gettime(clock, &mut ts) };
    (r == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

fn not_started() -> Outcome {
    unknown_outcome(Engine::Refute, UnknownReason::Cancelled("cancelled before it started".into()))
}

/// A second engine that starts when the gate opens (unless the race is already over).
pub fn after_gate(
    f: impl FnOnce(&Cancel) -> Outcome + Send + 'static,
) -> impl FnOnce(&Cancel, &Gate) -> Outcome + Send + 'static {
    move |c, gate| {
        if !gate.open(c) {
            return not_started();
        }
        f(c)
    }
}

/// Runs `first` and `second` concurrently under child tokens of `cancel`. The first
/// definitive outcome is returned at once and the other engine cancelled; if neither
/// is definitive, their reasons are combined.
///
/// `first` runs on the calling thread, keeping its Z3 context. `second` runs on a
/// long-lived worker thread (see [`workers`]) when the gate opens while `first` still
/// runs, and otherwise after `first` on the calling thread. When `first` wins, the
/// cancelled `second` finishes on its worker unobserved.
///
/// `second` gets a [`Gate`] that opens once `first` has used `delay` of CPU time or has
/// given up, whichever comes first: `second` waits for it before any work that competes with
/// `first` for a core.
pub fn race(
    cancel: &Cancel,
    schedule: &Schedule,
    first: impl FnOnce(&Cancel) -> Outcome,
    second: impl FnOnce(&Cancel, &Gate) -> Outcome + Send + 'static,
) -> Outcome {
    race_then(cancel, schedule, first, second, None::<fn(&Cancel) -> Outcome>)
}

/// [`race`], and when `first` gives up while `second` still runs, `follow_up` runs on
/// the calling thread (the core `first` used) beside `second`: the first definitive
/// answer of the two wins. Without a running `second` (it had not started) `second`
/// is handed to the worker when a core is free for it, and run here after `first`
/// otherwise, as in [`race`]. The follow-up's reason is not reported (it repeats
/// `second`'s); its work is counted.
pub fn race_then<F: FnOnce(&Cancel) -> Outcome>(
    cancel: &Cancel,
    schedule: &Schedule,
    first: impl FnOnce(&Cancel) -> Outcome,
    second: impl FnOnce(&Cancel, &Gate) -> Outcome + Send + 'static,
    follow_up: Option<F>,
) -> Outcome {
    let start = Instant::now();
    let first_token = cancel.child();
    let second_token = cancel.child();
    // The follow-up's: cancelled when the first engine's is, and when `second` ends.
    let follow_token = first_token.child();
    let (tx, rx) = mpsc::channel();
    // For `second` handed to a new worker job once the first gave up (`follow_up`).
    let mut handed_tx = Some(tx.clone());
    // Dropped when `first` is done: opens the gate early.
    let (go_tx, go_rx) = mpsc::channel::<()>();
    // Made here: it reads the CPU clock of this thread, which runs `first`.
    let gate = Gate::new(go_rx, schedule.clone());
    // Whoever takes `second` out of the slot runs it: the worker once the gate opens,
    // or this thread when `first` gave up before that, which then spares the tuple a
    // thread hand-off and a second Z3 context.
    let slot: Arc<Mutex<Option<SecondEngine>>> = Arc::new(Mutex::new(Some(Box::new(second))));
    {
        let (mine, theirs, slot) = (second_token.clone(), first_token.clone(), slot.clone());
        let follower = follow_token.clone();
        workers::submit(Box::new(move || {
            // Held while `second` runs: the budget's cores count it.
            let _core = gate.wait();
            let Some(second) = take(&slot) else { return Box::new(|| ()) };
            run_second(second, &gate, &mine, &theirs, &follower, tx)
        }));
    }
    let a = guarded(Engine::Prove, &first_token, || first(&first_token));
    let mut inline = if a.verdict.is_definitive() {
        second_token.cancel();
        None
    } else {
        take(&slot)
    };
    // The follow-up runs beside `second` only: with `second` still waiting (the gate had
    // not opened), it goes to a new worker job when a core is free for it (held by the
    // job). The slot's own job has seen the empty slot or will.
    let follow_up = follow_up.filter(|_| !a.verdict.is_definitive() && !cancel.is_cancelled());
    let follow_up = match (follow_up, inline.take()) {
        (Some(f), None) => Some(f),
        (Some(f), Some(second)) => match free_core(schedule) {
            Some(core) => {
                let (mine, theirs) = (second_token.clone(), first_token.clone());
                let follower = follow_token.clone();
                let tx = handed_tx.take().expect("`second` is handed off once");
                workers::submit(Box::new(move || {
                    let _core = core;
                    run_second(second, &Gate::opened(), &mine, &theirs, &follower, tx)
                }));
                Some(f)
            }
            None => {
                inline = Some(second);
                None
            }
        },
        (None, second) => {
            inline = second;
            None
        }
    };
    // Unused, it must not keep `rx` waiting.
    drop(handed_tx);
    drop(go_tx);
    let mut extra = Stats::default();
    if let Some(f) = follow_up {
        let c = guarded(Engine::Test, &follow_token, || f(&follow_token));
        if c.verdict.is_definitive() {
            second_token.cancel();
            let mut c = c;
            c.time = start.elapsed();
            return c;
        }
        extra = c.stats;
    }
    let mut out = if a.verdict.is_definitive() {
        a
    } else {
        let b = match inline {
            Some(second) => {
                guarded(Engine::Refute, &second_token, || second(&second_token, &Gate::opened()))
            }
            None => rx.recv().unwrap_or_else(|_| {
                unknown_outcome(
                    Engine::Refute,
                    UnknownReason::EnginePanic("internal error (engine thread died)".into()),
                )
            }),
        };
        if b.verdict.is_definitive() {
            b
        } else {
            let mut out = combine_unknowns(vec![a, b]);
            out.stats.runs += extra.runs;
            out.stats.queries += extra.queries;
            out
        }
    };
    out.time = start.elapsed();
    out
}

/// Runs the race's `second` engine on a worker under `mine`; a definitive answer
/// cancels the first engine (`theirs`), and any end stops the follow-up, which only
/// ever runs beside `second`. The answer is sent once the worker is free again.
fn run_second(
    second: SecondEngine,
    gate: &Gate,
    mine: &Cancel,
    theirs: &Cancel,
    follower: &Cancel,
    tx: mpsc::Sender<Outcome>,
) -> workers::Done {
    // `second`'s engines watch its token once they start work: a lost race then
    // interrupts its running Z3 query at once.
    let out = guarded(Engine::Refute, mine, || second(mine, gate));
    if out.verdict.is_definitive() {
        theirs.cancel();
    }
    follower.cancel();
    // The receiver is gone when the race was already decided.
    Box::new(move || {
        let _ = tx.send(out);
    })
}

/// A core for the race's second engine while the calling thread keeps working: from
/// the batch's budget, or, alone, when the machine has more than one.
fn free_core(schedule: &Schedule) -> Option<Option<Core>> {
    match &schedule.cores {
        Some(budget) => budget.try_take().map(Some),
        None => {
            let n = std::thread::available_parallelism().map_or(1, |n| n.get());
            (n > 1).then_some(None)
        }
    }
}

/// The portfolio's second engine, waiting in its slot.
type SecondEngine = Box<dyn FnOnce(&Cancel, &Gate) -> Outcome + Send>;

fn take(slot: &Mutex<Option<SecondEngine>>) -> Option<SecondEngine> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

fn unknown_outcome(engine: Engine, reason: UnknownReason) -> Outcome {
    Outcome {
        verdict: Verdict::Unknown { reason },
        engine,
        time: Duration::ZERO,
        stats: Stats::default(),
    }
}

/// The text of a caught panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    crate::smt::session::panic_message(payload)
}

/// Runs one engine under `cancel`, turning a panic into `unknown` (the engines' entry
/// points guard themselves too; this also covers the portfolio's own work around them).
fn guarded(engine: Engine, cancel: &Cancel, f: impl FnOnce() -> Outcome) -> Outcome {
    crate::smt::session::guarded(engine, cancel, f)
}

/// The engines gave up (or one answered definitively, which then wins): one `unknown`
/// carrying every engine's reason and the work of all, in the order given.
fn combine_unknowns(outs: Vec<Outcome>) -> Outcome {
    if let Some(won) = outs.iter().position(|o| o.verdict.is_definitive()) {
        return outs.into_iter().nth(won).expect("the position is in range");
    }
    let reason_of = |o: &Outcome| match &o.verdict {
        Verdict::Unknown { reason } => reason.clone(),
        other => UnknownReason::Internal(format!("(unexpected {} verdict)", other.name())),
    };
    let reasons: Vec<(Engine, UnknownReason)> =
        outs.iter().map(|o| (o.engine, reason_of(o))).collect();
    let reason = UnknownReason::combine(reasons.iter().map(|(e, r)| (*e, r)));
    let mut stats = Stats::default();
    for o in &outs {
        stats.queries += o.stats.queries;
        stats.candidates += o.stats.candidates;
        stats.paths += o.stats.paths;
        stats.runs += o.stats.runs;
        stats.hypercoverage = stats.hypercoverage.or(o.stats.hypercoverage);
    }
    // The engine that gave up last is reported.
    let last = outs.iter().max_by_key(|o| o.time);
    let engine = last.map_or(Engine::Prove, |o| o.engine);
    let time = last.map_or(Duration::ZERO, |o| o.time);
    Outcome { verdict: Verdict::Unknown { reason }, engine, time, stats }
}

#[cfg(test)]
mod tests;
