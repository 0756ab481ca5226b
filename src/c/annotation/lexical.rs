//! Block comments of the user's file, where annotations live, found by scanning (strings
//! and `//` comments skipped; preprocessor lines noted).

use crate::c::ast::Span;

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
