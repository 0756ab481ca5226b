//! C values beyond scalars (pointers, structs) and places (what C calls lvalues): a named
//! variable's storage, or an object reached through a pointer, narrowed by members and
//! indexed. Reading a place gives its leaves' values; through a pointer, an `ite` over
//! the objects it may point to. Writing is an `if` chain over them.

use super::ctype::{self, CTy, OFF, TAG};
use super::{Lowerer, Span, VarTy};
use crate::c::types::{ite, Model, Val};
use crate::ir::c::CScalar;
use crate::ir::{BinOp, Expr, ExprKind, Stmt, Type, VarId};
use std::ops::Range;

/// A C variable's storage: its type and the IR variables of its leaves (`Var`
/// expressions, in layout order).
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    pub ty: CTy,
    pub leaves: Vec<Expr>,
    /// An array whose length only the run knows (`int a[n]`): the length, a `long`
    /// variable set where the array is declared.
    pub len: Option<Expr>,
}

impl Slot {
    /// The slot with every variable renamed (a program's slot in a tuple's copy).
    pub fn map_vars(&self, f: &impl Fn(VarId) -> VarId) -> Slot {
        Slot {
            ty: self.ty.clone(),
            leaves: self.leaves.iter().map(|e| e.map_vars(f)).collect(),
            len: self.len.as_ref().map(|e| e.map_vars(f)),
        }
    }

    /// The IR variable of a slot with one leaf.
    pub fn var(&self) -> Option<VarId> {
        match self.leaves.as_slice() {
            [e] => var_of(e),
            _ => None,
        }
    }
}

pub fn var_of(e: &Expr) -> Option<VarId> {
    match e.kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    }
}

/// A pointer value: the object (a tag, 0 for `NULL`), the element offset (a `long`), the
/// type pointed to and, when lowering knows them, the only objects it may point to.
#[derive(Clone, Debug)]
pub struct Ptr {
    pub obj: Expr,
    pub off: Expr,
    pub to: CTy,
    pub cands: Option<Vec<u32>>,
}

/// A C value.
#[derive(Clone, Debug)]
pub enum CV {
    S(Val),
    P(Ptr),
    /// A struct value: its leaves' values (arrays inside are IR arrays).
    R(u32, Vec<Expr>),
}

impl CV {
    pub fn ty(&self) -> CTy {
        match self {
            CV::S(v) => CTy::Scalar(v.ty),
            CV::P(p) => CTy::Ptr(Box::new(p.to.clone())),
            CV::R(id, _) => CTy::Struct(*id),
        }
    }

    pub fn leaves(self) -> Vec<Expr> {
        match self {
            CV::S(v) => vec![v.e],
            CV::P(p) => vec![p.obj, p.off],
            CV::R(_, l) => l,
        }
    }

    /// The value of type `ty` whose leaves are `leaves` (`None`: arrays, `void`).
    pub fn of_leaves(ty: &CTy, mut leaves: Vec<Expr>) -> Option<CV> {
        Some(match ty {
            CTy::Scalar(s) => CV::S(Val { e: leaves.pop()?, ty: *s }),
            CTy::Ptr(to) => {
                let off = leaves.pop()?;
                let obj = leaves.pop()?;
                CV::P(Ptr { obj, off, to: (**to).clone(), cands: None })
            }
            CTy::Struct(id) => CV::R(*id, leaves),
            CTy::Void | CTy::Array(..) => return None,
        })
    }
}

/// Where a place lives.
#[derive(Clone, Debug)]
pub enum Root {
    /// A named variable (local, parameter, global).
    Slot(Slot),
    /// The object a pointer points to (its element type is the pointer's target).
    Deref(Ptr),
}

/// An lvalue: its type, where it lives, which leaves of the root's type it covers, and
/// the indices into those leaves' array dimensions (after the pointer's offset, for a
/// root reached through a pointer).
#[derive(Clone, Debug)]
pub struct Place {
    pub ty: CTy,
    pub root: Root,
    pub sel: Range<usize>,
    /// Indices as IR integers (what `Select` takes).
    pub idx: Vec<Expr>,
    /// The last index as a C `long` (a pointer's offset, for `&a[i]`).
    pub idx_off: Option<Expr>,
    /// The length of the dimension the last index indexes, where forex knows it.
    pub dim_len: Option<super::memory::Len>,
}

impl Place {
    pub fn of_slot(slot: Slot) -> Place {
        Place {
            ty: slot.ty.clone(),
            sel: 0..slot.leaves.len(),
            root: Root::Slot(slot),
            idx: vec![],
            idx_off: None,
            dim_len: None,
        }
    }

    /// The place a pointer points to.
    pub fn of_ptr(p: Ptr, leaves: usize) -> Place {
        Place {
            ty: p.to.clone(),
            sel: 0..leaves,
            root: Root::Deref(p),
            idx: vec![],
            idx_off: None,
            dim_len: None,
        }
    }
}

/// `base[i][j]…` through nested IR arrays.
pub fn select_path(mut e: Expr, idx: &[Expr]) -> Expr {
    for i in idx {
        let Type::Array(t) = e.ty.clone() else { break };
        e = Expr { kind: ExprKind::Select(Box::new(e), Box::new(i.clone())), ty: *t };
    }
    e
}

/// The literal a tag expression is, if it is one.
pub fn literal_tag(e: &Expr) -> Option<u32> {
    use num_traits::ToPrimitive;
    match &e.kind {
        ExprKind::Int(v) => v.to_u32(),
        ExprKind::Bv(v) => u32::try_from(*v).ok(),
        _ => None,
    }
}

impl Model {
    /// The tag literal `k` (0: `NULL`).
    pub fn tag(self, k: u32) -> Expr {
        self.lit_i(i64::from(k), TAG)
    }

    /// `obj == k`, folded when `obj` is a literal.
    pub fn is_tag(self, obj: &Expr, k: u32) -> Expr {
        match literal_tag(obj) {
            Some(j) => Expr::bool(j == k),
            None => Expr::eq(obj.clone(), self.tag(k)),
        }
    }

    /// The offset literal `k`.
    pub fn off(self, k: i64) -> Expr {
        self.lit_i(k, OFF)
    }

    /// The null pointer to `to`.
    pub fn null(self, to: CTy) -> Ptr {
        Ptr { obj: self.tag(0), off: self.off(0), to, cands: Some(vec![]) }
    }
}

/// `c ? a : b` on leaves, folded when `c` is a literal or both sides are the same.
pub fn ite_fold(c: Expr, a: Expr, b: Expr) -> Expr {
    match c.kind {
        ExprKind::Bool(true) => a,
        ExprKind::Bool(false) => b,
        _ if a == b => a,
        _ => ite(c, a, b),
    }
}

impl Lowerer<'_, '_> {
    /// The leaves of a type, or an error at `sp` naming what forex cannot hold.
    pub(super) fn leaves_of(&mut self, ty: &CTy, sp: &Span) -> Option<Vec<ctype::Leaf>> {
        if let Some(l) = ctype::leaves(self.cx, ty) {
            return Some(l);
        }
        let what = match ty {
            CTy::Struct(id) => ctype::record_problem(self.cx, *id)
                .unwrap_or_else(|| "this struct cannot be held by value".into()),
            CTy::Void => "`void` has no values".into(),
            _ => "this type cannot be held".into(),
        };
        self.err(what, sp, "this type");
        None
    }

    /// The IR variables of a new C variable of type `ty` named `base` (`base.a`, …).
    pub(super) fn slot_vars(&mut self, base: &str, ty: &CTy, sp: &Span) -> Option<Slot> {
        let leaves = self.leaves_of(ty, sp)?;
        let mut out = Vec::new();
        for l in leaves {
            let vt =
                if l.dims == 0 { VarTy::Scalar(l.scalar) } else { VarTy::Array(l.scalar, l.dims) };
            let v = self.var(&format!("{base}{}", l.path), vt, sp);
            out.push(Expr::var(v, self.vars[v.index()].ty.clone()));
        }
        Some(Slot { ty: ty.clone(), leaves: out, len: None })
    }

    /// The values of a place's leaves (no checks: the caller has checked the access).
    pub(super) fn read_leaves(&mut self, p: &Place, sp: &Span) -> Vec<Expr> {
        match &p.root {
            Root::Slot(s) => {
                s.leaves[p.sel.clone()].iter().map(|l| select_path(l.clone(), &p.idx)).collect()
            }
            Root::Deref(ptr) => {
                let cands = self.candidates(ptr);
                let off = self.m().as_int(&Val { e: ptr.off.clone(), ty: OFF });
                let mut acc: Option<Vec<Expr>> = None;
                for k in cands.iter().rev() {
                    let (storage, array) = self.object_storage(*k, sp);
                    let vals: Vec<Expr> = storage[p.sel.clone()]
                        .iter()
                        .map(|l| {
                            let base = if array {
                                select_path(l.clone(), std::slice::from_ref(&off))
                            } else {
                                l.clone()
                            };
                            select_path(base, &p.idx)
                        })
                        .collect();
                    acc = Some(match acc {
                        None => vals,
                        Some(rest) => {
                            let c = self.m().is_tag(&ptr.obj, *k);
                            vals.into_iter()
                                .zip(rest)
                                .map(|(a, b)| ite_fold(c.clone(), a, b))
                                .collect()
                        }
                    });
                }
                match acc {
                    Some(v) => v,
                    // Points to no object forex knows: the access is undefined behaviour
                    // (checked by the caller); any value will do.
                    None => self.default_leaves(&p.ty, sp),
                }
            }
        }
    }

    /// Zero values of a type's leaves (what a read through a pointer to nothing gives).
    fn default_leaves(&mut self, ty: &CTy, sp: &Span) -> Vec<Expr> {
        let Some(leaves) = ctype::leaves(self.cx, ty) else { return vec![] };
        let m = self.m();
        let _ = sp;
        leaves
            .into_iter()
            .map(|l| {
                let mut e = m.lit_i(0, l.scalar);
                for _ in 0..l.dims {
                    let t = Type::Array(Box::new(e.ty.clone()));
                    e = Expr { kind: ExprKind::ConstArray(Box::new(e)), ty: t };
                }
                e
            })
            .collect()
    }

    /// Writes `vals` (one per leaf of the place) to the place.
    pub(super) fn write_leaves(
        &mut self,
        p: &Place,
        vals: Vec<Expr>,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        match &p.root {
            Root::Slot(s) => {
                let targets: Vec<Expr> = s.leaves[p.sel.clone()].to_vec();
                for (t, v) in targets.iter().zip(vals) {
                    if let Some(var) = var_of(t) {
                        self.store_path(var, &p.idx, v, sp, out);
                    }
                }
            }
            Root::Deref(ptr) => {
                let cands = self.candidates(ptr);
                let off = self.m().as_int(&Val { e: ptr.off.clone(), ty: OFF });
                let mut chain: Vec<Stmt> = Vec::new();
                for (n, k) in cands.iter().rev().enumerate() {
                    let (storage, array) = self.object_storage(*k, sp);
                    let mut body = Vec::new();
                    for (t, v) in storage[p.sel.clone()].iter().zip(vals.iter()) {
                        let Some(var) = var_of(t) else { continue };
                        let mut idx = Vec::new();
                        if array {
                            idx.push(off.clone());
                        }
                        idx.extend(p.idx.iter().cloned());
                        self.store_path(var, &idx, v.clone(), sp, &mut body);
                    }
                    chain = if n == 0 {
                        body
                    } else {
                        let cond = self.m().is_tag(&ptr.obj, *k);
                        match cond.kind {
                            ExprKind::Bool(true) => body,
                            ExprKind::Bool(false) => chain,
                            _ => {
                                vec![Stmt::If { cond, then_branch: body, else_branch: chain, loc }]
                            }
                        }
                    };
                }
                out.extend(chain);
            }
        }
    }

    /// `var[i][j]… = value` through nested IR arrays (rows copied to temporaries).
    pub(super) fn store_path(
        &mut self,
        var: VarId,
        idx: &[Expr],
        value: Expr,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let loc = self.loc(sp);
        match idx {
            [] => out.push(Stmt::Assign { var, value, loc }),
            [i] => out.push(Stmt::Store { array: var, index: i.clone(), value, loc }),
            [i, rest @ ..] => {
                let ty = self.vars[var.index()].ty.clone();
                let Type::Array(row_ty) = ty.clone() else { return };
                let (scalar, dims) = match &self.types[var.index()] {
                    VarTy::Array(s, d) => (*s, d.saturating_sub(1)),
                    VarTy::Scalar(s) => (*s, 0),
                };
                let row = self.fresh("row", VarTy::Array(scalar, dims), sp);
                let read = Expr {
                    kind: ExprKind::Select(Box::new(Expr::var(var, ty)), Box::new(i.clone())),
                    ty: *row_ty,
                };
                out.push(Stmt::Assign { var: row, value: read, loc });
                self.store_path(row, rest, value, sp, out);
                let row_val = Expr::var(row, self.vars[row.index()].ty.clone());
                out.push(Stmt::Store { array: var, index: i.clone(), value: row_val, loc });
            }
        }
    }

    /// Narrows a place of struct type to member `name`.
    pub(super) fn member_place(
        &mut self,
        mut p: Place,
        name: &crate::c::ast::Ident,
    ) -> Option<Place> {
        let CTy::Struct(id) = p.ty else {
            self.err(
                format!("`.{}` on a value that is not a struct", name.name),
                &name.span,
                "not a struct member",
            );
            return None;
        };
        let Some((ty, range)) = ctype::member(self.cx, id, &name.name) else {
            let what = match ctype::record_problem(self.cx, id) {
                Some(p) => p,
                None => format!("`{}` has no member `{}`", ctype::spell(self.cx, &p.ty), name.name),
            };
            self.err(what, &name.span, "no such member");
            return None;
        };
        p.sel = p.sel.start + range.start..p.sel.start + range.end;
        p.ty = ty;
        Some(p)
    }

    /// Member `name` of a struct value (a call's result, a conditional).
    pub(super) fn member_value(&mut self, v: CV, name: &crate::c::ast::Ident) -> Option<CV> {
        let CV::R(id, leaves) = v else {
            self.err(
                format!("`.{}` on a value that is not a struct", name.name),
                &name.span,
                "not a struct",
            );
            return None;
        };
        let Some((ty, range)) = ctype::member(self.cx, id, &name.name) else {
            self.err(format!("no member `{}`", name.name), &name.span, "no such member");
            return None;
        };
        if matches!(ty, CTy::Array(..)) {
            self.err(
                "an array member of a struct value that is not stored",
                &name.span,
                "not supported",
            );
            return None;
        }
        CV::of_leaves(&ty, leaves[range].to_vec())
    }

    /// Member-wise `a == b` of two values of one type (structs, pointers, scalars).
    pub(super) fn equal_values(&mut self, a: CV, b: CV, sp: &Span) -> Option<Expr> {
        let (ta, tb) = (a.ty(), b.ty());
        if let (CV::S(x), CV::S(y)) = (&a, &b) {
            let r = self.arith(crate::c::ast::BinaryOp::Eq, x.clone(), y.clone(), sp, None)?;
            return Some(r.e);
        }
        let compatible = match (&ta, &tb) {
            (CTy::Ptr(x), CTy::Ptr(y)) => x == y || **x == CTy::Void || **y == CTy::Void,
            _ => ta == tb,
        };
        if !compatible {
            self.err(
                format!(
                    "`==` between {} and {}",
                    ctype::spell(self.cx, &ta),
                    ctype::spell(self.cx, &tb)
                ),
                sp,
                "different types",
            );
            return None;
        }
        let parts: Vec<Expr> =
            a.leaves().into_iter().zip(b.leaves()).map(|(x, y)| Expr::eq(x, y)).collect();
        Some(Expr::and_all(parts))
    }

    /// `c ? a : b` on two values of one type (leaf-wise).
    pub(super) fn ite_values(&mut self, c: Expr, a: CV, b: CV, sp: &Span) -> Option<CV> {
        let m = self.m();
        match (a, b) {
            (CV::P(x), CV::P(y)) => {
                let to = if x.to == CTy::Void { y.to.clone() } else { x.to.clone() };
                let cands = match (x.cands, y.cands) {
                    (Some(mut p), Some(q)) => {
                        p.extend(q);
                        p.sort();
                        p.dedup();
                        Some(p)
                    }
                    _ => None,
                };
                Some(CV::P(Ptr {
                    obj: ite_fold(c.clone(), x.obj, y.obj),
                    off: ite_fold(c, x.off, y.off),
                    to,
                    cands,
                }))
            }
            (CV::P(x), CV::S(v)) if is_null_constant(&v) => {
                let null = m.null(x.to.clone());
                self.ite_values(c, CV::P(x), CV::P(null), sp)
            }
            (CV::S(v), CV::P(y)) if is_null_constant(&v) => {
                let null = m.null(y.to.clone());
                self.ite_values(c, CV::P(null), CV::P(y), sp)
            }
            (CV::R(i, x), CV::R(j, y)) if i == j => Some(CV::R(
                i,
                x.into_iter().zip(y).map(|(p, q)| ite_fold(c.clone(), p, q)).collect(),
            )),
            (a, b) => {
                self.err(
                    format!(
                        "the branches of `?:` have different types ({} and {})",
                        ctype::spell(self.cx, &a.ty()),
                        ctype::spell(self.cx, &b.ty())
                    ),
                    sp,
                    "here",
                );
                None
            }
        }
    }
}

/// Whether a scalar value is C's null pointer constant (the literal 0).
pub fn is_null_constant(v: &Val) -> bool {
    match &v.e.kind {
        ExprKind::Int(n) => num_traits::Zero::is_zero(n),
        ExprKind::Bv(n) => *n == 0,
        ExprKind::Bool(b) => !b,
        _ => false,
    }
}

/// `a op b` on offsets (`long`s) in the model.
pub fn off_binary(m: Model, op: BinOp, a: Expr, b: Expr) -> Expr {
    let _ = m;
    Expr::binary(op, a, b)
}

/// `off` converted to a `long` from a C integer value.
pub fn to_off(m: Model, v: &Val) -> Expr {
    m.convert(v, OFF)
}

/// A scalar `long` value holding an offset.
pub fn off_val(e: Expr) -> Val {
    Val { e, ty: CScalar::Long }
}
