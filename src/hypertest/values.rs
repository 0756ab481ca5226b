//! Random and mutated values for inputs and choices.
//!
//! Values are biased to small and boundary numbers and to the constants that occur in
//! the tuple (`if (h == 4242)` is hit by trying 4242, not by luck): branches and leaks
//! hide there.

use crate::ir::{Expr, ExprKind, FloatKind, Loc, Stmt, Tuple, Type};
use crate::value::{bv_mask, Value};
use num_bigint::BigInt;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The value generator of one tuple: its integer and bit-vector constants.
#[derive(Clone, Debug, Default)]
pub struct Values {
    ints: Vec<BigInt>,
    bvs: Vec<u128>,
    strs: Vec<String>,
    /// The tuple's float constants (as doubles: exact for both formats).
    floats: Vec<f64>,
}

impl Values {
    pub fn of(tuple: &Tuple) -> Values {
        let mut v = Values::default();
        v.expr(&tuple.pre);
        v.expr(&tuple.post);
        for c in &tuple.copies {
            v.block(&c.body);
        }
        v.ints.sort();
        v.ints.dedup();
        v.bvs.sort_unstable();
        v.bvs.dedup();
        v.floats.sort_by(|a, b| a.total_cmp(b));
        v.floats.dedup_by(|a, b| a.to_bits() == b.to_bits());
        v
    }

    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            match s {
                Stmt::Skip | Stmt::Havoc { .. } | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
                Stmt::Assign { value, .. } => self.expr(value),
                Stmt::Store { index, value, .. } => {
                    self.expr(index);
                    self.expr(value);
                }
                Stmt::Assume { cond, .. } => self.expr(cond),
                Stmt::If { cond, then_branch, else_branch, .. } => {
                    self.expr(cond);
                    self.block(then_branch);
                    self.block(else_branch);
                }
                Stmt::IfStar { then_branch, else_branch, .. } => {
                    self.block(then_branch);
                    self.block(else_branch);
                }
                Stmt::While { cond, body, .. } => {
                    self.expr(cond);
                    self.block(body);
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(n) => {
                // Boundaries: `x < 10` flips between 9 and 10.
                self.ints.extend([n - 1, n.clone(), n + 1, -n]);
            }
            ExprKind::Bv(v) => self.bvs.extend([*v, v.wrapping_sub(1), v.wrapping_add(1)]),
            ExprKind::Str(s) => self.strs.push(s.clone()),
            ExprKind::Float(bits) => {
                if let Type::Float(k) = e.ty {
                    // The constant, its neighbours (`x < 0.1` flips there) and its negation.
                    let x = k.to_f64(*bits);
                    self.floats.extend([x, -x]);
                    if x.is_finite() {
                        let (down, up) = neighbours(k, *bits);
                        self.floats.extend([down, up]);
                    }
                }
            }
            ExprKind::Fma(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Var(_) | ExprKind::Bound(_) | ExprKind::Bool(_) => {}
            ExprKind::Unary(_, a) | ExprKind::ConstArray(a) | ExprKind::Extract { arg: a, .. } => {
                self.expr(a)
            }
            ExprKind::Quant { body, .. } => self.expr(body),
            ExprKind::Binary(_, a, b) | ExprKind::Select(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Ite(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
        }
    }

    /// A random value of `ty`.
    pub fn random(&self, ty: &Type, rng: &mut ChaCha8Rng) -> Value {
        match ty {
            Type::Int => {
                if !self.ints.is_empty() && rng.gen_bool(0.2) {
                    return Value::int(self.ints.choose(rng).expect("non-empty").clone());
                }
                let n: i64 = match rng.gen_range(0..10) {
                    0..=5 => rng.gen_range(-10..=10),
                    6..=7 => rng.gen_range(-100..=100),
                    8 => rng.gen_range(-10_000..=10_000),
                    _ => rng.gen_range(-1_000_000..=1_000_000),
                };
                Value::int(n)
            }
            Type::Bool => Value::bool(rng.gen_bool(0.5)),
            Type::Bv(w) => {
                let v: u128 = match rng.gen_range(0..7) {
                    0 => 0,
                    1 => 1,
                    2 => bv_mask(*w),
                    3 => rng.gen_range(0..16),
                    4 if !self.bvs.is_empty() => *self.bvs.choose(rng).expect("non-empty"),
                    _ => rng.gen(),
                };
                Value::bv(v, *w)
            }
            Type::Float(k) => Value::float(*k, k.from_f64(self.random_float(*k, rng))),
            Type::Str => {
                if !self.strs.is_empty() && rng.gen_bool(0.3) {
                    let s = self.strs.choose(rng).expect("non-empty").clone();
                    return Value::Str { value: s };
                }
                // Short strings over a small alphabet, so that equalities are likely.
                let len = rng.gen_range(0..4);
                let value = (0..len).map(|_| *b"ab ~".choose(rng).expect("non-empty") as char);
                Value::Str { value: value.collect() }
            }
            Type::Array(elem) => {
                let mut arr = Value::Array {
                    default: Box::new(self.random(elem, rng)),
                    entries: Default::default(),
                };
                for _ in 0..rng.gen_range(0..4) {
                    let i: i64 = rng.gen_range(-2..8);
                    arr.store(BigInt::from(i), self.random(elem, rng));
                }
                arr
            }
        }
    }

    /// A value near `v`: small steps, scaled steps, or a constant of the tuple.
    pub fn mutate(&self, v: &Value, ty: &Type, rng: &mut ChaCha8Rng) -> Value {
        match (v, ty) {
            (Value::Int { value }, Type::Int) => match rng.gen_range(0..8) {
                0 => Value::int(value + 1),
                1 => Value::int(value - 1),
                2 => Value::int(value + rng.gen_range(-20..=20)),
                3 => Value::int(value + rng.gen_range(-1000..=1000)),
                4 => Value::int(value * 2),
                5 => Value::int(value / 2),
                6 => Value::int(-value),
                _ => self.random(ty, rng),
            },
            (Value::Bool { value }, Type::Bool) => Value::bool(!value),
            (Value::Bv { width, value }, Type::Bv(_)) => match rng.gen_range(0..5) {
                0 => Value::bv(value ^ (1u128 << rng.gen_range(0..*width)), *width),
                1 => Value::bv(value.wrapping_add(1), *width),
                2 => Value::bv(value.wrapping_sub(1), *width),
                3 => Value::bv(value.wrapping_add(rng.gen_range(0..64)), *width),
                _ => self.random(ty, rng),
            },
            (Value::Float { kind, bits }, Type::Float(_)) => {
                let x = kind.to_f64(*bits);
                let (down, up) = neighbours(*kind, *bits);
                let y = match rng.gen_range(0..9) {
                    0 => down,
                    1 => up,
                    2 => -x,
                    3 => x * 2.0,
                    4 => x / 2.0,
                    5 => x + 1.0,
                    6 => x - 1.0,
                    7 => x + rng.gen_range(-100.0..100.0),
                    _ => self.random_float(*kind, rng),
                };
                Value::float(*kind, kind.from_f64(y))
            }
            (Value::Array { default, entries }, Type::Array(elem)) => {
                if rng.gen_bool(0.2) {
                    // A new default; re-storing the entries keeps the array normalised.
                    let d = self.mutate(default, elem, rng);
                    let mut fresh =
                        Value::Array { default: Box::new(d), entries: Default::default() };
                    for (k, val) in entries {
                        fresh.store(k.clone(), val.clone());
                    }
                    return fresh;
                }
                let mut arr = v.clone();
                let i = BigInt::from(rng.gen_range(-2i64..8));
                let old = arr.select(&i).unwrap_or_else(|| Value::default_of(elem));
                let new = self.mutate(&old, elem, rng);
                arr.store(i, new);
                arr
            }
            _ => self.random(ty, rng),
        }
    }

    /// A random float, biased to the values where float code breaks: ±0, NaN, ±∞, 1,
    /// the smallest subnormal and normal, the largest finite, tiny and huge numbers, the
    /// tuple's constants, small integers and fractions; and now and then any bit pattern.
    fn random_float(&self, kind: FloatKind, rng: &mut ChaCha8Rng) -> f64 {
        let (min_sub, min_normal, max) = match kind {
            FloatKind::F32 => {
                (f64::from(f32::from_bits(1)), f64::from(f32::MIN_POSITIVE), f64::from(f32::MAX))
            }
            FloatKind::F64 => (f64::from_bits(1), f64::MIN_POSITIVE, f64::MAX),
        };
        let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
        match rng.gen_range(0..16) {
            0 => 0.0,
            1 => -0.0,
            2 => f64::NAN,
            3 => sign * f64::INFINITY,
            4 => sign * 1.0,
            5 => sign * min_sub,
            6 => sign * min_normal,
            7 => sign * max,
            8 => sign * 10f64.powi(rng.gen_range(-40..40)),
            9 | 10 if !self.floats.is_empty() => *self.floats.choose(rng).expect("non-empty"),
            11 => f64::from(rng.gen_range(-10i32..=10)),
            12 => f64::from(rng.gen_range(-1000i32..=1000)) / 8.0,
            13 => match kind {
                FloatKind::F32 => f64::from(f32::from_bits(rng.gen())),
                FloatKind::F64 => f64::from_bits(rng.gen()),
            },
            _ => rng.gen_range(-100.0..100.0),
        }
    }

    /// A random wish for every tuple variable.
    pub fn random_input(&self, tuple: &Tuple, rng: &mut ChaCha8Rng) -> Vec<Value> {
        tuple.vars.iter().map(|v| self.random(&v.ty, rng)).collect()
    }
}

/// The floats of `kind` just below and just above a finite value (for ±0: the smallest
/// subnormals), as doubles.
fn neighbours(kind: FloatKind, bits: u64) -> (f64, f64) {
    let x = kind.to_f64(bits);
    match kind {
        FloatKind::F32 => {
            let f = x as f32;
            (f64::from(f.next_down()), f64::from(f.next_up()))
        }
        FloatKind::F64 => (x.next_down(), x.next_up()),
    }
}

/// Boolean choices drawn in streaks: at a choice point (a `while (*)`'s guard, an
/// `if (*)`), now and then a run of `true` whose length is a random number of the tuple
/// (its constants among them) and then one `false`. A silent `while (*)` that must spin
/// 300 times is then run 300 times by some test, where fair coin flips never would.
#[derive(Default)]
pub struct Streaks {
    left: std::collections::HashMap<Loc, u64>,
}

/// The longest streak: well within a run's step limit.
const MAX_STREAK: u64 = 5_000;

impl Streaks {
    /// A choice of `ty` at `at`.
    pub fn choose(&mut self, values: &Values, ty: &Type, at: Loc, rng: &mut ChaCha8Rng) -> Value {
        if *ty != Type::Bool {
            return values.random(ty, rng);
        }
        match self.left.get_mut(&at) {
            Some(0) => {
                self.left.remove(&at);
                Value::bool(false)
            }
            Some(n) => {
                *n -= 1;
                Value::bool(true)
            }
            None if rng.gen_bool(0.25) => {
                let n = match values.random(&Type::Int, rng) {
                    Value::Int { value } => {
                        u64::try_from(value.magnitude()).unwrap_or(MAX_STREAK).min(MAX_STREAK)
                    }
                    _ => 0,
                };
                self.left.insert(at, n);
                self.choose(values, ty, at, rng)
            }
            None => values.random(ty, rng),
        }
    }
}
