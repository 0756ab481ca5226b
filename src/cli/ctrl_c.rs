//! Ctrl-C for the command line: the first press cancels the batch's root token, the
//! second ends the process. Kept out of the library (which never exits the process).
//!
//! [`on_ctrl_c`] routes Ctrl-C to a token. It cannot be an ordinary signal handler: Z3
//! swaps in its own SIGINT handler for the duration of every `check` (its `ctrl_c`
//! solver parameter defaults to true), so a handler installed with the `ctrlc` crate
//! misses a Ctrl-C that arrives while a query runs — that is, almost always — and
//! concurrent checks can leave Z3's handler installed for good.

use crate::cancel::Cancel;

/// What Ctrl-C does: the first press cancels `root` (the batch stops and reports what
/// finished), the second ends the process at once with exit code 130.
///
/// Call it first thing in `main`, before any thread exists. On Unix, SIGINT is blocked
/// in this thread, so in every thread started later (Z3's own included), and a dedicated
/// thread takes it with `sigwait`: no handler runs, so Z3 cannot intercept it.
pub fn on_ctrl_c(root: &Cancel) {
    let root = root.clone();
    let mut presses = 0;
    let mut press = move || {
        presses += 1;
        if presses > 1 {
            std::process::exit(130);
        }
        root.cancel();
    };
    #[cfg(unix)]
    {
        // SAFETY: plain libc calls on a local, initialised signal set.
        let set = unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            set
        };
        let started = std::thread::Builder::new().name("ctrl-c".into()).spawn(move || loop {
            let mut sig = 0;
            // SAFETY: `set` is a valid signal set; `sig` a valid out-pointer.
            if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
                press();
            }
        });
        if let Err(e) = started {
            eprintln!("warning: Ctrl-C will not stop the batch cleanly: {e}");
        }
    }
    #[cfg(not(unix))]
    if let Err(e) = ctrlc::set_handler(press) {
        eprintln!("warning: Ctrl-C will not stop the batch cleanly: {e}");
    }
}
