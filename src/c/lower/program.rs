//! One C function as one IR program: its signature's parameters and result, the body
//! lowered again while it meets memory objects it had not met, the limits checked, and
//! the depth bound of `ir::MAX_DEPTH` kept.

use super::ctype::{self, CTy};
use super::memory::Object;
use super::{float, flow, place, Failure, Frame, LimitHit, Lowered, Lowerer};
use crate::c::ast::{Function, Type as CType};
use crate::diag::Diagnostic;
use crate::ir::{self, Expr, Stmt};
use std::collections::HashMap;

impl<'c, 'a> Lowerer<'c, 'a> {
    /// Lowers `f` as a program of a copy quantified by `side`. Lowering runs again while
    /// it meets memory objects it had not met before: a read through a pointer is an
    /// `ite` over every object the pointer may reach, later ones included.
    pub fn program(self, f: &Function) -> Result<Lowered, Failure> {
        let (cx, side) = (self.cx, self.side);
        let mut objects: Vec<Object> = Vec::new();
        for _ in 0..4 {
            let known = objects.len();
            let mut lw = Lowerer::new(cx, side);
            lw.objects = objects;
            lw.summary = self.summary.clone();
            let l = lw.program_pass(f)?;
            if l.objects.len() == known {
                return Ok(l);
            }
            objects = l.objects;
        }
        Err(Failure::Errors(vec![Diagnostic::new(
            format!("`{}`'s memory objects do not settle", f.name.name),
            f.name.span.clone(),
        )
        .with_label("internal limit")]))
    }

    fn program_pass(mut self, f: &Function) -> Result<Lowered, Failure> {
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
        // A local that shadows a global gets a name of its own (`x#2`): the global is `x`.
        for g in self.cx.globals.keys() {
            self.frame().decl_count.insert(g.clone(), 1);
        }
        let body = f.body.as_deref().unwrap_or(&[]);
        let mut prologue = Vec::new();
        for p in &f.params {
            let Ok(t) = self.param_type(&p.ty) else { continue };
            let Some(slot) = self.declare(&p.name, &t) else { continue };
            if matches!(t, CTy::Ptr(_)) {
                self.pointer_parameter(&slot, &p.name.name, &p.span, &mut prologue);
                if let (Some((_, k)), Some(v)) =
                    (self.param_objects.last(), place::var_of(&slot.leaves[0]))
                {
                    if self.param_objects.last().is_some_and(|(n, _)| *n == p.name.name)
                        && !flow::writes_name(body, &p.name.name)
                    {
                        self.fixed_params.insert(v, vec![*k]);
                    }
                }
            }
        }
        if let Some(t) = ret {
            let slot = self
                .slot_vars("ret", &t, &f.name.span)
                .ok_or_else(|| Failure::Errors(self.diags.clone()))?;
            self.names.entry("ret".into()).or_default().push(slot.clone());
            self.frame().ret = Some(slot);
        }
        self.frame().has_goto = flow::has_goto(body);
        let mut out = Vec::new();
        self.frame().scopes.push(HashMap::new());
        self.body_into(f, &mut out);
        self.frame().scopes.pop();
        let frame = self.frames.pop().expect("frame");
        let loc = self.loc(&f.span);
        if let Some(hit) = self.limit {
            return Err(Failure::Limit(hit));
        }
        let mut start = Vec::new();
        if f.name.name == "main" {
            self.static_initialisers(&f.span, &mut start);
        }
        self.heap_prologue(&f.span, &mut start);
        start.extend(prologue);
        // Jump flags start false (they are read only after a statement that may set them),
        // those of inlined calls too.
        for flag in frame.jump_flags().into_iter().chain(self.inline_flags.iter().copied()) {
            start.push(Stmt::Assign { var: flag, value: Expr::bool(false), loc });
        }
        start.extend(out);
        out = start;
        self.finish_ub(&mut out, &f.span);
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
        let globals = self.globals_named();
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
            objects: self.objects,
            ub: self.ub_sites,
            param_objects: self.param_objects,
            globals,
            summary: self.summary,
        })
    }

    /// The type a parameter holds: an array parameter is a reference to its argument's
    /// array, whose size the function does not know (LANGUAGE.md: a total map).
    fn param_type(&self, t: &CType) -> Result<CTy, (String, bool)> {
        match ctype::cty(self.cx, t)? {
            CTy::Array(e, _) => Ok(CTy::Array(e, None)),
            t => Ok(t),
        }
    }

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

    /// Why a value of type `t`, which has no scalar leaves forex can hold, is refused.
    fn unheld(&self, t: &CTy) -> String {
        match t {
            CTy::Struct(id) => ctype::record_problem(self.cx, *id)
                .unwrap_or_else(|| "this type cannot be held".into()),
            _ => "this type cannot be held".into(),
        }
    }

    /// The returned type (`None`: `void`), after checking that forex reads the
    /// function's result and parameter types (errors at the types that it does not).
    fn signature(&mut self, f: &Function) -> Result<Option<CTy>, Vec<Diagnostic>> {
        let mut errs = Vec::new();
        let ret = match &f.ret {
            CType::Void => None,
            t => {
                let checked = match ctype::cty(self.cx, t) {
                    Ok(CTy::Array(..)) => Err("returning arrays is not C".to_string()),
                    Ok(t) if ctype::leaves(self.cx, &t).is_some() => Ok(t),
                    Ok(t) => Err(self.unheld(&t)),
                    Err((what, _)) => Err(what),
                };
                match checked {
                    Ok(t) => Some(t),
                    Err(what) => {
                        errs.push(
                            Diagnostic::new(
                                format!("`{}`'s result: {what}", f.name.name),
                                f.name.span.clone(),
                            )
                            .with_label("the result's type"),
                        );
                        None
                    }
                }
            }
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
            match self.param_type(&p.ty) {
                Err((what, _)) => errs.push(
                    Diagnostic::new(what, p.span.clone()).with_label("this parameter's type"),
                ),
                Ok(t) => {
                    if ctype::leaves(self.cx, &t).is_none() {
                        errs.push(
                            Diagnostic::new(self.unheld(&t), p.span.clone())
                                .with_label("this parameter's type"),
                        );
                    }
                }
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
