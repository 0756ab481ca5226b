//! Shrinking a violating test so the reported counterexample is small: values move
//! toward zero one at a time, kept only while `pre` still holds and the same tuple is
//! still violated. Bounded, so a slow ∃ check cannot stall the report.

use super::exec::{Executor, Test, Verdict};
use super::inputs::holds;
use crate::value::Value;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

/// Executions spent on shrinking at most (each one of a ∀∃ tuple costs an SMT query).
const MAX_ATTEMPTS: u32 = 200;
const MAX_ATTEMPTS_EXISTS: u32 = 60;

/// Smaller candidates for `v`, smallest first.
fn smaller(v: &Value) -> Vec<Value> {
    match v {
        Value::Int { value } if !value.is_zero() => {
            let half: BigInt = value / 2;
            let step = value - value.signum();
            let mut out = vec![Value::int(0)];
            if value.is_negative() {
                out.push(Value::int(-value));
            }
            out.extend([Value::int(half), Value::int(step)]);
            out.dedup();
            out
        }
        Value::Bv { width, value } if *value != 0 => {
            vec![Value::bv(0, *width), Value::bv(value >> 1, *width), Value::bv(value - 1, *width)]
        }
        Value::Bool { value: true } => vec![Value::bool(false)],
        Value::Float { kind, bits } if *bits != 0 => {
            // Each candidate is simpler by (+0, −0, finite by magnitude, ±∞ and NaN), so
            // shrinking ends.
            let x = kind.to_f64(*bits);
            let mut out = vec![Value::float(*kind, 0)];
            if !x.is_finite() {
                out.push(Value::float(*kind, kind.from_f64(1.0)));
            } else if x != 0.0 {
                if x.trunc() != x {
                    out.push(Value::float(*kind, kind.from_f64(x.trunc())));
                }
                let half = Value::float(*kind, kind.from_f64(x / 2.0));
                if kind.to_f64(kind.from_f64(x / 2.0)).abs() < x.abs() {
                    out.push(half);
                }
            }
            out
        }
        Value::Array { default, entries } if !entries.is_empty() => {
            vec![Value::Array { default: default.clone(), entries: Default::default() }]
        }
        _ => Vec::new(),
    }
}

/// The smallest violating variant of `test` found within the attempt bound.
pub fn shrink(exec: &mut Executor, test: &Test) -> Test {
    let mut best = test.clone();
    let mut attempts = 0;
    let max = if exec.tuple.is_k_safety() { MAX_ATTEMPTS } else { MAX_ATTEMPTS_EXISTS };
    let mut improved = true;
    while improved && attempts < max && !exec.cancel.is_cancelled() {
        improved = false;
        // Input values first, then recorded choices. A changed input may change how
        // many choices a run makes, so slots are looked up afresh each time.
        let mut slot = 0;
        while let Some(current) = get(&best, slot) {
            let mut shrunk = false;
            for candidate in smaller(&current) {
                // `pre` often equates inputs across copies (`a.l == b.l`): change all
                // inputs holding this value together first, then this one alone.
                let mut variants = Vec::new();
                if slot < best.input.len() {
                    let mut group = best.clone();
                    for v in group.input.iter_mut().filter(|v| **v == current) {
                        *v = candidate.clone();
                    }
                    variants.push(group);
                }
                let mut single = best.clone();
                set(&mut single, slot, candidate);
                if variants.first() != Some(&single) {
                    variants.push(single);
                }
                for mut t in variants {
                    if attempts >= max {
                        return best;
                    }
                    let pre = &exec.tuple.pre;
                    if slot < t.input.len() && holds(&exec.cancel, pre, &t.input) != Some(true) {
                        continue;
                    }
                    attempts += 1;
                    if let Verdict::Violation { .. } = exec.execute(&mut t, false).verdict {
                        best = t;
                        shrunk = true;
                        break;
                    }
                }
                if shrunk {
                    improved = true;
                    break;
                }
            }
            slot += 1;
        }
    }
    best
}

fn locate(t: &Test, slot: usize) -> Option<(Option<usize>, usize)> {
    if slot < t.input.len() {
        return Some((None, slot));
    }
    let mut k = slot - t.input.len();
    for (j, c) in t.choices.iter().enumerate() {
        if k < c.len() {
            return Some((Some(j), k));
        }
        k -= c.len();
    }
    None
}

fn get(t: &Test, slot: usize) -> Option<Value> {
    Some(match locate(t, slot)? {
        (None, i) => t.input[i].clone(),
        (Some(j), k) => t.choices[j][k].clone(),
    })
}

fn set(t: &mut Test, slot: usize, v: Value) {
    match locate(t, slot) {
        Some((None, i)) => t.input[i] = v,
        Some((Some(j), k)) => t.choices[j][k] = v,
        None => {}
    }
}
