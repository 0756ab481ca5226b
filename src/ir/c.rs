//! What a C source says about its functions that the IR itself does not keep: the C types
//! of parameters and results, the integer model, the library functions. The C front end
//! fills it in; the engines never read it. Reports read it to speak in C terms, and the
//! native oracle (`forex run --native`) to write a harness that calls the compiled code
//! with a counterexample's values.

use std::path::PathBuf;

/// How C's integers are read (LANGUAGE.md, "C programs").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum IntModel {
    /// Unbounded integers (`--int-model math`; default for `@ELAENIA` files).
    #[default]
    Math,
    /// LP64 two's complement, unsigned wrap, signed overflow wrapping as `gcc -fwrapv`
    /// (`--int-model machine`; default for `@forex` files).
    Machine,
}

impl IntModel {
    /// What the model means, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            IntModel::Math => "C integers read as mathematical integers (--int-model math)",
            IntModel::Machine => {
                "C integers read as LP64 machine integers: two's complement, unsigned \
                 arithmetic wraps, signed overflow wraps as with gcc -fwrapv (--int-model \
                 machine)"
            }
        }
    }
}

/// A C scalar type of the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CScalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    /// IEEE binary32 and binary64 (LANGUAGE.md, "Floating point").
    Float,
    Double,
}

impl CScalar {
    /// Width in bits under LP64 (`_Bool` is 1 bit of value, stored in 8).
    pub fn bits(self) -> u32 {
        match self {
            CScalar::Bool => 1,
            CScalar::Char | CScalar::UChar => 8,
            CScalar::Short | CScalar::UShort => 16,
            CScalar::Int | CScalar::UInt => 32,
            CScalar::Long | CScalar::ULong => 64,
            CScalar::Float => 32,
            CScalar::Double => 64,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, CScalar::Float | CScalar::Double)
    }
    /// Whether an integer type is signed (never for floats, which have no extensions).
    pub fn is_signed(self) -> bool {
        matches!(self, CScalar::Char | CScalar::Short | CScalar::Int | CScalar::Long)
    }
    /// The scalar a C type name (as `c_name` spells it) starts with: `int` for `int`,
    /// `int[]` and `int(int)`.
    pub fn from_c_name(name: &str) -> Option<CScalar> {
        let base = name.split(['[', '(']).next().unwrap_or(name).trim();
        [
            CScalar::Bool,
            CScalar::Char,
            CScalar::UChar,
            CScalar::Short,
            CScalar::UShort,
            CScalar::Int,
            CScalar::UInt,
            CScalar::Long,
            CScalar::ULong,
            CScalar::Float,
            CScalar::Double,
        ]
        .into_iter()
        .find(|s| s.c_name() == base)
    }
    /// The type as C spells it.
    pub fn c_name(self) -> &'static str {
        match self {
            CScalar::Bool => "_Bool",
            CScalar::Char => "char",
            CScalar::UChar => "unsigned char",
            CScalar::Short => "short",
            CScalar::UShort => "unsigned short",
            CScalar::Int => "int",
            CScalar::UInt => "unsigned int",
            CScalar::Long => "long",
            CScalar::ULong => "unsigned long",
            CScalar::Float => "float",
            CScalar::Double => "double",
        }
    }
}

/// A C type of a parameter, local or result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    Void,
    Scalar(CScalar),
    /// `T a[n]` (one dimension) or `T a[N][L]` (two): the element type and the number
    /// of dimensions. Sizes are not kept: arrays are total maps (LANGUAGE.md).
    Array {
        elem: CScalar,
        dims: u32,
    },
    /// `T *`: a pointer to the type (`void *`: `Void`).
    Pointer(Box<CType>),
    /// `struct tag` (by its tag; an anonymous one as `<anonymous>`).
    Struct(String),
}

impl CType {
    /// The type as C spells it (`int`, `int[]`, `int *`, `struct point *`).
    pub fn c_name(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Scalar(s) => s.c_name().into(),
            CType::Array { elem, dims } => {
                format!("{}{}", elem.c_name(), "[]".repeat(*dims as usize))
            }
            CType::Pointer(to) => {
                let inner = to.c_name();
                if inner.ends_with('*') {
                    format!("{inner}*")
                } else {
                    format!("{inner} *")
                }
            }
            CType::Struct(tag) => format!("struct {tag}"),
        }
    }
}

impl std::fmt::Display for CType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.c_name())
    }
}

/// What a pointer parameter brings with it (LANGUAGE.md: at the start it is `NULL` or
/// points to the first element of its own fresh object): the IR variables of its object
/// tag and offset, the tag of its own object, and that object's storage (one IR array per
/// leaf of the pointee type: `*p`, or `p->a`, `p->b` for a struct).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CPointee {
    pub tag_var: String,
    pub off_var: String,
    pub object: u32,
    pub leaves: Vec<String>,
}

/// A parameter of a C function, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CParam {
    pub name: String,
    pub ty: CType,
    /// The IR variable of the program that holds it (usually `name`; a struct's or a
    /// pointer's first leaf).
    pub var: String,
    /// The IR variables whose initial values are the argument as the caller passes it:
    /// `[var]` for a scalar or an array, every leaf of a struct (`s.a`, `s.b`), a pointer's
    /// object tag (which says whether it is `NULL`; its offset starts at 0).
    pub inputs: Vec<String>,
    /// A pointer parameter's own object (`None` for `void *` and non-pointers).
    pub pointee: Option<CPointee>,
    /// Pointers inside the value or the pointee (a struct member, `int **`): their tags
    /// name objects of one version only, so versions cannot be compared on them by default.
    pub nested_pointers: bool,
}

/// A function defined in the file that is a program of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CFunction {
    pub name: String,
    pub ret: CType,
    pub params: Vec<CParam>,
    /// The IR variable that holds the returned value (`ret`), if the function returns a
    /// scalar.
    pub ret_var: Option<String>,
    /// The IR variables of the returned value's leaves (`ret`; `ret.a`, `ret.b` for a
    /// struct; `ret`, `ret.off` for a pointer).
    pub ret_leaves: Vec<String>,
    /// The returned value holds pointers (a pointer, a struct with one).
    pub ret_pointers: bool,
    /// The globals and static locals (`f::x`) the function's code uses, inlined callees'
    /// included.
    pub globals: Vec<CGlobal>,
    /// Its undefined-behaviour sites (`$ub == k`: the k-th) and how reports name its
    /// memory objects (tag k: the k-th), for tuples built outside the file.
    pub ub: Vec<UbSite>,
    pub objects: Vec<String>,
    /// 1-based line of the definition in the `.c` file.
    pub line: u32,
}

/// A global or static local: its IR name (`g`, a static local `x` of `f` as `f::x`), C
/// type and the IR variables of its leaves (`g`; `s.a`, `s.b`; `p`, `p.off`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CGlobal {
    pub name: String,
    /// As C spells it (`int`, `struct acc`, `int *`).
    pub ty: String,
    pub leaves: Vec<String>,
    /// It holds pointers (see [`CParam::nested_pointers`]).
    pub pointers: bool,
}

/// How a library call (a function that is only declared) is modelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibraryModel {
    /// No spec: an uninterpreted function. Every copy that calls it has the program
    /// variable `var`, an array indexed by the (first) argument (nested arrays for more
    /// arguments), equal in all copies by the tuple's `pre`: the function's table.
    Uninterpreted { var: String },
    /// Havocked under its `aspecs`/`especs` entry: each call's result is one
    /// nondeterministic choice of the copy, taken in call order.
    Specified,
}

/// A function that is only declared (`int mix(int x);`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CLibrary {
    pub name: String,
    pub ret: CScalar,
    pub params: Vec<CScalar>,
    pub model: LibraryModel,
}

/// The C facts of one module read from a `.c` file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CInfo {
    pub source: PathBuf,
    pub model: IntModel,
    pub functions: Vec<CFunction>,
    pub libraries: Vec<CLibrary>,
    /// The file's globals (static locals are their functions').
    pub globals: Vec<CGlobal>,
    /// Per defined function, the variables its copies show in C terms (the copy part of a
    /// [`CView`]), for tuples built outside the file (`forex equiv`).
    pub views: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    /// Per directly self-recursive function, when asked for (`forex equiv`): its summary
    /// lowering for mutual summaries, or why it has none (`c::lower::summary`).
    pub summaries: std::collections::BTreeMap<String, Result<Summary, String>>,
}

/// A recursive function lowered with each recursive call of its body a read of the
/// uninterpreted table `table` (indexed by the call's arguments, as library tables are)
/// instead of an unfolding, and ghost variables per call site: whether the run made that
/// call and with which arguments. `forex equiv` pairs two of them (Godlin–Strichman
/// mutual summaries; the argument for soundness is in `c::lower::summary`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub program: crate::ir::Program,
    /// The table's IR variable.
    pub table: String,
    /// The call sites, in order of lowering.
    pub sites: Vec<SummarySite>,
    /// The lowering whose body's calls are inlined once (their own calls read the table)
    /// under `assume T[args] == result`: an old version's summary that meets a new
    /// version's base case one call further on (`n <= 1` against `n <= 0`).
    pub unfolded: Option<Box<Summary>>,
}

/// One recursive call site of a [`Summary`]: the IR variables of its ghosts (`hit`: the
/// run made the call, false at the start; `args`: the call's arguments, as the
/// parameters received them) and where the call is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummarySite {
    pub hit: String,
    pub args: Vec<String>,
    pub line: u32,
    pub col: u32,
}

impl CInfo {
    pub fn function(&self, name: &str) -> Option<&CFunction> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// The ghost variable of a C program with undefined-behaviour sites: 0, or the first
/// site its run reached (1-based).
pub const UB_VAR: &str = "$ub";

/// A place where a C program may have undefined behaviour (LANGUAGE.md): the k-th site
/// of a program is reached when its ghost variable `$ub` becomes k.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UbSite {
    /// What happens there (`null dereference`, `access outside its object`, `use after
    /// free`, `assertion failed`, …).
    pub kind: String,
    pub line: u32,
    pub col: u32,
}

/// How a C tuple's counterexamples are shown: per copy, the variables the C source names
/// (parameters, locals, `ret`, library functions' tables) with their C types (`int`,
/// `unsigned char[]`, `int(int)` for a table). Variables of forex's own (`$return`, the
/// locals of inlined callees `f::x`) are not listed, so reports leave them out. The C
/// front end fills it in; engines never read it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CView {
    /// The integer model the tuple was read under (reports say which).
    pub model: IntModel,
    pub copies: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    /// Per copy, its program's undefined-behaviour sites (`$ub == k`: the k-th).
    pub ub: std::collections::BTreeMap<String, Vec<UbSite>>,
    /// Undefined behaviour was assumed absent (`--no-ub`): sites are `assume`s.
    pub no_ub: bool,
    /// Per copy, how reports name its memory objects (pointer tag k: the k-th).
    pub objects: std::collections::BTreeMap<String, Vec<String>>,
    /// The library functions its copies call without a model (declared, not defined,
    /// no spec, not one LANGUAGE.md models): uninterpreted, and the report says so.
    pub uninterpreted: Vec<String>,
}
