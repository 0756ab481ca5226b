//! C source → syntax tree ([`ast::File`]): the preprocessor lines (`#include` skipped,
//! object-like `#define` substituted where the name is used), pest over the `c_` rules of
//! `grammar.pest`, and the builder that folds C's precedence and names every construct
//! outside the subset at its span. Annotation comments are parsed by `annotation` with
//! the same expression builder.
//!
//! Split by layer: `lexical` (comments and preprocessor lines, before pest), `decl`
//! (types, declarators, functions), `stmt` and `expr`; this file holds the builder
//! that they share and its diagnostics.

mod decl;
mod expr;
mod lexical;
mod stmt;

use lexical::isolate;
pub(crate) use lexical::{blank, lexical, Comment};

use super::ast::*;
use crate::diag::Diagnostic;
use crate::syntax::{FeParser, Rule};
use pest::iterators::Pair;
use pest::Parser as _;
use std::collections::HashMap;

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
}
