//! One semantics (ir.rs): the oracle's evaluator, the interpreter and the Z3 encoding
//! agree on random bit-vector and boolean expressions, and every terminating concrete run
//! of the interpreter ends in a final state the oracle computes for that initial state.

use crate::common::brute::{copy_finals, eval, eval_in, Strings};
use crate::common::gen::{exprs, sample, to_fe, tuples, GenConfig};
use forex::interp::{eval_expr, run_copy, Chooser, RunEnd};
use forex::ir::{Loc, Type, VarId};
use forex::smt::encode::{encode, term_value, value_term};
use forex::value::Value;
use proptest::strategy::{Strategy, ValueTree};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use z3::ast::Ast;

fn random_value(rng: &mut ChaCha8Rng, ty: &Type) -> Value {
    match ty {
        Type::Bool => Value::bool(rng.gen()),
        Type::Bv(w) => Value::bv(rng.gen_range(0..1u128 << w), *w),
        // The generator's alphabet, and a letter it never uses.
        Type::Str => {
            Value::Str { value: ["", "a", "b", "ab", "ba", "c"][rng.gen_range(0..6)].to_string() }
        }
        other => panic!("no random {other}"),
    }
}

fn bits(v: &Value) -> u128 {
    match v {
        Value::Bool { value } => *value as u128,
        Value::Bv { value, .. } => *value,
        other => panic!("not a scalar bit value: {other}"),
    }
}

#[test]
fn oracle_interpreter_and_z3_agree_on_expressions() {
    let env = vec![Type::Bv(3), Type::Bv(4), Type::Bool, Type::Bv(4)];
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut runner = crate::common::gen::runner(1, 17);
    let mut checked = 0;
    for ty in [Type::Bool, Type::Bv(3), Type::Bv(4)] {
        let strategy = exprs(env.clone(), ty.clone(), 3);
        for _ in 0..150 {
            let e = strategy.new_tree(&mut runner).unwrap().current();
            for _ in 0..4 {
                let state: Vec<Value> = env.iter().map(|t| random_value(&mut rng, t)).collect();
                let ours = eval(&e, &|v: VarId| bits(&state[v.index()]));
                let interp = bits(&eval_expr(&e, &state).expect("interpreter evaluates"));
                let term = encode(&e, &|v: VarId| value_term(&state[v.index()])).simplify();
                let z3 = bits(&term_value(&term, &ty).expect("Z3 simplifies to a literal"));
                let text = forex::pretty::expr_with(&e, &|v| format!("v{}", v.0));
                assert_eq!(ours, interp, "oracle vs interpreter on {text} with {state:?}");
                assert_eq!(ours, z3, "oracle vs Z3 on {text} with {state:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 150 * 4);
}

#[test]
fn oracle_interpreter_and_z3_agree_on_string_expressions() {
    let env = vec![Type::Str, Type::Str, Type::Bv(3), Type::Bool];
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut runner = crate::common::gen::runner(1, 19);
    let mut checked = 0;
    for ty in [Type::Bool, Type::Str] {
        let strategy = exprs(env.clone(), ty.clone(), 3);
        for _ in 0..100 {
            let e = strategy.new_tree(&mut runner).unwrap().current();
            for _ in 0..4 {
                let state: Vec<Value> = env.iter().map(|t| random_value(&mut rng, t)).collect();
                let strings = Strings::default();
                let bits_of = |v: &Value| match v {
                    Value::Str { value } => strings.intern(value),
                    other => bits(other),
                };
                let ours = eval_in(&e, &|v: VarId| bits_of(&state[v.index()]), &strings);
                let ours = match ty {
                    Type::Str => Value::Str { value: strings.get(ours) },
                    _ => Value::bool(ours != 0),
                };
                let interp = eval_expr(&e, &state).expect("interpreter evaluates");
                let term = encode(&e, &|v: VarId| value_term(&state[v.index()])).simplify();
                let z3 = term_value(&term, &ty).expect("Z3 simplifies to a literal");
                let text = forex::pretty::expr_with(&e, &|v| format!("v{}", v.0));
                assert_eq!(ours, interp, "oracle vs interpreter on {text} with {state:?}");
                assert_eq!(ours, z3, "oracle vs Z3 on {text} with {state:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 100 * 4);
}

/// Random choices of the right type.
struct RandomChooser<'a>(&'a mut ChaCha8Rng);

impl Chooser for RandomChooser<'_> {
    fn choose(&mut self, ty: &Type, _at: Loc) -> Option<Value> {
        Some(random_value(self.0, ty))
    }
}

#[test]
fn terminating_interpreter_runs_end_in_oracle_final_states() {
    runs_end_in_oracle_final_states(GenConfig { loops: true, ..GenConfig::default() }, 200, 4);
}

#[test]
fn terminating_interpreter_runs_on_strings_end_in_oracle_final_states() {
    let cfg = GenConfig { loops: true, strings: true, ..GenConfig::default() };
    runs_end_in_oracle_final_states(cfg, 150, 6);
}

fn runs_end_in_oracle_final_states(cfg: GenConfig, n: usize, seed: u8) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed as u64 + 1);
    let (mut finished, mut runs) = (0, 0);
    for t in sample(&tuples(cfg), n, seed) {
        for copy in 0..t.copies.len() {
            for _ in 0..4 {
                let init: Vec<Value> =
                    t.vars.iter().map(|v| random_value(&mut rng, &v.ty)).collect();
                let finals = copy_finals(&t, copy, &init).expect("in the oracle's fragment");
                let mut state = init.clone();
                let run = run_copy(&t, copy, &mut state, &mut RandomChooser(&mut rng), 100_000)
                    .expect("interpreter runs");
                runs += 1;
                if run.end != RunEnd::Finished {
                    continue;
                }
                finished += 1;
                let last: Vec<Value> =
                    t.copies[copy].vars.iter().map(|v| state[v.index()].clone()).collect();
                assert!(
                    finals.contains(&last),
                    "copy {copy} from {init:?} with choices {:?} ended in {last:?}, \
                     not among the oracle's {} final states\n{}",
                    run.choices,
                    finals.len(),
                    to_fe(&t)
                );
            }
        }
    }
    println!("{finished} of {runs} runs finished");
    assert!(finished * 2 >= runs, "only {finished} of {runs} runs finished");
}
