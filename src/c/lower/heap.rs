//! The standard library's memory and checking functions that forex models (LANGUAGE.md
//! "The standard library", "Undefined behaviour"): `malloc`/`calloc` make a fresh object
//! (one per call site and inlined copy), `free` ends it, `assert` (and glibc's
//! `__assert_fail`, what its macro expands to) is an undefined-behaviour site.

use super::ctype::{self, CTy, OFF};
use super::memory::{and_fold, not_fold, or_all, Len, Object};
use super::place::{is_null_constant, Ptr, CV};
use super::ub::UbKind;
use super::{Lowerer, Span, VarTy};
use crate::c::ast::{self, BinaryOp};
use crate::c::types::Val;
use crate::ir::c::CScalar;
use crate::ir::{Expr, Stmt, Type};

impl Lowerer<'_, '_> {
    /// A call of a modelled library function the file does not define: its value
    /// (`Some(None)`: an error was reported), `None` when `name` is not one.
    pub(super) fn builtin(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Option<CV>> {
        if let Some(r) = self.string_call(name, args, sp, out) {
            return Some(r);
        }
        let zero = CV::S(Val { e: self.m().lit_i(0, CScalar::Int), ty: CScalar::Int });
        match name {
            "malloc" | "calloc" => {
                self.err(
                    format!(
                        "`{name}`'s result must go to a pointer of a known type (`int *p = \
                         {name}(…)`): forex makes an object of the pointer's target type"
                    ),
                    sp,
                    "untyped allocation",
                );
                Some(None)
            }
            "free" => {
                let [a] = args else {
                    self.err("`free` takes one pointer", sp, "here");
                    return Some(None);
                };
                Some(self.free(a, sp, out).map(|_| zero))
            }
            "assert" => {
                let [a] = args else {
                    self.err("`assert` takes one condition", sp, "here");
                    return Some(None);
                };
                let Some(c) = self.cond(a, out) else { return Some(None) };
                self.ub_check(UbKind::Assert, not_fold(c), sp, out);
                Some(Some(zero))
            }
            // glibc's `assert` macro calls it when the condition fails (its arguments are
            // the message's strings: not evaluated).
            "__assert_fail" | "__assert_rtn" | "__assert" => {
                self.ub_check(UbKind::Assert, Expr::bool(true), sp, out);
                Some(Some(zero))
            }
            _ => None,
        }
    }

    /// `malloc(n)` / `calloc(n, size)` converted to a pointer to `target`: a fresh object
    /// of `n / sizeof(target)` (`n * size / …`) elements, never `NULL`. `malloc`'s
    /// contents are arbitrary (an input, like an uninitialised local), `calloc`'s zero.
    pub(super) fn allocate(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        target: &CTy,
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<Ptr> {
        let loc = self.loc(sp);
        if matches!(target, CTy::Void) {
            self.err(
                format!("`{name}` into a `void *`: forex needs the type of the objects"),
                sp,
                "untyped allocation",
            );
            return None;
        }
        let in_loop = self.frames.iter().any(|f| f.loops.iter().any(|l| !l.switch));
        if in_loop {
            self.err(
                format!("`{name}` inside a loop is not supported yet (one object per call site)"),
                sp,
                "allocation in a loop",
            );
            return None;
        }
        let bytes = match (name, args) {
            ("malloc", [n]) => {
                let v = self.expr(n, out)?;
                self.m().to_of(v, CScalar::ULong)
            }
            ("calloc", [n, s]) => {
                let a = self.expr(n, out)?;
                let b = self.expr(s, out)?;
                self.arith(BinaryOp::Mul, a, b, sp, Some(out))?
            }
            _ => {
                let want = if name == "malloc" { "one size" } else { "a count and a size" };
                self.err(format!("`{name}` takes {want}"), sp, "wrong arguments");
                return None;
            }
        };
        let Some(size) = ctype::size_of(self.cx, target) else {
            self.err("an allocation of objects of a type without a size", sp, "incomplete type");
            return None;
        };
        let paths = self.leaves_of(target, sp)?;
        let size = Val { e: self.m().lit(&size.into(), CScalar::ULong), ty: CScalar::ULong };
        let count = self.arith(BinaryOp::Div, bytes, size, sp, None)?;
        self.heap_sites += 1;
        let base = format!("$heap{}", self.heap_sites);
        let leaves: Vec<(String, VarTy)> = paths
            .iter()
            .map(|l| (format!("{base}{}", l.path), VarTy::Array(l.scalar, l.dims + 1)))
            .collect();
        let (len_name, live_name) = (format!("{base}$len"), format!("{base}$live"));
        let k = self.object_tag(Object {
            leaves: leaves.clone(),
            elem: target.clone(),
            array: true,
            len: Some(Len::Var(len_name.clone())),
            live: Some(live_name.clone()),
            name: format!("{name} at {}:{}", loc.line, loc.col),
        });
        let len = self.var(&len_name, VarTy::Scalar(OFF), sp);
        let value = self.m().convert(&count, OFF);
        out.push(Stmt::Assign { var: len, value, loc });
        let live = self.var(&live_name, VarTy::Scalar(CScalar::Bool), sp);
        out.push(Stmt::Assign { var: live, value: Expr::bool(true), loc });
        if name == "calloc" {
            let zero = self.zero_leaves(&CTy::Array(Box::new(target.clone()), None));
            for ((n, t), z) in leaves.iter().zip(zero) {
                let v = self.var(n, t.clone(), sp);
                out.push(Stmt::Assign { var: v, value: z, loc });
            }
        }
        let m = self.m();
        Some(Ptr { obj: m.tag(k), off: m.off(0), to: target.clone(), cands: Some(vec![k]) })
    }

    /// `free(p)`: `NULL` does nothing; a live `malloc`'d object's first element ends it;
    /// anything else is undefined behaviour.
    fn free(&mut self, a: &ast::Expr, sp: &Span, out: &mut Vec<Stmt>) -> Option<()> {
        let loc = self.loc(sp);
        let v = self.value(a, out)?;
        let p = match v {
            CV::S(v) if is_null_constant(&v) => return Some(()),
            v => self.as_pointer(v, &a.span, "`free`")?,
        };
        let m = self.m();
        let mut ok = vec![m.is_tag(&p.obj, 0)];
        let mut ends = Vec::new();
        for k in self.candidates(&p) {
            let o = self.objects[k as usize - 1].clone();
            let Some(live) = &o.live else { continue };
            let live = self.var(live, VarTy::Scalar(CScalar::Bool), sp);
            let here = m.is_tag(&p.obj, k);
            let at_start = Expr::eq(p.off.clone(), m.off(0));
            ok.push(and_fold(and_fold(here.clone(), at_start), Expr::var(live, Type::Bool)));
            ends.push(Stmt::If {
                cond: here,
                then_branch: vec![Stmt::Assign { var: live, value: Expr::bool(false), loc }],
                else_branch: vec![],
                loc,
            });
        }
        self.ub_check(UbKind::BadFree, not_fold(or_all(ok)), sp, out);
        out.extend(ends);
        Some(())
    }

    /// Every `malloc`'d object starts not allocated.
    pub(super) fn heap_prologue(&mut self, sp: &Span, out: &mut Vec<Stmt>) {
        let loc = self.loc(sp);
        for o in self.objects.clone() {
            if let Some(live) = &o.live {
                let v = self.var(live, VarTy::Scalar(CScalar::Bool), sp);
                out.push(Stmt::Assign { var: v, value: Expr::bool(false), loc });
            }
        }
    }
}
