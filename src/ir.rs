//! The checked, typed intermediate representation: the one input of every engine.
//!
//! Produced by `check` from the syntax tree; never refers back to syntax. Invariants
//! (established by the checker, relied on by the engines):
//! - every expression carries its type, and operand types match the operator;
//! - in a [`Tuple`], every copy's variables are distinct [`VarId`]s, and every copy's
//!   body mentions only its own variables;
//! - `pre`, `post` and hints mention only tuple variables and bound variables of
//!   enclosing quantifiers;
//! - expression and statement nesting depth is at most [`MAX_DEPTH`], so recursive
//!   passes over the IR cannot overflow a normal thread stack.
//!
//! Semantics fixed here (and followed by the interpreter and the SMT encoding alike):
//! integers are unbounded; `/` and `%` on integers are SMT-LIB `div`/`mod` (Euclidean),
//! with `x / 0 == 0` and `x % 0 == x`; bit-vector arithmetic wraps, comparisons and
//! `/ %` are unsigned, with `x / 0 == all ones` and `x % 0 == x` (SMT-LIB); shifts are
//! logical and take a shift amount of the same width.
//!
//! Floating point (`float`, `double`: IEEE-754 binary32 and binary64, as gcc compiles C
//! on x86-64 with `-ffp-contract=off`): every operation rounds to nearest, ties to even;
//! there is one NaN (SMT-LIB's: no sign, no payload; `copysign` and `signbit` read it as
//! positive). `==`, `!=`, `<`, `<=`, `>`, `>=` on floats are C's (IEEE) comparisons: false
//! on NaN except `!=`, and `-0.0 == 0.0`; `===` is identity (SMT-LIB `=`: NaN equals
//! itself, +0 differs from −0), and `==` on arrays compares elements by identity too.
//! `fmin`/`fmax` ignore a NaN argument and return the first argument on ties (glibc on
//! x86-64: `fmin(-0.0, 0.0)` is `-0.0`, `fmin(0.0, -0.0)` is `0.0`). Conversions to a
//! float round to nearest even; conversions from a float to an integer truncate toward
//! zero and are total: NaN, infinities and values whose truncation the target cannot hold
//! give 0. C gives those no meaning; [`UnOp::FloatFits`] says whether the conversion is
//! in range, and a front end for C turns it into a guarded `assume` (no run), like
//! division by zero.

use num_bigint::BigInt;
use std::fmt;

pub use float::FloatKind;

/// Largest nesting depth of expressions and statements the checker accepts.
pub const MAX_DEPTH: usize = 400;

/// The body of a string literal (between the quotes) → the string: `\"` and `\\` are
/// escapes; characters are printable ASCII (space to `~`), the alphabet every engine
/// shares. `Err` gives the byte offset of the first bad character or escape.
pub fn unescape_string(body: &str) -> Result<String, usize> {
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        let c = match c {
            '\\' => match chars.next() {
                Some((_, e @ ('"' | '\\'))) => e,
                _ => return Err(i),
            },
            ' '..='~' => c,
            _ => return Err(i),
        };
        out.push(c);
    }
    Ok(out)
}

/// A string as a literal, quotes included (the inverse of [`unescape_string`]).
pub fn escape_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Largest bit-vector width.
pub const MAX_BV_WIDTH: u32 = 128;

/// A position in a source file, for messages that point at program text
/// ("the loops at gni.fe:14:5 and gni.fe:31:5").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Loc {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    /// Bit-vector of the given width (1..=MAX_BV_WIDTH).
    Bv(u32),
    /// Array from `int` indices to elements of the given (scalar) type.
    Array(Box<Type>),
    /// A string of characters (Z3's sequence theory).
    Str,
    /// An IEEE-754 float (`float` or `double`).
    Float(FloatKind),
}

impl Type {
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Type::Array(_))
    }
    /// A float, or an array of floats.
    pub fn has_float(&self) -> bool {
        match self {
            Type::Float(_) => true,
            Type::Array(elem) => elem.has_float(),
            _ => false,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => write!(f, "int"),
            Type::Bool => write!(f, "bool"),
            Type::Bv(w) => write!(f, "bv{w}"),
            Type::Array(elem) => write!(f, "{elem}[]"),
            Type::Str => write!(f, "string"),
            Type::Float(k) => write!(f, "{k}"),
        }
    }
}

/// A variable: an index into the variable table of the enclosing [`Program`] or [`Tuple`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

impl VarId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A variable bound by a quantifier in `pre`/`post` (`forall i: int :: …`).
/// Ids are unique within one tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoundId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-e` on int or bvN (two's complement).
    Neg,
    /// `!e` on bool.
    Not,
    /// `~e` on bvN.
    BitNot,
    /// `abs(e)` on int.
    Abs,
    /// `int(e)` on bvN: the unsigned value (Z3's `bv2int`; one term, not one per bit).
    BvToInt,
    /// `len(s)` on a string: its number of characters.
    StrLen,
    /// Sign extension of a bvN by `n` bits to bv(N+n) (SMT-LIB `sign_extend`; C front end).
    SignExt(u32),
    /// Zero extension of a bvN by `n` bits to bv(N+n) (SMT-LIB `zero_extend`; C front end).
    ZeroExt(u32),
    /// `fabs(x)`: the float with its sign cleared (NaN stays NaN).
    FAbs,
    /// `sqrt(x)`, correctly rounded (`sqrt(-0.0)` is -0.0, negative numbers give NaN).
    Sqrt,
    /// Rounding a float to an integral float in a direction (`floor`, `ceil`, …).
    RoundTo(RoundDir),
    /// A classification of a float (`isnan`, …): a bool.
    FloatIs(FloatClass),
    /// Conversion to a float of the given format, rounding to nearest even: from a float,
    /// an int, or a bit-vector read as unsigned (`signed: false`) or two's complement.
    ToFloat { kind: FloatKind, signed: bool },
    /// Conversion of a float to an integer, truncating toward zero; total (0 for NaN,
    /// infinities and out-of-range values; see [`UnOp::FloatFits`]).
    FloatToInt(IntTarget),
    /// Whether [`UnOp::FloatToInt`] of the float is in range: the float is finite and its
    /// truncation is a value of the target. C's conversion has no run otherwise.
    FloatFits(IntTarget),
    /// The float's bit pattern as a bvN of its width (NaN canonical: one pattern). Only the
    /// C front end builds it, as an injective key of a float in the tables of
    /// uninterpreted library functions.
    FloatBits,
}

/// The rounding direction of [`UnOp::RoundTo`] (IEEE `roundToIntegral` modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundDir {
    /// `floor`: toward −∞.
    Floor,
    /// `ceil`: toward +∞.
    Ceil,
    /// `trunc`: toward zero.
    Trunc,
    /// `round`: to nearest, halves away from zero (C's `round`).
    Round,
    /// `rint`/`nearbyint`: to nearest, halves to even (C's default rounding mode).
    Rint,
}

impl RoundDir {
    pub fn name(self) -> &'static str {
        match self {
            RoundDir::Floor => "floor",
            RoundDir::Ceil => "ceil",
            RoundDir::Trunc => "trunc",
            RoundDir::Round => "round",
            RoundDir::Rint => "rint",
        }
    }
}

/// The classifications of [`UnOp::FloatIs`], as C's `math.h` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatClass {
    Nan,
    Inf,
    Finite,
    Normal,
    Subnormal,
    Zero,
    /// `signbit(x)`: the sign bit is set (`-0.0` included; false for NaN, see above).
    SignBit,
}

impl FloatClass {
    /// The function's name in `.fe` (C's `math.h` name, `iszero` forex's own).
    pub fn name(self) -> &'static str {
        match self {
            FloatClass::Nan => "isnan",
            FloatClass::Inf => "isinf",
            FloatClass::Finite => "isfinite",
            FloatClass::Normal => "isnormal",
            FloatClass::Subnormal => "issubnormal",
            FloatClass::Zero => "iszero",
            FloatClass::SignBit => "signbit",
        }
    }
}

/// The integer type a float converts to ([`UnOp::FloatToInt`], [`UnOp::FloatFits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntTarget {
    /// Unbounded `int`: every finite float fits.
    Int,
    /// A bvN read as unsigned (0..2^N) or as two's complement (−2^(N−1)..2^(N−1)).
    Bv { width: u32, signed: bool },
}

impl IntTarget {
    /// The IR type of the converted value.
    pub fn ty(self) -> Type {
        match self {
            IntTarget::Int => Type::Int,
            IntTarget::Bv { width, .. } => Type::Bv(width),
        }
    }
    /// The conversion's name in `.fe`: `int`, `bv8`, `sbv8`.
    pub fn name(self) -> String {
        match self {
            IntTarget::Int => "int".into(),
            IntTarget::Bv { width, signed: false } => format!("bv{width}"),
            IntTarget::Bv { width, signed: true } => format!("sbv{width}"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Implies,
    Iff,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    /// `min(a, b)` on int.
    Min,
    /// `max(a, b)` on int.
    Max,
    /// Signed bit-vector functions (`slt(a, b)` …), as SMT-LIB `bvslt`, `bvsle`, `bvsgt`,
    /// `bvsge`, `bvsdiv`, `bvsrem`, `bvashr`: two's-complement order, division rounding
    /// towards zero (`sdiv(a, 0)` is -1 for `a >= 0` and 1 otherwise), remainder with the
    /// dividend's sign (`srem(a, 0) == a`), arithmetic shift right. Native operators, so
    /// nesting them grows the term linearly.
    SLt,
    SLe,
    SGt,
    SGe,
    SDiv,
    SRem,
    AShr,
    /// `concat(a, b)` on strings (ForEx `str.++`).
    Concat,
    /// `a === b`: identity (SMT-LIB `=`). On floats NaN is identical to itself and +0 is
    /// not identical to −0; the checker writes `===` on other types as `==`.
    Ident,
    /// `fmin(a, b)`, `fmax(a, b)` on floats (semantics in the header).
    FMin,
    FMax,
    /// `copysign(a, b)`: `a`'s magnitude with `b`'s sign.
    CopySign,
}

impl BinOp {
    /// The operator as written in `.fe` syntax (`min`/`max` as function names).
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&&",
            Or => "||",
            Implies => "==>",
            Iff => "<==>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Shl => "<<",
            Shr => ">>",
            Min => "min",
            Max => "max",
            SLt => "slt",
            SLe => "sle",
            SGt => "sgt",
            SGe => "sge",
            SDiv => "sdiv",
            SRem => "srem",
            AShr => "ashr",
            Concat => "concat",
            Ident => "===",
            FMin => "fmin",
            FMax => "fmax",
            CopySign => "copysign",
        }
    }
    /// Written as a call `f(a, b)` rather than infix.
    pub fn is_function(self) -> bool {
        use BinOp::*;
        matches!(
            self,
            Min | Max
                | SLt
                | SLe
                | SGt
                | SGe
                | SDiv
                | SRem
                | AShr
                | Concat
                | FMin
                | FMax
                | CopySign
        )
    }
    /// Whether the operator's result is a bool whatever its operands.
    pub fn is_predicate(self) -> bool {
        use BinOp::*;
        matches!(
            self,
            Lt | Le | Gt | Ge | Eq | Ne | And | Or | Implies | Iff | SLt | SLe | SGt | SGe | Ident
        )
    }
}

/// How a copy is quantified. Serialized as `"forall"` / `"exists"` (counterexamples).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quantifier {
    Forall,
    Exists,
}

impl Quantifier {
    /// `forall` or `exists`, as written in `.fe`.
    pub fn keyword(self) -> &'static str {
        match self {
            Quantifier::Forall => "forall",
            Quantifier::Exists => "exists",
        }
    }
    /// `∀` or `∃`.
    pub fn symbol(self) -> &'static str {
        match self {
            Quantifier::Forall => "∀",
            Quantifier::Exists => "∃",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    Var(VarId),
    Bound(BoundId),
    Int(BigInt),
    Bool(bool),
    /// A bit-vector literal; `value` < 2^width, the width is in `Expr::ty`.
    Bv(u128),
    /// A string literal (printable ASCII).
    Str(String),
    /// A float literal: its bit pattern, canonical (`FloatKind::canonical`); the format is
    /// in `Expr::ty`.
    Float(u64),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `array[index]`.
    Select(Box<Expr>, Box<Expr>),
    /// The array whose every element is the operand's value (C's `int a[n] = {0}`: the
    /// cells past the listed ones are zero, so two such arrays compare equal). The
    /// expression's type is `Array(operand's type)`.
    ConstArray(Box<Expr>),
    /// `e[hi:lo]` on a bit-vector; the result has width hi - lo + 1.
    Extract {
        hi: u32,
        lo: u32,
        arg: Box<Expr>,
    },
    /// `fma(a, b, c)`: `a * b + c` on floats with one rounding.
    Fma(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `forall x: int :: body` / `exists …` (only in pre, post and hints).
    Quant {
        quantifier: Quantifier,
        var: BoundId,
        name: String,
        var_ty: Type,
        body: Box<Expr>,
    },
}

/// Identifies a `while` loop within one program, numbered in source order from 0.
/// Within a tuple, a loop is identified by (copy index, `LoopId`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    Skip,
    Assign {
        var: VarId,
        value: Expr,
        loc: Loc,
    },
    /// `a[index] = value;`
    Store {
        array: VarId,
        index: Expr,
        value: Expr,
        loc: Loc,
    },
    /// `x = *;`
    Havoc {
        var: VarId,
        loc: Loc,
    },
    Assume {
        cond: Expr,
        loc: Loc,
    },
    If {
        cond: Expr,
        then_branch: Block,
        else_branch: Block,
        loc: Loc,
    },
    /// `if (*) { … } else { … }`
    IfStar {
        then_branch: Block,
        else_branch: Block,
        loc: Loc,
    },
    While {
        id: LoopId,
        cond: Expr,
        body: Block,
        loc: Loc,
    },
    /// `observe;`: the current state is the program's next observation. Only tuples
    /// judged [`PropertyKind::Always`] give it a meaning; under `post` it is `skip`.
    Observe {
        loc: Loc,
    },
    /// The program text ends here though the program's runs do not: a call deeper than
    /// the front end unfolded a recursive function (C). Runs that reach it are not
    /// modelled, so no engine may treat it as `assume false` where that loses runs it
    /// must cover: the searching engines treat it as a loop past its unrolling bound
    /// (a ∀ run through it is not explored, an ∃ run through it is no witness and its
    /// absence no proof), the prover refuses ∀ copies that can reach it, and the
    /// interpreter stops a run there unfinished.
    Cut {
        loc: Loc,
    },
}

pub type Block = Vec<Stmt>;

mod block;
pub mod c;
pub use block::*;
mod expr;
pub mod float;
pub mod steps;
mod tuple;
pub use tuple::*;
