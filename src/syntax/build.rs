//! pest pairs → syntax tree, for what both formats share: types, declarations and
//! statements (expressions: `expr.rs`). Format-foreign spellings and statement nesting
//! depth are reported here.

use super::ast::{BodyItem, Decl, Expr, ExprKind, Ident, Span, Stmt, StmtKind, Ty, TyKind};
use super::Rule;
use crate::diag::Diagnostic;
use crate::ir::{BinOp, MAX_BV_WIDTH, MAX_DEPTH};
use pest::iterators::Pair;

/// Longest decimal literal accepted (a guard against absurd inputs, far above any use).
pub const MAX_INT_DIGITS: usize = 256;

/// An error was reported; the enclosing statement or formula is dropped.
#[derive(Debug)]
pub struct Reported;

pub type R<T> = Result<T, Reported>;

/// How a bare name in an expression is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    /// A program variable.
    Program,
    /// `.fe` pre/post/hints: a quantified variable (other names are reported by the checker).
    FeFormula,
    /// ForEx pre/post/inv: `x_k` is variable `x` of copy `k` (of `copies`).
    ForexFormula { copies: usize },
}

pub struct Builder<'s> {
    pub src: &'s str,
    pub diags: Vec<Diagnostic>,
    /// The file is in the ForEx format (else `.fe`).
    pub forex: bool,
    pub names: Names,
    pub(super) bound: Vec<String>,
}

pub fn span(p: &Pair<Rule>) -> Span {
    p.as_span().start()..p.as_span().end()
}

/// The children of `p`, without keyword tokens.
pub fn kids<'i>(p: &Pair<'i, Rule>) -> Vec<Pair<'i, Rule>> {
    p.clone()
        .into_inner()
        .filter(|c| {
            !matches!(
                c.as_rule(),
                Rule::kw_if
                    | Rule::kw_else
                    | Rule::kw_while
                    | Rule::kw_assume
                    | Rule::kw_skip
                    | Rule::kw_then
                    | Rule::kw_program
                    | Rule::kw_tuple
                    | Rule::kw_pre
                    | Rule::kw_post
                    | Rule::kw_invariant
                    | Rule::kw_align
                    | Rule::kw_conjuncts
                    | Rule::kw_observe
                    | Rule::kw_repeat
                    | Rule::kw_always
                    | Rule::kw_observations
            )
        })
        .collect()
}

pub fn ident(p: &Pair<Rule>) -> Ident {
    Ident { name: p.as_str().to_string(), span: span(p) }
}

impl<'s> Builder<'s> {
    pub fn new(src: &'s str, forex: bool) -> Builder<'s> {
        Builder { src, diags: Vec::new(), forex, names: Names::Program, bound: Vec::new() }
    }

    pub fn error(&mut self, d: Diagnostic) -> Reported {
        self.diags.push(d);
        Reported
    }

    /// A small unsigned number (`align 3;`, `[maxC] 2`, extraction bounds).
    pub fn small_int(&mut self, p: &Pair<Rule>) -> R<u32> {
        p.as_str().parse::<u32>().map_err(|_| {
            self.error(
                Diagnostic::new(format!("the number {} is too large here", p.as_str()), span(p))
                    .with_label("too large"),
            )
        })
    }

    // ------------------------------------------------------------ types, declarations

    pub fn ty(&mut self, p: &Pair<Rule>) -> R<Ty> {
        let k = kids(p);
        let base = &k[0];
        let text = base.as_str();
        let kind = match text {
            "int" => TyKind::Int,
            "bool" => TyKind::Bool,
            "string" => {
                self.diags.push(
                    Diagnostic::new("strings are not supported by forex", span(base))
                        .with_label("string type")
                        .with_hint("forex handles int, bool, bit-vector and array variables"),
                );
                TyKind::Unsupported
            }
            _ => {
                let digits = text.trim_start_matches("bv").trim_start_matches('_');
                if text.starts_with("bv_") && !self.forex {
                    self.diags.push(
                        Diagnostic::new(format!("`{text}` is ForEx syntax"), span(base))
                            .with_label("ForEx type name")
                            .with_hint(format!("in .fe files write `bv{digits}`")),
                    );
                }
                match digits.parse::<u32>() {
                    Ok(w) if (1..=MAX_BV_WIDTH).contains(&w) => TyKind::Bv(w),
                    _ => {
                        return Err(self.error(
                            Diagnostic::new(
                                format!(
                                    "bit-vector width {digits} is out of range: widths go from 1 to {MAX_BV_WIDTH}"
                                ),
                                span(base),
                            )
                            .with_label("unsupported width"),
                        ))
                    }
                }
            }
        };
        let ty = Ty { kind, span: span(base) };
        if k.len() > 1 {
            Ok(Ty { kind: TyKind::Array(Box::new(ty)), span: span(p) })
        } else {
            Ok(ty)
        }
    }

    pub fn decl(&mut self, p: &Pair<Rule>) -> R<Decl> {
        let k = kids(p);
        let ty = self.ty(&k[0])?;
        let names = k[1..].iter().map(ident).collect();
        Ok(Decl { ty, names, span: span(p) })
    }

    /// Declarations and statements at the top of a program (or a ForEx section).
    pub fn body(&mut self, items: &[Pair<Rule>]) -> Vec<BodyItem> {
        let mut out = Vec::new();
        for p in items {
            if p.as_rule() == Rule::decl {
                if let Ok(d) = self.decl(p) {
                    out.push(BodyItem::Decl(d));
                }
            } else if let Ok(s) = self.stmt(p, 1) {
                out.push(BodyItem::Stmt(Box::new(s)));
            }
        }
        out
    }

    // ------------------------------------------------------------ statements

    fn block(&mut self, p: &Pair<Rule>, depth: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        for c in kids(p) {
            if c.as_rule() == Rule::decl {
                let text = c.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
                self.diags.push(
                    Diagnostic::new("declarations are only allowed at the top of a program", span(&c))
                        .with_label("declaration inside a block")
                        .with_hint(format!(
                            "move `{text}` to the top of the program (a variable belongs to the whole program)"
                        )),
                );
            } else if let Ok(s) = self.stmt(&c, depth) {
                out.push(s);
            }
        }
        out
    }

    fn too_deep_stmt(&mut self, sp: Span) -> Reported {
        self.error(
            Diagnostic::new(
                format!("statements are nested too deeply (more than {MAX_DEPTH} levels)"),
                sp,
            )
            .with_label("too deep")
            .with_hint("split the program or flatten the nesting"),
        )
    }

    fn cond(&mut self, p: &Pair<Rule>) -> R<Option<Expr>> {
        let inner = kids(p).into_iter().next().ok_or(Reported)?;
        if inner.as_rule() == Rule::star {
            Ok(None)
        } else {
            self.expr(&inner).map(Some)
        }
    }

    pub fn stmt(&mut self, p: &Pair<Rule>, depth: usize) -> R<Stmt> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep_stmt(span(p)));
        }
        let k = kids(p);
        let kind = match p.as_rule() {
            Rule::skip_stmt => StmtKind::Skip,
            Rule::assume_stmt => StmtKind::Assume(self.expr(&k[0])?),
            Rule::havoc_stmt => StmtKind::Havoc { target: ident(&k[0]) },
            Rule::assign_stmt => {
                StmtKind::Assign { target: ident(&k[0]), value: self.expr(&k[1])? }
            }
            Rule::store_stmt => StmtKind::Store {
                target: ident(&k[0]),
                index: self.expr(&k[1])?,
                value: self.expr(&k[2])?,
            },
            Rule::while_stmt => {
                let cond = self.expr(&k[0])?;
                StmtKind::While { cond, body: self.block(&k[1], depth + 1) }
            }
            Rule::if_stmt => return self.if_stmt(p, &k, depth),
            Rule::observe_stmt | Rule::repeat_stmt | Rule::while_star_stmt => {
                return self.reactive_stmt(p, &k, depth)
            }
            r => {
                return Err(self.error(Diagnostic::new(
                    format!("internal: unexpected statement rule {r:?}"),
                    span(p),
                )))
            }
        };
        Ok(Stmt { kind, span: span(p) })
    }

    /// `observe;`, `repeat {…}`, `while (*) {…}`: `.fe` only (the ForEx format has no
    /// temporal properties, so an observation there could never mean anything).
    fn reactive_stmt(&mut self, p: &Pair<Rule>, k: &[Pair<Rule>], depth: usize) -> R<Stmt> {
        if self.forex {
            let word = p.as_str().split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
            let what = if p.as_rule() == Rule::while_star_stmt { "while (*)" } else { word };
            return Err(self.error(
                Diagnostic::new(format!("`{what}` is not part of the ForEx format"), span(p))
                    .with_label("reactive statement in a ForEx file")
                    .with_hint("write reactive programs in a `.fe` file (`program p { … }`)"),
            ));
        }
        let kind = match p.as_rule() {
            Rule::observe_stmt => StmtKind::Observe,
            Rule::repeat_stmt => StmtKind::Repeat { body: self.block(&k[0], depth + 1) },
            _ => StmtKind::WhileStar { body: self.block(&k[1], depth + 1) },
        };
        Ok(Stmt { kind, span: span(p) })
    }

    /// `if c {…} else if d {…} … else {…}`: the chain nests to the right.
    fn if_stmt(&mut self, p: &Pair<Rule>, k: &[Pair<Rule>], depth: usize) -> R<Stmt> {
        let chain = k.iter().filter(|c| c.as_rule() == Rule::else_if).count();
        if depth + chain > MAX_DEPTH {
            return Err(self.too_deep_stmt(span(p)));
        }
        let mut else_branch = Vec::new();
        if let Some(last) = k.last().filter(|c| c.as_rule() == Rule::else_block) {
            else_branch = self.block(&kids(last)[0], depth + chain + 1);
        }
        let end = p.as_span().end();
        for (i, c) in k.iter().enumerate().rev().filter(|(_, c)| c.as_rule() == Rule::else_if) {
            let ck = kids(c);
            let cond = self.cond(&ck[0])?;
            let then_branch = self.block(&ck[1], depth + i);
            // The statement starts at its `if` (after the `else`), for its `Loc`.
            let start = c
                .clone()
                .into_inner()
                .find(|t| t.as_rule() == Rule::kw_if)
                .map_or(c.as_span().start(), |t| t.as_span().start());
            let s =
                Stmt { kind: StmtKind::If { cond, then_branch, else_branch }, span: start..end };
            else_branch = vec![s];
        }
        let cond = self.cond(&k[0])?;
        let then_branch = self.block(&k[1], depth + 1);
        Ok(Stmt { kind: StmtKind::If { cond, then_branch, else_branch }, span: span(p) })
    }
}

/// `true` as a syntax-tree literal at `span` (empty conjunctions of shorthands).
pub fn true_lit(span: Span) -> Expr {
    Expr::leaf(ExprKind::Bool(true), span)
}

/// `a.x == b.y`.
pub fn eq_vars(a: (&Ident, &Ident), b: (&Ident, &Ident)) -> Expr {
    let l = Expr::copy_var(a.0.clone(), a.1.clone());
    let r = Expr::copy_var(b.0.clone(), b.1.clone());
    let sp = l.span.clone();
    Expr::binary(BinOp::Eq, l, r, sp)
}

/// Conjunction of `parts` (`true` at `span` when empty), as a balanced tree so that long
/// lists stay shallow.
pub fn and_all(mut parts: Vec<Expr>, span: Span) -> Expr {
    if parts.is_empty() {
        return true_lit(span);
    }
    while parts.len() > 1 {
        let mut next = Vec::with_capacity(parts.len().div_ceil(2));
        let mut it = parts.into_iter();
        while let Some(a) = it.next() {
            match it.next() {
                Some(b) => {
                    let sp = a.span.clone();
                    next.push(Expr::binary(BinOp::And, a, b, sp));
                }
                None => next.push(a),
            }
        }
        parts = next;
    }
    parts.pop().unwrap_or_else(|| true_lit(span))
}
