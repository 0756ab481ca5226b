//! The C compiler as an oracle: a `violated` C tuple's counterexample replayed on the
//! compiled program (LANGUAGE.md "C programs", DESIGN.md §10).
//!
//! **This runs the user's code.** Only on an explicit request: `forex run --native` and
//! `forex prove --native-check`; never by default, never from the language server. The
//! program is compiled by the system compiler (`$FOREX_CC`, `$CC`, `cc`, `gcc` or
//! `clang`) in a fresh temporary folder and run there under a time limit, then killed.
//!
//! `harness` writes one C file that holds the user's source, feeds the ∀ functions the
//! counterexample's inputs, nondeterministic choices and library results, and prints
//! what the compiled code computed; `exec` compiles and runs it; [`check_counterexample`]
//! compares the printed values with the counterexample's final values, per variable:
//! integers by value, floats bit for bit with every NaN the one NaN (`cint` says why).
//! `report` runs the check for the violated C tuples of a `forex prove` report.

mod cint;
pub mod exec;
pub mod harness;
pub mod report;
mod scan;

use crate::ir::c::{CInfo, IntModel};
use crate::ir::Tuple;
use crate::verdict::Counterexample;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub use harness::{Harness, NoHarness};

/// How to compile and run.
#[derive(Clone, Debug)]
pub struct NativeOptions {
    /// The compiler; `None` tries `$FOREX_CC`, `$CC`, `cc`, `gcc`, `clang`.
    pub compiler: Option<String>,
    /// The harness is killed after this long.
    pub time_limit: Duration,
    /// Keep a copy of the generated harness in this folder.
    pub keep: Option<PathBuf>,
    /// How the file was read: its `-I` folders and `-D` macros compile the harness too.
    pub front: crate::frontend::Options,
}

impl Default for NativeOptions {
    fn default() -> Self {
        NativeOptions {
            compiler: None,
            time_limit: Duration::from_secs(10),
            keep: None,
            front: crate::frontend::Options::default(),
        }
    }
}

/// One value on which forex's run and the compiled code differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// `copy.variable`, or `copy.variable[index]` for an array element, or `copy (choices)`.
    pub variable: String,
    pub forex: String,
    pub native: String,
}

/// What the native replay of a counterexample found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum NativeOutcome {
    /// The compiled code computed the counterexample's final values: `compared` values
    /// (scalars, returned values, array elements listed or laid out). `unobserved`: the
    /// counterexample's variables the compiled code does not show (locals).
    Agrees { compared: usize, unobserved: Vec<String> },
    /// The compiled code computed something else, or stopped (`stopped`: why).
    Disagrees {
        differences: Vec<Difference>,
        #[serde(skip_serializing_if = "Option::is_none")]
        stopped: Option<String>,
        unobserved: Vec<String>,
    },
    /// No C compiler was found.
    NoCompiler { tried: Vec<String> },
    /// The compiler rejected the harness (its message).
    CompileError { compiler: String, message: String },
    /// The compiled harness ran past the time limit and was killed.
    TimeLimit { limit_ms: u64 },
    /// The math model's unbounded values do not fit the C types (the counterexample's
    /// values, or a signed intermediate result that overflowed: `-ftrapv`).
    NotRepresentable { reasons: Vec<String> },
    /// The counterexample or tuple has something the harness cannot replay.
    Unsupported { reason: String },
}

impl NativeOutcome {
    /// The result's name in JSON (`agrees`, `disagrees`, …).
    pub fn name(&self) -> &'static str {
        match self {
            NativeOutcome::Agrees { .. } => "agrees",
            NativeOutcome::Disagrees { .. } => "disagrees",
            NativeOutcome::NoCompiler { .. } => "no_compiler",
            NativeOutcome::CompileError { .. } => "compile_error",
            NativeOutcome::TimeLimit { .. } => "time_limit",
            NativeOutcome::NotRepresentable { .. } => "not_representable",
            NativeOutcome::Unsupported { .. } => "unsupported",
        }
    }
}

impl fmt::Display for NativeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unobserved = |f: &mut fmt::Formatter<'_>, u: &[String]| {
            if u.is_empty() {
                Ok(())
            } else {
                write!(f, " (not observable natively: {})", u.join(", "))
            }
        };
        match self {
            NativeOutcome::Agrees { compared, unobserved: u } => {
                write!(f, "agrees: the compiled code computes the same {compared} values")?;
                unobserved(f, u)
            }
            NativeOutcome::Disagrees { differences, stopped, unobserved: u } => {
                write!(f, "DISAGREES with the compiled code")?;
                if let Some(why) = stopped {
                    write!(f, "; the native run stopped: {why}")?;
                }
                for d in differences {
                    write!(f, "\n    {}: forex {}, native {}", d.variable, d.forex, d.native)?;
                }
                unobserved(f, u)
            }
            NativeOutcome::NoCompiler { tried } => {
                write!(f, "not checked: no C compiler found (tried {})", tried.join(", "))
            }
            NativeOutcome::CompileError { compiler, message } => {
                write!(f, "not checked: {compiler} rejected the harness:\n{}", message.trim_end())
            }
            NativeOutcome::TimeLimit { limit_ms } => {
                write!(f, "not checked: the compiled code ran past {limit_ms} ms and was killed")
            }
            NativeOutcome::NotRepresentable { reasons } => write!(
                f,
                "not checked: the math model's values do not fit the C types: {}",
                reasons.join("; ")
            ),
            NativeOutcome::Unsupported { reason } => write!(f, "not checked: {reason}"),
        }
    }
}

/// Replays `cex`, a counterexample of `tuple` from the `.c` file `file_name` whose text
/// is `source` and whose C facts are `info`, on the compiled code. Runs the user's code.
pub fn check_counterexample(
    source: &str,
    file_name: &str,
    info: &CInfo,
    tuple: &Tuple,
    cex: &Counterexample,
    opts: &NativeOptions,
) -> NativeOutcome {
    let h = match harness::write(source, file_name, info, tuple, cex) {
        Ok(h) => h,
        Err(NoHarness::Unsupported(reason)) => return NativeOutcome::Unsupported { reason },
        Err(NoHarness::NotRepresentable(reasons)) => {
            return NativeOutcome::NotRepresentable { reasons }
        }
    };
    let ran = exec::compile_and_run(
        &h.text,
        h.model,
        opts.compiler.as_deref(),
        opts.time_limit,
        opts.keep.as_deref(),
        &preprocessor_flags(file_name, &opts.front),
    );
    compare(&h, ran, opts.time_limit)
}

/// The preprocessor's flags for the harness, which holds the user's source: the file's
/// folder for `#include "…"` (the harness is compiled elsewhere), `-I` and `-D`.
fn preprocessor_flags(file_name: &str, front: &crate::frontend::Options) -> Vec<String> {
    let mut out = Vec::new();
    let dir = std::path::Path::new(file_name).parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.map_or_else(|| std::path::PathBuf::from("."), |d| d.to_path_buf());
    if let Ok(abs) = std::fs::canonicalize(&dir) {
        out.push("-iquote".to_string());
        out.push(abs.display().to_string());
    }
    for d in &front.cc.include_dirs {
        out.push("-I".to_string());
        out.push(std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()).display().to_string());
    }
    for d in &front.cc.defines {
        out.push(format!("-D{d}"));
    }
    out
}

/// The harness's run against its expectations.
fn compare(h: &Harness, ran: exec::Ran, limit: Duration) -> NativeOutcome {
    let (code, signal, stdout) = match ran {
        exec::Ran::Exited { code, signal, stdout } => (code, signal, stdout),
        exec::Ran::NoCompiler { tried } => return NativeOutcome::NoCompiler { tried },
        exec::Ran::CompileError { compiler, message } => {
            return NativeOutcome::CompileError { compiler, message }
        }
        exec::Ran::TimeLimit => {
            return NativeOutcome::TimeLimit { limit_ms: limit.as_millis() as u64 }
        }
        exec::Ran::Failed(reason) => return NativeOutcome::Unsupported { reason },
    };
    let unobserved: Vec<String> = h
        .copies
        .iter()
        .flat_map(|c| c.unobserved.iter().map(move |v| format!("{}.{v}", c.name)))
        .collect();
    let mut stopped = None;
    // Signal 6 is SIGABRT: `-ftrapv`'s trap in the math model.
    if h.model == IntModel::Math && signal == Some(6) {
        return NativeOutcome::NotRepresentable {
            reasons: vec!["a signed intermediate result overflowed its C type (the math model's \
                 integers are unbounded; the compiled code trapped, -ftrapv)"
                .into()],
        };
    }
    if let Some(sig) = signal {
        stopped = Some(format!("killed by signal {sig}{}", signal_name(sig)));
    } else if code != Some(0) {
        let why = stdout
            .lines()
            .find_map(|l| l.strip_prefix("FOREX-STOP "))
            .map(|rest| {
                let (k, why) = rest.split_once(' ').unwrap_or(("", rest));
                let copy = k.parse::<usize>().ok().and_then(|k| h.copies.get(k));
                match copy {
                    Some(c) => format!("copy {}: {why}", c.name),
                    None => why.to_string(),
                }
            })
            .unwrap_or_else(|| format!("exit code {}", code.unwrap_or(-1)));
        stopped = Some(why);
    }
    let printed = parse_output(&stdout);
    let mut differences = Vec::new();
    let mut compared = 0;
    for (k, copy) in h.copies.iter().enumerate() {
        for (var, ty, expected) in &copy.scalars {
            compared += 1;
            let native = printed.scalars.get(&(k, var.clone()));
            if !native.is_some_and(|n| cint::same(*ty, *expected, *n)) {
                differences.push(Difference {
                    variable: format!("{}.{var}", copy.name),
                    forex: cint::show(*ty, *expected),
                    native: native.map_or("(not reached)".into(), |n| cint::show(*ty, *n)),
                });
            }
        }
        for a in &copy.arrays {
            let native = printed.arrays.get(&(k, a.name.clone()));
            let mut indices: Vec<i128> =
                a.entries.keys().copied().filter(|i| (a.lo..=a.hi).contains(i)).collect();
            if let Some(n) = native {
                indices.extend(n.keys().copied());
            }
            indices.sort_unstable();
            indices.dedup();
            compared += indices.len().max(1);
            for i in indices {
                let want = a.entries.get(&i).copied().unwrap_or(a.default);
                let got = match native {
                    Some(n) => n.get(&i).copied().unwrap_or(a.default),
                    None if stopped.is_some() => {
                        differences.push(Difference {
                            variable: format!("{}.{}", copy.name, a.name),
                            forex: "(final contents)".into(),
                            native: "(not reached)".into(),
                        });
                        break;
                    }
                    None => a.default,
                };
                if !cint::same(a.elem, want, got) {
                    differences.push(Difference {
                        variable: format!("{}.{}[{i}]", copy.name, a.name),
                        forex: cint::show(a.elem, want),
                        native: cint::show(a.elem, got),
                    });
                }
            }
        }
        if let Some(used) = printed.choices.get(&k) {
            if *used != copy.choices {
                differences.push(Difference {
                    variable: format!("{} (choices taken)", copy.name),
                    forex: copy.choices.to_string(),
                    native: used.to_string(),
                });
            }
        }
    }
    if differences.is_empty() && stopped.is_none() {
        NativeOutcome::Agrees { compared, unobserved }
    } else {
        NativeOutcome::Disagrees { differences, stopped, unobserved }
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        6 => " (SIGABRT)",
        8 => " (SIGFPE: a division by zero or INT_MIN / -1, which has no run in forex)",
        11 => " (SIGSEGV: an array access outside the laid-out elements)",
        _ => "",
    }
}

#[derive(Default)]
struct Printed {
    scalars: std::collections::HashMap<(usize, String), i128>,
    arrays: std::collections::HashMap<(usize, String), std::collections::BTreeMap<i128, i128>>,
    choices: std::collections::HashMap<usize, usize>,
}

fn parse_output(stdout: &str) -> Printed {
    let mut p = Printed::default();
    for line in stdout.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["V", k, var, v] => {
                if let (Ok(k), Ok(v)) = (k.parse(), v.parse()) {
                    p.scalars.insert((k, var.to_string()), v);
                }
            }
            ["A", k, var, i, v] => {
                if let (Ok(k), Ok(i), Ok(v)) = (k.parse(), i.parse(), v.parse()) {
                    p.arrays.entry((k, var.to_string())).or_default().insert(i, v);
                }
            }
            ["N", k, n] => {
                if let (Ok(k), Ok(n)) = (k.parse(), n.parse()) {
                    p.choices.insert(k, n);
                }
            }
            _ => {}
        }
    }
    p
}

#[cfg(test)]
mod tests;
