//! `cargo bench --bench scale`: how forex's cost grows with the size of a program rather
//! than with its paths (DESIGN.md §8). Generates each family as `.fe` text into a
//! temporary folder, runs the release `forex` binary on it (`prove --timeout 20 --format
//! json`, one process per case) and prints a table: family, n, expected and actual
//! verdict, the engine that decided, wall time, and the growth of the time over the
//! previous n of the family. Targets: every case decided as expected, the largest of
//! each family under 2 s, growth about linear in n.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// NI over an `else if` chain of `n` arms on `l`; the last arm leaks `h` when `leak`.
fn chain(n: usize, leak: bool) -> String {
    let mut s = String::from("program p {\n  int h, l, o;\n  o = 0;\n");
    for i in 0..n {
        let kw = if i == 0 { "  if" } else { "  } else if" };
        let rhs = if i + 1 == n {
            if leak {
                "h".into()
            } else {
                "l".into()
            }
        } else {
            i.to_string()
        };
        let _ = writeln!(s, "{kw} (l == {i}) {{ o = {rhs};");
    }
    s + "  }\n}\ntuple t = ni(p, low: [l], high: [h], out: [o]);\n"
}

/// NI over `n` sequential independent `if`s on `l`; the last adds `h` when `leak`.
fn sequential(n: usize, leak: bool) -> String {
    let mut s = String::from("program p {\n  int h, l, o;\n  o = 0;\n");
    for i in 0..n {
        let rhs = if i + 1 == n {
            if leak {
                "h".into()
            } else {
                "l".into()
            }
        } else {
            i.to_string()
        };
        let _ = writeln!(s, "  if (l == {i}) {{ o = o + {rhs}; }}");
    }
    s + "}\ntuple t = ni(p, low: [l], high: [h], out: [o]);\n"
}

/// GNI over `n` sequential counted loops, then a random pad that hides `h`.
fn loops_gni(n: usize) -> String {
    let mut s = String::from("program p {\n  int h, l, o, i, r;\n  o = 0;\n");
    for _ in 0..n {
        s += "  i = 0;\n  while (i < 10) { o = o + l; i = i + 1; }\n";
    }
    s + "  r = *;\n  o = o + r + h;\n}\ntuple t = gni(p, low: [l], high: [h], out: [o]);\n"
}

/// Monotonicity over `k` copies of a counting loop.
fn monotone(k: usize) -> String {
    let mut s = String::from(
        "program m {\n  int x, o, i;\n  o = 0;\n  i = 0;\n  while (i < x) { o = o + 2; i = i + 1; }\n}\n",
    );
    let copies: Vec<String> = (0..k).map(|i| format!("c{i}: m")).collect();
    let chain = |v: &str| {
        (1..k).map(|i| format!("c{}.{v} <= c{i}.{v}", i - 1)).collect::<Vec<_>>().join(" && ")
    };
    let _ = write!(
        s,
        "tuple t {{\n  forall {};\n  pre {};\n  post {};\n}}\n",
        copies.join(", "),
        chain("x"),
        chain("o")
    );
    s
}

struct Family {
    name: &'static str,
    sizes: &'static [usize],
    expected: &'static str,
    make: fn(usize) -> String,
}

/// Runs forex on `file`: (verdict, engine, seconds).
fn run(file: &Path) -> (String, String, f64) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_forex"))
        .args(["prove", "--timeout", "20", "--format", "json"])
        .arg(file)
        .output()
        .expect("the forex binary runs");
    let secs = start.elapsed().as_secs_f64();
    let json: serde_json::Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(_) => return ("no-json".into(), "-".into(), secs),
    };
    let r = &json["results"][0];
    let field = |k: &str| r[k].as_str().unwrap_or("-").to_string();
    (field("verdict"), field("engine"), secs)
}

fn main() {
    let families = [
        Family {
            name: "chain-leak",
            sizes: &[100, 300, 1000, 3000],
            expected: "violated",
            make: |n| chain(n, true),
        },
        Family {
            name: "chain-ok",
            sizes: &[100, 300, 1000, 3000],
            expected: "verified",
            make: |n| chain(n, false),
        },
        Family {
            name: "seq-ifs-leak",
            sizes: &[100, 300, 1000, 3000],
            expected: "violated",
            make: |n| sequential(n, true),
        },
        Family {
            name: "seq-ifs-ok",
            sizes: &[100, 300, 1000, 3000],
            expected: "verified",
            make: |n| sequential(n, false),
        },
        Family { name: "loops-gni", sizes: &[2, 4, 8, 16], expected: "verified", make: loops_gni },
        Family {
            name: "monotone-k",
            sizes: &[2, 3, 4, 5, 6, 7, 8],
            expected: "verified",
            make: monotone,
        },
    ];
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    println!(
        "{:<14} {:>5}  {:<9} {:<9} {:<7} {:>8}  {:>7}",
        "family", "n", "expected", "verdict", "engine", "time", "growth"
    );
    let mut misses = 0;
    for f in families
        .iter()
        .filter(|f| only.is_empty() || only.iter().any(|o| f.name.contains(o.as_str())))
    {
        let mut last: Option<f64> = None;
        for &n in f.sizes {
            let file = tmp.path().join(format!("{}-{n}.fe", f.name));
            std::fs::write(&file, (f.make)(n)).expect("the case is written");
            let (verdict, engine, secs) = run(&file);
            let growth = last.map_or("-".to_string(), |l| format!("{:.2}x", secs / l.max(1e-3)));
            let mark = if verdict == f.expected { "" } else { "  <- unexpected" };
            misses += usize::from(verdict != f.expected);
            println!(
                "{:<14} {:>5}  {:<9} {:<9} {:<7} {:>7.2}s  {:>7}{mark}",
                f.name, n, f.expected, verdict, engine, secs, growth
            );
            last = Some(secs);
        }
    }
    println!("{misses} case(s) not decided as expected");
}
