//! C's integer types under the two models (LANGUAGE.md, "C programs"): the IR type of a C
//! scalar, literals, conversions between scalars (truncation, sign and zero extension,
//! truthiness), the integer promotions and the usual arithmetic conversions, array
//! indices as IR integers. Written once here so that code and formulas agree.

use crate::ir::c::{CScalar, IntModel};
use crate::ir::{BinOp, Expr, ExprKind, Type, UnOp};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A C value: an IR expression and its C type (`_Bool` values, and the 0/1 results of
/// comparisons and logical operators, are IR booleans).
#[derive(Clone, Debug)]
pub struct Val {
    pub e: Expr,
    pub ty: CScalar,
}

#[derive(Clone, Copy, Debug)]
pub struct Model(pub IntModel);

impl Model {
    pub fn machine(self) -> bool {
        self.0 == IntModel::Machine
    }

    /// The IR type that holds a C scalar.
    pub fn ir(self, t: CScalar) -> Type {
        if let Some(k) = super::float::kind(t) {
            return Type::Float(k);
        }
        match (t, self.0) {
            (CScalar::Bool, _) => Type::Bool,
            (_, IntModel::Math) => Type::Int,
            (_, IntModel::Machine) => Type::Bv(t.bits()),
        }
    }

    /// The literal `v` of type `t` (reduced modulo 2^N in the machine model).
    pub fn lit(self, v: &BigInt, t: CScalar) -> Expr {
        if let Some(k) = super::float::kind(t) {
            return super::float::of_integer(k, v);
        }
        match (t, self.0) {
            (CScalar::Bool, _) => Expr::bool(!v.is_zero()),
            (_, IntModel::Math) => Expr::int(v.clone()),
            (_, IntModel::Machine) => {
                let w = t.bits();
                let m = BigInt::one() << w;
                let r = ((v % &m) + &m) % &m;
                Expr::bv(r.to_u128().unwrap_or(0), w)
            }
        }
    }

    pub fn lit_i(self, v: i64, t: CScalar) -> Expr {
        self.lit(&BigInt::from(v), t)
    }

    /// The C truth of a value: `v != 0`.
    pub fn truth(self, v: &Val) -> Expr {
        self.truth_of(v.clone())
    }

    /// [`Model::truth`] of an owned value (no copy of its expression: lowering a chain
    /// of operators stays linear).
    pub fn truth_of(self, v: Val) -> Expr {
        if v.ty == CScalar::Bool {
            return v.e;
        }
        if v.ty.is_float() {
            return super::float::truth(v);
        }
        let zero = self.lit_i(0, v.ty);
        Expr::binary(BinOp::Ne, v.e, zero)
    }

    /// `v` converted to type `to` (C11 6.3.1.2–3; wrapping in the machine model).
    pub fn convert(self, v: &Val, to: CScalar) -> Expr {
        self.convert_of(v.clone(), to)
    }

    /// [`Model::convert`] of an owned value.
    pub fn convert_of(self, v: Val, to: CScalar) -> Expr {
        if v.ty == to {
            return v.e;
        }
        if v.ty.is_float() || to.is_float() {
            return super::float::convert(self, v, to);
        }
        if to == CScalar::Bool {
            return self.truth_of(v);
        }
        if v.ty == CScalar::Bool {
            return ite(v.e, self.lit_i(1, to), self.lit_i(0, to));
        }
        if !self.machine() {
            return v.e;
        }
        let (from_w, to_w) = (v.ty.bits(), to.bits());
        if to_w < from_w {
            Expr {
                kind: ExprKind::Extract { hi: to_w - 1, lo: 0, arg: Box::new(v.e) },
                ty: Type::Bv(to_w),
            }
        } else if to_w > from_w {
            let op = if v.ty.is_signed() {
                UnOp::SignExt(to_w - from_w)
            } else {
                UnOp::ZeroExt(to_w - from_w)
            };
            Expr { kind: ExprKind::Unary(op, Box::new(v.e)), ty: Type::Bv(to_w) }
        } else {
            v.e
        }
    }

    pub fn to(self, v: &Val, to: CScalar) -> Val {
        Val { e: self.convert(v, to), ty: to }
    }

    /// [`Model::to`] of an owned value.
    pub fn to_of(self, v: Val, to: CScalar) -> Val {
        Val { e: self.convert_of(v, to), ty: to }
    }

    /// The value as a mathematical integer (array indices, uninterpreted functions'
    /// arguments): the signed value of a signed bit-vector.
    pub fn as_int(self, v: &Val) -> Expr {
        if v.ty == CScalar::Bool {
            return ite(v.e.clone(), Expr::int(1), Expr::int(0));
        }
        if v.ty.is_float() {
            return super::float::as_key(self, v);
        }
        if !self.machine() {
            return v.e.clone();
        }
        let w = v.ty.bits();
        let unsigned =
            Expr { kind: ExprKind::Unary(UnOp::BvToInt, Box::new(v.e.clone())), ty: Type::Int };
        if !v.ty.is_signed() {
            return unsigned;
        }
        let negative = Expr::binary(BinOp::SLt, v.e.clone(), Expr::bv(0, w));
        let wrapped = Expr::binary(BinOp::Sub, unsigned.clone(), Expr::int(BigInt::one() << w));
        ite(negative, wrapped, unsigned)
    }
}

pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    let ty = a.ty.clone();
    Expr { kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)), ty }
}

fn rank(t: CScalar) -> u8 {
    match t {
        CScalar::Bool => 0,
        CScalar::Char | CScalar::UChar => 1,
        CScalar::Short | CScalar::UShort => 2,
        CScalar::Int | CScalar::UInt => 3,
        CScalar::Long | CScalar::ULong => 4,
        CScalar::Float => 5,
        CScalar::Double => 6,
    }
}

fn unsigned_of(t: CScalar) -> CScalar {
    match t {
        CScalar::Char => CScalar::UChar,
        CScalar::Short => CScalar::UShort,
        CScalar::Int => CScalar::UInt,
        CScalar::Long => CScalar::ULong,
        t => t,
    }
}

/// The integer promotions (C11 6.3.1.1): everything narrower than `int` becomes `int`.
pub fn promote(t: CScalar) -> CScalar {
    if rank(t) < 3 {
        CScalar::Int
    } else {
        t
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8) under LP64.
pub fn common(a: CScalar, b: CScalar) -> CScalar {
    if let Some(t) = super::float::common(a, b) {
        return t;
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if rank(a) >= rank(b) { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if rank(u) >= rank(s) {
        u
    } else if s.bits() > u.bits() {
        s
    } else {
        unsigned_of(s)
    }
}

/// The smallest and largest value of a type (for `INT_MIN / -1`).
pub fn min_value(t: CScalar) -> BigInt {
    if t.is_signed() {
        -(BigInt::one() << (t.bits() - 1))
    } else {
        BigInt::zero()
    }
}

/// Whether `v` is negative as a C value (for literals folded by hand).
pub fn is_negative(v: &BigInt) -> bool {
    v.is_negative()
}
