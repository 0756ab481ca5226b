//! Globals and `static` locals: state of each copy (LANGUAGE.md "Globals, structs and
//! pointers in tuples"), IR variables named as in C (`g`, `s.a`; a static local `x` of
//! `f` is `f::x` whichever function inlines `f`), shared by every inlined function that
//! uses them. At the start of a copy they hold inputs like parameters, except in a copy
//! of `main`, where they start with C's static initial values.

use super::ctype::{self, CTy};
use super::place::{Place, Slot};
use super::{Frame, Lowerer, Span};
use crate::c::ast;
use crate::ir::Stmt;

impl Lowerer<'_, '_> {
    /// The storage of global `name`, if the file has one (made on first use).
    pub(super) fn global_slot(&mut self, name: &str, sp: &Span) -> Option<Slot> {
        let d = *self.cx.globals.get(name)?;
        let ty = match self.decl_type(d) {
            Ok(t) => t,
            Err(what) => {
                self.err(format!("the global `{name}`: {what}"), sp, "this global");
                return None;
            }
        };
        let slot = self.slot_vars(name, &ty, &d.name.span)?;
        if !self.globals_used.iter().any(|g| g == name) {
            self.globals_used.push(name.to_string());
        }
        Some(slot)
    }

    /// A declaration's type, an array's length taken from its initialiser list when the
    /// declarator leaves it out (`int t[] = {1, 2, 3}`).
    pub(super) fn decl_type(&self, d: &ast::VarDecl) -> Result<CTy, String> {
        let t = ctype::cty(self.cx, &d.ty).map_err(|(w, _)| w)?;
        Ok(match (t, &d.init) {
            (CTy::Array(e, None), Some(ast::Init::List(items, _))) => {
                CTy::Array(e, Some(list_len(items)))
            }
            (t, _) => t,
        })
    }

    /// A `static` local: storage named `f::x` (`f::x#2` for the second `x` of `f`),
    /// the same in every copy of `f`'s code; its initialiser runs once, before `main`.
    pub(super) fn static_local(&mut self, d: &ast::VarDecl, ty: &CTy) -> Option<Slot> {
        let func = self.frame().func.clone();
        let base = self.decl_name(&d.name.name, &format!("{func}::"));
        let slot = self.slot_vars(&base, ty, &d.name.span)?;
        let top = self.frames.len() == 1;
        self.bind(&d.name.name, slot.clone(), false);
        // Formulas name it `x` (when no other `x` is there) or `f::x`.
        for n in [d.name.name.clone(), base.clone()] {
            let list = self.names.entry(n).or_default();
            if !list.contains(&slot) {
                list.push(slot.clone());
            }
        }
        let _ = top;
        if !self.statics.iter().any(|s| s.1 == base) {
            self.statics.push((d.name.name.clone(), base, slot.clone(), d.clone()));
        }
        Some(slot)
    }

    /// Whether the `static` local `d` of the function being lowered is only ever read
    /// (a scalar, or an array of scalars read by index: `flow::only_reads`), so that it
    /// always holds the value its initialiser gives it.
    pub(super) fn constant_static(&self, d: &ast::VarDecl, ty: &CTy) -> bool {
        let array = match ty {
            CTy::Scalar(_) => false,
            CTy::Array(e, Some(_)) if e.is_scalar() => true,
            _ => return false,
        };
        let Some(func) = self.frames.last().map(|f| f.func.as_str()) else { return false };
        let Some(body) = self.cx.functions.get(func).and_then(|f| f.body.as_ref()) else {
            return false;
        };
        super::flow::only_reads(body, &d.name.name, array)
    }

    /// `main`'s start: every global and static local it uses takes C's static initial
    /// value (zero, then its initialiser).
    pub(super) fn static_initialisers(&mut self, sp: &Span, out: &mut Vec<Stmt>) {
        let mut done = 0;
        let mut statics_done = 0;
        // Initialisers may use more globals (`int *p = &g;`): until none is new.
        loop {
            if done < self.globals_used.len() {
                let name = self.globals_used[done].clone();
                done += 1;
                let Some(d) = self.cx.globals.get(name.as_str()).copied() else { continue };
                let Some(slot) = self.global_slot(&name, &d.name.span) else { continue };
                self.initialise(slot, d, out);
            } else if statics_done < self.statics.len() {
                let (_, _, slot, d) = self.statics[statics_done].clone();
                statics_done += 1;
                self.initialise(slot, &d, out);
            } else {
                break;
            }
        }
        let _ = sp;
    }

    fn initialise(&mut self, slot: Slot, d: &ast::VarDecl, out: &mut Vec<Stmt>) {
        // In a scope of its own: only globals are visible to an initialiser.
        self.frames.push(Frame::new("main", "$init::".into(), None));
        let place = Place::of_slot(slot);
        self.zero_place(&place, &d.name.span, out);
        if let Some(init) = &d.init {
            self.init_place(&place, init, &d.span, out);
        }
        self.frames.pop();
    }

    /// The C names formulas give to the globals and static locals used: (name, type).
    pub(super) fn globals_named(&mut self) -> Vec<(String, CTy)> {
        let mut out = Vec::new();
        for name in self.globals_used.clone() {
            let Some(d) = self.cx.globals.get(name.as_str()).copied() else { continue };
            let Ok(ty) = self.decl_type(d) else { continue };
            if !self.is_shadowed(&name) {
                if let Some(slot) = self.global_slot(&name, &d.name.span) {
                    let list = self.names.entry(name.clone()).or_default();
                    if !list.contains(&slot) {
                        list.push(slot);
                    }
                }
            }
            out.push((name, ty));
        }
        for (_, base, slot, _) in &self.statics {
            out.push((base.clone(), slot.ty.clone()));
        }
        out
    }

    /// Whether the top-level function declares a local of this name (which formulas then
    /// mean by it).
    fn is_shadowed(&self, name: &str) -> bool {
        self.names.get(name).is_some_and(|l| !l.is_empty())
    }
}

/// The number of elements an initialiser list gives an array of unknown length.
fn list_len(items: &[ast::InitItem]) -> u64 {
    use num_traits::ToPrimitive;
    let mut pos: u64 = 0;
    let mut max: u64 = 0;
    for it in items {
        if let Some(ast::Designator::Index(e)) = it.designators.first() {
            if let ast::ExprKind::Int(v, _) = &e.kind {
                pos = v.to_u64().unwrap_or(pos);
            }
        }
        pos += 1;
        max = max.max(pos);
    }
    max
}
