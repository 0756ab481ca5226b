//! Jumps without jumps: the IR has none, so `return`, `break`, `continue` and a forward
//! `goto` set a flag, and the statements after one that may jump run under a guard
//! (`if (!flag) { … }`) up to the label a `goto` flag stops at (where the flag is cleared:
//! at most one flag is set at a time, since a set flag skips everything up to its
//! target). `switch` runs each labelled statement once a `case` matched (fall-through),
//! a `$case` flag remembering the match, `default` matching when no `case` does.

use super::{and, not, or, LoopCtx, Lowerer, Span, VarTy};
use crate::c::ast::{self, StmtKind};
use crate::c::types::promote;
use crate::ir::c::CScalar;
use crate::ir::{BinOp, Expr, Stmt, Type, VarId};
use std::collections::HashMap;

/// Where a statement may jump outside itself.
#[derive(Default)]
pub(super) struct Jumps {
    /// Out of the innermost loop or `switch`.
    pub brk: bool,
    /// To the next iteration of the innermost loop.
    pub cont: bool,
    pub ret: bool,
    /// Labels that `goto`s inside jump to, outside the statement.
    pub gotos: Vec<String>,
}

/// The jumps out of `s`.
pub(super) fn jumps(s: &ast::Stmt) -> Jumps {
    let mut labels = Vec::new();
    let mut j = raw_jumps(s, &mut labels);
    j.gotos.retain(|g| !labels.contains(g));
    j.gotos.sort();
    j.gotos.dedup();
    j
}

fn raw_jumps(s: &ast::Stmt, labels: &mut Vec<String>) -> Jumps {
    let union = |mut a: Jumps, b: Jumps| {
        a.brk |= b.brk;
        a.cont |= b.cont;
        a.ret |= b.ret;
        a.gotos.extend(b.gotos);
        a
    };
    match &s.kind {
        StmtKind::Break => Jumps { brk: true, ..Jumps::default() },
        StmtKind::Continue => Jumps { cont: true, ..Jumps::default() },
        StmtKind::Return(_) => Jumps { ret: true, ..Jumps::default() },
        StmtKind::Goto(l) => Jumps { gotos: vec![l.name.clone()], ..Jumps::default() },
        StmtKind::If(_, a, b) => {
            let ja = raw_jumps(a, labels);
            match b {
                Some(b) => union(ja, raw_jumps(b, labels)),
                None => ja,
            }
        }
        StmtKind::Block(ss) => {
            ss.iter().fold(Jumps::default(), |acc, s| union(acc, raw_jumps(s, labels)))
        }
        StmtKind::Label(l, inner) => {
            labels.push(l.name.clone());
            raw_jumps(inner, labels)
        }
        StmtKind::Case(_, _, inner) | StmtKind::Default(inner) => raw_jumps(inner, labels),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } => {
            let j = raw_jumps(b, labels);
            Jumps { brk: false, cont: false, ..j }
        }
        StmtKind::Switch(_, b) => Jumps { brk: false, ..raw_jumps(b, labels) },
        // `exit(n);` ends the run like a `return` of the copy's function (`float::exit`).
        StmtKind::Expr(e) if super::float::is_exit(e) => Jumps { ret: true, ..Jumps::default() },
        StmtKind::Decl(_) | StmtKind::Expr(_) | StmtKind::Empty | StmtKind::Other(_) => {
            Jumps::default()
        }
    }
}

/// The labels written directly on `s` (`a: b: s`).
fn labels_of(s: &ast::Stmt) -> Vec<&str> {
    let mut out = Vec::new();
    let mut cur = s;
    while let StmtKind::Label(l, inner) = &cur.kind {
        out.push(l.name.as_str());
        cur = inner;
    }
    out
}

/// Whether a function body has a `goto` (else labels need no bookkeeping).
pub(super) fn has_goto(stmts: &[ast::Stmt]) -> bool {
    stmts.iter().any(|s| !raw_jumps(s, &mut Vec::new()).gotos.is_empty())
}

/// A flag that may be set where a statement list goes on, and the label it stops at.
struct Flag {
    var: VarId,
    label: Option<String>,
}

impl Lowerer<'_, '_> {
    /// The flags `s`'s jumps set, as seen from the list that holds it.
    fn exit_flags(&mut self, s: &ast::Stmt, active: &mut Vec<Flag>) {
        let j = jumps(s);
        let frame = self.frames.last().expect("frame");
        let mut add = |var: Option<VarId>, label: Option<String>| {
            if let Some(var) = var {
                if !active.iter().any(|f| f.var == var) {
                    active.push(Flag { var, label });
                }
            }
        };
        if j.ret {
            add(frame.ret_flag, None);
        }
        if j.brk {
            add(frame.loops.last().and_then(|l| l.brk), None);
        }
        if j.cont {
            add(frame.loops.iter().rev().find(|l| !l.switch).and_then(|l| l.cont), None);
        }
        for g in j.gotos {
            add(frame.gotos.get(&g).copied(), Some(g));
        }
    }

    /// A statement list: each statement after one that may jump runs under the guard of
    /// the flags that may be set, up to the label of a `goto` flag.
    pub(super) fn seq(&mut self, stmts: &[ast::Stmt], tail: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        self.seq_into(stmts, tail, &mut out);
        out
    }

    /// [`Lowerer::seq`] appending to `out` (an inlined body goes straight into its
    /// caller's statements: no copy per level of a chain of calls).
    pub(super) fn seq_into(&mut self, stmts: &[ast::Stmt], tail: bool, out: &mut Vec<Stmt>) {
        let mut active: Vec<Flag> = Vec::new();
        let gotos = self.frames.last().is_some_and(|f| f.has_goto);
        if gotos {
            let labels: Vec<String> =
                stmts.iter().flat_map(|s| labels_of(s).into_iter().map(String::from)).collect();
            self.frame().ahead.push(labels);
        }
        let mut i = 0;
        while i < stmts.len() {
            if self.out_of_limits() {
                break;
            }
            for l in labels_of(&stmts[i]) {
                if let Some(p) = active.iter().position(|f| f.label.as_deref() == Some(l)) {
                    let f = active.remove(p);
                    out.push(Stmt::Assign {
                        var: f.var,
                        value: Expr::bool(false),
                        loc: self.loc(&stmts[i].span),
                    });
                }
            }
            let k = if active.is_empty() {
                i + 1
            } else {
                let targeted = |s: &ast::Stmt| {
                    labels_of(s)
                        .iter()
                        .any(|l| active.iter().any(|f| f.label.as_deref() == Some(*l)))
                };
                (i + 1..stmts.len()).find(|&k| targeted(&stmts[k])).unwrap_or(stmts.len())
            };
            if gotos {
                // The labels a `goto` in stmts[i..k] may jump forward to in this list.
                let rest: Vec<String> = stmts[k.min(stmts.len())..]
                    .iter()
                    .flat_map(|s| labels_of(s).into_iter().map(String::from))
                    .collect();
                *self.frame().ahead.last_mut().expect("list") = rest;
            }
            let last = tail && k == stmts.len();
            if active.is_empty() {
                self.stmt(&stmts[i], last, out);
            } else {
                let body = self.seq(&stmts[i..k], last);
                let cond = active
                    .iter()
                    .map(|f| Expr::var(f.var, Type::Bool))
                    .reduce(or)
                    .expect("nonempty");
                out.push(Stmt::If {
                    cond: not(cond),
                    then_branch: body,
                    else_branch: Vec::new(),
                    loc: self.loc(&stmts[i].span),
                });
            }
            for s in &stmts[i..k] {
                self.exit_flags(s, &mut active);
            }
            i = k;
        }
        if gotos {
            self.frame().ahead.pop();
        }
    }

    /// `goto label;` forward, to a label of this or an enclosing statement list.
    pub(super) fn goto(&mut self, label: &ast::Ident, sp: &Span, out: &mut Vec<Stmt>) {
        let ahead =
            self.frames.last().is_some_and(|f| f.ahead.iter().any(|l| l.contains(&label.name)));
        if !ahead {
            self.diags.push(
                crate::diag::Diagnostic::new(
                    format!(
                        "`goto {}` does not jump forward to a label of an enclosing block",
                        label.name
                    ),
                    sp.clone(),
                )
                .with_label("backward, into a block, or to no label")
                .with_hint(
                    "forex reads `goto` forward to a label later in the same or an enclosing block",
                ),
            );
            return;
        }
        let flag = match self.frame().gotos.get(&label.name) {
            Some(f) => *f,
            None => {
                let base = format!("{}goto_{}", self.frame().prefix, label.name);
                let f = self.fresh(&base, VarTy::Scalar(CScalar::Bool), sp);
                self.frame().gotos.insert(label.name.clone(), f);
                f
            }
        };
        out.push(Stmt::Assign { var: flag, value: Expr::bool(true), loc: self.loc(sp) });
    }

    /// `switch (e) body`: the labelled statements of `body` in order, each running once a
    /// label at or before it matched and nothing jumped.
    pub(super) fn switch(
        &mut self,
        e: &ast::Expr,
        body: &ast::Stmt,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        let Some(v) = self.expr(e, out) else { return };
        let t = promote(v.ty);
        let sw = self.fresh("switch", VarTy::Scalar(t), sp);
        out.push(Stmt::Assign { var: sw, value: self.m().convert(&v, t), loc });
        let items: &[ast::Stmt] = match &body.kind {
            StmtKind::Block(ss) => ss,
            _ => std::slice::from_ref(body),
        };
        // Each item's labels (`case` values, `default`) and its statement.
        let mut parts = Vec::new();
        let mut all_cases: Vec<Expr> = Vec::new();
        for it in items {
            let mut conds = Vec::new();
            let mut default = false;
            let mut cur = it;
            loop {
                match &cur.kind {
                    StmtKind::Case(lo, hi, inner) => {
                        let Some(c) = self.case_test(sw, t, lo, hi.as_ref()) else { return };
                        all_cases.push(c.clone());
                        conds.push(c);
                        cur = inner;
                    }
                    StmtKind::Default(inner) => {
                        default = true;
                        cur = inner;
                    }
                    StmtKind::Label(_, inner) => cur = inner,
                    _ => break,
                }
            }
            parts.push((conds, default, cur));
        }
        let no_case = not(all_cases.into_iter().reduce(or).unwrap_or(Expr::bool(false)));
        let matched = self.fresh("case", VarTy::Scalar(CScalar::Bool), sp);
        let m = || Expr::var(matched, Type::Bool);
        out.push(Stmt::Assign { var: matched, value: Expr::bool(false), loc });
        self.frame().loops.push(LoopCtx { switch: true, ..LoopCtx::default() });
        self.frame().scopes.push(HashMap::new());
        let mut body_out = Vec::new();
        let mut active: Vec<Flag> = Vec::new();
        for (conds, default, s) in parts {
            let iloc = self.loc(&s.span);
            let mut hit = conds.into_iter().reduce(or);
            if default {
                hit = Some(match hit {
                    Some(h) => or(h, no_case.clone()),
                    None => no_case.clone(),
                });
            }
            if let Some(h) = hit {
                body_out.push(Stmt::Assign { var: matched, value: or(m(), h), loc: iloc });
            }
            let mut run = Vec::new();
            self.stmt(s, false, &mut run);
            let guard = active
                .iter()
                .map(|f| Expr::var(f.var, Type::Bool))
                .reduce(or)
                .map_or(m(), |any| and(m(), not(any)));
            if !run.is_empty() {
                body_out.push(Stmt::If {
                    cond: guard,
                    then_branch: run,
                    else_branch: Vec::new(),
                    loc: iloc,
                });
            }
            self.exit_flags(s, &mut active);
        }
        self.frame().scopes.pop();
        let ctx = self.frame().loops.pop().expect("switch");
        if let Some(b) = ctx.brk {
            out.push(Stmt::Assign { var: b, value: Expr::bool(false), loc });
        }
        out.extend(body_out);
    }

    /// `switch value == c` (or `lo <= value && value <= hi`) for a `case` label.
    fn case_test(
        &mut self,
        sw: VarId,
        t: CScalar,
        lo: &ast::Expr,
        hi: Option<&ast::Expr>,
    ) -> Option<Expr> {
        let value = self.val_of(sw).e;
        let mut scratch = Vec::new();
        let lo_v = self.expr(lo, &mut scratch)?;
        let lo_e = self.m().convert(&lo_v, t);
        let Some(hi) = hi else { return Some(Expr::binary(BinOp::Eq, value, lo_e)) };
        let hi_v = self.expr(hi, &mut scratch)?;
        let hi_e = self.m().convert(&hi_v, t);
        let (le, ge) = if self.m().machine() && t.is_signed() {
            (BinOp::SLe, BinOp::SGe)
        } else {
            (BinOp::Le, BinOp::Ge)
        };
        Some(and(Expr::binary(ge, value.clone(), lo_e), Expr::binary(le, value, hi_e)))
    }
}

/// Whether `stmts` may change the variable C name `name` denotes: an assignment or `++`
/// to it, or its address taken (a write through the pointer may follow). A name declared
/// again inside counts too (conservatively: the answer only saves work when `false`).
pub(super) fn writes_name(stmts: &[ast::Stmt], name: &str) -> bool {
    use ast::ExprKind as K;
    let is_name = |e: &ast::Expr| matches!(&e.kind, K::Var(n) if n == name);
    let mut exprs = ast::Stmt::exprs_of(stmts);
    while let Some(e) = exprs.pop() {
        match &e.kind {
            K::Assign(_, l, _) if is_name(l) => return true,
            K::IncDec { arg, .. } | K::Unary(ast::UnaryOp::AddrOf, arg) if is_name(arg) => {
                return true
            }
            K::StmtExpr(ss) => exprs.extend(ast::Stmt::exprs_of(ss)),
            _ => {}
        }
        exprs.extend(e.children());
    }
    false
}

/// Whether `stmts` only read the object C name `name` denotes: its value (a scalar) or
/// its elements by index (`t[i]`, an array); never assigned, stepped, its address taken
/// or, for an array, its name used as a pointer (`f(t)`, `p = t`: a write through it may
/// follow). Conservative like [`writes_name`]: a name declared again inside counts, so
/// `true` is certain. An object only ever read holds its initial value forever.
pub(super) fn only_reads(stmts: &[ast::Stmt], name: &str, array: bool) -> bool {
    ast::Stmt::exprs_of(stmts).into_iter().all(|e| reads_only(e, name, array))
}

fn reads_only(e: &ast::Expr, name: &str, array: bool) -> bool {
    use ast::ExprKind as K;
    let is_name = |e: &ast::Expr| matches!(&e.kind, K::Var(n) if n == name);
    // What a write goes to: its root may not be the name; its indices are reads.
    let target = |l: &ast::Expr| -> bool {
        let mut at = l;
        loop {
            match &at.kind {
                K::Var(n) => return n != name,
                K::Index(base, i) => {
                    if !reads_only(i, name, array) {
                        return false;
                    }
                    at = base;
                }
                K::Member { base, arrow: false, .. } => at = base,
                _ => return reads_only(at, name, array),
            }
        }
    };
    match &e.kind {
        K::Var(n) => n != name || !array,
        K::Index(base, i) if is_name(base) => reads_only(i, name, array),
        K::Assign(_, l, r) => target(l) && reads_only(r, name, array),
        K::IncDec { arg, .. } => target(arg),
        K::Unary(ast::UnaryOp::AddrOf, arg) => !mentions(arg, name),
        K::StmtExpr(ss) => only_reads(ss, name, array),
        _ => e.children().into_iter().all(|c| reads_only(c, name, array)),
    }
}

fn mentions(e: &ast::Expr, name: &str) -> bool {
    match &e.kind {
        ast::ExprKind::Var(n) => n == name,
        ast::ExprKind::StmtExpr(ss) => {
            ast::Stmt::exprs_of(ss).into_iter().any(|e| mentions(e, name))
        }
        _ => e.children().into_iter().any(|c| mentions(c, name)),
    }
}
