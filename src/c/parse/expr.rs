//! Expressions: lang-c's nodes to forex's, literals typed as C types them, enum
//! constants replaced by their values, `true`/`false` read as booleans where nothing
//! else declares them.

use super::{Converter, Ordinary};
use crate::c::ast::*;
use crate::c::literal::{char_literal, int_type};
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use lang_c::ast as lc;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::Num;

fn other(what: &str) -> ExprKind {
    ExprKind::Other(what.to_string())
}

impl Converter<'_> {
    pub(super) fn expr(&mut self, e: &Node<lc::Expression>) -> Expr {
        use lc::Expression as E;
        let span = self.sp(e.span);
        let bx = |c: &mut Self, e: &Node<lc::Expression>| Box::new(c.expr(e));
        let kind = match &e.node {
            E::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Ordinary::Constant(v, t)) => ExprKind::Int(v.clone(), *t),
                None if matches!(id.node.name.as_str(), "true" | "false") => {
                    ExprKind::Bool(id.node.name == "true")
                }
                _ => ExprKind::Var(id.node.name.clone()),
            },
            E::Constant(c) => {
                let header = self.in_header(e.span);
                self.constant(&c.node, &span, header)
            }
            E::StringLiteral(s) => ExprKind::Str(
                s.node
                    .iter()
                    .map(|p| {
                        let q = p.find('"').unwrap_or(0);
                        p[q..].trim_matches('"').to_string()
                    })
                    .collect(),
            ),
            E::GenericSelection(_) => other("`_Generic` selections"),
            E::Member(m) => ExprKind::Member {
                base: bx(self, &m.node.expression),
                field: self.ident(&m.node.identifier),
                arrow: m.node.operator.node == lc::MemberOperator::Indirect,
            },
            E::Call(c) => {
                let args = c.node.arguments.iter().map(|a| self.expr(a)).collect();
                match &c.node.callee.node {
                    E::Identifier(id) => ExprKind::Call(self.ident(id), args),
                    _ => ExprKind::CallPtr(bx(self, &c.node.callee), args),
                }
            }
            E::CompoundLiteral(_) => other("compound literals"),
            E::SizeOfTy(t) => ExprKind::SizeofType(self.type_name(&t.node.0)),
            E::SizeOfVal(v) => ExprKind::SizeofExpr(bx(self, &v.node.0)),
            E::AlignOf(t) => ExprKind::AlignofType(self.type_name(&t.node.0)),
            E::UnaryOperator(u) => {
                use lc::UnaryOperator as U;
                let arg = bx(self, &u.node.operand);
                let inc_dec = |pre, inc, arg| ExprKind::IncDec { pre, inc, arg };
                match u.node.operator.node {
                    U::PostIncrement => inc_dec(false, true, arg),
                    U::PostDecrement => inc_dec(false, false, arg),
                    U::PreIncrement => inc_dec(true, true, arg),
                    U::PreDecrement => inc_dec(true, false, arg),
                    U::Address => ExprKind::Unary(UnaryOp::AddrOf, arg),
                    U::Indirection => ExprKind::Unary(UnaryOp::Deref, arg),
                    U::Plus => ExprKind::Unary(UnaryOp::Plus, arg),
                    U::Minus => ExprKind::Unary(UnaryOp::Neg, arg),
                    U::Complement => ExprKind::Unary(UnaryOp::BitNot, arg),
                    U::Negate => ExprKind::Unary(UnaryOp::Not, arg),
                }
            }
            E::Cast(c) => {
                let t = self.type_name(&c.node.type_name);
                ExprKind::Cast(t, bx(self, &c.node.expression))
            }
            E::BinaryOperator(b) => {
                let l = bx(self, &b.node.lhs);
                let r = bx(self, &b.node.rhs);
                binary(&b.node.operator.node, l, r)
            }
            E::Conditional(c) => ExprKind::Cond(
                bx(self, &c.node.condition),
                bx(self, &c.node.then_expression),
                bx(self, &c.node.else_expression),
            ),
            E::Comma(es) => {
                let mut it = es.iter();
                let Some(first) = it.next() else {
                    return Expr { kind: other("an empty comma expression"), span };
                };
                let mut acc = self.expr(first);
                for e in it {
                    let b = self.expr(e);
                    let s = acc.span.start.min(b.span.start)..acc.span.end.max(b.span.end);
                    acc = Expr { kind: ExprKind::Comma(Box::new(acc), Box::new(b)), span: s };
                }
                return Expr { span, ..acc };
            }
            E::OffsetOf(_) => other("`offsetof`"),
            E::VaArg(_) => other("`va_arg`"),
            E::Statement(st) => match self.stmt(st).kind {
                StmtKind::Block(items) => ExprKind::StmtExpr(items),
                k => ExprKind::StmtExpr(vec![Stmt { kind: k, span: span.clone() }]),
            },
        };
        Expr { kind, span }
    }

    /// A literal's node (`header`: in a header, where a literal forex cannot type is no
    /// error until used).
    fn constant(&mut self, c: &lc::Constant, span: &Span, header: bool) -> ExprKind {
        match c {
            lc::Constant::Integer(i) => {
                if i.suffix.imaginary {
                    return other("imaginary constants");
                }
                let (radix, decimal) = match i.base {
                    lc::IntegerBase::Decimal => (10, true),
                    lc::IntegerBase::Octal => (8, false),
                    lc::IntegerBase::Hexadecimal => (16, false),
                    lc::IntegerBase::Binary => (2, false),
                };
                let digits = if i.number.is_empty() { "0" } else { &i.number };
                let long = i.suffix.size != lc::IntegerSize::Int;
                let v = BigInt::from_str_radix(digits, radix).unwrap_or_default();
                match int_type(&v, decimal, i.suffix.unsigned, long) {
                    Some(t) => ExprKind::Int(v, t),
                    None if header => other("integer literals too large for any C integer type"),
                    None => {
                        let text = self.src.get(span.clone()).unwrap_or(digits).to_string();
                        self.diags.push(
                            Diagnostic::new(
                                format!(
                                    "integer literal `{text}` is too large for any C integer type"
                                ),
                                span.clone(),
                            )
                            .with_label("too large")
                            .with_hint("the largest is `unsigned long` (64 bits)"),
                        );
                        ExprKind::Int(v, CScalar::ULong)
                    }
                }
            }
            lc::Constant::Float(f) => {
                if f.suffix.imaginary {
                    return other("imaginary constants");
                }
                let kind = match f.suffix.format {
                    lc::FloatFormat::Float => FloatKind::Float,
                    lc::FloatFormat::Double => FloatKind::Double,
                    lc::FloatFormat::LongDouble => FloatKind::LongDouble,
                    lc::FloatFormat::TS18661Format(_) => return other("`_FloatN` constants"),
                };
                let text = match f.base {
                    lc::FloatBase::Decimal => f.number.to_string(),
                    lc::FloatBase::Hexadecimal => format!("0x{}", f.number),
                };
                ExprKind::Float(text, kind)
            }
            lc::Constant::Character(text) => match char_literal(text) {
                Some((v, t)) => ExprKind::Int(v.into(), t),
                None => other("character literals of several characters or unknown escapes"),
            },
        }
    }
}

fn binary(op: &lc::BinaryOperator, l: Box<Expr>, r: Box<Expr>) -> ExprKind {
    use lc::BinaryOperator as O;
    use BinaryOp as B;
    let arith = |o: &O| -> Option<B> {
        Some(match o {
            O::Multiply | O::AssignMultiply => B::Mul,
            O::Divide | O::AssignDivide => B::Div,
            O::Modulo | O::AssignModulo => B::Mod,
            O::Plus | O::AssignPlus => B::Add,
            O::Minus | O::AssignMinus => B::Sub,
            O::ShiftLeft | O::AssignShiftLeft => B::Shl,
            O::ShiftRight | O::AssignShiftRight => B::Shr,
            O::Less => B::Lt,
            O::Greater => B::Gt,
            O::LessOrEqual => B::Le,
            O::GreaterOrEqual => B::Ge,
            O::Equals => B::Eq,
            O::NotEquals => B::Ne,
            O::BitwiseAnd | O::AssignBitwiseAnd => B::BitAnd,
            O::BitwiseXor | O::AssignBitwiseXor => B::BitXor,
            O::BitwiseOr | O::AssignBitwiseOr => B::BitOr,
            O::LogicalAnd => B::And,
            O::LogicalOr => B::Or,
            O::Index | O::Assign => return None,
        })
    };
    match op {
        O::Index => ExprKind::Index(l, r),
        O::Assign => ExprKind::Assign(None, l, r),
        O::AssignMultiply
        | O::AssignDivide
        | O::AssignModulo
        | O::AssignPlus
        | O::AssignMinus
        | O::AssignShiftLeft
        | O::AssignShiftRight
        | O::AssignBitwiseAnd
        | O::AssignBitwiseXor
        | O::AssignBitwiseOr => ExprKind::Assign(arith(op), l, r),
        o => match arith(o) {
            Some(b) => ExprKind::Binary(b, l, r),
            None => ExprKind::Other("this operator".into()),
        },
    }
}
