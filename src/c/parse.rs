//! C source → syntax tree ([`ast::File`]): the preprocessor lines (`#include` skipped,
//! object-like `#define` substituted where the name is used), pest over the `c_` rules of
//! `grammar.pest`, and the builder that folds C's precedence and names every construct
//! outside the subset at its span. Annotation comments are parsed by `annotation` with
//! the same expression builder.

use super::ast::*;
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::syntax::{FeParser, Rule};
use num_bigint::BigInt;
use num_traits::Num;
use pest::iterators::Pair;
use pest::Parser as _;
use std::collections::HashMap;

/// `src` with everything outside `keep` replaced by spaces (line breaks kept), so that a
/// part of the file parses on its own with byte offsets that are the file's.
pub(crate) fn isolate(src: &str, keep: &Span) -> String {
    let mut out = String::with_capacity(src.len());
    for (i, c) in src.char_indices() {
        if keep.contains(&i) {
            out.push(c);
        } else if c == '\n' {
            out.push('\n');
        } else {
            for _ in 0..c.len_utf8() {
                out.push(' ');
            }
        }
    }
    out
}

/// Blanks `span` of `text` (spaces, line breaks kept).
pub(crate) fn blank(text: &mut String, span: &Span) {
    let blanked: String = text[span.clone()]
        .chars()
        .map(|c| if c == '\n' { "\n".to_string() } else { " ".repeat(c.len_utf8()) })
        .collect();
    text.replace_range(span.clone(), &blanked);
}

/// A block comment of the file: its span (from `/*` to past `*/`) and whether it is an
/// annotation (`@ELAENIA` / `@forex` first).
pub(crate) struct Comment {
    pub span: Span,
    /// Where the text after `/*` starts.
    pub body: Span,
}

/// Block comments and preprocessor lines, found lexically (strings and `//` comments
/// skipped).
pub(crate) struct Lexical {
    pub comments: Vec<Comment>,
    /// `#…` lines: the span of the line's text.
    pub directives: Vec<Span>,
}

pub(crate) fn lexical(src: &str) -> Lexical {
    let b = src.as_bytes();
    let mut out = Lexical { comments: Vec::new(), directives: Vec::new() };
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = src[i + 2..].find("*/").map(|e| i + 2 + e);
                let (body_end, next) = match end {
                    Some(e) => (e, e + 2),
                    None => (b.len(), b.len()),
                };
                out.comments.push(Comment { span: i..next, body: i + 2..body_end });
                i = next;
                line_start = false;
                continue;
            }
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'#' if line_start => {
                let start = i;
                while i < b.len() && b[i] != b'\n' {
                    // A line continuation keeps the directive going.
                    if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    i += 1;
                }
                out.directives.push(start..i);
                continue;
            }
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            _ => {}
        }
        line_start = false;
        i += 1;
    }
    out
}

/// Builds syntax trees from pest pairs; collects diagnostics.
pub(crate) struct Builder<'s> {
    pub src: &'s str,
    /// The text `#define` bodies are read from (the file as written: `src` may have its
    /// preprocessor lines blanked).
    pub macros_src: &'s str,
    pub diags: Vec<Diagnostic>,
    /// Object-like macros: name → the span of their replacement text.
    pub defines: HashMap<String, Span>,
    /// Macros being expanded (a cycle is an error, not a loop).
    expanding: Vec<String>,
    /// Macros already parsed.
    expanded: HashMap<String, Expr>,
    /// The function whose body is being built (for `_invariant` hints).
    pub current_fn: Option<String>,
    pub hints: Vec<InvariantHint>,
    /// Whether annotation-only forms (`==>`, `copy.x`, quantifiers, `ret!`) are allowed.
    pub formula: bool,
    /// Every function definition or prototype seen: its name and span (also those that
    /// fail to build, so that their errors can be pinned to them).
    pub items: Vec<(String, Span)>,
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    s.start()..s.end()
}

impl<'s> Builder<'s> {
    pub fn new(src: &'s str) -> Builder<'s> {
        Builder {
            src,
            macros_src: src,
            diags: Vec::new(),
            defines: HashMap::new(),
            expanding: Vec::new(),
            expanded: HashMap::new(),
            current_fn: None,
            hints: Vec::new(),
            formula: false,
            items: Vec::new(),
        }
    }

    pub fn unsupported(&mut self, what: &str, sp: Span) {
        self.diags.push(
            Diagnostic::new(format!("{what} not supported"), sp)
                .with_label("outside the C subset")
                .with_hint("LANGUAGE.md, \"C programs\", lists the subset forex reads"),
        );
    }

    pub fn error(&mut self, msg: impl Into<String>, sp: Span, label: &str) {
        self.diags.push(Diagnostic::new(msg, sp).with_label(label));
    }

    /// Parses the part `keep` of the file with `rule` (offsets stay the file's) and hands
    /// the pair to `f`.
    pub fn with_part<T>(
        &mut self,
        rule: Rule,
        keep: &Span,
        f: impl FnOnce(&mut Self, Pair<Rule>) -> Option<T>,
    ) -> Option<T> {
        let text = isolate(self.src, keep);
        match FeParser::parse(rule, &text) {
            Ok(mut p) => f(self, p.next()?),
            Err(e) => {
                pest::set_error_detail(true);
                let e = FeParser::parse(rule, &text).err().unwrap_or(e);
                self.diags.push(crate::syntax::syntax_error(&text, &e));
                None
            }
        }
    }

    // ------------------------------------------------------------ types

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

    /// A declarator over base type `base`: the name and the declared type.
    fn declarator(
        &mut self,
        p: Pair<Rule>,
        base: Option<CScalar>,
        base_span: &Span,
    ) -> Option<(Ident, DeclTy)> {
        let mut name = None;
        let mut dims = Vec::new();
        let mut ok = true;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::c_ptr => {
                    self.unsupported("pointers are", span(&q));
                    ok = false;
                }
                Rule::c_fnptr => {
                    self.unsupported("function pointers are", span(&q));
                    ok = false;
                }
                Rule::c_ident => name = Some(Ident { name: q.as_str().into(), span: span(&q) }),
                Rule::c_dim => {
                    let d = q.clone().into_inner().next().map(|e| self.expr(e));
                    match d {
                        Some(None) => ok = false,
                        Some(Some(e)) => dims.push(Some(e)),
                        None => dims.push(None),
                    }
                    if dims.len() == 3 {
                        self.unsupported("arrays of more than two dimensions are", span(&q));
                        ok = false;
                    }
                }
                _ => {}
            }
        }
        let name = name?;
        if !ok {
            return None;
        }
        let ty = match (base, dims.is_empty()) {
            (None, _) => {
                self.error(
                    format!("`{}` is declared `void`", name.name),
                    base_span.clone(),
                    "a variable needs a value type",
                );
                return None;
            }
            (Some(s), true) => DeclTy::Scalar(s),
            (Some(s), false) => DeclTy::Array(s, dims),
        };
        Some((name, ty))
    }

    // ------------------------------------------------------------ top level

    pub fn file(&mut self, p: Pair<Rule>) -> Vec<Function> {
        let mut out = Vec::new();
        for item in p.into_inner() {
            match item.as_rule() {
                Rule::c_function | Rule::c_prototype => {
                    if let Some(f) = self.function(item) {
                        out.push(f);
                    }
                }
                Rule::c_global => {
                    let sp = span(&item);
                    let mut inner = item.into_inner();
                    let ty = inner.next().and_then(|t| self.base_type(t));
                    if ty.is_some() && inner.next().is_some() {
                        self.unsupported("global variables are", sp);
                    }
                }
                Rule::c_typedef => self.unsupported("`typedef` is", span(&item)),
                _ => {}
            }
        }
        out
    }

    fn function(&mut self, p: Pair<Rule>) -> Option<Function> {
        let sp = span(&p);
        let is_def = p.as_rule() == Rule::c_function;
        let mut inner = p.into_inner();
        let ty_pair = inner.next()?;
        let ty_span = span(&ty_pair);
        let mut rest: Vec<Pair<Rule>> = inner.collect();
        let mut pointer = false;
        while rest.first().map(|q| q.as_rule()) == Some(Rule::c_ptr) {
            let q = rest.remove(0);
            self.unsupported("pointers are", span(&q));
            pointer = true;
        }
        let name_pair = rest.remove(0);
        let name = Ident { name: name_pair.as_str().to_string(), span: span(&name_pair) };
        self.items.push((name.name.clone(), sp.clone()));
        // The test harness of the Elaenia tool: skipped, whatever it contains.
        if name.name.starts_with('_') {
            return None;
        }
        let ret = self.base_type(ty_pair);
        let params_pair = rest.remove(0);
        let mut params = Vec::new();
        let mut ok = ret.is_some() && !pointer;
        let list: Vec<Pair<Rule>> = params_pair.into_inner().collect();
        let only_void = list.len() == 1 && list[0].as_str().trim() == "void";
        for (k, prm) in list.into_iter().enumerate() {
            if only_void {
                break;
            }
            let psp = span(&prm);
            let mut pi = prm.into_inner();
            let first = pi.next()?;
            if first.as_rule() == Rule::c_ellipsis {
                self.unsupported("variadic functions (`...`) are", psp);
                ok = false;
                continue;
            }
            let base = self.base_type(first);
            let Some(base) = base else {
                ok = false;
                continue;
            };
            match pi.next() {
                Some(d) => match self.declarator(d, base, &psp) {
                    Some((n, t)) => params.push(Param { name: n, ty: t }),
                    None => ok = false,
                },
                None => match base {
                    Some(s) => params.push(Param {
                        name: Ident { name: format!("arg{}", k + 1), span: psp },
                        ty: DeclTy::Scalar(s),
                    }),
                    None => ok = false,
                },
            }
        }
        let body = if is_def {
            self.current_fn = Some(name.name.clone());
            let b = rest.pop().map(|b| self.block(b));
            self.current_fn = None;
            match b {
                Some(Some(b)) => Some(b),
                _ => {
                    ok = false;
                    None
                }
            }
        } else {
            None
        };
        let ret = match ret {
            Some(None) => DeclTy::Void,
            Some(Some(s)) => DeclTy::Scalar(s),
            None => DeclTy::Void,
        };
        let _ = ty_span;
        ok.then_some(Function { name, ret, params, body, span: sp })
    }

    // ------------------------------------------------------------ statements

    fn block(&mut self, p: Pair<Rule>) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut ok = true;
        for s in p.into_inner() {
            match self.stmt(s) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn boxed(&mut self, p: Option<Pair<Rule>>) -> Option<Box<Stmt>> {
        self.stmt(p?).map(Box::new)
    }

    fn stmt(&mut self, p: Pair<Rule>) -> Option<Stmt> {
        let sp = span(&p);
        let rule = p.as_rule();
        let mut inner = p.into_inner();
        let kind = match rule {
            Rule::c_block => StmtKind::Block(self.block_pairs(inner)?),
            Rule::c_decl => StmtKind::Decl(self.decl(inner)?),
            Rule::c_if => {
                inner.next();
                let c = self.expr(inner.next()?);
                let t = self.boxed(inner.next());
                let e = inner.nth(1).map(|s| self.stmt(s).map(Box::new));
                let e = match e {
                    Some(None) => return None,
                    Some(Some(e)) => Some(e),
                    None => None,
                };
                StmtKind::If(c?, t?, e)
            }
            Rule::c_while => {
                inner.next();
                let c = self.expr(inner.next()?);
                let b = self.boxed(inner.next());
                StmtKind::While(c?, b?)
            }
            Rule::c_do => {
                inner.next();
                let b = self.boxed(inner.next());
                inner.next();
                let c = self.expr(inner.next()?);
                StmtKind::DoWhile(b?, c?)
            }
            Rule::c_for => {
                inner.next();
                let init_p = inner.next()?;
                let init_sp = span(&init_p);
                let init = match init_p.into_inner().next() {
                    None => None,
                    Some(d) if d.as_rule() == Rule::c_decl => Some(Box::new(Stmt {
                        kind: StmtKind::Decl(self.decl(d.into_inner())?),
                        span: init_sp,
                    })),
                    Some(e) => {
                        Some(Box::new(Stmt { kind: StmtKind::Expr(self.expr(e)?), span: init_sp }))
                    }
                };
                let cond = match inner.next()?.into_inner().next() {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let step = match inner.next()?.into_inner().next() {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let body = self.boxed(inner.next())?;
                StmtKind::For { init, cond, step, body }
            }
            Rule::c_break => StmtKind::Break,
            Rule::c_continue => StmtKind::Continue,
            Rule::c_return => {
                inner.next();
                match inner.next() {
                    Some(e) => StmtKind::Return(Some(self.expr(e)?)),
                    None => StmtKind::Return(None),
                }
            }
            Rule::c_goto => {
                self.unsupported("`goto` is", sp);
                return None;
            }
            Rule::c_switch => {
                self.unsupported("`switch` is", sp);
                return None;
            }
            Rule::c_case => {
                self.unsupported("`case` labels outside `switch` are", sp);
                return None;
            }
            Rule::c_label => {
                self.unsupported("labels (for `goto`) are", sp);
                return None;
            }
            Rule::c_typedef => {
                self.unsupported("`typedef` is", sp);
                return None;
            }
            Rule::c_empty => StmtKind::Empty,
            Rule::c_expr_stmt => {
                let e = self.expr(inner.next()?)?;
                if let ExprKind::Call(f, args) = &e.kind {
                    if f.name == "_invariant" {
                        self.invariant_hint(args, &sp);
                        return Some(Stmt { kind: StmtKind::Empty, span: sp });
                    }
                }
                StmtKind::Expr(e)
            }
            _ => {
                self.error("internal: unexpected statement", sp.clone(), "here");
                return None;
            }
        };
        Some(Stmt { kind, span: sp })
    }

    fn block_pairs(&mut self, inner: pest::iterators::Pairs<Rule>) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut ok = true;
        for s in inner {
            match self.stmt(s) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `_invariant("l_i == r_i")`: the string parsed as a formula.
    fn invariant_hint(&mut self, args: &[Expr], sp: &Span) {
        let [Expr { kind: ExprKind::Str(_), span: lit }] = args else {
            self.error("`_invariant` takes one string: a formula", sp.clone(), "here");
            return;
        };
        let keep = lit.start + 1..lit.end - 1;
        let was = std::mem::replace(&mut self.formula, true);
        let e = self.with_part(Rule::c_formula, &keep, |b, p| b.expr(p));
        self.formula = was;
        if let (Some(e), Some(f)) = (e, self.current_fn.clone()) {
            self.hints.push(InvariantHint { function: f, formula: e });
        }
    }

    fn decl(&mut self, mut inner: pest::iterators::Pairs<Rule>) -> Option<Vec<VarDecl>> {
        let ty_pair = inner.next()?;
        let ty_span = span(&ty_pair);
        let base = self.base_type(ty_pair)?;
        let mut out = Vec::new();
        let mut ok = true;
        for d in inner {
            let mut di = d.into_inner();
            let Some((name, ty)) = self.declarator(di.next()?, base, &ty_span) else {
                ok = false;
                continue;
            };
            let init = match di.next() {
                None => None,
                Some(i) => match self.init(i) {
                    Some(i) => Some(i),
                    None => {
                        ok = false;
                        continue;
                    }
                },
            };
            out.push(VarDecl { name, ty, init });
        }
        ok.then_some(out)
    }

    fn init(&mut self, p: Pair<Rule>) -> Option<Init> {
        let q = p.into_inner().next()?;
        if q.as_rule() == Rule::c_init_list {
            let sp = span(&q);
            let mut items = Vec::new();
            for i in q.into_inner() {
                let j = i.into_inner().next()?;
                if j.as_rule() == Rule::c_init_list {
                    self.unsupported("nested initialiser lists are", span(&j));
                    return None;
                }
                items.push(self.expr(j)?);
            }
            Some(Init::List(items, sp))
        } else {
            Some(Init::Expr(self.expr(q)?))
        }
    }

    // ------------------------------------------------------------ expressions

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
