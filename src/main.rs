//! The `forex` binary: the command line of `forex::cli`, and the process's allocator.

/// jemalloc serves every allocation of the process, Z3's included: its `malloc` replaces
/// the C library's (`unprefixed_malloc_on_supported_platforms`), so Z3's C++ `new` comes
/// here too.
///
/// Why: each Z3 context allocates and touches about 17 MB at creation (two hash tables
/// of its term managers). With 4 KiB pages that is ~4,200 page faults, 6–10 ms on this
/// project's virtual machines, more than most queries take; backed by transparent huge
/// pages (`thp:always`, jemalloc's own `madvise`) it is ~3 ms. Measured on one context
/// in C, 200 runs: median 6.99 ms → 2.89 ms, 99th percentile 10.2 ms → 4.3 ms.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read by jemalloc at its first allocation (the `MALLOC_CONF`
/// environment variable still overrides them).
///
/// `narenas:1`: one arena for every thread. By default each new thread (the interrupt
/// watcher, Ctrl-C, engine workers) gets its own arena, whose first metadata block and
/// extents are fresh huge pages the kernel must zero: 30 huge pages (60 MB) per one-tuple
/// run against 14 with one arena, median 10.7 -> 9.9 ms on a hyena0 ORHLE file (100 runs
/// each, interleaved). Thread caches keep small allocations off the arena's lock: batch
/// scaling is unchanged (`--jobs 2` over `--jobs 1`: 1.78× and 1.81× with one arena).
#[export_name = "malloc_conf"]
pub static MALLOC_CONF: &[u8; 41] = b"thp:always,metadata_thp:always,narenas:1\0";

fn main() {
    let code = forex::cli::main();
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // The report is written and flushed. `_exit` skips the C++ static destructors of
    // libz3 (and jemalloc's): they cost 0.5–2 ms per run (median 14.1 -> 12.0 ms on a
    // one-tuple file), and could run while a cancelled engine thread is still inside Z3.
    // SAFETY: ends the process; nothing is left to flush or close.
    unsafe { libc::_exit(code) }
}
