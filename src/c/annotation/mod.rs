//! The tuples of a `.c` file, read from its comments: the `@ELAENIA` header (one ∀∃
//! tuple, library specs) and forex's own `/*@forex … */` comments (`.fe` tuples and
//! shorthands over C functions), into [`TupleSpec`]s; and the formulas of
//! `_invariant("…")` hints. Formulas are C expressions with annotation-only forms, parsed
//! by pest over the `c_` rules of grammar.pest (`builder`, `expr`); `lexical` finds the
//! comments.

mod builder;
mod expr;
mod lexical;

pub(crate) use builder::Builder;
pub(crate) use lexical::{lexical, Comment};

use super::ast::*;
use super::parse::RawHint;
use crate::syntax::Rule;
use pest::iterators::Pair;

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    s.start()..s.end()
}

fn ident(p: &Pair<Rule>) -> Ident {
    Ident { name: p.as_str().to_string(), span: span(p) }
}

/// Which annotation a block comment holds, if any.
pub(crate) fn kind(src: &str, c: &Comment) -> Option<&'static str> {
    let body = src[c.body.clone()].trim_start();
    if body.starts_with("@ELAENIA") {
        Some("@ELAENIA")
    } else if body.starts_with("@forex") {
        Some("@forex")
    } else {
        None
    }
}

/// The comment's body with the ` * ` decoration that starts its lines blanked.
fn undecorated(src: &str, body: &Span) -> String {
    let mut text = src.to_string();
    let mut line_start = false;
    let bytes = src.as_bytes();
    let mut i = body.start;
    while i < body.end {
        let b = bytes[i];
        if b == b'\n' {
            line_start = true;
        } else if line_start && b == b'*' {
            let next = bytes.get(i + 1).copied().unwrap_or(b'\n');
            if next.is_ascii_whitespace() && !src[i..].starts_with("*/") {
                text.replace_range(i..i + 1, " ");
            }
            line_start = false;
        } else if !b.is_ascii_whitespace() {
            line_start = false;
        }
        i += 1;
    }
    text
}

/// Reads the `@ELAENIA` header in `comment` into `file` (its one tuple named `stem`).
pub(crate) fn elaenia(b: &mut Builder, comment: &Comment, stem: &str, file: &mut File) {
    let text = undecorated(b.src, &comment.body);
    let mut sub = Builder::new(&text, b.defines);
    let mut forall: Option<Ident> = None;
    let mut exists: Option<Ident> = None;
    let mut pre = Vec::new();
    let mut post = Vec::new();
    let parsed = sub.with_part(Rule::c_elaenia, &comment.body, |sb, p| {
        for e in p.into_inner() {
            match e.as_rule() {
                Rule::c_el_copy => {
                    let mut i = e.into_inner();
                    let q = i.next()?;
                    let f = ident(&i.next()?);
                    if q.as_str() == "forall" {
                        forall = Some(f);
                    } else {
                        exists = Some(f);
                    }
                }
                Rule::c_el_formula => {
                    let mut i = e.into_inner();
                    let key = i.next()?;
                    let Some(f) = sb.expr(i.next()?) else { continue };
                    if key.as_str() == "pre" {
                        pre.push(f);
                    } else {
                        post.push(f);
                    }
                }
                Rule::c_el_specs => {
                    let mut i = e.into_inner();
                    let existential = i.next()?.as_str() == "especs";
                    for s in i {
                        if let Some(spec) = spec(sb, s) {
                            if existential {
                                file.especs.push(spec);
                            } else {
                                file.aspecs.push(spec);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Some(())
    });
    b.diags.append(&mut sub.diags);
    if parsed.is_none() {
        return;
    }
    let at = comment.span.start..comment.span.start + 2 + "@ELAENIA".len();
    let (Some(f), Some(g)) = (forall, exists) else {
        b.error("the @ELAENIA header needs `forall: F;` and `exists: G;`", at, "incomplete header");
        return;
    };
    let mut aliases = vec![
        ("forall".to_string(), 0),
        ("left".to_string(), 0),
        ("exists".to_string(), 1),
        ("right".to_string(), 1),
    ];
    let (n0, n1) = if f.name != g.name {
        aliases.push((f.name.clone(), 0));
        aliases.push((g.name.clone(), 1));
        (f.name.clone(), g.name.clone())
    } else {
        ("forall".to_string(), "exists".to_string())
    };
    let copies = vec![
        (Ident { name: n0, span: f.span.clone() }, f.clone(), false),
        (Ident { name: n1, span: g.span.clone() }, g.clone(), true),
    ];
    file.tuples.push(TupleSpec {
        name: Ident { name: stem.to_string(), span: at.clone() },
        copies,
        pre,
        post,
        invariants: Vec::new(),
        aliases,
        span: at,
        shorthand: false,
    });
    file.elaenia = true;
}

fn spec(b: &mut Builder, p: Pair<Rule>) -> Option<Spec> {
    let mut i = p.into_inner();
    let name = ident(&i.next()?);
    let mut out = Spec { name, params: Vec::new(), choice_vars: Vec::new(), pre: None, post: None };
    for q in i {
        match q.as_rule() {
            Rule::c_ident => out.params.push(ident(&q)),
            Rule::c_spec_choice => out.choice_vars.extend(q.into_inner().map(|v| ident(&v))),
            Rule::c_spec_formula => {
                let mut j = q.into_inner();
                let key = j.next()?;
                let f = b.expr(j.next()?)?;
                if key.as_str() == "pre" {
                    out.pre = Some(f);
                } else {
                    out.post = Some(f);
                }
            }
            _ => {}
        }
    }
    Some(out)
}

/// Reads the tuples of one `@forex` comment into `file`.
pub(crate) fn forex(b: &mut Builder, comment: &Comment, file: &mut File) {
    b.with_part(Rule::c_forex, &comment.body, |b, p| {
        for t in p.into_inner() {
            match t.as_rule() {
                Rule::c_fx_tuple => {
                    if let Some(t) = fx_tuple(b, t) {
                        file.tuples.push(t);
                    }
                }
                Rule::c_fx_shorthand => {
                    if let Some(t) = shorthand(b, t) {
                        file.tuples.push(t);
                    }
                }
                _ => {}
            }
        }
        Some(())
    });
    file.forex = true;
}

fn fx_tuple(b: &mut Builder, p: Pair<Rule>) -> Option<TupleSpec> {
    let sp = span(&p);
    let mut i = p.into_inner();
    i.next();
    let name = ident(&i.next()?);
    let mut t = TupleSpec {
        name,
        copies: Vec::new(),
        pre: Vec::new(),
        post: Vec::new(),
        invariants: Vec::new(),
        aliases: Vec::new(),
        span: sp,
        shorthand: false,
    };
    let mut ok = true;
    for q in i {
        match q.as_rule() {
            Rule::c_fx_copies => {
                let mut j = q.into_inner();
                let exists = j.next()?.as_str() == "exists";
                for c in j {
                    let mut k = c.into_inner();
                    let n = ident(&k.next()?);
                    let f = ident(&k.next()?);
                    t.copies.push((n, f, exists));
                }
            }
            Rule::c_fx_formula => {
                let mut j = q.into_inner();
                let key = j.next()?.as_str().to_string();
                let Some(f) = b.expr(j.next()?) else {
                    ok = false;
                    continue;
                };
                match key.as_str() {
                    "pre" => t.pre.push(f),
                    "post" => t.post.push(f),
                    _ => t.invariants.push(f),
                }
            }
            _ => {}
        }
    }
    ok.then_some(t)
}

/// `tuple t = ni(f, low: [l], high: [h], out: [o]);` and `gni`, `refines`, `deterministic`
/// (LANGUAGE.md, "Property shorthands").
fn shorthand(b: &mut Builder, p: Pair<Rule>) -> Option<TupleSpec> {
    let sp = span(&p);
    let mut i = p.into_inner();
    i.next();
    let name = ident(&i.next()?);
    let kind = ident(&i.next()?);
    let mut programs = Vec::new();
    let mut lists: Vec<(Ident, Vec<Ident>)> = Vec::new();
    for a in i {
        match a.as_rule() {
            Rule::c_ident => programs.push(ident(&a)),
            Rule::c_fx_list => {
                let mut j = a.into_inner();
                let key = ident(&j.next()?);
                lists.push((key, j.map(|v| ident(&v)).collect()));
            }
            _ => {}
        }
    }
    let list = |k: &str| -> Vec<Ident> {
        lists.iter().filter(|(n, _)| n.name == k).flat_map(|(_, v)| v.clone()).collect()
    };
    let allowed: &[&str] = match kind.name.as_str() {
        "ni" | "gni" => &["low", "high", "out"],
        "refines" | "deterministic" => &["in", "out"],
        _ => {
            b.error(
                format!("unknown shorthand `{}`", kind.name),
                kind.span.clone(),
                "one of ni, gni, refines, deterministic",
            );
            return None;
        }
    };
    for (k, _) in &lists {
        if !allowed.contains(&k.name.as_str()) {
            b.error(
                format!("`{}` takes no list `{}`", kind.name, k.name),
                k.span.clone(),
                &format!("expected one of: {}", allowed.join(", ")),
            );
            return None;
        }
    }
    let want = if kind.name == "refines" { 2 } else { 1 };
    if programs.len() != want {
        b.error(
            format!("`{}` takes {want} function name(s), found {}", kind.name, programs.len()),
            sp,
            "wrong number of functions",
        );
        return None;
    }
    let cv = |c: &str, v: &Ident| Expr {
        kind: ExprKind::CopyVar(Ident { name: c.to_string(), span: v.span.clone() }, v.clone()),
        span: v.span.clone(),
    };
    let eqs = |a: &str, c: &str, vars: &[Ident]| -> Vec<Expr> {
        vars.iter()
            .map(|v| Expr {
                // `===`: floats the same bit for bit (`==` elsewhere).
                kind: ExprKind::Binary(BinaryOp::Ident, Box::new(cv(a, v)), Box::new(cv(c, v))),
                span: v.span.clone(),
            })
            .collect()
    };
    let p0 = programs[0].clone();
    let id = |n: &str| Ident { name: n.to_string(), span: p0.span.clone() };
    let (copies, pre, post) = match kind.name.as_str() {
        "ni" => (
            vec![(id("a"), p0.clone(), false), (id("b"), p0.clone(), false)],
            eqs("a", "b", &list("low")),
            eqs("a", "b", &list("out")),
        ),
        "gni" => {
            let mut pre = eqs("a", "c", &list("low"));
            pre.extend(eqs("b", "c", &list("high")));
            (
                vec![
                    (id("a"), p0.clone(), false),
                    (id("b"), p0.clone(), false),
                    (id("c"), p0.clone(), true),
                ],
                pre,
                eqs("a", "c", &list("out")),
            )
        }
        "refines" => (
            vec![(id("a"), p0.clone(), false), (id("b"), programs[1].clone(), true)],
            eqs("a", "b", &list("in")),
            eqs("a", "b", &list("out")),
        ),
        _ => (
            vec![(id("a"), p0.clone(), false), (id("b"), p0.clone(), false)],
            eqs("a", "b", &list("in")),
            eqs("a", "b", &list("out")),
        ),
    };
    Some(TupleSpec {
        name,
        copies,
        pre,
        post,
        invariants: Vec::new(),
        aliases: Vec::new(),
        span: sp,
        shorthand: true,
    })
}

/// An `_invariant("…")` hint's formula: parsed in place where the string is in the file
/// (errors point into it), else on its own with every node at the call.
pub(crate) fn hint(b: &mut Builder, h: &RawHint) -> Option<InvariantHint> {
    let formula = match h.at {
        Some(at) => b.with_part(Rule::c_formula, &(at..at + h.text.len()), |b, p| b.expr(p)),
        None => {
            let mut sub = Builder::new(&h.text, b.defines);
            let e = sub.with_text(Rule::c_formula, &h.text, |b, p| b.expr(p));
            for mut d in sub.diags {
                d.span = h.span.clone();
                b.diags.push(d);
            }
            e.map(|mut e| {
                builder::respan(&mut e, &h.span);
                e
            })
        }
    }?;
    Some(InvariantHint { function: h.function.clone(), formula })
}
