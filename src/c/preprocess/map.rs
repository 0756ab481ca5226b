//! From the preprocessor's output back to the user's file. Line markers (`# 12 "f.c"`)
//! give each output line its file and line; within a line, gcc collapses whitespace and
//! replaces macro uses by their expansions, so the tokens of an output line are aligned
//! with the tokens of the source line: the literal runs between macro uses must appear
//! in the output in order, and what lies between them is the expansion of the macro use
//! in between, mapped to that use's span. Tokens of headers map to the `#include` line
//! that brought them in, with the header's name and line for notes.

use super::lex::{line_tokens, source_tokens, SrcTok};
use crate::c::ast::Span;
use std::collections::HashMap;

/// A place in a header: the `#include` line of the user's file that led to it, and the
/// header's own name and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderLoc {
    pub include: Span,
    pub file: String,
    pub line: u32,
}

/// A macro defined when the preprocessor was done.
#[derive(Clone, Debug)]
pub struct Macro {
    pub function_like: bool,
    /// The replacement text (for function-like macros, after the parameter list).
    pub body: String,
}

const NO_HEADER: u32 = u32::MAX;

/// Each token of the preprocessed text with the span in the user's file it comes from.
#[derive(Debug, Default)]
pub struct PositionMap {
    /// Start offsets of the tokens in the preprocessed text (ascending), their ends,
    /// their spans in the user's file, and the header they come from (`NO_HEADER`: none).
    starts: Vec<u32>,
    ends: Vec<u32>,
    spans: Vec<(u32, u32)>,
    header: Vec<u32>,
    headers: Vec<HeaderLoc>,
}

impl PositionMap {
    /// The index of the first token starting at or after `offset`.
    fn first_at(&self, offset: usize) -> Option<usize> {
        let i = self.starts.partition_point(|&s| (s as usize) < offset);
        (i < self.starts.len()).then_some(i)
    }

    /// The index of the last token ending at or before `offset`.
    fn last_before(&self, offset: usize) -> Option<usize> {
        let i = self.ends.partition_point(|&e| (e as usize) <= offset);
        i.checked_sub(1)
    }

    /// The user's span for the preprocessed range `start..end` (a header's tokens: the
    /// `#include` line that brought them in).
    pub fn span(&self, start: usize, end: usize) -> Span {
        let Some(a) = self.first_at(start).or_else(|| self.last_before(start)) else {
            return 0..0;
        };
        let b = self.last_before(end).filter(|&b| b >= a).unwrap_or(a);
        let sa = self.user_span(a);
        let sb = self.user_span(b);
        if sb.start >= sa.start && self.header[a] == NO_HEADER && self.header[b] == NO_HEADER {
            sa.start..sb.end.max(sa.end)
        } else {
            sa
        }
    }

    fn user_span(&self, i: usize) -> Span {
        match self.header[i] {
            NO_HEADER => self.spans[i].0 as usize..self.spans[i].1 as usize,
            h => self.headers[h as usize].include.clone(),
        }
    }

    /// The header the preprocessed offset lies in, if any.
    pub fn header_at(&self, offset: usize) -> Option<&HeaderLoc> {
        let i = self.first_at(offset).or_else(|| self.last_before(offset))?;
        match self.header[i] {
            NO_HEADER => None,
            h => self.headers.get(h as usize),
        }
    }

    fn push(&mut self, p: (usize, usize), span: Span, header: u32) {
        self.starts.push(p.0 as u32);
        self.ends.push(p.1 as u32);
        self.spans.push((span.start as u32, span.end as u32));
        self.header.push(header);
    }
}

/// What the walk over the output found.
pub struct Walked {
    pub map: PositionMap,
    pub macros: HashMap<String, Macro>,
}

/// A line marker `# 12 "file" 1 3`: the line, the file, the flags.
fn marker(line: &str) -> Option<(u32, String, Vec<u32>)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let n: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.char_indices();
    let mut close = rest.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, d)) = chars.next() {
                    name.push(d);
                }
            }
            '"' => {
                close = i + 1;
                break;
            }
            c => name.push(c),
        }
    }
    let flags = rest[close.min(rest.len())..].split_whitespace().filter_map(|f| f.parse().ok());
    Some((n, name, flags.collect()))
}

/// `#define NAME…` / `#undef NAME` (as `-dD` prints them) applied to `macros`.
fn directive(line: &str, macros: &mut HashMap<String, Macro>) {
    let rest = line.trim_start().trim_start_matches('#').trim_start();
    let word = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').count();
    if let Some(def) = rest.strip_prefix("define ") {
        let def = def.trim_start();
        let n = word(def);
        let name = def[..n].to_string();
        let after = &def[n..];
        let m = if let Some(params) = after.strip_prefix('(') {
            let close = params.find(')').map_or(params.len(), |c| c + 1);
            Macro { function_like: true, body: params[close..].trim().to_string() }
        } else {
            Macro { function_like: false, body: after.trim().to_string() }
        };
        if !name.is_empty() {
            macros.insert(name, m);
        }
    } else if let Some(un) = rest.strip_prefix("undef ") {
        let un = un.trim_start();
        macros.remove(&un[..word(un)]);
    }
}

/// Macros the preprocessor knows without a `#define`.
fn builtin_macro(name: &str) -> bool {
    matches!(
        name,
        "__FILE__"
            | "__LINE__"
            | "__COUNTER__"
            | "__DATE__"
            | "__TIME__"
            | "__TIMESTAMP__"
            | "__INCLUDE_LEVEL__"
            | "__BASE_FILE__"
    )
}

/// Walks the preprocessor's output `out` of the user's file `src`.
pub fn walk(src: &str, out: &str) -> Walked {
    let otoks = source_tokens(src);
    let line_starts: Vec<usize> =
        std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect();
    // The first source token of each line (`otoks.len()` past the last).
    let mut line_first = vec![otoks.len(); line_starts.len() + 2];
    for (k, t) in otoks.iter().enumerate().rev() {
        line_first[t.line as usize] = k;
    }
    for l in (0..line_first.len() - 1).rev() {
        line_first[l] = line_first[l].min(line_first[l + 1]);
    }
    let line_span = |l: u32| -> Span {
        let l = (l as usize).clamp(1, line_starts.len());
        let start = line_starts[l - 1];
        let end = src[start..].find('\n').map_or(src.len(), |e| start + e);
        let text = &src[start..end];
        let lead = text.len() - text.trim_start().len();
        start + lead..start + text.trim_end().len().max(lead)
    };
    let mut w = Walked { map: PositionMap::default(), macros: HashMap::new() };
    let mut user_name: Option<String> = None;
    // The include stack: (file, included from the user's line).
    let mut stack: Vec<String> = Vec::new();
    let mut include_line: u32 = 0;
    let mut file = String::new();
    let mut line: u32 = 1;
    let mut cursor = 0usize;
    let mut ptoks: Vec<(usize, usize)> = Vec::new();
    let mut header_idx = NO_HEADER;
    let mut offset = 0usize;
    for text in out.split_inclusive('\n') {
        let here = offset;
        offset += text.len();
        let body = text.trim_end_matches(['\n', '\r']);
        if body.trim_start().starts_with('#') {
            if let Some((n, name, flags)) = marker(body) {
                if user_name.is_none() {
                    user_name = Some(name.clone());
                }
                let at_user = stack.is_empty() && Some(&file) == user_name.as_ref();
                if flags.contains(&1) {
                    if at_user {
                        include_line = line;
                    }
                    stack.push(file.clone());
                } else if flags.contains(&2) {
                    stack.pop();
                }
                file = name;
                line = n;
                header_idx = NO_HEADER;
            } else {
                directive(body, &mut w.macros);
                line += 1;
            }
            continue;
        }
        ptoks.clear();
        line_tokens(body, here, &mut ptoks);
        let user = stack.is_empty() && Some(&file) == user_name.as_ref();
        if user {
            let from = cursor.max(line_first[(line as usize).min(line_first.len() - 1)]);
            let (spans, next) = align(src, out, &otoks, from, line, &ptoks, &w.macros);
            let spans = spans.unwrap_or_else(|| {
                // No alignment: every token points at the line.
                let s = match otoks.get(from).filter(|t| t.line == line) {
                    Some(first) => {
                        let last = otoks[from..next.max(from + 1)].last().unwrap_or(first);
                        first.start..last.end
                    }
                    None => line_span(line),
                };
                vec![s; ptoks.len()]
            });
            cursor = cursor.max(next);
            for (p, s) in ptoks.iter().zip(spans) {
                w.map.push(*p, s, NO_HEADER);
            }
        } else if !ptoks.is_empty() {
            if header_idx == NO_HEADER
                || w.map.headers.last().is_some_and(|h| h.line != line || h.file != file)
            {
                w.map.headers.push(HeaderLoc {
                    include: line_span(include_line),
                    file: file.clone(),
                    line,
                });
                header_idx = (w.map.headers.len() - 1) as u32;
            }
            for p in &ptoks {
                w.map.push(*p, 0..0, header_idx);
            }
        }
        line += 1;
    }
    w
}

/// One unit of a source line: a token, or a macro use (a name, with its arguments).
enum Unit {
    Tok(usize),
    Macro(usize, usize),
}

/// Aligns the output tokens `ptoks` of source line `line` with the source tokens from
/// `from` on: each output token's span (`None`: no alignment), and the index of the
/// first source token not consumed.
fn align(
    src: &str,
    out: &str,
    otoks: &[SrcTok],
    from: usize,
    line: u32,
    ptoks: &[(usize, usize)],
    macros: &HashMap<String, Macro>,
) -> (Option<Vec<Span>>, usize) {
    let text = |t: &SrcTok| &src[t.start..t.end];
    let mut units = Vec::new();
    let mut i = from;
    while i < otoks.len() && otoks[i].line == line {
        let word = text(&otoks[i]);
        let def = macros.get(word);
        let called = otoks.get(i + 1).is_some_and(|t| text(t) == "(");
        match def {
            Some(m) if m.function_like && called => {
                let mut depth = 0usize;
                let mut j = i + 1;
                while j < otoks.len() {
                    match text(&otoks[j]) {
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
                let j = j.min(otoks.len() - 1);
                units.push(Unit::Macro(i, j));
                let crossed = otoks[j].line != line;
                i = j + 1;
                if crossed {
                    // The rest of that line is the next output line.
                    break;
                }
            }
            Some(m) if !m.function_like => {
                units.push(Unit::Macro(i, i));
                i += 1;
            }
            _ if builtin_macro(word) => {
                units.push(Unit::Macro(i, i));
                i += 1;
            }
            _ => {
                units.push(Unit::Tok(i));
                i += 1;
            }
        }
    }
    let next = i;
    let ptext = |k: usize| &out[ptoks[k].0..ptoks[k].1];
    let mut spans: Vec<Span> = Vec::with_capacity(ptoks.len());
    let mut p = 0;
    // The macro uses whose expansion comes next in the output.
    let mut pending: Option<Span> = None;
    let mut u = 0;
    while u < units.len() {
        if let Unit::Macro(a, b) = units[u] {
            let s = otoks[a].start..otoks[b].end;
            pending = Some(match pending {
                Some(q) => q.start..s.end,
                None => s,
            });
            u += 1;
            continue;
        }
        // A run of plain tokens.
        let run_start = u;
        while u < units.len() && matches!(units[u], Unit::Tok(_)) {
            u += 1;
        }
        let run: Vec<usize> =
            units[run_start..u].iter().map(|x| if let Unit::Tok(k) = x { *k } else { 0 }).collect();
        let last = u == units.len();
        let matches_at = |q: usize| {
            q + run.len() <= ptoks.len()
                && run.iter().enumerate().all(|(k, &o)| ptext(q + k) == text(&otoks[o]))
        };
        let q = match &pending {
            None if matches_at(p) && (!last || p + run.len() == ptoks.len()) => p,
            None => return (None, next),
            Some(_) if last => {
                let q = ptoks.len().checked_sub(run.len()).filter(|&q| q >= p);
                match q.filter(|&q| matches_at(q)) {
                    Some(q) => q,
                    None => return (None, next),
                }
            }
            Some(_) => match (p..=ptoks.len().saturating_sub(run.len())).find(|&q| matches_at(q)) {
                Some(q) => q,
                None => return (None, next),
            },
        };
        let expansion = pending.take().unwrap_or(0..0);
        spans.extend((p..q).map(|_| expansion.clone()));
        spans.extend(run.iter().map(|&o| otoks[o].start..otoks[o].end));
        p = q + run.len();
    }
    match pending {
        Some(s) => spans.extend((p..ptoks.len()).map(|_| s.clone())),
        None if p != ptoks.len() => return (None, next),
        None => {}
    }
    (Some(spans), next)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The source text each output token maps to.
    fn mapped(src: &str, out: &str) -> Vec<(String, String)> {
        let w = walk(src, out);
        (0..w.map.starts.len())
            .filter(|&i| w.map.header[i] == NO_HEADER)
            .map(|i| {
                let p = &out[w.map.starts[i] as usize..w.map.ends[i] as usize];
                let s = w.map.spans[i];
                (p.to_string(), src[s.0 as usize..s.1 as usize].to_string())
            })
            .collect()
    }

    #[test]
    fn macro_uses_map_to_their_spans_across_lines() {
        let src = "#define SQ(a) ((a) * (a))\n#define N 10\nint z = SQ(x +\n 1) + N;\n";
        let out = "# 1 \"<stdin>\"\n#define SQ(a) ((a) * (a))\n#define N 10\nint z = ((x + 1) * (x + 1))\n + 10;\n";
        let m = mapped(src, out);
        let as_pairs: Vec<(&str, &str)> = m.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        assert_eq!(as_pairs[..4], [("int", "int"), ("z", "z"), ("=", "="), ("(", "SQ(x +\n 1)")]);
        assert_eq!(as_pairs[as_pairs.len() - 3..], [("+", "+"), ("10", "N"), (";", ";")]);
    }

    #[test]
    fn header_tokens_point_at_the_include() {
        let src = "#include \"h.h\"\nint y;\n";
        let out = "# 1 \"<stdin>\"\n# 1 \"h.h\" 1\nint hf(int);\n# 2 \"<stdin>\" 2\nint y;\n";
        let w = walk(src, out);
        let at = out.find("hf").unwrap();
        assert_eq!(w.map.span(at, at + 2), 0..14);
        let h = w.map.header_at(at).unwrap();
        assert_eq!((h.file.as_str(), h.line), ("h.h", 1));
        let y = out.rfind('y').unwrap();
        assert_eq!(w.map.span(y, y + 1), 19..20);
    }
}
