//! forex's syntax tree of C: what `parse` builds from lang-c's tree and `lower` reads.
//! It holds C as people write it (LANGUAGE.md "What is read"): types as a tree (typedefs
//! resolved, `struct`/`union`/`enum` definitions in the file's tables), every expression
//! and statement with its span (byte offsets into the user's file, mapped back through
//! the preprocessor). What forex cannot verify yet still reaches this tree, so that the
//! lowerer names it at its span; annotation formulas use the same expressions.

use crate::ir::c::CScalar;
use num_bigint::BigInt;
use std::ops::Range;

pub type Span = Range<usize>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// C's integer types under LP64 (`char` is signed, as gcc on x86-64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntKind {
    /// The scalar that holds it (`long long` is `long` under LP64).
    pub fn scalar(self) -> CScalar {
        match self {
            IntKind::Bool => CScalar::Bool,
            IntKind::Char | IntKind::SChar => CScalar::Char,
            IntKind::UChar => CScalar::UChar,
            IntKind::Short => CScalar::Short,
            IntKind::UShort => CScalar::UShort,
            IntKind::Int => CScalar::Int,
            IntKind::UInt => CScalar::UInt,
            IntKind::Long | IntKind::LongLong => CScalar::Long,
            IntKind::ULong | IntKind::ULongLong => CScalar::ULong,
        }
    }

    pub fn of_scalar(s: CScalar) -> IntKind {
        match s {
            CScalar::Bool => IntKind::Bool,
            CScalar::Char => IntKind::Char,
            CScalar::UChar => IntKind::UChar,
            CScalar::Short => IntKind::Short,
            CScalar::UShort => IntKind::UShort,
            CScalar::Int => IntKind::Int,
            CScalar::UInt => IntKind::UInt,
            CScalar::Long => IntKind::Long,
            CScalar::ULong => IntKind::ULong,
            // Callers ask for integer scalars only (`Type::scalar` handles floats).
            CScalar::Float | CScalar::Double => IntKind::Int,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
}

/// An index into [`File::records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// An index into [`File::enums`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnumId(pub u32);

/// A C type. Qualifiers (`const`, `volatile`, `restrict`) do not change values and are
/// dropped; typedef names are replaced by their types.
#[derive(Clone, Debug)]
pub enum Type {
    Void,
    Int(IntKind),
    Float(FloatKind),
    Pointer(Box<Type>),
    /// `T[n]`, with the size as written (`None`: `[]`).
    Array(Box<Type>, Option<Box<Expr>>),
    /// A `struct` or `union` of the file's table.
    Record(RecordId),
    Enum(EnumId),
    Function(Box<FnType>),
    /// A type C (or GNU C) has and forex does not read, named as people know it
    /// (`_Complex double`, `__int128`, `__builtin_va_list`, `typeof`, `_Atomic`).
    Other(String),
}

#[derive(Clone, Debug)]
pub struct FnType {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
}

impl Type {
    pub fn int() -> Type {
        Type::Int(IntKind::Int)
    }

    pub fn scalar(s: CScalar) -> Type {
        match s {
            CScalar::Float => Type::Float(FloatKind::Float),
            CScalar::Double => Type::Float(FloatKind::Double),
            _ => Type::Int(IntKind::of_scalar(s)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
}

/// A `struct` or `union` type: its tag, and its members once it is complete.
#[derive(Clone, Debug)]
pub struct Record {
    pub kind: RecordKind,
    pub tag: Option<String>,
    pub members: Option<Vec<Member>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Member {
    /// `None`: an anonymous `struct`/`union` member, or an unnamed bit-field.
    pub name: Option<Ident>,
    pub ty: Type,
    /// A bit-field's width.
    pub bits: Option<Expr>,
    pub span: Span,
}

/// An `enum`: its constants' values, and the integer type gcc gives it.
#[derive(Clone, Debug)]
pub struct EnumDef {
    pub tag: Option<String>,
    pub constants: Vec<(Ident, BigInt)>,
    pub repr: IntKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// No storage class (or `auto`, `register`).
    Auto,
    Static,
    Extern,
    ThreadLocal,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Ident,
    /// As written (an array parameter stays an array: forex passes arrays by reference).
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: Ident,
    pub ret: Type,
    pub params: Vec<Param>,
    pub variadic: bool,
    /// `None` for a declaration without body (a library function).
    pub body: Option<Vec<Stmt>>,
    pub span: Span,
    pub storage: Storage,
    /// Declared or defined in a header, not in the user's file.
    pub in_header: bool,
}

#[derive(Clone, Debug)]
pub enum Designator {
    Index(Expr),
    Range(Expr, Expr),
    Member(Ident),
}

#[derive(Clone, Debug)]
pub struct InitItem {
    pub designators: Vec<Designator>,
    pub init: Init,
}

#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    List(Vec<InitItem>, Span),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Ident,
    pub ty: Type,
    /// The declaration's type words (where "this type is not supported" points).
    pub ty_span: Span,
    pub init: Option<Init>,
    pub storage: Storage,
    pub span: Span,
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
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Vec<Stmt>),
    Empty,
    Switch(Expr, Box<Stmt>),
    /// `case e: s`, and GNU's `case lo ... hi: s` (`Some(hi)`).
    Case(Expr, Option<Expr>, Box<Stmt>),
    Default(Box<Stmt>),
    Label(Ident, Box<Stmt>),
    Goto(Ident),
    /// A statement forex does not read (inline assembly), named.
    Other(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    /// `&e`
    AddrOf,
    /// `*e`
    Deref,
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
    /// Annotation formulas only: `===` (floats bitwise identical; `==` on other types).
    Ident,
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
            Ident => "===",
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
    /// An integer or character literal with the type C gives it (enum constants too).
    Int(BigInt, CScalar),
    /// A floating literal as written (without its suffix) and its type.
    Float(String, FloatKind),
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
    Cast(Type, Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// A call of a named function.
    Call(Ident, Vec<Expr>),
    /// A call through an expression (a function pointer).
    CallPtr(Box<Expr>, Vec<Expr>),
    /// `e.f` (`arrow`: `e->f`).
    Member {
        base: Box<Expr>,
        field: Ident,
        arrow: bool,
    },
    SizeofType(Type),
    SizeofExpr(Box<Expr>),
    AlignofType(Type),
    /// `forall i: int, j: int :: body` (annotations only).
    Quant {
        exists: bool,
        vars: Vec<(Ident, CScalar)>,
        body: Box<Expr>,
    },
    /// `a, b`: evaluates both, the value is `b`'s.
    Comma(Box<Expr>, Box<Expr>),
    /// A GNU statement expression `({ s; …; e; })` (glibc's `assert` is one).
    StmtExpr(Vec<Stmt>),
    /// An expression forex does not read (a statement expression, `_Generic`, a compound
    /// literal, `va_arg`, `offsetof`), named.
    Other(String),
}

impl Expr {
    /// Whether evaluating it may change state (assignments, `++`, calls).
    pub fn has_effects(&self) -> bool {
        match self.kind {
            ExprKind::Assign(..)
            | ExprKind::IncDec { .. }
            | ExprKind::Call(..)
            | ExprKind::CallPtr(..)
            | ExprKind::StmtExpr(_)
            | ExprKind::Other(_) => true,
            // `sizeof` does not evaluate its operand.
            ExprKind::SizeofExpr(_) => false,
            _ => self.children().into_iter().any(Expr::has_effects),
        }
    }

    /// The direct subexpressions (a statement expression's are inside its statements:
    /// [`Stmt::exprs_of`]).
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Int(..)
            | ExprKind::Float(..)
            | ExprKind::Bool(_)
            | ExprKind::Var(_)
            | ExprKind::CopyVar(..)
            | ExprKind::RetBang
            | ExprKind::Str(_)
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofType(_)
            | ExprKind::StmtExpr(_)
            | ExprKind::Other(_) => Vec::new(),
            ExprKind::Unary(_, a)
            | ExprKind::Cast(_, a)
            | ExprKind::SizeofExpr(a)
            | ExprKind::Member { base: a, .. }
            | ExprKind::IncDec { arg: a, .. }
            | ExprKind::Quant { body: a, .. } => vec![a],
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Comma(a, b) => vec![a, b],
            ExprKind::Cond(c, a, b) => vec![c, a, b],
            ExprKind::Call(_, args) => args.iter().collect(),
            ExprKind::CallPtr(f, args) => std::iter::once(&**f).chain(args).collect(),
        }
    }
}

impl Stmt {
    /// The expressions that `stmts` and the statements nested in them hold (initialisers,
    /// conditions, expression statements, returned values, `for` steps, `case` labels
    /// excepted), not their subexpressions. Without recursion: nesting may be deep.
    pub fn exprs_of<'a>(stmts: impl IntoIterator<Item = &'a Stmt>) -> Vec<&'a Expr> {
        let mut exprs = Vec::new();
        let mut todo: Vec<&Stmt> = stmts.into_iter().collect();
        while let Some(s) = todo.pop() {
            match &s.kind {
                StmtKind::Decl(ds) => ds.iter().filter_map(|d| d.init.as_ref()).for_each(|i| {
                    i.exprs(&mut exprs);
                }),
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => exprs.push(e),
                StmtKind::If(c, a, b) => {
                    exprs.push(c);
                    todo.push(a);
                    todo.extend(b.as_deref());
                }
                StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
                    exprs.push(c);
                    todo.push(b);
                }
                StmtKind::For { init, cond, step, body } => {
                    todo.extend(init.as_deref());
                    exprs.extend(cond.iter().chain(step));
                    todo.push(body);
                }
                StmtKind::Block(ss) => todo.extend(ss),
                StmtKind::Case(_, _, b) | StmtKind::Default(b) | StmtKind::Label(_, b) => {
                    todo.push(b)
                }
                StmtKind::Break
                | StmtKind::Continue
                | StmtKind::Return(None)
                | StmtKind::Empty
                | StmtKind::Goto(_)
                | StmtKind::Other(_) => {}
            }
        }
        exprs
    }
}

impl Init {
    /// The expressions of an initialiser, nested lists included.
    pub fn exprs<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Init::Expr(e) => out.push(e),
            Init::List(items, _) => items.iter().for_each(|it| it.init.exprs(out)),
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
    /// File-scope objects (`extern` declarations included).
    pub globals: Vec<VarDecl>,
    pub records: Vec<Record>,
    pub enums: Vec<EnumDef>,
    pub tuples: Vec<TupleSpec>,
    pub aspecs: Vec<Spec>,
    pub especs: Vec<Spec>,
    pub hints: Vec<InvariantHint>,
    pub elaenia: bool,
    pub forex: bool,
}
