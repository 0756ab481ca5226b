//! The syntax tree: what the source says, with byte spans, before names and types are
//! checked. Both input formats produce it; shorthands are already expanded.

use crate::ir::{BinOp, Quantifier, UnOp};
use num_bigint::BigInt;
use std::ops::Range;

pub type Span = Range<usize>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TyKind {
    Int,
    Bool,
    Bv(u32),
    /// `string`.
    Str,
    /// `float` or `double`.
    Float(crate::ir::FloatKind),
    Array(Box<Ty>),
    /// A type forex rejects (ForEx `string`), already reported; its variables are
    /// skipped silently so one declaration gives one error.
    Unsupported,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ty {
    pub kind: TyKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Nesting depth of this tree (1 for a leaf); the builder keeps it ≤ `ir::MAX_DEPTH`.
    pub depth: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A plain name: a program variable, or a quantified variable in a formula.
    Var(String),
    /// `copy.var` (in ForEx formulas `var_k`, rewritten to copy `c<k>`).
    CopyVar {
        copy: Ident,
        var: Ident,
    },
    Int(BigInt),
    Bool(bool),
    Bv {
        value: u128,
        width: u32,
    },
    /// A string literal, escapes resolved.
    Str(String),
    /// A float literal (`1.5`, `0x1.8p+1f`): its format and bits.
    Float {
        kind: crate::ir::FloatKind,
        bits: u64,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a[i]`: an array read.
    Index(Box<Expr>, Box<Expr>),
    /// `x[hi:lo]` (or ForEx `x{lo,hi}`): bits hi..lo of a bit-vector.
    Extract {
        arg: Box<Expr>,
        hi: u32,
        lo: u32,
        bounds: Span,
    },
    /// `min(a, b)`, `max(a, b)`, `abs(a)` (and unknown names, reported by the checker).
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    Quant {
        quantifier: Quantifier,
        var: Ident,
        ty: Ty,
        body: Box<Expr>,
    },
    /// `int(e)` / `bvN(e)`: a conversion to `to` (`Ty` of the target type).
    Convert {
        to: Ty,
        arg: Box<Expr>,
    },
    /// The number 1 in the type of `of` (`x++` on an int or a bit-vector).
    OneLike(Box<Expr>),
    /// Something the builder already reported; the checker skips it silently.
    Error,
}

impl Expr {
    pub fn leaf(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span, depth: 1 }
    }
    /// A node over `children`, its depth one more than theirs.
    pub fn node(kind: ExprKind, span: Span, children: &[&Expr]) -> Expr {
        let depth = 1 + children.iter().map(|c| c.depth).max().unwrap_or(0);
        Expr { kind, span, depth }
    }
    pub fn binary(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
        let depth = 1 + a.depth.max(b.depth);
        Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), span, depth }
    }
    pub fn copy_var(copy: Ident, var: Ident) -> Expr {
        let span = copy.span.start.min(var.span.start)..copy.span.end.max(var.span.end);
        Expr::leaf(ExprKind::CopyVar { copy, var }, span)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    pub ty: Ty,
    pub names: Vec<Ident>,
    /// `int x = e;`: initialisers, one slot per name (the builder turns them into
    /// assignments right after the declaration).
    pub inits: Vec<Option<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    Skip,
    Assign {
        target: Ident,
        value: Expr,
    },
    Store {
        target: Ident,
        index: Expr,
        value: Expr,
    },
    /// `m[i][j] = e;` on a two-dimensional array.
    Store2 {
        target: Ident,
        index: Expr,
        inner: Expr,
        value: Expr,
    },
    Havoc {
        target: Ident,
    },
    Assume(Expr),
    /// `cond == None` is `if (*)`.
    If {
        cond: Option<Expr>,
        then_branch: Vec<Stmt>,
        else_branch: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    /// A long `if c1 {…} else if c2 {…} … else {…}` chain with no `*` condition, kept
    /// flat (short chains nest in `If`'s else branch). Each arm: condition, branch, and
    /// the span from its `if`. The checker builds it as a balanced tree of `if`s.
    IfChain {
        arms: Vec<(Expr, Vec<Stmt>, Span)>,
        else_branch: Vec<Stmt>,
    },
    /// `observe;`
    Observe,
    /// `repeat { … }`: the checker desugars it to `while (true) { … }`.
    Repeat {
        body: Vec<Stmt>,
    },
    /// `while (*) { … }`: the checker desugars it with a fresh choice variable.
    WhileStar {
        body: Vec<Stmt>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyItem {
    Decl(Decl),
    Stmt(Box<Stmt>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub name: Ident,
    /// ForEx procedures defined in this program's section (inlined at their calls).
    pub functions: Vec<Function>,
    pub items: Vec<BodyItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyDecl {
    pub name: Ident,
    pub program: Ident,
    pub quantifier: Quantifier,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tuple {
    pub name: Ident,
    pub span: Span,
    /// In source order; the checker puts ∀ copies before ∃ copies.
    pub copies: Vec<CopyDecl>,
    pub pre: Option<Expr>,
    pub post: Option<Expr>,
    /// `always φ;` (a tuple has `post` or `always`, the builder reports both).
    pub always: Option<Expr>,
    /// `observations N;` with the number's span.
    pub observations: Option<(u32, Span)>,
    pub invariants: Vec<Expr>,
    pub align: Option<(u32, Span)>,
    pub min_conjuncts: Option<(u32, Span)>,
    pub max_conjuncts: Option<(u32, Span)>,
    /// ForEx `[traceBound] n` and `[onlyHints]`.
    pub trace_bound: Option<u32>,
    pub only_hints: bool,
    /// `copy.var` names that must exist although `pre`/`post` may not use them
    /// (a shorthand's `high: [h]` list of `ni`).
    pub mentions: Vec<(Ident, Ident)>,
    /// Expanded from a shorthand (`ni(…)`): messages name programs, not copies.
    pub shorthand: bool,
}

impl Default for Ident {
    fn default() -> Ident {
        Ident { name: String::new(), span: 0..0 }
    }
}

/// `T f(T a, …) { declarations statements return e; }`: a function, inlined where called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub ret: Ty,
    pub name: Ident,
    pub params: Vec<(Ty, Ident)>,
    pub items: Vec<BodyItem>,
    pub result: Expr,
    pub span: Span,
}

/// One parsed file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct File {
    /// `.fe` functions, visible to every program (in definition order).
    pub functions: Vec<Function>,
    /// Functions whose definition had an error (already reported; calls stay silent).
    pub broken_functions: Vec<String>,
    pub programs: Vec<Program>,
    pub tuples: Vec<Tuple>,
}
