//! `cargo bench --bench frontend`: the C front end's time and memory against the size of
//! the program (issue 31: about linear). Generates each family as C text into a
//! temporary folder, runs the release `forex check` on it (the front end alone: the
//! preprocessor, lang-c, the conversion, the lowering of every program), one process per
//! case, and prints: family, n, bytes, what `check` said, wall time, peak memory, and the
//! growth of time and memory over the previous case against the growth of the input.
//!
//! Families: `lines` (one function of n statements), `functions` (n functions, one
//! calling the next), `call-chain` (`f0` calls `f1` … calls `fn`, a tuple on `f0`),
//! `deep-expr` (an n-deep `?:` chain: a "nests too deeply" diagnostic, after parsing).
//! `cargo bench --bench frontend -- chain` runs the families whose name contains `chain`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const TUPLE: &str = "/*@forex tuple t = deterministic(f0, in: [x], out: [ret]); */\n";

fn lines(n: usize) -> String {
    let mut s = format!("{TUPLE}int f0(int x) {{\n  int s = 0;\n");
    for i in 0..n {
        let _ = writeln!(s, "  s = s + x * {} - {};", i % 7, i % 5);
    }
    s + "  return s;\n}\n"
}

fn functions(n: usize) -> String {
    let mut s = String::from(TUPLE);
    for i in (1..n).rev() {
        let _ = writeln!(
            s,
            "int g{i}(int x) {{ int y = x * {}; if (y > {i}) {{ y = y - {i}; }} return y + {}; }}",
            i % 7,
            i % 3
        );
    }
    s + "int f0(int x) { return g1(x) + 1; }\n"
}

fn call_chain(n: usize) -> String {
    let mut s = format!("{TUPLE}int f{n}(int x) {{ return x + 1; }}\n");
    for i in (0..n).rev() {
        let _ = writeln!(s, "int f{i}(int x) {{ return f{}(x) + 1; }}", i + 1);
    }
    s
}

fn deep_expr(n: usize) -> String {
    format!("{TUPLE}int f0(int x) {{ return {}0; }}\n", "x ? 1 : ".repeat(n))
}

struct Family {
    name: &'static str,
    sizes: &'static [usize],
    make: fn(usize) -> String,
}

/// Runs `forex check` on `file`: (what it said, seconds, peak resident memory in MB).
// The child is reaped by `wait4` (for its resource usage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(file: &Path) -> (String, f64, f64) {
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_forex"))
        .arg("check")
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the forex binary runs");
    let pid = child.id() as libc::pid_t;
    let mut err = child.stderr.expect("stderr");
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(&mut err, &mut text);
    let mut status = 0;
    // SAFETY: waits for our own child, with out-parameters that live on this frame.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let secs = start.elapsed().as_secs_f64();
    let said = if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        "ok".to_string()
    } else {
        let first = text.lines().next().unwrap_or("failed");
        let message = first.split(": error: ").nth(1).unwrap_or(first);
        message.chars().take(40).collect()
    };
    (said, secs, usage.ru_maxrss as f64 / 1024.0)
}

fn main() {
    let families = [
        Family { name: "lines", sizes: &[1_000, 10_000, 100_000], make: lines },
        Family { name: "functions", sizes: &[2_000, 20_000], make: functions },
        Family { name: "call-chain", sizes: &[1_000, 3_000, 10_000], make: call_chain },
        Family { name: "deep-expr", sizes: &[1_000, 10_000], make: deep_expr },
    ];
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    println!(
        "{:<11} {:>7} {:>9}  {:<28} {:>8} {:>8}  {:>14}",
        "family", "n", "bytes", "check", "time", "memory", "growth t/m/in"
    );
    for f in families
        .iter()
        .filter(|f| only.is_empty() || only.iter().any(|o| f.name.contains(o.as_str())))
    {
        let mut last: Option<(f64, f64, usize)> = None;
        for &n in f.sizes {
            let text = (f.make)(n);
            let file = tmp.path().join(format!("{}-{n}.c", f.name));
            std::fs::write(&file, &text).expect("the case is written");
            let (said, secs, mb) = run(&file);
            let growth = last.map_or("-".to_string(), |(t, m, b)| {
                format!(
                    "{:.1}/{:.1}/{:.1}x",
                    secs / t.max(1e-3),
                    mb / m.max(1.0),
                    text.len() as f64 / b as f64
                )
            });
            println!(
                "{:<11} {:>7} {:>9}  {:<28} {:>7.2}s {:>6.0}MB  {:>14}",
                f.name,
                n,
                text.len(),
                said,
                secs,
                mb,
                growth
            );
            last = Some((secs, mb, text.len()));
        }
    }
}
