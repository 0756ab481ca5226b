//! Names in a C tuple's formulas (`pre`, `post`, hints): `copy.x` and aliases, arrays,
//! library calls, `l_x`/`r_x` in hints, each resolved to the tuple's variables with its
//! C type for [`super::lower`]'s formula lowering.

use super::ast::{self, BinaryOp, ExprKind as K, TupleSpec};
use super::lower::{FormulaEnv, Lowered, Lowerer, VarTy};
use super::types::Val;
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::ir::{self, Expr, ExprKind, Quantifier, Type, VarId};

/// What an expression of a formula names.
enum Named {
    /// A copy's variable (`copy.x`, or `l_x`/`r_x` in a hint), with its C type.
    Var(VarId, VarTy),
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

    /// Copy `k`'s variable for C name `x`: its tuple variable and C type.
    fn copy_var(&self, lw: &mut Lowerer, k: usize, x: &ast::Ident) -> Option<(VarId, VarTy)> {
        let info = &self.infos[k];
        let copy = &self.tu.copies[k];
        match info.names.get(&x.name).map(|v| v.as_slice()) {
            Some([v]) => Some((copy.vars[v.index()], info.types[v.index()].clone())),
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

    /// The copy variable `e` names, if it names one: `copy.x`, or in a hint `l_x` (the ∀
    /// copy's `x`) and `r_x` (the ∃ copy's) unless a quantifier binds that name.
    fn named(&self, lw: &mut Lowerer, e: &ast::Expr, env: &FormulaEnv) -> Named {
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
                    Some((v, ty)) => Named::Var(v, ty),
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
                    Some((v, ty)) => Named::Var(v, ty),
                    None => Named::Failed,
                }
            }
            _ => Named::NotAName,
        }
    }

    /// `a == b`, `a != b` or `a =a= b` where an operand names an array: whole-array
    /// (in)equality. `None`: neither names an array (a comparison of scalars).
    fn array_comparison(
        &self,
        lw: &mut Lowerer,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        at: &ast::Expr,
        env: &FormulaEnv,
    ) -> Option<Option<Val>> {
        let (na, nb) = (self.named(lw, a, env), self.named(lw, b, env));
        if matches!(na, Named::Failed) || matches!(nb, Named::Failed) {
            return Some(None);
        }
        let array = |n: &Named| match n {
            Named::Var(v, VarTy::Array(elem, d)) => Some((*v, *elem, *d)),
            _ => None,
        };
        match (array(&na), array(&nb)) {
            (Some((x, ex, dx)), Some((y, ey, dy))) if ex == ey && dx == dy => {
                let tx = self.tu.var(x).ty.clone();
                let eq = Expr::eq(Expr::var(x, tx.clone()), Expr::var(y, tx));
                let e = if op == BinaryOp::Ne { Expr::negate(eq) } else { eq };
                Some(Some(Val { e, ty: CScalar::Bool }))
            }
            (Some((_, ex, dx)), Some((_, ey, dy))) => {
                lw.diags.push(
                    Diagnostic::new(
                        format!(
                            "`{}` is a {dx}-dimensional array of {} and `{}` a \
                             {dy}-dimensional array of {}: only arrays of one element type \
                             and shape compare",
                            shown(a),
                            ex.c_name(),
                            shown(b),
                            ey.c_name()
                        ),
                        at.span.clone(),
                    )
                    .with_label("different arrays"),
                );
                Some(None)
            }
            (Some(_), None) | (None, Some(_)) => {
                let (arr, other) = if array(&na).is_some() { (a, b) } else { (b, a) };
                lw.diags.push(
                    Diagnostic::new(
                        format!(
                            "`{}` is an array and `{}` is not: `{}` compares two arrays here",
                            shown(arr),
                            shown(other),
                            op.symbol()
                        ),
                        at.span.clone(),
                    )
                    .with_label("not two arrays")
                    .with_hint("read an element with `a[i]`"),
                );
                Some(None)
            }
            (None, None) if op == BinaryOp::ArrayEq => {
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
            (None, None) => None,
        }
    }

    pub(super) fn resolve(
        &mut self,
        lw: &mut Lowerer,
        e: &ast::Expr,
        env: &mut FormulaEnv,
    ) -> Option<Option<Val>> {
        let m = lw.model();
        match &e.kind {
            K::CopyVar(..) | K::Var(_) => match self.named(lw, e, env) {
                Named::Var(v, VarTy::Scalar(s)) => {
                    Some(Some(Val { e: Expr::var(v, self.tu.var(v).ty.clone()), ty: s }))
                }
                Named::Var(_, VarTy::Array(..)) => {
                    lw.diags.push(
                        Diagnostic::new(format!("`{}` is an array", shown(e)), e.span.clone())
                            .with_label("an array")
                            .with_hint(
                                "compare whole arrays with `==` or `=a=`, or read an element `a[i]`",
                            ),
                    );
                    Some(None)
                }
                Named::Failed => Some(None),
                Named::NotAName => None,
            },
            K::Binary(
                op @ (BinaryOp::ArrayEq | BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Ident),
                a,
                b,
            ) => self.array_comparison(lw, *op, a, b, e, env),
            K::Index(..) => {
                let mut idx = Vec::new();
                let mut cur = e;
                while let K::Index(b, i) = &cur.kind {
                    idx.push(i.as_ref());
                    cur = b;
                }
                idx.reverse();
                let arr = match self.named(lw, cur, env) {
                    Named::Var(v, VarTy::Array(elem, d)) => (v, elem, d),
                    Named::Failed => return Some(None),
                    _ => {
                        lw.diags.push(
                            Diagnostic::new(
                                "only a copy's array can be indexed (`copy.a[i]`, `l_a[i]` in \
                                 a hint)",
                                cur.span.clone(),
                            )
                            .with_label("not an array"),
                        );
                        return Some(None);
                    }
                };
                if idx.len() != arr.2 as usize {
                    lw.diags.push(
                        Diagnostic::new("wrong number of indices for this array", e.span.clone())
                            .with_label("here"),
                    );
                    return Some(None);
                }
                let mut ex = Expr::var(arr.0, self.tu.var(arr.0).ty.clone());
                for i in idx {
                    let Some(iv) = lw.formula(i, env, &mut |lw, e, env| self.resolve(lw, e, env))
                    else {
                        return Some(None);
                    };
                    let Type::Array(t) = ex.ty.clone() else { return Some(None) };
                    ex = Expr {
                        kind: ExprKind::Select(Box::new(ex), Box::new(m.as_int(&iv))),
                        ty: *t,
                    };
                }
                Some(Some(Val { e: ex, ty: arr.1 }))
            }
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
