//! The oracle's floats: the semantics in the header of `src/ir.rs` written once more with
//! Rust's `f32`/`f64` (IEEE-754 with round-to-nearest-even) and Rust's own casts, without
//! `forex::interp` or forex's rounding code. Values are bit patterns in a `u128`, every
//! NaN the one NaN.

use forex::ir::{BinOp, Expr, ExprKind, FloatClass, FloatKind, IntTarget, RoundDir, Type, UnOp};

/// The one NaN of each format (a positive quiet NaN).
pub fn nan(kind: FloatKind) -> u128 {
    match kind {
        FloatKind::F32 => 0x7fc0_0000,
        FloatKind::F64 => 0x7ff8_0000_0000_0000,
    }
}

fn of32(x: f32) -> u128 {
    if x.is_nan() {
        nan(FloatKind::F32)
    } else {
        u128::from(x.to_bits())
    }
}

fn of64(x: f64) -> u128 {
    if x.is_nan() {
        nan(FloatKind::F64)
    } else {
        u128::from(x.to_bits())
    }
}

fn kind_of(ty: &Type) -> Option<FloatKind> {
    match ty {
        Type::Float(k) => Some(*k),
        _ => None,
    }
}

/// One float operation, generic over the Rust type.
trait F:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
{
    fn get(bits: u128) -> Self;
    fn put(self) -> u128;
    fn is_nan(self) -> bool;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self;
    fn round_dir(self, d: RoundDir) -> Self;
    fn fma(self, b: Self, c: Self) -> Self;
    fn class(self, c: FloatClass) -> bool;
    fn to_f64(self) -> f64;
}

macro_rules! impl_f {
    ($t:ty, $of:ident, $bits:ty) => {
        impl F for $t {
            fn get(bits: u128) -> Self {
                <$t>::from_bits(bits as $bits)
            }
            fn put(self) -> u128 {
                $of(self)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn round_dir(self, d: RoundDir) -> Self {
                match d {
                    RoundDir::Floor => self.floor(),
                    RoundDir::Ceil => self.ceil(),
                    RoundDir::Trunc => self.trunc(),
                    RoundDir::Round => self.round(),
                    RoundDir::Rint => self.round_ties_even(),
                }
            }
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
            fn class(self, c: FloatClass) -> bool {
                match c {
                    FloatClass::Nan => self.is_nan(),
                    FloatClass::Inf => self.is_infinite(),
                    FloatClass::Finite => self.is_finite(),
                    FloatClass::Normal => self.is_normal(),
                    FloatClass::Subnormal => self.is_subnormal(),
                    FloatClass::Zero => self == 0.0,
                    FloatClass::SignBit => !self.is_nan() && self.is_sign_negative(),
                }
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

impl_f!(f32, of32, u32);
impl_f!(f64, of64, u64);

fn unary<T: F>(op: UnOp, x: T) -> u128 {
    match op {
        UnOp::Neg => (-x).put(),
        UnOp::FAbs => x.abs().put(),
        UnOp::Sqrt => x.sqrt().put(),
        UnOp::RoundTo(d) => x.round_dir(d).put(),
        UnOp::FloatIs(c) => x.class(c) as u128,
        UnOp::FloatFits(t) => fits(x.to_f64(), t) as u128,
        UnOp::FloatBits => x.put(),
        UnOp::FloatToInt(t @ IntTarget::Bv { width, .. }) => {
            let d = x.to_f64();
            if fits(d, t) {
                (d.trunc() as i128 as u128) & super::eval::mask(width)
            } else {
                0
            }
        }
        other => panic!("brute oracle: {other:?} on a float"),
    }
}

/// Whether `x` truncated lies in the target's range (widths up to 64 here).
fn fits(x: f64, t: IntTarget) -> bool {
    let t_x = x.trunc();
    match t {
        IntTarget::Int => x.is_finite(),
        IntTarget::Bv { width, signed: false } => t_x >= 0.0 && t_x < 2f64.powi(width as i32),
        IntTarget::Bv { width, signed: true } => {
            t_x >= -(2f64.powi(width as i32 - 1)) && t_x < 2f64.powi(width as i32 - 1)
        }
    }
}

fn binary<T: F>(op: BinOp, x: T, y: T, xb: u128, yb: u128, kind: FloatKind) -> u128 {
    use BinOp::*;
    match op {
        Add => (x + y).put(),
        Sub => (x - y).put(),
        Mul => (x * y).put(),
        Div => (x / y).put(),
        Lt => (x < y) as u128,
        Le => (x <= y) as u128,
        Gt => (x > y) as u128,
        Ge => (x >= y) as u128,
        Eq => (x == y) as u128,
        Ne => (x != y) as u128,
        Ident => (xb == yb) as u128,
        FMin => {
            if x.is_nan() || y < x {
                y.put()
            } else {
                x.put()
            }
        }
        FMax => {
            if x.is_nan() || y > x {
                y.put()
            } else {
                x.put()
            }
        }
        CopySign => {
            if x.is_nan() {
                return nan(kind);
            }
            let negative = y.class(FloatClass::SignBit);
            let m = x.abs();
            if negative {
                (-m).put()
            } else {
                m.put()
            }
        }
        other => panic!("brute oracle: {other:?} on floats"),
    }
}

/// The value of `e` if it is a float operation (its operands evaluated by `ev`).
pub fn eval(e: &Expr, ev: &impl Fn(&Expr) -> u128) -> Option<u128> {
    Some(match &e.kind {
        ExprKind::Float(bits) => {
            let k = kind_of(&e.ty)?;
            let b = u128::from(*bits);
            match k {
                FloatKind::F32 => of32(f32::from_bits(b as u32)),
                FloatKind::F64 => of64(f64::from_bits(b as u64)),
            }
        }
        ExprKind::Fma(a, b, c) => {
            let (x, y, z) = (ev(a), ev(b), ev(c));
            match kind_of(&e.ty)? {
                FloatKind::F32 => f32::get(x).fma(f32::get(y), f32::get(z)).put(),
                FloatKind::F64 => f64::get(x).fma(f64::get(y), f64::get(z)).put(),
            }
        }
        ExprKind::Unary(UnOp::ToFloat { kind, signed }, a) => {
            let x = ev(a);
            // Rust's casts round to nearest, ties to even.
            match (&a.ty, kind) {
                (Type::Float(FloatKind::F32), FloatKind::F64) => of64(f32::get(x) as f64),
                (Type::Float(FloatKind::F64), FloatKind::F32) => of32(f64::get(x) as f32),
                (Type::Float(_), _) => x,
                (Type::Int, FloatKind::F32) => of32(x as i128 as f32),
                (Type::Int, FloatKind::F64) => of64(x as i128 as f64),
                (Type::Bv(w), k) => {
                    let n: i128 = if *signed && (x >> (w - 1)) & 1 == 1 {
                        x as i128 - (1i128 << w)
                    } else {
                        x as i128
                    };
                    match k {
                        FloatKind::F32 => of32(n as f32),
                        FloatKind::F64 => of64(n as f64),
                    }
                }
                (other, _) => panic!("brute oracle: {other} to a float"),
            }
        }
        ExprKind::Unary(op, a) => match kind_of(&a.ty)? {
            FloatKind::F32 => unary(*op, f32::get(ev(a))),
            FloatKind::F64 => unary(*op, f64::get(ev(a))),
        },
        ExprKind::Binary(op, a, b) => {
            let k = kind_of(&a.ty)?;
            let (x, y) = (ev(a), ev(b));
            match k {
                FloatKind::F32 => binary(*op, f32::get(x), f32::get(y), x, y, k),
                FloatKind::F64 => binary(*op, f64::get(x), f64::get(y), x, y, k),
            }
        }
        _ => return None,
    })
}
