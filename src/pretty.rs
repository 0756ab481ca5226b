//! Prints IR expressions back in `.fe` syntax, for proofs, reasons and counterexamples.
//! Parenthesises every compound operand, so the text reparses to the same tree.

use crate::ir::{BinOp, BoundId, Expr, ExprKind, Quantifier, Tuple, Type, UnOp, VarId};
use crate::value::Value;
use std::fmt::Write;

/// `e` as `.fe` text, naming variables with `name`.
pub fn expr_with(e: &Expr, name: &dyn Fn(VarId) -> String) -> String {
    let mut printer = Printer { out: String::new(), name, bound: Vec::new() };
    printer.expr(e);
    printer.out
}

/// `e` as `.fe` text, with tuple variables written `copy.var`.
/// A C tuple's formulas carry the lowering's conversions (`int(#x00000000)`, sign
/// tests of literals); their closed parts are folded to the values they denote.
pub fn tuple_expr(tuple: &Tuple, e: &Expr) -> String {
    tuple_expr_with(tuple, e, &|v| tuple.var_display(v))
}

/// [`tuple_expr`] with variables named by `name` (e.g. `old(…)` ghosts).
pub fn tuple_expr_with(tuple: &Tuple, e: &Expr, name: &dyn Fn(VarId) -> String) -> String {
    if tuple.c_view.is_some() {
        return expr_with(&fold_closed(e), name);
    }
    expr_with(e, name)
}

/// A conjunction of `atoms` as `.fe` text (`true` when empty), each conjunct that binds
/// more loosely than `&&` bracketed, so that `a && (b || c)` does not read `a && b || c`.
pub fn conjunction_with(tuple: &Tuple, atoms: &[Expr], name: &dyn Fn(VarId) -> String) -> String {
    if atoms.is_empty() {
        return "true".into();
    }
    let text = |a: &Expr| {
        let t = tuple_expr_with(tuple, a, name);
        match &a.kind {
            ExprKind::Binary(BinOp::Or | BinOp::Implies | BinOp::Iff, ..) => format!("({t})"),
            _ => t,
        }
    };
    atoms.iter().map(text).collect::<Vec<_>>().join(" && ")
}

/// `e` with every variable-free, quantifier-free scalar subexpression replaced by its
/// value (left as it is where evaluation fails, e.g. on a division by zero).
fn fold_closed(e: &Expr) -> Expr {
    let literal = matches!(
        e.kind,
        ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Bv(_)
            | ExprKind::Str(_)
            | ExprKind::Float(_)
    );
    let open =
        |n: &Expr| matches!(n.kind, ExprKind::Var(_) | ExprKind::Bound(_) | ExprKind::Quant { .. });
    if !literal && e.ty.is_scalar() && !e.any_node(&open) {
        match crate::interp::eval_expr(e, &[]) {
            Ok(Value::Int { value }) => return Expr::int(value),
            Ok(Value::Bool { value }) => return Expr::bool(value),
            Ok(Value::Bv { width, value }) => return Expr::bv(value, width),
            Ok(Value::Float { kind, bits }) => return Expr::float(kind, bits),
            _ => {}
        }
    }
    e.map_children(&fold_closed)
}

/// A float literal as `.fe` reads it back to the same bits: the shortest decimal (`0.1`,
/// `0.1f`, `-0.0`), and for the values without a literal a division (`(0.0 / 0.0)` is
/// NaN, `(1.0 / 0.0)` is infinity).
pub fn float_literal(kind: crate::ir::FloatKind, bits: u64) -> String {
    let f = if kind == crate::ir::FloatKind::F32 { "f" } else { "" };
    if kind.is_nan(bits) {
        return format!("(0.0{f} / 0.0{f})");
    }
    if kind.is_infinite(bits) {
        let sign = if kind.is_negative(bits) { "-" } else { "" };
        return format!("({sign}1.0{f} / 0.0{f})");
    }
    format!("{}{f}", crate::ir::float::decimal_text(kind, bits))
}

/// Carries the names of the quantified variables in scope, so they print as written.
struct Printer<'a> {
    out: String,
    name: &'a dyn Fn(VarId) -> String,
    bound: Vec<(BoundId, String)>,
}

fn atomic(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(n) => n.sign() != num_bigint::Sign::Minus,
        ExprKind::Var(_)
        | ExprKind::Bound(_)
        | ExprKind::Bool(_)
        | ExprKind::Bv(_)
        | ExprKind::Str(_)
        | ExprKind::Select(..)
        | ExprKind::Extract { .. } => true,
        ExprKind::Float(bits) => match e.ty {
            Type::Float(k) => !k.is_negative(*bits) && !k.is_nan(*bits) && !k.is_infinite(*bits),
            _ => false,
        },
        ExprKind::Fma(..) => true,
        ExprKind::Unary(UnOp::Neg | UnOp::Not | UnOp::BitNot, _) => false,
        ExprKind::Unary(..) => true,
        ExprKind::Binary(op, ..) => op.is_function(),
        _ => false,
    }
}

impl Printer<'_> {
    fn operand(&mut self, e: &Expr) {
        if atomic(e) {
            self.expr(e);
        } else {
            self.out.push('(');
            self.expr(e);
            self.out.push(')');
        }
    }

    fn call(&mut self, function: &str, args: &[&Expr]) {
        self.out.push_str(function);
        self.out.push('(');
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(a);
        }
        self.out.push(')');
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(v) => {
                let text = (self.name)(*v);
                self.out.push_str(&text);
            }
            ExprKind::Bound(b) => match self.bound.iter().rev().find(|(id, _)| id == b) {
                Some((_, name)) => self.out.push_str(name),
                None => {
                    let _ = write!(self.out, "_b{}", b.0);
                }
            },
            ExprKind::Int(n) => {
                let _ = write!(self.out, "{n}");
            }
            ExprKind::Bool(b) => {
                let _ = write!(self.out, "{b}");
            }
            ExprKind::Bv(v) => {
                let w = if let Type::Bv(w) = e.ty { w } else { 0 };
                let _ = write!(self.out, "{}", Value::bv(*v, w));
            }
            ExprKind::Float(bits) => {
                let Type::Float(k) = e.ty else { return };
                self.out.push_str(&float_literal(k, *bits));
            }
            ExprKind::Fma(a, b, c) => self.call("fma", &[a, b, c]),
            ExprKind::Unary(UnOp::FAbs, a) => self.call("fabs", &[a]),
            ExprKind::Unary(UnOp::Sqrt, a) => self.call("sqrt", &[a]),
            ExprKind::Unary(UnOp::RoundTo(d), a) => self.call(d.name(), &[a]),
            ExprKind::Unary(UnOp::FloatIs(c), a) => self.call(c.name(), &[a]),
            ExprKind::Unary(UnOp::ToFloat { kind, signed }, a) => {
                let f = if *signed { format!("{kind}_of_signed") } else { kind.name().to_string() };
                self.call(&f, &[a])
            }
            ExprKind::Unary(UnOp::FloatToInt(t), a) => self.call(&t.name(), &[a]),
            ExprKind::Unary(UnOp::FloatBits, a) => self.call("float_bits", &[a]),
            ExprKind::Unary(UnOp::FloatFits(t), a) => {
                self.call(&format!("fits_{}", t.name()), &[a])
            }
            ExprKind::Unary(UnOp::Abs, a) => self.call("abs", &[a]),
            ExprKind::Unary(UnOp::BvToInt, a) => self.call("int", &[a]),
            ExprKind::Unary(UnOp::StrLen, a) => self.call("len", &[a]),
            ExprKind::Unary(UnOp::SignExt(n), a) => self.call(&format!("sign_extend{n}"), &[a]),
            ExprKind::Unary(UnOp::ZeroExt(n), a) => self.call(&format!("zero_extend{n}"), &[a]),
            ExprKind::Str(s) => self.out.push_str(&crate::ir::escape_string(s)),
            ExprKind::ConstArray(a) => self.call("const_array", &[a]),
            ExprKind::Unary(op, a) => {
                self.out.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                    _ => "~",
                });
                self.operand(a);
            }
            ExprKind::Binary(op, a, b) if op.is_function() => self.call(op.symbol(), &[a, b]),
            ExprKind::Binary(op, a, b) => {
                self.operand(a);
                let _ = write!(self.out, " {} ", op.symbol());
                self.operand(b);
            }
            ExprKind::Ite(c, a, b) => {
                self.out.push_str("if ");
                self.operand(c);
                self.out.push_str(" then ");
                self.operand(a);
                self.out.push_str(" else ");
                self.operand(b);
            }
            ExprKind::Select(a, i) => {
                self.operand(a);
                self.out.push('[');
                self.expr(i);
                self.out.push(']');
            }
            ExprKind::Extract { hi, lo, arg } => {
                self.operand(arg);
                let _ = write!(self.out, "[{hi}:{lo}]");
            }
            ExprKind::Quant { quantifier, var, name, var_ty, body } => {
                let q = match quantifier {
                    Quantifier::Forall => "forall",
                    Quantifier::Exists => "exists",
                };
                let _ = write!(self.out, "{q} {name}: {var_ty} :: ");
                self.bound.push((*var, name.clone()));
                self.expr(body);
                self.bound.pop();
            }
        }
    }
}

/// A failed conjunct as people read it: a C tuple's `a.$ub == 0` (the ghost variable of
/// undefined behaviour) is "no undefined behaviour in `a`", not forex's internal name.
pub fn conjunct_text(tuple: &Tuple, c: &Expr) -> String {
    let is_defined = |e: &Expr| match &e.kind {
        ExprKind::Binary(BinOp::Eq, x, _) => {
            matches!(&x.kind, ExprKind::Var(v) if tuple.var(*v).name == crate::ir::c::UB_VAR)
        }
        _ => false,
    };
    match &c.kind {
        // `forex equiv`: undefined behaviour in both versions or in neither.
        ExprKind::Binary(BinOp::Iff, a, b) if is_defined(a) && is_defined(b) => {
            return "undefined behaviour in one version only".into();
        }
        // An output compared where the versions are defined: it failed, so they were.
        ExprKind::Binary(BinOp::Implies, a, b) if is_defined(a) => {
            return conjunct_text(tuple, b);
        }
        _ => {}
    }
    if let ExprKind::Binary(BinOp::Eq, x, _) = &c.kind {
        if let ExprKind::Var(v) = &x.kind {
            let var = tuple.var(*v);
            if var.name == crate::ir::c::UB_VAR {
                let copy = tuple.var_display(*v);
                let copy = copy.split('.').next().unwrap_or_default();
                return format!("no undefined behaviour in copy `{copy}`");
            }
        }
    }
    tuple_expr(tuple, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BinOp;

    #[test]
    fn prints_with_parentheses_and_names() {
        let x = Expr::var(VarId(0), Type::Int);
        let y = Expr::var(VarId(1), Type::Int);
        let e = Expr::binary(
            BinOp::Eq,
            Expr::binary(BinOp::Mul, Expr::int(2), Expr::binary(BinOp::Add, x, Expr::int(-1))),
            y,
        );
        let names = |v: VarId| ["a.z", "b.z"][v.index()].to_string();
        assert_eq!(expr_with(&e, &names), "(2 * (a.z + (-1))) == b.z");
    }

    #[test]
    fn quantified_variables_keep_their_names() {
        let i = Expr { kind: ExprKind::Bound(BoundId(3)), ty: Type::Int };
        let body = Expr::binary(BinOp::Le, Expr::int(0), Expr::binary(BinOp::Max, i, Expr::int(1)));
        let q = Expr {
            kind: ExprKind::Quant {
                quantifier: Quantifier::Forall,
                var: BoundId(3),
                name: "i".into(),
                var_ty: Type::Int,
                body: Box::new(body),
            },
            ty: Type::Bool,
        };
        assert_eq!(expr_with(&q, &|_| String::new()), "forall i: int :: 0 <= max(i, 1)");
    }
}
