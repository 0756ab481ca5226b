//! The builder of annotation formulas: pest pairs of the `c_` rules (grammar.pest) →
//! syntax-tree expressions, with the names of the file's object-like macros and enum
//! constants replaced by their values, and diagnostics at the formula's own span.

use crate::c::ast::*;
use crate::diag::Diagnostic;
use crate::syntax::{FeParser, Rule};
use pest::iterators::Pair;
use pest::Parser as _;
use std::collections::HashMap;

/// Builds formulas from pest pairs; collects diagnostics.
pub(crate) struct Builder<'s> {
    pub src: &'s str,
    pub diags: Vec<Diagnostic>,
    /// Names that formulas may use for their values: the object-like macros of the file
    /// (after preprocessing) and its enum constants: name → replacement text.
    pub defines: &'s HashMap<String, String>,
    /// Macros being expanded (a cycle is an error, not a loop).
    expanding: Vec<String>,
    /// Macros already parsed.
    expanded: HashMap<String, Option<Expr>>,
}

pub(super) fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    s.start()..s.end()
}

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

impl<'s> Builder<'s> {
    pub fn new(src: &'s str, defines: &'s HashMap<String, String>) -> Builder<'s> {
        Builder { src, diags: Vec::new(), defines, expanding: Vec::new(), expanded: HashMap::new() }
    }

    pub fn unsupported(&mut self, what: &str, sp: Span) {
        self.diags.push(
            Diagnostic::new(format!("{what} not supported in formulas"), sp)
                .with_label("outside what annotations read")
                .with_hint("LANGUAGE.md, \"C programs\", lists what formulas may use"),
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
        self.with_text(rule, &text, f)
    }

    /// Parses `text` (offsets are `text`'s) with `rule` and hands the pair to `f`.
    pub fn with_text<T>(
        &mut self,
        rule: Rule,
        text: &str,
        f: impl FnOnce(&mut Self, Pair<Rule>) -> Option<T>,
    ) -> Option<T> {
        match FeParser::parse(rule, text) {
            Ok(mut p) => f(self, p.next()?),
            Err(e) => {
                pest::set_error_detail(true);
                let e = FeParser::parse(rule, text).err().unwrap_or(e);
                self.diags.push(crate::syntax::syntax_error(text, &e));
                None
            }
        }
    }

    /// A macro's or constant's value, parsed, at the use's span `at` (`None` when `name`
    /// has none, or it is not an expression).
    pub fn expand(&mut self, name: &str, at: &Span) -> Option<Option<Expr>> {
        let body = self.defines.get(name)?;
        if self.expanding.iter().any(|n| n == name) || self.expanding.len() > 64 {
            self.error(format!("the macro `{name}` expands to itself"), at.clone(), "cyclic macro");
            return Some(None);
        }
        let e = match self.expanded.get(name) {
            Some(e) => e.clone(),
            None => {
                self.expanding.push(name.to_string());
                let before = self.diags.len();
                let body = body.clone();
                let e = self.with_text(Rule::c_formula, &body, |b, p| b.expr(p));
                self.expanding.pop();
                // A body that is no formula: the error is about the use.
                if self.diags.len() > before {
                    self.diags.truncate(before);
                    self.error(
                        format!("the macro `{name}` is not an expression formulas can read"),
                        at.clone(),
                        "macro",
                    );
                }
                self.expanded.insert(name.to_string(), e.clone());
                e
            }
        };
        Some(e.map(|mut e| {
            respan(&mut e, at);
            e
        }))
    }
}

/// Every node of `e` at `at` (a macro's expansion is at its use).
pub(super) fn respan(e: &mut Expr, at: &Span) {
    e.span = at.clone();
    match &mut e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::SizeofExpr(a)
        | ExprKind::Member { base: a, .. }
        | ExprKind::IncDec { arg: a, .. } => respan(a, at),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => {
            respan(a, at);
            respan(b, at);
        }
        ExprKind::Cond(a, b, c) => {
            respan(a, at);
            respan(b, at);
            respan(c, at);
        }
        ExprKind::Call(f, args) => {
            f.span = at.clone();
            args.iter_mut().for_each(|a| respan(a, at));
        }
        ExprKind::CallPtr(f, args) => {
            respan(f, at);
            args.iter_mut().for_each(|a| respan(a, at));
        }
        ExprKind::Quant { body, vars, .. } => {
            vars.iter_mut().for_each(|(v, _)| v.span = at.clone());
            respan(body, at);
        }
        ExprKind::CopyVar(a, b) => {
            a.span = at.clone();
            b.span = at.clone();
        }
        ExprKind::Int(..)
        | ExprKind::Float(..)
        | ExprKind::Bool(_)
        | ExprKind::Var(_)
        | ExprKind::RetBang
        | ExprKind::Str(_)
        | ExprKind::SizeofType(_)
        | ExprKind::AlignofType(_)
        | ExprKind::StmtExpr(_)
        | ExprKind::Other(_) => {}
    }
}
