//! Expressions: C's precedence folded from pest's flat lists, literals typed as C
//! types them, `#define` names expanded, and the annotation-only forms gated.

use super::{span, Builder};
use crate::c::ast::*;
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::syntax::Rule;
use num_bigint::BigInt;
use num_traits::Num;
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
                if matches!(op, BinaryOp::Implies | BinaryOp::Iff | BinaryOp::ArrayEq)
                    && !self.formula
                {
                    self.error(
                        format!("`{}` belongs to annotation formulas, not to C code", q.as_str()),
                        span(&q),
                        "not a C operator",
                    );
                    ok = false;
                }
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
                        Some(t) => ExprKind::Cast(t, Box::new(e)),
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
                    "&" => {
                        self.unsupported("pointers (taking an address with `&`) are", span(&q));
                        return None;
                    }
                    _ => {
                        self.unsupported("pointers (dereferencing with `*`) are", span(&q));
                        return None;
                    }
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
                    let ExprKind::Var(name) = &e.kind else {
                        self.unsupported("calls through expressions (function pointers) are", s);
                        return None;
                    };
                    let f = Ident { name: name.clone(), span: e.span.clone() };
                    let mut args = Vec::new();
                    for a in q.into_inner() {
                        args.push(self.expr(a)?);
                    }
                    ExprKind::Call(f, args)
                }
                Rule::c_post_op => {
                    ExprKind::IncDec { pre: false, inc: q.as_str() == "++", arg: Box::new(e) }
                }
                _ => {
                    let what = if q.as_str().starts_with("->") {
                        "pointers (member access with `->`) are"
                    } else {
                        "`struct` members are"
                    };
                    self.unsupported(what, span(&q));
                    return None;
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
            Rule::c_int_lit => {
                let (v, t) = self.int_literal(text, &sp)?;
                ExprKind::Int(v, t)
            }
            Rule::c_char_lit => ExprKind::Int(self.char_literal(text, &sp)?.into(), CScalar::Int),
            Rule::c_float_lit => {
                self.unsupported("floating point is", sp);
                return None;
            }
            Rule::c_str_lit => ExprKind::Str(text[1..text.len() - 1].to_string()),
            Rule::c_bool_lit => ExprKind::Bool(text == "true"),
            Rule::c_ret_bang => ExprKind::RetBang,
            Rule::c_copy_var => {
                let mut i = p.into_inner();
                let a = i.next()?;
                let b = i.next()?;
                if !self.formula {
                    self.unsupported("`struct` members are", sp);
                    return None;
                }
                ExprKind::CopyVar(
                    Ident { name: a.as_str().into(), span: span(&a) },
                    Ident { name: b.as_str().into(), span: span(&b) },
                )
            }
            Rule::c_var => {
                if let Some(def) = self.defines.get(text).cloned() {
                    return self.expand(text, def, sp);
                }
                ExprKind::Var(text.to_string())
            }
            Rule::c_quant => {
                if !self.formula {
                    self.error("quantifiers belong to annotation formulas", sp.clone(), "here");
                    return None;
                }
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

    /// A `#define`d name: its replacement text parsed as an expression, at the use's span.
    fn expand(&mut self, name: &str, def: Span, at: Span) -> Option<Expr> {
        if self.expanding.iter().any(|n| n == name) || self.expanding.len() > 64 {
            self.error(format!("the macro `{name}` expands to itself"), at, "cyclic #define");
            return None;
        }
        if let Some(e) = self.expanded.get(name) {
            let mut e = e.clone();
            e.span = at;
            return Some(e);
        }
        self.expanding.push(name.to_string());
        let saved = self.src;
        self.src = self.macros_src;
        let e = self.with_part(Rule::c_formula, &def, |b, p| b.expr(p));
        self.src = saved;
        self.expanding.pop();
        let mut e = e?;
        self.expanded.insert(name.to_string(), e.clone());
        e.span = at;
        Some(e)
    }

    /// An integer literal's value and C type (C11 6.4.4.1 under LP64).
    fn int_literal(&mut self, text: &str, sp: &Span) -> Option<(BigInt, CScalar)> {
        let lower = text.to_ascii_lowercase();
        let digits_end = lower.trim_end_matches(['u', 'l']).len();
        let (digits, suffix) = lower.split_at(digits_end);
        let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
            (16, h)
        } else if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        let Ok(v) = BigInt::from_str_radix(body, radix) else {
            self.error(format!("`{text}` is not a valid integer literal"), sp.clone(), "here");
            return None;
        };
        let unsigned = suffix.contains('u');
        let long = suffix.contains('l');
        let fits = |t: CScalar| -> bool {
            let bits = t.bits();
            let max: BigInt = if t.is_signed() {
                (BigInt::from(1) << (bits - 1)) - 1
            } else {
                (BigInt::from(1) << bits) - 1
            };
            v <= max
        };
        let candidates: &[CScalar] = match (unsigned, long, radix == 10) {
            (false, false, true) => &[CScalar::Int, CScalar::Long],
            (false, false, false) => &[CScalar::Int, CScalar::UInt, CScalar::Long, CScalar::ULong],
            (true, false, _) => &[CScalar::UInt, CScalar::ULong],
            (false, true, true) => &[CScalar::Long],
            (false, true, false) => &[CScalar::Long, CScalar::ULong],
            (true, true, _) => &[CScalar::ULong],
        };
        match candidates.iter().find(|t| fits(**t)) {
            Some(t) => Some((v, *t)),
            None => {
                self.diags.push(
                    Diagnostic::new(
                        format!("integer literal `{text}` is too large for any C integer type"),
                        sp.clone(),
                    )
                    .with_label("too large")
                    .with_hint("the largest is `unsigned long` (64 bits)"),
                );
                None
            }
        }
    }

    /// A character literal's value (a `char` is signed, as gcc on x86-64).
    fn char_literal(&mut self, text: &str, sp: &Span) -> Option<i64> {
        let body = &text[1..text.len() - 1];
        let b = body.as_bytes();
        let v: i64 = if b.first() == Some(&b'\\') {
            let rest = &body[1..];
            match rest.as_bytes().first() {
                Some(b'n') if rest.len() == 1 => 10,
                Some(b't') if rest.len() == 1 => 9,
                Some(b'r') if rest.len() == 1 => 13,
                Some(b'a') if rest.len() == 1 => 7,
                Some(b'b') if rest.len() == 1 => 8,
                Some(b'f') if rest.len() == 1 => 12,
                Some(b'v') if rest.len() == 1 => 11,
                Some(b'\\' | b'\'' | b'"' | b'?') if rest.len() == 1 => rest.as_bytes()[0] as i64,
                Some(b'x') => match i64::from_str_radix(&rest[1..], 16) {
                    Ok(v) if v < 256 => v,
                    _ => return self.bad_char(text, sp),
                },
                Some(b'0'..=b'7') => match i64::from_str_radix(rest, 8) {
                    Ok(v) if v < 256 && rest.len() <= 3 => v,
                    _ => return self.bad_char(text, sp),
                },
                _ => return self.bad_char(text, sp),
            }
        } else if b.len() == 1 {
            b[0] as i64
        } else {
            return self.bad_char(text, sp);
        };
        Some(if v >= 128 { v - 256 } else { v })
    }

    fn bad_char(&mut self, text: &str, sp: &Span) -> Option<i64> {
        self.error(
            format!("`{text}` is not a character literal of the subset"),
            sp.clone(),
            "one ASCII character or escape",
        );
        None
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
        Eq | Ne | ArrayEq => (8, false),
        BitAnd => (7, false),
        BitXor => (6, false),
        BitOr => (5, false),
        And => (4, false),
        Or => (3, false),
        Iff => (2, false),
        Implies => (1, true),
    }
}
