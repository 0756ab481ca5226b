//! `strlen`, `strcmp`, `strncmp`, `strcpy` over `char` strings.

use super::super::place::{Ptr, CV};
use super::super::{Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp};
use crate::c::types::Val;
use crate::ir::c::CScalar;
use crate::ir::{Expr, Stmt};

use super::strlit::Text;
use super::{literal, push_if, scalar_of, Trip};

impl Lowerer<'_, '_> {
    /// The most elements a walk along string `p` visits before it either finds a `NUL` or
    /// leaves every object `p` may point to (`Open` when an object's length is unknown).
    pub(super) fn string_trip(&self, p: &Ptr) -> Trip {
        let mut most = 0;
        for k in self.candidates(p) {
            let o = &self.objects[k as usize - 1];
            let n = match (&o.len, o.array) {
                (_, false) => 1,
                (Some(super::super::memory::Len::Const(n)), true) => *n,
                _ => return Trip::Open,
            };
            most = most.max(n);
        }
        Trip::Const(most + 1)
    }

    /// The most elements from `p` in any object it may point to (`None`: unknown).
    pub(super) fn room(&self, p: &Ptr) -> Option<u64> {
        match self.string_trip(p) {
            Trip::Const(k) => Some(k - 1),
            _ => None,
        }
    }

    /// A count only the run knows, bounded by the objects of `ptrs` where forex knows them.
    pub(super) fn bounded(&self, trip: Trip, ptrs: &[&Ptr]) -> Trip {
        let Trip::Count(n) = trip else { return trip };
        match ptrs.iter().filter_map(|p| self.room(p)).min() {
            Some(most) => Trip::Upto { most, n },
            None => Trip::Count(n),
        }
    }

    /// The most elements a walk along a `str*` argument visits: a literal's bytes, its
    /// `NUL` included (a walk over a literal is unrolled: at most `UNROLL` of them).
    fn text_trip(&self, t: &Text) -> Trip {
        match t {
            Text::Ptr(p) => self.string_trip(p),
            Text::Lit(bytes) => Trip::Const(bytes.len() as u64),
        }
    }

    /// Element `i` of a `str*` argument: loaded through the pointer (its undefined
    /// behaviour checked), or the literal's byte (`i` is a constant then: a walk over a
    /// literal is unrolled).
    fn text_load(&mut self, t: &Text, i: &Val, sp: &Span, out: &mut Vec<Stmt>) -> Option<Val> {
        match t {
            Text::Ptr(p) => {
                let e = self.load(p, i, true, sp, out)?.pop()?;
                Some(Val { e, ty: scalar_of(&p.to) })
            }
            Text::Lit(bytes) => {
                let k = literal(&i.e)?;
                let byte = *bytes.get(usize::try_from(k).ok()?)?;
                Some(Val {
                    e: self.m().lit_i(i64::from(byte as i8), CScalar::Char),
                    ty: CScalar::Char,
                })
            }
        }
    }

    /// `strlen(s)` as a `size_t`; its walk's statements go to `out`.
    pub(super) fn length(&mut self, s: &Ptr, sp: &Span, out: &mut Vec<Stmt>) -> Option<Val> {
        let loc = self.loc(sp);
        let r = self.fresh("strlen", VarTy::Scalar(CScalar::ULong), sp);
        let trip = self.string_trip(s);
        self.each(&trip, true, sp, out, &mut |lw, i, done, body| {
            let c = lw.load(s, i, true, sp, body)?.pop()?;
            let zero = lw.m().lit_i(0, scalar_of(&s.to));
            let then = vec![
                Stmt::Assign { var: r, value: i.e.clone(), loc },
                Stmt::Assign { var: done, value: Expr::bool(true), loc },
            ];
            push_if(Expr::eq(c, zero), then, loc, body);
            Some(())
        })?;
        Some(self.val_of(r))
    }

    pub(super) fn str_len(
        &mut self,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        match self.text("strlen", 0, &args[0], out)? {
            // A literal's length is where its first `NUL` is (`"a\0b"` has length 1).
            Text::Lit(bytes) => {
                let n = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
                Some(CV::S(self.size_lit(n as u64)))
            }
            Text::Ptr(s) => self.length(&s, sp, out).map(CV::S),
        }
    }

    /// `strcmp(a, b)` / `strncmp(a, b, n)`.
    pub(super) fn str_cmp(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let loc = self.loc(sp);
        let a = self.text(name, 0, &args[0], out)?;
        let b = self.text(name, 1, &args[1], out)?;
        let limit = match args.get(2) {
            Some(n) => {
                let v = self.expr(n, out)?;
                Some(self.m().to_of(v, CScalar::ULong))
            }
            None => None,
        };
        // Each step reads both strings: the shorter known bound (and `n`) bounds the walk.
        let mut trip = match (self.text_trip(&a), self.text_trip(&b)) {
            (Trip::Const(x), Trip::Const(y)) => Trip::Const(x.min(y)),
            (Trip::Const(x), _) | (_, Trip::Const(x)) => Trip::Const(x),
            _ => Trip::Open,
        };
        if let Some(n) = &limit {
            trip = match (self.trip_of(n.clone()), trip) {
                (Trip::Const(c), Trip::Const(x)) => Trip::Const(c.min(x)),
                (Trip::Const(c), _) => Trip::Const(c),
                (_, Trip::Const(x)) => Trip::Upto { most: x, n: n.clone() },
                _ => Trip::Count(n.clone()),
            };
        }
        let r = self.fresh(name, VarTy::Scalar(CScalar::Int), sp);
        out.push(Stmt::Assign { var: r, value: self.m().lit_i(0, CScalar::Int), loc });
        self.each(&trip, true, sp, out, &mut |lw, i, done, body| {
            let mut step = Vec::new();
            let x = lw.text_load(&a, i, sp, &mut step)?;
            let y = lw.text_load(&b, i, sp, &mut step)?;
            let (bx, by) = (lw.m().to(&x, CScalar::UChar), lw.m().to(&y, CScalar::UChar));
            let diff = lw.byte_diff(&bx, &by, sp)?;
            let differ = Expr::binary(crate::ir::BinOp::Ne, bx.e.clone(), by.e.clone());
            let end = Expr::eq(bx.e.clone(), lw.m().lit_i(0, CScalar::UChar));
            let stop = Stmt::Assign { var: done, value: Expr::bool(true), loc };
            step.push(Stmt::If {
                cond: differ,
                then_branch: vec![Stmt::Assign { var: r, value: diff, loc }, stop.clone()],
                else_branch: vec![],
                loc,
            });
            push_if(end, vec![stop.clone()], loc, &mut step);
            body.extend(step);
            Some(())
        })?;
        Some(CV::S(self.val_of(r)))
    }

    /// `strcpy(d, s)`: the value is `d`.
    pub(super) fn str_cpy(
        &mut self,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let d = self.string("strcpy", 0, &args[0], out)?;
        let s = self.string("strcpy", 1, &args[1], out)?;
        if d.to != s.to {
            self.err("`strcpy` between `char` and `unsigned char` strings", sp, "here");
            return None;
        }
        let len = self.length(&s, sp, out)?;
        let n = self.arith(BinaryOp::Add, len, self.size_lit(1), sp, None)?;
        // The walk that found the length bounds the copy's.
        let trip = match self.string_trip(&s) {
            Trip::Const(most) => Trip::Upto { most, n: n.clone() },
            _ => Trip::Count(n.clone()),
        };
        self.range_check(&d, &n, sp, out)?;
        self.overlap_check(&d, &s, &n, sp, out)?;
        self.copy(&d, &s, &trip, sp, out)?;
        Some(CV::P(d))
    }
}
