//! Memory (DESIGN.md §11): objects and pointers to them. An object is storage a pointer
//! can reach: a variable whose address is taken, an array, a member of one, a pointer
//! parameter's pointee, a `malloc` site. Each has a tag (its index + 1; 0 is `NULL`),
//! known at lowering time: the lowering runs again once it has met every object
//! (`Lowerer::program`), so that a read through a pointer is an `ite` over all the
//! objects of the pointer's target type (a flow-insensitive points-to set by type), and
//! a write an `if` chain over them. Only code that takes addresses pays for any of this:
//! variables whose address is never taken stay plain IR variables.

use super::ctype::{self, CTy, OFF};
use super::place::{literal_tag, Place, Ptr, Root, Slot};
use super::ub::UbKind;
use super::{Lowerer, Span, VarTy};
use crate::c::ast::BinaryOp;
use crate::c::types::Val;
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Type};

/// How many elements an object has, when forex knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Len {
    Const(u64),
    /// A `long` variable set where the object is made (a VLA, a `malloc`).
    Var(String),
}

/// An object of a lowered program.
#[derive(Clone, Debug)]
pub struct Object {
    /// Its storage: the IR variables of its element type's leaves (each with one more
    /// array dimension when `array`), by name and type: made on first use, so that every
    /// lowering pass finds them by name.
    pub leaves: Vec<(String, VarTy)>,
    pub elem: CTy,
    /// Indexed by the pointer's offset (an array); else a single element (offset 0).
    pub array: bool,
    /// For an array: its number of elements where forex knows it. Arrays and pointees of
    /// parameters have none: they are total maps (LANGUAGE.md "Undefined behaviour").
    pub len: Option<Len>,
    /// A `malloc`'d object: the `_Bool` variable that says it is allocated and not freed.
    pub live: Option<String>,
    /// How reports name it (`x`, `a`, `*p`, `malloc at 12:5`).
    pub name: String,
}

impl Object {
    fn key(&self) -> (&str, usize, bool) {
        (self.leaves.first().map_or("", |l| l.0.as_str()), self.leaves.len(), self.array)
    }
}

impl Lowerer<'_, '_> {
    /// The tag of the object with this storage, made on first use.
    pub(super) fn object_tag(&mut self, obj: Object) -> u32 {
        if let Some(i) = self.objects.iter().position(|o| o.key() == obj.key()) {
            if self.objects[i].len.is_none() && obj.len.is_some() {
                self.objects[i].len = obj.len;
            }
            return i as u32 + 1;
        }
        self.objects.push(obj);
        self.objects.len() as u32
    }

    /// The objects pointer `p` may point to: one when its tag is a literal, else those it
    /// carries, else every object of its target type.
    pub(super) fn candidates(&self, p: &Ptr) -> Vec<u32> {
        if let Some(k) = literal_tag(&p.obj) {
            return if k == 0 || k as usize > self.objects.len() { vec![] } else { vec![k] };
        }
        if let Some(c) = &p.cands {
            return c.clone();
        }
        self.objects
            .iter()
            .enumerate()
            .filter(|(_, o)| o.elem == p.to)
            .map(|(i, _)| i as u32 + 1)
            .collect()
    }

    /// Object `k`'s storage (`Var` expressions) and whether it is indexed by the offset.
    pub(super) fn object_storage(&mut self, k: u32, sp: &Span) -> (Vec<Expr>, bool) {
        let o = self.objects[k as usize - 1].clone();
        let leaves = o
            .leaves
            .iter()
            .map(|(name, ty)| {
                let v = self.var(name, ty.clone(), sp);
                Expr::var(v, self.vars[v.index()].ty.clone())
            })
            .collect();
        (leaves, o.array)
    }

    /// The names and types of slot leaves (for an object over them).
    fn leaf_names(&self, leaves: &[Expr]) -> Vec<(String, VarTy)> {
        leaves
            .iter()
            .filter_map(super::place::var_of)
            .map(|v| (self.vars[v.index()].name.clone(), self.types[v.index()].clone()))
            .collect()
    }

    fn len_of(&self, e: &Option<Expr>, n: Option<u64>) -> Option<Len> {
        if self.cx.elaenia {
            return None;
        }
        if let Some(n) = n {
            return Some(Len::Const(n));
        }
        let v = super::place::var_of(e.as_ref()?)?;
        Some(Len::Var(self.vars[v.index()].name.clone()))
    }

    /// `&place`: a pointer to it.
    pub(super) fn address_of(&mut self, p: &Place, sp: &Span) -> Option<Ptr> {
        let m = self.m();
        match &p.root {
            Root::Slot(s) => {
                let leaves = self.leaf_names(&s.leaves[p.sel.clone()]);
                if leaves.len() != p.sel.len() {
                    self.err("this has no address forex can take", sp, "not a variable");
                    return None;
                }
                let name = self.object_name(&leaves, &p.ty);
                match p.idx.as_slice() {
                    [] => {
                        let k = self.object_tag(Object {
                            leaves,
                            elem: p.ty.clone(),
                            array: false,
                            len: None,
                            live: None,
                            name,
                        });
                        Some(Ptr {
                            obj: m.tag(k),
                            off: m.off(0),
                            to: p.ty.clone(),
                            cands: Some(vec![k]),
                        })
                    }
                    [i] => {
                        let len = p.dim_len.clone();
                        let k = self.object_tag(Object {
                            leaves,
                            elem: p.ty.clone(),
                            array: true,
                            len,
                            live: None,
                            name,
                        });
                        let off = p.idx_off.clone().unwrap_or_else(|| i.clone());
                        Some(Ptr { obj: m.tag(k), off, to: p.ty.clone(), cands: Some(vec![k]) })
                    }
                    _ => {
                        self.err(
                            "pointers into arrays of arrays (`&m[i][j]`, a row `m[i]`) are not \
                             supported",
                            sp,
                            "here",
                        );
                        None
                    }
                }
            }
            Root::Deref(ptr) => {
                if !p.idx.is_empty() {
                    self.err(
                        "pointers into an array reached through a pointer (`&(*p)[i]`) are not \
                         supported",
                        sp,
                        "here",
                    );
                    return None;
                }
                let full = ctype::leaf_count(self.cx, &ptr.to).unwrap_or(0);
                if p.sel.start == 0 && p.sel.end == full {
                    return Some(Ptr { to: p.ty.clone(), ..ptr.clone() });
                }
                // `&p->f`: per object p may point to, its member's sub-object.
                let cands = self.candidates(ptr);
                let mut subs = Vec::new();
                for k in &cands {
                    let o = self.objects[*k as usize - 1].clone();
                    let leaves = o.leaves[p.sel.clone()].to_vec();
                    let name = format!("{}{}", o.name, member_suffix(&leaves, &o.leaves));
                    let sub = self.object_tag(Object {
                        leaves,
                        elem: p.ty.clone(),
                        array: o.array,
                        len: o.len.clone(),
                        live: o.live.clone(),
                        name,
                    });
                    subs.push((*k, sub));
                }
                let mut obj = m.tag(0);
                for (k, sub) in subs.iter().rev() {
                    obj = super::place::ite_fold(m.is_tag(&ptr.obj, *k), m.tag(*sub), obj);
                }
                Some(Ptr {
                    obj,
                    off: ptr.off.clone(),
                    to: p.ty.clone(),
                    cands: Some(subs.iter().map(|s| s.1).collect()),
                })
            }
        }
    }

    /// How reports name an object over these leaves.
    fn object_name(&self, leaves: &[(String, VarTy)], ty: &CTy) -> String {
        let first = leaves.first().map_or("?", |l| l.0.as_str());
        let paths = ctype::leaves(self.cx, ty).unwrap_or_default();
        let suffix = paths.first().map_or("", |l| l.path.as_str());
        first.strip_suffix(suffix).unwrap_or(first).to_string()
    }

    /// An array place used as a value: a pointer to its first element.
    pub(super) fn decay(&mut self, p: &Place, sp: &Span) -> Option<Ptr> {
        let CTy::Array(elem, n) = &p.ty else { return None };
        let mut q = p.clone();
        q.ty = (**elem).clone();
        q.idx.push(crate::ir::Expr::int(0));
        q.dim_len = match &p.root {
            Root::Slot(s) if p.idx.is_empty() && p.sel.len() == s.leaves.len() => {
                self.len_of(&s.len, *n)
            }
            _ => self.len_of(&None, *n),
        };
        q.idx_off = Some(self.m().off(0));
        self.address_of(&q, sp)
    }

    /// The undefined behaviour an access through `p` may have: `NULL`, no object or
    /// outside it, a freed object.
    pub(super) fn check_access(&mut self, p: &Ptr, sp: &Span, out: &mut Vec<Stmt>) {
        let m = self.m();
        let cands = self.candidates(p);
        let null = m.is_tag(&p.obj, 0);
        self.ub_check(UbKind::Null, null, sp, out);
        let mut valid = Vec::new();
        let mut freed = Vec::new();
        for k in &cands {
            let o = self.objects[*k as usize - 1].clone();
            let here = m.is_tag(&p.obj, *k);
            let inside = if !o.array {
                Expr::eq(p.off.clone(), m.off(0))
            } else {
                match &o.len {
                    None => Expr::bool(true),
                    Some(len) => {
                        let len = self.len_expr(len, sp);
                        self.in_range(&p.off, len, false, sp)
                    }
                }
            };
            valid.push(and_fold(here.clone(), fold_eq(inside)));
            if let Some(live) = &o.live {
                let v = self.var(live, VarTy::Scalar(crate::ir::c::CScalar::Bool), sp);
                freed.push(and_fold(here, Expr::negate(Expr::var(v, Type::Bool))));
            }
        }
        let any_valid = or_all(valid);
        self.ub_check(UbKind::Outside, not_fold(any_valid), sp, out);
        if !freed.is_empty() {
            self.ub_check(UbKind::Freed, or_all(freed), sp, out);
        }
    }

    /// A length as a `long` expression.
    pub(super) fn len_expr(&mut self, len: &Len, sp: &Span) -> Expr {
        match len {
            Len::Const(n) => self.m().lit(&(*n).into(), OFF),
            Len::Var(name) => {
                let v = self.var(name, VarTy::Scalar(OFF), sp);
                Expr::var(v, self.vars[v.index()].ty.clone())
            }
        }
    }

    /// `0 <= off && off < len` (`<= len` when `one_past`), `off` and `len` `long`s.
    pub(super) fn in_range(&mut self, off: &Expr, len: Expr, one_past: bool, sp: &Span) -> Expr {
        let v = |e: Expr| Val { e, ty: OFF };
        let zero = self.m().off(0);
        let lo = self.arith(BinaryOp::Ge, v(off.clone()), v(zero), sp, None).map(|v| v.e);
        let op = if one_past { BinaryOp::Le } else { BinaryOp::Lt };
        let hi = self.arith(op, v(off.clone()), v(len), sp, None).map(|v| v.e);
        match (lo, hi) {
            (Some(a), Some(b)) => and_fold(fold_cmp(a), fold_cmp(b)),
            _ => Expr::bool(true),
        }
    }

    /// The slot of a pointer parameter of the copy's own function: `NULL` or a pointer to
    /// the first element of its own fresh object (`*p`, an array of unknown size whose
    /// contents are inputs). The statements that set it up go to `out`.
    pub(super) fn pointer_parameter(
        &mut self,
        slot: &Slot,
        name: &str,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let CTy::Ptr(to) = &slot.ty else { return };
        if matches!(**to, CTy::Void) {
            return;
        }
        let Some(paths) = ctype::leaves(self.cx, to) else { return };
        let leaves: Vec<(String, VarTy)> = paths
            .iter()
            .map(|l| {
                let n = if l.path.is_empty() {
                    format!("*{name}")
                } else {
                    format!("{name}->{}", &l.path[1..])
                };
                (n, VarTy::Array(l.scalar, l.dims + 1))
            })
            .collect();
        // Its storage exists even where the code never reads it: formulas name it.
        for (n, t) in &leaves {
            self.var(n, t.clone(), sp);
        }
        let k = self.object_tag(Object {
            leaves,
            elem: (**to).clone(),
            array: true,
            len: None,
            live: None,
            name: format!("*{name}"),
        });
        let m = self.m();
        let loc = self.loc(sp);
        let (Some(obj), Some(off)) =
            (super::place::var_of(&slot.leaves[0]), super::place::var_of(&slot.leaves[1]))
        else {
            return;
        };
        let raw = slot.leaves[0].clone();
        let value =
            super::place::ite_fold(Expr::binary(BinOp::Ne, raw, m.tag(0)), m.tag(k), m.tag(0));
        out.push(Stmt::Assign { var: obj, value, loc });
        out.push(Stmt::Assign { var: off, value: m.off(0), loc });
        self.param_objects.push((name.to_string(), k));
    }
}

/// `.f` from an object's leaf names and a sub-object's (`xs.f` of `xs`).
fn member_suffix(sub: &[(String, VarTy)], all: &[(String, VarTy)]) -> String {
    let (Some(s), Some(a)) = (sub.first(), all.first()) else { return String::new() };
    let common = s.0.chars().zip(a.0.chars()).take_while(|(x, y)| x == y).count();
    let rest = &s.0[common..];
    match rest.find('.') {
        Some(0) | None => rest.to_string(),
        Some(i) => rest[..i].to_string(),
    }
}

pub(super) fn and_fold(a: Expr, b: Expr) -> Expr {
    match (&a.kind, &b.kind) {
        (ExprKind::Bool(false), _) | (_, ExprKind::Bool(true)) => a,
        (ExprKind::Bool(true), _) | (_, ExprKind::Bool(false)) => b,
        _ => Expr::binary(BinOp::And, a, b),
    }
}

pub(super) fn not_fold(a: Expr) -> Expr {
    match a.kind {
        ExprKind::Bool(b) => Expr::bool(!b),
        _ => Expr::negate(a),
    }
}

pub(super) fn or_all(parts: Vec<Expr>) -> Expr {
    let mut acc: Option<Expr> = None;
    for p in parts {
        if let ExprKind::Bool(true) = p.kind {
            return p;
        }
        if let ExprKind::Bool(false) = p.kind {
            continue;
        }
        acc = Some(match acc {
            None => p,
            Some(a) => Expr::binary(BinOp::Or, a, p),
        });
    }
    acc.unwrap_or_else(|| Expr::bool(false))
}

/// `a == b` folded when both are the same literal.
fn fold_eq(e: Expr) -> Expr {
    fold_cmp(e)
}

/// A comparison of two literals, folded.
fn fold_cmp(e: Expr) -> Expr {
    use num_bigint::BigInt;
    let lit = |e: &Expr| -> Option<BigInt> {
        match &e.kind {
            ExprKind::Int(v) => Some(v.clone()),
            ExprKind::Bv(v) => {
                // Signed: offsets are `long`s.
                let w = match e.ty {
                    Type::Bv(w) => w,
                    _ => return None,
                };
                let v = *v as i128;
                let v = if w < 128 && (v >> (w - 1)) & 1 == 1 { v - (1i128 << w) } else { v };
                Some(BigInt::from(v))
            }
            _ => None,
        }
    };
    if let ExprKind::Binary(op, a, b) = &e.kind {
        if let (Some(x), Some(y)) = (lit(a), lit(b)) {
            let r = match op {
                BinOp::Eq => x == y,
                BinOp::Ne => x != y,
                BinOp::Lt | BinOp::SLt => x < y,
                BinOp::Le | BinOp::SLe => x <= y,
                BinOp::Gt | BinOp::SGt => x > y,
                BinOp::Ge | BinOp::SGe => x >= y,
                _ => return e,
            };
            return Expr::bool(r);
        }
    }
    e
}
