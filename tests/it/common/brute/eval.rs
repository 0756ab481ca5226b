//! The oracle's own evaluator (independent of `forex::interp` and of Z3), following the
//! semantics in the header of `src/ir.rs`.
//!
//! Every value is a `u128`: a bool is 0/1, a bit-vector its unsigned value, an `int` (only
//! as an intermediate: `len(s)`, literals, `+`, `-`) the two's-complement bits of an i128,
//! and a string its index in a [`Strings`] interner, so that states stay packed integers.

use forex::ir::{BinOp, Expr, ExprKind, FloatKind, Type, UnOp, VarId};
use num_traits::ToPrimitive;
use std::cell::RefCell;
use std::collections::HashMap;

/// Bits of a packed state per string variable: at most 2^STR_BITS distinct strings.
pub const STR_BITS: u32 = 8;

/// Interned strings; index 0 is always the empty string.
#[derive(Debug)]
pub struct Strings {
    list: RefCell<Vec<String>>,
    index: RefCell<HashMap<String, u128>>,
}

impl Default for Strings {
    fn default() -> Self {
        let s = Strings { list: RefCell::new(Vec::new()), index: RefCell::new(HashMap::new()) };
        s.intern("");
        s
    }
}

impl Strings {
    pub fn intern(&self, text: &str) -> u128 {
        if let Some(i) = self.index.borrow().get(text) {
            return *i;
        }
        let mut list = self.list.borrow_mut();
        let i = list.len() as u128;
        list.push(text.to_string());
        self.index.borrow_mut().insert(text.to_string(), i);
        i
    }
    pub fn get(&self, i: u128) -> String {
        self.list.borrow()[i as usize].clone()
    }
    /// Whether more strings were made than a packed state can name (the answer is then
    /// unreliable and the oracle gives up).
    pub fn overflowed(&self) -> bool {
        self.list.borrow().len() as u128 > mask(STR_BITS) + 1
    }
}

pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Bits of a variable of this type in a packed state.
pub fn width(ty: &Type) -> u32 {
    match ty {
        Type::Bool => 1,
        Type::Bv(w) => *w,
        Type::Str => STR_BITS,
        Type::Float(FloatKind::F32) => 32,
        Type::Float(FloatKind::F64) => 64,
        other => panic!("brute oracle: unsupported type {other}"),
    }
}

/// The two's-complement reading of a `w`-bit value.
fn signed_of(x: u128, w: u32) -> i128 {
    if (x >> (w - 1)) & 1 == 1 {
        x as i128 - (1i128 << w)
    } else {
        x as i128
    }
}

/// `v == "lit"` or `"lit" == v`, or a disjunction of such over one string variable: the
/// variable and its finite set of values (how generated tuples bound string inputs and
/// `s = *`, so that the enumeration stays exact).
pub fn literal_domain(e: &Expr) -> Option<(VarId, Vec<String>)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Eq, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::Var(v), ExprKind::Str(s)) | (ExprKind::Str(s), ExprKind::Var(v)) => {
                Some((*v, vec![s.clone()]))
            }
            _ => None,
        },
        ExprKind::Binary(BinOp::Or, a, b) => {
            let (va, mut sa) = literal_domain(a)?;
            let (vb, sb) = literal_domain(b)?;
            (va == vb).then(|| {
                sa.extend(sb);
                (va, sa)
            })
        }
        _ => None,
    }
}

/// Whether the oracle can evaluate `e` (bool, bvN ≤ 64, strings, and `int` only as
/// `len(s)`, literals, `-`, `+` and comparisons).
pub fn expr_ok(e: &Expr) -> bool {
    let ty_ok = match e.ty {
        Type::Bool | Type::Str | Type::Int => true,
        Type::Bv(w) => (1..=64).contains(&w),
        Type::Float(_) => true,
        Type::Array(_) => false,
    };
    ty_ok
        && match &e.kind {
            ExprKind::Var(_) => e.ty != Type::Int,
            ExprKind::Bool(_) | ExprKind::Bv(_) | ExprKind::Str(_) | ExprKind::Float(_) => true,
            ExprKind::Fma(a, b, c) => expr_ok(a) && expr_ok(b) && expr_ok(c),
            // Floats to unbounded ints can exceed the oracle's i128.
            ExprKind::Unary(UnOp::FloatToInt(forex::ir::IntTarget::Int), _) => false,
            ExprKind::Int(n) => n.to_i64().is_some(),
            ExprKind::Bound(_)
            | ExprKind::Select(..)
            | ExprKind::ConstArray(_)
            | ExprKind::Quant { .. } => false,
            ExprKind::Unary(op, a) => !matches!(op, UnOp::Abs | UnOp::BvToInt) && expr_ok(a),
            ExprKind::Binary(op, a, b) => {
                let ints_ok = a.ty != Type::Int
                    || matches!(op, BinOp::Add | BinOp::Sub)
                    || e.ty == Type::Bool;
                let strs_ok =
                    a.ty != Type::Str || matches!(op, BinOp::Concat | BinOp::Eq | BinOp::Ne);
                !matches!(op, BinOp::Min | BinOp::Max)
                    && ints_ok
                    && strs_ok
                    && expr_ok(a)
                    && expr_ok(b)
            }
            ExprKind::Ite(c, a, b) => expr_ok(c) && expr_ok(a) && expr_ok(b),
            ExprKind::Extract { arg, .. } => expr_ok(arg),
        }
}

/// Evaluates a supported expression without strings (see [`eval_in`]).
pub fn eval(e: &Expr, env: &impl Fn(VarId) -> u128) -> u128 {
    eval_in(e, env, &Strings::default())
}

/// Evaluates a supported expression; string values are indices into `strings`.
pub fn eval_in(e: &Expr, env: &impl Fn(VarId) -> u128, strings: &Strings) -> u128 {
    let ev = |x: &Expr| eval_in(x, env, strings);
    if let Some(v) = super::float::eval(e, &ev) {
        return v;
    }
    match &e.kind {
        ExprKind::Var(v) => env(*v),
        ExprKind::Bool(b) => *b as u128,
        ExprKind::Bv(v) => *v & mask(width(&e.ty)),
        ExprKind::Int(n) => n.to_i64().expect("checked by expr_ok") as i128 as u128,
        ExprKind::Str(s) => strings.intern(s),
        ExprKind::Unary(UnOp::StrLen, a) => strings.get(ev(a)).len() as i128 as u128,
        ExprKind::Unary(UnOp::Neg, a) if e.ty == Type::Int => {
            (ev(a) as i128).wrapping_neg() as u128
        }
        ExprKind::Unary(op, a) => {
            let x = ev(a);
            let m = mask(width(&e.ty));
            match op {
                UnOp::Neg => 0u128.wrapping_sub(x) & m,
                UnOp::Not => (x == 0) as u128,
                UnOp::BitNot => !x & m,
                UnOp::ZeroExt(_) => x,
                UnOp::SignExt(_) => {
                    let w = width(&a.ty);
                    let negative = w > 0 && (x >> (w - 1)) & 1 == 1;
                    if negative {
                        (x | (!0u128 << w)) & m
                    } else {
                        x
                    }
                }
                UnOp::Abs | UnOp::BvToInt | UnOp::StrLen => panic!("brute oracle: int result"),
                _ => panic!("brute oracle: float operator {op:?} on a non-float"),
            }
        }
        ExprKind::Binary(op, a, b) if a.ty == Type::Int => {
            let (x, y) = (ev(a) as i128, ev(b) as i128);
            use BinOp::*;
            match op {
                Add => x.wrapping_add(y) as u128,
                Sub => x.wrapping_sub(y) as u128,
                Lt => (x < y) as u128,
                Le => (x <= y) as u128,
                Gt => (x > y) as u128,
                Ge => (x >= y) as u128,
                Eq => (x == y) as u128,
                Ne => (x != y) as u128,
                _ => panic!("brute oracle: int operator {op:?}"),
            }
        }
        ExprKind::Binary(op, a, b) if a.ty == Type::Str => {
            let (x, y) = (ev(a), ev(b));
            match op {
                BinOp::Eq => (x == y) as u128,
                BinOp::Ne => (x != y) as u128,
                BinOp::Concat => strings.intern(&(strings.get(x) + &strings.get(y))),
                _ => panic!("brute oracle: string operator {op:?}"),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (ev(a), ev(b));
            let w = width(&a.ty);
            let m = mask(w);
            use BinOp::*;
            match op {
                Add => x.wrapping_add(y) & m,
                Sub => x.wrapping_sub(y) & m,
                Mul => x.wrapping_mul(y) & m,
                // SMT-LIB bvudiv / bvurem: x / 0 is all ones, x % 0 is x.
                Div => x.checked_div(y).unwrap_or(m),
                Mod => x.checked_rem(y).unwrap_or(x),
                Lt => (x < y) as u128,
                Le => (x <= y) as u128,
                Gt => (x > y) as u128,
                Ge => (x >= y) as u128,
                Eq => (x == y) as u128,
                Ne => (x != y) as u128,
                And => (x != 0 && y != 0) as u128,
                Or => (x != 0 || y != 0) as u128,
                Implies => (x == 0 || y != 0) as u128,
                Iff => ((x != 0) == (y != 0)) as u128,
                BitAnd => x & y,
                BitOr => x | y,
                BitXor => x ^ y,
                // Logical shifts; an amount ≥ width shifts everything out.
                Shl => {
                    if y >= w as u128 {
                        0
                    } else {
                        (x << y) & m
                    }
                }
                Shr => {
                    if y >= w as u128 {
                        0
                    } else {
                        x >> y
                    }
                }
                Min | Max | Concat => panic!("brute oracle: min/max/concat"),
                Ident => (x == y) as u128,
                FMin | FMax | CopySign => panic!("brute oracle: float operator on bits"),
                // Signed operators through i128 (w ≤ 64): Rust's `/` and `%` truncate
                // like SMT-LIB's bvsdiv / bvsrem; by zero as SMT-LIB defines them.
                SLt => (signed_of(x, w) < signed_of(y, w)) as u128,
                SLe => (signed_of(x, w) <= signed_of(y, w)) as u128,
                SGt => (signed_of(x, w) > signed_of(y, w)) as u128,
                SGe => (signed_of(x, w) >= signed_of(y, w)) as u128,
                SDiv if y == 0 => {
                    if signed_of(x, w) >= 0 {
                        m
                    } else {
                        1
                    }
                }
                SDiv => (signed_of(x, w) / signed_of(y, w)) as u128 & m,
                SRem if y == 0 => x,
                SRem => (signed_of(x, w) % signed_of(y, w)) as u128 & m,
                AShr => (signed_of(x, w) >> y.min(127)) as u128 & m,
            }
        }
        ExprKind::Ite(c, a, b) => {
            if ev(c) != 0 {
                ev(a)
            } else {
                ev(b)
            }
        }
        ExprKind::Extract { hi, lo, arg } => (ev(arg) >> lo) & mask(hi - lo + 1),
        ExprKind::Bound(_)
        | ExprKind::Select(..)
        | ExprKind::ConstArray(_)
        | ExprKind::Quant { .. } => {
            panic!("brute oracle: unsupported expression")
        }
        ExprKind::Float(_) | ExprKind::Fma(..) => unreachable!("floats are evaluated above"),
    }
}
