//! The C subset's syntax tree: what `parse` builds and `lower` reads. Every node keeps
//! its byte span so that lowering errors point at the construct. Unsupported constructs
//! never reach this tree: the parser reports them.

use crate::ir::c::CScalar;
use num_bigint::BigInt;
use std::ops::Range;

pub type Span = Range<usize>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The type of a declared name: a scalar, `void` (results only) or an array.
#[derive(Clone, Debug)]
pub enum DeclTy {
    Void,
    Scalar(CScalar),
    /// `T a[d1]…[dk]`: the element type and the sizes as written (`None`: `[]`).
    Array(CScalar, Vec<Option<Expr>>),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Ident,
    pub ty: DeclTy,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: Ident,
    pub ret: DeclTy,
    pub params: Vec<Param>,
    /// `None` for a prototype (a library function).
    pub body: Option<Vec<Stmt>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    List(Vec<Expr>, Span),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Ident,
    pub ty: DeclTy,
    pub init: Option<Init>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For { init: Option<Box<Stmt>>, cond: Option<Expr>, step: Option<Expr>, body: Box<Stmt> },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Vec<Stmt>),
    Empty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    /// Annotation formulas only: `==>`, `<==>`, `=a=`.
    Implies,
    Iff,
    ArrayEq,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Mod => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
            Implies => "==>",
            Iff => "<==>",
            ArrayEq => "=a=",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A literal with the type C gives it.
    Int(BigInt, CScalar),
    Bool(bool),
    Var(String),
    /// `copy.var` (annotations only).
    CopyVar(Ident, Ident),
    /// `ret!` (specs only).
    RetBang,
    Str(String),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (`None`) or `lhs op= rhs`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `++x` / `x++` / `--x` / `x--`.
    IncDec {
        pre: bool,
        inc: bool,
        arg: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(CScalar, Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    /// `forall i: int, j: int :: body` (annotations only).
    Quant {
        exists: bool,
        vars: Vec<(Ident, CScalar)>,
        body: Box<Expr>,
    },
    /// `a, b`: evaluates both, the value is `b`'s.
    Comma(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Whether evaluating it may change state (assignments, `++`, calls).
    pub fn has_effects(&self) -> bool {
        match &self.kind {
            ExprKind::Assign(..) | ExprKind::IncDec { .. } | ExprKind::Call(..) => true,
            ExprKind::Int(..)
            | ExprKind::Bool(_)
            | ExprKind::Var(_)
            | ExprKind::CopyVar(..)
            | ExprKind::RetBang
            | ExprKind::Str(_) => false,
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => a.has_effects(),
            ExprKind::Quant { body, .. } => body.has_effects(),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
                a.has_effects() || b.has_effects()
            }
            ExprKind::Cond(c, a, b) => c.has_effects() || a.has_effects() || b.has_effects(),
        }
    }
}

/// One `/*@forex … */` tuple, or the one `@ELAENIA` tuple, before lowering.
#[derive(Clone, Debug)]
pub struct TupleSpec {
    pub name: Ident,
    /// Copies in source order: (name, function, is ∃).
    pub copies: Vec<(Ident, Ident, bool)>,
    pub pre: Vec<Expr>,
    pub post: Vec<Expr>,
    pub invariants: Vec<Expr>,
    /// `@ELAENIA` tuples: the copy-name aliases (`forall`, `left`, the function's name).
    pub aliases: Vec<(String, usize)>,
    pub span: Span,
    /// The shorthand this tuple came from (its equalities have no spans of their own).
    pub shorthand: bool,
}

/// A library function's spec in an `@ELAENIA` header.
#[derive(Clone, Debug)]
pub struct Spec {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub choice_vars: Vec<Ident>,
    pub pre: Option<Expr>,
    pub post: Option<Expr>,
}

/// An `_invariant("…")` hint inside a loop of a function.
#[derive(Clone, Debug)]
pub struct InvariantHint {
    pub function: String,
    pub formula: Expr,
}

/// A parsed `.c` file.
#[derive(Clone, Debug, Default)]
pub struct File {
    pub functions: Vec<Function>,
    pub tuples: Vec<TupleSpec>,
    pub aspecs: Vec<Spec>,
    pub especs: Vec<Spec>,
    pub hints: Vec<InvariantHint>,
    pub elaenia: bool,
    pub forex: bool,
}
