//! The float functions of `.fe` (docs/language.md, "Floating point"): `math.h` by its C
//! names (`fabs`, `sqrt`, `fma`, `fmin`, `fmax`, `floor`, `ceil`, `trunc`, `round`,
//! `rint`, `nearbyint`, `copysign`, and with an `f` suffix for `float` only: `sqrtf`, …),
//! the classifications (`isnan`, `isinf`, `isfinite`, `isnormal`, `issubnormal`,
//! `iszero`, `signbit`), and the conversions that are not `T(e)`: `float_of_signed(b)`
//! and `double_of_signed(b)` (a bit-vector read as two's complement), `sbvN(x)` (a
//! float truncated into a signed bvN), and the range tests `fits_int(x)`, `fits_bvN(x)`,
//! `fits_sbvN(x)` (whether `int(x)`, `bvN(x)`, `sbvN(x)` are in range).

use super::expr::Scope;
use super::Checker;
use crate::diag::Diagnostic;
use crate::ir::{
    self, BinOp, FloatClass, FloatKind, IntTarget, RoundDir, Type, UnOp, MAX_BV_WIDTH,
};
use crate::syntax::ast;

/// What a float function builds.
#[derive(Clone, Copy)]
enum Fun {
    Un(UnOp),
    Bin(BinOp),
    Fma,
    /// `float_of_signed`/`double_of_signed`: from a bit-vector.
    OfSigned(FloatKind),
    /// `sbvN(x)` or `fits_…(x)`: from a float.
    ToInt(IntTarget),
    Fits(IntTarget),
}

/// The float functions' names (for did-you-mean hints).
pub const NAMES: [&str; 24] = [
    "fabs",
    "sqrt",
    "fma",
    "fmin",
    "fmax",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rint",
    "nearbyint",
    "copysign",
    "isnan",
    "isinf",
    "isfinite",
    "isnormal",
    "issubnormal",
    "iszero",
    "signbit",
    "float_of_signed",
    "double_of_signed",
    "fits_int",
    "fits_bv8",
    "sbv8",
];

/// The function `name` means, and whether its `f` suffix asks for `float` operands.
fn lookup(name: &str) -> Option<(Fun, bool)> {
    let math = |n: &str| -> Option<Fun> {
        Some(match n {
            "fabs" => Fun::Un(UnOp::FAbs),
            "sqrt" => Fun::Un(UnOp::Sqrt),
            "floor" => Fun::Un(UnOp::RoundTo(RoundDir::Floor)),
            "ceil" => Fun::Un(UnOp::RoundTo(RoundDir::Ceil)),
            "trunc" => Fun::Un(UnOp::RoundTo(RoundDir::Trunc)),
            "round" => Fun::Un(UnOp::RoundTo(RoundDir::Round)),
            "rint" | "nearbyint" => Fun::Un(UnOp::RoundTo(RoundDir::Rint)),
            "fmin" => Fun::Bin(BinOp::FMin),
            "fmax" => Fun::Bin(BinOp::FMax),
            "copysign" => Fun::Bin(BinOp::CopySign),
            "fma" => Fun::Fma,
            _ => return None,
        })
    };
    if let Some(f) = math(name) {
        return Some((f, false));
    }
    if let Some(f) = name.strip_suffix('f').and_then(math) {
        return Some((f, true));
    }
    let class = [
        FloatClass::Nan,
        FloatClass::Inf,
        FloatClass::Finite,
        FloatClass::Normal,
        FloatClass::Subnormal,
        FloatClass::Zero,
        FloatClass::SignBit,
    ]
    .into_iter()
    .find(|c| c.name() == name);
    if let Some(c) = class {
        return Some((Fun::Un(UnOp::FloatIs(c)), false));
    }
    match name {
        "float_of_signed" => return Some((Fun::OfSigned(FloatKind::F32), false)),
        "double_of_signed" => return Some((Fun::OfSigned(FloatKind::F64), false)),
        "fits_int" => return Some((Fun::Fits(IntTarget::Int), false)),
        _ => {}
    }
    let width = |digits: &str| -> Option<u32> {
        let w: u32 = digits.parse().ok().filter(|_| !digits.starts_with('0'))?;
        (1..=MAX_BV_WIDTH).contains(&w).then_some(w)
    };
    if let Some(w) = name.strip_prefix("fits_sbv").and_then(width) {
        return Some((Fun::Fits(IntTarget::Bv { width: w, signed: true }), false));
    }
    if let Some(w) = name.strip_prefix("fits_bv").and_then(width) {
        return Some((Fun::Fits(IntTarget::Bv { width: w, signed: false }), false));
    }
    if let Some(w) = name.strip_prefix("sbv").and_then(width) {
        return Some((Fun::ToInt(IntTarget::Bv { width: w, signed: true }), false));
    }
    None
}

/// A float literal with the value of the int literal `e`, as `.fe` writes it (`2.0`,
/// `2.0f`), for hints.
pub fn literal_example(kind: FloatKind, e: &ir::Expr) -> String {
    let n = match &e.kind {
        ir::ExprKind::Int(n) => n.to_string(),
        _ => "1".to_string(),
    };
    let suffix = if kind == FloatKind::F32 { "f" } else { "" };
    format!("{n}.0{suffix}")
}

impl Checker<'_> {
    /// A call of a float function: `None` when `name` is not one.
    pub(super) fn float_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        e: &ast::Expr,
        sc: &Scope,
    ) -> Option<Option<ir::Expr>> {
        let (fun, single) = lookup(&name.name)?;
        Some(self.float_call_of(fun, single, name, args, e, sc))
    }

    fn float_call_of(
        &mut self,
        fun: Fun,
        single: bool,
        name: &ast::Ident,
        args: &[ast::Expr],
        e: &ast::Expr,
        sc: &Scope,
    ) -> Option<ir::Expr> {
        let arity = match fun {
            Fun::Bin(_) => 2,
            Fun::Fma => 3,
            _ => 1,
        };
        if args.len() != arity {
            return self.fail(
                Diagnostic::new(
                    format!(
                        "`{}` takes {arity} argument{}, found {}",
                        name.name,
                        if arity == 1 { "" } else { "s" },
                        args.len()
                    ),
                    e.span.clone(),
                )
                .with_label("wrong number of arguments"),
            );
        }
        let checked: Vec<Option<ir::Expr>> = args.iter().map(|a| self.expr(a, sc)).collect();
        let mut out = Vec::new();
        for c in checked {
            out.push(c?);
        }
        let what = |i: usize| {
            if arity == 1 {
                format!("the argument of `{}`", name.name)
            } else {
                format!("argument {} of `{}`", i + 1, name.name)
            }
        };
        if let Fun::OfSigned(kind) = fun {
            let Type::Bv(_) = out[0].ty else {
                return self.fail(
                    Diagnostic::new(
                        format!("{} must be a bit-vector, found {}", what(0), out[0].ty),
                        args[0].span.clone(),
                    )
                    .with_label(format!("this is {}", out[0].ty))
                    .with_hint(format!("from an int write `{}(e)`", kind.name())),
                );
            };
            let a = out.pop()?;
            return Some(ir::Expr::unary(UnOp::ToFloat { kind, signed: true }, a));
        }
        // Every other function takes floats of one format.
        let first_ty = out[0].ty.clone();
        let Type::Float(kind) = first_ty else {
            let hint = match (&first_ty, name.name.as_str()) {
                (Type::Int, _) => {
                    format!("forex has no implicit conversions: write `{}(double(x))`", name.name)
                }
                _ => "float functions take `float` or `double` arguments".to_string(),
            };
            return self.fail(
                Diagnostic::new(
                    format!("{} must be a float or double, found {}", what(0), first_ty),
                    args[0].span.clone(),
                )
                .with_label(format!("this is {first_ty}"))
                .with_hint(hint),
            );
        };
        if single && kind != FloatKind::F32 {
            let base = name.name.trim_end_matches('f');
            return self.fail(
                Diagnostic::new(
                    format!("`{}` takes a float, found {}", name.name, first_ty),
                    args[0].span.clone(),
                )
                .with_label(format!("this is {first_ty}"))
                .with_hint(format!("for doubles write `{base}`")),
            );
        }
        for (i, a) in out.iter().enumerate().skip(1) {
            if a.ty != first_ty {
                return self.fail(
                    Diagnostic::new(
                        format!("{} must be {first_ty} like the first, found {}", what(i), a.ty),
                        args[i].span.clone(),
                    )
                    .with_label(format!("this is {}", a.ty))
                    .with_related(args[0].span.clone(), format!("this is {first_ty}"))
                    .with_hint(
                        "forex has no implicit conversions: convert with `double(e)` or `float(e)`",
                    ),
                );
            }
        }
        let mut it = out.into_iter();
        let a = it.next()?;
        let x = match fun {
            Fun::Un(op) => ir::Expr::unary(op, a),
            Fun::Bin(op) => ir::Expr::binary(op, a, it.next()?),
            Fun::Fma => {
                let b = it.next()?;
                ir::Expr::fma(a, b, it.next()?)
            }
            Fun::ToInt(t) => ir::Expr::unary(UnOp::FloatToInt(t), a),
            Fun::Fits(t) => ir::Expr::unary(UnOp::FloatFits(t), a),
            Fun::OfSigned(_) => unreachable!("handled above"),
        };
        self.shallow(x, &e.span)
    }
}
