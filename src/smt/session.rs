//! The one way engines ask Z3: a solver (each query in its own push/pop scope), limits
//! and cancellation through the interrupt watch, statistics, and `--dump-smt` files.
//!
//! Every check runs under [`crate::interrupt::watch`] with a token that carries both the
//! caller's cancellation and the query's own time limit, so no check outlives its
//! deadline by more than the watcher's period. Z3's own `timeout` parameter is never
//! used: Z3 4.8.12's timer is a process-wide pool behind one mutex and can deadlock as a
//! check ends. Answers are typed ([`Sat`], [`Why`]); nothing downstream matches text.

use super::incremental::IncrementalSolver;
use crate::cancel::Cancel;
use crate::verdict::{Engine, Outcome, UnknownReason, Verdict};
use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// A fresh solver: the one constructor every engine uses.
///
/// Z3's default solver runs its whole strategy (probes and a tactic for every logic) on
/// each check that is not incremental: about 6 ms even for `x > 3`, more than most of
/// forex's queries take to decide, and paid by every short-lived solver. This solver goes
/// straight to Z3's SMT core, which is what the default solver uses anyway once a query
/// is pushed, and sets up every theory the query mentions (integers, arrays,
/// bit-vectors, sequences, quantifiers): about 0.3 ms for a small query. A solver made
/// for a named logic is as cheap but leaves the theories outside that logic
/// uninterpreted (bit-vector models came back as `bv!val!1`).
pub fn solver() -> Solver {
    z3::Tactic::new("smt").solver()
}

/// A solver that reports unsat cores, which [`solver`]'s does not (its cores come back
/// empty): Z3's default solver, slow to start (see there), for the few callers that
/// read cores.
pub fn core_solver() -> Solver {
    Solver::new()
}

/// Why Z3 gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The caller's deadline (or the query's own limit) passed.
    Timeout,
    /// The caller's token was cancelled (portfolio race lost, Ctrl-C, fail-fast).
    Cancelled,
    /// Z3 reached the process's memory ceiling ([`super::memory`]).
    MemoryOut,
    /// Z3 answered unknown by itself (incompleteness, resource limit); Z3's own words.
    Solver(String),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Timeout => write!(f, "the time limit was reached"),
            Why::Cancelled => write!(f, "cancelled"),
            Why::MemoryOut => write!(f, "Z3 ran out of memory (its memory ceiling was reached)"),
            Why::Solver(why) => write!(f, "Z3 returned unknown ({why})"),
        }
    }
}

/// The outcome of one satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sat {
    Sat,
    Unsat,
    Unknown(Why),
}

impl Sat {
    /// As Z3's own answer, for callers that keep `SatResult` (the reason is dropped).
    pub fn to_z3(&self) -> SatResult {
        match self {
            Sat::Sat => SatResult::Sat,
            Sat::Unsat => SatResult::Unsat,
            Sat::Unknown(_) => SatResult::Unknown,
        }
    }

    pub fn is_sat(&self) -> bool {
        matches!(self, Sat::Sat)
    }
    pub fn is_unsat(&self) -> bool {
        matches!(self, Sat::Unsat)
    }
}

/// `--dump-smt`: every query of one engine run written as an SMT-LIB file.
#[derive(Clone, Debug)]
pub struct Dump {
    dir: PathBuf,
    prefix: String,
}

thread_local! {
    /// Where this thread's checks are written, while a [`DumpScope`] lives.
    static DUMP: RefCell<Option<Dump>> = const { RefCell::new(None) };
}

/// While alive, every check made on this thread through [`check`] (whichever engine,
/// module or helper makes it) is written to the scope's folder; dropping it restores the
/// scope that was active before. Not `Send`: it belongs to the thread it set up.
pub struct DumpScope {
    previous: Option<Option<Dump>>,
    _not_send: PhantomData<*const ()>,
}

/// `--dump-smt DIR` for one engine run on this thread: files
/// `DIR/<tuple>_<engine>_NNNNN.smt2`. Without a folder, nothing changes (an enclosing
/// scope stays in force).
pub fn dump_scope(dir: Option<&PathBuf>, tuple: &str, engine: &str) -> DumpScope {
    let previous = Dump::new(dir, tuple, engine).map(|d| DUMP.with(|t| t.replace(Some(d))));
    DumpScope { previous, _not_send: PhantomData }
}

impl Drop for DumpScope {
    fn drop(&mut self) {
        if let Some(previous) = self.previous.take() {
            let _ = DUMP.try_with(|t| t.replace(previous));
        }
    }
}

/// One engine run on this thread: all its Z3 work (checks, and the `simplify` calls and
/// the like between them) is interrupted once `cancel` fires, and its checks are
/// written under `--dump-smt`. Each engine's entry point makes one; nothing else
/// registers engine threads with the interrupt watcher.
pub struct EngineScope {
    // Dropped in this order: the dump scope, then the watch.
    _dump: DumpScope,
    _watch: crate::interrupt::Watch,
}

pub fn engine_scope(
    cancel: &Cancel,
    dump: Option<&PathBuf>,
    tuple: &str,
    engine: &str,
) -> EngineScope {
    EngineScope { _dump: dump_scope(dump, tuple, engine), _watch: crate::interrupt::watch(cancel) }
}

/// Runs `write` with this thread's dump, while a [`DumpScope`] is in force.
fn with_dump(write: impl FnOnce(&Dump)) {
    let _ = DUMP.try_with(|t| {
        if let Some(d) = t.borrow().as_ref() {
            write(d);
        }
    });
}

fn dump(solver: &Solver, assumptions: &[Bool]) {
    with_dump(|d| d.write(solver, assumptions));
}

/// Dumps a check of `formulas` (read only when dumping) with `assumptions`: the
/// incremental kernels' checks, whose assertions are copied to a solver the dump prints.
fn dump_formulas(formulas: impl FnOnce() -> Vec<Bool>, assumptions: &[Bool]) {
    with_dump(|d| {
        let s = solver();
        for phi in formulas() {
            s.assert(phi);
        }
        d.write(&s, assumptions);
    });
}

impl Dump {
    /// Files `<dir>/<prefix>_<engine>_NNNNN.smt2` (the prefix is sanitised: tuple names
    /// may hold characters that are awkward in file names).
    pub fn new(dir: Option<&PathBuf>, prefix: &str, engine: &str) -> Option<Dump> {
        let dir = dir?;
        // A failure shows up again (and is ignored) when writing each query.
        let _ = std::fs::create_dir_all(dir);
        let clean: String = format!("{prefix}_{engine}")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
            .collect();
        Some(Dump { dir: dir.clone(), prefix: clean })
    }

    /// Writes the solver's assertions plus `assumptions` and a `check-sat`. Z3 prints
    /// shared subterms with `let`, so the file stays linear in the term DAG.
    pub fn write(&self, checked: &Solver, assumptions: &[Bool]) {
        // One sequence per process: two runs of the same engine on the same tuple (the
        // portfolio's two test searches) never overwrite each other's files.
        static SEQUENCE: AtomicU64 = AtomicU64::new(0);
        let number = SEQUENCE.fetch_add(1, Ordering::Relaxed) + 1;
        let mut text = checked.to_smt2();
        for a in assumptions {
            let s = solver();
            s.assert(a);
            text.push_str(&format!("; assumption\n{}", s.to_smt2()));
        }
        text.push_str("(check-sat)\n");
        let path = self.dir.join(format!("{}_{:05}.smt2", self.prefix, number));
        let _ = std::fs::write(path, text);
    }
}

/// A solver [`check`] can run: Z3's own ([`Solver`]) or a kept kernel
/// ([`IncrementalSolver`]).
pub trait Checkable {
    /// Checks the assertions together with `assumptions`.
    fn check_with(&self, assumptions: &[Bool]) -> SatResult;
    /// Z3's reason for the last `unknown`.
    fn reason(&self) -> String;
    /// Writes the check to this thread's `--dump-smt` files, while a dump is in force.
    fn dump_check(&self, assumptions: &[Bool]);
}

impl Checkable for Solver {
    fn check_with(&self, assumptions: &[Bool]) -> SatResult {
        if assumptions.is_empty() {
            self.check()
        } else {
            self.check_assumptions(assumptions)
        }
    }

    fn reason(&self) -> String {
        self.get_reason_unknown().unwrap_or_else(|| "unknown".into())
    }

    fn dump_check(&self, assumptions: &[Bool]) {
        dump(self, assumptions);
    }
}

impl Checkable for IncrementalSolver {
    fn check_with(&self, assumptions: &[Bool]) -> SatResult {
        // No assumptions: Z3's `check_assumptions` with none is its `check`.
        self.check_assumptions(assumptions)
    }

    fn reason(&self) -> String {
        self.reason_unknown()
    }

    fn dump_check(&self, assumptions: &[Bool]) {
        dump_formulas(|| self.assertions(), assumptions);
    }
}

/// Checks `solver` (plus `assumptions`) within `limit` and `cancel`'s deadline, under
/// the interrupt watch. The answer says why when there is none.
pub fn check(
    solver: &impl Checkable,
    assumptions: &[Bool],
    cancel: &Cancel,
    limit: Option<Duration>,
) -> Sat {
    if cancel.is_cancelled() {
        return Sat::Unknown(stopped(cancel));
    }
    solver.dump_check(assumptions);
    watched(cancel, limit, || solver.check_with(assumptions), || solver.reason())
}

/// Runs one check under the interrupt watch with `cancel` and the query's own `limit`;
/// `why` is Z3's reason when the answer is unknown.
fn watched(
    cancel: &Cancel,
    limit: Option<Duration>,
    run: impl FnOnce() -> SatResult,
    why: impl FnOnce() -> String,
) -> Sat {
    let limited = match limit {
        Some(l) => cancel.with_timeout(l),
        None => cancel.child(),
    };
    let r = {
        let _watch = crate::interrupt::watch(&limited);
        run()
    };
    match r {
        SatResult::Sat => Sat::Sat,
        SatResult::Unsat => Sat::Unsat,
        SatResult::Unknown => {
            let why = why();
            // Z3's counter says whether its allocations reached the watermark; Z3's own
            // reason codes say so after it gave the memory back ("memout": an engine
            // stopped at the watermark; "out of memory": an allocation failed).
            let memory = why == "memout" || why == "out of memory";
            if memory || super::memory::out_of_memory() {
                Sat::Unknown(Why::MemoryOut)
            } else if cancel.is_cancelled() {
                Sat::Unknown(stopped(cancel))
            } else if limited.is_cancelled() {
                Sat::Unknown(Why::Timeout)
            } else {
                Sat::Unknown(Why::Solver(why))
            }
        }
    }
}

/// Why work under a cancelled token stopped.
pub fn stopped(cancel: &Cancel) -> Why {
    if cancel.timed_out() {
        Why::Timeout
    } else {
        Why::Cancelled
    }
}

/// Counters of one session.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Checks sent to Z3.
    pub queries: u64,
    /// Queries answered from a cache without Z3.
    pub cache_hits: u64,
    /// Queries found valid by a guessed witness (`QueryEngine::witnesses`).
    pub witnessed: u64,
}

/// One engine run's access to Z3: a lazily made incremental solver (one SMT kernel for
/// the whole run, see [`IncrementalSolver`]), the run's token and statistics (dumps: the
/// thread's [`DumpScope`]).
pub struct Session {
    solver: Option<IncrementalSolver>,
    cancel: Cancel,
    pub stats: Stats,
}

impl Session {
    pub fn new(cancel: &Cancel) -> Session {
        Session { solver: None, cancel: cancel.clone(), stats: Stats::default() }
    }

    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// [`Session::check_scoped`] within `units` of Z3's deterministic resource count
    /// (`rlimit`) instead of a time limit: for short tries, which the interrupt watch
    /// (one look every `interrupt::PERIOD`) cannot end within a few milliseconds.
    pub fn check_scoped_within(&mut self, phi: &Bool, units: u32) -> Sat {
        if let Some(s) = self.kernel() {
            s.set_rlimit(units);
        }
        let r = self.check_scoped(phi, None);
        if let Some(s) = self.solver.as_ref() {
            s.set_rlimit(0);
        }
        r
    }

    /// The session's kernel, made at first use (`None`: Z3 could not make one).
    fn kernel(&mut self) -> Option<&IncrementalSolver> {
        if self.solver.is_none() {
            self.solver = IncrementalSolver::new();
        }
        self.solver.as_ref()
    }

    /// [`Session::check_scoped`] for a check beside the engine's own queries (vacuity
    /// after a proof), which its statistics do not count.
    pub fn check_aside(&mut self, phi: &Bool, limit: Option<Duration>) -> Sat {
        let queries = self.stats.queries;
        let answer = self.check_scoped(phi, limit);
        self.stats.queries = queries;
        answer
    }

    /// Checks `phi` alone in its own scope of the session solver.
    pub fn check_scoped(&mut self, phi: &Bool, limit: Option<Duration>) -> Sat {
        if self.cancel.is_cancelled() {
            return Sat::Unknown(stopped(&self.cancel));
        }
        self.kernel();
        let Some(solver) = self.solver.as_ref() else {
            // Z3 could not even make a solver: only memory runs out that way.
            return Sat::Unknown(Why::MemoryOut);
        };
        self.stats.queries += 1;
        dump_formulas(|| vec![phi.clone()], &[]);
        solver.push();
        solver.assert(phi);
        let r = watched(&self.cancel, limit, || solver.check(), || solver.reason_unknown());
        solver.pop(1);
        r
    }

    /// Checks another solver (e.g. one built from a tactic) with this session's token
    /// and counters.
    pub fn check_other(&mut self, solver: &Solver, limit: Option<Duration>) -> Sat {
        self.stats.queries += 1;
        check(solver, &[], &self.cancel, limit)
    }
}

/// The text of a caught panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Why an engine that panicked under `cancel` stopped. A panic once `cancel` fired is
/// the stop, not a fault: Z3 calls other than checks (`simplify`) return null when
/// interrupted, and the z3 crate panics on that; likewise once memory ran out.
pub fn panic_reason(cancel: &Cancel, message: &str) -> UnknownReason {
    if cancel.timed_out() {
        UnknownReason::Cancelled("the time limit was reached".into())
    } else if cancel.is_cancelled() {
        UnknownReason::Cancelled("cancelled".into())
    } else if super::memory::out_of_memory() {
        UnknownReason::MemoryOut(Why::MemoryOut.to_string())
    } else {
        UnknownReason::EnginePanic(format!("internal error (panic: {message})"))
    }
}

/// Runs an engine's work under `cancel`, turning a panic into `unknown` (see
/// [`panic_reason`]): every engine's entry point goes through it, so that no caller (the
/// portfolio, a batch, a test calling an engine directly) sees a panic.
pub fn guarded(engine: Engine, cancel: &Cancel, f: impl FnOnce() -> Outcome) -> Outcome {
    let start = std::time::Instant::now();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let reason = panic_reason(cancel, &panic_message(&*panic));
        Outcome {
            verdict: Verdict::Unknown { reason },
            engine,
            time: start.elapsed(),
            stats: Default::default(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;

    #[test]
    fn answers_are_typed() {
        let mut s = Session::new(&Cancel::new());
        let x = Int::new_const("x");
        assert_eq!(s.check_scoped(&x.gt(Int::from_i64(0)), None), Sat::Sat);
        let contradiction = Bool::and(&[x.gt(Int::from_i64(0)), x.lt(Int::from_i64(0))]);
        assert_eq!(s.check_scoped(&contradiction, None), Sat::Unsat);
        assert_eq!(s.stats.queries, 2);
    }

    #[test]
    fn a_passed_deadline_is_a_timeout_and_a_cancel_is_a_cancel() {
        let x = Int::new_const("x");
        let mut s = Session::new(&Cancel::new().with_timeout(Duration::ZERO));
        assert_eq!(s.check_scoped(&x.gt(Int::from_i64(0)), None), Sat::Unknown(Why::Timeout));
        let c = Cancel::new();
        c.cancel();
        let mut s = Session::new(&c);
        assert_eq!(s.check_scoped(&x.gt(Int::from_i64(0)), None), Sat::Unknown(Why::Cancelled));
    }

    #[test]
    fn an_engine_that_panics_is_unknown_and_after_its_deadline_it_timed_out() {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let late = Cancel::new().with_timeout(Duration::ZERO);
        let out = guarded(Engine::Test, &late, || panic!("z3 returned null"));
        let fresh = Cancel::new();
        let fault = guarded(Engine::Prove, &fresh, || panic!("a bug"));
        std::panic::set_hook(quiet);
        let Verdict::Unknown { reason } = out.verdict else { panic!("{:?}", out.verdict) };
        assert_eq!(reason, UnknownReason::Cancelled("the time limit was reached".into()));
        assert_eq!(out.engine, Engine::Test);
        let Verdict::Unknown { reason } = fault.verdict else { panic!("{:?}", fault.verdict) };
        assert_eq!(reason, UnknownReason::EnginePanic("internal error (panic: a bug)".into()));
    }

    #[test]
    fn dumps_each_check() {
        let dir = std::env::temp_dir().join(format!("forex-session-dump-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let x = Int::new_const("x");
        {
            let _scope = dump_scope(Some(&dir), "t/1", "refute");
            let mut s = Session::new(&Cancel::new());
            s.check_scoped(&x.gt(Int::from_i64(0)), None);
            // A helper's own solver is dumped too.
            let other = solver();
            other.assert(x.lt(Int::from_i64(0)));
            check(&other, &[], &Cancel::new(), None);
        }
        // Outside the scope nothing is written.
        Session::new(&Cancel::new()).check_scoped(&x.gt(Int::from_i64(1)), None);
        let files: Vec<_> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(files.len(), 2);
        assert!(files.iter().all(|f| f.to_str().unwrap().starts_with("t_1_refute_")), "{files:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
