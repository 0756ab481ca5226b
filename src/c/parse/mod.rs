//! The preprocessed file → forex's syntax tree ([`ast::File`]): lang-c (C11 with GNU
//! extensions) parses the preprocessor's output; its tree is converted here, with C's
//! scopes for typedef names, tags and enum constants (typedefs resolved, enum constants
//! replaced by their values), and every span mapped back to the user's file. Nothing is
//! rejected here: what forex does not verify becomes a node that the lowerer names, so
//! that declarations in headers never produce errors by themselves.
//!
//! Split by layer: `types` (specifiers and declarators → [`Type`], records, enums),
//! `decl` (the file's and blocks' declarations, functions), `stmt` and `expr`.

mod decl;
mod expr;
mod stmt;
mod types;

use super::ast::*;
use super::preprocess::Preprocessed;
use crate::diag::Diagnostic;
use lang_c::span::Node;
use num_bigint::BigInt;
use std::collections::HashMap;

/// An `_invariant("…")` hint found in a function: its formula's text in the user's file
/// (the span inside the quotes), or the text alone where it came from a macro.
pub struct RawHint {
    pub function: String,
    pub text: String,
    /// Where `text` starts in the user's file, when it is there verbatim.
    pub at: Option<usize>,
    /// The literal's span (for errors when `at` is `None`).
    pub span: Span,
}

/// What parsing found.
pub struct Parsed {
    pub file: File,
    pub hints: Vec<RawHint>,
    /// Every function of the user's file (defined or declared) with its span, so that
    /// errors can be pinned to them.
    pub items: Vec<(String, Span)>,
    /// Enum constants at file scope (annotation formulas may name them).
    pub constants: HashMap<String, BigInt>,
    pub diags: Vec<Diagnostic>,
}

/// What an ordinary identifier means in a scope.
#[derive(Clone)]
enum Ordinary {
    Typedef(Type),
    Constant(BigInt, crate::ir::c::CScalar),
    Object,
}

#[derive(Clone, Copy)]
enum Tag {
    Record(RecordId),
    Enum(EnumId),
}

#[derive(Default)]
struct Scope {
    names: HashMap<String, Ordinary>,
    tags: HashMap<String, Tag>,
}

pub(crate) struct Converter<'a> {
    pre: &'a Preprocessed,
    src: &'a str,
    file: File,
    scopes: Vec<Scope>,
    current_fn: Option<String>,
    hints: Vec<RawHint>,
    items: Vec<(String, Span)>,
    diags: Vec<Diagnostic>,
}

/// Parses the preprocessed text of `src`; `Err`: a syntax error (one diagnostic).
pub fn parse(pre: &Preprocessed, src: &str) -> Result<Parsed, Vec<Diagnostic>> {
    let config = lang_c::driver::Config::with_gcc();
    let unit = match lang_c::driver::parse_preprocessed(&config, pre.text.clone()) {
        Ok(p) => p.unit,
        Err(e) => return Err(vec![syntax_error(pre, src, &e)]),
    };
    let mut c = Converter {
        pre,
        src,
        file: File::default(),
        scopes: vec![Scope::default()],
        current_fn: None,
        hints: Vec::new(),
        items: Vec::new(),
        diags: Vec::new(),
    };
    for item in &unit.0 {
        c.external(item);
    }
    let constants = c.scopes[0]
        .names
        .iter()
        .filter_map(|(n, o)| match o {
            Ordinary::Constant(v, _) => Some((n.clone(), v.clone())),
            _ => None,
        })
        .collect();
    // lang-c's tree can be deep (long operator chains): dropped here, on the big stack.
    drop(unit);
    Ok(Parsed { file: c.file, hints: c.hints, items: c.items, constants, diags: c.diags })
}

/// lang-c's syntax error at the user's position (in a header: at its `#include`).
fn syntax_error(pre: &Preprocessed, src: &str, e: &lang_c::driver::SyntaxError) -> Diagnostic {
    let at = e.offset.min(pre.text.len());
    let found = pre.text[at..]
        .split_whitespace()
        .next()
        .map_or("end of file".to_string(), |t| format!("`{}`", super::preprocess::first_token(t)));
    let header = pre.map.header_at(at);
    let mut sp = pre.map.span(at, at + 1);
    if header.is_none() && at >= pre.text.len() {
        sp = src.len()..src.len();
    }
    // The annotation operators, written in code, read to C as `==` and `>`.
    let before = &src[..sp.start.min(src.len())];
    for op in ["<==>", "==>", "=a="] {
        let head = &op[..op.len() - 1];
        if header.is_none()
            && before.ends_with(head)
            && src[sp.start..].starts_with(&op[op.len() - 1..])
        {
            let start = sp.start - head.len();
            return Diagnostic::new(
                format!("`{op}` belongs to annotation formulas, not to C code"),
                start..start + op.len(),
            )
            .with_label("not a C operator");
        }
    }
    let mut expected: Vec<&str> = e.expected.iter().map(|t| t.trim_matches('\'')).collect();
    expected.sort();
    expected.dedup();
    let message = if expected.is_empty() || expected.len() > 6 {
        format!("syntax error: unexpected {found}")
    } else {
        let list: Vec<String> = expected.iter().map(|t| format!("`{t}`")).collect();
        format!("syntax error: expected {}, found {found}", list.join(", "))
    };
    let d = Diagnostic::new(message, sp);
    match header {
        Some(h) => d.with_label(format!("in the header {}:{}, included here", h.file, h.line)),
        None => d.with_label("here"),
    }
}

impl Converter<'_> {
    /// The user's span of a lang-c span.
    fn sp(&self, s: lang_c::span::Span) -> Span {
        if s.is_none() {
            return 0..0;
        }
        self.pre.map.span(s.start, s.end)
    }

    fn in_header(&self, s: lang_c::span::Span) -> bool {
        !s.is_none() && self.pre.map.header_at(s.start).is_some()
    }

    fn ident(&self, n: &Node<lang_c::ast::Identifier>) -> Ident {
        Ident { name: n.node.name.clone(), span: self.sp(n.span) }
    }

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn lookup(&self, name: &str) -> Option<&Ordinary> {
        self.scopes.iter().rev().find_map(|s| s.names.get(name))
    }

    fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name).copied())
    }

    fn declare(&mut self, name: &str, what: Ordinary) {
        if let Some(s) = self.scopes.last_mut() {
            s.names.insert(name.to_string(), what);
        }
    }

    fn tables(&self) -> super::consts::Tables<'_> {
        super::consts::Tables { records: &self.file.records, enums: &self.file.enums }
    }
}
