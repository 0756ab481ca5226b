//! pest pairs → syntax tree for expressions. Operator precedence is resolved with
//! explicit stacks (no recursion), and every node's depth is checked against
//! `ir::MAX_DEPTH`, so long operator chains cannot make later passes recurse deeply.

use super::ast::{Expr, ExprKind, Ident, Span};
use super::build::{ident, kids, span, Builder, Names, Reported, MAX_INT_DIGITS, R};
use super::Rule;
use crate::diag::Diagnostic;
use crate::ir::{BinOp, Quantifier, UnOp, MAX_BV_WIDTH, MAX_DEPTH};
use num_bigint::BigInt;
use pest::iterators::Pair;

impl Builder<'_> {
    fn check_depth(&mut self, e: Expr) -> R<Expr> {
        if e.depth as usize > MAX_DEPTH {
            Err(self.error(
                Diagnostic::new(
                    format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
                    e.span.start..e.span.start + 1,
                )
                .with_label("too deep")
                .with_hint("split it using intermediate variables"),
            ))
        } else {
            Ok(e)
        }
    }

    pub fn expr(&mut self, p: &Pair<Rule>) -> R<Expr> {
        match p.as_rule() {
            Rule::expr => {
                let inner = kids(p).into_iter().next().ok_or(Reported)?;
                self.expr(&inner)
            }
            Rule::quant => {
                let k = kids(p);
                let quantifier =
                    if k[0].as_str() == "forall" { Quantifier::Forall } else { Quantifier::Exists };
                let var = ident(&k[1]);
                let ty = self.ty(&k[2])?;
                self.bound.push(var.name.clone());
                let body = self.expr(&k[3]);
                self.bound.pop();
                let body = body?;
                let e = Expr::node(
                    ExprKind::Quant { quantifier, var, ty, body: Box::new(body.clone()) },
                    span(p),
                    &[&body],
                );
                self.check_depth(e)
            }
            Rule::ite => {
                let k = kids(p);
                let (c, a, b) = (self.expr(&k[0])?, self.expr(&k[1])?, self.expr(&k[2])?);
                let depth = 1 + c.depth.max(a.depth).max(b.depth);
                let kind = ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b));
                self.check_depth(Expr { kind, span: span(p), depth })
            }
            Rule::binexpr => self.binexpr(p),
            Rule::unary => self.unary(p),
            r => Err(self.error(Diagnostic::new(
                format!("internal: unexpected expression rule {r:?}"),
                span(p),
            ))),
        }
    }

    /// Folds `u0 op1 u1 op2 u2 …` by precedence. The recursion is over precedence
    /// levels only (at most ten), never over the length of the chain.
    fn binexpr(&mut self, p: &Pair<Rule>) -> R<Expr> {
        let k = kids(p);
        let mut operands = vec![self.unary(&k[0])?];
        let mut ops: Vec<(BinOp, u8)> = Vec::new();
        let mut i = 1;
        while i + 1 < k.len() {
            ops.push(self.binop(&k[i])?);
            operands.push(self.unary(&k[i + 1])?);
            i += 2;
        }
        self.fold(operands, &ops)
    }

    /// `operands[0] ops[0] operands[1] …`: splits at the loosest operators, folds the
    /// parts, then joins them (see [`Builder::join`]).
    fn fold(&mut self, operands: Vec<Expr>, ops: &[(BinOp, u8)]) -> R<Expr> {
        let Some(loosest) = ops.iter().map(|o| o.1).min() else {
            return operands.into_iter().next().ok_or(Reported);
        };
        let mut parts = Vec::new();
        let mut joins = Vec::new();
        let mut part_operands = Vec::new();
        let mut part_ops = Vec::new();
        let mut it = operands.into_iter();
        part_operands.push(it.next().ok_or(Reported)?);
        for (&op, e) in ops.iter().zip(it) {
            if op.1 == loosest {
                parts.push(self.fold(std::mem::take(&mut part_operands), &part_ops)?);
                part_ops.clear();
                joins.push(op.0);
            } else {
                part_ops.push(op);
            }
            part_operands.push(e);
        }
        parts.push(self.fold(part_operands, &part_ops)?);
        self.join(parts, &joins, loosest)
    }

    /// Joins `parts` with operators of one precedence level: to the left (`==>` to the
    /// right), as written. A long chain (more than [`BALANCE_FROM`] operators) of an
    /// associative operator is built as a balanced tree instead, so that flat input of
    /// any length stays shallow: `+`/`-` as (sum of the added) − (sum of the subtracted),
    /// `==>` as (conjunction of the premises) `==>` conclusion.
    fn join(&mut self, mut parts: Vec<Expr>, joins: &[BinOp], prec: u8) -> R<Expr> {
        use BinOp::*;
        let same = |op: BinOp| joins.iter().all(|j| *j == op);
        if joins.len() > BALANCE_FROM {
            if prec == PREC_IMPLIES {
                let conclusion = parts.pop().ok_or(Reported)?;
                let premises = self.balanced(parts, And)?;
                return self.node(Implies, premises, conclusion);
            }
            if joins.iter().all(|j| matches!(j, Add | Sub)) {
                let mut it = parts.into_iter();
                let mut plus = vec![it.next().ok_or(Reported)?];
                let mut minus = Vec::new();
                for (op, e) in joins.iter().zip(it) {
                    if *op == Add {
                        plus.push(e)
                    } else {
                        minus.push(e)
                    }
                }
                let plus = self.balanced(plus, Add)?;
                if minus.is_empty() {
                    return Ok(plus);
                }
                let minus = self.balanced(minus, Add)?;
                return self.node(Sub, plus, minus);
            }
            for op in [Mul, And, Or, Iff, BitAnd, BitOr, BitXor] {
                if same(op) {
                    return self.balanced(parts, op);
                }
            }
        }
        if prec == PREC_IMPLIES {
            let mut acc = parts.pop().ok_or(Reported)?;
            for (op, e) in joins.iter().rev().zip(parts.into_iter().rev()) {
                acc = self.node(*op, e, acc)?;
            }
            return Ok(acc);
        }
        let mut it = parts.into_iter();
        let mut acc = it.next().ok_or(Reported)?;
        for (op, e) in joins.iter().zip(it) {
            acc = self.node(*op, acc, e)?;
        }
        Ok(acc)
    }

    /// `parts` joined by the associative `op` as a balanced tree (depth log₂ of the length).
    fn balanced(&mut self, mut parts: Vec<Expr>, op: BinOp) -> R<Expr> {
        while parts.len() > 1 {
            let mut next = Vec::with_capacity(parts.len().div_ceil(2));
            let mut it = parts.into_iter();
            while let Some(a) = it.next() {
                match it.next() {
                    Some(b) => next.push(self.node(op, a, b)?),
                    None => next.push(a),
                }
            }
            parts = next;
        }
        parts.pop().ok_or(Reported)
    }

    fn node(&mut self, op: BinOp, a: Expr, b: Expr) -> R<Expr> {
        let sp = a.span.start..b.span.end;
        self.check_depth(Expr::binary(op, a, b, sp))
    }

    fn binop(&mut self, p: &Pair<Rule>) -> R<(BinOp, u8)> {
        use BinOp::*;
        let text = p.as_str();
        let foreign =
            |fe: &str| (format!("`{text}` is ForEx syntax"), format!("in .fe files write `{fe}`"));
        let (op, prec, fe_spelling) = match text {
            "<==>" => (Iff, 1, None),
            "==>" => (Implies, PREC_IMPLIES, None),
            "=>" => (Implies, PREC_IMPLIES, Some("==>")),
            "||" => (Or, 3, None),
            "&&" => (And, 4, None),
            "==" => (Eq, 5, None),
            "===" => (Ident, 5, None),
            "!=" => (Ne, 5, None),
            "<" => (Lt, 6, None),
            "<=" => (Le, 6, None),
            ">" => (Gt, 6, None),
            ">=" => (Ge, 6, None),
            "+" => (Add, 7, None),
            "-" => (Sub, 7, None),
            "*" => (Mul, 8, None),
            "/" => (Div, 8, None),
            "%" => (Mod, 8, None),
            "&" => (BitAnd, 9, None),
            "|" => (BitOr, 9, None),
            "^" => (BitXor, 9, None),
            "<<" => (Shl, 9, None),
            ">>" => (Shr, 9, None),
            "bv.&" => (BitAnd, 9, Some("&")),
            "bv.|" => (BitOr, 9, Some("|")),
            "str.++" => (Concat, 7, None),
            _ => {
                return Err(self.error(
                    Diagnostic::new(format!("unknown operator `{}`", p.as_str()), span(p))
                        .with_label("operator"),
                ))
            }
        };
        if let (Some(fe), false) = (fe_spelling, self.forex) {
            let (msg, hint) = foreign(fe);
            self.diags
                .push(Diagnostic::new(msg, span(p)).with_label("ForEx operator").with_hint(hint));
        }
        Ok((op, prec))
    }

    fn unary(&mut self, p: &Pair<Rule>) -> R<Expr> {
        let k = kids(p);
        let (last, prefixes) = k.split_last().ok_or(Reported)?;
        let mut e = self.postfix(last)?;
        for pre in prefixes.iter().rev() {
            if pre.as_str().starts_with("str.len") {
                // The call `str.len(e)`, which the checker resolves (ForEx only).
                let sp = pre.as_span().start()..e.span.end;
                let name = Ident { name: "str.len".into(), span: span(pre) };
                let depth = e.depth + 1;
                let call = ExprKind::Call { name, args: vec![e] };
                e = self.check_depth(Expr { kind: call, span: sp, depth })?;
                continue;
            }
            let op = match pre.as_str() {
                "!" => UnOp::Not,
                "-" => UnOp::Neg,
                "~" => UnOp::BitNot,
                _ => {
                    if !self.forex {
                        self.diags.push(
                            Diagnostic::new("`bv.!` is ForEx syntax", span(pre))
                                .with_label("ForEx operator")
                                .with_hint("in .fe files write `~`"),
                        );
                    }
                    UnOp::BitNot
                }
            };
            let sp = pre.as_span().start()..e.span.end;
            let depth = e.depth + 1;
            e =
                self.check_depth(Expr { kind: ExprKind::Unary(op, Box::new(e)), span: sp, depth })?;
        }
        Ok(e)
    }

    fn postfix(&mut self, p: &Pair<Rule>) -> R<Expr> {
        let k = kids(p);
        let mut e = self.primary(&k[0])?;
        for post in &k[1..] {
            let sp = e.span.start..post.as_span().end();
            let pk = kids(post);
            e = match post.as_rule() {
                Rule::index => {
                    let i = self.expr(&pk[0])?;
                    let depth = 1 + e.depth.max(i.depth);
                    Expr { kind: ExprKind::Index(Box::new(e), Box::new(i)), span: sp, depth }
                }
                Rule::extract | Rule::forex_extract => {
                    let (a, b) = (self.small_int(&pk[0])?, self.small_int(&pk[1])?);
                    // `x[hi:lo]` in .fe; `x{lo,hi}` in ForEx (from the least significant bit).
                    let (hi, lo) = if post.as_rule() == Rule::extract { (a, b) } else { (b, a) };
                    if post.as_rule() == Rule::forex_extract && !self.forex {
                        self.diags.push(
                            Diagnostic::new("`{l,u}` extraction is ForEx syntax", span(post))
                                .with_label("ForEx extraction")
                                .with_hint(format!("in .fe files write `[{hi}:{lo}]`")),
                        );
                    }
                    let depth = e.depth + 1;
                    let kind = ExprKind::Extract { arg: Box::new(e), hi, lo, bounds: span(post) };
                    Expr { kind, span: sp, depth }
                }
                _ => return Err(Reported),
            };
            e = self.check_depth(e)?;
        }
        Ok(e)
    }

    fn primary(&mut self, p: &Pair<Rule>) -> R<Expr> {
        let sp = span(p);
        let text = p.as_str();
        let kind = match p.as_rule() {
            Rule::bool_lit => ExprKind::Bool(text == "true"),
            Rule::int_lit => {
                if text.len() > MAX_INT_DIGITS {
                    self.diags.push(
                        Diagnostic::new(
                            format!(
                                "integer literal is too long ({} digits; forex accepts at most {MAX_INT_DIGITS})",
                                text.len()
                            ),
                            sp.clone(),
                        )
                        .with_label("too long"),
                    );
                    ExprKind::Error
                } else {
                    ExprKind::Int(text.parse::<BigInt>().unwrap_or_default())
                }
            }
            Rule::bv_lit => self.bv_lit(text, sp.clone()),
            Rule::float_lit => self.float_lit(text, sp.clone()),
            Rule::str_lit => match crate::ir::unescape_string(&text[1..text.len() - 1]) {
                Ok(s) => ExprKind::Str(s),
                Err(at) => {
                    let at = sp.start + 1 + at;
                    self.diags.push(
                        Diagnostic::new("strings hold printable ASCII characters", at..at + 1)
                            .with_label("not allowed here")
                            .with_hint(r#"the escapes are \" and \\"#),
                    );
                    ExprKind::Error
                }
            },
            Rule::str_op => {
                self.diags.push(
                    Diagnostic::new(format!("`{text}` needs its arguments"), sp.clone())
                        .with_label("string function")
                        .with_hint("write `str.len(s)` or `str.++(a, b)`, or `a str.++ b`"),
                );
                ExprKind::Error
            }
            Rule::paren => {
                let mut e = self.expr(&kids(p)[0])?;
                e.span = sp;
                return Ok(e);
            }
            Rule::copy_var => {
                let k = kids(p);
                return Ok(Expr::copy_var(ident(&k[0]), ident(&k[1])));
            }
            Rule::var => return self.var(&kids(p)[0]),
            Rule::ite | Rule::quant => return self.expr(p),
            Rule::conversion => {
                let k = kids(p);
                let to = self.base_ty(&k[0]);
                let arg = self.expr(&k[1])?;
                let e =
                    Expr::node(ExprKind::Convert { to, arg: Box::new(arg.clone()) }, sp, &[&arg]);
                return self.check_depth(e);
            }
            Rule::call => {
                let k = kids(p);
                let mut args = Vec::new();
                for a in &k[1..] {
                    args.push(self.expr(a)?);
                }
                let refs: Vec<&Expr> = args.iter().collect();
                let e = Expr::node(
                    ExprKind::Call { name: ident(&k[0]), args: args.clone() },
                    sp,
                    &refs,
                );
                return self.check_depth(e);
            }
            r => {
                return Err(self.error(Diagnostic::new(
                    format!("internal: unexpected primary rule {r:?}"),
                    sp,
                )))
            }
        };
        Ok(Expr::leaf(kind, sp))
    }

    fn float_lit(&mut self, text: &str, sp: Span) -> ExprKind {
        use crate::ir::float::{parse_literal, LiteralError};
        let (kind_word, why) = match parse_literal(text) {
            Ok((kind, bits)) => return ExprKind::Float { kind, bits },
            Err(e) => {
                let kind = if text.ends_with(['f', 'F'])
                    && (!text.starts_with("0x") || text.contains(['p', 'P']))
                {
                    "float"
                } else {
                    "double"
                };
                (kind, e)
            }
        };
        let (message, label, hint) = match why {
            LiteralError::Overflow => (
                format!("float literal `{text}` is out of range: it rounds to infinity as a {kind_word}"),
                "too large",
                if kind_word == "float" {
                    "the largest float is 3.4028235e38f; a double literal (no `f`) goes to 1.7976931348623157e308"
                } else {
                    "the largest double is 1.7976931348623157e308; for infinity write `1.0 / 0.0`"
                },
            ),
            LiteralError::Underflow => (
                format!("float literal `{text}` is out of range: it rounds to zero as a {kind_word}"),
                "too small",
                if kind_word == "float" {
                    "the smallest positive float is 1e-45f (0x1p-149f); write `0.0f` for zero"
                } else {
                    "the smallest positive double is 5e-324 (0x1p-1074); write `0.0` for zero"
                },
            ),
            LiteralError::Syntax => (
                format!("malformed float literal `{text}`"),
                "not a float",
                "write `1.5`, `1e-3`, `1.5f` or a hex float such as `0x1.8p+1`",
            ),
        };
        self.diags.push(Diagnostic::new(message, sp).with_label(label).with_hint(hint));
        ExprKind::Error
    }

    fn bv_lit(&mut self, text: &str, sp: Span) -> ExprKind {
        let (radix, bits_per_digit) = if text.starts_with("#b") { (2, 1) } else { (16, 4) };
        let digits = &text[2..];
        let width = digits.len().saturating_mul(bits_per_digit);
        if width > MAX_BV_WIDTH as usize {
            self.diags.push(
                Diagnostic::new(
                    format!(
                        "bit-vector literal is {width} bits wide; forex supports at most {MAX_BV_WIDTH} bits"
                    ),
                    sp,
                )
                .with_label("too wide"),
            );
            return ExprKind::Error;
        }
        match u128::from_str_radix(digits, radix) {
            Ok(value) => ExprKind::Bv { value, width: width as u32 },
            Err(_) => ExprKind::Error,
        }
    }

    fn var(&mut self, p: &Pair<Rule>) -> R<Expr> {
        let id = ident(p);
        let Names::ForexFormula { copies } = self.names else {
            return Ok(Expr::leaf(ExprKind::Var(id.name), id.span));
        };
        if self.bound.contains(&id.name) {
            return Ok(Expr::leaf(ExprKind::Var(id.name), id.span));
        }
        match split_copy_index(&id.name) {
            Some((base, Some(k))) if k < copies => Ok(Expr::copy_var(
                Ident { name: format!("c{k}"), span: id.span.clone() },
                Ident { name: base.to_string(), span: id.span },
            )),
            Some((_, k)) => self.soft_error(
                Diagnostic::new(
                    format!(
                        "`{}` refers to copy {}, but the file has only {copies} program{}",
                        id.name,
                        k.map(|k| k.to_string()).unwrap_or_else(|| "(too large)".into()),
                        if copies == 1 { "" } else { "s" }
                    ),
                    id.span,
                )
                .with_label("no such copy")
                .with_hint(format!(
                    "copies are numbered from 0: the [forall] sections first, then the [exists] sections (here 0 to {})",
                    copies.saturating_sub(1)
                )),
            ),
            None => self.soft_error(
                Diagnostic::new(format!("`{}` has no copy index", id.name), id.span)
                    .with_label("which copy?")
                    .with_hint(format!(
                        "in ForEx formulas write `{0}_0`, `{0}_1`, … (the copy's number, [forall] sections first)",
                        id.name
                    )),
            ),
        }
    }

    /// Reports `d` and stands in an error node, so the rest of the formula is checked.
    fn soft_error(&mut self, d: Diagnostic) -> R<Expr> {
        let sp = d.span.clone();
        self.diags.push(d);
        Ok(Expr::leaf(ExprKind::Error, sp))
    }
}

const PREC_IMPLIES: u8 = 2;

/// Chains with more operators than this (of one associative operator) are balanced.
const BALANCE_FROM: usize = 64;

/// `x_12` → (`x`, Some(12)); `x_99999999999999999999` → (`x`, None); `x` → None.
pub fn split_copy_index(name: &str) -> Option<(&str, Option<usize>)> {
    let (base, digits) = name.rsplit_once('_')?;
    if base.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, digits.parse().ok()))
}
