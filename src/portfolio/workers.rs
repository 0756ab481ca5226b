//! Long-lived engine threads: the one Z3 context policy of the process. Batch tuples
//! and the portfolio's second engine run as jobs here; each thread keeps its implicit
//! Z3 context between jobs, so a tuple pays neither a thread start nor a Z3 context
//! (`Z3_mk_context_rc` runs under Z3's global lock and serialised short tuples across
//! cores). A job that finds no idle thread starts a new one, so jobs never wait for
//! each other: callers bound their own concurrency (the batch runs `jobs` tuples).
//!
//! A job hands its result back in two steps: it computes, returning what is left to do
//! ([`Done`], e.g. sending its outcome); the worker counts itself idle and only then runs
//! that. So whoever receives the outcome and submits the next job finds this worker
//! idle, instead of starting a new thread (and a new Z3 context) for it: before this,
//! a batch with `--jobs 2` ran on six threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, OnceLock};

/// What a job does once its worker counts as idle again.
pub type Done = Box<dyn FnOnce() + Send>;
/// A job: its work, returning how to hand its result over.
pub type Job = Box<dyn FnOnce() -> Done + Send>;

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

/// Runs `job` on an idle worker, or on a new one when none is idle. Jobs should catch
/// their own panics to report them; the worker survives them either way.
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
            return job()();
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
        // A job that lets a panic escape must not take the worker (and its context) down.
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        p.idle.fetch_add(1, Ordering::SeqCst);
        if let Ok(done) = done {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(done));
        }
    }
}
