//! Calls: defined functions inlined (the IR has no calls), declared ones under their
//! specs or as uninterpreted tables, and the verifier's `nondet`/`assume` builtins.

use super::access::lvalue_form;
use super::ctype::{self, CTy};
use super::place::{self, Place, Root, Slot, CV};
use super::{flow, Frame, Lowerer, Span, VarTy};
use crate::c::ast::{self, Function, Ident, Type};
use crate::c::types::Val;
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::ir::{BinOp, Expr, Quantifier, Stmt, VarId};
use std::collections::HashMap;

/// Standard functions that only write output (to a stream forex does not model).
const OUTPUT: &[&str] =
    &["printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc", "fflush", "perror"];

/// An argument as the callee's parameter receives it.
pub(super) enum Arg {
    /// A value (scalars, pointers, structs: copied).
    Val(CV),
    /// An array passed by reference: the caller's storage.
    Ref(Slot),
}

impl Lowerer<'_, '_> {
    pub(super) fn call(
        &mut self,
        f: &Ident,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
        discard: bool,
    ) -> Option<CV> {
        let loc = self.loc(sp);
        let name = f.name.as_str();
        let zero = CV::S(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int });
        if let Some(t) = nondet_type(name) {
            if !args.is_empty() {
                self.err(format!("`{name}` takes no arguments"), sp, "here");
                return None;
            }
            let v = self.fresh("nondet", VarTy::Scalar(t), sp);
            out.push(Stmt::Havoc { var: v, loc });
            return Some(CV::S(self.val_of(v)));
        }
        if name == "_invariant" {
            self.err("`_invariant` takes one string: a formula", sp, "here");
            return None;
        }
        if self.is_local(name) || self.cx.globals.contains_key(name) {
            self.err(
                format!("calls through function pointers are not supported yet (`{name}` is a variable)"),
                &f.span,
                "not a function",
            );
            return None;
        }
        if matches!(name, "__VERIFIER_assume" | "assume") {
            let [a] = args else {
                self.err(format!("`{name}` takes one condition"), sp, "here");
                return None;
            };
            let c = self.cond(a, out)?;
            out.push(Stmt::Assume { cond: c, loc });
            return Some(zero);
        }
        if !self.cx.functions.contains_key(name) {
            if let Some(r) = self.builtin(name, args, sp, out) {
                return r;
            }
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
            if self.summarised(name) {
                return self.summary_call(def, args, sp, out);
            }
            return self.inline(def, args, sp, out, discard, None);
        }
        if let Some(v) = self.modelled_call(name, args, sp, out, discard) {
            return v.map(CV::S);
        }
        // Output (`printf("%d\n", x);`): stdout is no part of a copy's state, so a call
        // whose result is unused is its arguments' effects alone. A used result (the
        // number of characters printed) is not modelled.
        if OUTPUT.contains(&name) && self.cx.libraries.contains_key(name) {
            if !discard {
                self.err(
                    format!(
                        "the result of `{name}` is not modelled (output is not part of the state)"
                    ),
                    sp,
                    "result used",
                );
                return None;
            }
            for a in args.iter().filter(|a| a.has_effects()) {
                self.expr(a, out)?;
            }
            return Some(zero);
        }
        if let Some(lib) = self.cx.libraries.get(name).copied() {
            return self.library(lib, args, sp, out).map(CV::S);
        }
        self.diags.push(
            Diagnostic::new(format!("call of `{name}`, which the file neither defines nor declares"), f.span.clone())
                .with_label("unknown function")
                .with_hint(format!("define `{name}`, or declare it (`int {name}(int x);`) to make it a library function")),
        );
        None
    }

    /// Arguments converted to the parameters' types; arrays by reference. `body`: the
    /// callee's body when it is inlined (a pointer parameter it never assigns, given a
    /// whole array, is bound to that array).
    pub(super) fn arguments(
        &mut self,
        callee: &Function,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Vec<Arg>> {
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
        if callee.variadic {
            self.err(
                format!("`{}` is variadic (`...`): not supported", callee.name.name),
                sp,
                "variadic call",
            );
            return None;
        }
        let body = callee.body.as_deref();
        let mut vals = Vec::new();
        for (a, p) in args.iter().zip(&callee.params) {
            let ty = match ctype::cty(self.cx, &p.ty) {
                Ok(t) => t,
                Err((what, _)) => {
                    self.err(
                        format!("`{}`'s parameter `{}`: {what}", callee.name.name, p.name.name),
                        &a.span,
                        "this argument",
                    );
                    return None;
                }
            };
            let by_ref = match &ty {
                CTy::Array(..) => true,
                CTy::Ptr(_) => body.is_some_and(|b| !flow::writes_name(b, &p.name.name)),
                _ => false,
            };
            if by_ref && lvalue_form(a) {
                let mut scratch = Vec::new();
                let place = self.place(a, &mut scratch, false)?;
                if let Some(slot) = whole_array(&place, &ty) {
                    out.extend(scratch);
                    vals.push(Arg::Ref(slot));
                    continue;
                }
                let v = self.read_place(&place, &a.span, &mut scratch)?;
                out.extend(scratch);
                let to = match &ty {
                    CTy::Array(e, _) => CTy::Ptr(e.clone()),
                    t => t.clone(),
                };
                vals.push(Arg::Val(self.convert_value(v, &to, &a.span)?));
                continue;
            }
            let to = match &ty {
                CTy::Array(e, _) => CTy::Ptr(e.clone()),
                t => t.clone(),
            };
            let v = self.value_as(a, &to, out)?;
            vals.push(Arg::Val(self.convert_value(v, &to, &a.span)?));
        }
        Some(vals)
    }

    /// `f` inlined at a call with arguments `args`, or with their values `given` (already
    /// evaluated: a summary's unfolded call, `summary`).
    pub(super) fn inline(
        &mut self,
        f: &Function,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
        discard: bool,
        given: Option<Vec<Arg>>,
    ) -> Option<CV> {
        let loc = self.loc(sp);
        if self.out_of_limits() {
            return None;
        }
        let size = self.cx.sizes.get(&f.name.name).copied().unwrap_or(0);
        // Instances of `f` already being inlined (a call of one of them is recursion).
        let depth = if self.active.contains(&f.name.name) {
            let depth = self.frames.iter().filter(|fr| fr.func == f.name.name).count();
            if self.past_unfolding(depth, size) {
                return self.cut(f, sp, out);
            }
            depth
        } else {
            0
        };
        self.inlined = self.inlined.saturating_add(size);
        if self.inlined > self.cx.limits.max_inlined {
            let function = self.frames.first().map_or(f.name.name.clone(), |fr| fr.func.clone());
            self.limit =
                Some(super::LimitHit::Size { function, limit: self.cx.limits.max_inlined });
            return None;
        }
        let vals = match given {
            Some(vals) => vals,
            None => self.arguments(f, args, sp, out)?,
        };
        let body_src = f.body.as_deref().unwrap_or(&[]);
        // Each instance of a recursive function has variables of its own: the outer one's
        // are still live when the inner one returns.
        let prefix = if depth == 0 {
            format!("{}::", f.name.name)
        } else {
            format!("{}@{}::", f.name.name, depth + 1)
        };
        let mut scope = HashMap::new();
        for (p, v) in f.params.iter().zip(vals) {
            match v {
                Arg::Ref(slot) => {
                    scope.insert(p.name.name.clone(), slot);
                }
                Arg::Val(val) => {
                    let slot = self.slot_vars(
                        &format!("{prefix}{}", p.name.name),
                        &val.ty(),
                        &p.name.span,
                    )?;
                    // A pointer parameter the callee never assigns keeps the objects its
                    // argument may point to (reads through it stay small).
                    if let (CV::P(ptr), Some(t)) = (&val, place::var_of(&slot.leaves[0])) {
                        match &ptr.cands {
                            Some(c) if !flow::writes_name(body_src, &p.name.name) => {
                                self.fixed_params.insert(t, c.clone());
                            }
                            _ => {
                                self.fixed_params.remove(&t);
                            }
                        }
                    }
                    self.write_leaves(&Place::of_slot(slot.clone()), val.leaves(), sp, out);
                    scope.insert(p.name.name.clone(), slot);
                }
            }
        }
        let ret_ty = self.result_type(f, sp)?;
        let ret = match &ret_ty {
            Some(t) => Some(self.slot_vars(&format!("{prefix}ret"), t, &f.name.span)?),
            None => None,
        };
        let mut frame = Frame::new(&f.name.name, prefix, ret.clone());
        frame.scopes = vec![scope, HashMap::new()];
        frame.has_goto = super::flow::has_goto(body_src);
        // A local of the callee that shadows a global gets a name of its own.
        for g in self.cx.globals.keys() {
            frame.decl_count.insert(g.clone(), 1);
        }
        self.frames.push(frame);
        self.active.insert(f.name.name.clone());
        self.body_into(f, out);
        let frame = self.frames.pop().expect("frame");
        if depth == 0 {
            self.active.remove(&frame.func);
        }
        // The callee's jump flags start false in the program and are false again after
        // each call (the next call of the same function reads them).
        for flag in frame.jump_flags() {
            out.push(Stmt::Assign { var: flag, value: Expr::bool(false), loc });
            if !self.inline_flags.contains(&flag) {
                self.inline_flags.push(flag);
            }
        }
        let Some(r) = ret else {
            return Some(CV::S(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int }));
        };
        let v = CV::of_leaves(&r.ty, r.leaves.clone())?;
        if discard {
            return Some(v);
        }
        // The result is copied: a later call of the same function reuses its variables.
        self.save(v, &f.name.name, sp, out)
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
                Arg::Val(CV::S(v)) => scalars.push(v),
                _ => {
                    self.err(
                        "library functions with array, pointer or struct parameters are not \
                         supported",
                        sp,
                        "such an argument",
                    );
                    return None;
                }
            }
        }
        let ret = match self.result_type(f, sp)? {
            None => return Some(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int }),
            Some(CTy::Scalar(s)) => s,
            Some(_) => {
                self.err(
                    format!("`{}` returns a pointer or a struct: library functions that do are not supported", f.name.name),
                    sp,
                    "this call",
                );
                return None;
            }
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
        let ret = match self.cx.var_ty(&f.ret) {
            Ok(VarTy::Scalar(s)) => s,
            _ => CScalar::Int,
        };
        let n = f.params.len() as u32;
        let ty = if n == 0 { VarTy::Scalar(ret) } else { VarTy::Array(ret, n) };
        let v = self.var(&f.name.name, ty, sp);
        self.tables.insert(f.name.name.clone(), v);
        v
    }
}

impl Lowerer<'_, '_> {
    /// The type `f` returns (`Some(None)`: `void`; `None` after an error at the call).
    pub(super) fn result_type(&mut self, f: &Function, sp: &Span) -> Option<Option<CTy>> {
        if matches!(f.ret, Type::Void) {
            return Some(None);
        }
        match ctype::cty(self.cx, &f.ret) {
            Ok(t) if ctype::leaves(self.cx, &t).is_some() && !matches!(t, CTy::Array(..)) => {
                Some(Some(t))
            }
            Ok(_) => {
                self.err(
                    format!("`{}` returns a value of a type forex does not read", f.name.name),
                    sp,
                    "this call",
                );
                None
            }
            Err((what, _)) => {
                self.err(
                    format!(
                        "`{}` returns a value of a type forex does not read: {what}",
                        f.name.name
                    ),
                    sp,
                    "this call",
                );
                None
            }
        }
    }

    pub(super) fn select(&self, arr: VarId, idxs: &[Expr], elem: CScalar) -> Val {
        let e = Expr::var(arr, self.vars[arr.index()].ty.clone());
        Val { e: place::select_path(e, idxs), ty: elem }
    }
}

/// The storage of a whole array place (a named array, a struct's array member) as a
/// parameter of type `ty` may take it by reference.
fn whole_array(p: &Place, ty: &CTy) -> Option<Slot> {
    let Root::Slot(s) = &p.root else { return None };
    if !p.idx.is_empty() {
        return None;
    }
    let CTy::Array(elem, _) = &p.ty else { return None };
    let fits = match ty {
        CTy::Array(e, _) => e == elem,
        CTy::Ptr(e) => **e == **elem,
        _ => false,
    };
    if !fits {
        return None;
    }
    let whole = p.sel.start == 0 && p.sel.end == s.leaves.len();
    Some(Slot {
        ty: p.ty.clone(),
        leaves: s.leaves[p.sel.clone()].to_vec(),
        len: if whole { s.len.clone() } else { None },
    })
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
