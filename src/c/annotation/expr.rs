//! Formula expressions: C's precedence folded from pest's flat lists, literals typed as
//! C types them, macro and enum-constant names replaced by their values.

use super::builder::{span, Builder};
use crate::c::ast::*;
use crate::c::literal::{char_literal, int_literal};
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::syntax::Rule;
use pest::iterators::Pair;

impl Builder<'_> {
    /// Any expression rule (`c_expr`, `c_assign`, `c_cond`, …).
    pub fn expr(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let sp = span(&p);
        match p.as_rule() {
            Rule::c_expr | Rule::c_formula => {
                let mut acc: Option<Expr> = None;
                for q in p.into_inner() {
                    if q.as_rule() == Rule::EOI {
                        continue;
                    }
                    let e = self.expr(q)?;
                    acc = Some(match acc {
                        None => e,
                        Some(a) => {
                            let s = a.span.start..e.span.end;
                            Expr { kind: ExprKind::Comma(Box::new(a), Box::new(e)), span: s }
                        }
                    });
                }
                acc
            }
            Rule::c_assign => {
                let mut inner = p.into_inner();
                let lhs = self.expr(inner.next()?);
                let Some(op) = inner.next() else { return lhs };
                let rhs = self.expr(inner.next()?);
                let (lhs, rhs) = (lhs?, rhs?);
                let bin = match op.as_str() {
                    "=" => None,
                    o => Some(bin_op(&o[..o.len() - 1])?),
                };
                Some(Expr { kind: ExprKind::Assign(bin, Box::new(lhs), Box::new(rhs)), span: sp })
            }
            Rule::c_cond => {
                let mut inner = p.into_inner();
                let c = self.expr(inner.next()?);
                let Some(a) = inner.next() else { return c };
                let a = self.expr(a);
                let b = self.expr(inner.next()?);
                Some(Expr {
                    kind: ExprKind::Cond(Box::new(c?), Box::new(a?), Box::new(b?)),
                    span: sp,
                })
            }
            Rule::c_binexpr => self.binexpr(p),
            Rule::c_unary => self.unary(p),
            _ => self.primary(p),
        }
    }

    /// Folds a flat operand/operator list by C's precedence (shunting-yard, no recursion).
    fn binexpr(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let mut operands: Vec<Expr> = Vec::new();
        let mut ops: Vec<(BinaryOp, Span)> = Vec::new();
        let mut ok = true;
        let reduce = |operands: &mut Vec<Expr>, ops: &mut Vec<(BinaryOp, Span)>| {
            let (op, _) = ops.pop().unwrap();
            let b = operands.pop().unwrap();
            let a = operands.pop().unwrap();
            let s = a.span.start..b.span.end;
            operands.push(Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), span: s });
        };
        for q in p.into_inner() {
            if q.as_rule() == Rule::c_binop {
                let op = bin_op(q.as_str())?;
                let (prec, right) = precedence(op);
                while let Some(&(top, _)) = ops.last() {
                    let (tp, _) = precedence(top);
                    if tp > prec || (tp == prec && !right) {
                        if operands.len() < 2 {
                            break;
                        }
                        reduce(&mut operands, &mut ops);
                    } else {
                        break;
                    }
                }
                ops.push((op, span(&q)));
            } else {
                match self.expr(q) {
                    Some(e) => operands.push(e),
                    None => {
                        ok = false;
                        operands.push(Expr { kind: ExprKind::Bool(false), span: 0..0 });
                    }
                }
            }
        }
        while !ops.is_empty() && operands.len() >= 2 {
            reduce(&mut operands, &mut ops);
        }
        if !ok {
            return None;
        }
        operands.pop()
    }

    fn unary(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let parts: Vec<Pair<Rule>> = p.into_inner().collect();
        let (last, prefixes) = parts.split_last()?;
        let mut e = self.postfix(last.clone())?;
        for pre in prefixes.iter().rev() {
            let q = pre.clone().into_inner().next()?;
            let s = span(&q).start..e.span.end;
            let kind = match q.as_rule() {
                Rule::c_cast => {
                    let mut ci = q.clone().into_inner();
                    let ty = self.base_type(ci.next()?)?;
                    if ci.next().is_some() {
                        self.unsupported("pointers are", span(&q));
                        return None;
                    }
                    match ty {
                        Some(t) => ExprKind::Cast(Type::scalar(t), Box::new(e)),
                        None => {
                            self.unsupported("casts to `void` are", span(&q));
                            return None;
                        }
                    }
                }
                Rule::c_kw_sizeof => {
                    self.unsupported("`sizeof` is", s);
                    return None;
                }
                _ => match q.as_str() {
                    "-" => ExprKind::Unary(UnaryOp::Neg, Box::new(e)),
                    "+" => ExprKind::Unary(UnaryOp::Plus, Box::new(e)),
                    "!" => ExprKind::Unary(UnaryOp::Not, Box::new(e)),
                    "~" => ExprKind::Unary(UnaryOp::BitNot, Box::new(e)),
                    "++" | "--" => {
                        ExprKind::IncDec { pre: true, inc: q.as_str() == "++", arg: Box::new(e) }
                    }
                    "&" => ExprKind::Unary(UnaryOp::AddrOf, Box::new(e)),
                    _ => ExprKind::Unary(UnaryOp::Deref, Box::new(e)),
                },
            };
            e = Expr { kind, span: s };
        }
        Some(e)
    }

    fn postfix(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let mut inner = p.into_inner();
        let mut e = self.primary(inner.next()?)?;
        for q in inner {
            let s = e.span.start..span(&q).end;
            let kind = match q.as_rule() {
                Rule::c_index => {
                    let i = self.expr(q.into_inner().next()?)?;
                    ExprKind::Index(Box::new(e), Box::new(i))
                }
                Rule::c_args => {
                    let mut args = Vec::new();
                    for a in q.into_inner() {
                        args.push(self.expr(a)?);
                    }
                    match &e.kind {
                        ExprKind::Var(name) => {
                            ExprKind::Call(Ident { name: name.clone(), span: e.span.clone() }, args)
                        }
                        _ => ExprKind::CallPtr(Box::new(e), args),
                    }
                }
                Rule::c_post_op => {
                    ExprKind::IncDec { pre: false, inc: q.as_str() == "++", arg: Box::new(e) }
                }
                _ => {
                    let arrow = q.as_str().starts_with("->");
                    let f = q.into_inner().next()?;
                    let field = Ident { name: f.as_str().into(), span: span(&f) };
                    ExprKind::Member { base: Box::new(e), field, arrow }
                }
            };
            e = Expr { kind, span: s };
        }
        Some(e)
    }

    fn primary(&mut self, p: Pair<Rule>) -> Option<Expr> {
        let sp = span(&p);
        let text = p.as_str();
        let kind = match p.as_rule() {
            Rule::c_postfix => return self.postfix(p),
            Rule::c_paren => {
                return self.expr(p.into_inner().next()?).map(|mut e| {
                    e.span = sp.clone();
                    e
                })
            }
            Rule::c_int_lit => match int_literal(text) {
                Ok((v, t)) => ExprKind::Int(v, t),
                Err(msg) => {
                    self.diags.push(Diagnostic::new(msg, sp).with_label("here"));
                    return None;
                }
            },
            Rule::c_char_lit => match char_literal(text) {
                Some((v, t)) => ExprKind::Int(v.into(), t),
                None => {
                    self.error(
                        format!("`{text}` is not a character literal forex reads"),
                        sp,
                        "one character or escape",
                    );
                    return None;
                }
            },
            Rule::c_float_lit => {
                let lower = text.to_ascii_lowercase();
                let (digits, kind) = if let Some(d) = lower.strip_suffix('f') {
                    (d, FloatKind::Float)
                } else if let Some(d) = lower.strip_suffix('l') {
                    (d, FloatKind::LongDouble)
                } else {
                    (lower.as_str(), FloatKind::Double)
                };
                ExprKind::Float(digits.to_string(), kind)
            }
            Rule::c_str_lit => ExprKind::Str(text[1..text.len() - 1].to_string()),
            Rule::c_bool_lit => ExprKind::Bool(text == "true"),
            Rule::c_ret_bang => ExprKind::RetBang,
            Rule::c_copy_var => {
                let mut i = p.into_inner();
                let a = i.next()?;
                let b = i.next()?;
                ExprKind::CopyVar(
                    Ident { name: a.as_str().into(), span: span(&a) },
                    Ident { name: b.as_str().into(), span: span(&b) },
                )
            }
            Rule::c_var => {
                if let Some(e) = self.expand(text, &sp) {
                    return e;
                }
                ExprKind::Var(text.to_string())
            }
            Rule::c_quant => {
                let mut vars = Vec::new();
                let mut exists = false;
                let mut body = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::c_quantifier => exists = q.as_str() == "exists",
                        Rule::c_qvar => {
                            let mut i = q.into_inner();
                            let n = i.next()?;
                            let t = self.base_type(i.next()?)?;
                            let Some(t) = t else {
                                self.error("a bound variable needs a value type", span(&n), "here");
                                return None;
                            };
                            vars.push((Ident { name: n.as_str().into(), span: span(&n) }, t));
                        }
                        _ => body = self.expr(q),
                    }
                }
                ExprKind::Quant { exists, vars, body: Box::new(body?) }
            }
            _ => return self.expr(p),
        };
        Some(Expr { kind, span: sp })
    }
}

pub(crate) fn bin_op(s: &str) -> Option<BinaryOp> {
    use BinaryOp::*;
    Some(match s {
        "*" => Mul,
        "/" => Div,
        "%" => Mod,
        "+" => Add,
        "-" => Sub,
        "<<" => Shl,
        ">>" => Shr,
        "<" => Lt,
        "<=" => Le,
        ">" => Gt,
        ">=" => Ge,
        "==" => Eq,
        "!=" => Ne,
        "&" => BitAnd,
        "^" => BitXor,
        "|" => BitOr,
        "&&" => And,
        "||" => Or,
        "==>" => Implies,
        "<==>" => Iff,
        "=a=" => ArrayEq,
        "===" => Ident,
        _ => return None,
    })
}

/// Binding strength (higher binds tighter) and right-associativity.
fn precedence(op: BinaryOp) -> (u8, bool) {
    use BinaryOp::*;
    match op {
        Mul | Div | Mod => (12, false),
        Add | Sub => (11, false),
        Shl | Shr => (10, false),
        Lt | Le | Gt | Ge => (9, false),
        Eq | Ne | ArrayEq | Ident => (8, false),
        BitAnd => (7, false),
        BitXor => (6, false),
        BitOr => (5, false),
        And => (4, false),
        Or => (3, false),
        Iff => (2, false),
        Implies => (1, true),
    }
}

impl Builder<'_> {
    /// The scalar type named by `c_type` (`None` after a diagnostic); `Ok(None)` is `void`.
    pub fn base_type(&mut self, p: Pair<Rule>) -> Option<Option<CScalar>> {
        let sp = span(&p);
        let (
            mut unsigned,
            mut signed,
            mut char_,
            mut short,
            mut int,
            mut long,
            mut bool_,
            mut void,
        ) = (false, false, false, false, false, 0, false, false);
        for w in p.into_inner() {
            match w.as_rule() {
                Rule::c_tagged => {
                    let kw = w.clone().into_inner().next().map(|k| k.as_str().to_string());
                    let kw = kw.unwrap_or_else(|| "struct".into());
                    let what = match kw.as_str() {
                        "enum" => "`enum` types are",
                        "union" => "`union` types are",
                        _ => "`struct` types are",
                    };
                    self.unsupported(what, span(&w));
                    return None;
                }
                _ => match w.as_str() {
                    "unsigned" => unsigned = true,
                    "signed" => signed = true,
                    "char" => char_ = true,
                    "short" => short = true,
                    "int" => int = true,
                    "long" => long += 1,
                    "_Bool" | "bool" => bool_ = true,
                    "void" => void = true,
                    "float" | "double" => {
                        self.unsupported("floating point is", span(&w));
                        return None;
                    }
                    // Qualifiers and storage classes do not change the values.
                    _ => {}
                },
            }
        }
        let sign_words = unsigned || signed;
        let bad = |b: &mut Self| {
            b.error("this combination of type words is not a C type", sp.clone(), "not a type");
            None
        };
        if void {
            if sign_words || char_ || short || int || long > 0 || bool_ {
                return bad(self);
            }
            return Some(None);
        }
        if bool_ {
            if sign_words || char_ || short || int || long > 0 {
                return bad(self);
            }
            return Some(Some(CScalar::Bool));
        }
        if unsigned && signed || (char_ as u8 + short as u8 + (long > 0) as u8) > 1 || long > 2 {
            return bad(self);
        }
        if char_ && int {
            return bad(self);
        }
        let ty = if char_ {
            if unsigned {
                CScalar::UChar
            } else {
                CScalar::Char
            }
        } else if short {
            if unsigned {
                CScalar::UShort
            } else {
                CScalar::Short
            }
        } else if long > 0 {
            if unsigned {
                CScalar::ULong
            } else {
                CScalar::Long
            }
        } else if int || sign_words {
            if unsigned {
                CScalar::UInt
            } else {
                CScalar::Int
            }
        } else {
            return bad(self);
        };
        Some(Some(ty))
    }
}
