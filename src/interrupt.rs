//! Interrupting Z3 when a cancellation token fires.
//!
//! Engines poll their [`Cancel`] between queries, but one query can run for its whole
//! budget. [`watch`] registers the calling thread's Z3 context with a token; a watcher
//! thread interrupts every registered context whose token is cancelled (or past its
//! deadline), so Ctrl-C, `--fail-fast` and a lost portfolio race stop a running query at
//! once. The interrupted `check` returns `unknown`, which engines already treat as
//! "no answer" — an interrupt can never produce a verdict.
//!
//! Z3 4.8 forgets an interrupt once the running call returns, so the watcher repeats it
//! every [`PERIOD`] for as long as the token stays cancelled and the thread registered.
//! Other interrupted Z3 calls make the z3 crate panic; see [`quiet_cancelled_panics`].
//!
//! Ctrl-C reaches a token through the command line's `cli::ctrl_c` (it must never be an
//! ordinary signal handler, see there).

use crate::cancel::Cancel;
use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// How often the watcher looks at the tokens.
pub const PERIOD: Duration = Duration::from_millis(50);

/// Registered contexts: id → (token, raw `Z3_context`).
type Registry = Mutex<HashMap<u64, (Cancel, usize)>>;

fn registry() -> MutexGuard<'static, HashMap<u64, (Cancel, usize)>> {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    static WATCHER: OnceLock<()> = OnceLock::new();
    WATCHER.get_or_init(|| {
        std::thread::Builder::new()
            .name("z3 interrupts".into())
            .spawn(watcher)
            .expect("cannot start the Z3 interrupt watcher");
    });
    let r = REGISTRY.get_or_init(|| Mutex::new(HashMap::new()));
    r.lock().unwrap_or_else(|e| e.into_inner())
}

fn watcher() {
    loop {
        std::thread::sleep(PERIOD);
        let reg = registry();
        for (cancel, ctx) in reg.values() {
            if cancel.is_cancelled() {
                if let Some(ctx) = NonNull::new(*ctx as *mut z3_sys::_Z3_context) {
                    // SAFETY: a context stays in the registry only while its `Watch` is
                    // alive, and the `Watch` holds the context alive; it removes itself
                    // under this same lock before letting go. Z3 documents
                    // `Z3_interrupt` as callable from another thread.
                    unsafe { z3_sys::Z3_interrupt(ctx) };
                }
            }
        }
    }
}

thread_local! {
    /// The tokens of this thread's live `Watch`es, for the panic hook.
    static WATCHED: RefCell<Vec<(u64, Cancel)>> = const { RefCell::new(Vec::new()) };
}

/// Z3 calls other than `check` (e.g. `simplify`) return null when interrupted, and the
/// z3 crate unwraps that: a panic. Engines catch panics and report `unknown`, and work
/// under a cancelled token is discarded anyway, so the panic message would be noise on
/// stderr. Such panics are kept quiet; every other panic is printed as usual.
fn quiet_cancelled_panics() {
    static HOOK: OnceLock<()> = OnceLock::new();
    HOOK.get_or_init(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let cancelled = WATCHED
                .try_with(|w| w.borrow().iter().any(|(_, c)| c.is_cancelled()))
                .unwrap_or(false);
            // Out of memory, Z3 returns no objects and the z3 crate panics: expected,
            // and reported as the memory running out.
            if !cancelled && !crate::smt::memory::out_of_memory() {
                default(info);
            }
        }));
    });
}

/// While alive, the thread's Z3 context is interrupted whenever its token is cancelled.
/// Not `Send`: it belongs to the thread whose context it watches.
pub struct Watch {
    id: u64,
    _ctx: z3::Context,
    _not_send: PhantomData<*const ()>,
}

/// Interrupts the calling thread's (implicit, thread-local) Z3 context whenever `cancel`
/// is cancelled, until the returned guard is dropped. Call it at the start of a thread
/// that issues queries under `cancel` (each engine thread of a portfolio, each batch
/// worker).
pub fn watch(cancel: &Cancel) -> Watch {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let ctx = z3::Context::thread_local();
    let raw = ctx.get_z3_context().as_ptr() as usize;
    quiet_cancelled_panics();
    WATCHED.with(|w| w.borrow_mut().push((id, cancel.clone())));
    registry().insert(id, (cancel.clone(), raw));
    Watch { id, _ctx: ctx, _not_send: PhantomData }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // Runs before `_ctx` is released, so the watcher never sees a freed context.
        registry().remove(&self.id);
        let cancelled = WATCHED
            .try_with(|w| {
                let mut w = w.borrow_mut();
                let cancelled = w.iter().any(|(id, c)| *id == self.id && c.is_cancelled());
                w.retain(|(id, _)| *id != self.id);
                cancelled
            })
            .unwrap_or(false);
        if cancelled {
            clear_pending_interrupt();
        }
    }
}

/// An interrupt that arrives while the context is idle stays pending, and then fails
/// the next Z3 call of whatever runs on this thread later (a pooled worker's next
/// tuple): `simplify` returns null and the z3 crate panics. A solver check starts by
/// clearing it, so one trivial check leaves the context clean for the next job.
fn clear_pending_interrupt() {
    let _ = crate::smt::session::solver().check();
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Ast, Int};

    /// The next job on a thread whose previous job was cancelled must find a clean
    /// context: a pending interrupt would make its first `simplify` panic.
    #[test]
    fn a_cancelled_watch_leaves_no_pending_interrupt() {
        let cancel = Cancel::new();
        let watch = watch(&cancel);
        cancel.cancel();
        // Let the watcher deliver its interrupt to this idle context.
        std::thread::sleep(PERIOD * 3);
        drop(watch);
        let sum = Int::new_const("x") + Int::from_i64(1) + Int::from_i64(2);
        let simplified = std::panic::catch_unwind(|| sum.simplify().to_string());
        assert_eq!(simplified.ok().as_deref(), Some("(+ 3 x)"));
    }

    fn hard_solver() -> z3::Solver {
        let solver = z3::Solver::new();
        // x³ + y³ = z³ in positive integers: no solution, and none Z3 can find fast.
        solver.from_string(
            "(declare-const x Int) (declare-const y Int) (declare-const z Int) \
             (assert (and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z))))",
        );
        solver
    }

    /// Without the watcher the query would run until its 10-minute timeout.
    #[test]
    fn cancelling_interrupts_a_running_query() {
        let cancel = Cancel::new();
        let _w = watch(&cancel);
        let solver = hard_solver();
        let mut p = z3::Params::new();
        p.set_u32("timeout", 600_000);
        solver.set_params(&p);
        let c = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            c.cancel();
        });
        assert_eq!(solver.check(), z3::SatResult::Unknown);
        assert!(cancel.is_cancelled());
    }

    /// Run as a child process by `panics_of_cancelled_work_are_quiet` (does nothing
    /// otherwise): one panic under a cancelled token, one under a live token.
    #[test]
    fn panic_child() {
        if std::env::var_os("FOREX_PANIC_CHILD").is_none() {
            return;
        }
        let cancelled = Cancel::new();
        cancelled.cancel();
        let w = watch(&cancelled);
        let _ = std::panic::catch_unwind(|| panic!("quiet-because-cancelled"));
        drop(w);
        let _w = watch(&Cancel::new());
        let _ = std::panic::catch_unwind(|| panic!("loud-because-live"));
    }

    #[test]
    fn panics_of_cancelled_work_are_quiet() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "interrupt::tests::panic_child",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("FOREX_PANIC_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("loud-because-live"), "{stderr}");
        assert!(!stderr.contains("quiet-because-cancelled"), "{stderr}");
    }

    #[test]
    fn an_uncancelled_token_leaves_queries_alone_and_drop_unregisters() {
        let cancel = Cancel::new();
        let w = watch(&cancel);
        let solver = z3::Solver::new();
        solver.from_string("(declare-const x Int) (assert (> x 0))");
        std::thread::sleep(PERIOD * 3);
        assert_eq!(solver.check(), z3::SatResult::Sat);
        let id = w.id;
        drop(w);
        assert!(!registry().contains_key(&id));
    }
}
