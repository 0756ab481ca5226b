//! C functions → IR programs: block scoping (distinct IR names `x#2` for a second `x`),
//! calls inlined (`f::x`, arrays by reference, recursion an error), `return`/`break`/
//! `continue` lowered to flags guarding the rest (`$return`, `$break1`, …; tail returns
//! need none), side effects in C's order with temporaries (`$t1`), short-circuit and `?:`
//! operands with effects or division guards lowered to `if`, division by zero (and
//! `INT_MIN / -1`, out-of-range shifts) as guarded `assume`s, library calls under their
//! specs or as uninterpreted tables, and formulas (`pre`/`post`/hints) over tuple copies.

use super::ast::{self, BinaryOp, DeclTy, ExprKind as K, Function, Ident, StmtKind, UnaryOp};
use super::types::{common, ite, min_value, promote, Model, Val};
use crate::diag::{Diagnostic, LineIndex};
use crate::ir::c::CScalar;
use crate::ir::{
    self, BinOp, BoundId, Expr, ExprKind, Loc, LoopId, Quantifier, Stmt, Type, UnOp, VarDecl, VarId,
};
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
    pub program: ir::Program,
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
    pub aspecs: HashMap<String, &'a ast::Spec>,
    pub especs: HashMap<String, &'a ast::Spec>,
    /// Functions with errors of their own (not inlined: their errors are reported there).
    pub broken: std::collections::HashSet<String>,
}

impl Context<'_> {
    pub fn loc(&self, offset: usize) -> Loc {
        self.lines.loc(self.src, offset)
    }
}

#[derive(Default)]
struct LoopCtx {
    brk: Option<VarId>,
    cont: Option<VarId>,
}

struct Frame {
    func: String,
    prefix: String,
    ret: Option<(VarId, CScalar)>,
    ret_flag: Option<VarId>,
    loops: Vec<LoopCtx>,
    scopes: Vec<HashMap<String, VarId>>,
    decl_count: HashMap<String, u32>,
}

/// What a name means in a formula.
#[derive(Clone)]
pub enum Binding {
    Val(Val),
    /// A bound variable of a quantifier.
    Bound(BoundId, CScalar),
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
    pub diags: Vec<Diagnostic>,
}

fn flat(b: Vec<Stmt>) -> Vec<Stmt> {
    b
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

/// Whether a statement contains `break`/`continue` of the enclosing loop, and `return`.
fn jumps(s: &ast::Stmt) -> (bool, bool) {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => (true, false),
        StmtKind::Return(_) => (false, true),
        StmtKind::If(_, a, b) => {
            let (x1, y1) = jumps(a);
            let (x2, y2) = b.as_ref().map(|b| jumps(b)).unwrap_or((false, false));
            (x1 || x2, y1 || y2)
        }
        StmtKind::Block(ss) => {
            ss.iter().map(jumps).fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1))
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } => {
            (false, jumps(b).1)
        }
        _ => (false, false),
    }
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

    // ------------------------------------------------------------ functions

    /// Lowers `f` as a program of a copy quantified by `side`.
    pub fn program(mut self, f: &Function) -> Result<Lowered, Vec<Diagnostic>> {
        let ret = match f.ret {
            DeclTy::Scalar(s) => Some(s),
            _ => None,
        };
        self.frames.push(Frame {
            func: f.name.name.clone(),
            prefix: String::new(),
            ret: None,
            ret_flag: None,
            loops: Vec::new(),
            scopes: vec![HashMap::new()],
            decl_count: HashMap::new(),
        });
        if ret.is_some() && f.params.iter().any(|p| p.name.name == "ret") {
            self.err(
                "a parameter named `ret` clashes with the returned value `ret`",
                &f.name.span,
                "rename the parameter",
            );
        }
        for p in &f.params {
            self.declare(&p.name, decl_var_ty(&p.ty));
        }
        if let Some(s) = ret {
            let v = self.var("ret", VarTy::Scalar(s), &f.name.span);
            self.names.entry("ret".into()).or_default().push(v);
            self.frame().ret = Some((v, s));
        }
        let body = f.body.as_deref().unwrap_or(&[]);
        let mut out = self.block_stmts(body, true);
        if let Some(flag) = self.frame().ret_flag {
            out.insert(
                0,
                Stmt::Assign { var: flag, value: Expr::bool(false), loc: self.loc(&f.span) },
            );
        }
        self.frames.pop();
        if !self.diags.is_empty() {
            return Err(self.diags);
        }
        let mut next = 0;
        ir::renumber_loops(&mut out, &mut next);
        if too_deep(&out).is_some() {
            return Err(vec![Diagnostic::new(
                format!(
                    "`{}` nests too deeply once lowered (more than {} levels)",
                    f.name.name,
                    ir::MAX_DEPTH
                ),
                f.name.span.clone(),
            )
            .with_label("too deep")]);
        }
        Ok(Lowered {
            program: ir::Program {
                name: f.name.name.clone(),
                vars: self.vars,
                body: out,
                loc: self.cx.loc(f.span.start),
            },
            types: self.types,
            names: self.names,
            tables: self.tables,
        })
    }

    // ------------------------------------------------------------ statements

    /// A block in its own scope; `tail`: its end is the function's end.
    fn block_stmts(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        self.frame().scopes.push(HashMap::new());
        let out = self.seq(stmts, tail);
        self.frame().scopes.pop();
        out
    }

    fn seq(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            self.stmt(s, tail && last, &mut out);
            if last {
                break;
            }
            let (loop_jump, ret) = jumps(s);
            let mut flags = Vec::new();
            if ret {
                if let Some(f) = self.frame().ret_flag {
                    flags.push(f);
                }
            }
            if loop_jump {
                if let Some(l) = self.frame().loops.last() {
                    flags.extend(l.brk);
                    flags.extend(l.cont);
                }
            }
            if !flags.is_empty() {
                let cond = flags
                    .into_iter()
                    .map(|f| Expr::var(f, Type::Bool))
                    .reduce(or)
                    .expect("nonempty");
                // The rest is guarded; declarations in it stay in this scope.
                let rest = self.seq(&stmts[i + 1..], tail);
                out.push(Stmt::If {
                    cond: not(cond),
                    then_branch: rest,
                    else_branch: Vec::new(),
                    loc: self.loc(&stmts[i + 1].span),
                });
                return out;
            }
        }
        out
    }

    fn stmt(&mut self, s: &ast::Stmt, tail: bool, out: &mut Vec<Stmt>) {
        let loc = self.loc(&s.span);
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => out.extend(self.block_stmts(b, tail)),
            StmtKind::Decl(ds) => {
                for d in ds {
                    self.decl(d, out);
                }
            }
            StmtKind::Expr(e) => {
                self.effect(e, out);
            }
            StmtKind::If(c, a, b) => {
                let Some(cv) = self.expr(c, out) else { return };
                let cond = self.m().truth(&cv);
                let then_branch = self.block_stmts(std::slice::from_ref(a), tail);
                let else_branch = match b {
                    Some(b) => self.block_stmts(std::slice::from_ref(b), tail),
                    None => Vec::new(),
                };
                out.push(Stmt::If { cond, then_branch, else_branch, loc });
            }
            StmtKind::While(c, body) => self.lower_loop(Some(c), body, None, false, &s.span, out),
            StmtKind::DoWhile(body, c) => self.lower_loop(Some(c), body, None, true, &s.span, out),
            StmtKind::For { init, cond, step, body } => {
                self.frame().scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i, false, out);
                }
                self.lower_loop(cond.as_ref(), body, step.as_ref(), false, &s.span, out);
                self.frame().scopes.pop();
            }
            StmtKind::Break | StmtKind::Continue => {
                let brk = matches!(s.kind, StmtKind::Break);
                if self.frame().loops.is_empty() {
                    let w = if brk { "break" } else { "continue" };
                    self.err(format!("`{w}` outside a loop"), &s.span, "no enclosing loop");
                    return;
                }
                let n = self.frame().loops.len();
                let existing = {
                    let l = self.frame().loops.last().expect("loop");
                    if brk {
                        l.brk
                    } else {
                        l.cont
                    }
                };
                let flag = match existing {
                    Some(f) => f,
                    None => {
                        let base = if brk { "break" } else { "continue" };
                        let prefix = self.frame().prefix.clone();
                        let f = self.fresh(
                            &format!("{prefix}{base}"),
                            VarTy::Scalar(CScalar::Bool),
                            &s.span,
                        );
                        let l = self.frame().loops.last_mut().expect("loop");
                        if brk {
                            l.brk = Some(f)
                        } else {
                            l.cont = Some(f)
                        }
                        let _ = n;
                        f
                    }
                };
                out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let Some(v) = self.expr(e, out) else { return };
                    match self.frame().ret {
                        Some((r, ty)) => {
                            let value = self.m().convert(&v, ty);
                            out.push(Stmt::Assign { var: r, value, loc });
                        }
                        None => {
                            let f = self.frame().func.clone();
                            self.err(
                                format!("`{f}` returns `void`: no value to return"),
                                &e.span,
                                "a value",
                            );
                            return;
                        }
                    }
                }
                let in_loop = !self.frame().loops.is_empty();
                if !tail || in_loop {
                    let flag = match self.frame().ret_flag {
                        Some(f) => f,
                        None => {
                            let prefix = self.frame().prefix.clone();
                            let f = self.var(
                                &format!("{prefix}$return"),
                                VarTy::Scalar(CScalar::Bool),
                                &s.span,
                            );
                            self.frame().ret_flag = Some(f);
                            f
                        }
                    };
                    out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc });
                }
            }
        }
    }

    /// `while`, `do … while` (`do_first`) and `for` (with `step`).
    fn lower_loop(
        &mut self,
        cond: Option<&ast::Expr>,
        body: &ast::Stmt,
        step: Option<&ast::Expr>,
        do_first: bool,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        // The condition's own statements (effects, division guards), if any.
        let mut cond_stmts = Vec::new();
        let cv = match cond {
            Some(c) => match self.expr(c, &mut cond_stmts) {
                Some(v) => self.m().truth(&v),
                None => return,
            },
            None => Expr::bool(true),
        };
        let needs_var = do_first || !cond_stmts.is_empty();
        self.frame().loops.push(LoopCtx::default());
        let ret_before = self.frame().ret_flag;
        let mut inner = self.block_stmts(std::slice::from_ref(body), false);
        let ctx = self.frame().loops.pop().expect("loop");
        let ret_flag = self.frame().ret_flag;
        let returns = jumps(body).1;
        let _ = ret_before;
        let mut exits: Vec<Expr> = Vec::new();
        if let Some(b) = ctx.brk {
            exits.push(Expr::var(b, Type::Bool));
        }
        if returns {
            if let Some(r) = ret_flag {
                exits.push(Expr::var(r, Type::Bool));
            }
        }
        let running = exits.iter().cloned().reduce(or).map(not);
        if let Some(c) = ctx.cont {
            inner.insert(0, Stmt::Assign { var: c, value: Expr::bool(false), loc });
        }
        let mut tail_stmts = Vec::new();
        if let Some(st) = step {
            self.effect(st, &mut tail_stmts);
        }
        let guard_var = if needs_var {
            let base = format!("{}loop", self.frame().prefix);
            let g = self.fresh(&base, VarTy::Scalar(CScalar::Bool), sp);
            tail_stmts.extend(cond_stmts.iter().cloned());
            tail_stmts.push(Stmt::Assign { var: g, value: cv.clone(), loc });
            Some(g)
        } else {
            None
        };
        if !tail_stmts.is_empty() {
            match &running {
                Some(r) => inner.push(Stmt::If {
                    cond: r.clone(),
                    then_branch: tail_stmts,
                    else_branch: Vec::new(),
                    loc,
                }),
                None => inner.extend(tail_stmts),
            }
        }
        if let Some(b) = ctx.brk {
            out.push(Stmt::Assign { var: b, value: Expr::bool(false), loc });
        }
        let guard = match guard_var {
            Some(g) => {
                if do_first {
                    out.push(Stmt::Assign { var: g, value: Expr::bool(true), loc });
                } else {
                    out.extend(cond_stmts);
                    out.push(Stmt::Assign { var: g, value: cv, loc });
                }
                Expr::var(g, Type::Bool)
            }
            None => cv,
        };
        let cond = match running {
            Some(r) => and(r, guard),
            None => guard,
        };
        out.push(Stmt::While { id: LoopId(0), cond, body: flat(inner), loc });
    }

    fn decl(&mut self, d: &ast::VarDecl, out: &mut Vec<Stmt>) {
        let loc = self.loc(&d.name.span);
        match &d.ty {
            DeclTy::Void => {}
            DeclTy::Scalar(s) => {
                // The initialiser is evaluated before the name is in scope (`int x = x;`
                // reads an outer `x`, as in C only after the declarator; close enough).
                let init = match &d.init {
                    Some(ast::Init::Expr(e)) => self.expr(e, out),
                    Some(ast::Init::List(items, sp)) => match items.as_slice() {
                        [e] => self.expr(e, out),
                        _ => {
                            self.err("a scalar takes one initialiser", sp, "here");
                            None
                        }
                    },
                    None => None,
                };
                let v = self.declare(&d.name, VarTy::Scalar(*s));
                if let Some(iv) = init {
                    let value = self.m().convert(&iv, *s);
                    out.push(Stmt::Assign { var: v, value, loc });
                }
            }
            DeclTy::Array(elem, dims) => {
                let v = self.declare(&d.name, VarTy::Array(*elem, dims.len() as u32));
                match &d.init {
                    None => {}
                    Some(ast::Init::Expr(e)) => {
                        self.err(
                            "an array is initialised with a list `{…}`",
                            &e.span,
                            "not a list",
                        );
                    }
                    Some(ast::Init::List(items, sp)) => {
                        if dims.len() > 1 {
                            self.err(
                                "initialisers of two-dimensional arrays are not supported",
                                sp,
                                "here",
                            );
                            return;
                        }
                        let mut values = Vec::new();
                        for it in items {
                            let Some(iv) = self.expr(it, out) else { return };
                            values.push(self.m().convert(&iv, *elem));
                        }
                        let size = dims.first().cloned().flatten();
                        self.init_array(v, *elem, values, size.as_ref(), sp, out);
                    }
                }
            }
        }
    }

    /// `T a[n] = {v0, …, vk}`: the listed elements, then zeros up to `n`.
    fn init_array(
        &mut self,
        a: VarId,
        elem: CScalar,
        values: Vec<Expr>,
        size: Option<&ast::Expr>,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        let k = values.len();
        for (i, v) in values.into_iter().enumerate() {
            out.push(Stmt::Store { array: a, index: Expr::int(i as i64), value: v, loc });
        }
        let Some(size) = size else { return };
        let Some(n) = self.expr(size, out) else { return };
        let n = self.m().as_int(&n);
        if let ExprKind::Int(c) = &n.kind {
            use num_traits::ToPrimitive;
            if let Some(c) = c.to_i64().filter(|c| *c <= 1024) {
                for i in k as i64..c {
                    let z = self.m().lit_i(0, elem);
                    out.push(Stmt::Store { array: a, index: Expr::int(i), value: z, loc });
                }
                return;
            }
        }
        // A size that is not a small constant: a loop fills the rest with zeros.
        let i = self.fresh("fill", VarTy::Scalar(CScalar::Long), sp);
        let i_ty = self.vars[i.index()].ty.clone();
        let idx = |m: Model| m.as_int(&Val { e: Expr::var(i, i_ty.clone()), ty: CScalar::Long });
        out.push(Stmt::Assign { var: i, value: self.m().lit_i(k as i64, CScalar::Long), loc });
        let cond = Expr::binary(BinOp::Lt, idx(self.m()), n);
        let one = self.m().lit_i(1, CScalar::Long);
        let body = vec![
            Stmt::Store { array: a, index: idx(self.m()), value: self.m().lit_i(0, elem), loc },
            Stmt::Assign {
                var: i,
                value: Expr::binary(BinOp::Add, Expr::var(i, i_ty.clone()), one),
                loc,
            },
        ];
        out.push(Stmt::While { id: LoopId(0), cond, body, loc });
    }

    // ------------------------------------------------------------ expressions

    /// An expression statement: its effects, value discarded.
    fn effect(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        match &e.kind {
            K::IncDec { arg, inc, .. } => {
                let op = if *inc { BinaryOp::Add } else { BinaryOp::Sub };
                let one = ast::Expr { kind: K::Int(1.into(), CScalar::Int), span: e.span.clone() };
                self.assign(Some(op), arg, &one, &e.span, out);
            }
            K::Assign(op, l, r) => {
                self.assign(*op, l, r, &e.span, out);
            }
            K::Comma(a, b) => {
                self.effect(a, out);
                self.effect(b, out);
            }
            K::Call(f, args) => {
                self.call(f, args, &e.span, out, true);
            }
            _ => {
                self.expr(e, out);
            }
        }
    }

    /// `l op= r` (or `l = r`); returns the stored value.
    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        l: &ast::Expr,
        r: &ast::Expr,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Val> {
        let loc = self.loc(sp);
        match &l.kind {
            K::Var(name) => {
                let Some(v) = self.lookup(name) else {
                    self.err(format!("unknown variable `{name}`"), &l.span, "not declared");
                    return None;
                };
                let Some(ty) = self.scalar_of(v) else {
                    self.err(
                        format!("`{name}` is an array: assign its elements"),
                        &l.span,
                        "an array",
                    );
                    return None;
                };
                let rv = self.expr(r, out)?;
                let value = match op {
                    None => rv,
                    Some(op) => self.arith(op, self.val_of(v), rv, sp, Some(out))?,
                };
                let value = self.m().convert(&value, ty);
                out.push(Stmt::Assign { var: v, value, loc });
                Some(self.val_of(v))
            }
            K::Index(base, i) => {
                // a[i] or a[i][j].
                let (arr, idxs, elem) = self.element(l, out)?;
                let _ = (base, i);
                let cur = self.select(arr, &idxs, elem);
                let rv = self.expr(r, out)?;
                let value = match op {
                    None => rv,
                    Some(op) => self.arith(op, cur, rv, sp, Some(out))?,
                };
                let value = self.m().convert(&value, elem);
                let arr_ty = self.vars[arr.index()].ty.clone();
                match idxs.as_slice() {
                    [i] => out.push(Stmt::Store {
                        array: arr,
                        index: i.clone(),
                        value: value.clone(),
                        loc,
                    }),
                    [i, j] => {
                        let Type::Array(row_ty) = arr_ty.clone() else { return None };
                        let row = self.fresh("row", VarTy::Array(elem, 1), sp);
                        let _ = row_ty;
                        let read = Expr {
                            kind: ExprKind::Select(
                                Box::new(Expr::var(arr, arr_ty.clone())),
                                Box::new(i.clone()),
                            ),
                            ty: self.vars[row.index()].ty.clone(),
                        };
                        out.push(Stmt::Assign { var: row, value: read, loc });
                        out.push(Stmt::Store {
                            array: row,
                            index: j.clone(),
                            value: value.clone(),
                            loc,
                        });
                        let row_val = Expr::var(row, self.vars[row.index()].ty.clone());
                        out.push(Stmt::Store { array: arr, index: i.clone(), value: row_val, loc });
                    }
                    _ => return None,
                }
                Some(Val { e: value, ty: elem })
            }
            _ => {
                self.err(
                    "the left side of an assignment must be a variable or an array element",
                    &l.span,
                    "not assignable",
                );
                None
            }
        }
    }

    /// An element access `a[i]`/`a[i][j]`: the array, the indices, the element type.
    fn element(
        &mut self,
        e: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Option<(VarId, Vec<Expr>, CScalar)> {
        let mut idx_exprs = Vec::new();
        let mut cur = e;
        while let K::Index(b, i) = &cur.kind {
            idx_exprs.push(i.as_ref());
            cur = b;
        }
        idx_exprs.reverse();
        let K::Var(name) = &cur.kind else {
            self.err("only named arrays can be indexed", &cur.span, "not an array");
            return None;
        };
        let Some(v) = self.lookup(name) else {
            self.err(format!("unknown variable `{name}`"), &cur.span, "not declared");
            return None;
        };
        let VarTy::Array(elem, dims) = self.types[v.index()].clone() else {
            self.err(format!("`{name}` is not an array"), &cur.span, "a scalar");
            return None;
        };
        if idx_exprs.len() != dims as usize {
            self.err(
                format!("`{name}` has {dims} dimension(s), indexed with {}", idx_exprs.len()),
                &e.span,
                "wrong number of indices",
            );
            return None;
        }
        let mut idxs = Vec::new();
        for i in idx_exprs {
            let iv = self.expr(i, out)?;
            idxs.push(self.m().as_int(&iv));
        }
        Some((v, idxs, elem))
    }

    fn select(&self, arr: VarId, idxs: &[Expr], elem: CScalar) -> Val {
        let mut e = Expr::var(arr, self.vars[arr.index()].ty.clone());
        for i in idxs {
            let Type::Array(t) = e.ty.clone() else { break };
            e = Expr { kind: ExprKind::Select(Box::new(e), Box::new(i.clone())), ty: *t };
        }
        Val { e, ty: elem }
    }

    /// An expression's value; its effects and guards go to `out`.
    pub fn expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Val> {
        let m = self.m();
        let loc = self.loc(&e.span);
        match &e.kind {
            K::Int(v, t) => Some(Val { e: m.lit(v, *t), ty: *t }),
            K::Bool(b) => Some(Val { e: Expr::bool(*b), ty: CScalar::Bool }),
            K::Var(name) => {
                let Some(v) = self.lookup(name) else {
                    self.err(format!("unknown variable `{name}`"), &e.span, "not declared");
                    return None;
                };
                if self.scalar_of(v).is_none() {
                    self.err(
                        format!("`{name}` is an array: use an element `{name}[i]`"),
                        &e.span,
                        "an array",
                    );
                    return None;
                }
                Some(self.val_of(v))
            }
            K::Index(..) => {
                let (a, idxs, elem) = self.element(e, out)?;
                Some(self.select(a, &idxs, elem))
            }
            K::Str(_) => {
                self.err("string literals are not supported", &e.span, "outside the C subset");
                None
            }
            K::CopyVar(..) | K::RetBang | K::Quant { .. } => {
                self.err("this form belongs to annotation formulas", &e.span, "not C code");
                None
            }
            K::Cast(t, a) => {
                let v = self.expr(a, out)?;
                Some(m.to(&v, *t))
            }
            K::Unary(op, a) => {
                let v = self.expr(a, out)?;
                self.unary(*op, v, &e.span)
            }
            K::Binary(BinaryOp::And | BinaryOp::Or, a, b) => {
                let is_and = matches!(e.kind, K::Binary(BinaryOp::And, ..));
                let va = self.expr(a, out)?;
                let ca = m.truth(&va);
                let mut sb = Vec::new();
                let vb = self.expr(b, &mut sb)?;
                let cb = m.truth(&vb);
                if sb.is_empty() {
                    let r = if is_and { and(ca, cb) } else { or(ca, cb) };
                    return Some(Val { e: r, ty: CScalar::Bool });
                }
                let t = self.fresh("t", VarTy::Scalar(CScalar::Bool), &e.span);
                out.push(Stmt::Assign { var: t, value: ca, loc });
                sb.push(Stmt::Assign { var: t, value: cb, loc });
                let tv = Expr::var(t, Type::Bool);
                let cond = if is_and { tv.clone() } else { not(tv.clone()) };
                out.push(Stmt::If { cond, then_branch: sb, else_branch: Vec::new(), loc });
                Some(Val { e: tv, ty: CScalar::Bool })
            }
            K::Binary(op, a, b) => {
                let va = self.expr(a, out)?;
                let vb = self.expr(b, out)?;
                self.arith(*op, va, vb, &e.span, Some(out))
            }
            K::Cond(c, a, b) => {
                let vc = self.expr(c, out)?;
                let cc = m.truth(&vc);
                let mut sa = Vec::new();
                let mut sb = Vec::new();
                let va = self.expr(a, &mut sa)?;
                let vb = self.expr(b, &mut sb)?;
                let t = if va.ty == CScalar::Bool && vb.ty == CScalar::Bool {
                    CScalar::Bool
                } else {
                    common(va.ty, vb.ty)
                };
                let (ea, eb) = (m.convert(&va, t), m.convert(&vb, t));
                if sa.is_empty() && sb.is_empty() {
                    return Some(Val { e: ite(cc, ea, eb), ty: t });
                }
                let tmp = self.fresh("t", VarTy::Scalar(t), &e.span);
                sa.push(Stmt::Assign { var: tmp, value: ea, loc });
                sb.push(Stmt::Assign { var: tmp, value: eb, loc });
                out.push(Stmt::If { cond: cc, then_branch: sa, else_branch: sb, loc });
                Some(self.val_of(tmp))
            }
            K::Comma(a, b) => {
                self.effect(a, out);
                self.expr(b, out)
            }
            K::Assign(op, l, r) => self.assign(*op, l, r, &e.span, out),
            K::IncDec { pre, inc, arg } => {
                let op = if *inc { BinaryOp::Add } else { BinaryOp::Sub };
                let one = ast::Expr { kind: K::Int(1.into(), CScalar::Int), span: e.span.clone() };
                if *pre {
                    return self.assign(Some(op), arg, &one, &e.span, out);
                }
                let mut scratch = Vec::new();
                let old = self.expr(arg, &mut scratch)?;
                let tmp = self.fresh("t", VarTy::Scalar(old.ty), &e.span);
                out.extend(scratch);
                out.push(Stmt::Assign { var: tmp, value: old.e.clone(), loc });
                self.assign(Some(op), arg, &one, &e.span, out)?;
                Some(self.val_of(tmp))
            }
            K::Call(f, args) => self.call(f, args, &e.span, out, false),
        }
    }

    fn unary(&mut self, op: UnaryOp, v: Val, sp: &Span) -> Option<Val> {
        let m = self.m();
        match op {
            UnaryOp::Not => Some(Val { e: not(m.truth(&v)), ty: CScalar::Bool }),
            UnaryOp::Plus => Some(m.to(&v, promote(v.ty))),
            UnaryOp::Neg => {
                let t = promote(v.ty);
                let e = m.convert(&v, t);
                let ty = e.ty.clone();
                Some(Val { e: Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(e)), ty }, ty: t })
            }
            UnaryOp::BitNot => {
                if !m.machine() {
                    self.math_bitwise("~", sp);
                    return None;
                }
                let t = promote(v.ty);
                let e = m.convert(&v, t);
                let ty = e.ty.clone();
                Some(Val {
                    e: Expr { kind: ExprKind::Unary(UnOp::BitNot, Box::new(e)), ty },
                    ty: t,
                })
            }
        }
    }

    fn math_bitwise(&mut self, op: &str, sp: &Span) {
        self.diags.push(
            Diagnostic::new(
                format!("`{op}` needs a width: not available in the math integer model"),
                sp.clone(),
            )
            .with_label("bitwise operator")
            .with_hint("choose `--int-model machine` (LP64 machine integers)"),
        );
    }

    /// A binary operator on two values. With `out`, division by zero (and overflowing
    /// division, out-of-range shifts) becomes an `assume` there; without (formulas), the
    /// IR's total operators stand.
    pub fn arith(
        &mut self,
        op: BinaryOp,
        a: Val,
        b: Val,
        sp: &Span,
        out: Option<&mut Vec<Stmt>>,
    ) -> Option<Val> {
        use BinaryOp as B;
        let m = self.m();
        let loc = self.loc(sp);
        let boolean = |e| Some(Val { e, ty: CScalar::Bool });
        match op {
            B::And => return boolean(and(m.truth(&a), m.truth(&b))),
            B::Or => return boolean(or(m.truth(&a), m.truth(&b))),
            B::Implies => return boolean(Expr::binary(BinOp::Implies, m.truth(&a), m.truth(&b))),
            B::Iff => return boolean(Expr::binary(BinOp::Iff, m.truth(&a), m.truth(&b))),
            B::ArrayEq => {
                self.err("`=a=` compares whole arrays: name two arrays", sp, "not arrays");
                return None;
            }
            _ => {}
        }
        if matches!(op, B::Shl | B::Shr) {
            if !m.machine() {
                self.math_bitwise(op.symbol(), sp);
                return None;
            }
            let lt = promote(a.ty);
            let rt = promote(b.ty);
            let w = lt.bits();
            let amount = m.convert(&b, rt);
            if let Some(out) = out {
                let zero = m.lit_i(0, rt);
                let width = m.lit_i(w as i64, rt);
                let in_range = if rt.is_signed() {
                    and(
                        Expr::binary(BinOp::SGe, amount.clone(), zero),
                        Expr::binary(BinOp::SLt, amount.clone(), width),
                    )
                } else {
                    Expr::binary(BinOp::Lt, amount.clone(), width)
                };
                out.push(Stmt::Assume { cond: in_range, loc });
            }
            // In range (0 ≤ amount < width), so either extension keeps the value.
            let amt = m.convert(&Val { e: amount, ty: rt }, lt);
            let left = m.convert(&a, lt);
            let irop = match op {
                B::Shl => BinOp::Shl,
                _ if lt.is_signed() => BinOp::AShr,
                _ => BinOp::Shr,
            };
            return Some(Val { e: Expr::binary(irop, left, amt), ty: lt });
        }
        // Comparisons of two booleans need no conversion.
        if matches!(op, B::Eq | B::Ne) && a.ty == CScalar::Bool && b.ty == CScalar::Bool {
            let o = if op == B::Eq { BinOp::Eq } else { BinOp::Ne };
            return boolean(Expr::binary(o, a.e, b.e));
        }
        let t = common(a.ty, b.ty);
        let (x, y) = (m.convert(&a, t), m.convert(&b, t));
        let signed = t.is_signed();
        let machine = m.machine();
        let cmp = |o: BinOp, so: BinOp| if machine && signed { so } else { o };
        let e = match op {
            B::Add => Expr::binary(BinOp::Add, x, y),
            B::Sub => Expr::binary(BinOp::Sub, x, y),
            B::Mul => Expr::binary(BinOp::Mul, x, y),
            B::Lt => return boolean(Expr::binary(cmp(BinOp::Lt, BinOp::SLt), x, y)),
            B::Le => return boolean(Expr::binary(cmp(BinOp::Le, BinOp::SLe), x, y)),
            B::Gt => return boolean(Expr::binary(cmp(BinOp::Gt, BinOp::SGt), x, y)),
            B::Ge => return boolean(Expr::binary(cmp(BinOp::Ge, BinOp::SGe), x, y)),
            B::Eq => return boolean(Expr::binary(BinOp::Eq, x, y)),
            B::Ne => return boolean(Expr::binary(BinOp::Ne, x, y)),
            B::BitAnd | B::BitOr | B::BitXor => {
                if !machine {
                    self.math_bitwise(op.symbol(), sp);
                    return None;
                }
                let o = match op {
                    B::BitAnd => BinOp::BitAnd,
                    B::BitOr => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                Expr::binary(o, x, y)
            }
            B::Div | B::Mod => {
                let div = op == B::Div;
                if let Some(out) = out {
                    let mut ok = Expr::binary(BinOp::Ne, y.clone(), m.lit_i(0, t));
                    if machine && signed {
                        let overflow = and(
                            Expr::binary(BinOp::Eq, x.clone(), m.lit(&min_value(t), t)),
                            Expr::binary(BinOp::Eq, y.clone(), m.lit_i(-1, t)),
                        );
                        ok = and(ok, not(overflow));
                    }
                    out.push(Stmt::Assume { cond: ok, loc });
                }
                if machine {
                    let o = match (div, signed) {
                        (true, true) => BinOp::SDiv,
                        (false, true) => BinOp::SRem,
                        (true, false) => BinOp::Div,
                        (false, false) => BinOp::Mod,
                    };
                    Expr::binary(o, x, y)
                } else {
                    truncating(div, x, y)
                }
            }
            B::And | B::Or | B::Implies | B::Iff | B::ArrayEq | B::Shl | B::Shr => unreachable!(),
        };
        Some(Val { e, ty: t })
    }

    // ------------------------------------------------------------ calls

    fn call(
        &mut self,
        f: &Ident,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
        discard: bool,
    ) -> Option<Val> {
        let loc = self.loc(sp);
        let name = f.name.as_str();
        if let Some(t) = nondet_type(name) {
            if !args.is_empty() {
                self.err(format!("`{name}` takes no arguments"), sp, "here");
                return None;
            }
            let v = self.fresh("nondet", VarTy::Scalar(t), sp);
            out.push(Stmt::Havoc { var: v, loc });
            return Some(self.val_of(v));
        }
        if matches!(name, "__VERIFIER_assume" | "assume") {
            let [a] = args else {
                self.err(format!("`{name}` takes one condition"), sp, "here");
                return None;
            };
            let v = self.expr(a, out)?;
            out.push(Stmt::Assume { cond: self.m().truth(&v), loc });
            return Some(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int });
        }
        if self.cx.broken.contains(name) {
            self.err(
                format!("`{name}` has errors of its own: it cannot be inlined"),
                &f.span,
                "see its errors",
            );
            return None;
        }
        if let Some(def) = self.cx.functions.get(name).copied() {
            return self.inline(def, args, sp, out, discard);
        }
        if let Some(lib) = self.cx.libraries.get(name).copied() {
            return self.library(lib, args, sp, out);
        }
        self.diags.push(
            Diagnostic::new(format!("call of `{name}`, which the file neither defines nor declares"), f.span.clone())
                .with_label("unknown function")
                .with_hint(format!("define `{name}`, or declare it (`int {name}(int x);`) to make it a library function")),
        );
        None
    }

    /// Arguments converted to the parameters' types; arrays by reference.
    fn arguments(
        &mut self,
        callee: &Function,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Vec<Result<Val, VarId>>> {
        if args.len() != callee.params.len() {
            self.err(
                format!(
                    "`{}` takes {} argument(s), given {}",
                    callee.name.name,
                    callee.params.len(),
                    args.len()
                ),
                sp,
                "wrong number of arguments",
            );
            return None;
        }
        let mut vals = Vec::new();
        for (a, p) in args.iter().zip(&callee.params) {
            match &p.ty {
                DeclTy::Array(_, dims) => {
                    let K::Var(n) = &a.kind else {
                        self.err("an array parameter takes a named array", &a.span, "not an array");
                        return None;
                    };
                    let Some(v) = self.lookup(n) else {
                        self.err(format!("unknown variable `{n}`"), &a.span, "not declared");
                        return None;
                    };
                    match &self.types[v.index()] {
                        VarTy::Array(_, d) if *d as usize == dims.len() => vals.push(Err(v)),
                        _ => {
                            self.err(
                                format!("`{n}` is not an array of {} dimension(s)", dims.len()),
                                &a.span,
                                "mismatch",
                            );
                            return None;
                        }
                    }
                }
                DeclTy::Scalar(s) => {
                    let v = self.expr(a, out)?;
                    vals.push(Ok(self.m().to(&v, *s)));
                }
                DeclTy::Void => return None,
            }
        }
        Some(vals)
    }

    fn inline(
        &mut self,
        f: &Function,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
        discard: bool,
    ) -> Option<Val> {
        let loc = self.loc(sp);
        if let Some(pos) = self.frames.iter().position(|fr| fr.func == f.name.name) {
            let chain: Vec<&str> = self.frames[pos..].iter().map(|fr| fr.func.as_str()).collect();
            let msg = if chain.len() == 1 {
                format!("recursion: {} calls itself", f.name.name)
            } else {
                format!("recursion: {} calls {}", chain.join(" calls "), f.name.name)
            };
            self.diags.push(
                Diagnostic::new(msg, sp.clone())
                    .with_label("recursive call")
                    .with_hint("calls are inlined; recursive functions are outside the C subset"),
            );
            return None;
        }
        let vals = self.arguments(f, args, sp, out)?;
        let prefix = format!("{}::", f.name.name);
        let mut scope = HashMap::new();
        let mut assigns = Vec::new();
        for (p, v) in f.params.iter().zip(vals) {
            match v {
                Err(arr) => {
                    scope.insert(p.name.name.clone(), arr);
                }
                Ok(val) => {
                    let pv = self.var(
                        &format!("{prefix}{}", p.name.name),
                        VarTy::Scalar(val.ty),
                        &p.name.span,
                    );
                    assigns.push(Stmt::Assign { var: pv, value: val.e, loc });
                    scope.insert(p.name.name.clone(), pv);
                }
            }
        }
        out.extend(assigns);
        let ret = match f.ret {
            DeclTy::Scalar(s) => {
                Some((self.var(&format!("{prefix}ret"), VarTy::Scalar(s), &f.name.span), s))
            }
            _ => None,
        };
        self.frames.push(Frame {
            func: f.name.name.clone(),
            prefix,
            ret,
            ret_flag: None,
            loops: Vec::new(),
            scopes: vec![scope, HashMap::new()],
            decl_count: HashMap::new(),
        });
        let body = self.seq(f.body.as_deref().unwrap_or(&[]), true);
        let frame = self.frames.pop().expect("frame");
        if let Some(flag) = frame.ret_flag {
            out.push(Stmt::Assign { var: flag, value: Expr::bool(false), loc });
        }
        out.extend(body);
        let (r, s) = ret?;
        if discard {
            return Some(self.val_of(r));
        }
        // The result is copied: a later call of the same function reuses its variables.
        let t = self.fresh(&f.name.name, VarTy::Scalar(s), sp);
        out.push(Stmt::Assign {
            var: t,
            value: Expr::var(r, self.vars[r.index()].ty.clone()),
            loc,
        });
        Some(self.val_of(t))
    }

    /// A call of a function that is only declared: under its spec for this side, or the
    /// uninterpreted table.
    fn library(
        &mut self,
        f: &Function,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Val> {
        let loc = self.loc(sp);
        let vals = self.arguments(f, args, sp, out)?;
        let mut scalars = Vec::new();
        for v in vals {
            match v {
                Ok(v) => scalars.push(v),
                Err(_) => {
                    self.err(
                        "library functions with array parameters are not supported",
                        sp,
                        "array argument",
                    );
                    return None;
                }
            }
        }
        let ret = match f.ret {
            DeclTy::Scalar(s) => s,
            _ => return Some(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int }),
        };
        let name = f.name.name.clone();
        let (own, other) = match self.side {
            Quantifier::Forall => (
                self.cx.aspecs.get(name.as_str()).copied(),
                self.cx.especs.get(name.as_str()).copied(),
            ),
            Quantifier::Exists => (
                self.cx.especs.get(name.as_str()).copied(),
                self.cx.aspecs.get(name.as_str()).copied(),
            ),
        };
        if let Some(spec) = own {
            let mut env: HashMap<String, Val> = HashMap::new();
            for (p, v) in spec.params.iter().zip(&scalars) {
                env.insert(p.name.clone(), v.clone());
            }
            let existential = self.side == Quantifier::Exists && !spec.choice_vars.is_empty();
            for c in &spec.choice_vars {
                let v =
                    self.fresh(&format!("{name}.{}", c.name), VarTy::Scalar(CScalar::Int), &c.span);
                out.push(Stmt::Havoc { var: v, loc });
                env.insert(c.name.clone(), self.val_of(v));
            }
            let pre = match &spec.pre {
                Some(p) => Some(self.spec_formula(p, &env, None)?),
                None => None,
            };
            let r = self.fresh(&name, VarTy::Scalar(ret), sp);
            let rv = self.val_of(r);
            let post = match &spec.post {
                Some(p) => Some(self.spec_formula(p, &env, Some(&rv))?),
                None => None,
            };
            if existential || self.side == Quantifier::Exists {
                // ∃ side: the choices satisfy pre, the result satisfies post.
                if let Some(p) = pre {
                    out.push(Stmt::Assume { cond: p, loc });
                }
                out.push(Stmt::Havoc { var: r, loc });
                if let Some(q) = post {
                    out.push(Stmt::Assume { cond: q, loc });
                }
            } else {
                out.push(Stmt::Havoc { var: r, loc });
                let cond = match (pre, post) {
                    (Some(p), Some(q)) => Some(Expr::binary(BinOp::Implies, p, q)),
                    (None, Some(q)) => Some(q),
                    _ => None,
                };
                if let Some(c) = cond {
                    out.push(Stmt::Assume { cond: c, loc });
                }
            }
            return Some(rv);
        }
        if other.is_some() {
            // A spec for the other side only: this side's result is any value.
            let r = self.fresh(&name, VarTy::Scalar(ret), sp);
            out.push(Stmt::Havoc { var: r, loc });
            return Some(self.val_of(r));
        }
        let table = self.table(f, sp);
        let idxs: Vec<Expr> = scalars.iter().map(|v| self.m().as_int(v)).collect();
        if idxs.is_empty() {
            return Some(self.val_of(table));
        }
        Some(self.select(table, &idxs, ret))
    }

    /// The uninterpreted table of library function `f` (a scalar for no arguments).
    pub fn table(&mut self, f: &Function, sp: &Span) -> VarId {
        let ret = match f.ret {
            DeclTy::Scalar(s) => s,
            _ => CScalar::Int,
        };
        let n = f.params.len() as u32;
        let ty = if n == 0 { VarTy::Scalar(ret) } else { VarTy::Array(ret, n) };
        let v = self.var(&f.name.name, ty, sp);
        self.tables.insert(f.name.name.clone(), v);
        v
    }

    /// A spec's `pre`/`post` over the call's arguments (`env`) and result (`ret!`).
    fn spec_formula(
        &mut self,
        e: &ast::Expr,
        env: &HashMap<String, Val>,
        ret: Option<&Val>,
    ) -> Option<Expr> {
        let mut fenv = FormulaEnv {
            vars: env.iter().map(|(k, v)| (k.clone(), Binding::Val(v.clone()))).collect(),
            ret: ret.cloned(),
            next_bound: 1_000_000,
        };
        let v = self.formula(e, &mut fenv, &mut |_, _, _| None)?;
        Some(self.m().truth(&v))
    }

    /// A pure formula: names through `env` and `resolve` (copy variables), no effects.
    #[allow(clippy::type_complexity)]
    pub fn formula(
        &mut self,
        e: &ast::Expr,
        env: &mut FormulaEnv,
        resolve: &mut dyn FnMut(&mut Self, &ast::Expr, &mut FormulaEnv) -> Option<Option<Val>>,
    ) -> Option<Val> {
        if let Some(r) = resolve(self, e, env) {
            return r;
        }
        let m = self.m();
        match &e.kind {
            K::Int(v, t) => Some(Val { e: m.lit(v, *t), ty: *t }),
            K::Bool(b) => Some(Val { e: Expr::bool(*b), ty: CScalar::Bool }),
            K::RetBang => match &env.ret {
                Some(v) => Some(v.clone()),
                None => {
                    self.err(
                        "`ret!` names a library call's result: only in a spec's `post`",
                        &e.span,
                        "no result here",
                    );
                    None
                }
            },
            K::Var(name) => match env.vars.get(name) {
                Some(Binding::Val(v)) => Some(v.clone()),
                Some(Binding::Bound(b, t)) => {
                    Some(Val { e: Expr { kind: ExprKind::Bound(*b), ty: m.ir(*t) }, ty: *t })
                }
                None => {
                    self.diags.push(
                        Diagnostic::new(
                            format!("unknown name `{name}` in a formula"),
                            e.span.clone(),
                        )
                        .with_label("not a bound variable or spec parameter")
                        .with_hint("name a copy's variable as `copy.x` (e.g. `forall.x`)"),
                    );
                    None
                }
            },
            K::Cast(t, a) => {
                let v = self.formula(a, env, resolve)?;
                Some(m.to(&v, *t))
            }
            K::Unary(op, a) => {
                let v = self.formula(a, env, resolve)?;
                self.unary(*op, v, &e.span)
            }
            K::Binary(op, a, b) => {
                let va = self.formula(a, env, resolve)?;
                let vb = self.formula(b, env, resolve)?;
                self.arith(*op, va, vb, &e.span, None)
            }
            K::Cond(c, a, b) => {
                let vc = self.formula(c, env, resolve)?;
                let va = self.formula(a, env, resolve)?;
                let vb = self.formula(b, env, resolve)?;
                let t = if va.ty == CScalar::Bool && vb.ty == CScalar::Bool {
                    CScalar::Bool
                } else {
                    common(va.ty, vb.ty)
                };
                Some(Val { e: ite(m.truth(&vc), m.convert(&va, t), m.convert(&vb, t)), ty: t })
            }
            K::Quant { exists, vars, body } => {
                let saved: Vec<(String, Option<Binding>)> = vars
                    .iter()
                    .map(|(n, _)| (n.name.clone(), env.vars.get(&n.name).cloned()))
                    .collect();
                let mut ids = Vec::new();
                for (n, t) in vars {
                    let id = BoundId(env.next_bound);
                    env.next_bound += 1;
                    env.vars.insert(n.name.clone(), Binding::Bound(id, *t));
                    ids.push((id, n.name.clone(), *t));
                }
                let b = self.formula(body, env, resolve);
                for (n, old) in saved {
                    match old {
                        Some(o) => env.vars.insert(n, o),
                        None => env.vars.remove(&n),
                    };
                }
                let mut body = m.truth(&b?);
                for (id, name, t) in ids.into_iter().rev() {
                    body = Expr {
                        kind: ExprKind::Quant {
                            quantifier: if *exists {
                                Quantifier::Exists
                            } else {
                                Quantifier::Forall
                            },
                            var: id,
                            name,
                            var_ty: m.ir(t),
                            body: Box::new(body),
                        },
                        ty: Type::Bool,
                    };
                }
                Some(Val { e: body, ty: CScalar::Bool })
            }
            K::Str(_) => {
                self.err("string literals are not supported", &e.span, "outside the C subset");
                None
            }
            K::Comma(..) | K::Assign(..) | K::IncDec { .. } => {
                self.err("a formula cannot change state", &e.span, "side effect");
                None
            }
            K::CopyVar(..) | K::Index(..) | K::Call(..) => {
                self.err(
                    "this expression needs a tuple copy to be read from",
                    &e.span,
                    "no copy here",
                );
                None
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

/// Names in a formula.
pub struct FormulaEnv {
    pub vars: HashMap<String, Binding>,
    pub ret: Option<Val>,
    pub next_bound: u32,
}

pub fn decl_var_ty(t: &DeclTy) -> VarTy {
    match t {
        DeclTy::Scalar(s) => VarTy::Scalar(*s),
        DeclTy::Array(e, d) => VarTy::Array(*e, d.len() as u32),
        DeclTy::Void => VarTy::Scalar(CScalar::Int),
    }
}

/// The `__VERIFIER_nondet_*` functions and their types.
pub fn nondet_type(name: &str) -> Option<CScalar> {
    Some(match name.strip_prefix("__VERIFIER_nondet_")? {
        "int" => CScalar::Int,
        "uint" | "unsigned" => CScalar::UInt,
        "long" => CScalar::Long,
        "ulong" => CScalar::ULong,
        "short" => CScalar::Short,
        "ushort" => CScalar::UShort,
        "char" => CScalar::Char,
        "uchar" => CScalar::UChar,
        "bool" | "_Bool" => CScalar::Bool,
        _ => return None,
    })
}

/// C's truncating `/` and `%` from the IR's Euclidean ones (math model):
/// `a / b == sign · (|a| div |b|)`, `a % b == a - b · (a / b)`.
fn truncating(div: bool, a: Expr, b: Expr) -> Expr {
    let abs = |e: Expr| Expr { kind: ExprKind::Unary(UnOp::Abs, Box::new(e)), ty: Type::Int };
    let neg = |e: Expr| Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(e)), ty: Type::Int };
    let zero = Expr::int(0);
    let a_neg = Expr::binary(BinOp::Lt, a.clone(), zero.clone());
    let b_neg = Expr::binary(BinOp::Lt, b.clone(), zero);
    if div {
        let q = Expr::binary(BinOp::Div, abs(a), abs(b));
        ite(Expr::binary(BinOp::Ne, a_neg, b_neg), neg(q.clone()), q)
    } else {
        let r = Expr::binary(BinOp::Mod, abs(a), abs(b));
        ite(a_neg, neg(r.clone()), r)
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
