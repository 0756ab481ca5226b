//! forex's floats against the compiled code: `--native-check` on float counterexamples
//! (tests/inputs/c/floats_native.c), hand-made disagreements (a flipped bit, `-0.0`
//! against `0.0`), NaNs of another sign or payload (one NaN), and random float programs
//! (`common::cfgen`) run by forex's interpreter and natively on random inputs (NaN,
//! infinities, signed zeros and subnormals included), both integer models.
//!
//! Every test skips with a note when no C compiler is installed.

use super::c_native::{agree, compiler};
use crate::common::cfgen::sample_f_programs;
use crate::common::cgen::Model;
use crate::common::{have_cc, prove_report};
use forex::frontend::{load_source, InputFormat};
use forex::interp::{self, Chooser, RunEnd};
use forex::ir::{Loc, Type};
use forex::native::{check_counterexample, NativeOptions, NativeOutcome};
use forex::value::Value;
use forex::verdict::{CopyRun, Counterexample};
use rayon::prelude::*;
use std::path::Path;

#[test]
fn float_counterexamples_agree_with_the_compiled_code() {
    if !have_cc("float_counterexamples_agree_with_the_compiled_code") {
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/c/floats_native.c");
    let json = prove_report(&path, &["--native-check"]);
    let results = json["results"].as_array().expect("results");
    assert_eq!(results.len(), 10, "{json}");
    for r in results {
        let name = r["tuple"].as_str().unwrap_or_default();
        // Each pair differs on most inputs: the tester finds one at once.
        assert_eq!(r["verdict"], "violated", "{name}: {json:#}");
        assert_eq!(r["native"]["result"], "agrees", "{name}: {:#}", r);
    }
}

/// No choices: a copy's run needs none.
struct NoChoices;
impl Chooser for NoChoices {
    fn choose(&mut self, _: &Type, _: Loc) -> Option<Value> {
        None
    }
}

/// `source`'s tuple `t` (∀ copies of `f(double x)`) run by the interpreter on `xs`, one
/// input per copy: the counterexample, its final states as forex computes them.
fn interpreted(source: &str, xs: &[f64]) -> (forex::ir::Module, Counterexample) {
    let module = load_source("t.c", source.as_bytes(), InputFormat::C).expect("valid C");
    let tuple = &module.tuples[0];
    let mut initial: Vec<Value> = tuple.vars.iter().map(|v| Value::default_of(&v.ty)).collect();
    let mut copies = Vec::new();
    let mut state;
    for ((i, copy), x) in tuple.forall_copies().zip(xs) {
        let var = copy.vars.iter().find(|v| tuple.var(**v).name == "x");
        initial[var.expect("a parameter x").index()] = Value::f64(*x);
        state = initial.clone();
        let run = interp::run_copy(tuple, i, &mut state, &mut NoChoices, 10_000).expect("runs");
        assert_eq!(run.end, RunEnd::Finished);
        copies.push(CopyRun::from_states(tuple, i, &initial, run.choices, &state));
    }
    let cex = Counterexample {
        copies,
        explanation: String::new(),
        violated_conjunct: None,
        c_types: None,
        observations: None,
    };
    (module, cex)
}

fn native(source: &str, module: &forex::ir::Module, cex: &Counterexample) -> NativeOutcome {
    let info = module.c.as_ref().expect("C facts");
    check_counterexample(source, "t.c", info, &module.tuples[0], cex, &NativeOptions::default())
}

/// Sets the final `ret` of the counterexample's copy `k` to `v`.
fn set_ret(cex: &mut Counterexample, k: usize, v: Value) {
    let fin = cex.copies[k].final_state.as_mut().expect("a final state");
    let key = fin.keys().find(|n| n.ends_with("ret")).cloned().expect("ret");
    fin.insert(key, v);
}

const SCALE: &str = "double f(double x) { return x * 0.1; }\n\
                     /*@forex tuple t { forall a: f, b: f, c: f; pre true; post true; } */\n";

#[test]
fn a_float_that_differs_in_one_bit_or_in_the_sign_of_zero_disagrees() {
    if !have_cc("a_float_that_differs_in_one_bit_or_in_the_sign_of_zero_disagrees") {
        return;
    }
    let (module, mut cex) = interpreted(SCALE, &[3.0, -0.0, f64::INFINITY]);
    match native(SCALE, &module, &cex) {
        NativeOutcome::Agrees { compared: 6, .. } => {}
        other => panic!("{other}"),
    }
    // 3.0 * 0.1 is 0x1.3333333333334p-2, one ulp above 0.3's double.
    set_ret(&mut cex, 0, Value::f64(0.3));
    set_ret(&mut cex, 1, Value::f64(0.0));
    match native(SCALE, &module, &cex) {
        NativeOutcome::Disagrees { differences, stopped: None, .. } => {
            assert_eq!(differences.len(), 2, "{differences:?}");
            assert_eq!(differences[0].variable, "a.ret");
            assert_eq!(differences[0].forex, "0.3 (0x1.3333333333333p-2)");
            assert_eq!(differences[0].native, "0.30000000000000004 (0x1.3333333333334p-2)");
            assert_eq!(differences[1].variable, "b.ret");
            assert_eq!(
                (&*differences[1].forex, &*differences[1].native),
                ("0.0 (0x0p+0)", "-0.0 (-0x0p+0)")
            );
        }
        other => panic!("{other}"),
    }
}

#[test]
fn every_nan_is_the_one_nan() {
    if !have_cc("every_nan_is_the_one_nan") {
        return;
    }
    // x86-64's 0.0 / 0.0 is the negative default NaN; a NaN input keeps its payload.
    let src = "double f(double x) { return x / x; }\n\
               /*@forex tuple t { forall a: f, b: f, c: f; pre true; post true; } */\n";
    let (module, mut cex) = interpreted(src, &[0.0, f64::NAN, f64::INFINITY]);
    match native(src, &module, &cex) {
        NativeOutcome::Agrees { compared: 6, .. } => {}
        other => panic!("{other}"),
    }
    set_ret(&mut cex, 2, Value::f64(1.0));
    match native(src, &module, &cex) {
        NativeOutcome::Disagrees { differences, .. } => {
            assert_eq!(differences.len(), 1, "{differences:?}");
            assert_eq!(differences[0].variable, "c.ret");
            assert!(differences[0].native.starts_with("nan"), "{differences:?}");
        }
        other => panic!("{other}"),
    }
}

/// Copies per generated program: one native compilation replays them all.
const COPIES: usize = 8;

fn generated_floats_agree(model: Model, programs: usize, seed: u8) {
    if compiler().is_none() {
        return;
    }
    let copies = if model == Model::Machine { COPIES } else { 1 };
    let cases = if model == Model::Machine { 1 } else { 4 };
    let all = sample_f_programs(model, copies, programs, seed);
    let compared: usize = all
        .par_iter()
        .enumerate()
        .map(|(k, p)| {
            agree(&format!("fgen{k}.c"), &p.file(), cases, u64::from(seed) * 1000 + k as u64)
        })
        .sum();
    assert!(compared >= programs / 2, "only {compared} runs compared ({model:?})");
}

#[test]
fn generated_float_programs_agree_with_the_compiler_machine_model() {
    generated_floats_agree(Model::Machine, 200, 21);
}

#[test]
fn generated_float_programs_agree_with_the_compiler_math_model() {
    generated_floats_agree(Model::Math, 40, 22);
}
