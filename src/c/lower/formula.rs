//! Annotation formulas: pure, no effects or guards, with quantifiers and names that
//! resolve to tuple copies or to a library spec's arguments and result.

use super::Lowerer;
use crate::c::ast::{self, ExprKind as K};
use crate::c::types::{common, ite, Val};
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use crate::ir::{BoundId, Expr, ExprKind, Quantifier, Type};
use std::collections::HashMap;

/// What a name means in a formula.
#[derive(Clone)]
pub enum Binding {
    Val(Val),
    /// A bound variable of a quantifier.
    Bound(BoundId, CScalar),
}

/// Names in a formula.
pub struct FormulaEnv {
    pub vars: HashMap<String, Binding>,
    pub ret: Option<Val>,
    pub next_bound: u32,
}

impl Lowerer<'_, '_> {
    /// A spec's `pre`/`post` over the call's arguments (`env`) and result (`ret!`).
    pub(super) fn spec_formula(
        &mut self,
        e: &ast::Expr,
        env: &HashMap<String, Val>,
        ret: Option<&Val>,
    ) -> Option<Expr> {
        let mut fenv = FormulaEnv {
            vars: env.iter().map(|(k, v)| (k.clone(), Binding::Val(v.clone()))).collect(),
            ret: ret.cloned(),
            next_bound: 1_000_000,
        };
        let v = self.formula(e, &mut fenv, &mut |lw, e, env| lw.spec_call(e, env))?;
        Some(self.m().truth(&v))
    }

    /// In a spec, a call of a library function without a spec of its own reads its
    /// uninterpreted table in the copy being lowered (the tuple makes the tables of all
    /// copies equal): `lst_read(ret!, i)` in `sort`'s spec.
    fn spec_call(&mut self, e: &ast::Expr, env: &mut FormulaEnv) -> Option<Option<Val>> {
        let K::Call(f, args) = &e.kind else { return None };
        let specified = |n: &str| self.cx.aspecs.contains_key(n) || self.cx.especs.contains_key(n);
        let lib = self.cx.libraries.get(f.name.as_str()).copied()?;
        if specified(&f.name) {
            return None;
        }
        if args.len() != lib.params.len() {
            self.err(
                format!("`{}` takes {} argument(s)", f.name, lib.params.len()),
                &e.span,
                "here",
            );
            return Some(None);
        }
        let ret = match self.cx.var_ty(&lib.ret) {
            Ok(super::VarTy::Scalar(s)) => s,
            _ => CScalar::Int,
        };
        let mut idxs = Vec::new();
        for (a, p) in args.iter().zip(&lib.params) {
            let v = self.formula(a, env, &mut |lw, e, env| lw.spec_call(e, env))?;
            let pt = match self.cx.var_ty(&p.ty) {
                Ok(super::VarTy::Scalar(s)) => s,
                _ => CScalar::Int,
            };
            let v = self.m().to(&v, pt);
            idxs.push(self.m().as_int(&v));
        }
        let table = self.table(lib, &f.span);
        if idxs.is_empty() {
            return Some(Some(self.val_of(table)));
        }
        Some(Some(self.select(table, &idxs, ret)))
    }

    /// A pure formula: names through `env` and `resolve` (copy variables), no effects.
    #[allow(clippy::type_complexity)]
    pub fn formula(
        &mut self,
        e: &ast::Expr,
        env: &mut FormulaEnv,
        resolve: &mut dyn FnMut(&mut Self, &ast::Expr, &mut FormulaEnv) -> Option<Option<Val>>,
    ) -> Option<Val> {
        if let Some(r) = resolve(self, e, env) {
            return r;
        }
        let m = self.m();
        match &e.kind {
            K::Int(v, t) => Some(Val { e: m.lit(v, *t), ty: *t }),
            K::Bool(b) => Some(Val { e: Expr::bool(*b), ty: CScalar::Bool }),
            K::RetBang => match &env.ret {
                Some(v) => Some(v.clone()),
                None => {
                    self.err(
                        "`ret!` names a library call's result: only in a spec's `post`",
                        &e.span,
                        "no result here",
                    );
                    None
                }
            },
            K::Var(name) => match env.vars.get(name) {
                Some(Binding::Val(v)) => Some(v.clone()),
                Some(Binding::Bound(b, t)) => {
                    Some(Val { e: Expr { kind: ExprKind::Bound(*b), ty: m.ir(*t) }, ty: *t })
                }
                None => {
                    self.diags.push(
                        Diagnostic::new(
                            format!("unknown name `{name}` in a formula"),
                            e.span.clone(),
                        )
                        .with_label("not a bound variable or spec parameter")
                        .with_hint("name a copy's variable as `copy.x` (e.g. `forall.x`)"),
                    );
                    None
                }
            },
            K::Cast(t, a) => {
                let v = self.formula(a, env, resolve)?;
                Some(m.to(&v, crate::c::consts::scalar_of(t, self.cx.tables())?))
            }
            K::Unary(op, a) => {
                let v = self.formula(a, env, resolve)?;
                self.unary(*op, v, &e.span)
            }
            K::Binary(op, a, b) => {
                let va = self.formula(a, env, resolve)?;
                let vb = self.formula(b, env, resolve)?;
                self.arith(*op, va, vb, &e.span, None)
            }
            K::Cond(c, a, b) => {
                let vc = self.formula(c, env, resolve)?;
                let va = self.formula(a, env, resolve)?;
                let vb = self.formula(b, env, resolve)?;
                let t = if va.ty == CScalar::Bool && vb.ty == CScalar::Bool {
                    CScalar::Bool
                } else {
                    common(va.ty, vb.ty)
                };
                Some(Val { e: ite(m.truth(&vc), m.convert(&va, t), m.convert(&vb, t)), ty: t })
            }
            K::Quant { exists, vars, body } => {
                let saved: Vec<(String, Option<Binding>)> = vars
                    .iter()
                    .map(|(n, _)| (n.name.clone(), env.vars.get(&n.name).cloned()))
                    .collect();
                let mut ids = Vec::new();
                for (n, t) in vars {
                    let id = BoundId(env.next_bound);
                    env.next_bound += 1;
                    env.vars.insert(n.name.clone(), Binding::Bound(id, *t));
                    ids.push((id, n.name.clone(), *t));
                }
                let b = self.formula(body, env, resolve);
                for (n, old) in saved {
                    match old {
                        Some(o) => env.vars.insert(n, o),
                        None => env.vars.remove(&n),
                    };
                }
                let mut body = m.truth(&b?);
                for (id, name, t) in ids.into_iter().rev() {
                    body = Expr {
                        kind: ExprKind::Quant {
                            quantifier: if *exists {
                                Quantifier::Exists
                            } else {
                                Quantifier::Forall
                            },
                            var: id,
                            name,
                            var_ty: m.ir(t),
                            body: Box::new(body),
                        },
                        ty: Type::Bool,
                    };
                }
                Some(Val { e: body, ty: CScalar::Bool })
            }
            K::Str(_) => {
                self.err("string literals are not supported", &e.span, "outside the C subset");
                None
            }
            K::Comma(..) | K::Assign(..) | K::IncDec { .. } => {
                self.err("a formula cannot change state", &e.span, "side effect");
                None
            }
            K::Float(..)
            | K::CallPtr(..)
            | K::Member { .. }
            | K::SizeofType(_)
            | K::SizeofExpr(_)
            | K::AlignofType(_)
            | K::StmtExpr(_)
            | K::Other(_) => {
                self.err("formulas do not read this yet", &e.span, "not supported in formulas");
                None
            }
            K::CopyVar(..) | K::Index(..) | K::Call(..) => {
                self.err(
                    "this expression needs a tuple copy to be read from",
                    &e.span,
                    "no copy here",
                );
                None
            }
        }
    }
}
