//! Statements that call functions: a call of a function with statements is inlined
//! (parameters assigned, body copied with `f::x` variables, result assigned), and
//! two-dimensional stores go through their row variable.

use super::*;

impl Checker<'_> {
    /// A statement into `out`: a call of a function with statements (`x = f(a);`,
    /// `a[i] = f(x);`) becomes the function's body, inlined, then the assignment of its
    /// result. Otherwise one statement.
    pub(super) fn stmt_into(
        &mut self,
        s: &ast::Stmt,
        table: &HashMap<String, (VarId, Type, Span)>,
        out: &mut Vec<Stmt>,
    ) {
        use ast::StmtKind as S;
        if let S::WhileStar { body } = &s.kind {
            let loc = self.loc(&s.span);
            out.extend(self.while_star(body, table, loc));
            return;
        }
        let call = match &s.kind {
            S::Assign { value, .. } | S::Store { value, .. } | S::Store2 { value, .. } => {
                match &value.kind {
                    ast::ExprKind::Call { name, args } => self
                        .functions
                        .iter()
                        .position(|f| f.name == name.name && !f.is_pure())
                        .map(|k| (k, args, value)),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((k, args, value)) = call else {
            if let S::Store2 { target, index, inner, value } = &s.kind {
                self.store2(s, target, index, inner, (value, None), table, out);
            } else if let Some(st) = self.stmt(s, table) {
                out.push(st);
            }
            return;
        };
        let sc = Scope::Program { vars: table, at: s.span.start };
        let Some(result) = self.inline(k, args, value, &sc, out) else { return };
        let loc = self.loc(&s.span);
        match &s.kind {
            S::Assign { target, .. } => {
                let Some((var, ty)) =
                    self.program_var(table, s.span.start + 1, &target.name, &target.span, "int")
                else {
                    return;
                };
                if result.ty != ty {
                    self.mismatch::<()>(&target.name, &ty, &result.ty, &value.span);
                    return;
                }
                out.push(Stmt::Assign { var, value: result, loc });
            }
            S::Store2 { target, index, inner, value } => {
                self.store2(s, target, index, inner, (value, Some(result)), table, out);
            }
            S::Store { target, index, .. } => {
                let i = self.expr(index, &sc);
                let Some((array, ty)) =
                    self.program_var(table, s.span.start + 1, &target.name, &target.span, "int[]")
                else {
                    return;
                };
                let Some(i) = i else { return };
                let Type::Array(elem) = &ty else {
                    self.fail::<()>(not_an_array(target, &ty));
                    return;
                };
                if self.expect(&i, &index.span, &Type::Int, "an array index").is_none() {
                    return;
                }
                if &result.ty != elem.as_ref() {
                    self.mismatch::<()>(
                        &format!("{}[…]", target.name),
                        elem,
                        &result.ty,
                        &value.span,
                    );
                    return;
                }
                out.push(Stmt::Store { array, index: i, value: result, loc });
            }
            _ => {}
        }
    }

    /// Inlines function `k` called with `args` (checked in `sc`): pushes the parameter
    /// assignments and the body into `out` and returns the result. The function's
    /// variables become variables `f::x` of the caller, shared by all its calls (calls
    /// never overlap: there is no recursion).
    pub(super) fn inline(
        &mut self,
        k: usize,
        args: &[ast::Expr],
        call: &ast::Expr,
        sc: &Scope,
        out: &mut Vec<Stmt>,
    ) -> Option<ir::Expr> {
        let checked = self.call_args(k, args, call, sc)?;
        let f = &self.functions[k];
        let offset = match self.inlined.get(&f.name) {
            Some(o) => *o,
            None => {
                let o = self.inline_base + self.inline_vars.len() as u32;
                for v in &f.vars {
                    self.inline_vars.push(VarDecl {
                        name: format!("{}::{}", f.name, v.name),
                        ty: v.ty.clone(),
                        loc: v.loc,
                    });
                }
                self.inlined.insert(f.name.clone(), o);
                o
            }
        };
        let loc = self.loc(&call.span);
        for (i, a) in checked.into_iter().enumerate() {
            out.push(Stmt::Assign { var: VarId(offset + i as u32), value: a, loc });
        }
        out.extend(lang::shift(&f.body, offset));
        Some(lang::shift_expr(&f.result, offset))
    }

    /// `m[i][j] = e;`: `m[]` (a hidden row variable) `= m[i]; m[][j] = e; m[i] = m[];`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store2(
        &mut self,
        s: &ast::Stmt,
        target: &ast::Ident,
        index: &ast::Expr,
        inner: &ast::Expr,
        (value, checked): (&ast::Expr, Option<ir::Expr>),
        table: &HashMap<String, (VarId, Type, Span)>,
        out: &mut Vec<Stmt>,
    ) {
        let sc = Scope::Program { vars: table, at: s.span.start };
        let (i, j) = (self.expr(index, &sc), self.expr(inner, &sc));
        let v = match checked {
            Some(v) => Some(v),
            None => self.expr(value, &sc),
        };
        let Some((m, ty)) =
            self.program_var(table, s.span.start + 1, &target.name, &target.span, "int[int,int]")
        else {
            return;
        };
        let (Some(i), Some(j), Some(v)) = (i, j, v) else { return };
        let Type::Array(row_ty) = &ty else {
            self.fail::<()>(not_an_array(target, &ty));
            return;
        };
        let Type::Array(elem) = row_ty.as_ref() else {
            self.fail::<()>(
                Diagnostic::new(
                    format!(
                        "`{}` has one dimension (it is {ty}), but two indices are given",
                        target.name
                    ),
                    s.span.clone(),
                )
                .with_label("two indices")
                .with_hint(format!(
                    "declare it `{}[int,int] {};`",
                    elem_name(row_ty),
                    target.name
                )),
            );
            return;
        };
        if self.expect(&i, &index.span, &Type::Int, "an array index").is_none()
            || self.expect(&j, &inner.span, &Type::Int, "an array index").is_none()
        {
            return;
        }
        if &v.ty != elem.as_ref() {
            self.mismatch::<()>(&format!("{}[…][…]", target.name), elem, &v.ty, &value.span);
            return;
        }
        let key = format!("{}[]", target.name);
        let row = match self.inlined.get(&key) {
            Some(o) => VarId(*o),
            None => {
                let o = self.inline_base + self.inline_vars.len() as u32;
                self.inline_vars.push(VarDecl {
                    name: key.clone(),
                    ty: row_ty.as_ref().clone(),
                    loc: self.loc(&target.span),
                });
                self.inlined.insert(key, o);
                VarId(o)
            }
        };
        let loc = self.loc(&s.span);
        let m_e = ir::Expr::var(m, ty.clone());
        let read = ir::Expr {
            kind: ir::ExprKind::Select(Box::new(m_e), Box::new(i.clone())),
            ty: row_ty.as_ref().clone(),
        };
        out.push(Stmt::Assign { var: row, value: read, loc });
        out.push(Stmt::Store { array: row, index: j, value: v, loc });
        out.push(Stmt::Store {
            array: m,
            index: i,
            value: ir::Expr::var(row, row_ty.as_ref().clone()),
            loc,
        });
    }
}
