//! Top-level items of a `.fe` file found lexically (without pest), so that an error can
//! be pinned to the `program`, `tuple` or function it lies in, and a syntax error can be
//! blanked out to parse the rest of the file.

use std::ops::Range;

/// What a top-level item defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Program,
    Tuple,
    /// A function, or text that is none of the above.
    Other,
}

/// One top-level item: its kind, its name (the word after `program`/`tuple`) and its
/// byte range, from its first word to its closing `}` (or `;` for a shorthand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    pub name: String,
    pub span: Range<usize>,
}

/// The top-level items of `src`: text between depth-0 item ends, skipping comments and
/// string literals. Unbalanced braces make the last item run to the end of the file.
pub fn items(src: &str) -> Vec<Item> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut i) = (0usize, 0usize);
    let mut start: Option<usize> = None;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = src[i..].find('\n').map_or(bytes.len(), |n| i + n);
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = src[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 2);
            continue;
        }
        if !c.is_ascii_whitespace() && start.is_none() {
            start = Some(i);
        }
        match c {
            b'"' => {
                let close = src[i + 1..].find(['"', '\n']).map_or(bytes.len(), |n| i + 1 + n);
                i = close + 1;
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.extend(start.take().map(|s| item(src, s..i + 1)));
                }
            }
            b';' if depth == 0 => out.extend(start.take().map(|s| item(src, s..i + 1))),
            _ => {}
        }
        i += 1;
    }
    out.extend(start.map(|s| item(src, s..src.len())));
    out
}

fn item(src: &str, span: Range<usize>) -> Item {
    let mut words = src[span.clone()]
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    let kind = match words.next() {
        Some("program") => ItemKind::Program,
        Some("tuple") => ItemKind::Tuple,
        _ => ItemKind::Other,
    };
    let name = if kind == ItemKind::Other { "" } else { words.next().unwrap_or("") };
    Item { kind, name: name.to_string(), span }
}

/// `src` with the bytes of `span` replaced by spaces (newlines kept), so that offsets,
/// lines and columns of everything else stay the same.
pub fn blank(src: &str, span: &Range<usize>) -> String {
    let mut out = String::with_capacity(src.len());
    out.push_str(&src[..span.start]);
    for c in src[span.clone()].chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out.push_str(&src[span.end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_skip_comments_strings_and_nested_braces() {
        let src = "// program x {\nprogram p { if (a) { s = \"}\"; } }\n/* } */ tuple t = ni(p, low: [a], high: [], out: [s]);\nint f(int a) { return a; }\ntuple u { forall a: p; ";
        let got: Vec<(ItemKind, &str, &str)> =
            items(src).iter().map(|i| (i.kind.clone(), &src[i.span.clone()], "")).collect();
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0].1, "program p { if (a) { s = \"}\"; } }");
        assert_eq!(got[1].1, "tuple t = ni(p, low: [a], high: [], out: [s]);");
        assert_eq!(got[2].0, ItemKind::Other);
        assert_eq!(got[3].1, "tuple u { forall a: p; ");
        let names: Vec<String> = items(src).into_iter().map(|i| i.name).collect();
        assert_eq!(names, ["p", "t", "", "u"]);
    }

    #[test]
    fn blanking_keeps_offsets_and_lines() {
        let src = "ab\ncé\nd";
        let b = blank(src, &(1..6));
        assert_eq!(b.len(), src.len());
        assert_eq!(b, "a \n   \nd");
    }
}
