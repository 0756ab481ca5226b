//! ForEx-format files: `[forall]`/`[exists]` programs, `[pre]`, `[post]`, `[inv]`,
//! `[asynchronous]`, `[maxC]`, `[minC]`. One file is one tuple named after the file.
//!
//! Naming: copy `k` (the `[forall]` sections in file order, then the `[exists]`
//! sections) is called `c<k>` and instantiates program `p<k>`; a formula's `x_k` is
//! variable `x` of copy `k`.

use super::ast::{CopyDecl, Expr, File, Ident, Program, Span, Tuple};
use super::build::{kids, span, true_lit, Builder, Names};
use super::Rule;
use crate::diag::Diagnostic;
use crate::ir::Quantifier;
use pest::iterators::Pair;

pub fn file(b: &mut Builder, p: &Pair<Rule>, stem: &str) -> File {
    let sections = kids(p);
    let mut programs: Vec<(Quantifier, &Pair<Rule>)> = Vec::new();
    for s in &sections {
        match s.as_rule() {
            Rule::sec_forall => programs.push((Quantifier::Forall, s)),
            Rule::sec_exists => programs.push((Quantifier::Exists, s)),
            _ => {}
        }
    }
    // ∀ copies take the low indices, then the ∃ copies, each group in file order.
    programs.sort_by_key(|(q, _)| *q == Quantifier::Exists);
    let copies = programs.len();
    let end = b.src.len();
    let mut out = File::default();
    let mut t = Tuple {
        name: Ident { name: stem.to_string(), span: 0..0 },
        span: 0..end,
        ..Tuple::default()
    };
    for (k, (quantifier, s)) in programs.iter().enumerate() {
        b.names = Names::Program;
        let header = header_span(s);
        let (defs, items): (Vec<_>, Vec<_>) =
            kids(s).into_iter().partition(|c| c.as_rule() == Rule::function_def);
        let mut functions = Vec::new();
        for f in &defs {
            match b.function(f) {
                Ok(f) => functions.push(f),
                Err(_) => out.broken_functions.push(kids(f)[1].as_str().to_string()),
            }
        }
        let items = b.body(&items);
        let name = Ident { name: format!("p{k}"), span: header.clone() };
        out.programs.push(Program { name: name.clone(), functions, items, span: span(s) });
        t.copies.push(CopyDecl {
            name: Ident { name: format!("c{k}"), span: header },
            program: name,
            quantifier: *quantifier,
        });
    }
    if copies == 0 {
        b.diags.push(
            Diagnostic::new("this ForEx file has no `[forall]` or `[exists]` program", 0..0)
                .with_label("no programs")
                .with_hint("start the file with a `[forall]` section holding a program"),
        );
    }
    b.names = Names::ForexFormula { copies };
    let mut seen: Vec<(&str, Span)> = Vec::new();
    for s in &sections {
        let name = section_name(s.as_rule());
        let header = header_span(s);
        if s.as_rule() == Rule::sec_unknown {
            let found = kids(s).first().map(|i| i.as_str().to_string()).unwrap_or_default();
            b.diags.push(
                Diagnostic::new(format!("unknown section `[{found}]`"), header)
                    .with_label("not a ForEx section")
                    .with_hint(match crate::diag::suggest(&found, SECTIONS.iter().copied()) {
                        Some(s) => format!("did you mean `[{s}]`? write `[{s}]` instead"),
                        None => format!(
                            "the sections are {}",
                            SECTIONS.map(|s| format!("[{s}]")).join(", ")
                        ),
                    }),
            );
            continue;
        }
        if !matches!(s.as_rule(), Rule::sec_forall | Rule::sec_exists | Rule::sec_inv) {
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                b.diags.push(
                    Diagnostic::new(format!("section `[{name}]` appears twice"), header)
                        .with_label("second one")
                        .with_related(first.clone(), "first one"),
                );
                continue;
            }
            seen.push((name, header.clone()));
        }
        let k = kids(s);
        match s.as_rule() {
            Rule::sec_pre => t.pre = formula(b, &k[0]),
            Rule::sec_post => t.post = formula(b, &k[0]),
            Rule::sec_inv => {
                if let Some(e) = formula(b, &k[0]) {
                    t.invariants.push(e);
                }
            }
            Rule::sec_async => t.align = b.small_int(&k[0]).ok().map(|n| (n, span(&k[0]))),
            Rule::sec_maxc => t.max_conjuncts = b.small_int(&k[0]).ok().map(|n| (n, span(&k[0]))),
            Rule::sec_minc => t.min_conjuncts = b.small_int(&k[0]).ok().map(|n| (n, span(&k[0]))),
            Rule::sec_tracebound => t.trace_bound = b.small_int(&k[0]).ok(),
            Rule::sec_onlyhints => t.only_hints = k.first().is_none_or(|v| v.as_str() == "true"),
            _ => {}
        }
    }
    if !seen.iter().any(|(n, _)| *n == "post") {
        b.diags.push(
            Diagnostic::new("this ForEx file has no `[post]` section", end..end)
                .with_label("missing `[post]`")
                .with_hint("add a `[post]` section with the postcondition, e.g. `o_0 == o_1`"),
        );
    }
    if t.pre.is_none() && !seen.iter().any(|(n, _)| *n == "pre") {
        t.pre = Some(true_lit(0..0));
    }
    if copies > 0 {
        out.tuples.push(t);
    }
    out
}

/// The sections of the ForEx format, as written in headers.
pub const SECTIONS: [&str; 13] = [
    "forall",
    "exists",
    "pre",
    "post",
    "inv",
    "asynchronous",
    "maxC",
    "minC",
    "traceBound",
    "onlyHints",
    "z3",
    "cvc5",
    "comment",
];

/// Lines holding only `[name]` with an unknown name: each is reported, and it and its
/// text up to the next line starting with `[` are blanked (offsets kept), so they are
/// never read as part of a formula (`x_1` then `[traceBund]`). Returns the blanked
/// source when anything was blanked.
pub fn unknown_sections(src: &str) -> (Option<String>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut out = String::with_capacity(src.len());
    let mut blanking = false;
    for line in src.split_inclusive('\n') {
        let start = out.len();
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            blanking = false;
        }
        if trimmed.starts_with("[comment]") {
            out.push_str(&src[start..]);
            break;
        }
        let name = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')).map(str::trim);
        let unknown = name.filter(|n| {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !SECTIONS.iter().any(|s| s.eq_ignore_ascii_case(n))
        });
        if let Some(name) = unknown {
            let at = start + line.find('[').unwrap_or(0);
            let hint = match crate::diag::suggest(name, SECTIONS.iter().copied()) {
                Some(s) => format!("did you mean `[{s}]`? write `[{s}]` instead"),
                None => {
                    format!("the sections are {}", SECTIONS.map(|s| format!("[{s}]")).join(", "))
                }
            };
            diags.push(
                Diagnostic::new(format!("unknown section `[{name}]`"), at..at + trimmed.len())
                    .with_label("not a ForEx section")
                    .with_hint(hint),
            );
            blanking = true;
        }
        if blanking {
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
            // Keep byte offsets: a multi-byte character becomes as many spaces.
            let pad = line.len() - line.chars().count();
            out.extend(std::iter::repeat_n(' ', pad));
        } else {
            out.push_str(line);
        }
    }
    if diags.is_empty() {
        (None, diags)
    } else {
        (Some(out), diags)
    }
}

fn formula(b: &mut Builder, p: &Pair<Rule>) -> Option<Expr> {
    b.expr(p).ok()
}

fn section_name(rule: Rule) -> &'static str {
    match rule {
        Rule::sec_forall => "forall",
        Rule::sec_exists => "exists",
        Rule::sec_pre => "pre",
        Rule::sec_post => "post",
        Rule::sec_inv => "inv",
        Rule::sec_async => "asynchronous",
        Rule::sec_maxc => "maxC",
        Rule::sec_minc => "minC",
        Rule::sec_tracebound => "traceBound",
        Rule::sec_onlyhints => "onlyHints",
        Rule::sec_solver => "solver",
        Rule::sec_comment => "comment",
        _ => "?",
    }
}

/// The `[name]` header at the start of a section.
fn header_span(s: &Pair<Rule>) -> Span {
    let start = s.as_span().start();
    let text = s.as_str();
    start..start + text.find(']').map(|i| i + 1).unwrap_or(text.len().min(1))
}
