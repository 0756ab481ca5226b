//! Z3's memory ceiling (`memory_max_size`): past it Z3 stops the running call and the
//! check answers `unknown`, which [`exhausted`] recognises, instead of the process
//! aborting.
//!
//! The ceiling must sit below every limit the operating system enforces: where the
//! C library's `malloc` fails first (an address-space limit, `ulimit -v`), Z3 4.8.12
//! crashes with a segmentation fault inside the check (seen under `ulimit -v 400000`).
//! So the default is the smallest of three quarters of physical memory, of the
//! control group's limit, and of what the address-space and data limits leave.

use std::sync::OnceLock;

static CEILING_MB: OnceLock<u64> = OnceLock::new();

/// The smallest ceiling accepted (MB).
const MIN_MB: u64 = 64;

/// Sets Z3's memory ceiling (MB), once per process; later calls are ignored. Call it
/// before any other thread uses Z3 (the CLI does, first thing): Z3's global parameters
/// are not safe to change while other threads run Z3. Z3 counts memory per process, so
/// the ceiling bounds all tuples running at once together.
pub fn set_ceiling_mb(mb: u64) {
    // Below a few dozen MB Z3 cannot even create a context, and the z3 crate panics
    // where no engine can catch it (measured: 12 MB fails, 20 MB works).
    let mb = mb.max(MIN_MB);
    CEILING_MB.get_or_init(|| {
        // The hard ceiling makes Z3 throw from whichever allocation crosses it, in any
        // thread, and not all of Z3 4.8.12 survives that (a tester's check crashed on a
        // null pointer while the prover's query crossed it). Below it, the high
        // watermark makes the SMT and SAT engines stop on their own ("memout") first.
        // In bytes, despite Z3's own description of the parameter (megabytes): a value
        // in megabytes stopped every check at once.
        z3::set_global_param("memory_high_watermark", &(soft_mb(mb) << 20).to_string());
        z3::set_global_param("memory_max_size", &mb.to_string());
        mb
    });
}

/// Where Z3's engines stop by themselves, below the hard ceiling `mb`: three quarters
/// of it, and at most 4 GB (the parameter is a 32-bit count of bytes).
fn soft_mb(mb: u64) -> u64 {
    (mb * 3 / 4).min(4095)
}

/// Installs the ceiling unless one was set: the `FOREX_Z3_MEMORY_MB` environment
/// variable if it holds a number, otherwise [`default_ceiling_mb`].
pub fn ensure_ceiling() {
    if CEILING_MB.get().is_none() {
        let from_env = std::env::var("FOREX_Z3_MEMORY_MB").ok().and_then(|v| v.trim().parse().ok());
        set_ceiling_mb(from_env.unwrap_or_else(default_ceiling_mb));
    }
}

/// The ceiling in force (MB), if one was set.
pub fn ceiling_mb() -> Option<u64> {
    CEILING_MB.get().copied()
}

/// Whether Z3's allocations have reached the high watermark below the ceiling: Z3 then
/// fails every check (its reason reads "memout", "unknown", "out of memory" or nothing)
/// until memory is given back.
pub fn exhausted() -> bool {
    // SAFETY: a plain counter read, callable at any time from any thread.
    let used = unsafe { z3_sys::Z3_get_estimated_alloc_size() } as u64;
    ceiling_mb().is_some_and(|mb| used >= soft_mb(mb) << 20)
}

/// Address space (MB) kept for what Z3 does not count: engine threads' stacks (64 MB
/// each, reserved), the front end's 256 MB stack, the allocator's reserves.
const UNCOUNTED_MB: u64 = 512;

/// Whether memory has run out for Z3: its allocations reached the ceiling, or the
/// process's address space is within a few MB of its limit (`ulimit -v`; allocations
/// then fail below the ceiling, and Z3 answers "unknown" or returns no object, which the
/// z3 crate turns into a panic).
pub fn out_of_memory() -> bool {
    exhausted() || address_space_low()
}

fn address_space_low() -> bool {
    const SLACK_MB: u64 = 64;
    match (rlimit_mb(libc::RLIMIT_AS), mapped_mb()) {
        (Some(limit), Some(mapped)) => mapped + SLACK_MB >= limit,
        _ => false,
    }
}

/// The default ceiling (MB): three quarters of physical memory and of the control
/// group's memory limit, and a quarter of what the address-space and data limits leave
/// beyond the memory already mapped and [`UNCOUNTED_MB`]. A quarter: the process maps
/// several times what Z3 counts, how many varying with the engine threads alive at
/// once (bit-vector division tuple under `ulimit -v` 1 GB: with a third, 160 MB, the
/// peak was 650-875 MB mapped, and once, in a loaded test run, an allocation inside Z3
/// failed and aborted the process; with a quarter, 120 MB, 630-800 MB).
pub fn default_ceiling_mb() -> u64 {
    let mut mb = physical_mb().map_or(8 * 1024, |p| p * 3 / 4);
    if let Some(cg) = cgroup_limit_mb() {
        mb = mb.min(cg * 3 / 4);
    }
    let mapped = mapped_mb().unwrap_or(0);
    for resource in [libc::RLIMIT_AS, libc::RLIMIT_DATA] {
        if let Some(limit) = rlimit_mb(resource) {
            mb = mb.min(limit.saturating_sub(mapped + UNCOUNTED_MB) / 4);
        }
    }
    mb
}

fn physical_mb() -> Option<u64> {
    // SAFETY: plain libc queries without pointers.
    let (pages, size) =
        unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    (pages > 0 && size > 0).then(|| (pages as u64).saturating_mul(size as u64) >> 20)
}

/// A finite soft limit on `resource`, in MB.
fn rlimit_mb(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `r` is a valid out-pointer.
    let ok = unsafe { libc::getrlimit(resource, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur >> 20)
}

/// The process's mapped (virtual) size, in MB.
fn mapped_mb() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    // SAFETY: a plain libc query.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    (size > 0).then(|| (pages * size as u64) >> 20)
}

/// The memory limit of the process's control group (v2 `memory.max`, or v1
/// `memory.limit_in_bytes`), when there is one.
fn cgroup_limit_mb() -> Option<u64> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in cgroups.lines() {
        // `0::/path` (v2) or `N:memory:/path` (v1).
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let file = if controllers.is_empty() {
            format!("/sys/fs/cgroup{path}/memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
        } else {
            continue;
        };
        if let Some(bytes) =
            std::fs::read_to_string(file).ok().and_then(|t| t.trim().parse::<u64>().ok())
        {
            // "No limit" reads as `max` (v2, not a number) or as a huge number (v1).
            if bytes < 1 << 60 {
                return Some(bytes >> 20);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_below_physical_memory() {
        let mb = default_ceiling_mb();
        assert!(mb > 0);
        if let Some(p) = physical_mb() {
            assert!(mb <= p * 3 / 4, "{mb} MB of {p} MB");
        }
    }

    #[test]
    fn the_mapped_size_is_read() {
        assert!(mapped_mb().is_some_and(|mb| mb > 0));
    }
}
