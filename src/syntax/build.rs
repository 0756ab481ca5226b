//! pest pairs → syntax tree, for what both formats share: types, declarations and
//! statements (expressions: `expr.rs`). Format-foreign spellings and statement nesting
//! depth are reported here.

use super::ast::{
    BodyItem, Decl, Expr, ExprKind, Function, Ident, Span, Stmt, StmtKind, Ty, TyKind,
};
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
                    | Rule::kw_for
                    | Rule::kw_return
                    | Rule::kw_elif
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
        let ty = self.base_ty(&k[0]);
        let Some(suffix) = k.get(1) else { return Ok(ty) };
        // `int[]` (.fe), `int[int]` and `int[int,int]` (ForEx): the index types are int.
        let index_types = kids(suffix);
        for t in &index_types {
            if t.as_str() != "int" {
                return Err(self.error(
                    Diagnostic::new(format!("array indices are int, not {}", t.as_str()), span(t))
                        .with_label("index type")
                        .with_hint("write `int[int] a;` (or `int[] a;`)"),
                ));
            }
        }
        let dims = index_types.len().max(1);
        if dims > 2 {
            return Err(self.error(
                Diagnostic::new(
                    format!("arrays have at most two dimensions, found {dims}"),
                    span(suffix),
                )
                .with_label("too many dimensions"),
            ));
        }
        if ty.kind == TyKind::Unsupported {
            return Ok(ty);
        }
        let mut ty = ty;
        for _ in 0..dims {
            ty = Ty { kind: TyKind::Array(Box::new(ty)), span: span(p) };
        }
        Ok(ty)
    }

    /// `int`, `bool`, `bv8`/`bv_8`, `string`: a scalar type. A bad one is reported once
    /// and becomes `Unsupported` (its variables then stay silent).
    pub fn base_ty(&mut self, base: &Pair<Rule>) -> Ty {
        let text = base.as_str();
        let kind = match text {
            "int" => TyKind::Int,
            "bool" => TyKind::Bool,
            "string" => TyKind::Str,
            "float" => TyKind::Float(crate::ir::FloatKind::F32),
            "double" => TyKind::Float(crate::ir::FloatKind::F64),
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
                        self.diags.push(
                            Diagnostic::new(
                                format!(
                                    "bit-vector width {digits} is out of range: widths go from 1 to {MAX_BV_WIDTH}"
                                ),
                                span(base),
                            )
                            .with_label("unsupported width"),
                        );
                        TyKind::Unsupported
                    }
                }
            }
        };
        Ty { kind, span: span(base) }
    }

    pub fn decl(&mut self, p: &Pair<Rule>) -> R<Decl> {
        let k = kids(p);
        let ty = self.ty(&k[0])?;
        let mut names = Vec::new();
        let mut inits: Vec<Option<Expr>> = Vec::new();
        for c in &k[1..] {
            if c.as_rule() == Rule::decl_init {
                let e = self.expr(&kids(c)[0])?;
                if let Some(last) = inits.last_mut() {
                    *last = Some(e);
                }
            } else {
                names.push(ident(c));
                inits.push(None);
            }
        }
        Ok(Decl { ty, names, inits, span: span(p) })
    }

    /// Declarations and statements at the top of a program (or a ForEx section, or a
    /// function). An initialised declaration `int x = e;` is the declaration followed by
    /// the assignment `x = e;` (spanning `x = e`).
    pub fn body(&mut self, items: &[Pair<Rule>]) -> Vec<BodyItem> {
        let mut out = Vec::new();
        for p in items {
            if p.as_rule() == Rule::decl {
                if let Ok(d) = self.decl(p) {
                    let inits: Vec<Stmt> = d
                        .names
                        .iter()
                        .zip(&d.inits)
                        .filter_map(|(n, e)| {
                            let e = e.clone()?;
                            let sp = n.span.start..e.span.end;
                            Some(Stmt {
                                kind: StmtKind::Assign { target: n.clone(), value: e },
                                span: sp,
                            })
                        })
                        .collect();
                    out.push(BodyItem::Decl(d));
                    out.extend(inits.into_iter().map(|s| BodyItem::Stmt(Box::new(s))));
                }
            } else {
                let mut stmts = Vec::new();
                self.stmt_into(p, 1, &mut stmts);
                out.extend(stmts.into_iter().map(|s| BodyItem::Stmt(Box::new(s))));
            }
        }
        out
    }

    /// A statement into `out`: `for` loops become their initialisation and a `while`.
    pub fn stmt_into(&mut self, p: &Pair<Rule>, depth: usize, out: &mut Vec<Stmt>) {
        if p.as_rule() != Rule::for_stmt {
            if let Ok(s) = self.stmt(p, depth) {
                out.push(s);
            }
            return;
        }
        if depth > MAX_DEPTH {
            self.too_deep_stmt(span(p));
            return;
        }
        // for (init; cond; step) { body }  ==  init; while (cond) { body step }
        let k = kids(p);
        let (init, cond, step, body) = (&k[0], &k[1], &k[2], &k[3]);
        let init = kids(init).into_iter().next();
        if let Some(d) = init.as_ref().filter(|i| i.as_rule() == Rule::for_decl) {
            let dk = kids(d);
            let (ty, name) = (dk[0].as_str().trim(), dk[1].as_str());
            let value = dk[2].as_str().trim();
            self.diags.push(
                Diagnostic::new("declarations are only allowed at the top of a program", span(d))
                    .with_label("declaration in a `for`")
                    .with_hint(format!(
                        "declare `{ty} {name};` at the top of the program, then write `for ({name} = {value}; …)`"
                    )),
            );
            return;
        }
        let init = match init {
            Some(i) => match self.simple(&i) {
                Ok(s) => Some(s),
                Err(_) => return,
            },
            None => None,
        };
        let Ok(cond) = self.expr(cond) else { return };
        let step = match kids(step).into_iter().next() {
            Some(s) => match self.simple(&s) {
                Ok(s) => Some(s),
                Err(_) => return,
            },
            None => None,
        };
        let mut body = self.block(body, depth + 1);
        body.extend(step);
        out.extend(init);
        out.push(Stmt { kind: StmtKind::While { cond, body }, span: span(p) });
    }

    /// `x = e`, `x += e`, `a[i] -= e`, `x++` (in `for` headers and as statements).
    fn simple(&mut self, p: &Pair<Rule>) -> R<Stmt> {
        let k = kids(p);
        let sp = span(p);
        if p.as_rule() == Rule::plain_asg {
            let kind = StmtKind::Assign { target: ident(&k[0]), value: self.expr(&k[1])? };
            return Ok(Stmt { kind, span: sp });
        }
        let lk = kids(&k[0]);
        let target = ident(&lk[0]);
        let mut indices = Vec::new();
        for i in &lk[1..] {
            indices.push(self.expr(i)?);
        }
        let current = {
            let mut e = Expr::leaf(ExprKind::Var(target.name.clone()), target.span.clone());
            for i in &indices {
                let depth = 1 + e.depth.max(i.depth);
                let sp = e.span.start..i.span.end + 1;
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(i.clone())),
                    span: sp,
                    depth,
                };
            }
            e
        };
        let op_text = k[1].as_str();
        let (op, operand) = match (p.as_rule(), op_text) {
            (Rule::incr_asg, _) => {
                let one = Expr::node(
                    ExprKind::OneLike(Box::new(current.clone())),
                    span(&k[1]),
                    &[&current],
                );
                (if op_text == "++" { BinOp::Add } else { BinOp::Sub }, one)
            }
            (_, "+=") => (BinOp::Add, self.expr(&k[2])?),
            (_, "-=") => (BinOp::Sub, self.expr(&k[2])?),
            _ => (BinOp::Mul, self.expr(&k[2])?),
        };
        let value = Expr::binary(op, current, operand, sp.clone());
        if value.depth as usize > MAX_DEPTH {
            return Err(self.too_deep_stmt(sp));
        }
        let kind = match indices.len() {
            0 => StmtKind::Assign { target, value },
            1 => StmtKind::Store { target, index: indices.remove(0), value },
            _ => {
                let index = indices.remove(0);
                StmtKind::Store2 { target, index, inner: indices.remove(0), value }
            }
        };
        Ok(Stmt { kind, span: sp })
    }

    /// `T f(T a, …) { declarations statements return e; }`.
    pub fn function(&mut self, p: &Pair<Rule>) -> R<Function> {
        let k = kids(p);
        let ret = self.ty(&k[0]);
        let name = ident(&k[1]);
        let mut params = Vec::new();
        let mut rest = Vec::new();
        for c in &k[2..] {
            if c.as_rule() == Rule::param {
                let pk = kids(c);
                if let Ok(t) = self.ty(&pk[0]) {
                    params.push((t, ident(&pk[1])));
                }
            } else {
                rest.push(c.clone());
            }
        }
        let ret = ret?;
        let returns: Vec<usize> =
            (0..rest.len()).filter(|&i| rest[i].as_rule() == Rule::return_stmt).collect();
        let Some(&last) = returns.last() else {
            return Err(self.error(
                Diagnostic::new(
                    format!("function `{}` has no `return`", name.name),
                    name.span.clone(),
                )
                .with_label("no return")
                .with_hint("end the function's body with `return e;`"),
            ));
        };
        if returns.len() > 1 || last + 1 != rest.len() {
            let at = &rest[returns[0]];
            return Err(self.error(
                Diagnostic::new("`return` must be the last statement of a function", span(at))
                    .with_label("not at the end")
                    .with_hint("keep the result in a variable and `return` it once, at the end"),
            ));
        }
        let result = self.expr(&kids(&rest[last])[0])?;
        let items = self.body(&rest[..last]);
        Ok(Function { ret, name, params, items, result, span: span(p) })
    }

    // ------------------------------------------------------------ statements

    pub(super) fn block(&mut self, p: &Pair<Rule>, depth: usize) -> Vec<Stmt> {
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
            } else {
                self.stmt_into(&c, depth, &mut out);
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
            Rule::step_stmt => return self.simple(&k[0]),
            Rule::multi_store => {
                if k.len() > 4 {
                    return Err(self.error(
                        Diagnostic::new("arrays have at most two dimensions", span(p))
                            .with_label("too many indices"),
                    ));
                }
                StmtKind::Store2 {
                    target: ident(&k[0]),
                    index: self.expr(&k[1])?,
                    inner: self.expr(&k[2])?,
                    value: self.expr(&k[3])?,
                }
            }
            Rule::havoc_store => {
                let name = k[0].as_str();
                return Err(self.error(
                    Diagnostic::new("an array element cannot be chosen with `*`", span(p))
                        .with_label("nondeterministic store")
                        .with_hint(format!(
                            "choose into a variable, then store it: `v = *; {name}[i] = v;`"
                        )),
                ));
            }
            Rule::return_stmt => {
                return Err(self.error(
                    Diagnostic::new("`return` outside a function", span(p))
                        .with_label("return here")
                        .with_hint("`return e;` ends a function: `int f(int a) { … return e; }`"),
                ))
            }
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
    /// `if c {…} else if c {…} … else {…}`: a short chain nests to the right; a long one
    /// without `*` conditions stays flat ([`StmtKind::IfChain`]) and is balanced later.
    fn if_stmt(&mut self, p: &Pair<Rule>, k: &[Pair<Rule>], depth: usize) -> R<Stmt> {
        let chain = k.iter().filter(|c| c.as_rule() == Rule::else_if).count();
        let is_star = |c: &Pair<Rule>| kids(c).first().is_some_and(|x| x.as_rule() == Rule::star);
        let starred = is_star(&k[0])
            || k.iter()
                .filter(|c| c.as_rule() == Rule::else_if)
                .any(|c| kids(c).first().is_some_and(is_star));
        if chain > FLAT_CHAIN_FROM && !starred {
            return self.if_chain(p, k, depth);
        }
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
            let s = Stmt {
                kind: StmtKind::If { cond, then_branch, else_branch },
                span: if_keyword(c)..end,
            };
            else_branch = vec![s];
        }
        let cond = self.cond(&k[0])?;
        let then_branch = self.block(&k[1], depth + 1);
        Ok(Stmt { kind: StmtKind::If { cond, then_branch, else_branch }, span: span(p) })
    }

    /// A long chain: once balanced, its arms nest about log₂(arms) deep, and each arm's
    /// condition becomes part of disjunctions that deep.
    fn if_chain(&mut self, p: &Pair<Rule>, k: &[Pair<Rule>], depth: usize) -> R<Stmt> {
        let arms_n = k.iter().filter(|c| c.as_rule() == Rule::else_if).count() + 1;
        let extra = (usize::BITS - arms_n.leading_zeros()) as usize + 1;
        if depth + extra > MAX_DEPTH {
            return Err(self.too_deep_stmt(span(p)));
        }
        let end = p.as_span().end();
        let mut arms = Vec::with_capacity(arms_n);
        let mut else_branch = Vec::new();
        let mut arm = |b: &mut Self, cond: &Pair<Rule>, block: &Pair<Rule>, sp: Span| -> R<()> {
            let c = b.cond(cond)?.ok_or(Reported)?;
            if c.depth as usize + extra > MAX_DEPTH {
                let limit = MAX_DEPTH - extra;
                return Err(b.error(
                    Diagnostic::new(
                        format!(
                            "condition nested too deeply for a long `else if` chain (more than {limit} levels)"
                        ),
                        c.span.clone(),
                    )
                    .with_label("too deep")
                    .with_hint("split it using intermediate variables"),
                ));
            }
            let body = b.block(block, depth + extra);
            arms.push((c, body, sp));
            Ok(())
        };
        arm(self, &k[0], &k[1], span(p).start..end)?;
        for c in &k[2..] {
            if c.as_rule() == Rule::else_if {
                let ck = kids(c);
                arm(self, &ck[0], &ck[1], if_keyword(c)..end)?;
            } else if c.as_rule() == Rule::else_block {
                else_branch = self.block(&kids(c)[0], depth + extra);
            }
        }
        Ok(Stmt { kind: StmtKind::IfChain { arms, else_branch }, span: span(p) })
    }
}

/// Where an `else if` arm's statement starts: at its `if` (after the `else`), for its `Loc`.
fn if_keyword(c: &Pair<Rule>) -> usize {
    c.clone()
        .into_inner()
        .find(|t| t.as_rule() == Rule::kw_if)
        .map_or(c.as_span().start(), |t| t.as_span().start())
}

/// `else if` chains longer than this stay flat in the syntax tree (see `if_chain`).
const FLAT_CHAIN_FROM: usize = 32;

/// `true` as a syntax-tree literal at `span` (empty conjunctions of shorthands).
pub fn true_lit(span: Span) -> Expr {
    Expr::leaf(ExprKind::Bool(true), span)
}

/// `a.x === b.y`: the same value.
pub fn eq_vars(a: (&Ident, &Ident), b: (&Ident, &Ident)) -> Expr {
    let l = Expr::copy_var(a.0.clone(), a.1.clone());
    let r = Expr::copy_var(b.0.clone(), b.1.clone());
    let sp = l.span.clone();
    // Identity, so that float inputs and outputs agree bit for bit (NaN with NaN); on
    // other types the checker makes it `==`.
    Expr::binary(BinOp::Ident, l, r, sp)
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
