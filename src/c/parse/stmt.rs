//! Statements: each C statement rule to its node, local declarations with their
//! initialisers, and `_invariant` hints taken out of the body as formulas.

use super::{span, Builder};
use crate::c::ast::*;
use crate::syntax::Rule;
use pest::iterators::Pair;

impl Builder<'_> {
    pub(super) fn block(&mut self, p: Pair<Rule>) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut ok = true;
        for s in p.into_inner() {
            match self.stmt(s) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn boxed(&mut self, p: Option<Pair<Rule>>) -> Option<Box<Stmt>> {
        self.stmt(p?).map(Box::new)
    }

    fn stmt(&mut self, p: Pair<Rule>) -> Option<Stmt> {
        let sp = span(&p);
        let rule = p.as_rule();
        let mut inner = p.into_inner();
        let kind = match rule {
            Rule::c_block => StmtKind::Block(self.block_pairs(inner)?),
            Rule::c_decl => StmtKind::Decl(self.decl(inner)?),
            Rule::c_if => {
                inner.next();
                let c = self.expr(inner.next()?);
                let t = self.boxed(inner.next());
                let e = inner.nth(1).map(|s| self.stmt(s).map(Box::new));
                let e = match e {
                    Some(None) => return None,
                    Some(Some(e)) => Some(e),
                    None => None,
                };
                StmtKind::If(c?, t?, e)
            }
            Rule::c_while => {
                inner.next();
                let c = self.expr(inner.next()?);
                let b = self.boxed(inner.next());
                StmtKind::While(c?, b?)
            }
            Rule::c_do => {
                inner.next();
                let b = self.boxed(inner.next());
                inner.next();
                let c = self.expr(inner.next()?);
                StmtKind::DoWhile(b?, c?)
            }
            Rule::c_for => {
                inner.next();
                let init_p = inner.next()?;
                let init_sp = span(&init_p);
                let init = match init_p.into_inner().next() {
                    None => None,
                    Some(d) if d.as_rule() == Rule::c_decl => Some(Box::new(Stmt {
                        kind: StmtKind::Decl(self.decl(d.into_inner())?),
                        span: init_sp,
                    })),
                    Some(e) => {
                        Some(Box::new(Stmt { kind: StmtKind::Expr(self.expr(e)?), span: init_sp }))
                    }
                };
                let cond = match inner.next()?.into_inner().next() {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let step = match inner.next()?.into_inner().next() {
                    Some(e) => Some(self.expr(e)?),
                    None => None,
                };
                let body = self.boxed(inner.next())?;
                StmtKind::For { init, cond, step, body }
            }
            Rule::c_break => StmtKind::Break,
            Rule::c_continue => StmtKind::Continue,
            Rule::c_return => {
                inner.next();
                match inner.next() {
                    Some(e) => StmtKind::Return(Some(self.expr(e)?)),
                    None => StmtKind::Return(None),
                }
            }
            Rule::c_goto => {
                self.unsupported("`goto` is", sp);
                return None;
            }
            Rule::c_switch => {
                self.unsupported("`switch` is", sp);
                return None;
            }
            Rule::c_case => {
                self.unsupported("`case` labels outside `switch` are", sp);
                return None;
            }
            Rule::c_label => {
                self.unsupported("labels (for `goto`) are", sp);
                return None;
            }
            Rule::c_typedef => {
                self.unsupported("`typedef` is", sp);
                return None;
            }
            Rule::c_empty => StmtKind::Empty,
            Rule::c_expr_stmt => {
                let e = self.expr(inner.next()?)?;
                if let ExprKind::Call(f, args) = &e.kind {
                    if f.name == "_invariant" {
                        self.invariant_hint(args, &sp);
                        return Some(Stmt { kind: StmtKind::Empty, span: sp });
                    }
                }
                StmtKind::Expr(e)
            }
            _ => {
                self.error("internal: unexpected statement", sp.clone(), "here");
                return None;
            }
        };
        Some(Stmt { kind, span: sp })
    }

    fn block_pairs(&mut self, inner: pest::iterators::Pairs<Rule>) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut ok = true;
        for s in inner {
            match self.stmt(s) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `_invariant("l_i == r_i")`: the string parsed as a formula.
    fn invariant_hint(&mut self, args: &[Expr], sp: &Span) {
        let [Expr { kind: ExprKind::Str(_), span: lit }] = args else {
            self.error("`_invariant` takes one string: a formula", sp.clone(), "here");
            return;
        };
        let keep = lit.start + 1..lit.end - 1;
        let was = std::mem::replace(&mut self.formula, true);
        let e = self.with_part(Rule::c_formula, &keep, |b, p| b.expr(p));
        self.formula = was;
        if let (Some(e), Some(f)) = (e, self.current_fn.clone()) {
            self.hints.push(InvariantHint { function: f, formula: e });
        }
    }

    fn decl(&mut self, mut inner: pest::iterators::Pairs<Rule>) -> Option<Vec<VarDecl>> {
        let ty_pair = inner.next()?;
        let ty_span = span(&ty_pair);
        let base = self.base_type(ty_pair)?;
        let mut out = Vec::new();
        let mut ok = true;
        for d in inner {
            let mut di = d.into_inner();
            let Some((name, ty)) = self.declarator(di.next()?, base, &ty_span) else {
                ok = false;
                continue;
            };
            let init = match di.next() {
                None => None,
                Some(i) => match self.init(i) {
                    Some(i) => Some(i),
                    None => {
                        ok = false;
                        continue;
                    }
                },
            };
            out.push(VarDecl { name, ty, init });
        }
        ok.then_some(out)
    }

    fn init(&mut self, p: Pair<Rule>) -> Option<Init> {
        let q = p.into_inner().next()?;
        if q.as_rule() == Rule::c_init_list {
            let sp = span(&q);
            let mut items = Vec::new();
            for i in q.into_inner() {
                let j = i.into_inner().next()?;
                if j.as_rule() == Rule::c_init_list {
                    self.unsupported("nested initialiser lists are", span(&j));
                    return None;
                }
                items.push(self.expr(j)?);
            }
            Some(Init::List(items, sp))
        } else {
            Some(Init::Expr(self.expr(q)?))
        }
    }
}
