//! C functions → IR programs: block scoping (distinct IR names `x#2` for a second `x`),
//! calls inlined (`f::x`, arrays by reference; recursion unfolded to a depth, then a cut, self tail calls a loop: `recursion`), `return`/`break`/
//! `continue` lowered to flags guarding the rest (`$return`, `$break1`, …; tail returns
//! need none), side effects in C's order with temporaries (`$t1`), short-circuit and `?:`
//! operands with effects or division guards lowered to `if`, division by zero (and
//! `INT_MIN / -1`, out-of-range shifts) as guarded `assume`s, library calls under their
//! specs or as uninterpreted tables, and formulas (`pre`/`post`/hints) over tuple copies.
//!
//! The lowering is split by what it reads: `stmt` (statements, scopes and the flags
//! for jumps), `expr` (C's values, effects in order, guarded arithmetic), `call`
//! (inlining and library calls) and `formula` (annotation formulas); this file holds
//! the lowerer's state, its variables and scopes, and the per-function entry.

mod call;
mod expr;
mod float;
mod flow;
mod formula;
mod recursion;
mod stmt;

pub use call::nondet_type;
pub use formula::{Binding, FormulaEnv};

use super::ast::{self, Function, Ident, RecordKind, Type as CType};
use super::types::{Model, Val};
use crate::diag::{Diagnostic, LineIndex};
use crate::ir::c::CScalar;
use crate::ir::{self, BinOp, Expr, Loc, Quantifier, Stmt, Type, VarDecl, VarId};
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
    /// C names of the top-level function → IR variables (several: ambiguous in formulas).
    pub names: HashMap<String, Vec<VarId>>,
    /// Uninterpreted library tables: function name → variable.
    pub tables: HashMap<String, VarId>,
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
    ret: Option<(VarId, CScalar)>,
    ret_flag: Option<VarId>,
    loops: Vec<LoopCtx>,
    scopes: Vec<HashMap<String, VarId>>,
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
    fn new(func: &str, prefix: String, ret: Option<(VarId, CScalar)>) -> Frame {
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
    cx: &'c Context<'a>,
    side: Quantifier,
    vars: Vec<VarDecl>,
    types: Vec<VarTy>,
    index: HashMap<String, VarId>,
    names: HashMap<String, Vec<VarId>>,
    tables: HashMap<String, VarId>,
    frames: Vec<Frame>,
    counter: u32,
    /// The C type each declared variable was declared with (for `sizeof`).
    decl_types: HashMap<VarId, CType>,
    /// The functions being inlined (a call of one of them is recursion).
    active: std::collections::HashSet<String>,
    /// The syntax-tree nodes inlined into this program so far.
    inlined: usize,
    /// The limit lowering ran into; from then on it stops.
    limit: Option<LimitHit>,
    /// The jump flags of inlined calls (set false at the program's start).
    inline_flags: Vec<VarId>,
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
            decl_types: HashMap::new(),
            active: std::collections::HashSet::new(),
            inlined: 0,
            limit: None,
            inline_flags: Vec::new(),
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

    fn lookup(&self, name: &str) -> Option<VarId> {
        let f = self.frames.last()?;
        f.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// Declares C name `name` in the current scope: its IR variable.
    fn declare(&mut self, name: &Ident, ty: VarTy) -> VarId {
        let top = self.frames.len() == 1;
        let f = self.frames.last_mut().expect("frame");
        let k = f.decl_count.entry(name.name.clone()).or_insert(0);
        *k += 1;
        let k = *k;
        let prefix = f.prefix.clone();
        let ret_same = k == 1 && name.name == "ret" && f.ret.is_some() && top;
        let v = if ret_same {
            f.ret.map(|r| r.0).unwrap_or(VarId(0))
        } else {
            let ir_name = if k == 1 {
                format!("{prefix}{}", name.name)
            } else {
                format!("{prefix}{}#{k}", name.name)
            };
            self.var(&ir_name, ty, &name.span)
        };
        let f = self.frames.last_mut().expect("frame");
        f.scopes.last_mut().expect("scope").insert(name.name.clone(), v);
        if top {
            let list = self.names.entry(name.name.clone()).or_default();
            if !list.contains(&v) {
                list.push(v);
            }
        }
        v
    }

    pub fn model(&self) -> Model {
        self.cx.model
    }

    /// The number of IR variables so far.
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }

    /// Lowers `f` as a program of a copy quantified by `side`.
    pub fn program(mut self, f: &Function) -> Result<Lowered, Failure> {
        let ret = self.signature(f).map_err(Failure::Errors)?;
        self.active.insert(f.name.name.clone());
        self.inlined = self.cx.sizes.get(&f.name.name).copied().unwrap_or(0);
        self.frames.push(Frame::new(&f.name.name, String::new(), None));
        if ret.is_some() && f.params.iter().any(|p| p.name.name == "ret") {
            self.err(
                "a parameter named `ret` clashes with the returned value `ret`",
                &f.name.span,
                "rename the parameter",
            );
        }
        for p in &f.params {
            if let Ok(t) = self.cx.var_ty(&p.ty) {
                let v = self.declare(&p.name, t);
                // An array parameter is a pointer to C's `sizeof`.
                let adjusted = match &p.ty {
                    CType::Array(e, _) => CType::Pointer(e.clone()),
                    t => t.clone(),
                };
                self.decl_types.insert(v, adjusted);
            }
        }
        if let Some(s) = ret {
            let v = self.var("ret", VarTy::Scalar(s), &f.name.span);
            self.names.entry("ret".into()).or_default().push(v);
            self.frame().ret = Some((v, s));
        }
        let body = f.body.as_deref().unwrap_or(&[]);
        self.frame().has_goto = flow::has_goto(body);
        let mut out = Vec::new();
        self.frame().scopes.push(HashMap::new());
        self.body_into(f, &mut out);
        self.frame().scopes.pop();
        let frame = self.frames.pop().expect("frame");
        // Jump flags start false (they are read only after a statement that may set them).
        let loc = self.loc(&f.span);
        let flags = frame.jump_flags().into_iter().chain(self.inline_flags.iter().copied());
        let resets: Vec<Stmt> =
            flags.map(|var| Stmt::Assign { var, value: Expr::bool(false), loc }).collect();
        out.splice(0..0, resets);
        if let Some(hit) = self.limit {
            return Err(Failure::Limit(hit));
        }
        if !self.diags.is_empty() {
            return Err(Failure::Errors(self.diags));
        }
        float::guard_conversions(&mut out);
        let mut next = 0;
        ir::renumber_loops(&mut out, &mut next);
        if too_deep(&out).is_some() {
            return Err(Failure::Errors(vec![Diagnostic::new(
                format!(
                    "`{}` nests too deeply once lowered (more than {} levels)",
                    f.name.name,
                    ir::MAX_DEPTH
                ),
                f.name.span.clone(),
            )
            .with_label("too deep")]));
        }
        Ok(Lowered {
            program: std::rc::Rc::new(ir::Program {
                name: f.name.name.clone(),
                vars: self.vars,
                body: out,
                loc: self.cx.loc(f.span.start),
            }),
            types: self.types,
            names: self.names,
            tables: self.tables,
        })
    }
}

impl Lowerer<'_, '_> {
    /// Whether lowering must stop: a limit was hit, or is hit now (the deadline).
    pub(super) fn out_of_limits(&mut self) -> bool {
        if self.limit.is_some() {
            return true;
        }
        let limits = self.cx.limits;
        if let Some(deadline) = limits.deadline {
            if std::time::Instant::now() >= deadline {
                let start = self.cx.started;
                self.limit = Some(LimitHit::Time(deadline.saturating_duration_since(start)));
                return true;
            }
        }
        false
    }

    /// The returned scalar (`None`: `void`), after checking that forex reads the
    /// function's result and parameter types (errors at the types that it does not).
    fn signature(&mut self, f: &Function) -> Result<Option<CScalar>, Vec<Diagnostic>> {
        let mut errs = Vec::new();
        let ret = match &f.ret {
            CType::Void => None,
            t => match self.cx.var_ty(t) {
                Ok(VarTy::Scalar(s)) => Some(s),
                Ok(VarTy::Array(..)) | Err(_) => {
                    let what = match self.cx.var_ty(t) {
                        Err((w, _)) => w,
                        _ => "returning arrays is not supported".into(),
                    };
                    errs.push(
                        Diagnostic::new(
                            format!("`{}`'s result: {what}", f.name.name),
                            f.name.span.clone(),
                        )
                        .with_label("the result's type"),
                    );
                    None
                }
            },
        };
        if f.variadic {
            let at = self.cx.src[f.span.clone()]
                .find("...")
                .map_or(f.name.span.clone(), |i| f.span.start + i..f.span.start + i + 3);
            errs.push(
                Diagnostic::new("variadic functions (`...`) are not supported", at)
                    .with_label("outside what forex reads"),
            );
        }
        for p in &f.params {
            if let Err((what, _)) = self.cx.var_ty(&p.ty) {
                errs.push(
                    Diagnostic::new(what, p.span.clone()).with_label("this parameter's type"),
                );
            }
        }
        if errs.is_empty() {
            Ok(ret)
        } else {
            Err(errs)
        }
    }
}

/// Whether a lowered body exceeds `ir::MAX_DEPTH` (statements or expressions).
fn too_deep(b: &[Stmt]) -> Option<()> {
    fn go(b: &[Stmt], d: usize) -> bool {
        if d > ir::MAX_DEPTH {
            return true;
        }
        b.iter().any(|s| match s {
            Stmt::Assign { value, .. } => d + ir::expr_depth(value) > ir::MAX_DEPTH,
            Stmt::Store { index, value, .. } => {
                d + ir::expr_depth(index).max(ir::expr_depth(value)) > ir::MAX_DEPTH
            }
            Stmt::Assume { cond, .. } => d + ir::expr_depth(cond) > ir::MAX_DEPTH,
            Stmt::If { cond, then_branch, else_branch, .. } => {
                d + ir::expr_depth(cond) > ir::MAX_DEPTH
                    || go(then_branch, d + 1)
                    || go(else_branch, d + 1)
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                go(then_branch, d + 1) || go(else_branch, d + 1)
            }
            Stmt::While { cond, body, .. } => {
                d + ir::expr_depth(cond) > ir::MAX_DEPTH || go(body, d + 1)
            }
            _ => false,
        })
    }
    go(b, 0).then_some(())
}
