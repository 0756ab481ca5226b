//! `memcpy`, `memmove`, `memset`, `memcmp`: whole elements of any type.

use super::super::ctype::{self, CTy, OFF};
use super::super::memory::and_fold;
use super::super::place::{Ptr, CV};
use super::super::{Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp};
use crate::c::types::{ite, Val};
use crate::ir::c::CScalar;
use crate::ir::{Expr, ExprKind, Stmt, Type};

use super::{literal, push_if, Trip};

impl Lowerer<'_, '_> {
    /// `memcpy(d, s, n)` / `memmove(d, s, n)`: the value is `d`.
    pub(super) fn mem_copy(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let loc = self.loc(sp);
        let d = self.buffer(name, 0, &args[0], out)?;
        let s = self.buffer(name, 1, &args[1], out)?;
        if d.to != s.to {
            let (dt, st) = (ctype::spell(self.cx, &d.to), ctype::spell(self.cx, &s.to));
            self.err(
                format!("`{name}` from `{st}` elements to `{dt}` elements is not supported"),
                sp,
                "different element types",
            );
            return None;
        }
        let trip = self.element_count(name, &args[2], &d.to, out)?;
        let trip = self.bounded(trip, &[&d, &s]);
        let count = self.trip_value(&trip)?;
        self.range_check(&d, &count, sp, out)?;
        self.range_check(&s, &count, sp, out)?;
        if name == "memcpy" {
            self.overlap_check(&d, &s, &count, sp, out)?;
            self.copy(&d, &s, &trip, sp, out)?;
            return Some(CV::P(d));
        }
        // `memmove`: backwards when the destination starts after the source in one object
        // (each element is read before it is overwritten).
        let same = Expr::eq(d.obj.clone(), s.obj.clone());
        let after = self.arith(
            BinaryOp::Gt,
            Val { e: d.off.clone(), ty: OFF },
            Val { e: s.off.clone(), ty: OFF },
            sp,
            None,
        )?;
        let mut forward = Vec::new();
        self.copy(&d, &s, &trip, sp, &mut forward)?;
        let mut backward = Vec::new();
        let one = self.size_lit(1);
        let last = self.arith(BinaryOp::Sub, count, one, sp, None)?;
        self.each(&trip, false, sp, &mut backward, &mut |lw, i, _, b| {
            let j = lw.arith(BinaryOp::Sub, last.clone(), i.clone(), sp, None)?;
            let v = lw.load(&s, &j, false, sp, b)?;
            lw.store(&d, &j, v, false, sp, b)
        })?;
        out.push(Stmt::If {
            cond: and_fold(same, after.e),
            then_branch: backward,
            else_branch: forward,
            loc,
        });
        Some(CV::P(d))
    }

    /// Elements `0 .. trip` of `s` to `d`, in order (accesses checked by the caller).
    pub(super) fn copy(
        &mut self,
        d: &Ptr,
        s: &Ptr,
        trip: &Trip,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<()> {
        self.each(trip, false, sp, out, &mut |lw, i, _, b| {
            let v = lw.load(s, i, false, sp, b)?;
            lw.store(d, i, v, false, sp, b)
        })
    }

    /// `memset(p, c, n)`: every byte of the elements is `(unsigned char)c`.
    pub(super) fn mem_set(
        &mut self,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let p = self.buffer("memset", 0, &args[0], out)?;
        let c = self.expr(&args[1], out)?;
        let trip = self.element_count("memset", &args[2], &p.to, out)?;
        let trip = self.bounded(trip, &[&p]);
        let m = self.m();
        let zero = super::super::place::is_null_constant(&c);
        let t = ctype::spell(self.cx, &p.to);
        let vals = match &p.to {
            _ if zero => self.zero_leaves(&p.to),
            CTy::Scalar(s) if m.machine() && !s.is_float() && *s != CScalar::Bool => {
                let byte = m.to(&c, CScalar::UChar);
                let wide = m.convert(&byte, *s);
                // The byte in each of the element's bytes: byte × 0x0101….
                let ones = (0..s.bits() / 8).fold(0u64, |acc, _| (acc << 8) | 1);
                let ones = Val { e: m.lit(&ones.into(), *s), ty: *s };
                let v = self.arith(BinaryOp::Mul, Val { e: wide, ty: *s }, ones, sp, None)?;
                vec![m.convert(&v, *s)]
            }
            CTy::Scalar(s @ (CScalar::Char | CScalar::UChar))
                if literal(&c.e).is_some_and(|v| v < 128) =>
            {
                vec![m.convert(&c, *s)]
            }
            _ => {
                let why = if m.machine() {
                    "only 0 sets them (their bytes are no integer)"
                } else {
                    "in the math integer model only 0, or a literal byte below 128 on `char`s, \
                     sets them"
                };
                self.err(
                    format!("`memset` of `{t}` elements to a byte forex cannot model: {why}"),
                    &args[1].span,
                    "this byte",
                );
                return None;
            }
        };
        let count = self.trip_value(&trip)?;
        self.range_check(&p, &count, sp, out)?;
        self.each(&trip, false, sp, out, &mut |lw, i, _, b| {
            lw.store(&p, i, vals.clone(), false, sp, b)
        })?;
        Some(CV::P(p))
    }

    /// The bytes of a scalar in memory order (`unsigned char` values), where forex knows
    /// them: `char`s in both models, other integers in the machine model.
    pub(super) fn bytes(&self, e: &Expr, s: CScalar) -> Option<Vec<Val>> {
        let m = self.m();
        let v = Val { e: e.clone(), ty: s };
        match s {
            CScalar::Char | CScalar::UChar | CScalar::Bool => Some(vec![m.to(&v, CScalar::UChar)]),
            _ if s.is_float() || !m.machine() => None,
            _ => Some(
                (0..s.bits() / 8)
                    .map(|j| Val {
                        e: Expr {
                            kind: ExprKind::Extract {
                                hi: 8 * j + 7,
                                lo: 8 * j,
                                arg: Box::new(e.clone()),
                            },
                            ty: Type::Bv(8),
                        },
                        ty: CScalar::UChar,
                    })
                    .collect(),
            ),
        }
    }

    /// `x - y` of two `unsigned char`s, as an `int`.
    pub(super) fn byte_diff(&mut self, x: &Val, y: &Val, sp: &Span) -> Option<Expr> {
        let m = self.m();
        let (x, y) = (m.to(x, CScalar::Int), m.to(y, CScalar::Int));
        Some(self.arith(BinaryOp::Sub, x, y, sp, None)?.e)
    }

    /// `memcmp(a, b, n)`.
    pub(super) fn mem_cmp(
        &mut self,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let loc = self.loc(sp);
        let a = self.buffer("memcmp", 0, &args[0], out)?;
        let b = self.buffer("memcmp", 1, &args[1], out)?;
        let t = ctype::spell(self.cx, &a.to);
        let scalar = match (&a.to, &b.to) {
            (CTy::Scalar(x), CTy::Scalar(y)) if x == y => *x,
            _ if a.to != b.to => {
                let u = ctype::spell(self.cx, &b.to);
                self.err(
                    format!("`memcmp` of `{t}` elements with `{u}` elements is not supported"),
                    sp,
                    "different element types",
                );
                return None;
            }
            _ => {
                self.err(
                    format!("`memcmp` of `{t}` elements is not supported (integers only)"),
                    &args[0].span,
                    "these elements",
                );
                return None;
            }
        };
        if self.bytes(&self.m().lit_i(0, scalar), scalar).is_none() {
            let why = if scalar.is_float() {
                "their bytes are no value forex tracks"
            } else {
                "the math integer model has no bytes"
            };
            self.err(
                format!("`memcmp` of `{t}` elements is not supported: {why}"),
                &args[0].span,
                "these elements",
            );
            return None;
        }
        let trip = self.element_count("memcmp", &args[2], &a.to, out)?;
        let trip = self.bounded(trip, &[&a, &b]);
        let count = self.trip_value(&trip)?;
        self.range_check(&a, &count, sp, out)?;
        self.range_check(&b, &count, sp, out)?;
        let r = self.fresh("memcmp", VarTy::Scalar(CScalar::Int), sp);
        out.push(Stmt::Assign { var: r, value: self.m().lit_i(0, CScalar::Int), loc });
        self.each(&trip, true, sp, out, &mut |lw, i, done, body| {
            let x = lw.load(&a, i, false, sp, body)?.pop()?;
            let y = lw.load(&b, i, false, sp, body)?.pop()?;
            let (bx, by) = (lw.bytes(&x, scalar)?, lw.bytes(&y, scalar)?);
            let mut diff = lw.m().lit_i(0, CScalar::Int);
            for (p, q) in bx.iter().zip(&by).rev() {
                let d = lw.byte_diff(p, q, sp)?;
                diff = ite(Expr::binary(crate::ir::BinOp::Ne, p.e.clone(), q.e.clone()), d, diff);
            }
            let differ = Expr::binary(crate::ir::BinOp::Ne, x, y);
            let then = vec![
                Stmt::Assign { var: r, value: diff, loc },
                Stmt::Assign { var: done, value: Expr::bool(true), loc },
            ];
            push_if(differ, then, loc, body);
            Some(())
        })?;
        Some(CV::S(self.val_of(r)))
    }
}
