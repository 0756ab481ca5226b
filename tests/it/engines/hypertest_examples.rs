//! The interpreter and hypertesting on every example in `examples/`.
//!
//! Each example's first line says `// expect: verified` or `// expect: violated`.
//! Hypertesting must find the violation of every `violated` example whose violation
//! concrete search can reach, and must never report `violated` on a `verified` one.

use crate::common::corpus::{self, Expect};
use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::hypertest::{hypertest_report, Strategy, TestOptions};
use forex::interp::{run_program, Chooser, RunEnd};
use forex::ir::{Loc, Module, Type};
use forex::value::Value;
use std::path::PathBuf;
use std::time::Duration;

fn examples() -> Vec<(PathBuf, Option<Expect>, Module)> {
    corpus::examples()
        .into_iter()
        .map(|ex| {
            let module = load_file(&ex.path, InputFormat::Auto)
                .unwrap_or_else(|d| panic!("{}: {}", ex.path.display(), d.messages.join("; ")));
            (ex.path, ex.expect, module)
        })
        .collect()
}

/// Small deterministic choices: 0, 1, 2, … for ints, alternating booleans.
struct Counting(u64);

impl Chooser for Counting {
    fn choose(&mut self, ty: &Type, _at: Loc) -> Option<Value> {
        self.0 += 1;
        Some(match ty {
            Type::Bool => Value::bool(self.0.is_multiple_of(2)),
            Type::Int => Value::int(self.0 % 3),
            other => Value::default_of(other),
        })
    }
}

#[test]
fn every_example_program_runs() {
    for (path, _, module) in examples() {
        for p in &module.programs {
            let mut finished = 0;
            for seed in 0..8i64 {
                // Initial ints 0..7 (and defaults elsewhere).
                let mut state: Vec<Value> = p
                    .vars
                    .iter()
                    .map(|d| match d.ty {
                        Type::Int => Value::int(seed),
                        _ => Value::default_of(&d.ty),
                    })
                    .collect();
                let run = run_program(p, &mut state, &mut Counting(seed as u64), 100_000)
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", path.display(), p.name));
                assert!(!matches!(run.end, RunEnd::OutOfChoices { .. }));
                finished += usize::from(run.end == RunEnd::Finished);
            }
            // A reactive program may run forever (it is judged by its observations).
            let reactive = forex::ir::has_observe(&p.body);
            assert!(reactive || finished > 0, "{}: {} never finished", path.display(), p.name);
        }
    }
}

#[test]
fn hypertesting_finds_example_violations_and_only_those() {
    for (path, expect, module) in examples() {
        for t in &module.tuples {
            if t.is_reactive() {
                reactive_example(&path, expect, t);
                continue;
            }
            for strategy in [Strategy::Fuzz, Strategy::Evo] {
                let opts = TestOptions {
                    strategy,
                    budget: Duration::from_secs(60),
                    seed: 3,
                    dump_smt: None,
                };
                let runs = if expect == Some(Expect::Violated) { 3000 } else { 150 };
                let r = hypertest_report(t, &opts, Some(runs), &Cancel::new());
                let what = format!("{}: {} ({strategy:?}): {}", path.display(), t.name, r.reason());
                match expect {
                    Some(Expect::Violated) => assert!(r.counterexample.is_some(), "{what}"),
                    Some(Expect::Verified | Expect::Unknown) => {
                        assert!(r.counterexample.is_none(), "{what}")
                    }
                    None => panic!("{}: the first line is not an expect line", path.display()),
                }
            }
        }
    }
}

/// Temporal tuples are tested observation by observation (`hypertest::temporal`, one search
/// whatever the strategy): the violation is found, and nothing else is.
fn reactive_example(path: &std::path::Path, expect: Option<Expect>, t: &forex::ir::Tuple) {
    use forex::verdict::Verdict;
    let opts = TestOptions { budget: Duration::from_secs(60), seed: 3, ..TestOptions::default() };
    let out = forex::hypertest::hypertest_runs(t, &opts, Some(300), &Cancel::new());
    let what = format!("{}: {}: {:?}", path.display(), t.name, out.verdict);
    match expect {
        Some(Expect::Violated) => {
            assert!(matches!(out.verdict, Verdict::Violated { .. }), "{what}")
        }
        _ => assert!(matches!(out.verdict, Verdict::Unknown { .. }), "{what}"),
    }
}
