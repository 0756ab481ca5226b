//! `.fe` files: programs, tuples and the property shorthands (`ni`, `gni`, `refines`,
//! `deterministic`), which are expanded here into ordinary tuples.

use super::ast::{CopyDecl, Expr, File, Ident, Program, Span, Tuple};
use super::build::{and_all, eq_vars, ident, kids, span, Builder, Names};
use super::Rule;
use crate::diag::Diagnostic;
use crate::ir::Quantifier;
use pest::iterators::Pair;

pub fn file(b: &mut Builder, p: &Pair<Rule>) -> File {
    let mut out = File::default();
    for item in kids(p) {
        match item.as_rule() {
            Rule::program => {
                let k = kids(&item);
                b.names = Names::Program;
                let items = b.body(&k[1..]);
                out.programs.push(Program {
                    name: ident(&k[0]),
                    functions: Vec::new(),
                    items,
                    span: span(&item),
                });
            }
            Rule::function_def => {
                b.names = Names::Program;
                match b.function(&item) {
                    Ok(f) => out.functions.push(f),
                    Err(_) => out.broken_functions.push(kids(&item)[1].as_str().to_string()),
                }
            }
            Rule::tuple_def => {
                if let Some(t) = tuple(b, &item) {
                    out.tuples.push(t);
                }
            }
            Rule::shorthand => {
                if let Some(t) = shorthand(b, &item) {
                    out.tuples.push(t);
                }
            }
            _ => {}
        }
    }
    out
}

fn formula(b: &mut Builder, p: &Pair<Rule>) -> Option<Expr> {
    b.names = Names::FeFormula;
    b.expr(p).ok()
}

/// Reports a second `pre`/`post`/… in one tuple.
fn duplicate(b: &mut Builder, what: &str, first: Option<&Span>, again: Span) {
    let mut d = Diagnostic::new(format!("this tuple has two `{what}` clauses"), again)
        .with_label("second one")
        .with_hint(format!("combine them with `&&` into one `{what}`"));
    if let Some(first) = first {
        d = d.with_related(first.clone(), "first one");
    }
    b.diags.push(d);
}

fn tuple(b: &mut Builder, p: &Pair<Rule>) -> Option<Tuple> {
    let k = kids(p);
    let mut t = Tuple { name: ident(&k[0]), span: span(p), ..Tuple::default() };
    let mut pre_span: Option<Span> = None;
    let mut post_span: Option<Span> = None;
    let mut align_span: Option<Span> = None;
    let mut conj_span: Option<Span> = None;
    let mut always_span: Option<Span> = None;
    let mut obs_span: Option<Span> = None;
    for item in &k[1..] {
        let ik = kids(item);
        let sp = span(item);
        match item.as_rule() {
            Rule::copy_line => {
                let quantifier = if ik[0].as_str() == "forall" {
                    Quantifier::Forall
                } else {
                    Quantifier::Exists
                };
                for c in &ik[1..] {
                    let ck = kids(c);
                    t.copies.push(CopyDecl {
                        name: ident(&ck[0]),
                        program: ident(&ck[1]),
                        quantifier,
                    });
                }
            }
            Rule::pre_item => {
                if pre_span.is_some() {
                    duplicate(b, "pre", pre_span.as_ref(), sp);
                    continue;
                }
                pre_span = Some(sp);
                t.pre = formula(b, &ik[0]);
            }
            Rule::post_item => {
                if post_span.is_some() {
                    duplicate(b, "post", post_span.as_ref(), sp);
                    continue;
                }
                post_span = Some(sp);
                t.post = formula(b, &ik[0]);
            }
            Rule::always_item => {
                if always_span.is_some() {
                    duplicate(b, "always", always_span.as_ref(), sp);
                    continue;
                }
                always_span = Some(sp);
                t.always = formula(b, &ik[0]);
            }
            Rule::observations_item => {
                if obs_span.is_some() {
                    duplicate(b, "observations", obs_span.as_ref(), sp);
                    continue;
                }
                obs_span = Some(sp.clone());
                if let Ok(n) = b.small_int(&ik[0]) {
                    if n == 0 {
                        b.diags.push(
                            Diagnostic::new("`observations 0` bounds nothing", span(&ik[0]))
                                .with_label("must be at least 1")
                                .with_hint("observation indices start at 1: write `observations 1;` or more"),
                        );
                    } else {
                        t.observations = Some((n, span(&ik[0])));
                    }
                }
            }
            Rule::inv_item => {
                if let Some(e) = formula(b, &ik[0]) {
                    t.invariants.push(e);
                }
            }
            Rule::align_item => {
                if align_span.is_some() {
                    duplicate(b, "align", align_span.as_ref(), sp);
                    continue;
                }
                align_span = Some(sp.clone());
                if let Ok(n) = b.small_int(&ik[0]) {
                    t.align = Some((n, span(&ik[0])));
                }
            }
            Rule::conj_item => {
                if conj_span.is_some() {
                    duplicate(b, "conjuncts", conj_span.as_ref(), sp);
                    continue;
                }
                conj_span = Some(sp.clone());
                if let (Ok(lo), Ok(hi)) = (b.small_int(&ik[0]), b.small_int(&ik[1])) {
                    if lo > hi {
                        b.diags.push(
                            Diagnostic::new(format!("empty conjunct range {lo}..{hi}"), sp)
                                .with_label("minimum above maximum")
                                .with_hint(format!("write `conjuncts {hi}..{lo};`")),
                        );
                    } else {
                        t.min_conjuncts = Some((lo, span(&ik[0])));
                        t.max_conjuncts = Some((hi, span(&ik[1])));
                    }
                }
            }
            _ => {}
        }
    }
    if let (Some(post), Some(always)) = (&post_span, &always_span) {
        b.diags.push(
            Diagnostic::new(
                format!("tuple `{}` has both `post` and `always`", t.name.name),
                always.clone(),
            )
            .with_label("`always` here")
            .with_related(post.clone(), "`post` here")
            .with_hint(
                "a tuple judges final states (`post`) or every observation (`always`): keep one",
            ),
        );
    }
    if let (Some(obs), None) = (&obs_span, &always_span) {
        b.diags.push(
            Diagnostic::new("`observations` bounds `always` tuples only", obs.clone())
                .with_label("no `always` line in this tuple")
                .with_hint("replace `post φ;` by `always φ;`, or remove the `observations` line"),
        );
    }
    if post_span.is_none() && always_span.is_none() && t.post.is_none() {
        b.diags.push(
            Diagnostic::new(format!("tuple `{}` has no `post`", t.name.name), t.name.span.clone())
                .with_label("no postcondition")
                .with_hint("add a line such as `post a.o == b.o;`"),
        );
    }
    Some(t)
}

/// The shorthands, their positional program arguments and their list arguments.
const SHORTHANDS: [(&str, usize, &[&str]); 4] = [
    ("ni", 1, &["low", "high", "out"]),
    ("gni", 1, &["low", "high", "out"]),
    ("refines", 2, &["in", "out"]),
    ("deterministic", 1, &["in", "out"]),
];

fn shorthand(b: &mut Builder, p: &Pair<Rule>) -> Option<Tuple> {
    let k = kids(p);
    let name = ident(&k[0]);
    let kind = ident(&k[1]);
    let Some(&(_, n_programs, allowed)) = SHORTHANDS.iter().find(|(n, ..)| *n == kind.name) else {
        let names: Vec<&str> = SHORTHANDS.iter().map(|s| s.0).collect();
        let hint = crate::diag::suggest(&kind.name, names.iter().copied())
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| format!("the shorthands are {}", names.join(", ")));
        b.diags.push(
            Diagnostic::new(format!("unknown property shorthand `{}`", kind.name), kind.span)
                .with_label("not a shorthand")
                .with_hint(hint),
        );
        return None;
    };
    let mut programs: Vec<Ident> = Vec::new();
    let mut lists: Vec<(Ident, Vec<Ident>)> = Vec::new();
    for arg in &k[2..] {
        match arg.as_rule() {
            Rule::ident => programs.push(ident(arg)),
            _ => {
                let ak = kids(arg);
                let key = ident(&ak[0]);
                if !allowed.contains(&key.name.as_str()) {
                    b.diags.push(
                        Diagnostic::new(
                            format!("`{}` takes no argument `{}`", kind.name, key.name),
                            key.span.clone(),
                        )
                        .with_label("unknown argument")
                        .with_hint(format!(
                            "`{}` takes {}",
                            kind.name,
                            allowed
                                .iter()
                                .map(|a| format!("`{a}: [...]`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                    continue;
                }
                if let Some((first, _)) = lists.iter().find(|(k, _)| k.name == key.name) {
                    b.diags.push(
                        Diagnostic::new(
                            format!("argument `{}` is given twice", key.name),
                            key.span.clone(),
                        )
                        .with_label("second one")
                        .with_related(first.span.clone(), "first one"),
                    );
                    continue;
                }
                lists.push((key, ak[1..].iter().map(ident).collect()));
            }
        }
    }
    if programs.len() != n_programs {
        let what = if n_programs == 1 {
            "one program"
        } else {
            "two programs (implementation, specification)"
        };
        b.diags.push(
            Diagnostic::new(
                format!("`{}` takes {what} before its lists, found {}", kind.name, programs.len()),
                kind.span.clone(),
            )
            .with_label("wrong number of programs")
            .with_hint(format!(
                "for example `tuple {} = {}({}, out: [o]);`",
                name.name,
                kind.name,
                if n_programs == 1 { "p" } else { "impl, spec" }
            )),
        );
        return None;
    }
    if !lists.iter().any(|(k, _)| k.name == "out") {
        b.diags.push(
            Diagnostic::new(
                format!("`{}` needs an `out: [...]` list", kind.name),
                kind.span.clone(),
            )
            .with_label("no outputs")
            .with_hint("name the variables that must agree, e.g. `out: [o]`"),
        );
        return None;
    }
    let list = |key: &str| -> Vec<Ident> {
        lists.iter().find(|(k, _)| k.name == key).map(|(_, v)| v.clone()).unwrap_or_default()
    };
    let copy = |n: &str, sp: &Span| Ident { name: n.to_string(), span: sp.clone() };
    let sp = span(p);
    let prog = &programs[0];
    let (a, bb, c) = (copy("a", &prog.span), copy("b", &prog.span), copy("c", &prog.span));
    let pairs = |x: &Ident, y: &Ident, vars: &[Ident]| -> Vec<Expr> {
        vars.iter().map(|v| eq_vars((x, v), (y, v))).collect()
    };
    let mut t = Tuple { name: name.clone(), span: sp.clone(), shorthand: true, ..Tuple::default() };
    let forall = |n: &Ident, p: &Ident| CopyDecl {
        name: n.clone(),
        program: p.clone(),
        quantifier: Quantifier::Forall,
    };
    let exists = |n: &Ident, p: &Ident| CopyDecl {
        name: n.clone(),
        program: p.clone(),
        quantifier: Quantifier::Exists,
    };
    match kind.name.as_str() {
        "ni" => {
            t.copies = vec![forall(&a, prog), forall(&bb, prog)];
            t.pre = Some(and_all(pairs(&a, &bb, &list("low")), sp.clone()));
            t.post = Some(and_all(pairs(&a, &bb, &list("out")), sp.clone()));
            t.mentions = list("high").into_iter().map(|h| (a.clone(), h)).collect();
        }
        "gni" => {
            t.copies = vec![forall(&a, prog), forall(&bb, prog), exists(&c, prog)];
            let mut pre = pairs(&a, &c, &list("low"));
            pre.extend(pairs(&bb, &c, &list("high")));
            t.pre = Some(and_all(pre, sp.clone()));
            t.post = Some(and_all(pairs(&a, &c, &list("out")), sp.clone()));
        }
        "refines" => {
            let spec = &programs[1];
            let bb = copy("b", &spec.span);
            t.copies = vec![forall(&a, prog), exists(&bb, spec)];
            t.pre = Some(and_all(pairs(&a, &bb, &list("in")), sp.clone()));
            t.post = Some(and_all(pairs(&a, &bb, &list("out")), sp.clone()));
        }
        _ => {
            t.copies = vec![forall(&a, prog), forall(&bb, prog)];
            t.pre = Some(and_all(pairs(&a, &bb, &list("in")), sp.clone()));
            t.post = Some(and_all(pairs(&a, &bb, &list("out")), sp.clone()));
        }
    }
    Some(t)
}
