//! String literals as arguments of the `str*` functions (`strcmp(s, "abc")`,
//! `strncmp(s, "ab", 2)`, `strlen("abc")`): a literal's bytes are constants, so a walk
//! over one is unrolled over its `NUL`-terminated bytes and reads them where it would
//! load an element. Anything else done with a literal (storing it, `strcpy` from it,
//! pointing at it) stays a diagnostic.

use super::super::place::Ptr;
use super::super::Lowerer;
use super::UNROLL;
use crate::c::ast;

/// A `str*` argument: a pointer into the program's objects, or a literal's bytes (its
/// terminating `NUL` included).
pub(crate) enum Text {
    Ptr(Ptr),
    Lit(Vec<u8>),
}

/// The bytes of the C string literal whose text between the quotes is `raw` (adjacent
/// literals already joined), with C's escapes decoded; `Err` names an escape forex does
/// not read.
pub fn decode(raw: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let e = chars.next().ok_or("a `\\` at the end")?;
        let byte = match e {
            'n' => b'\n',
            't' => b'\t',
            'r' => b'\r',
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            '\\' | '\'' | '"' | '?' => e as u8,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                u8::try_from(v).map_err(|_| format!("the octal escape `\\{v:o}` is above 255"))?
            }
            'x' => {
                let mut v: u32 = 0;
                let mut digits = 0;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d);
                    digits += 1;
                    chars.next();
                }
                if digits == 0 {
                    return Err("`\\x` without hex digits".into());
                }
                u8::try_from(v).map_err(|_| "a hex escape above `\\xff`".to_string())?
            }
            other => return Err(format!("the escape `\\{other}`")),
        };
        out.push(byte);
    }
    out.push(0);
    Ok(out)
}

impl Lowerer<'_, '_> {
    /// Argument `k` of `name` when it is a string literal: `Some(Some(bytes))`, or
    /// `Some(None)` after a diagnostic (an escape forex does not read, a literal too long
    /// to unroll); `None` when the argument is no literal.
    pub(crate) fn literal_text(&mut self, name: &str, a: &ast::Expr) -> Option<Option<Vec<u8>>> {
        let ast::ExprKind::Str(raw) = &a.kind else { return None };
        let bytes = match decode(raw) {
            Ok(b) => b,
            Err(what) => {
                self.err(
                    format!("`{name}` of a string literal with {what}: forex does not read it"),
                    &a.span,
                    "this literal",
                );
                return Some(None);
            }
        };
        if bytes.len() as u64 > UNROLL {
            self.err(
                format!(
                    "`{name}` of a string literal longer than {} characters: forex unrolls \
                     the walk over a literal",
                    UNROLL - 1
                ),
                &a.span,
                "this literal",
            );
            return Some(None);
        }
        Some(Some(bytes))
    }

    /// Argument `k` of a `str*` function that reads it: a literal or a `char` pointer.
    pub(crate) fn text(
        &mut self,
        name: &str,
        k: usize,
        a: &ast::Expr,
        out: &mut Vec<crate::ir::Stmt>,
    ) -> Option<Text> {
        match self.literal_text(name, a) {
            Some(bytes) => bytes.map(Text::Lit),
            None => self.string(name, k, a, out).map(Text::Ptr),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn escapes_decode_as_c_reads_them() {
        assert_eq!(decode("ab").unwrap(), b"ab\0");
        assert_eq!(decode(r"a\n\t\\\x41\101\0z").unwrap(), b"a\n\t\\AA\0z\0");
        assert!(decode(r"\q").is_err());
        assert!(decode(r"\x100").is_err());
    }
}
