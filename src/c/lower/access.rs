//! Places in code (C's lvalues): names, elements, members, dereferences; the undefined
//! behaviour an access may have (an index outside its array, through a pointer
//! `NULL`, outside its object, freed) checked where the access is made.

use super::ctype::{self, CTy, OFF};
use super::memory::Len;
use super::place::{self, Place, Ptr, Root, CV};
use super::ub::UbKind;
use super::{Lowerer, Span};
use crate::c::ast::{self, ExprKind as K, UnaryOp};
use crate::c::types::Val;
use crate::ir::Stmt;

impl Lowerer<'_, '_> {
    /// The place `e` designates; `addr`: its address is taken (`&a[n]`, one past the end,
    /// is no undefined behaviour).
    pub(super) fn place(
        &mut self,
        e: &ast::Expr,
        out: &mut Vec<Stmt>,
        addr: bool,
    ) -> Option<Place> {
        match &e.kind {
            K::Var(name) => {
                let Some(slot) = self.lookup(name, &e.span) else {
                    self.unknown_name(name, &e.span);
                    return None;
                };
                Some(Place::of_slot(slot))
            }
            K::Index(a, i) => {
                if lvalue_form(a) {
                    let p = self.place(a, out, false)?;
                    if let CTy::Array(..) = p.ty {
                        let iv = self.expr(i, out)?;
                        return self.index(p, iv, addr, &e.span, out);
                    }
                    let base = self.read_place(&p, &a.span, out)?;
                    return self.pointer_index(base, i, &e.span, out);
                }
                let base = self.value(a, out)?;
                self.pointer_index(base, i, &e.span, out)
            }
            K::Member { base, field, arrow: false } => {
                if !lvalue_form(base) {
                    self.err(
                        "a member of a struct value that is not stored cannot be assigned",
                        &e.span,
                        "not an lvalue",
                    );
                    return None;
                }
                let p = self.place(base, out, false)?;
                self.member_place(p, field)
            }
            K::Member { base, field, arrow: true } => {
                let v = self.value(base, out)?;
                let ptr = self.as_pointer(v, &base.span, "`->`")?;
                let n = self.leaves_of(&ptr.to, &base.span)?.len();
                self.member_place(Place::of_ptr(ptr, n), field)
            }
            K::Unary(UnaryOp::Deref, a) => {
                let v = self.value(a, out)?;
                let ptr = self.as_pointer(v, &a.span, "`*`")?;
                if matches!(ptr.to, CTy::Void) {
                    self.err("dereferencing a `void *`", &e.span, "no type to read");
                    return None;
                }
                let n = self.leaves_of(&ptr.to, &a.span)?.len();
                Some(Place::of_ptr(ptr, n))
            }
            _ => {
                self.err(
                    "the left side of an assignment must be a variable, an element, a member or \
                     `*p`",
                    &e.span,
                    "not assignable",
                );
                None
            }
        }
    }

    /// `p[i]` on a pointer (or an array that decayed to one): `*(p + i)`.
    fn pointer_index(
        &mut self,
        base: CV,
        i: &ast::Expr,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Place> {
        let ptr = self.as_pointer(base, sp, "indexing")?;
        let iv = self.expr(i, out)?;
        let ptr = self.ptr_add(ptr, &iv, false, sp)?;
        let n = self.leaves_of(&ptr.to, sp)?.len();
        Some(Place::of_ptr(ptr, n))
    }

    /// A value that must be a pointer (`what` uses it).
    pub(super) fn as_pointer(&mut self, v: CV, sp: &Span, what: &str) -> Option<Ptr> {
        match v {
            CV::P(p) => Some(p),
            other => {
                let t = ctype::spell(self.cx, &other.ty());
                self.err(
                    format!("{what} needs a pointer, not a value of type {t}"),
                    sp,
                    "not a pointer",
                );
                None
            }
        }
    }

    /// `p + i` (`p - i` when `neg`), in elements.
    pub(super) fn ptr_add(&mut self, p: Ptr, i: &Val, neg: bool, sp: &Span) -> Option<Ptr> {
        if matches!(p.to, CTy::Void) {
            self.err("arithmetic on a `void *`", sp, "no element size");
            return None;
        }
        let k = self.m().convert(i, OFF);
        if place::is_null_constant(&Val { e: k.clone(), ty: OFF }) {
            return Some(p);
        }
        let op = if neg { crate::c::ast::BinaryOp::Sub } else { crate::c::ast::BinaryOp::Add };
        let off = self.arith(op, place::off_val(p.off.clone()), place::off_val(k), sp, None)?;
        Some(Ptr { off: off.e, ..p })
    }

    /// Element `i` of an array place, with its index checked where the array's length is
    /// known (locals and globals; not parameters, not `@ELAENIA` files).
    pub(super) fn index(
        &mut self,
        p: Place,
        i: Val,
        addr: bool,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Place> {
        let CTy::Array(elem, len) = p.ty.clone() else { return None };
        let whole = match &p.root {
            Root::Slot(s) => p.idx.is_empty() && p.sel.len() == s.leaves.len(),
            Root::Deref(_) => false,
        };
        let dim = match (len, &p.root) {
            _ if self.cx.elaenia => None,
            (Some(n), _) => Some(Len::Const(n)),
            (None, Root::Slot(s)) if whole => s
                .len
                .as_ref()
                .and_then(place::var_of)
                .map(|v| Len::Var(self.vars[v.index()].name.clone())),
            _ => None,
        };
        let off = self.m().convert(&i, OFF);
        if let Some(d) = &dim {
            let n = self.len_expr(d, sp);
            let ok = self.in_range(&off, n, addr, sp);
            self.ub_check(UbKind::Outside, super::memory::not_fold(ok), sp, out);
        }
        let mut q = p;
        q.ty = *elem;
        q.idx.push(self.m().as_int(&i));
        q.idx_off = Some(off);
        q.dim_len = dim;
        Some(q)
    }

    /// The value at a place (an array decays to a pointer to its first element); an
    /// access through a pointer is checked first.
    pub(super) fn read_place(&mut self, p: &Place, sp: &Span, out: &mut Vec<Stmt>) -> Option<CV> {
        if let CTy::Array(..) = p.ty {
            return self.decay(p, sp).map(CV::P);
        }
        if let Root::Deref(ptr) = &p.root {
            let ptr = ptr.clone();
            self.check_access(&ptr, sp, out);
        }
        let leaves = self.read_leaves(p, sp);
        let mut v = CV::of_leaves(&p.ty, leaves)?;
        if let (CV::P(ptr), Root::Slot(s)) = (&mut v, &p.root) {
            // A parameter the function never assigns points to its own object.
            if let Some(k) =
                s.leaves.first().and_then(place::var_of).and_then(|t| self.fixed_params.get(&t))
            {
                if p.idx.is_empty() && p.sel.start == 0 {
                    ptr.cands = Some(k.clone());
                }
            }
        }
        Some(v)
    }
}

/// Whether `e` is written as an lvalue (a name, an element, a member, `*p`).
pub(super) fn lvalue_form(e: &ast::Expr) -> bool {
    match &e.kind {
        K::Var(_) | K::Index(..) | K::Unary(UnaryOp::Deref, _) => true,
        K::Member { base, arrow, .. } => *arrow || lvalue_form(base),
        _ => false,
    }
}
