//! C's preprocessing tokens, found the same way in the user's file and in the
//! preprocessor's output, so that the two can be compared token by token: identifiers,
//! pp-numbers, character and string literals (with their prefixes), punctuators
//! (longest match). The user's file also has comments, line splices and directive
//! lines, which produce no tokens.

/// A token of the user's file: its bytes and the physical line (1-based) it starts on.
#[derive(Clone, Copy, Debug)]
pub(super) struct SrcTok {
    pub start: usize,
    pub end: usize,
    pub line: u32,
}

const PUNCT3: [&str; 4] = ["...", "<<=", ">>=", "%:%"];
const PUNCT2: [&str; 24] = [
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=",
    "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>",
];

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The end of the token that starts at `i` (`b[i]` is not whitespace).
pub(super) fn token_end(b: &[u8], i: usize) -> usize {
    let c = b[i];
    if ident_byte(c) && !c.is_ascii_digit() {
        let mut j = i;
        while j < b.len() && ident_byte(b[j]) {
            j += 1;
        }
        // `L"…"`, `u8'…'`: a prefixed literal is one token.
        let word = &b[i..j];
        if j < b.len()
            && (b[j] == b'"' || b[j] == b'\'')
            && matches!(word, b"L" | b"u" | b"U" | b"u8")
        {
            return quoted_end(b, j);
        }
        return j;
    }
    if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
        let mut j = i + 1;
        while j < b.len() {
            let d = b[j];
            let sign = matches!(d, b'+' | b'-') && matches!(b[j - 1], b'e' | b'E' | b'p' | b'P');
            if sign || ident_byte(d) || d == b'.' {
                j += 1;
            } else {
                break;
            }
        }
        return j;
    }
    if c == b'"' || c == b'\'' {
        return quoted_end(b, i);
    }
    for p in PUNCT3 {
        if b[i..].starts_with(p.as_bytes()) {
            return i + 3;
        }
    }
    for p in PUNCT2 {
        if b[i..].starts_with(p.as_bytes()) {
            return i + 2;
        }
    }
    // One character (UTF-8 continuation bytes are identifier bytes above).
    i + 1
}

/// The end of a character or string literal opening at `q` (unterminated: the line's end).
fn quoted_end(b: &[u8], q: usize) -> usize {
    let quote = b[q];
    let mut j = q + 1;
    while j < b.len() && b[j] != quote && b[j] != b'\n' {
        if b[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    (j + 1).min(b.len())
}

/// The tokens of one line of the preprocessor's output (`text`, at offset `base`).
pub(super) fn line_tokens(text: &str, base: usize, out: &mut Vec<(usize, usize)>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let e = token_end(b, i).min(b.len());
        out.push((base + i, base + e));
        i = e;
    }
}

/// The tokens of the user's file, without comments and directive lines.
pub(super) fn source_tokens(src: &str) -> Vec<SrcTok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut line: u32 = 1;
    let mut i = 0;
    // Whether only whitespace and comments precede `i` on its logical line.
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                line_start = true;
                i += 1;
            }
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                line += 1;
                i += 2;
            }
            b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => {
                line += 1;
                i += 3;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_comment_end(b, i, &mut line),
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i, &mut line),
            b'#' if line_start => {
                i = directive_end(b, i, &mut line);
            }
            _ => {
                let e = token_end(b, i).min(b.len());
                out.push(SrcTok { start: i, end: e, line });
                line_start = false;
                i = e;
            }
        }
    }
    out
}

fn line_comment_end(b: &[u8], mut i: usize, line: &mut u32) -> usize {
    while i < b.len() && b[i] != b'\n' {
        // A backslash at the end of a `//` line continues the comment.
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
            *line += 1;
            i += 1;
        }
        i += 1;
    }
    i
}

fn block_comment_end(b: &[u8], i: usize, line: &mut u32) -> usize {
    let mut j = i + 2;
    while j < b.len() && !(b[j] == b'*' && b.get(j + 1) == Some(&b'/')) {
        if b[j] == b'\n' {
            *line += 1;
        }
        j += 1;
    }
    (j + 2).min(b.len())
}

/// The end of the directive starting at `i` (before its line break), with its
/// continuation lines and comments.
fn directive_end(b: &[u8], mut i: usize, line: &mut u32) -> usize {
    while i < b.len() && b[i] != b'\n' {
        match b[i] {
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                *line += 1;
                i += 2;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i, line),
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_comment_end(b, i, line),
            b'"' | b'\'' => i = quoted_end(b, i),
            _ => i += 1,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<(&str, u32)> {
        source_tokens(src).iter().map(|t| (&src[t.start..t.end], t.line)).collect()
    }

    #[test]
    fn comments_directives_and_splices_give_no_tokens() {
        let src = "#include <x.h>\nint a /* c\n */ = 1.5e+3f; // x\n#define M \\\n 2\nb->c <<= L'x' \"s\\\"\";";
        assert_eq!(
            texts(src),
            [
                ("int", 2),
                ("a", 2),
                ("=", 3),
                ("1.5e+3f", 3),
                (";", 3),
                ("b", 6),
                ("->", 6),
                ("c", 6),
                ("<<=", 6),
                ("L'x'", 6),
                ("\"s\\\"\"", 6),
                (";", 6)
            ]
        );
    }

    #[test]
    fn output_lines_are_split_like_the_source() {
        let mut out = Vec::new();
        line_tokens("  x...y+=0x1p-3", 10, &mut out);
        assert_eq!(out, [(12, 13), (13, 16), (16, 17), (17, 19), (19, 25)]);
    }
}
