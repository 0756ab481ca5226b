//! forex's C semantics against the system C compiler: random C functions (`common::cgen`)
//! and every `examples/c` file, run on random inputs by forex's interpreter (on the IR
//! the C front end produces) and natively (`forex::native`, the harness that replays a
//! counterexample); every compared value must agree, in both integer models.
//!
//! Every test skips with a note when no C compiler is installed. The comparisons need
//! the C front end (`InputFormat::C`).

use crate::common::cgen::{sample_programs, CProgram, Model};
use forex::diag::DiagStyle;
use forex::frontend::{load_source, InputFormat};
use forex::interp::{self, Chooser, RunEnd};
use forex::ir::float::FloatKind;
use forex::ir::{Loc, Module, Type};
use forex::native::{check_counterexample, exec, NativeOptions, NativeOutcome};
use forex::value::Value;
use forex::verdict::{CopyRun, Counterexample};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The one call of the C front end.
fn load_c(name: &str, source: &str) -> Module {
    load_source(name, source.as_bytes(), InputFormat::C)
        .unwrap_or_else(|d| panic!("{name} is rejected:\n{}\n{source}", d.render(DiagStyle::Short)))
}

pub(super) fn compiler() -> Option<String> {
    match exec::find_compiler(None) {
        Ok(cc) => Some(cc),
        Err(tried) => {
            eprintln!(
                "note: no C compiler found (tried {}): C native tests skipped",
                tried.join(", ")
            );
            None
        }
    }
}

fn examples_c() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/c")
        .map(|e| e.expect("readable examples/c").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 4, "examples/c has {} files", paths.len());
    paths
}

/// What the verification annotations use that C does not declare.
const PRELUDE: &str = "void _invariant(const char *);\nvoid assume(int);\n\
                       void __VERIFIER_assume(int);\nint __VERIFIER_nondet_int(void);\n";

/// `cc -fsyntax-only` on `source`; `Err` holds cc's message.
fn syntax_check(cc: &str, name: &str, source: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().expect("temporary folder");
    let prelude = dir.path().join("prelude.h");
    std::fs::write(&prelude, PRELUDE).expect("prelude");
    let file = dir.path().join(name);
    std::fs::write(&file, source).expect("source");
    let out = Command::new(cc)
        .args(["-std=gnu11", "-fsyntax-only", "-Werror=implicit-int", "-include"])
        .arg(&prelude)
        .arg(&file)
        .output()
        .expect("cc runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn c_examples_are_valid_c_with_an_expectation() {
    let Some(cc) = compiler() else { return };
    for path in examples_c() {
        let source = std::fs::read_to_string(&path).unwrap();
        let first = source.lines().next().unwrap_or("");
        assert!(
            first.starts_with("// expect: ") || first.starts_with("// expect-each: "),
            "{}: the first line must state the expected verdict",
            path.display()
        );
        let name = path.file_name().unwrap().to_str().unwrap();
        if let Err(message) = syntax_check(&cc, name, &source) {
            panic!("{} is not valid C:\n{message}", path.display());
        }
    }
}

#[test]
fn generated_c_programs_are_valid_c() {
    let Some(cc) = compiler() else { return };
    for (model, seed) in [(Model::Machine, 1), (Model::Math, 2)] {
        for (k, p) in sample_programs(model, true, 40, seed).iter().enumerate() {
            if let Err(message) = syntax_check(&cc, "gen.c", &p.file()) {
                panic!(
                    "generated program {k} ({model:?}) is not valid C:\n{message}\n{}",
                    p.file()
                );
            }
        }
    }
}

/// Random values for the nondeterministic choices, recorded by the interpreter's run.
struct RandomChoices<'r> {
    rng: &'r mut ChaCha8Rng,
    small: bool,
}

impl Chooser for RandomChoices<'_> {
    fn choose(&mut self, ty: &Type, _at: Loc) -> Option<Value> {
        Some(random_value(self.rng, ty, self.small))
    }
}

/// A random value of an IR type: bit-vectors mix small values and extremes; unbounded
/// integers stay small (math model: the compiled code's widths must hold them).
fn random_value(rng: &mut ChaCha8Rng, ty: &Type, small: bool) -> Value {
    match ty {
        Type::Int if small => Value::int(rng.gen_range(-12i64..=12)),
        Type::Int => Value::int(rng.gen_range(-1000i64..=1000)),
        Type::Bool => Value::bool(rng.gen()),
        Type::Bv(w) => {
            let v: u128 = match rng.gen_range(0..4) {
                0 => rng.gen_range(0..8),
                1 => u128::MAX - rng.gen_range(0..8),
                2 => (1u128 << (w - 1)) + rng.gen_range(0..3) - 1,
                _ => rng.gen(),
            };
            Value::bv(v, *w)
        }
        Type::Str => Value::Str { value: String::new() },
        Type::Float(k) => Value::float(*k, random_float(rng, *k)),
        Type::Array(elem) => {
            let mut a = Value::default_of(ty);
            for i in -1i64..6 {
                a.store(i.into(), random_value(rng, elem, small));
            }
            a
        }
    }
}

/// A random float's bits: the specials (±0, ±infinity, NaN, the smallest and largest
/// subnormals and normals), any bit pattern, small decimals, small integers.
fn random_float(rng: &mut ChaCha8Rng, k: FloatKind) -> u64 {
    match rng.gen_range(0..4) {
        0 => {
            let specials = [
                k.zero(false),
                k.zero(true),
                k.infinity(false),
                k.infinity(true),
                k.nan(),
                1,
                (1u64 << (k.sbits() - 1)) - 1,
                1u64 << (k.sbits() - 1),
                k.infinity(false) - 1,
                k.from_f64(1.0),
                k.from_f64(-0.1),
            ];
            let b = specials[rng.gen_range(0..specials.len())];
            if rng.gen() {
                b ^ (1u64 << (k.width() - 1))
            } else {
                b
            }
        }
        1 => rng.gen::<u64>() & if k.width() == 64 { u64::MAX } else { (1u64 << k.width()) - 1 },
        2 => k.from_f64(rng.gen_range(-100.0..100.0)),
        _ => k.from_f64(f64::from(rng.gen_range(-20i32..20))),
    }
}

/// Runs every tuple's ∀ copies of `source` on `cases` random inputs in forex's
/// interpreter and natively; panics at the first disagreement. Returns the cases compared.
pub(super) fn agree(name: &str, source: &str, cases: u32, seed: u64) -> usize {
    let module = load_c(name, source);
    let info = module.c.as_ref().unwrap_or_else(|| panic!("{name}: no C facts in the module"));
    let small = info.model == forex::ir::c::IntModel::Math;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut compared = 0;
    for tuple in &module.tuples {
        for _ in 0..cases {
            let initial: Vec<Value> =
                tuple.vars.iter().map(|v| random_value(&mut rng, &v.ty, small)).collect();
            let mut state = initial.clone();
            let mut copies = Vec::new();
            let mut finished = true;
            for (i, _) in tuple.forall_copies() {
                let mut chooser = RandomChoices { rng: &mut rng, small };
                let run = interp::run_copy(tuple, i, &mut state, &mut chooser, 1_000_000)
                    .expect("the interpreter runs");
                finished &= run.end == RunEnd::Finished;
                copies.push(CopyRun::from_states(tuple, i, &initial, run.choices, &state));
            }
            if !finished {
                continue; // a false assume or a run past the step limit: nothing to compare
            }
            let cex = Counterexample {
                copies,
                explanation: String::new(),
                violated_conjunct: None,
                c_types: None,
                observations: None,
            };
            let opts = NativeOptions::default();
            match check_counterexample(source, name, info, tuple, &cex, &opts) {
                NativeOutcome::Agrees { .. } => compared += 1,
                NativeOutcome::NotRepresentable { .. } if small => {}
                other => panic!(
                    "{name}, tuple {}: forex's interpreter and the compiled code differ: \
                     {other}\ninputs and forex's run: {}\n{source}",
                    tuple.name,
                    serde_json::to_string_pretty(&cex).unwrap()
                ),
            }
        }
    }
    compared
}

fn generated_agree(model: Model, seed: u8) {
    if compiler().is_none() {
        return;
    }
    let programs: Vec<CProgram> = sample_programs(model, true, 40, seed);
    let mut compared = 0;
    for (k, p) in programs.iter().enumerate() {
        compared += agree(&format!("gen{k}.c"), &p.file(), 4, u64::from(seed) * 1000 + k as u64);
    }
    assert!(compared >= 40, "only {compared} runs compared ({model:?})");
}

#[test]
fn generated_c_programs_agree_with_the_compiler_machine_model() {
    generated_agree(Model::Machine, 11);
}

#[test]
fn generated_c_programs_agree_with_the_compiler_math_model() {
    generated_agree(Model::Math, 12);
}

#[test]
fn c_examples_agree_with_the_compiler() {
    if compiler().is_none() {
        return;
    }
    for path in examples_c() {
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.to_str().unwrap();
        let compared = agree(name, &source, 8, 7);
        assert!(compared > 0, "{name}: no run compared");
    }
}
