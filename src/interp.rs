//! Concrete interpreter over the IR: replays counterexamples and runs hypertests.
//!
//! Semantics are those fixed in the header of `ir.rs` (unbounded integers, total
//! Euclidean division, wrapping unsigned bit-vectors, logical shifts); `smt::encode`
//! follows the same rules, and the tests below pin the corner cases.
//!
//! Statements run on an explicit frame stack rather than by recursion, so loop nesting
//! and long runs cost heap, not native stack. Expressions recurse, which the checker's
//! `MAX_DEPTH` bound keeps shallow.

use crate::ir::{BinOp, Expr, ExprKind, Loc, Program, Stmt, Tuple, Type, UnOp, VarId};
use crate::value::{bv_mask, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};

mod float;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Reached the end of the program.
    Finished,
    /// An `assume` was false: the execution is discarded.
    Blocked { at: Loc },
    /// The step limit was reached ("did not terminate within N steps").
    StepLimit { steps: u64 },
    /// The chooser had no value for a nondeterministic choice.
    OutOfChoices { at: Loc },
    /// Stopped right after its `count`-th `observe;`, the observation bound asked for
    /// (reactive programs need not terminate; see [`run_copy_observing`]).
    ObservationLimit { count: u32 },
    /// Reached a [`Stmt::Cut`]: a recursive call deeper than the front end unfolded;
    /// the rest of the run is not modelled.
    Cut { at: Loc },
}

impl std::fmt::Display for RunEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunEnd::Finished => write!(f, "finished"),
            RunEnd::Blocked { at } => write!(f, "blocked: the assume at {at} is false"),
            RunEnd::StepLimit { steps } => write!(f, "did not terminate within {steps} steps"),
            RunEnd::OutOfChoices { at } => {
                write!(f, "no value given for the nondeterministic choice at {at}")
            }
            RunEnd::ObservationLimit { count } => {
                write!(f, "stopped after observation {count} (the observation bound)")
            }
            RunEnd::Cut { at } => {
                write!(f, "the recursive call at {at} goes deeper than the front end unfolded it")
            }
        }
    }
}

/// A completed (or stopped) run.
#[derive(Clone, Debug)]
pub struct Run {
    pub end: RunEnd,
    /// Every choice made, in order (`x = *` values, `if (*)` booleans).
    pub choices: Vec<Value>,
    pub steps: u64,
    /// The observation trace: the state at each `observe;` executed, in order, as the
    /// values of the run's variables (a copy's in `Copy::vars` order, a program's in
    /// declaration order). A program without `observe;` records none here; by the
    /// language's rule it observes once, at its final state, which callers take from
    /// the state when `end` is `Finished`.
    pub observations: Vec<Vec<Value>>,
}

/// Resolves nondeterminism: `x = *` asks for a value of `x`'s type, `if (*)` for a bool.
pub trait Chooser {
    fn choose(&mut self, ty: &Type, at: Loc) -> Option<Value>;
}

/// Replays a recorded list of choices in order.
pub struct Replay {
    pub choices: Vec<Value>,
    pub next: usize,
}

impl Replay {
    pub fn new(choices: Vec<Value>) -> Replay {
        Replay { choices, next: 0 }
    }
}

impl Chooser for Replay {
    fn choose(&mut self, _ty: &Type, _at: Loc) -> Option<Value> {
        let v = self.choices.get(self.next).cloned();
        self.next += 1;
        v
    }
}

/// Watches a run: called before every statement executes, with the state at that point.
/// Hypertesting uses it for coverage and branch distances.
pub trait Observer {
    fn before(&mut self, stmt: &Stmt, state: &[Value]);
}

/// An observer that watches nothing.
pub struct NoObserver;

impl Observer for NoObserver {
    fn before(&mut self, _stmt: &Stmt, _state: &[Value]) {}
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum InterpError {
    #[error("choice {value} at {at} does not have type {expected}")]
    BadChoice { value: Value, expected: Type, at: Loc },
    /// `forall`/`exists` in `pre`/`post`: not decidable by concrete evaluation.
    #[error("quantified formulas cannot be evaluated concretely")]
    Quantifier,
    /// The IR or the state broke an invariant the checker should have established
    /// (wrong operand types, a state too short for the program's variables).
    #[error("malformed input to the interpreter: {0}")]
    Malformed(String),
}

/// Runs copy `copy` of `tuple` on `state` (indexed by the tuple's `VarId`s; only this
/// copy's variables are read or written).
pub fn run_copy(
    tuple: &Tuple,
    copy: usize,
    state: &mut [Value],
    chooser: &mut dyn Chooser,
    max_steps: u64,
) -> Result<Run, InterpError> {
    run_copy_observed(tuple, copy, state, chooser, max_steps, &mut NoObserver)
}

/// [`run_copy`] with an observer.
pub fn run_copy_observed(
    tuple: &Tuple,
    copy: usize,
    state: &mut [Value],
    chooser: &mut dyn Chooser,
    max_steps: u64,
    observer: &mut dyn Observer,
) -> Result<Run, InterpError> {
    let limits = Limits { max_steps, max_observations: None };
    run_copy_observing(tuple, copy, state, chooser, limits, observer)
}

/// When a run stops (besides finishing, blocking or running out of choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Statements and loop-guard evaluations before [`RunEnd::StepLimit`].
    pub max_steps: u64,
    /// Stop with [`RunEnd::ObservationLimit`] right after this many `observe;`
    /// (`None`: no bound; the step limit still applies).
    pub max_observations: Option<u32>,
}

/// [`run_copy_observed`] that also stops after `limits.max_observations` observations;
/// `Run::observations` holds the copy's observation trace either way.
pub fn run_copy_observing(
    tuple: &Tuple,
    copy: usize,
    state: &mut [Value],
    chooser: &mut dyn Chooser,
    limits: Limits,
    observer: &mut dyn Observer,
) -> Result<Run, InterpError> {
    let Some(c) = tuple.copies.get(copy) else {
        return Err(InterpError::Malformed(format!("tuple {} has no copy {copy}", tuple.name)));
    };
    if state.len() < tuple.vars.len() {
        return Err(short_state(state.len(), tuple.vars.len()));
    }
    let ty = |v: VarId| tuple.vars.get(v.index()).map(|tv| &tv.ty);
    Machine { ty: &ty, chooser, limits, observer, observed: &c.vars }.run(&c.body, state)
}

/// Runs a program on `state` (indexed by the program's `VarId`s).
pub fn run_program(
    program: &Program,
    state: &mut [Value],
    chooser: &mut dyn Chooser,
    max_steps: u64,
) -> Result<Run, InterpError> {
    run_program_observing(program, state, chooser, Limits { max_steps, max_observations: None })
}

/// [`run_program`] that also stops after `limits.max_observations` observations.
pub fn run_program_observing(
    program: &Program,
    state: &mut [Value],
    chooser: &mut dyn Chooser,
    limits: Limits,
) -> Result<Run, InterpError> {
    if state.len() < program.vars.len() {
        return Err(short_state(state.len(), program.vars.len()));
    }
    let ty = |v: VarId| program.vars.get(v.index()).map(|d| &d.ty);
    let observed: Vec<VarId> = (0..program.vars.len() as u32).map(VarId).collect();
    let observer = &mut NoObserver;
    Machine { ty: &ty, chooser, limits, observer, observed: &observed }.run(&program.body, state)
}

fn short_state(got: usize, want: usize) -> InterpError {
    InterpError::Malformed(format!("state has {got} values but the program has {want} variables"))
}

/// One execution's fixed context.
struct Machine<'a, 'b> {
    ty: &'a dyn Fn(VarId) -> Option<&'b Type>,
    chooser: &'a mut dyn Chooser,
    limits: Limits,
    observer: &'a mut dyn Observer,
    /// The variables an `observe;` records.
    observed: &'a [VarId],
}

enum Frame<'p> {
    /// The rest of a block, from the given index.
    Seq(&'p [Stmt], usize),
    /// A loop whose guard is evaluated next.
    Loop(&'p Stmt, &'p Expr, &'p [Stmt]),
}

impl Machine<'_, '_> {
    fn run(&mut self, body: &[Stmt], state: &mut [Value]) -> Result<Run, InterpError> {
        let mut stack = vec![Frame::Seq(body, 0)];
        let mut choices = Vec::new();
        let mut steps: u64 = 0;
        let mut observations: Vec<Vec<Value>> = Vec::new();
        let max_steps = self.limits.max_steps;
        let end = 'outer: loop {
            let Some(top) = stack.last_mut() else { break RunEnd::Finished };
            let stmt = match top {
                Frame::Seq(block, i) => {
                    let Some(s) = block.get(*i) else {
                        stack.pop();
                        continue;
                    };
                    *i += 1;
                    s
                }
                Frame::Loop(stmt, cond, body) => {
                    // Every guard evaluation is a step, so `while (true) {}` hits the limit.
                    if steps >= max_steps {
                        break RunEnd::StepLimit { steps };
                    }
                    steps += 1;
                    let (stmt, cond, body) = (*stmt, *cond, *body);
                    self.observer.before(stmt, state);
                    if truth(&eval_expr(cond, state)?)? {
                        stack.push(Frame::Seq(body, 0));
                    } else {
                        stack.pop();
                    }
                    continue;
                }
            };
            if let Stmt::While { cond, body, .. } = stmt {
                stack.push(Frame::Loop(stmt, cond, body));
                continue;
            }
            if steps >= max_steps {
                break RunEnd::StepLimit { steps };
            }
            steps += 1;
            self.observer.before(stmt, state);
            match stmt {
                Stmt::Skip | Stmt::While { .. } => {}
                Stmt::Cut { loc } => break 'outer RunEnd::Cut { at: *loc },
                Stmt::Observe { .. } => {
                    let mut seen = Vec::with_capacity(self.observed.len());
                    for v in self.observed {
                        seen.push(state.get(v.index()).cloned().ok_or_else(|| {
                            InterpError::Malformed(format!("variable {} beyond the state", v.0))
                        })?);
                    }
                    observations.push(seen);
                    let count = observations.len() as u32;
                    if self.limits.max_observations.is_some_and(|max| count >= max) {
                        break RunEnd::ObservationLimit { count };
                    }
                }
                Stmt::Assign { var, value, .. } => {
                    let v = eval_expr(value, state)?;
                    *slot(state, *var)? = v;
                }
                Stmt::Store { array, index, value, .. } => {
                    let i = eval_expr(index, state)?;
                    let Value::Int { value: i } = i else {
                        return Err(mismatch("an int array index", &i));
                    };
                    let v = eval_expr(value, state)?;
                    let arr = slot(state, *array)?;
                    if !matches!(arr, Value::Array { .. }) {
                        return Err(mismatch("an array", arr));
                    }
                    arr.store(i, v);
                }
                Stmt::Havoc { var, loc } => {
                    let ty = (self.ty)(*var).ok_or_else(|| {
                        InterpError::Malformed(format!("unknown variable {var:?}"))
                    })?;
                    let Some(v) = self.chooser.choose(ty, *loc) else {
                        break 'outer RunEnd::OutOfChoices { at: *loc };
                    };
                    if !v.has_type(ty) {
                        return Err(InterpError::BadChoice {
                            value: v,
                            expected: ty.clone(),
                            at: *loc,
                        });
                    }
                    choices.push(v.clone());
                    *slot(state, *var)? = v;
                }
                Stmt::Assume { cond, loc } => {
                    if !truth(&eval_expr(cond, state)?)? {
                        break RunEnd::Blocked { at: *loc };
                    }
                }
                Stmt::If { cond, then_branch, else_branch, .. } => {
                    let b = truth(&eval_expr(cond, state)?)?;
                    stack.push(Frame::Seq(if b { then_branch } else { else_branch }, 0));
                }
                Stmt::IfStar { then_branch, else_branch, loc } => {
                    let Some(v) = self.chooser.choose(&Type::Bool, *loc) else {
                        break 'outer RunEnd::OutOfChoices { at: *loc };
                    };
                    let Some(b) = v.as_bool() else {
                        return Err(InterpError::BadChoice {
                            value: v,
                            expected: Type::Bool,
                            at: *loc,
                        });
                    };
                    choices.push(v);
                    stack.push(Frame::Seq(if b { then_branch } else { else_branch }, 0));
                }
            }
        };
        Ok(Run { end, choices, steps, observations })
    }
}

fn slot(state: &mut [Value], v: VarId) -> Result<&mut Value, InterpError> {
    let len = state.len();
    state
        .get_mut(v.index())
        .ok_or_else(|| InterpError::Malformed(format!("variable {} beyond a state of {len}", v.0)))
}

fn mismatch(expected: &str, got: &Value) -> InterpError {
    InterpError::Malformed(format!("expected {expected}, got {got}"))
}

fn truth(v: &Value) -> Result<bool, InterpError> {
    v.as_bool().ok_or_else(|| mismatch("a bool", v))
}

/// Evaluates a quantifier-free expression on a concrete state (indexed by the `VarId`s
/// the expression uses: a program's, or a tuple's for `pre`/`post`).
///
/// Quantifiers give [`InterpError::Quantifier`]: their range is infinite, so callers
/// that must decide them ask the SMT solver instead.
pub fn eval_expr(expr: &Expr, state: &[Value]) -> Result<Value, InterpError> {
    match &expr.kind {
        ExprKind::Var(v) => state
            .get(v.index())
            .cloned()
            .ok_or_else(|| InterpError::Malformed(format!("variable {} beyond the state", v.0))),
        ExprKind::Bound(_) | ExprKind::Quant { .. } => Err(InterpError::Quantifier),
        ExprKind::Int(n) => Ok(Value::int(n.clone())),
        ExprKind::Bool(b) => Ok(Value::bool(*b)),
        ExprKind::Bv(value) => match expr.ty {
            Type::Bv(w) => Ok(Value::bv(*value, w)),
            _ => Err(InterpError::Malformed("bit-vector literal without a width".into())),
        },
        ExprKind::Str(s) => Ok(Value::Str { value: s.clone() }),
        ExprKind::Float(bits) => match expr.ty {
            Type::Float(k) => Ok(Value::float(k, *bits)),
            _ => Err(InterpError::Malformed("float literal without a format".into())),
        },
        ExprKind::Fma(a, b, c) => {
            match (eval_expr(a, state)?, eval_expr(b, state)?, eval_expr(c, state)?) {
                (
                    Value::Float { kind, bits: x },
                    Value::Float { kind: k2, bits: y },
                    Value::Float { kind: k3, bits: z },
                ) if kind == k2 && kind == k3 => Ok(float::fma(kind, x, y, z)),
                (a, ..) => Err(mismatch("three floats of one format for fma", &a)),
            }
        }
        ExprKind::ConstArray(a) => Ok(Value::Array {
            default: Box::new(eval_expr(a, state)?),
            entries: Default::default(),
        }),
        ExprKind::Unary(op, a) => unary(*op, eval_expr(a, state)?),
        ExprKind::Binary(op, a, b) => {
            let a = eval_expr(a, state)?;
            // Short-circuiting changes nothing (evaluation is total) but saves work.
            match (op, a.as_bool()) {
                (BinOp::And, Some(false)) => return Ok(Value::bool(false)),
                (BinOp::Or, Some(true)) => return Ok(Value::bool(true)),
                (BinOp::Implies, Some(false)) => return Ok(Value::bool(true)),
                _ => {}
            }
            binary(*op, a, eval_expr(b, state)?)
        }
        ExprKind::Ite(c, a, b) => {
            if truth(&eval_expr(c, state)?)? {
                eval_expr(a, state)
            } else {
                eval_expr(b, state)
            }
        }
        ExprKind::Select(a, i) => {
            let arr = eval_expr(a, state)?;
            let i = eval_expr(i, state)?;
            let Value::Int { value: i } = i else {
                return Err(mismatch("an int array index", &i));
            };
            arr.select(&i).ok_or_else(|| mismatch("an array", &arr))
        }
        ExprKind::Extract { hi, lo, arg } => match eval_expr(arg, state)? {
            Value::Bv { width, value } if lo <= hi && *hi < width => {
                Ok(Value::bv(value >> lo, hi - lo + 1))
            }
            other => Err(mismatch(&format!("a bit-vector with bits {hi}..{lo}"), &other)),
        },
    }
}

/// Evaluates a quantifier-free boolean expression (see [`eval_expr`]).
pub fn eval_bool(expr: &Expr, state: &[Value]) -> Result<bool, InterpError> {
    truth(&eval_expr(expr, state)?)
}

fn unary(op: UnOp, a: Value) -> Result<Value, InterpError> {
    if let UnOp::ToFloat { kind, signed } = op {
        return float::to_float(kind, signed, &a);
    }
    if let Value::Float { kind, bits } = a {
        return float::unary(op, kind, bits);
    }
    Ok(match (op, a) {
        (UnOp::Neg, Value::Int { value }) => Value::int(-value),
        (UnOp::Neg, Value::Bv { width, value }) => Value::bv(value.wrapping_neg(), width),
        (UnOp::Not, Value::Bool { value }) => Value::bool(!value),
        (UnOp::BitNot, Value::Bv { width, value }) => Value::bv(!value, width),
        (UnOp::Abs, Value::Int { value }) => Value::int(value.abs()),
        (UnOp::BvToInt, Value::Bv { value, .. }) => Value::int(value),
        (UnOp::StrLen, Value::Str { value }) => Value::int(value.chars().count()),
        (UnOp::ZeroExt(n), Value::Bv { width, value }) => Value::bv(value, width + n),
        (UnOp::SignExt(n), Value::Bv { width, value }) => {
            let negative = width > 0 && (value >> (width - 1)) & 1 == 1;
            let ext = if negative { !0u128 << width } else { 0 };
            Value::bv(value | ext, width + n)
        }
        (op, a) => return Err(mismatch(&format!("an operand of {op:?}"), &a)),
    })
}

/// SMT-LIB `div`/`mod`: `a = b*q + r` with `0 <= r < |b|`; total with `a / 0 == 0` and
/// `a % 0 == a`.
pub fn euclid_div_mod(a: &BigInt, b: &BigInt) -> (BigInt, BigInt) {
    if b.is_zero() {
        return (BigInt::zero(), a.clone());
    }
    let r = a.mod_floor(&b.abs());
    let q = (a - &r) / b;
    (q, r)
}

fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, InterpError> {
    use BinOp::*;
    if let (Value::Float { kind, bits: x }, Value::Float { kind: k2, bits: y }) = (&a, &b) {
        if kind == k2 {
            return float::binary(op, *kind, *x, *y);
        }
    }
    match op {
        // Identity of values: C's `==` on floats is above.
        Eq | Ident => return Ok(Value::bool(a == b)),
        Ne => return Ok(Value::bool(a != b)),
        _ => {}
    }
    Ok(match (a, b) {
        (Value::Str { value: mut x }, Value::Str { value: y }) if op == Concat => {
            x.push_str(&y);
            Value::Str { value: x }
        }
        (Value::Bool { value: x }, Value::Bool { value: y }) => match op {
            And => Value::bool(x && y),
            Or => Value::bool(x || y),
            Implies => Value::bool(!x || y),
            Iff => Value::bool(x == y),
            _ => return Err(InterpError::Malformed(format!("{op:?} on booleans"))),
        },
        (Value::Int { value: x }, Value::Int { value: y }) => match op {
            Add => Value::int(x + y),
            Sub => Value::int(x - y),
            Mul => Value::int(x * y),
            Div => Value::int(euclid_div_mod(&x, &y).0),
            Mod => Value::int(euclid_div_mod(&x, &y).1),
            Lt => Value::bool(x < y),
            Le => Value::bool(x <= y),
            Gt => Value::bool(x > y),
            Ge => Value::bool(x >= y),
            Min => Value::int(x.min(y)),
            Max => Value::int(x.max(y)),
            _ => return Err(InterpError::Malformed(format!("{op:?} on integers"))),
        },
        (Value::Bv { width: w, value: x }, Value::Bv { width: w2, value: y }) if w == w2 => {
            let bv = |v: u128| Value::bv(v, w);
            match op {
                Add => bv(x.wrapping_add(y)),
                Sub => bv(x.wrapping_sub(y)),
                // Wrapping mod 2^128 then masking is multiplication mod 2^w.
                Mul => bv(x.wrapping_mul(y)),
                Div => bv(x.checked_div(y).unwrap_or(bv_mask(w))),
                Mod => bv(x.checked_rem(y).unwrap_or(x)),
                Lt => Value::bool(x < y),
                Le => Value::bool(x <= y),
                Gt => Value::bool(x > y),
                Ge => Value::bool(x >= y),
                BitAnd => bv(x & y),
                BitOr => bv(x | y),
                BitXor => bv(x ^ y),
                Shl => bv(if y >= w as u128 { 0 } else { x << y }),
                Shr => bv(if y >= w as u128 { 0 } else { x >> y }),
                SLt | SLe | SGt | SGe | SDiv | SRem | AShr => signed(op, x, y, w),
                _ => return Err(InterpError::Malformed(format!("{op:?} on bit-vectors"))),
            }
        }
        (a, b) => {
            return Err(InterpError::Malformed(format!("{op:?} on {a} and {b} of different types")))
        }
    })
}

/// The signed bit-vector operators on `w`-bit values, by the SMT-LIB definitions of
/// `bvslt` … `bvashr` in terms of the unsigned ones (so division by zero agrees with Z3).
fn signed(op: BinOp, x: u128, y: u128, w: u32) -> Value {
    use BinOp::*;
    let mask = bv_mask(w);
    let sign = 1u128 << (w - 1);
    let (nx, ny) = (x & sign != 0, y & sign != 0);
    let neg = |v: u128| v.wrapping_neg() & mask;
    // Flipping the sign bit maps two's-complement order onto unsigned order.
    let (fx, fy) = (x ^ sign, y ^ sign);
    let udiv = |a: u128, b: u128| a.checked_div(b).unwrap_or(mask);
    let urem = |a: u128, b: u128| a.checked_rem(b).unwrap_or(a);
    let (ax, ay) = (if nx { neg(x) } else { x }, if ny { neg(y) } else { y });
    match op {
        SLt => Value::bool(fx < fy),
        SLe => Value::bool(fx <= fy),
        SGt => Value::bool(fx > fy),
        SGe => Value::bool(fx >= fy),
        SDiv => {
            let q = udiv(ax, ay);
            Value::bv(if nx != ny { neg(q) } else { q }, w)
        }
        SRem => {
            let r = urem(ax, ay);
            Value::bv(if nx { neg(r) } else { r }, w)
        }
        _ => {
            let shifted = if y >= w as u128 { 0 } else { (!x & mask) >> y };
            Value::bv(
                if nx {
                    !shifted
                } else if y >= w as u128 {
                    0
                } else {
                    x >> y
                },
                w,
            )
        }
    }
}

#[cfg(test)]
#[path = "interp_tests.rs"]
mod tests;
