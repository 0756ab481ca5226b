//! Recursion. The IR has no calls, so a recursive function is lowered in two ways:
//! a call of itself in `return f(…);` (a self tail call) assigns the parameters and goes
//! round a loop that holds the body; any other recursive call (mutual recursion too) is
//! inlined again, with variables of its own, until a chain of calls holds
//! `recursion_depth` instances of the function (or the unfolding outgrows its share of
//! the size budget): a call deeper than that is a [`Stmt::Cut`]. Runs that reach a cut
//! are not modelled: the searching engines treat them as runs past their bound, the
//! prover proves a ∀ copy only when `pre` keeps it from every cut (ir.rs).

use super::call::Arg;
use super::place::{self, CV};
use super::{Lowerer, Span, VarTy};
use crate::c::ast::{self, ExprKind, Function, StmtKind};
use crate::c::types::Val;
use crate::ir::c::CScalar;
use crate::ir::{Expr, LoopId, Stmt};

impl Lowerer<'_, '_> {
    /// The body of `f`, whose frame is the current one: a loop round it when `f` calls
    /// itself in tail position.
    pub(super) fn body_into(&mut self, f: &Function, out: &mut Vec<Stmt>) {
        let body = f.body.as_deref().unwrap_or(&[]);
        // A summary's self tail calls are calls like the others (`summary`).
        if !self.tail_recursive(f) || self.summarised(&f.name.name) {
            self.seq_into(body, true, out);
            return;
        }
        let loc = self.loc(&f.span);
        if let Some(g) = guarded(body, &f.name.name) {
            self.guarded_loop(g, out);
            return;
        }
        let prefix = self.frame().prefix.clone();
        let again =
            self.var(&format!("{prefix}$again"), VarTy::Scalar(CScalar::Bool), &f.name.span);
        let ty = self.vars[again.index()].ty.clone();
        self.frame().again = Some(again);
        out.push(Stmt::Assign { var: again, value: Expr::bool(true), loc });
        let mut inner = vec![Stmt::Assign { var: again, value: Expr::bool(false), loc }];
        // Not the function's end: every `return` sets the flag that skips the rest.
        self.seq_into(body, false, &mut inner);
        if let Some(flag) = self.frame().ret_flag {
            inner.push(Stmt::Assign { var: flag, value: Expr::bool(false), loc });
        }
        out.push(Stmt::While { id: LoopId(0), cond: Expr::var(again, ty), body: inner, loc });
    }

    /// `if (c) return e; return f(args);` (or the other way round) as
    /// `while (!c) { params = args; }` then `return e;`: one round per call, as a loop
    /// written by hand would have, where the general loop has one more (the last call's
    /// test). The condition's own statements run before each test.
    fn guarded_loop(&mut self, g: Guarded<'_>, out: &mut Vec<Stmt>) {
        let loc = self.loc(&g.call.span);
        let mut pre = Vec::new();
        let Some(v) = self.expr(g.cond, &mut pre) else { return };
        let truth = self.m().truth(&v);
        let cond = if g.loop_while { truth } else { super::not(truth) };
        out.extend(pre.iter().cloned());
        let mut inner = Vec::new();
        self.tail_call(g.call, &mut inner);
        inner.extend(pre);
        out.push(Stmt::While { id: LoopId(0), cond, body: inner, loc });
        self.stmt(g.exit, true, out);
    }

    /// Whether `f` calls itself in `return f(…);` and takes only scalars (an array
    /// parameter is bound by reference for the whole body: a loop cannot rebind it).
    fn tail_recursive(&self, f: &Function) -> bool {
        let name = f.name.name.as_str();
        f.body.as_deref().is_some_and(|b| b.iter().any(|s| self_tail_call(s, name)))
            && f.params.iter().all(|p| matches!(self.cx.var_ty(&p.ty), Ok(VarTy::Scalar(_))))
    }

    /// Whether `e`, returned, is a self tail call of the function being lowered.
    pub(super) fn is_tail_call(&self, e: &ast::Expr) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        frame.again.is_some()
            && matches!(&e.kind, ExprKind::Call(c, _) if c.name == frame.func)
            && !frame.scopes.iter().any(|s| s.contains_key(&frame.func))
    }

    /// `return f(args);` in `f`'s loop: the arguments, all evaluated first, become the
    /// parameters, and the loop goes round again.
    pub(super) fn tail_call(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) {
        let ExprKind::Call(callee, args) = &e.kind else { return };
        let Some(f) = self.cx.functions.get(callee.name.as_str()).copied() else { return };
        let loc = self.loc(&e.span);
        let Some(vals) = self.arguments(f, args, &e.span, out) else { return };
        let mut temps = Vec::new();
        for (p, v) in f.params.iter().zip(vals) {
            // Only scalar parameters (`tail_recursive`).
            let Arg::Val(CV::S(val)) = v else { continue };
            let t = self.fresh(
                &format!("{}.{}", f.name.name, p.name.name),
                VarTy::Scalar(val.ty),
                &e.span,
            );
            out.push(Stmt::Assign { var: t, value: val.e, loc });
            temps.push((p.name.name.clone(), t));
        }
        for (p, t) in temps {
            // The parameter itself, not a local of an inner block that shadows it.
            let Some(pv) = self.frame().scopes[0].get(&p).and_then(|s| place::var_of(&s.leaves[0]))
            else {
                continue;
            };
            let value = Expr::var(t, self.vars[t.index()].ty.clone());
            out.push(Stmt::Assign { var: pv, value, loc });
        }
        if let Some(again) = self.frame().again {
            out.push(Stmt::Assign { var: again, value: Expr::bool(true), loc });
        }
    }

    /// Whether a recursive call, with `depth` instances of its function already being
    /// inlined and a body of `size`, is past the unfolding (depth, or a quarter of the
    /// size budget: a function calling itself twice doubles per level).
    pub(super) fn past_unfolding(&self, depth: usize, size: usize) -> bool {
        let limits = self.cx.limits;
        depth >= limits.recursion_depth as usize
            || self.inlined.saturating_add(size) > limits.max_inlined / 4
    }

    /// A call past the unfolding: the run is cut there. Its value (never read by a
    /// modelled run) is a fresh variable.
    pub(super) fn cut(&mut self, f: &Function, sp: &Span, out: &mut Vec<Stmt>) -> Option<CV> {
        let loc = self.loc(sp);
        out.push(Stmt::Cut { loc });
        let Some(t) = self.result_type(f, sp)? else {
            // `void`: a call's value is never read (as an inlined `void` call's).
            return Some(CV::S(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int }));
        };
        let slot = self.fresh_slot(&format!("{}.cut", f.name.name), &t, sp)?;
        CV::of_leaves(&t, slot.leaves.clone())
    }
}

/// Whether `s` holds `return name(…);`.
fn self_tail_call(s: &ast::Stmt, name: &str) -> bool {
    match &s.kind {
        StmtKind::Return(Some(e)) => matches!(&e.kind, ExprKind::Call(c, _) if c.name == name),
        StmtKind::If(_, a, b) => {
            self_tail_call(a, name) || b.as_deref().is_some_and(|b| self_tail_call(b, name))
        }
        StmtKind::Block(ss) => ss.iter().any(|s| self_tail_call(s, name)),
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For { body: b, .. }
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, _, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => self_tail_call(b, name),
        _ => false,
    }
}

/// A body `if (cond) A else B` (or `if (cond) A; B`) where one of `A`, `B` is
/// `return f(…);` and the other a `return` of anything else.
struct Guarded<'a> {
    cond: &'a ast::Expr,
    /// Whether the loop goes on while `cond` holds (`A` is the call).
    loop_while: bool,
    /// The self tail call.
    call: &'a ast::Expr,
    /// The other `return`.
    exit: &'a ast::Stmt,
}

fn guarded<'a>(body: &'a [ast::Stmt], name: &str) -> Option<Guarded<'a>> {
    /// A statement, or a block holding just it.
    fn single(s: &ast::Stmt) -> &ast::Stmt {
        match &s.kind {
            StmtKind::Block(ss) if ss.len() == 1 => single(&ss[0]),
            _ => s,
        }
    }
    let (cond, a, b) = match body {
        [s] => match &single(s).kind {
            StmtKind::If(c, a, Some(b)) => (c, single(a), single(b)),
            _ => return None,
        },
        [s, b] => match &single(s).kind {
            StmtKind::If(c, a, None) => (c, single(a), single(b)),
            _ => return None,
        },
        _ => return None,
    };
    let call = |s: &'a ast::Stmt| match &s.kind {
        StmtKind::Return(Some(e)) if matches!(&e.kind, ExprKind::Call(c, _) if c.name == name) => {
            Some(e)
        }
        _ => None,
    };
    let plain = |s: &'a ast::Stmt| matches!(&s.kind, StmtKind::Return(_)) && call(s).is_none();
    match (call(a), call(b)) {
        (Some(e), None) if plain(b) => Some(Guarded { cond, loop_while: true, call: e, exit: b }),
        (None, Some(e)) if plain(a) => Some(Guarded { cond, loop_while: false, call: e, exit: a }),
        _ => None,
    }
}
