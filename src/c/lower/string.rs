//! `string.h` (LANGUAGE.md "The standard library"): `memcmp`, `memcpy`, `memmove`,
//! `memset`, `strlen`, `strcmp`, `strncmp`, `strcpy`, lowered to element-wise IR code over
//! the objects their pointers reach: unrolled when the trip count is a small constant (the
//! prover reads straight-line code best), else a loop. `mem*` take arrays of any element
//! type whose byte count is whole elements (a constant, or `n * sizeof(T)`); the `str*`
//! take `char` strings. Their accesses have the undefined behaviour of C's (`NULL`,
//! outside the object, freed; `mem*` check the whole range up front, the `str*` each
//! element they read), and `memcpy`/`strcpy` between overlapping ranges is undefined
//! behaviour too. Comparisons return the difference of the first differing bytes as
//! `unsigned char`s (what glibc returns on x86-64; C fixes only the sign).

use super::ctype::{self, CTy, OFF};
use super::memory::and_fold;
use super::place::{Place, Ptr, CV};
use super::ub::UbKind;
use super::{Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp};
use crate::c::types::Val;
use crate::ir::c::CScalar;
use crate::ir::{Expr, ExprKind, LoopId, Stmt, Type, VarId};

mod mem;
mod strlit;
mod text;

/// Trip counts up to this are unrolled.
const UNROLL: u64 = 64;

/// How many elements a call visits at most.
#[derive(Clone)]
enum Trip {
    /// A constant.
    Const(u64),
    /// A `size_t` value only the run knows.
    Count(Val),
    /// `n` (a `size_t` value only the run knows) where the run can visit at most `most`
    /// elements without undefined behaviour: unrolled `most` times, each step under
    /// `i < n`.
    Upto { most: u64, n: Val },
    /// Until the body says it is done (a string whose length forex does not know).
    Open,
}

/// The body of an element-wise walk: given the index (a `size_t`) and the `done` flag it
/// may set, its statements.
type Body<'b, 'l, 'c> =
    dyn FnMut(&mut Lowerer<'l, 'c>, &Val, VarId, &mut Vec<Stmt>) -> Option<()> + 'b;

impl<'l, 'c> Lowerer<'l, 'c> {
    /// A call of a `string.h` function: its value (`Some(None)`: an error was reported),
    /// `None` when `name` is not one.
    pub(super) fn string_call(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Option<CV>> {
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let arity = match base {
            "memcmp" | "memcpy" | "memmove" | "memset" | "strncmp" => 3,
            "strcmp" | "strcpy" => 2,
            "strlen" => 1,
            _ => return None,
        };
        if args.len() != arity {
            self.err(
                format!("`{base}` takes {arity} argument(s), given {}", args.len()),
                sp,
                "wrong number of arguments",
            );
            return Some(None);
        }
        Some(match base {
            "memcpy" | "memmove" => self.mem_copy(base, args, sp, out),
            "memset" => self.mem_set(args, sp, out),
            "memcmp" => self.mem_cmp(args, sp, out),
            "strlen" => self.str_len(args, sp, out),
            "strcmp" | "strncmp" => self.str_cmp(base, args, sp, out),
            _ => self.str_cpy(args, sp, out),
        })
    }

    /// Argument `k` of `name`, a pointer to typed elements.
    fn buffer(&mut self, name: &str, k: usize, a: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Ptr> {
        let v = self.value(a, out)?;
        let CV::P(p) = v else {
            let t = ctype::spell(self.cx, &v.ty());
            self.err(
                format!("`{name}`'s argument {} must be a pointer, not a value of type {t}", k + 1),
                &a.span,
                "not a pointer",
            );
            return None;
        };
        if matches!(p.to, CTy::Void) {
            self.err(
                format!(
                    "`{name}` through a `void *`: forex needs the type of the elements (pass the \
                     array or a typed pointer)"
                ),
                &a.span,
                "untyped pointer",
            );
            return None;
        }
        Some(p)
    }

    /// Argument `k` of a `str*` function: a pointer to `char`s.
    fn string(&mut self, name: &str, k: usize, a: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Ptr> {
        if matches!(a.kind, ast::ExprKind::Str(_)) {
            self.err(
                format!("string literals are not supported yet (`{name}` of a literal)"),
                &a.span,
                "store it in a `char` array",
            );
            return None;
        }
        let p = self.buffer(name, k, a, out)?;
        if !matches!(p.to, CTy::Scalar(CScalar::Char | CScalar::UChar)) {
            let t = ctype::spell(self.cx, &CTy::Ptr(Box::new(p.to.clone())));
            self.err(format!("`{name}` takes `char` strings, not {t}"), &a.span, "not a string");
            return None;
        }
        Some(p)
    }

    /// The number of elements of type `elem` in byte count `n`: whole elements only.
    fn element_count(
        &mut self,
        name: &str,
        n: &ast::Expr,
        elem: &CTy,
        out: &mut Vec<Stmt>,
    ) -> Option<Trip> {
        let Some(size) = ctype::size_of(self.cx, elem) else {
            self.err(format!("`{name}` over elements without a size"), &n.span, "here");
            return None;
        };
        let t = ctype::spell(self.cx, elem);
        // `k * sizeof(T)` (either way round): its value modulo 2^64 stays a multiple of a
        // power-of-two size, so dividing back is exact.
        let scaled = match &n.kind {
            ast::ExprKind::Binary(BinaryOp::Mul, a, b) => {
                self.constant(a) == Some(size) || self.constant(b) == Some(size)
            }
            _ => false,
        };
        let bytes = self.expr(n, out)?;
        let bytes = self.m().to_of(bytes, CScalar::ULong);
        if let Some(c) = self.constant(n).or_else(|| literal(&bytes.e)) {
            if c % size != 0 {
                self.err(
                    format!(
                        "`{name}` of {c} bytes over `{t}` elements ({size} bytes each): forex \
                         models whole elements only"
                    ),
                    &n.span,
                    "not a whole number of elements",
                );
                return None;
            }
            return Some(Trip::Const(c / size));
        }
        if size != 1 && !(scaled && size.is_power_of_two()) {
            self.err(
                format!(
                    "the byte count of `{name}` over `{t}` elements must be a constant or \
                     written `n * sizeof({t})`: forex models whole elements only"
                ),
                &n.span,
                "byte count",
            );
            return None;
        }
        if size == 1 {
            return Some(self.trip_of(bytes));
        }
        let s = Val { e: self.m().lit_i(size as i64, CScalar::ULong), ty: CScalar::ULong };
        let count = self.arith(BinaryOp::Div, bytes, s, &n.span, None)?;
        Some(self.trip_of(count))
    }

    fn trip_of(&self, count: Val) -> Trip {
        match literal(&count.e) {
            Some(c) => Trip::Const(c),
            None => Trip::Count(count),
        }
    }

    /// A `size_t` literal.
    fn size_lit(&self, k: u64) -> Val {
        Val { e: self.m().lit(&k.into(), CScalar::ULong), ty: CScalar::ULong }
    }

    /// The trip count as a `size_t` value.
    fn trip_value(&self, t: &Trip) -> Option<Val> {
        match t {
            Trip::Const(c) => Some(self.size_lit(*c)),
            Trip::Count(v) | Trip::Upto { n: v, .. } => Some(v.clone()),
            Trip::Open => None,
        }
    }

    /// `p + i`, `i` a `size_t`.
    fn elem(&mut self, p: &Ptr, i: &Val, sp: &Span) -> Option<Ptr> {
        let off = self.m().to(i, OFF);
        self.ptr_add(p.clone(), &off, false, sp)
    }

    /// The leaves of element `i` of `p` (`check`: the access's undefined behaviour first).
    fn load(
        &mut self,
        p: &Ptr,
        i: &Val,
        check: bool,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Vec<Expr>> {
        let q = self.elem(p, i, sp)?;
        if check {
            self.check_access(&q, sp, out);
        }
        let n = self.leaves_of(&q.to, sp)?.len();
        Some(self.read_leaves(&Place::of_ptr(q, n), sp))
    }

    fn store(
        &mut self,
        p: &Ptr,
        i: &Val,
        vals: Vec<Expr>,
        check: bool,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<()> {
        let q = self.elem(p, i, sp)?;
        if check {
            self.check_access(&q, sp, out);
        }
        let n = self.leaves_of(&q.to, sp)?.len();
        self.write_leaves(&Place::of_ptr(q, n), vals, sp, out);
        Some(())
    }

    /// The undefined behaviour of accessing elements `0 .. count` of `p`: the first and
    /// the last are in one live object exactly when all are.
    fn range_check(&mut self, p: &Ptr, count: &Val, sp: &Span, out: &mut Vec<Stmt>) -> Option<()> {
        let loc = self.loc(sp);
        let zero = self.size_lit(0);
        let one = self.size_lit(1);
        let mut body = Vec::new();
        let first = self.elem(p, &zero, sp)?;
        self.check_access(&first, sp, &mut body);
        let last = self.arith(BinaryOp::Sub, count.clone(), one, sp, None)?;
        let last = self.elem(p, &last, sp)?;
        self.check_access(&last, sp, &mut body);
        let some = self.arith(BinaryOp::Ne, count.clone(), zero, sp, None)?.e;
        push_if(some, body, loc, out);
        Some(())
    }

    /// Copying `count` elements between `d` and `s` that overlap is undefined behaviour.
    fn overlap_check(
        &mut self,
        d: &Ptr,
        s: &Ptr,
        count: &Val,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<()> {
        let same = Expr::eq(d.obj.clone(), s.obj.clone());
        let n = Val { e: self.m().convert(count, OFF), ty: OFF };
        let off = |p: &Ptr| Val { e: p.off.clone(), ty: OFF };
        let d_end = self.arith(BinaryOp::Add, off(d), n.clone(), sp, None)?;
        let s_end = self.arith(BinaryOp::Add, off(s), n.clone(), sp, None)?;
        let a = self.arith(BinaryOp::Lt, off(d), s_end, sp, None)?.e;
        let b = self.arith(BinaryOp::Lt, off(s), d_end, sp, None)?.e;
        let zero = Val { e: self.m().off(0), ty: OFF };
        let some = self.arith(BinaryOp::Gt, n, zero, sp, None)?.e;
        let bad = and_fold(and_fold(and_fold(same, a), b), some);
        self.ub_check(UbKind::Overlap, bad, sp, out);
        Some(())
    }

    /// Runs `body` for indices `0, 1, …` up to `trip` while `done` is false (`early`: the
    /// body may set it).
    fn each(
        &mut self,
        trip: &Trip,
        early: bool,
        sp: &Span,
        out: &mut Vec<Stmt>,
        body: &mut Body<'_, 'l, 'c>,
    ) -> Option<()> {
        let loc = self.loc(sp);
        let done = self.fresh("done", VarTy::Scalar(CScalar::Bool), sp);
        out.push(Stmt::Assign { var: done, value: Expr::bool(false), loc });
        let running = Expr::negate(Expr::var(done, Type::Bool));
        let unrolled = match trip {
            Trip::Const(n) if *n <= UNROLL => Some((*n, None)),
            Trip::Upto { most, n } if *most <= UNROLL => Some((*most, Some(n))),
            _ => None,
        };
        if let Some((most, guard)) = unrolled {
            {
                for k in 0..most {
                    let i = self.size_lit(k);
                    let mut b = Vec::new();
                    body(self, &i, done, &mut b)?;
                    if let Some(n) = guard {
                        let within = self.arith(BinaryOp::Lt, i, n.clone(), sp, None)?.e;
                        let mut g = Vec::new();
                        push_if(within, b, loc, &mut g);
                        b = g;
                    }
                    if early {
                        push_if(running.clone(), b, loc, out);
                    } else {
                        out.extend(b);
                    }
                }
                return Some(());
            }
        }
        let iv = self.fresh("i", VarTy::Scalar(CScalar::ULong), sp);
        let i = self.val_of(iv);
        out.push(Stmt::Assign { var: iv, value: self.size_lit(0).e, loc });
        let mut cond = running;
        if let Some(n) = self.trip_value(trip) {
            let below = self.arith(BinaryOp::Lt, i.clone(), n, sp, None)?.e;
            cond = and_fold(cond, below);
        }
        let mut b = Vec::new();
        body(self, &i, done, &mut b)?;
        let next = self.arith(BinaryOp::Add, i.clone(), self.size_lit(1), sp, None)?;
        b.push(Stmt::Assign { var: iv, value: next.e, loc });
        out.push(Stmt::While { id: LoopId(0), cond, body: b, loc });
        Some(())
    }
}

/// `if (cond) { then }` unless `then` is empty; folded when `cond` is a literal.
fn push_if(cond: Expr, then: Vec<Stmt>, loc: crate::ir::Loc, out: &mut Vec<Stmt>) {
    if then.is_empty() {
        return;
    }
    match cond.kind {
        ExprKind::Bool(true) => out.extend(then),
        ExprKind::Bool(false) => {}
        _ => out.push(Stmt::If { cond, then_branch: then, else_branch: vec![], loc }),
    }
}

/// The value of an integer literal.
fn literal(e: &Expr) -> Option<u64> {
    use num_traits::ToPrimitive;
    match &e.kind {
        ExprKind::Int(v) => v.to_u64(),
        ExprKind::Bv(v) => u64::try_from(*v).ok(),
        _ => None,
    }
}

fn scalar_of(t: &CTy) -> CScalar {
    match t {
        CTy::Scalar(s) => *s,
        _ => CScalar::Char,
    }
}
