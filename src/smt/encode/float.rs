//! Floats in Z3, two ways (DESIGN.md §11, "cheap first, exact when needed").
//!
//! **Exact** ([`FloatMode::Exact`], the default): Z3's FloatingPoint theory, every
//! operation with `RNE`; the semantics of `ir.rs` written once more, and checked against
//! the interpreter by the differential tests.
//!
//! **Abstract** ([`FloatMode::Abstract`], the prover's first try on a tuple with floats):
//! each format is an uninterpreted sort (`ufp.double`); each operation an uninterpreted
//! function of it (`ufp.add.double`, one per operation and format, the rounding mode being
//! RNE throughout, shared by every copy); C's `==` and `<` uninterpreted predicates
//! (`ufp.eq.double`: never the sort's `=`, because NaN == NaN is false and -0.0 == 0.0
//! true); `===` the sort's `=`; literals uninterpreted constants, one per bit pattern.
//! Derived operators are written over those: `a <= b` is `lt(a, b) || eq(a, b)`, `a > b`
//! is `lt(b, a)`, `isnan(x)` is `!eq(x, x)`, `fmin(a, b)` is `if isnan(a) || lt(b, a)
//! then b else a`; and the arguments of `+`, `*`, `fma`'s product and `==` are put in one
//! order (IEEE addition and multiplication commute, NaN and signed zeros included).
//!
//! Why a `verified` from the abstraction is sound: the IEEE semantics is one
//! interpretation of these symbols (the sort as the set of floats of the format with NaN
//! identified, each function as its IEEE operation, `eq` and `lt` as IEEE's comparisons);
//! each derived form and each argument reordering above is an identity under that
//! interpretation. An obligation the solver finds valid holds in every interpretation, so
//! in that one: the exact encoding of the same obligation is valid. The converse fails
//! (`x * 2 == x + x` is IEEE-valid, not valid for uninterpreted symbols), so an answer
//! other than valid from the abstraction decides nothing: the prover then runs again
//! with the exact encoding. Refuting and testing always use the exact encoding, because
//! their counterexamples must replay bit for bit.

use crate::ir::float::{self as fl, FloatKind};
use crate::ir::{BinOp, Expr, ExprKind, FloatClass, IntTarget, RoundDir, Type, UnOp};
use num_bigint::BigInt;
use std::cell::Cell;
use z3::ast::{Ast, Bool, Dynamic, Float, Int, Real, BV};
use z3::{FuncDecl, Sort};

/// How floats are encoded on this thread (Z3 terms never leave their thread).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FloatMode {
    /// Z3's FloatingPoint theory.
    #[default]
    Exact,
    /// Uninterpreted sorts, functions and predicates (module docs).
    Abstract,
}

impl FloatMode {
    /// How reports name it.
    pub fn name(self) -> &'static str {
        match self {
            FloatMode::Exact => "exact",
            FloatMode::Abstract => "abstract",
        }
    }
}

thread_local! {
    static MODE: Cell<FloatMode> = const { Cell::new(FloatMode::Exact) };
}

/// The float encoding in force on this thread.
pub fn mode() -> FloatMode {
    MODE.with(|m| m.get())
}

/// While alive, floats are encoded as `mode` on this thread.
pub struct ModeScope {
    previous: FloatMode,
    _not_send: std::marker::PhantomData<*const ()>,
}

/// Encodes floats as `mode` until the scope ends.
pub fn mode_scope(mode: FloatMode) -> ModeScope {
    let previous = MODE.with(|m| m.replace(mode));
    ModeScope { previous, _not_send: std::marker::PhantomData }
}

impl Drop for ModeScope {
    fn drop(&mut self) {
        MODE.with(|m| m.set(self.previous));
    }
}

/// Prefix of every symbol of the abstraction (certificates declare them).
pub const ABSTRACT_PREFIX: &str = "ufp.";

/// The sort of a format in the current mode.
pub fn sort(kind: FloatKind) -> Sort {
    match mode() {
        FloatMode::Exact => Sort::float(kind.ebits(), kind.sbits()),
        FloatMode::Abstract => Sort::uninterpreted(format!("{ABSTRACT_PREFIX}{kind}").into()),
    }
}

fn rne() -> z3::ast::RoundingMode {
    z3::ast::RoundingMode::round_nearest_ties_to_even()
}

fn fp(d: &Dynamic) -> Float {
    d.as_float().expect("checked IR: float operand")
}

fn boolean(d: &Dynamic) -> Bool {
    d.as_bool().expect("an abstract predicate is a bool")
}

/// An uninterpreted function of the abstraction applied to `args`.
fn apply(name: &str, kind: FloatKind, args: &[&Dynamic], range: &Sort) -> Dynamic {
    let domain: Vec<Sort> = args.iter().map(|a| a.get_sort()).collect();
    let refs: Vec<&Sort> = domain.iter().collect();
    let f = FuncDecl::new(format!("{ABSTRACT_PREFIX}{name}.{kind}"), &refs, range);
    let args: Vec<&dyn Ast> = args.iter().map(|a| *a as &dyn Ast).collect();
    f.apply(&args)
}

/// A float literal.
pub fn literal(kind: FloatKind, bits: u64) -> Dynamic {
    let bits = kind.canonical(bits);
    match mode() {
        FloatMode::Exact => match kind {
            FloatKind::F32 => Float::from_f32(f32::from_bits(bits as u32)).into(),
            FloatKind::F64 => Float::from_f64(f64::from_bits(bits)).into(),
        },
        FloatMode::Abstract => {
            Dynamic::new_const(format!("{ABSTRACT_PREFIX}{kind}.{bits:x}"), &sort(kind))
        }
    }
}

/// C's `a < b`.
fn lt(kind: FloatKind, a: &Dynamic, b: &Dynamic) -> Bool {
    match mode() {
        FloatMode::Exact => fp(a).lt(fp(b)),
        FloatMode::Abstract => boolean(&apply("lt", kind, &[a, b], &Sort::bool())),
    }
}

/// C's `a == b`.
fn ceq(kind: FloatKind, a: &Dynamic, b: &Dynamic) -> Bool {
    match mode() {
        FloatMode::Exact => fp(a).eq_fpa(fp(b)),
        FloatMode::Abstract => {
            let (a, b) = super::shape::ordered(a, b);
            boolean(&apply("eq", kind, &[a, b], &Sort::bool()))
        }
    }
}

fn is_nan(kind: FloatKind, a: &Dynamic) -> Bool {
    match mode() {
        FloatMode::Exact => fp(a).is_nan(),
        FloatMode::Abstract => ceq(kind, a, a).not(),
    }
}

/// An IEEE identity that spares the solver an expensive operation: `Some(cheaper)` when
/// `e` is one of the forms below, bit for bit equal to `e` on every input (NaN being the one
/// NaN). Both encodings use it, so that the abstraction sees `x / 2` and `x * 0.5` as one
/// term, and the exact encoding multiplies where Z3's division is slow.
///
/// - `x / c` is `x * (1/c)` when `c` is a power of two `±2^k` whose reciprocal the format
///   holds exactly (`fl::exact_reciprocal`). For finite `x` both are the correctly rounded
///   (RNE) value of the one real number `x · 2^-k`, so they round alike, overflow to the
///   same infinity and underflow to the same subnormal or zero; the sign of a zero result
///   is `sign(x) xor sign(c)` in both, `c` and `1/c` having one sign; `±inf / c` and
///   `±inf * (1/c)` are the same infinity; a NaN gives NaN.
/// - `x * 2` (or `2 * x`) is `x + x`: both are the correctly rounded `2x` (the zeros:
///   `-0 * 2` and `-0 + -0` are `-0`; `inf + inf` is `inf`; NaN stays NaN).
/// - `x * 1` (or `1 * x`) and `x - 0` are `x`, and so is `x + -0` (or `-0 + x`): the
///   operation is exact, and its zero keeps `x`'s sign (RNE: `-0 - 0` and `-0 + -0` are
///   `-0`, `0 - 0` and `0 + -0` are `0`); infinities stay, NaN stays NaN.
/// - `(float)(double)x` for a `float` `x` is `x`: widening is exact and narrowing an exact
///   binary32 value gives it back (NaN gives NaN).
/// - `(int)trunc(x)` is `(int)x`, and the fit test likewise: the conversion truncates
///   toward zero, and `trunc` of `x` truncates to the same integer (NaN and the infinities
///   stay what they are: no integer).
pub fn rewrite(e: &Expr) -> Option<Expr> {
    let float_literal = |x: &Expr| match (&x.kind, &x.ty) {
        (ExprKind::Float(bits), Type::Float(k)) => Some((*k, *bits)),
        _ => None,
    };
    match &e.kind {
        ExprKind::Binary(BinOp::Div, x, c) => {
            let (k, bits) = float_literal(c)?;
            let r = fl::exact_reciprocal(k, bits)?;
            Some(Expr::binary(BinOp::Mul, (**x).clone(), Expr::float(k, r)))
        }
        ExprKind::Binary(op @ (BinOp::Mul | BinOp::Add | BinOp::Sub), a, b)
            if matches!(e.ty, Type::Float(_)) && neutral(*op, a, b).is_some() =>
        {
            neutral(*op, a, b).cloned()
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let two = |x: &Expr| float_literal(x).is_some_and(|(k, bits)| k.to_f64(bits) == 2.0);
            let x = if two(b) {
                a
            } else if two(a) {
                b
            } else {
                return None;
            };
            matches!(x.ty, Type::Float(_))
                .then(|| Expr::binary(BinOp::Add, (**x).clone(), (**x).clone()))
        }
        ExprKind::Unary(UnOp::ToFloat { kind: FloatKind::F32, .. }, wide) => match &wide.kind {
            ExprKind::Unary(UnOp::ToFloat { kind: FloatKind::F64, .. }, x)
                if x.ty == Type::Float(FloatKind::F32) =>
            {
                Some((**x).clone())
            }
            _ => None,
        },
        ExprKind::Unary(op @ (UnOp::FloatToInt(_) | UnOp::FloatFits(_)), t) => match &t.kind {
            ExprKind::Unary(UnOp::RoundTo(RoundDir::Trunc), x) => {
                Some(Expr { kind: ExprKind::Unary(*op, x.clone()), ty: e.ty.clone() })
            }
            _ => None,
        },
        _ => None,
    }
}

/// The operand that `a op b` equals bit for bit when the other is op's neutral literal
/// (`1` for `*`, `-0` for `+`, `+0` for `-` on the right; see [`rewrite`]).
fn neutral<'e>(op: BinOp, a: &'e Expr, b: &'e Expr) -> Option<&'e Expr> {
    let is = |x: &Expr, want: f64| match (&x.kind, &x.ty) {
        (ExprKind::Float(bits), Type::Float(k)) => {
            let v = k.to_f64(*bits);
            v == want && v.is_sign_negative() == want.is_sign_negative()
        }
        _ => false,
    };
    match op {
        BinOp::Mul if is(b, 1.0) => Some(a),
        BinOp::Mul if is(a, 1.0) => Some(b),
        BinOp::Add if is(b, -0.0) => Some(a),
        BinOp::Add if is(a, -0.0) => Some(b),
        BinOp::Sub if is(b, 0.0) => Some(a),
        _ => None,
    }
}

/// `a op b` for two floats of format `kind`.
pub fn binary(op: BinOp, kind: FloatKind, a: &Dynamic, b: &Dynamic) -> Dynamic {
    use BinOp::*;
    let exact = mode() == FloatMode::Exact;
    let arith = |name: &str, commutes: bool| -> Dynamic {
        if exact {
            let (x, y, r) = (fp(a), fp(b), rne());
            return match name {
                "add" => x.add_with_rounding_mode(y, &r),
                "sub" => x.sub_with_rounding_mode(y, &r),
                "mul" => x.mul_with_rounding_mode(y, &r),
                _ => x.div_with_rounding_mode(y, &r),
            }
            .into();
        }
        let (x, y) = if commutes { super::shape::ordered(a, b) } else { (a, b) };
        apply(name, kind, &[x, y], &sort(kind))
    };
    match op {
        Add => arith("add", true),
        Sub => arith("sub", false),
        Mul => arith("mul", true),
        Div => arith("div", false),
        Lt => lt(kind, a, b).into(),
        Gt => lt(kind, b, a).into(),
        Le if exact => fp(a).le(fp(b)).into(),
        Ge if exact => fp(a).ge(fp(b)).into(),
        Le => Bool::or(&[lt(kind, a, b), ceq(kind, a, b)]).into(),
        Ge => Bool::or(&[lt(kind, b, a), ceq(kind, a, b)]).into(),
        Eq => ceq(kind, a, b).into(),
        Ne => ceq(kind, a, b).not().into(),
        Ident => a.eq(b).into(),
        FMin => Bool::or(&[is_nan(kind, a), lt(kind, b, a)]).ite(b, a),
        FMax => Bool::or(&[is_nan(kind, a), lt(kind, a, b)]).ite(b, a),
        CopySign if exact => {
            let magnitude = fp(a).unary_abs();
            fp(b).is_negative().ite(&magnitude.unary_neg(), &magnitude).into()
        }
        CopySign => apply("copysign", kind, &[a, b], &sort(kind)),
        _ => unreachable!("checked IR: {op:?} on floats"),
    }
}

/// `fma(a, b, c)`.
pub fn fma(kind: FloatKind, a: &Dynamic, b: &Dynamic, c: &Dynamic) -> Dynamic {
    match mode() {
        FloatMode::Exact => fp(a).fma_with_rounding_mode(fp(b), fp(c), &rne()).into(),
        FloatMode::Abstract => {
            let (a, b) = super::shape::ordered(a, b);
            apply("fma", kind, &[a, b, c], &sort(kind))
        }
    }
}

/// `op a` for a float `a` of format `kind` (conversions to floats are [`to_float`]).
pub fn unary(op: UnOp, kind: FloatKind, a: &Dynamic) -> Dynamic {
    if mode() == FloatMode::Abstract {
        return match op {
            UnOp::FloatIs(FloatClass::Nan) => is_nan(kind, a).into(),
            UnOp::FloatIs(c) => apply(c.name(), kind, &[a], &Sort::bool()),
            UnOp::FloatToInt(t) => {
                apply(&format!("to_{}", t.name()), kind, &[a], &super::sort(&t.ty()))
            }
            UnOp::FloatFits(t) => apply(&format!("fits_{}", t.name()), kind, &[a], &Sort::bool()),
            UnOp::FloatBits => apply("bits", kind, &[a], &Sort::bitvector(kind.width())),
            UnOp::Neg => apply("neg", kind, &[a], &sort(kind)),
            UnOp::FAbs => apply("fabs", kind, &[a], &sort(kind)),
            UnOp::Sqrt => apply("sqrt", kind, &[a], &sort(kind)),
            UnOp::RoundTo(d) => apply(d.name(), kind, &[a], &sort(kind)),
            _ => unreachable!("checked IR: {op:?} on a float"),
        };
    }
    let x = fp(a);
    match op {
        UnOp::Neg => x.unary_neg().into(),
        UnOp::FAbs => x.unary_abs().into(),
        UnOp::Sqrt => x.sqrt_with_rounding_mode(&rne()).into(),
        UnOp::RoundTo(d) => {
            use z3::ast::RoundingMode as M;
            let m = match d {
                RoundDir::Floor => M::round_towards_negative(),
                RoundDir::Ceil => M::round_towards_positive(),
                RoundDir::Trunc => M::round_towards_zero(),
                RoundDir::Round => M::round_nearest_ties_to_away(),
                RoundDir::Rint => rne(),
            };
            x.round_to_integral_with_rounding_mode(&m).into()
        }
        UnOp::FloatIs(c) => match c {
            FloatClass::Nan => x.is_nan(),
            FloatClass::Inf => x.is_infinite(),
            FloatClass::Finite => Bool::or(&[x.is_nan(), x.is_infinite()]).not(),
            FloatClass::Normal => x.is_normal(),
            FloatClass::Subnormal => x.is_subnormal(),
            FloatClass::Zero => x.is_zero(),
            FloatClass::SignBit => x.is_negative(),
        }
        .into(),
        UnOp::FloatFits(t) => fits(kind, &x, t).into(),
        UnOp::FloatToInt(t) => to_int(kind, &x, t),
        // Z3 leaves NaN's pattern open: the interpreter's canonical one, so that tables
        // keyed by it replay.
        UnOp::FloatBits => {
            let nan = BV::from_u64(kind.nan(), kind.width());
            x.is_nan().ite(&nan, &x.to_ieee_bv()).into()
        }
        _ => unreachable!("checked IR: {op:?} on a float"),
    }
}

/// Whether the truncation of `x` is a value of `t` (finite, in range).
fn fits(kind: FloatKind, x: &Float, t: IntTarget) -> Bool {
    let finite = Bool::or(&[x.is_nan(), x.is_infinite()]).not();
    let IntTarget::Bv { width, signed } = t else { return finite };
    let trunc =
        x.round_to_integral_with_rounding_mode(&z3::ast::RoundingMode::round_towards_zero());
    // Powers of two are exact in both formats (2^128 in binary32 is +inf, above every
    // finite value, which is right: every finite binary32 below it fits 128 bits).
    let pow = |e: u32| -> Float {
        fp(&literal(kind, fl::from_bigint(kind, &(BigInt::from(1) << e as usize))))
    };
    let (lo, hi) = if signed {
        let h = pow(width - 1);
        (h.unary_neg(), h)
    } else {
        (fp(&literal(kind, 0)), pow(width))
    };
    // NaN and ±inf fail one of the comparisons.
    Bool::and(&[trunc.ge(&lo), trunc.lt(&hi)])
}

/// Truncation toward zero, 0 when out of range (`ir.rs`).
fn to_int(kind: FloatKind, x: &Float, t: IntTarget) -> Dynamic {
    let ok = fits(kind, x, t);
    match t {
        IntTarget::Int => {
            let r = x.to_real();
            let zero = Real::from_int(&Int::from_i64(0));
            let trunc = r.ge(&zero).ite(&r.to_int(), &r.unary_minus().to_int().unary_minus());
            ok.ite(&trunc, &Int::from_i64(0)).into()
        }
        IntTarget::Bv { width, signed } => {
            let rtz = z3::ast::RoundingMode::round_towards_zero();
            let v = if signed {
                x.to_sbv_with_rounding_mode(&rtz, width)
            } else {
                x.to_ubv_with_rounding_mode(&rtz, width)
            };
            ok.ite(&v, &BV::from_u64(0, width)).into()
        }
    }
}

/// `ToFloat { kind, signed }` of an encoded operand of IR type `from`.
pub fn to_float(kind: FloatKind, signed: bool, a: &Dynamic, from: &Type) -> Dynamic {
    if mode() == FloatMode::Abstract {
        let source = match from {
            Type::Float(k) => format!("of_{k}"),
            Type::Bv(w) if signed => format!("of_sbv{w}"),
            Type::Bv(w) => format!("of_bv{w}"),
            _ => "of_int".to_string(),
        };
        if *from == Type::Float(kind) {
            return a.clone();
        }
        return apply(&source, kind, &[a], &sort(kind));
    }
    let target = sort(kind);
    let ctx = a.get_ctx().get_z3_context();
    let rm = rne();
    // The z3 crate wraps no `to_fp` from integers: Z3's C API directly.
    let raw = unsafe {
        match from {
            Type::Float(_) => return fp(a).to_fp_with_rounding_mode(&rm, &target).into(),
            Type::Bv(_) if signed => z3_sys::Z3_mk_fpa_to_fp_signed(
                ctx,
                rm.get_z3_ast(),
                a.get_z3_ast(),
                target.get_z3_sort(),
            ),
            Type::Bv(_) => z3_sys::Z3_mk_fpa_to_fp_unsigned(
                ctx,
                rm.get_z3_ast(),
                a.get_z3_ast(),
                target.get_z3_sort(),
            ),
            _ => {
                let r = Real::from_int(&a.as_int().expect("checked IR: int operand"));
                z3_sys::Z3_mk_fpa_to_fp_real(
                    ctx,
                    rm.get_z3_ast(),
                    r.get_z3_ast(),
                    target.get_z3_sort(),
                )
            }
        }
    }
    .expect("Z3 builds a conversion to a float");
    unsafe { Float::wrap(a.get_ctx(), raw) }.into()
}

/// A model's float term as its bits (`None` for a term that is not a float numeral, and
/// always in the abstract mode, whose values mean nothing).
pub fn value_bits(t: &Dynamic, kind: FloatKind) -> Option<u64> {
    let x = t.as_float()?;
    if x.is_nan().simplify().as_bool()? {
        return Some(kind.nan());
    }
    let bv = x.to_ieee_bv().simplify();
    bv.as_u64().map(|b| kind.canonical(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Float;

    /// The neutral-operand rewrites hold in IEEE-754 (RNE) for every binary32 value,
    /// zeros, infinities and NaN included: Z3's FloatingPoint theory finds no value where
    /// `x op c` and `x` differ as bit patterns (SMT-LIB `=`). (The argument in [`rewrite`]
    /// does not depend on the format; binary64's bit-blasted product takes Z3 ~25 s.)
    #[test]
    fn neutral_operands_are_identities_in_ieee() {
        {
            let (eb, sb) = (8, 24);
            let x = Float::new_const("x", eb, sb);
            let lit =
                |v: f64| if eb == 11 { Float::from_f64(v) } else { Float::from_f32(v as f32) };
            let r = rne();
            let forms = [
                x.mul_with_rounding_mode(lit(1.0), &r),
                lit(1.0).mul_with_rounding_mode(&x, &r),
                x.add_with_rounding_mode(lit(-0.0), &r),
                lit(-0.0).add_with_rounding_mode(&x, &r),
                x.sub_with_rounding_mode(lit(0.0), &r),
            ];
            for f in forms {
                let s = crate::smt::session::solver();
                s.assert(f.eq(&x).not());
                assert_eq!(s.check(), z3::SatResult::Unsat, "{f}");
            }
            // And the near misses are not: `x + 0` turns `-0` into `0`, `x - -0` likewise.
            for f in
                [x.add_with_rounding_mode(lit(0.0), &r), x.sub_with_rounding_mode(lit(-0.0), &r)]
            {
                let s = crate::smt::session::solver();
                s.assert(f.eq(&x).not());
                assert_eq!(s.check(), z3::SatResult::Sat, "{f}");
            }
        }
    }

    #[test]
    fn only_the_neutral_literal_on_its_side_is_rewritten() {
        let k = FloatKind::F64;
        let x = Expr::var(crate::ir::VarId(0), Type::Float(k));
        let c = |v: f64| Expr::float(k, v.to_bits());
        let rw = |op, a: &Expr, b: &Expr| rewrite(&Expr::binary(op, a.clone(), b.clone()));
        assert_eq!(rw(BinOp::Mul, &x, &c(1.0)), Some(x.clone()));
        assert_eq!(rw(BinOp::Mul, &c(1.0), &x), Some(x.clone()));
        assert_eq!(rw(BinOp::Add, &c(-0.0), &x), Some(x.clone()));
        assert_eq!(rw(BinOp::Sub, &x, &c(0.0)), Some(x.clone()));
        assert_eq!(rw(BinOp::Add, &x, &c(0.0)), None);
        assert_eq!(rw(BinOp::Sub, &x, &c(-0.0)), None);
        assert_eq!(rw(BinOp::Sub, &c(0.0), &x), None);
        assert_eq!(rw(BinOp::Mul, &x, &c(-1.0)), None);
    }
}
