//! Names in a C tuple's formulas (`pre`, `post`, hints): `copy.x` and aliases, arrays,
//! library calls, `l_x`/`r_x` in hints, each resolved to the tuple's variables with its
//! C type for [`super::lower`]'s formula lowering.

use super::ast::{self, BinaryOp, ExprKind as K, TupleSpec};
use super::lower::ctype::{self, CTy};
use super::lower::{place, FormulaEnv, Lowered, Lowerer};
use super::types::Val;
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::ir::{self, Expr, ExprKind, Quantifier, Type};

/// A copy's C value that a formula names: its type and its leaves over the tuple's
/// variables (`ctype`'s layout), and the copy.
#[derive(Clone)]
struct FVal {
    ty: CTy,
    leaves: Vec<Expr>,
    copy: usize,
    /// A pointer parameter's own object (its tag): copies compare such pointers by it.
    obj: Option<u32>,
}

/// What an expression of a formula names.
enum Named {
    /// A copy's variable, or a member, element or pointee of one.
    Val(FVal),
    /// Not a copy's variable: the formula lowering reads it.
    NotAName,
    /// A name that does not resolve (the diagnostic is out).
    Failed,
}

/// How a formula shows the expression `e` in a message.
fn shown(e: &ast::Expr) -> String {
    match &e.kind {
        K::CopyVar(c, x) => format!("{}.{}", c.name, x.name),
        K::Var(n) => n.clone(),
        K::Member { base, field, arrow } => {
            format!("{}{}{}", shown(base), if *arrow { "->" } else { "." }, field.name)
        }
        K::Unary(ast::UnaryOp::Deref, a) => format!("*{}", shown(a)),
        K::Index(a, _) => format!("{}[…]", shown(a)),
        _ => "this".into(),
    }
}

/// Names in a tuple's formulas: `copy.x`, arrays, library calls, `l_x`/`r_x` in hints.
pub(super) struct Resolver<'r> {
    pub(super) t: &'r TupleSpec,
    pub(super) tu: &'r ir::Tuple,
    pub(super) infos: &'r [Lowered],
    pub(super) hint: bool,
    pub(super) file: &'r ast::File,
}

impl Resolver<'_> {
    fn copy_index(&self, name: &str) -> Option<usize> {
        if let Some(k) = self.tu.copies.iter().position(|c| c.name == name) {
            return Some(k);
        }
        let (_, k) = self.t.aliases.iter().find(|(a, _)| a == name)?;
        // Alias indices count ∀ copies then ∃ copies, as the tuple orders them.
        Some(*k)
    }

    /// Copy `k`'s storage for C name `x`, over the tuple's variables.
    fn copy_var(&self, lw: &mut Lowerer, k: usize, x: &ast::Ident) -> Option<FVal> {
        let info = &self.infos[k];
        let copy = &self.tu.copies[k];
        match info.names.get(&x.name).map(|v| v.as_slice()) {
            Some([slot]) => {
                let s = slot.map_vars(&|v| copy.vars[v.index()]);
                let obj = info.param_objects.iter().find(|(n, _)| *n == x.name).map(|p| p.1);
                Some(FVal { ty: s.ty, leaves: s.leaves, copy: k, obj })
            }
            Some(many) if !many.is_empty() => {
                lw.diags.push(
                    Diagnostic::new(
                        format!(
                            "`{}` names {} different locals of `{}`",
                            x.name,
                            many.len(),
                            copy.program
                        ),
                        x.span.clone(),
                    )
                    .with_label("ambiguous")
                    .with_hint(
                        "formulas may name a local only where one declaration has that name",
                    ),
                );
                None
            }
            _ => {
                lw.diags.push(
                    Diagnostic::new(
                        format!("`{}` has no variable `{}`", copy.program, x.name),
                        x.span.clone(),
                    )
                    .with_label("no such parameter or local"),
                );
                None
            }
        }
    }

    /// The copy value `e` names, if it names one: `copy.x`, or in a hint `l_x` (the ∀
    /// copy's `x`) and `r_x` (the ∃ copy's) unless a quantifier binds that name; and
    /// members (`a.s.f`, `a.p->f`), elements (`a.a[i]`, `a.p[i]`) and pointees (`*a.p`)
    /// of those.
    fn named(&self, lw: &mut Lowerer, e: &ast::Expr, env: &mut FormulaEnv) -> Named {
        match &e.kind {
            K::CopyVar(c, x) => {
                let Some(k) = self.copy_index(&c.name) else {
                    let names: Vec<&str> = self.tu.copies.iter().map(|c| c.name.as_str()).collect();
                    lw.diags.push(
                        Diagnostic::new(format!("unknown copy `{}`", c.name), c.span.clone())
                            .with_label("no such copy")
                            .with_hint(format!("the copies are: {}", names.join(", "))),
                    );
                    return Named::Failed;
                };
                match self.copy_var(lw, k, x) {
                    Some(v) => Named::Val(v),
                    None => Named::Failed,
                }
            }
            K::Var(name) if self.hint && !env.vars.contains_key(name) => {
                let (side, rest) = if let Some(r) = name.strip_prefix("l_") {
                    (Quantifier::Forall, r)
                } else if let Some(r) = name.strip_prefix("r_") {
                    (Quantifier::Exists, r)
                } else {
                    return Named::NotAName;
                };
                let Some(k) = self.tu.copies.iter().position(|c| c.quantifier == side) else {
                    return Named::NotAName;
                };
                let id = ast::Ident { name: rest.to_string(), span: e.span.clone() };
                match self.copy_var(lw, k, &id) {
                    Some(v) => Named::Val(v),
                    None => Named::Failed,
                }
            }
            K::Member { base, field, arrow } => {
                let mut v = match self.named(lw, base, env) {
                    Named::Val(v) => v,
                    other => return other,
                };
                if *arrow {
                    v = match self.deref(lw, v, None, base) {
                        Some(v) => v,
                        None => return Named::Failed,
                    };
                }
                let CTy::Struct(id) = v.ty else {
                    lw.diags.push(
                        Diagnostic::new(
                            format!("`{}` is not a struct", shown(base)),
                            base.span.clone(),
                        )
                        .with_label("not a struct"),
                    );
                    return Named::Failed;
                };
                let Some((ty, range)) = ctype::member(lw.cx, id, &field.name) else {
                    lw.diags.push(
                        Diagnostic::new(
                            format!("`{}` has no member `{}`", shown(base), field.name),
                            field.span.clone(),
                        )
                        .with_label("no such member"),
                    );
                    return Named::Failed;
                };
                Named::Val(FVal { ty, leaves: v.leaves[range].to_vec(), copy: v.copy, obj: None })
            }
            K::Unary(ast::UnaryOp::Deref, a) => match self.named(lw, a, env) {
                Named::Val(v) => match self.deref(lw, v, None, a) {
                    Some(v) => Named::Val(v),
                    None => Named::Failed,
                },
                other => other,
            },
            K::Index(a, i) => {
                let v = match self.named(lw, a, env) {
                    Named::Val(v) => v,
                    Named::Failed => return Named::Failed,
                    Named::NotAName => {
                        lw.diags.push(
                            Diagnostic::new(
                                "only a copy's array or pointer can be indexed (`copy.a[i]`, \
                                 `l_a[i]` in a hint)",
                                a.span.clone(),
                            )
                            .with_label("not an array"),
                        );
                        return Named::Failed;
                    }
                };
                let Some(iv) = lw.formula(i, env, &mut |lw, e, env| self.resolve(lw, e, env))
                else {
                    return Named::Failed;
                };
                match v.ty.clone() {
                    CTy::Array(elem, _) => {
                        let m = lw.model();
                        let idx = m.as_int(&iv);
                        let leaves = v
                            .leaves
                            .into_iter()
                            .map(|l| place::select_path(l, std::slice::from_ref(&idx)))
                            .collect();
                        Named::Val(FVal { ty: *elem, leaves, copy: v.copy, obj: None })
                    }
                    CTy::Ptr(_) => match self.deref(lw, v, Some(iv), a) {
                        Some(v) => Named::Val(v),
                        None => Named::Failed,
                    },
                    _ => {
                        lw.diags.push(
                            Diagnostic::new(
                                format!("`{}` is not an array or a pointer", shown(a)),
                                a.span.clone(),
                            )
                            .with_label("not an array"),
                        );
                        Named::Failed
                    }
                }
            }
            _ => Named::NotAName,
        }
    }

    /// Two copies' pointer parameters are equal when both are `NULL`, or both point at
    /// the same offset into objects of equal contents (LANGUAGE.md: shorthands relate
    /// pointers by their pointees).
    fn pointees_equal(&self, lw: &mut Lowerer, x: &FVal, y: &FVal) -> Option<Expr> {
        let m = lw.model();
        let storage = |v: &FVal| -> Option<Vec<Expr>> {
            let o = self.infos[v.copy].objects.get(v.obj? as usize - 1)?;
            o.leaves
                .iter()
                .map(|(n, _)| {
                    let id = self.tu.copy_var(v.copy, n)?;
                    Some(Expr::var(id, self.tu.var(id).ty.clone()))
                })
                .collect()
        };
        let (sx, sy) = (storage(x)?, storage(y)?);
        let null = |v: &FVal| m.is_tag(&v.leaves[0], 0);
        let mut parts = vec![
            Expr::binary(ir::BinOp::Iff, null(x), null(y)),
            Expr::eq(x.leaves[1].clone(), y.leaves[1].clone()),
        ];
        parts.extend(sx.into_iter().zip(sy).map(|(p, q)| Expr::eq(p, q)));
        Some(Expr::and_all(parts))
    }

    /// What pointer `p` points to (at `i` elements further): an `ite` over the objects of
    /// its copy that hold its target type.
    fn deref(&self, lw: &mut Lowerer, p: FVal, i: Option<Val>, at: &ast::Expr) -> Option<FVal> {
        let CTy::Ptr(to) = &p.ty else {
            lw.diags.push(
                Diagnostic::new(format!("`{}` is not a pointer", shown(at)), at.span.clone())
                    .with_label("not a pointer"),
            );
            return None;
        };
        let m = lw.model();
        let [tag, off] = p.leaves.as_slice() else { return None };
        let mut off = Val { e: off.clone(), ty: ctype::OFF };
        if let Some(i) = i {
            off = Val {
                e: Expr::binary(ir::BinOp::Add, off.e, m.convert(&i, ctype::OFF)),
                ty: ctype::OFF,
            };
        }
        let idx = m.as_int(&off);
        let info = &self.infos[p.copy];
        let mut acc: Option<Vec<Expr>> = None;
        for (n, o) in info.objects.iter().enumerate().rev() {
            if o.elem != **to {
                continue;
            }
            let mut vals = Vec::new();
            for (name, _) in &o.leaves {
                let Some(v) = self.tu.copy_var(p.copy, name) else { break };
                let e = Expr::var(v, self.tu.var(v).ty.clone());
                vals.push(if o.array {
                    place::select_path(e, std::slice::from_ref(&idx))
                } else {
                    e
                });
            }
            if vals.len() != o.leaves.len() {
                continue;
            }
            acc = Some(match acc {
                None => vals,
                Some(rest) => {
                    let c = m.is_tag(tag, n as u32 + 1);
                    vals.into_iter()
                        .zip(rest)
                        .map(|(a, b)| place::ite_fold(c.clone(), a, b))
                        .collect()
                }
            });
        }
        match acc {
            Some(leaves) => Some(FVal { ty: (**to).clone(), leaves, copy: p.copy, obj: None }),
            None => {
                lw.diags.push(
                    Diagnostic::new(
                        format!("`{}` points to no object its program reads or writes", shown(at)),
                        at.span.clone(),
                    )
                    .with_label("no pointee"),
                );
                None
            }
        }
    }

    /// `a == b`, `a != b` or `a =a= b` where an operand names an array, a struct or a
    /// pointer: whole-value (in)equality, member- and element-wise. `None`: both are
    /// scalars (a comparison of numbers).
    fn whole_comparison(
        &self,
        lw: &mut Lowerer,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        at: &ast::Expr,
        env: &mut FormulaEnv,
    ) -> Option<Option<Val>> {
        let (na, nb) = (self.named(lw, a, env), self.named(lw, b, env));
        if matches!(na, Named::Failed) || matches!(nb, Named::Failed) {
            return Some(None);
        }
        let ty = |n: &Named| match n {
            Named::Val(v) => Some(v.ty.clone()),
            _ => None,
        };
        let (ta, tb) = (ty(&na), ty(&nb));
        let is_array = |t: &Option<CTy>| matches!(t, Some(CTy::Array(..)));
        let whole =
            |t: &Option<CTy>| matches!(t, Some(CTy::Array(..) | CTy::Struct(_) | CTy::Ptr(_)));
        let done = |e: Expr| {
            let e = if op == BinaryOp::Ne { Expr::negate(e) } else { e };
            Some(Some(Val { e, ty: CScalar::Bool }))
        };
        match (na, nb) {
            (Named::Val(x), Named::Val(y)) if whole(&ta) || whole(&tb) => {
                if shape(&x.ty) != shape(&y.ty) {
                    let what = if is_array(&ta) != is_array(&tb) {
                        let (arr, other) = if is_array(&ta) { (a, b) } else { (b, a) };
                        format!(
                            "`{}` is an array and `{}` is not: `{}` compares two arrays here",
                            shown(arr),
                            shown(other),
                            op.symbol()
                        )
                    } else {
                        format!(
                            "`{}` is {} and `{}` is {}: only values of one type compare",
                            shown(a),
                            ctype::spell(lw.cx, &x.ty),
                            shown(b),
                            ctype::spell(lw.cx, &y.ty)
                        )
                    };
                    lw.diags.push(
                        Diagnostic::new(what, at.span.clone())
                            .with_label("different types")
                            .with_hint("read an element with `a[i]`, a member with `s.f`"),
                    );
                    return Some(None);
                }
                if op == BinaryOp::ArrayEq && !is_array(&ta) {
                    lw.diags.push(
                        Diagnostic::new(
                            "`=a=` compares two arrays of one element type and shape",
                            at.span.clone(),
                        )
                        .with_label("not two arrays")
                        .with_hint("compare other values with `==`"),
                    );
                    return Some(None);
                }
                if matches!(x.ty, CTy::Ptr(_)) && x.copy != y.copy {
                    return match self.pointees_equal(lw, &x, &y) {
                        Some(e) => done(e),
                        None => {
                            lw.diags.push(
                                Diagnostic::new(
                                    "pointers of two copies compare by what they point to: \
                                     only pointer parameters do",
                                    at.span.clone(),
                                )
                                .with_label("not pointer parameters")
                                .with_hint("compare what they point to (`*a.p == *b.p`)"),
                            );
                            Some(None)
                        }
                    };
                }
                let parts = x.leaves.into_iter().zip(y.leaves).map(|(p, q)| Expr::eq(p, q));
                done(Expr::and_all(parts.collect::<Vec<_>>()))
            }
            (Named::Val(x), _) | (_, Named::Val(x)) if matches!(x.ty, CTy::Ptr(_)) => {
                let other = if ta.is_some() { b } else { a };
                if !is_null(other) {
                    lw.diags.push(
                        Diagnostic::new(
                            "a pointer compares with a pointer of its copy or with `NULL`",
                            at.span.clone(),
                        )
                        .with_label("not a pointer"),
                    );
                    return Some(None);
                }
                done(lw.model().is_tag(&x.leaves[0], 0))
            }
            (Named::Val(x), _) | (_, Named::Val(x)) if whole(&Some(x.ty.clone())) => {
                let (this, other) = if ta.is_some() { (a, b) } else { (b, a) };
                let what = if is_array(&Some(x.ty.clone())) {
                    format!(
                        "`{}` is an array and `{}` is not: `{}` compares two arrays here",
                        shown(this),
                        shown(other),
                        op.symbol()
                    )
                } else {
                    format!("`{}` is a struct and `{}` is not", shown(this), shown(other))
                };
                lw.diags.push(
                    Diagnostic::new(what, at.span.clone())
                        .with_label("different types")
                        .with_hint("read an element with `a[i]`, a member with `s.f`"),
                );
                Some(None)
            }
            _ if op == BinaryOp::ArrayEq => {
                lw.diags.push(
                    Diagnostic::new(
                        "`=a=` compares two arrays of one element type and shape",
                        at.span.clone(),
                    )
                    .with_label("not two arrays")
                    .with_hint("compare scalars with `==`"),
                );
                Some(None)
            }
            _ => None,
        }
    }

    pub(super) fn resolve(
        &self,
        lw: &mut Lowerer,
        e: &ast::Expr,
        env: &mut FormulaEnv,
    ) -> Option<Option<Val>> {
        let m = lw.model();
        match &e.kind {
            K::CopyVar(..)
            | K::Var(_)
            | K::Member { .. }
            | K::Index(..)
            | K::Unary(ast::UnaryOp::Deref, _) => {
                match self.named(lw, e, env) {
                    Named::Val(FVal { ty: CTy::Scalar(s), leaves, .. }) => {
                        Some(Some(Val { e: leaves.into_iter().next()?, ty: s }))
                    }
                    Named::Val(FVal { ty, .. }) => {
                        let (what, hint) = match ty {
                        CTy::Array(..) => (
                            "an array",
                            "compare whole arrays with `==` or `=a=`, or read an element `a[i]`",
                        ),
                        CTy::Struct(_) => {
                            ("a struct", "compare whole structs with `==`, or read a member `s.f`")
                        }
                        _ => ("a pointer", "compare it with `NULL`, or read what it points to (`*p`, `p[i]`)"),
                    };
                        lw.diags.push(
                            Diagnostic::new(format!("`{}` is {what}", shown(e)), e.span.clone())
                                .with_label(what)
                                .with_hint(hint),
                        );
                        Some(None)
                    }
                    Named::Failed => Some(None),
                    Named::NotAName => None,
                }
            }
            K::Binary(
                op @ (BinaryOp::ArrayEq | BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Ident),
                a,
                b,
            ) => self.whole_comparison(lw, *op, a, b, e, env),
            K::Call(f, args) => {
                let lib =
                    self.file.functions.iter().find(|g| g.name.name == f.name && g.body.is_none());
                let defined =
                    self.file.functions.iter().any(|g| g.name.name == f.name && g.body.is_some());
                let (Some(lib), false) = (lib, defined) else {
                    lw.diags.push(
                        Diagnostic::new(
                            format!("`{}` cannot be called in a formula", f.name),
                            f.span.clone(),
                        )
                        .with_label("not a library function")
                        .with_hint(
                            "formulas may call functions that are only declared (uninterpreted)",
                        ),
                    );
                    return Some(None);
                };
                let Some(k) = self.infos.iter().position(|i| i.tables.contains_key(&f.name)) else {
                    lw.diags.push(
                        Diagnostic::new(
                            format!("no copy calls `{}` as an uninterpreted function", f.name),
                            f.span.clone(),
                        )
                        .with_label("no table to read"),
                    );
                    return Some(None);
                };
                if args.len() != lib.params.len() {
                    lw.diags.push(
                        Diagnostic::new(
                            format!("`{}` takes {} argument(s)", f.name, lib.params.len()),
                            e.span.clone(),
                        )
                        .with_label("here"),
                    );
                    return Some(None);
                }
                let table = self.tu.copies[k].vars[self.infos[k].tables[&f.name].index()];
                let tables =
                    super::consts::Tables { records: &self.file.records, enums: &self.file.enums };
                let ret = super::consts::scalar_of(&lib.ret, tables).unwrap_or(CScalar::Int);
                let mut ex = Expr::var(table, self.tu.var(table).ty.clone());
                for (a, p) in args.iter().zip(&lib.params) {
                    let Some(av) = lw.formula(a, env, &mut |lw, e, env| self.resolve(lw, e, env))
                    else {
                        return Some(None);
                    };
                    let pt = super::consts::scalar_of(&p.ty, tables).unwrap_or(CScalar::Int);
                    let av = m.to(&av, pt);
                    let Type::Array(t) = ex.ty.clone() else { return Some(None) };
                    ex = Expr {
                        kind: ExprKind::Select(Box::new(ex), Box::new(m.as_int(&av))),
                        ty: *t,
                    };
                }
                Some(Some(Val { e: ex, ty: ret }))
            }
            _ => None,
        }
    }
}

/// A type without its arrays' lengths (a parameter's array has none): what `==` needs
/// to be the same on both sides.
fn shape(t: &CTy) -> CTy {
    match t {
        CTy::Array(e, _) => CTy::Array(Box::new(shape(e)), None),
        CTy::Ptr(e) => CTy::Ptr(Box::new(shape(e))),
        t => t.clone(),
    }
}

/// `0`, `NULL` (`(void *)0`) in a formula.
fn is_null(e: &ast::Expr) -> bool {
    match &e.kind {
        K::Int(v, _) => num_traits::Zero::is_zero(v),
        K::Cast(_, a) => is_null(a),
        _ => false,
    }
}
