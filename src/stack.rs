//! Large stacks on the calling thread.
//!
//! The front end and the engines recurse over syntax and IR (depth bounded by
//! `ir::MAX_DEPTH`), which needs more than a default thread's 8 MB in unoptimised
//! builds. They used to get it from a fresh thread per file and per tuple; on this
//! project's virtual machines a hand-off to a thread on the other, idle core costs
//! 1.5–7 ms (the idle virtual CPU has to be woken), more than parsing a file and often
//! more than deciding a small tuple. [`run_on_big_stack`] switches the calling thread
//! to a fresh stack instead (`stacker`: one `mmap`, committed only as it is touched).

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// Stack for parsing and checking one file.
pub const PARSE: usize = 256 << 20;

/// Stack for deciding one tuple (engines recurse over expressions).
pub const ENGINE: usize = 64 << 20;

/// Runs `f` on a stack of at least `size` bytes, on the calling thread. A panic in `f`
/// reaches the caller as usual (it is carried across the stack switch, never unwound
/// through it). Where the stack cannot be mapped (an address-space limit, `ulimit -v`),
/// `f` runs on the current stack: the depth limits of the front end and the IR keep
/// that safe in optimised builds.
pub fn run_on_big_stack<R>(size: usize, f: impl FnOnce() -> R) -> R {
    if !can_map(size) {
        return f();
    }
    match stacker::grow(size, || catch_unwind(AssertUnwindSafe(f))) {
        Ok(r) => r,
        Err(panic) => resume_unwind(panic),
    }
}

/// Whether `size` bytes of address space can be mapped now (`stacker` panics when its
/// mapping fails; this asks first).
fn can_map(size: usize) -> bool {
    // SAFETY: an anonymous, inaccessible mapping that nothing refers to, unmapped at once.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            return false;
        }
        libc::munmap(p, size);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(n: u64) -> u64 {
        // A frame that the optimiser cannot fold away.
        let pad = std::hint::black_box([n; 64]);
        if n == 0 {
            pad[0]
        } else {
            depth(n - 1) + pad[1] - n + 1
        }
    }

    /// 200,000 frames of over 512 bytes: ~100 MB, far past a default thread's stack.
    #[test]
    fn deep_recursion_fits() {
        assert_eq!(run_on_big_stack(PARSE, || depth(200_000)), 200_000);
    }

    /// An address space too small for the stack: `f` still runs, on the current stack.
    #[test]
    fn an_unmappable_stack_runs_here() {
        assert!(!can_map(usize::MAX / 2));
        assert!(can_map(PARSE));
    }

    #[test]
    fn panics_reach_the_caller() {
        let caught = catch_unwind(|| run_on_big_stack(ENGINE, || panic!("inside")));
        let payload = caught.expect_err("the panic is carried out");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"inside"));
    }
}
