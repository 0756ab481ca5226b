//! C functions → IR programs: block scoping (distinct IR names `x#2` for a second `x`),
//! calls inlined (`f::x`, arrays by reference; recursion unfolded to a depth, then a cut, self tail calls a loop: `recursion`), `return`/`break`/
//! `continue` lowered to flags guarding the rest (`$return`, `$break1`, …; tail returns
//! need none), side effects in C's order with temporaries (`$t1`), short-circuit and `?:`
//! operands with effects or division guards lowered to `if`, division by zero (and
//! `INT_MIN / -1`, out-of-range shifts) as guarded `assume`s, library calls under their
//! specs or as uninterpreted tables, and formulas (`pre`/`post`/hints) over tuple copies.
//!
//! The lowering is split by what it reads: `stmt` (statements, scopes and the flags
//! for jumps), `expr` (C's values, effects in order), `arith` (guarded arithmetic),
//! `call` (inlining and library calls), `program` (one function as one program: its
//! signature, the passes over memory objects, the limits) and `formula` (annotation
//! formulas); this file holds the lowerer's state, its variables and scopes.

mod access;
mod arith;
mod call;
pub mod ctype;
mod expr;
mod float;
mod flow;
mod formula;
mod global;
mod heap;
pub mod memory;
pub mod place;
mod program;
mod recursion;
mod stmt;
mod string;
mod summary;
pub mod ub;

pub use call::nondet_type;
pub use ctype::CTy;
pub use formula::{Binding, FormulaEnv};
pub use memory::Object;
pub use place::{Slot, CV};
pub use summary::summary;

use super::ast::{self, Function, Ident, RecordKind, Type as CType};
use super::types::{Model, Val};
use crate::diag::{Diagnostic, LineIndex};
use crate::ir::c::CScalar;
use crate::ir::{self, BinOp, Expr, Loc, Quantifier, Type, VarDecl, VarId};
use std::collections::HashMap;

pub type Span = std::ops::Range<usize>;

/// The C type of an IR variable of a lowered program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarTy {
    Scalar(CScalar),
    /// Element type and number of dimensions.
    Array(CScalar, u32),
}

/// A lowered function: the IR program and what formulas need to name its variables.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// Shared: lowered once, read by the module's programs and each tuple's copies.
    pub program: std::rc::Rc<ir::Program>,
    pub types: Vec<VarTy>,
    /// C names of the top-level function (its parameters and locals, `ret`, the globals
    /// and static locals its code uses) → their storage (several: ambiguous in formulas).
    pub names: HashMap<String, Vec<Slot>>,
    /// Uninterpreted library tables: function name → variable.
    pub tables: HashMap<String, VarId>,
    /// The memory objects pointers may reach (tag k: `objects[k - 1]`).
    pub objects: Vec<Object>,
    /// The program's undefined-behaviour sites (`$ub == k`: the k-th).
    pub ub: Vec<crate::ir::c::UbSite>,
    /// Pointer parameters of the function and the tag of the object each points to.
    pub param_objects: Vec<(String, u32)>,
    /// The globals and static locals the program uses: C name → IR name of its storage's
    /// first leaf (static locals as `f::x`).
    pub globals: Vec<(String, CTy)>,
    /// A summary lowering's table and call sites (`summary`).
    pub summary: Option<summary::SummaryState>,
}

/// Everything lowering needs to know about the file.
pub struct Context<'a> {
    pub src: &'a str,
    pub lines: LineIndex,
    pub model: Model,
    pub functions: HashMap<String, &'a Function>,
    pub libraries: HashMap<String, &'a Function>,
    /// File-scope objects by name (their first declaration).
    pub globals: HashMap<String, &'a ast::VarDecl>,
    pub aspecs: HashMap<String, &'a ast::Spec>,
    pub especs: HashMap<String, &'a ast::Spec>,
    /// Functions with errors of their own (not inlined: their errors are reported there).
    pub broken: std::collections::HashSet<String>,
    /// The file's records and enums (types refer to them).
    pub file: &'a ast::File,
    /// An `@ELAENIA` file: arrays are total maps (an index is never undefined behaviour).
    pub elaenia: bool,
    /// `--no-ub`: undefined behaviour is assumed absent (sites are `assume`s).
    pub no_ub: bool,
    /// The size of each defined function's body (statements and expressions), which
    /// inlining it adds.
    pub sizes: HashMap<String, usize>,
    pub limits: Limits,
    /// When reading the file started (the time limit counts from it).
    pub started: std::time::Instant,
}

/// What the front end may spend on one file (DESIGN.md §8: about linear in its size).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Past it, lowering stops.
    pub deadline: Option<std::time::Instant>,
    /// The most syntax-tree nodes one program may hold once its calls are inlined (a
    /// function calling one that calls one … twice each doubles per level).
    pub max_inlined: usize,
    /// How many instances of one function a chain of inlined calls may hold: a recursive
    /// call deeper than that is a [`Stmt::Cut`].
    pub recursion_depth: u32,
}

/// A limit that lowering ran into: the tuples that needed the program end `unknown`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitHit {
    Time(std::time::Duration),
    Size { function: String, limit: usize },
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitHit::Time(d) => write!(
                f,
                "the C front end ran out of time ({} s) inlining the file's calls",
                d.as_secs_f64()
            ),
            LimitHit::Size { function, limit } => write!(
                f,
                "`{function}` is too large once its calls are inlined (more than {limit} \
                 statements and expressions; the front end's memory limit)"
            ),
        }
    }
}

/// Why a function could not be lowered.
#[derive(Clone, Debug)]
pub enum Failure {
    Errors(Vec<Diagnostic>),
    Limit(LimitHit),
}

/// The size of statements (their statements and expressions), what inlining costs.
pub fn size_of(stmts: &[ast::Stmt]) -> usize {
    fn expr(e: &ast::Expr) -> usize {
        use ast::ExprKind as K;
        1 + match &e.kind {
            K::Unary(_, a) | K::Cast(_, a) | K::SizeofExpr(a) | K::Member { base: a, .. } => {
                expr(a)
            }
            K::IncDec { arg, .. } => expr(arg),
            K::Binary(_, a, b) | K::Assign(_, a, b) | K::Index(a, b) | K::Comma(a, b) => {
                expr(a) + expr(b)
            }
            K::Cond(a, b, c) => expr(a) + expr(b) + expr(c),
            K::Call(_, args) => args.iter().map(expr).sum(),
            K::CallPtr(f, args) => expr(f) + args.iter().map(expr).sum::<usize>(),
            K::Quant { body, .. } => expr(body),
            _ => 0,
        }
    }
    fn init(i: &ast::Init) -> usize {
        match i {
            ast::Init::Expr(e) => expr(e),
            ast::Init::List(items, _) => items.iter().map(|it| init(&it.init)).sum(),
        }
    }
    fn stmt(s: &ast::Stmt) -> usize {
        use ast::StmtKind as S;
        1 + match &s.kind {
            S::Decl(ds) => ds.iter().map(|d| d.init.as_ref().map_or(0, init)).sum(),
            S::Expr(e) | S::Return(Some(e)) => expr(e),
            S::If(c, a, b) => expr(c) + stmt(a) + b.as_deref().map_or(0, stmt),
            S::While(c, b) | S::DoWhile(b, c) | S::Switch(c, b) => expr(c) + stmt(b),
            S::For { init, cond, step, body } => {
                init.as_deref().map_or(0, stmt)
                    + cond.as_ref().map_or(0, expr)
                    + step.as_ref().map_or(0, expr)
                    + stmt(body)
            }
            S::Block(ss) => ss.iter().map(stmt).sum(),
            S::Case(_, _, b) | S::Default(b) | S::Label(_, b) => stmt(b),
            _ => 0,
        }
    }
    stmts.iter().map(stmt).sum()
}

impl Context<'_> {
    pub fn loc(&self, offset: usize) -> Loc {
        self.lines.loc(self.src, offset)
    }

    pub fn tables(&self) -> super::consts::Tables<'_> {
        super::consts::Tables { records: &self.file.records, enums: &self.file.enums }
    }

    /// The variable type that holds a C type, or what forex does not read in it and
    /// whether that comes from the declarator (`*`, `[…]`, a function) rather than the
    /// type words.
    pub fn var_ty(&self, t: &CType) -> Result<VarTy, (String, bool)> {
        let mut dims = 0u32;
        let mut cur = t;
        while let CType::Array(e, _) = cur {
            dims += 1;
            cur = e;
        }
        let elem = match cur {
            CType::Int(k) => k.scalar(),
            CType::Float(ast::FloatKind::Float) => CScalar::Float,
            CType::Float(ast::FloatKind::Double) => CScalar::Double,
            CType::Enum(_) => super::consts::scalar_of(cur, self.tables()).unwrap_or(CScalar::Int),
            other => return Err((unsupported_type(other, self.file), declarator_made(other))),
        };
        match dims {
            0 => Ok(VarTy::Scalar(elem)),
            1 | 2 => Ok(VarTy::Array(elem, dims)),
            _ => Err(("arrays of more than two dimensions are not supported".into(), true)),
        }
    }
}

/// Whether forex's missing part of type `t` is written in a declarator (`*p`, `(*f)(…)`)
/// rather than in the type words.
fn declarator_made(t: &CType) -> bool {
    matches!(t, CType::Pointer(_) | CType::Function(_))
}

/// What forex does not read yet in type `t`, as a message.
pub fn unsupported_type(t: &CType, file: &ast::File) -> String {
    match t {
        CType::Pointer(p) if matches!(**p, CType::Function(_)) => {
            "function pointers are not supported yet".into()
        }
        CType::Pointer(_) => "pointers are not supported yet".into(),
        CType::Float(_) => "`long double` is not supported".into(),
        CType::Record(id) => match file.records.get(id.0 as usize).map(|r| r.kind) {
            Some(RecordKind::Union) => "`union` types are not supported yet".into(),
            _ => "`struct` types are not supported yet".into(),
        },
        CType::Function(_) => "function types are not supported here".into(),
        CType::Void => "`void` has no values".into(),
        CType::Other(what) => format!("{what} are not supported"),
        CType::Int(_) | CType::Enum(_) | CType::Array(..) => "this type is not supported".into(),
    }
}

/// What a `break` or `continue` leaves: a loop, or a `switch` (only `break`).
#[derive(Default)]
struct LoopCtx {
    brk: Option<VarId>,
    cont: Option<VarId>,
    switch: bool,
}

struct Frame {
    func: String,
    prefix: String,
    ret: Option<Slot>,
    ret_flag: Option<VarId>,
    loops: Vec<LoopCtx>,
    scopes: Vec<HashMap<String, Slot>>,
    decl_count: HashMap<String, u32>,
    /// The flag of each label a `goto` jumps to (set by the `goto`, cleared at the label).
    gotos: HashMap<String, VarId>,
    /// Per statement list being lowered, the labels of its statements still ahead: a
    /// `goto` may jump forward to one of them.
    ahead: Vec<Vec<String>>,
    /// Whether the function has a `goto` (else labels need no bookkeeping).
    has_goto: bool,
    /// A function that calls itself in `return f(…);` runs in a loop: the flag that
    /// such a call sets to go round again.
    again: Option<VarId>,
}

impl Frame {
    fn new(func: &str, prefix: String, ret: Option<Slot>) -> Frame {
        Frame {
            func: func.to_string(),
            prefix,
            ret,
            ret_flag: None,
            loops: Vec::new(),
            scopes: vec![HashMap::new()],
            decl_count: HashMap::new(),
            gotos: HashMap::new(),
            ahead: Vec::new(),
            has_goto: false,
            again: None,
        }
    }

    /// The return and `goto` flags made while lowering the function, in a fixed order.
    fn jump_flags(&self) -> Vec<VarId> {
        let mut gotos: Vec<VarId> = self.gotos.values().copied().collect();
        gotos.sort_by_key(|v| v.0);
        self.ret_flag.into_iter().chain(gotos).collect()
    }
}

pub struct Lowerer<'c, 'a> {
    pub(crate) cx: &'c Context<'a>,
    side: Quantifier,
    vars: Vec<VarDecl>,
    types: Vec<VarTy>,
    index: HashMap<String, VarId>,
    names: HashMap<String, Vec<Slot>>,
    tables: HashMap<String, VarId>,
    frames: Vec<Frame>,
    counter: u32,
    /// Memory objects (tag k: `objects[k - 1]`), those of the previous pass first.
    objects: Vec<Object>,
    ub_sites: Vec<crate::ir::c::UbSite>,
    param_objects: Vec<(String, u32)>,
    /// Top-level pointer parameters that the function never assigns: their tag variable
    /// and the one object they may point to.
    fixed_params: HashMap<VarId, Vec<u32>>,
    /// Globals used, in order of first use.
    globals_used: Vec<String>,
    /// Static locals met: C name, IR base name, slot, declaration.
    statics: Vec<(String, String, Slot, ast::VarDecl)>,
    /// `malloc` sites lowered so far (each inlined copy of a call is a site of its own).
    heap_sites: u32,
    /// The functions being inlined (a call of one of them is recursion).
    active: std::collections::HashSet<String>,
    /// The syntax-tree nodes inlined into this program so far.
    inlined: usize,
    /// The limit lowering ran into; from then on it stops.
    limit: Option<LimitHit>,
    /// The jump flags of inlined calls (set false at the program's start).
    inline_flags: Vec<VarId>,
    /// Lowering a summary (`summary`): its recursive calls read a table.
    summary: Option<summary::SummaryState>,
    pub diags: Vec<Diagnostic>,
}

fn not(e: Expr) -> Expr {
    Expr::negate(e)
}

fn and(a: Expr, b: Expr) -> Expr {
    Expr::binary(BinOp::And, a, b)
}

fn or(a: Expr, b: Expr) -> Expr {
    Expr::binary(BinOp::Or, a, b)
}

impl<'c, 'a> Lowerer<'c, 'a> {
    pub fn new(cx: &'c Context<'a>, side: Quantifier) -> Self {
        Lowerer {
            cx,
            side,
            vars: Vec::new(),
            types: Vec::new(),
            index: HashMap::new(),
            names: HashMap::new(),
            tables: HashMap::new(),
            frames: Vec::new(),
            counter: 0,
            objects: Vec::new(),
            ub_sites: Vec::new(),
            param_objects: Vec::new(),
            fixed_params: HashMap::new(),
            globals_used: Vec::new(),
            statics: Vec::new(),
            heap_sites: 0,
            active: std::collections::HashSet::new(),
            inlined: 0,
            limit: None,
            inline_flags: Vec::new(),
            summary: None,
            diags: Vec::new(),
        }
    }

    fn err(&mut self, msg: impl Into<String>, sp: &Span, label: &str) {
        self.diags.push(Diagnostic::new(msg, sp.clone()).with_label(label));
    }

    fn loc(&self, sp: &Span) -> Loc {
        self.cx.loc(sp.start)
    }

    fn m(&self) -> Model {
        self.cx.model
    }

    /// The variable named `name` (made on first use with type `ty`).
    fn var(&mut self, name: &str, ty: VarTy, at: &Span) -> VarId {
        if let Some(v) = self.index.get(name) {
            return *v;
        }
        let ir_ty = match &ty {
            VarTy::Scalar(s) => self.m().ir(*s),
            VarTy::Array(e, d) => {
                let mut t = self.m().ir(*e);
                for _ in 0..*d {
                    t = Type::Array(Box::new(t));
                }
                t
            }
        };
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarDecl { name: name.to_string(), ty: ir_ty, loc: self.loc(at) });
        self.types.push(ty);
        self.index.insert(name.to_string(), id);
        id
    }

    fn fresh(&mut self, base: &str, ty: VarTy, at: &Span) -> VarId {
        self.counter += 1;
        let name = format!("${base}{}", self.counter);
        self.var(&name, ty, at)
    }

    fn scalar_of(&self, v: VarId) -> Option<CScalar> {
        match self.types[v.index()] {
            VarTy::Scalar(s) => Some(s),
            VarTy::Array(..) => None,
        }
    }

    fn val_of(&self, v: VarId) -> Val {
        let s = self.scalar_of(v).unwrap_or(CScalar::Int);
        Val { e: Expr::var(v, self.vars[v.index()].ty.clone()), ty: s }
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("inside a function")
    }

    /// The storage C name `name` means here: a local or parameter of the innermost
    /// function, else a global.
    fn lookup(&mut self, name: &str, sp: &Span) -> Option<Slot> {
        let local = self
            .frames
            .last()
            .and_then(|f| f.scopes.iter().rev().find_map(|s| s.get(name).cloned()));
        match local {
            Some(s) => Some(s),
            None => self.global_slot(name, sp),
        }
    }

    /// Whether `name` is a local or parameter of the innermost function.
    fn is_local(&self, name: &str) -> bool {
        self.frames.last().is_some_and(|f| f.scopes.iter().any(|s| s.contains_key(name)))
    }

    /// The IR name of the next declaration of C name `name` in the current function.
    fn decl_name(&mut self, name: &str, prefix: &str) -> String {
        let f = self.frames.last_mut().expect("frame");
        let k = f.decl_count.entry(name.to_string()).or_insert(0);
        *k += 1;
        if *k == 1 {
            format!("{prefix}{name}")
        } else {
            format!("{prefix}{name}#{k}")
        }
    }

    /// Declares C name `name` of type `ty` in the current scope: its storage.
    fn declare(&mut self, name: &Ident, ty: &CTy) -> Option<Slot> {
        let top = self.frames.len() == 1;
        let prefix = self.frame().prefix.clone();
        let first = !self.frame().decl_count.contains_key(&name.name);
        let ret = self.frame().ret.clone();
        let slot = match ret {
            Some(r) if first && top && name.name == "ret" && r.ty == *ty => {
                self.frame().decl_count.insert(name.name.clone(), 1);
                r
            }
            _ => {
                let ir_name = self.decl_name(&name.name, &prefix);
                self.slot_vars(&ir_name, ty, &name.span)?
            }
        };
        self.bind(&name.name, slot.clone(), top);
        Some(slot)
    }

    /// Binds C name `name` to `slot` in the current scope (and for formulas, when `top`).
    fn bind(&mut self, name: &str, slot: Slot, top: bool) {
        let f = self.frames.last_mut().expect("frame");
        f.scopes.last_mut().expect("scope").insert(name.to_string(), slot.clone());
        if top {
            let list = self.names.entry(name.to_string()).or_default();
            if !list.contains(&slot) {
                list.push(slot);
            }
        }
    }

    pub fn model(&self) -> Model {
        self.cx.model
    }

    /// The number of IR variables so far.
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }
}
