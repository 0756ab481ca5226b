//! A cheap lexical pass before pest: rejects nesting deeper than `ir::MAX_DEPTH` and
//! unterminated comments, so that the (recursive) pest parser never recurses deeply.
//!
//! Recursion in the grammar happens only through brackets (`( [ {`) and through the
//! prefix keywords of `if … then … else` and quantifiers; everything else is a
//! repetition. Brackets are counted by depth; those keywords are counted per
//! "segment" (text between `;`, `{`, `}` and ForEx section headers), which bounds how
//! deeply they can nest inside one expression.

use crate::diag::Diagnostic;
use crate::ir::MAX_DEPTH;

pub fn prescan(src: &str) -> Option<Diagnostic> {
    let bytes = src.as_bytes();
    let mut depth = 0usize;
    let mut keywords = 0usize;
    let mut line_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => match src[i + 2..].find("*/") {
                Some(end) => {
                    i += 2 + end + 2;
                    continue;
                }
                None => {
                    return Some(
                        Diagnostic::new("unterminated comment", i..i + 2)
                            .with_label("this `/*` has no closing `*/`")
                            .with_hint("close the comment with `*/`"),
                    )
                }
            },
            b'"' => {
                // ForEx string literals: skipped so their contents are not counted.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // ForEx `[comment]`: free text to the end of the file.
            b'[' if line_start && src[i..].starts_with("[comment]") => return None,
            b'(' | b'[' | b'{' => {
                if b == b'[' && line_start {
                    keywords = 0;
                }
                if b == b'{' {
                    keywords = 0;
                }
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(too_deep(i));
                }
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if b == b'}' {
                    keywords = 0;
                }
            }
            b';' => keywords = 0,
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if matches!(&src[start..i], "if" | "forall" | "exists") {
                    keywords += 1;
                    if keywords > MAX_DEPTH {
                        return Some(too_deep(start));
                    }
                }
                line_start = false;
                continue;
            }
            _ => {}
        }
        if b == b'\n' {
            line_start = true;
        } else if !b.is_ascii_whitespace() {
            line_start = false;
        }
        i += 1;
    }
    None
}

fn too_deep(at: usize) -> Diagnostic {
    Diagnostic::new(format!("nesting is too deep (more than {MAX_DEPTH} levels)"), at..at + 1)
        .with_label("too deep")
        .with_hint("split the expression or program into smaller parts")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_moderate_nesting_and_rejects_deep_nesting() {
        assert!(prescan(&format!("{}x{}", "(".repeat(100), ")".repeat(100))).is_none());
        let d = prescan(&format!("{}x{}", "(".repeat(10_000), ")".repeat(10_000))).unwrap();
        assert_eq!(d.span.start, MAX_DEPTH);
        assert!(prescan(&"if c then ".repeat(10_000)).is_some());
        assert!(prescan("x = 1; /* open").is_some());
        // Keywords are counted per statement, not per file.
        assert!(prescan(&"if (a) { x = 1; }\n".repeat(1000)).is_none());
    }
}
