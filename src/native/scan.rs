//! Just enough C lexing to find where a function's body opens, so the harness can add one
//! declaration there (the capture of the parameters' final values). Comments, string and
//! character literals and preprocessor lines are skipped; nothing else of C is understood.
//! (The C front end owns C syntax; this only needs byte offsets in the user's text.)

/// A token: identifier or single punctuation character, with its byte range and line.
#[derive(Debug, PartialEq, Eq)]
struct Token<'s> {
    text: &'s str,
    start: usize,
    line: u32,
}

fn tokens(src: &str) -> Vec<Token<'_>> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0c | 0x0b => {
                i += 1;
                continue;
            }
            b'#' if line_start => {
                // A preprocessor line, with its backslash continuations.
                while i < bytes.len() && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
                        line += 1;
                        i += 1;
                    }
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        line_start = false;
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                if bytes[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i = (i + 2).min(bytes.len());
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token { text: &src[start..i], start, line });
        } else {
            // One byte of punctuation (multi-byte UTF-8 in code is not C; skip it whole).
            let len = src[i..].chars().next().map_or(1, char::len_utf8);
            out.push(Token { text: &src[i..i + len], start: i, line });
            i += len;
        }
    }
    out
}

/// The byte offset just after the `{` that opens the definition of function `name`, the
/// first definition at or after 1-based line `line` (0: anywhere). `None` when there is
/// no such definition (`name(…) {` with balanced parentheses).
pub fn body_start(src: &str, name: &str, line: u32) -> Option<usize> {
    let toks = tokens(src);
    for (k, t) in toks.iter().enumerate() {
        if t.text != name || t.line < line || toks.get(k + 1).map(|t| t.text) != Some("(") {
            continue;
        }
        let mut depth = 0;
        let mut j = k + 1;
        while j < toks.len() {
            match toks[j].text {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if let Some(open) = toks.get(j + 1).filter(|t| t.text == "{") {
            return Some(open.start + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_definition_not_the_declaration_or_a_call() {
        let src = "#define F(x) { x }\nint f(int x);\n/* f(1) { */ int g(int y) { return f(y); }\n\
                   int f(int x[(2)]) {\n  return \"f(\"[0];\n}\n";
        let at = body_start(src, "f", 0).unwrap();
        assert_eq!(&src[at - 19..at], "int f(int x[(2)]) {");
        let g = body_start(src, "g", 3).unwrap();
        assert_eq!(&src[g - 1..g + 8], "{ return ");
        assert_eq!(body_start(src, "h", 0), None);
    }
}
