//! Desugarings of the language conveniences (issue 13), so that the engines see only
//! the core IR: conversions `int(b)`/`bvN(i)`, signed bit-vector functions (`slt`,
//! `sdiv`, `ashr`, …), `x++`'s one, functions inlined at their calls, two-dimensional
//! array stores, and loop renumbering after inlining.

use crate::ir::{self, BinOp, Expr, ExprKind, Stmt, Type, UnOp, VarId};
use num_bigint::BigInt;

/// A checked function: its own variable table (parameters first, then locals, then the
/// variables of functions it inlined), its body and its result over that table.
#[derive(Clone, Debug)]
pub struct FnInfo {
    pub name: String,
    pub params: Vec<Type>,
    pub vars: Vec<ir::VarDecl>,
    pub body: Vec<Stmt>,
    pub result: Expr,
}

impl FnInfo {
    /// A function whose result depends on its parameters only, without statements: it
    /// may be called inside expressions (by substitution).
    pub fn is_pure(&self) -> bool {
        let mut params_only = true;
        let n = self.params.len();
        self.result.for_each_var(&mut |v| params_only &= v.index() < n);
        self.body.is_empty() && params_only
    }
}

/// `e` with parameter `k` (variable `k`) replaced by `args[k]`.
pub fn substitute(e: &Expr, args: &[Expr]) -> Expr {
    match &e.kind {
        ExprKind::Var(v) => args.get(v.index()).cloned().unwrap_or_else(|| e.clone()),
        _ => e.map_children(&|c| substitute(c, args)),
    }
}

pub use crate::ir::expr_depth;

/// Statement nesting depth of a block (expressions not counted).
pub fn block_depth(b: &[Stmt]) -> usize {
    b.iter()
        .map(|s| match s {
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                1 + block_depth(then_branch).max(block_depth(else_branch))
            }
            Stmt::While { body, .. } => 1 + block_depth(body),
            _ => 1,
        })
        .max()
        .unwrap_or(0)
}

pub use crate::ir::renumber_loops;

/// `b`'s body renamed by `+offset`.
pub fn shift(body: &[Stmt], offset: u32) -> Vec<Stmt> {
    body.iter().map(|s| s.map_vars(&|v: VarId| VarId(v.0 + offset))).collect()
}

pub fn shift_expr(e: &Expr, offset: u32) -> Expr {
    e.map_vars(&|v: VarId| VarId(v.0 + offset))
}

/// The number 1 of type `ty` (int or bit-vector).
pub fn one(ty: &Type) -> Option<Expr> {
    match ty {
        Type::Int => Some(Expr::int(1)),
        Type::Bv(w) => Some(Expr::bv(1, *w)),
        _ => None,
    }
}

fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    let ty = a.ty.clone();
    Expr { kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)), ty }
}

fn balanced(mut parts: Vec<Expr>, op: BinOp) -> Expr {
    while parts.len() > 1 {
        let mut next = Vec::with_capacity(parts.len().div_ceil(2));
        let mut it = parts.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => Expr::binary(op, a, b),
                None => a,
            });
        }
        parts = next;
    }
    parts.pop().unwrap_or_else(|| Expr::int(0))
}

/// `int(e)` for a bit-vector `e`: its unsigned value, as one native operator (Z3's
/// `bv2int`), not a sum over the bits.
pub fn int_of_bv(e: &Expr) -> Expr {
    if let ExprKind::Bv(v) = e.kind {
        return Expr::int(BigInt::from(v));
    }
    Expr { kind: ExprKind::Unary(UnOp::BvToInt, Box::new(e.clone())), ty: Type::Int }
}

/// `bvW(e)` for an int `e`: e mod 2^W (two's complement), bit k being (e div 2^k) mod 2
/// (Euclidean, so negative numbers get their two's-complement bits).
///
/// One term per bit on purpose, not Z3's `int2bv`: measured with Z3 4.8.12 (10 s limit
/// each), `int2bv` leaves the quantifier-free `bv8(x + 256) != bv8(x)` unknown (per bit:
/// unsat in 0.4 ms; `conversions_wrap_modulo_the_width` relies on it), and under a
/// quantifier (`∀x ∃y. bv8(y) == bv8(x) + 1`, the prover's shape) both time out. Only
/// `int(bv8(x)) != x mod 256` favours `int2bv` (unsat in 0.9 ms; per bit: timeout).
pub fn bv_of_int(e: &Expr, w: u32) -> Expr {
    let mask = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
    if let ExprKind::Int(n) = &e.kind {
        let m = BigInt::from(1u8) << w;
        let r = ((n % &m) + &m) % &m;
        let v: u128 = r.try_into().unwrap_or(0);
        return Expr::bv(v & mask, w);
    }
    let terms = (0..w)
        .map(|k| {
            let shifted = if k == 0 {
                e.clone()
            } else {
                Expr::binary(BinOp::Div, e.clone(), Expr::int(BigInt::from(1u8) << k))
            };
            let b = Expr::binary(BinOp::Mod, shifted, Expr::int(2));
            ite(Expr::eq(b, Expr::int(1)), Expr::bv(1u128 << k, w), Expr::bv(0, w))
        })
        .collect();
    balanced(terms, BinOp::BitOr)
}

/// The conversion of `e` to `to`; `None` when it has no meaning (arrays).
pub fn convert(e: Expr, to: &Type) -> Option<Expr> {
    use crate::ir::IntTarget;
    Some(match (&e.ty, to) {
        (a, b) if a == b => e,
        // Floats (`ir.rs`): to a float rounds to nearest even (bit-vectors read unsigned);
        // to an integer truncates, 0 when out of range.
        (Type::Float(_) | Type::Int | Type::Bv(_), Type::Float(k)) => {
            Expr::unary(UnOp::ToFloat { kind: *k, signed: false }, e)
        }
        (Type::Bool, Type::Float(k)) => ite(
            e,
            Expr::float(*k, ir::float::from_bigint(*k, &BigInt::from(1))),
            Expr::float(*k, 0),
        ),
        (Type::Float(_), Type::Int) => Expr::unary(UnOp::FloatToInt(IntTarget::Int), e),
        (Type::Float(_), Type::Bv(w)) => {
            Expr::unary(UnOp::FloatToInt(IntTarget::Bv { width: *w, signed: false }), e)
        }
        (Type::Float(k), Type::Bool) => {
            let zero = Expr::float(*k, 0);
            Expr::binary(BinOp::Ne, e, zero)
        }
        (Type::Bv(_), Type::Int) => int_of_bv(&e),
        (Type::Int, Type::Bv(w)) => bv_of_int(&e, *w),
        (Type::Bool, Type::Int) => ite(e, Expr::int(1), Expr::int(0)),
        (Type::Bool, Type::Bv(w)) => ite(e, Expr::bv(1, *w), Expr::bv(0, *w)),
        (Type::Bv(v), Type::Bv(w)) if w < v => Expr {
            kind: ExprKind::Extract { hi: w - 1, lo: 0, arg: Box::new(e) },
            ty: Type::Bv(*w),
        },
        (Type::Bv(_), Type::Bv(w)) => bv_of_int(&int_of_bv(&e), *w),
        (Type::Int | Type::Bv(_), Type::Bool) => {
            let zero = if let Type::Bv(w) = e.ty { Expr::bv(0, w) } else { Expr::int(0) };
            Expr::binary(BinOp::Ne, e, zero)
        }
        _ => return None,
    })
}

/// The signed bit-vector functions, SMT-LIB style: name and arity.
pub const SIGNED: [&str; 7] = ["slt", "sle", "sgt", "sge", "sdiv", "srem", "ashr"];

/// `name(a, b)` for a signed function on bit-vectors: a native IR operator (`ir::BinOp`),
/// so nested calls stay linear in size (an unsigned rewrite copies each operand
/// several times, which grows exponentially with nesting).
pub fn signed(name: &str, a: Expr, b: Expr) -> Expr {
    let op = match name {
        "slt" => BinOp::SLt,
        "sle" => BinOp::SLe,
        "sgt" => BinOp::SGt,
        "sge" => BinOp::SGe,
        "sdiv" => BinOp::SDiv,
        "srem" => BinOp::SRem,
        _ => BinOp::AShr,
    };
    Expr::binary(op, a, b)
}
