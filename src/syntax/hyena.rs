//! hyena0's s-expression files (LANGUAGE.md, "The hyena0 format") → the same syntax tree
//! as `.fe` files, so that the checker and every engine treat them alike.
//!
//! A small reader turns the text into spanned s-expressions (unbalanced parentheses are
//! diagnostics); the builder maps `define-program` to a program (every variable `int`,
//! declared by its first `let`), `find-counterexample` to an `always` tuple, the
//! `strategy` bound to `observations`, and `(expect (outcome …))` to an expectation on
//! the query before it. A `(nondet …)` inside a larger expression becomes a fresh
//! variable `nondet@LINE:COL` chosen (and bounded by `assume`) just before its statement.

mod sexp;

use super::ast::{
    BodyItem, CopyDecl, Decl, Expr, ExprKind, File, Ident, Program, Span, Stmt, StmtKind, Tuple,
    Ty, TyKind,
};
use crate::diag::{Diagnostic, LineIndex};
use crate::ir::{BinOp, ExpectedOutcome, Quantifier, UnOp};
use num_bigint::BigInt;
use sexp::{is_delim, read, Sx};
use std::collections::HashMap;

/// Does `src` start (after blanks and `;` comments) with a hyena0 top-level form?
pub fn looks_like_hyena(src: &str) -> bool {
    let mut rest = src.trim_start_matches('\u{feff}').trim_start();
    while let Some(r) = rest.strip_prefix(';') {
        rest = r.split_once('\n').map(|(_, r)| r).unwrap_or("").trim_start();
    }
    let Some(r) = rest.strip_prefix('(') else { return false };
    let head: String = r.trim_start().chars().take_while(|c| !is_delim(*c)).collect();
    matches!(head.as_str(), "define-program" | "strategy" | "find-counterexample")
}

/// Parses a hyena0 file. `stem` names its tuples (`STEM`, or `STEM_1`, `STEM_2`, … when
/// there are several). Returns the syntax tree (`None` after a reading error), the
/// errors, and each tuple's expected outcome by tuple name.
pub fn parse(
    src: &str,
    stem: &str,
) -> (Option<File>, Vec<Diagnostic>, Vec<(String, ExpectedOutcome)>) {
    let forms = match read(src) {
        Ok(f) => f,
        Err(d) => return (None, vec![d], Vec::new()),
    };
    let mut b =
        Reader { src, lines: LineIndex::new(src), diags: Vec::new(), programs: HashMap::new() };
    let mut file = File::default();
    let mut expected: Vec<(usize, ExpectedOutcome)> = Vec::new();
    let mut bound: Option<(u32, Span)> = None;
    // One entry per query, `None` where it had errors (numbering stays as in the file).
    let mut queries: Vec<Option<Tuple>> = Vec::new();
    for form in &forms {
        let Some((head, args)) = form.form() else {
            b.err(form.span(), "expected a form such as `(define-program …)`", "not a form");
            continue;
        };
        match head {
            "define-program" => {
                if let Some(p) = b.program(form, args) {
                    file.programs.push(p);
                }
            }
            "strategy" => {
                // A malformed strategy keeps the bound before it; `(min A)` alone lifts it.
                if let Some(b2) = b.strategy(form, args) {
                    bound = b2;
                }
            }
            "find-counterexample" => queries.push(b.query(form, args, bound.clone())),
            "expect" => {
                if let Some(e) = b.expect(args) {
                    match queries.len() {
                        0 => {
                            b.err(form.span(), "`expect` before any query", "nothing to expect of")
                        }
                        n => expected.push((n - 1, e)),
                    }
                }
            }
            "print-stats" => {}
            other => {
                let sp = form.span();
                b.diags.push(
                    Diagnostic::new(format!("unknown form `{other}`"), sp)
                        .with_label("not a hyena0 form")
                        .with_hint("the forms are define-program, strategy, find-counterexample, expect, print-stats"),
                );
            }
        }
    }
    let several = queries.len() > 1;
    let name = |i: usize| if several { format!("{stem}_{}", i + 1) } else { stem.to_string() };
    for (i, t) in queries.into_iter().enumerate() {
        if let Some(mut t) = t {
            t.name.name = name(i);
            file.tuples.push(t);
        }
    }
    let expected = expected.into_iter().map(|(i, e)| (name(i), e)).collect();
    (Some(file), b.diags, expected)
}

struct Reader<'s> {
    src: &'s str,
    lines: LineIndex,
    diags: Vec<Diagnostic>,
    /// Each program's variables, for bare names in formulas.
    programs: HashMap<String, Vec<String>>,
}

/// A program being read: its variables in declaration order (with the `let` that
/// declared them), and fresh choice variables.
struct Body {
    vars: Vec<(String, Span)>,
    fresh: Vec<String>,
}

/// Where a name in an expression comes from.
enum Names<'x> {
    Program(&'x Body),
    /// A formula over copies (name, program).
    Formula(&'x [(String, String)]),
}

fn ident(name: &str, span: Span) -> Ident {
    Ident { name: name.to_string(), span }
}

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

impl Reader<'_> {
    fn err(&mut self, span: Span, message: &str, label: &str) {
        self.diags.push(Diagnostic::new(message, span).with_label(label));
    }

    fn name<'a>(&mut self, sx: Option<&'a Sx>, at: Span, what: &str) -> Option<(&'a str, Span)> {
        match sx {
            Some(Sx::Atom(a, sp)) => Some((a, sp.clone())),
            Some(other) => {
                self.err(other.span(), &format!("expected {what}"), "not a name");
                None
            }
            None => {
                self.err(at, &format!("expected {what}"), "missing");
                None
            }
        }
    }

    fn program(&mut self, form: &Sx, args: &[Sx]) -> Option<Program> {
        let (name, name_span) = self.name(args.first(), form.span(), "a program name")?;
        let mut body = Body { vars: Vec::new(), fresh: Vec::new() };
        let stmts = self.stmts(&args[1..], &mut body);
        let int = |sp: Span| Ty { kind: TyKind::Int, span: sp };
        let mut items: Vec<BodyItem> = Vec::new();
        for (v, sp) in &body.vars {
            let d = Decl {
                ty: int(sp.clone()),
                names: vec![ident(v, sp.clone())],
                inits: vec![None],
                span: sp.clone(),
            };
            items.push(BodyItem::Decl(d));
        }
        for v in &body.fresh {
            // Span 0..0: declared before every use (the checker compares positions).
            items.push(BodyItem::Decl(Decl {
                ty: int(0..0),
                names: vec![ident(v, 0..0)],
                inits: vec![None],
                span: 0..0,
            }));
        }
        items.extend(stmts.into_iter().map(|s| BodyItem::Stmt(Box::new(s))));
        self.programs.insert(name.to_string(), body.vars.iter().map(|v| v.0.clone()).collect());
        Some(Program {
            name: ident(name, name_span),
            functions: Vec::new(),
            items,
            span: form.span(),
        })
    }

    fn stmts(&mut self, items: &[Sx], body: &mut Body) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in items {
            self.stmt(s, body, &mut out);
        }
        out
    }

    /// Appends what statement `s` becomes (fresh choices first).
    fn stmt(&mut self, s: &Sx, body: &mut Body, out: &mut Vec<Stmt>) {
        let sp = s.span();
        let Some((head, args)) = s.form() else {
            self.err(sp, "expected a statement such as `(set x 1)`", "not a statement");
            return;
        };
        match head {
            "let" | "set" => {
                let Some((x, xs)) = self.name(args.first(), sp.clone(), "a variable name") else {
                    return;
                };
                let value = if head == "let" {
                    match args.get(1).and_then(Sx::atom) {
                        Some("int") => {}
                        _ => {
                            let at = args.get(1).map_or(sp.clone(), Sx::span);
                            self.diags.push(
                                Diagnostic::new("expected the type `int`", at)
                                    .with_label("hyena0 variables are int")
                                    .with_hint("write `(let x int 0)`"),
                            );
                            return;
                        }
                    }
                    args.get(2)
                } else {
                    if args.len() != 2 {
                        self.err(sp, "`set` takes a variable and a value", "malformed `set`");
                        return;
                    }
                    args.get(1)
                };
                if args.len() > if head == "let" { 3 } else { 2 } {
                    self.err(sp, &format!("too many arguments to `{head}`"), "malformed");
                    return;
                }
                // The value is read before `x` is declared: `(let x int x)` uses an unknown x.
                // A bounded `(nondet (min A) (max B))` takes the general path (a fresh choice),
                // so that bounds mentioning `x` read its value before the statement.
                let whole_nondet =
                    value.and_then(|v| v.form()).filter(|(h, a)| *h == "nondet" && a.is_empty());
                let mut pre = Vec::new();
                let value = match (value, whole_nondet) {
                    (_, Some(_)) | (None, _) => None,
                    (Some(v), None) => match self.expr(v, &Names::Program(body), Some(&mut pre)) {
                        Some(e) => Some(e),
                        None => return,
                    },
                };
                if head == "let" && !body.vars.iter().any(|(v, _)| v == x) {
                    body.vars.push((x.to_string(), sp.start..sp.start + 1));
                } else if !body.vars.iter().any(|(v, _)| v == x) {
                    return self.unknown_var(x, xs, body.vars.iter().map(|v| v.0.as_str()));
                }
                note_fresh(body, &pre);
                out.append(&mut pre);
                let target = ident(x, xs.clone());
                match (value, whole_nondet) {
                    (Some(value), _) => out.push(stmt(StmtKind::Assign { target, value }, sp)),
                    (None, nd) => {
                        out.push(stmt(StmtKind::Havoc { target }, sp.clone()));
                        if let Some((_, bounds)) = nd {
                            let var = Expr::leaf(ExprKind::Var(x.to_string()), xs);
                            if let Some(c) = self.bounds(bounds, var, body) {
                                out.push(stmt(StmtKind::Assume(c), sp));
                            }
                        }
                    }
                }
            }
            "observe" => out.push(stmt(StmtKind::Observe, sp)),
            "repeat" => {
                let b = self.stmts(args, body);
                out.push(stmt(StmtKind::Repeat { body: b }, sp));
            }
            "while" => {
                let Some(c) = args.first() else {
                    return self.err(sp, "`while` needs a condition", "malformed `while`");
                };
                let mut b = self.stmts(&args[1..], body);
                if c.form().is_some_and(|(h, a)| h == "nondet" && a.is_empty()) {
                    return out.push(stmt(StmtKind::WhileStar { body: b }, sp));
                }
                let mut pre = Vec::new();
                let Some(cond) = self.expr(c, &Names::Program(body), Some(&mut pre)) else {
                    return;
                };
                // The fresh choices of the condition are made again before each test.
                b.extend(pre.iter().cloned());
                note_fresh(body, &pre);
                out.append(&mut pre);
                out.push(stmt(StmtKind::While { cond, body: b }, sp));
            }
            "if" => {
                let Some(c) = args.first() else {
                    return self.err(sp, "`if` needs a condition", "malformed `if`");
                };
                let (mut then_branch, mut else_branch) = (Vec::new(), Vec::new());
                for a in &args[1..] {
                    match a.form() {
                        Some(("then", t)) => then_branch = self.stmts(t, body),
                        Some(("else", e)) => else_branch = self.stmts(e, body),
                        _ => {
                            self.err(a.span(), "expected `(then …)` or `(else …)`", "not a branch")
                        }
                    }
                }
                let cond = if c.form().is_some_and(|(h, a)| h == "nondet" && a.is_empty()) {
                    None
                } else {
                    let mut pre = Vec::new();
                    let Some(e) = self.expr(c, &Names::Program(body), Some(&mut pre)) else {
                        return;
                    };
                    note_fresh(body, &pre);
                    out.append(&mut pre);
                    Some(e)
                };
                out.push(stmt(StmtKind::If { cond, then_branch, else_branch }, sp));
            }
            other => {
                self.diags.push(
                    Diagnostic::new(format!("unknown statement `{other}`"), sp)
                        .with_label("not a statement")
                        .with_hint("statements are let, set, if, while, repeat, observe"),
                );
            }
        }
    }

    fn unknown_var<'a>(&mut self, x: &str, sp: Span, known: impl Iterator<Item = &'a str>) {
        let hint = match crate::diag::suggest(x, known) {
            Some(s) => format!("did you mean `{s}`? or declare it first with `(let {x} int …)`"),
            None => format!("declare it first with `(let {x} int …)`"),
        };
        self.diags.push(
            Diagnostic::new(format!("unknown variable `{x}`"), sp)
                .with_label("not declared (yet)")
                .with_hint(hint),
        );
    }

    /// `(min A) (max B)` of a `nondet` as a condition on `var`.
    fn bounds(&mut self, items: &[Sx], var: Expr, body: &Body) -> Option<Expr> {
        let mut parts = Vec::new();
        for it in items {
            let op = match it.form() {
                Some(("min", [_])) => BinOp::Ge,
                Some(("max", [_])) => BinOp::Le,
                _ => {
                    self.err(it.span(), "expected `(min A)` or `(max B)`", "not a bound");
                    return None;
                }
            };
            let Some((_, [v])) = it.form() else { return None };
            let bound = self.expr(v, &Names::Program(body), None)?;
            let sp = it.span();
            parts.push(Expr::binary(op, var.clone(), bound, sp));
        }
        Some(super::build::and_all(parts, var.span.clone()))
    }

    /// An expression or condition. In programs, `fresh` collects the choices a nested
    /// `(nondet …)` needs before the statement (`None`: a nested `nondet` is an error).
    fn expr(&mut self, sx: &Sx, names: &Names, mut fresh: Option<&mut Vec<Stmt>>) -> Option<Expr> {
        let sp = sx.span();
        let (head, args) = match sx {
            Sx::Atom(a, _) => return self.atom(a, sp, names),
            Sx::List(..) => match sx.form() {
                Some(f) => f,
                None => {
                    self.err(sp, "expected an expression", "empty or malformed");
                    return None;
                }
            },
        };
        let binop = match head {
            "+" => Some(BinOp::Add),
            "-" if args.len() == 2 => Some(BinOp::Sub),
            "*" => Some(BinOp::Mul),
            "=" => Some(BinOp::Eq),
            "/=" => Some(BinOp::Ne),
            "<" => Some(BinOp::Lt),
            "<=" => Some(BinOp::Le),
            ">" => Some(BinOp::Gt),
            ">=" => Some(BinOp::Ge),
            "and" => Some(BinOp::And),
            "or" => Some(BinOp::Or),
            "=>" => Some(BinOp::Implies),
            "<=>" => Some(BinOp::Iff),
            _ => None,
        };
        let sub = |r: &mut Self, s: &Sx, fresh: &mut Option<&mut Vec<Stmt>>| {
            let f = fresh.as_mut().map(|pre| &mut **pre);
            r.expr(s, names, f)
        };
        if let Some(op) = binop {
            let variadic = matches!(op, BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or);
            let logic = matches!(op, BinOp::And | BinOp::Or);
            if logic && args.is_empty() {
                return Some(Expr::leaf(ExprKind::Bool(op == BinOp::And), sp));
            }
            if logic && args.len() == 1 {
                return sub(self, &args[0], &mut fresh);
            }
            if args.len() < 2 || (!variadic && args.len() != 2) {
                let n = if variadic { "at least two" } else { "two" };
                self.err(sp, &format!("`{head}` takes {n} operands"), "wrong number of operands");
                return None;
            }
            let mut acc = sub(self, &args[0], &mut fresh)?;
            for a in &args[1..] {
                let b = sub(self, a, &mut fresh)?;
                acc = Expr::binary(op, acc, b, sp.clone());
            }
            return Some(acc);
        }
        match (head, args) {
            ("-", [a]) => {
                let a = sub(self, a, &mut fresh)?;
                Some(Expr::node(ExprKind::Unary(UnOp::Neg, Box::new(a.clone())), sp, &[&a]))
            }
            ("not", [a]) => {
                let a = sub(self, a, &mut fresh)?;
                Some(Expr::node(ExprKind::Unary(UnOp::Not, Box::new(a.clone())), sp, &[&a]))
            }
            ("divided-by", [x, a]) => {
                let x = sub(self, x, &mut fresh)?;
                let a = sub(self, a, &mut fresh)?;
                let m = Expr::binary(BinOp::Mod, x, a, sp.clone());
                let zero = Expr::leaf(ExprKind::Int(BigInt::from(0)), sp.clone());
                Some(Expr::binary(BinOp::Eq, m, zero, sp))
            }
            ("trace-value", [t, x]) => {
                let Names::Formula(copies) = names else {
                    self.err(
                        sp,
                        "`trace-value` is only allowed in a query's formula",
                        "in a program",
                    );
                    return None;
                };
                let (Some(t), Some(x)) = (t.atom(), x.atom()) else {
                    self.err(sp, "expected `(trace-value TRACE VARIABLE)`", "malformed");
                    return None;
                };
                if !copies.iter().any(|(c, _)| c == t) {
                    let hint = crate::diag::suggest(t, copies.iter().map(|c| c.0.as_str()))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "name a trace of a `(traces …)` list".into());
                    self.diags.push(
                        Diagnostic::new(format!("unknown trace `{t}`"), args[0].span())
                            .with_label("no such trace")
                            .with_hint(hint),
                    );
                    return None;
                }
                Some(Expr::copy_var(ident(t, args[0].span()), ident(x, args[1].span())))
            }
            ("nondet", bounds) => {
                let Some(pre) = fresh.as_mut() else {
                    self.err(sp, "`nondet` is not allowed here", "nondeterminism");
                    return None;
                };
                let Names::Program(body) = names else {
                    self.err(sp, "`nondet` is not allowed in a formula", "nondeterminism");
                    return None;
                };
                let name = format!("nondet@{}", self.lines.loc(self.src, sp.start));
                let var = Expr::leaf(ExprKind::Var(name.clone()), sp.clone());
                pre.push(stmt(StmtKind::Havoc { target: ident(&name, sp.clone()) }, sp.clone()));
                if !bounds.is_empty() {
                    let c = self.bounds(bounds, var.clone(), body)?;
                    pre.push(stmt(StmtKind::Assume(c), sp));
                }
                // A bare `(nondet)` condition is a boolean choice: `nondet@… != 0`.
                Some(var)
            }
            _ => {
                self.diags.push(
                    Diagnostic::new(format!("unknown operator `{head}`"), sp)
                        .with_label("not a hyena0 operator")
                        .with_hint("operators: + - * = /= < <= > >= divided-by and or => <=> not"),
                );
                None
            }
        }
    }

    fn atom(&mut self, a: &str, sp: Span, names: &Names) -> Option<Expr> {
        if let Ok(n) = a.parse::<BigInt>() {
            return Some(Expr::leaf(ExprKind::Int(n), sp));
        }
        match a {
            "true" => return Some(Expr::leaf(ExprKind::Bool(true), sp)),
            "false" => return Some(Expr::leaf(ExprKind::Bool(false), sp)),
            _ => {}
        }
        match names {
            Names::Program(body) => {
                if body.vars.iter().any(|(v, d)| v == a && d.start < sp.start) {
                    return Some(Expr::leaf(ExprKind::Var(a.to_string()), sp));
                }
                self.unknown_var(a, sp, body.vars.iter().map(|v| v.0.as_str()));
                None
            }
            Names::Formula(copies) => {
                let owners: Vec<&String> = copies
                    .iter()
                    .filter(|(_, p)| {
                        self.programs.get(p).is_some_and(|vs| vs.iter().any(|v| v == a))
                    })
                    .map(|(c, _)| c)
                    .collect();
                match owners.as_slice() {
                    [one] => Some(Expr::copy_var(ident(one, sp.clone()), ident(a, sp))),
                    [] => {
                        self.diags.push(
                            Diagnostic::new(format!("unknown variable `{a}`"), sp)
                                .with_label("no trace has this variable")
                                .with_hint("write `(trace-value TRACE VARIABLE)`"),
                        );
                        None
                    }
                    several => {
                        let list: Vec<&str> = several.iter().map(|s| s.as_str()).collect();
                        self.diags.push(
                            Diagnostic::new(
                                format!(
                                    "`{a}` is ambiguous: traces {} all have it",
                                    list.join(", ")
                                ),
                                sp,
                            )
                            .with_label("which trace?")
                            .with_hint(format!("write `(trace-value {} {a})`", list[0])),
                        );
                        None
                    }
                }
            }
        }
    }

    /// `(strategy (observations N))` or `(observations (min A) (max B))`: the bound is
    /// the maximum (none without one); the minimum only skips checks and is ignored.
    /// `None` when malformed; `Some(None)`: no bound.
    fn strategy(&mut self, form: &Sx, args: &[Sx]) -> Option<Option<(u32, Span)>> {
        let bad = |r: &mut Self, sp: Span| {
            r.diags.push(
                Diagnostic::new(
                    "expected `(observations N)` or `(observations (min A) (max B))`",
                    sp,
                )
                .with_label("unknown strategy"),
            );
        };
        let [obs] = args else {
            bad(self, form.span());
            return None;
        };
        let Some(("observations", items)) = obs.form() else {
            bad(self, obs.span());
            return None;
        };
        let mut max = None;
        for it in items {
            let (num, sp) = match (it, it.form()) {
                (Sx::Atom(a, sp), _) => (Some(a.as_str()), sp.clone()),
                (_, Some(("max", [Sx::Atom(a, sp)]))) => (Some(a.as_str()), sp.clone()),
                (_, Some(("min", [Sx::Atom(..)]))) => continue,
                _ => (None, it.span()),
            };
            match num.and_then(|n| n.parse::<u32>().ok()).filter(|n| *n >= 1) {
                Some(n) => max = Some((n, sp)),
                None => {
                    self.err(sp, "expected an observation count of at least 1", "not a count");
                    return None;
                }
            }
        }
        Some(max)
    }

    fn expect(&mut self, args: &[Sx]) -> Option<ExpectedOutcome> {
        let [e] = args else {
            self.err(
                args.first().map_or(0..0, Sx::span),
                "expected one `(outcome …)`",
                "malformed",
            );
            return None;
        };
        match e.form() {
            Some(("outcome", [Sx::Atom(o, sp)])) => match o.as_str() {
                "counterexample" => Some(ExpectedOutcome::Counterexample),
                "no-counterexample" => Some(ExpectedOutcome::NoCounterexample),
                _ => {
                    self.err(
                        sp.clone(),
                        "expected `counterexample` or `no-counterexample`",
                        "unknown outcome",
                    );
                    None
                }
            },
            // About hyena0's internals.
            Some(("control-flow-graph", _)) => None,
            _ => {
                self.err(
                    e.span(),
                    "expected `(outcome …)` or `(control-flow-graph …)`",
                    "unknown expectation",
                );
                None
            }
        }
    }

    fn query(&mut self, form: &Sx, args: &[Sx], bound: Option<(u32, Span)>) -> Option<Tuple> {
        let [q] = args else {
            self.err(
                form.span(),
                "`find-counterexample` takes one `(forall …)` or `(exists …)`",
                "malformed",
            );
            return None;
        };
        let mut copies: Vec<CopyDecl> = Vec::new();
        let mut cur = q;
        let mut seen_exists = false;
        let formula = loop {
            let Some((head, items)) = cur.form().filter(|(h, _)| *h == "forall" || *h == "exists")
            else {
                break cur;
            };
            let quantifier = if head == "forall" { Quantifier::Forall } else { Quantifier::Exists };
            if quantifier == Quantifier::Forall && seen_exists {
                self.err(cur.span(), "`forall` inside `exists` is not supported", "∃∀ query");
                return None;
            }
            seen_exists |= quantifier == Quantifier::Exists;
            let Some((last, traces)) = items.split_last() else {
                self.err(
                    cur.span(),
                    &format!("`{head}` needs `(traces …)` and a formula"),
                    "empty",
                );
                return None;
            };
            for t in traces {
                let Some(("traces", names)) = t.form() else {
                    self.err(t.span(), "expected `(traces PROGRAM TRACE…)`", "not a traces list");
                    return None;
                };
                let (p, psp) = self.name(names.first(), t.span(), "a program name")?;
                let program = ident(p, psp.clone());
                if names.len() == 1 {
                    copies.push(CopyDecl {
                        name: ident(p, psp),
                        program: program.clone(),
                        quantifier,
                    });
                }
                for n in &names[1..] {
                    let (c, csp) = self.name(Some(n), t.span(), "a trace name")?;
                    copies.push(CopyDecl {
                        name: ident(c, csp),
                        program: program.clone(),
                        quantifier,
                    });
                }
            }
            cur = last;
        };
        let pairs: Vec<(String, String)> =
            copies.iter().map(|c| (c.name.name.clone(), c.program.name.clone())).collect();
        let phi = self.expr(formula, &Names::Formula(&pairs), None)?;
        let head_span = form.form().map_or(form.span(), |_| match form {
            Sx::List(items, _) => items[0].span(),
            Sx::Atom(_, s) => s.clone(),
        });
        Some(Tuple {
            name: ident("", head_span),
            span: form.span(),
            copies,
            always: Some(phi),
            observations: bound,
            ..Tuple::default()
        })
    }
}

/// Records the fresh choice variables that the statements `pre` choose.
fn note_fresh(body: &mut Body, pre: &[Stmt]) {
    for s in pre {
        if let StmtKind::Havoc { target } = &s.kind {
            if !body.fresh.contains(&target.name) {
                body.fresh.push(target.name.clone());
            }
        }
    }
}
