//! [`Expr`]'s constructors (typed, with light folding of literals) and its traversals
//! (variables, conjuncts, substitution, renaming).

use super::FloatKind;
use super::{BinOp, Expr, ExprKind, Type, UnOp, VarId};
use num_bigint::BigInt;

impl Expr {
    pub fn var(id: VarId, ty: Type) -> Expr {
        Expr { kind: ExprKind::Var(id), ty }
    }
    pub fn bool(b: bool) -> Expr {
        Expr { kind: ExprKind::Bool(b), ty: Type::Bool }
    }
    pub fn int(n: impl Into<BigInt>) -> Expr {
        Expr { kind: ExprKind::Int(n.into()), ty: Type::Int }
    }
    pub fn bv(value: u128, width: u32) -> Expr {
        Expr { kind: ExprKind::Bv(value), ty: Type::Bv(width) }
    }
    /// A float literal of `kind` from its bits (made canonical).
    pub fn float(kind: FloatKind, bits: u64) -> Expr {
        Expr { kind: ExprKind::Float(kind.canonical(bits)), ty: Type::Float(kind) }
    }
    /// `op a` with the result type the operator gives.
    pub fn unary(op: UnOp, a: Expr) -> Expr {
        let ty = match op {
            UnOp::Not | UnOp::FloatIs(_) | UnOp::FloatFits(_) => Type::Bool,
            UnOp::BvToInt | UnOp::StrLen => Type::Int,
            UnOp::SignExt(n) | UnOp::ZeroExt(n) => match a.ty {
                Type::Bv(w) => Type::Bv(w + n),
                _ => a.ty.clone(),
            },
            UnOp::ToFloat { kind, .. } => Type::Float(kind),
            UnOp::FloatToInt(target) => target.ty(),
            UnOp::FloatBits => match a.ty {
                Type::Float(k) => Type::Bv(k.width()),
                _ => a.ty.clone(),
            },
            UnOp::Neg | UnOp::BitNot | UnOp::Abs | UnOp::FAbs | UnOp::Sqrt | UnOp::RoundTo(_) => {
                a.ty.clone()
            }
        };
        Expr { kind: ExprKind::Unary(op, Box::new(a)), ty }
    }
    /// `fma(a, b, c)`.
    pub fn fma(a: Expr, b: Expr, c: Expr) -> Expr {
        let ty = a.ty.clone();
        Expr { kind: ExprKind::Fma(Box::new(a), Box::new(b), Box::new(c)), ty }
    }
    /// The number `k` as a literal of `ty`: an integer, or for `bvN` k modulo 2^N (so
    /// -1 is all ones). `None` for other types.
    pub fn number(ty: &Type, k: i64) -> Option<Expr> {
        match ty {
            Type::Int => Some(Expr::int(k)),
            Type::Bv(w) => {
                let mask = if *w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
                Some(Expr::bv((k as i128 as u128) & mask, *w))
            }
            _ => None,
        }
    }
    /// Whether values of `ty` are numbers that `+`, `-`, `*` and `<` work on (integers
    /// and bit-vectors).
    pub fn numeric(ty: &Type) -> bool {
        matches!(ty, Type::Int | Type::Bv(_))
    }
    pub fn negate(e: Expr) -> Expr {
        Expr { kind: ExprKind::Unary(UnOp::Not, Box::new(e)), ty: Type::Bool }
    }
    /// Builds `a op b`, computing the result type from the operator and `a`'s type.
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_predicate() { Type::Bool } else { a.ty.clone() };
        Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), ty }
    }
    pub fn eq(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Eq, a, b)
    }
    /// `a === b` on floats (identity), `a == b` on other types: the equality that makes
    /// two values the same value (what "equal inputs" and "equal outputs" mean).
    pub fn same(a: Expr, b: Expr) -> Expr {
        let op = if matches!(a.ty, Type::Float(_)) { BinOp::Ident } else { BinOp::Eq };
        Expr::binary(op, a, b)
    }
    /// Whether a float occurs in this expression's type or any subexpression's.
    pub fn mentions_float(&self) -> bool {
        self.any_node(&|e| {
            e.ty.has_float()
                || matches!(&e.kind, ExprKind::Quant { var_ty, .. } if var_ty.has_float())
        })
    }
    /// Conjunction of all `parts`; `true` when empty.
    pub fn and_all(parts: impl IntoIterator<Item = Expr>) -> Expr {
        parts
            .into_iter()
            .reduce(|a, b| Expr::binary(BinOp::And, a, b))
            .unwrap_or_else(|| Expr::bool(true))
    }
    /// Top-level conjuncts (`a && (b && c)` gives `[a, b, c]`).
    pub fn conjuncts(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Binary(BinOp::And, a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                _ => out.push(e),
            }
        }
        out
    }

    /// The direct subexpressions, in order (none for leaves).
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let (a, b, c): (Option<&Expr>, Option<&Expr>, Option<&Expr>) = match &self.kind {
            ExprKind::Var(_)
            | ExprKind::Bound(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Bv(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_) => (None, None, None),
            ExprKind::Unary(_, a)
            | ExprKind::ConstArray(a)
            | ExprKind::Extract { arg: a, .. }
            | ExprKind::Quant { body: a, .. } => (Some(a), None, None),
            ExprKind::Binary(_, a, b) | ExprKind::Select(a, b) => (Some(a), Some(b), None),
            ExprKind::Ite(a, b, c) | ExprKind::Fma(a, b, c) => (Some(a), Some(b), Some(c)),
        };
        [a, b, c].into_iter().flatten()
    }

    /// Whether `p` holds of this expression or of any of its subexpressions.
    pub fn any_node(&self, p: &impl Fn(&Expr) -> bool) -> bool {
        p(self) || self.children().any(|c| c.any_node(p))
    }
    /// Whether a quantifier occurs anywhere in the expression.
    pub fn has_quantifier(&self) -> bool {
        self.any_node(&|e| matches!(e.kind, ExprKind::Quant { .. }))
    }
    /// The expression with every occurrence of variable `v` replaced by `with`.
    pub fn replace_var(&self, v: VarId, with: &Expr) -> Expr {
        match self.kind {
            ExprKind::Var(x) if x == v => with.clone(),
            _ => self.map_children(&|c| c.replace_var(v, with)),
        }
    }

    /// The expression with each direct subexpression `a` replaced by `f(a)` (leaves as
    /// they are), for rewrites that recurse through `f`.
    pub fn map_children(&self, f: &impl Fn(&Expr) -> Expr) -> Expr {
        let g = |a: &Expr| Box::new(f(a));
        let kind = match &self.kind {
            ExprKind::Var(_)
            | ExprKind::Bound(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Bv(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_) => return self.clone(),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, g(a)),
            ExprKind::ConstArray(a) => ExprKind::ConstArray(g(a)),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, g(a), g(b)),
            ExprKind::Ite(c, a, b) => ExprKind::Ite(g(c), g(a), g(b)),
            ExprKind::Fma(a, b, c) => ExprKind::Fma(g(a), g(b), g(c)),
            ExprKind::Select(a, i) => ExprKind::Select(g(a), g(i)),
            ExprKind::Extract { hi, lo, arg } => {
                ExprKind::Extract { hi: *hi, lo: *lo, arg: g(arg) }
            }
            ExprKind::Quant { quantifier, var, name, var_ty, body } => ExprKind::Quant {
                quantifier: *quantifier,
                var: *var,
                name: name.clone(),
                var_ty: var_ty.clone(),
                body: g(body),
            },
        };
        Expr { kind, ty: self.ty.clone() }
    }

    /// Calls `f` on every variable occurrence.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        match &self.kind {
            ExprKind::Var(v) => f(*v),
            _ => self.children().for_each(|c| c.for_each_var(f)),
        }
    }
    /// The same expression with every variable renamed by `f`.
    pub fn map_vars(&self, f: &impl Fn(VarId) -> VarId) -> Expr {
        let kind = match &self.kind {
            ExprKind::Var(v) => ExprKind::Var(f(*v)),
            ExprKind::Bound(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Bv(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_) => self.kind.clone(),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(a.map_vars(f))),
            ExprKind::ConstArray(a) => ExprKind::ConstArray(Box::new(a.map_vars(f))),
            ExprKind::Extract { hi, lo, arg } => {
                ExprKind::Extract { hi: *hi, lo: *lo, arg: Box::new(arg.map_vars(f)) }
            }
            ExprKind::Quant { quantifier, var, name, var_ty, body } => ExprKind::Quant {
                quantifier: *quantifier,
                var: *var,
                name: name.clone(),
                var_ty: var_ty.clone(),
                body: Box::new(body.map_vars(f)),
            },
            ExprKind::Binary(op, a, b) => {
                ExprKind::Binary(*op, Box::new(a.map_vars(f)), Box::new(b.map_vars(f)))
            }
            ExprKind::Select(a, b) => {
                ExprKind::Select(Box::new(a.map_vars(f)), Box::new(b.map_vars(f)))
            }
            ExprKind::Ite(c, a, b) => ExprKind::Ite(
                Box::new(c.map_vars(f)),
                Box::new(a.map_vars(f)),
                Box::new(b.map_vars(f)),
            ),
            ExprKind::Fma(a, b, c) => ExprKind::Fma(
                Box::new(a.map_vars(f)),
                Box::new(b.map_vars(f)),
                Box::new(c.map_vars(f)),
            ),
        };
        Expr { kind, ty: self.ty.clone() }
    }
}
