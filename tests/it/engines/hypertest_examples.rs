//! The interpreter and hypertesting on every example in `examples/`.
//!
//! Each example's first line says `// expect: verified` or `// expect: violated`.
//! Hypertesting must find the violation of every `violated` example whose violation
//! concrete search can reach, and must never report `violated` on a `verified` one.

use forex::cancel::Cancel;
use forex::frontend::{load_file, InputFormat};
use forex::hypertest::{hypertest_report, Strategy, TestOptions};
use forex::interp::{run_program, Chooser, RunEnd};
use forex::ir::{Loc, Module, Type};
use forex::value::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn examples() -> Vec<(PathBuf, String, Module)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "fe"));
    paths.sort();
    assert!(!paths.is_empty(), "no examples in {}", dir.display());
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let module = load_file(&p, InputFormat::Auto)
                .unwrap_or_else(|d| panic!("{}: {}", p.display(), d.messages.join("; ")));
            let expect = text.lines().next().unwrap_or("").trim().to_string();
            (p, expect, module)
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
            assert!(finished > 0, "{}: {} never finished", path.display(), p.name);
        }
    }
}

#[test]
fn hypertesting_finds_example_violations_and_only_those() {
    for (path, expect, module) in examples() {
        for t in &module.tuples {
            for strategy in [Strategy::Fuzz, Strategy::Evo] {
                let opts = TestOptions { strategy, budget: Duration::from_secs(60), seed: 3 };
                let runs = if expect.ends_with("violated") { 3000 } else { 150 };
                let r = hypertest_report(t, &opts, Some(runs), &Cancel::new());
                let what = format!("{}: {} ({strategy:?}): {}", path.display(), t.name, r.reason());
                match expect.as_str() {
                    "// expect: violated" => assert!(r.counterexample.is_some(), "{what}"),
                    "// expect: verified" => assert!(r.counterexample.is_none(), "{what}"),
                    other => panic!("{}: unexpected first line {other:?}", path.display()),
                }
            }
        }
    }
}
