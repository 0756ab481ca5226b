//! Prints IR expressions back in `.fe` syntax, for proofs, reasons and counterexamples.
//! Parenthesises every compound operand, so the text reparses to the same tree.

use crate::ir::{Expr, ExprKind, Quantifier, Tuple, UnOp, VarId};
use std::fmt::Write;

/// `e` as `.fe` text, naming variables with `name`.
pub fn expr_with(e: &Expr, name: &dyn Fn(VarId) -> String) -> String {
    let mut out = String::new();
    write_expr(&mut out, e, name);
    out
}

/// `e` as `.fe` text, with tuple variables written `copy.var`.
pub fn tuple_expr(tuple: &Tuple, e: &Expr) -> String {
    expr_with(e, &|v| tuple.var_display(v))
}

fn atomic(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Var(_)
            | ExprKind::Bound(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Bv(_)
    ) && !matches!(&e.kind, ExprKind::Int(n) if n.sign() == num_bigint::Sign::Minus)
}

fn operand(out: &mut String, e: &Expr, name: &dyn Fn(VarId) -> String) {
    if atomic(e) || matches!(e.kind, ExprKind::Select(..) | ExprKind::Extract { .. }) {
        write_expr(out, e, name);
    } else {
        out.push('(');
        write_expr(out, e, name);
        out.push(')');
    }
}

fn write_expr(out: &mut String, e: &Expr, name: &dyn Fn(VarId) -> String) {
    match &e.kind {
        ExprKind::Var(v) => out.push_str(&name(*v)),
        ExprKind::Bound(b) => {
            let _ = write!(out, "_b{}", b.0);
        }
        ExprKind::Int(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::Bv(v) => {
            let w = match e.ty {
                crate::ir::Type::Bv(w) => w,
                _ => 0,
            };
            let _ = write!(out, "{}", crate::value::Value::bv(*v, w));
        }
        ExprKind::Unary(op, a) => match op {
            UnOp::Abs => {
                out.push_str("abs(");
                write_expr(out, a, name);
                out.push(')');
            }
            _ => {
                out.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                    _ => "~",
                });
                operand(out, a, name);
            }
        },
        ExprKind::Binary(op, a, b) => match op {
            crate::ir::BinOp::Min | crate::ir::BinOp::Max => {
                let _ = write!(out, "{}(", op.symbol());
                write_expr(out, a, name);
                out.push_str(", ");
                write_expr(out, b, name);
                out.push(')');
            }
            _ => {
                operand(out, a, name);
                let _ = write!(out, " {} ", op.symbol());
                operand(out, b, name);
            }
        },
        ExprKind::Ite(c, a, b) => {
            out.push_str("if ");
            operand(out, c, name);
            out.push_str(" then ");
            operand(out, a, name);
            out.push_str(" else ");
            operand(out, b, name);
        }
        ExprKind::Select(a, i) => {
            operand(out, a, name);
            out.push('[');
            write_expr(out, i, name);
            out.push(']');
        }
        ExprKind::Extract { hi, lo, arg } => {
            operand(out, arg, name);
            let _ = write!(out, "[{hi}:{lo}]");
        }
        ExprKind::Quant { quantifier, var, var_ty, body, .. } => {
            let q = match quantifier {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
            };
            let _ = write!(out, "{q} _b{}: {var_ty} :: ", var.0);
            write_expr(out, body, name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Type};

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
}
