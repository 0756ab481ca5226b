//! The s-expression layer of the hyena0 reader: atoms and lists with byte spans.

use crate::diag::Diagnostic;
use crate::syntax::ast::Span;

pub(super) fn is_delim(c: char) -> bool {
    c.is_whitespace() || c == '(' || c == ')' || c == ';'
}

#[derive(Clone, Debug)]
pub(super) enum Sx {
    Atom(String, Span),
    List(Vec<Sx>, Span),
}

impl Sx {
    pub(super) fn span(&self) -> Span {
        match self {
            Sx::Atom(_, s) | Sx::List(_, s) => s.clone(),
        }
    }
    pub(super) fn atom(&self) -> Option<&str> {
        match self {
            Sx::Atom(a, _) => Some(a),
            Sx::List(..) => None,
        }
    }
    /// The head word of a list `(head …)` and its items after the head.
    pub(super) fn form(&self) -> Option<(&str, &[Sx])> {
        match self {
            Sx::List(items, _) => {
                let head = items.first()?.atom()?;
                Some((head, &items[1..]))
            }
            Sx::Atom(..) => None,
        }
    }
}

/// Reads every top-level s-expression; the first unbalanced parenthesis is an error.
pub(super) fn read(src: &str) -> Result<Vec<Sx>, Diagnostic> {
    let mut stack: Vec<(usize, Vec<Sx>)> = vec![(0, Vec::new())];
    let mut chars = src.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ';' => while chars.next_if(|(_, c)| *c != '\n').is_some() {},
            '(' => {
                if stack.len() > crate::ir::MAX_DEPTH {
                    return Err(Diagnostic::new("the input is nested too deeply", i..i + 1)
                        .with_label("too deep"));
                }
                stack.push((i, Vec::new()));
            }
            ')' => {
                if stack.len() == 1 {
                    return Err(Diagnostic::new("unexpected `)`", i..i + 1)
                        .with_label("no `(` to close")
                        .with_hint("remove it, or add the missing `(`"));
                }
                let (start, items) = stack.pop().unwrap_or_default();
                if let Some(top) = stack.last_mut() {
                    top.1.push(Sx::List(items, start..i + 1));
                }
            }
            c if c.is_whitespace() => {}
            _ => {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.next_if(|(_, d)| !is_delim(*d)) {
                    end = j + d.len_utf8();
                }
                if let Some(top) = stack.last_mut() {
                    top.1.push(Sx::Atom(src[i..end].to_string(), i..end));
                }
            }
        }
    }
    if stack.len() > 1 {
        let (start, _) = stack.pop().unwrap_or_default();
        return Err(Diagnostic::new("this `(` is never closed", start..start + 1)
            .with_label("unclosed")
            .with_hint("add the missing `)`"));
    }
    Ok(stack.pop().map(|s| s.1).unwrap_or_default())
}
