//! Statements, each to its node with its span; blocks open a scope for the names they
//! declare; `_invariant("…")` calls become hints (parsed later as formulas).

use super::{Converter, RawHint};
use crate::c::ast::*;
use lang_c::ast as lc;
use lang_c::span::Node;

impl Converter<'_> {
    /// The items of a block, in the current scope.
    pub(super) fn block_items(&mut self, items: &[Node<lc::BlockItem>]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for it in items {
            match &it.node {
                lc::BlockItem::Declaration(d) => {
                    let span = self.sp(d.span);
                    let decls = self.declaration(d);
                    if !decls.is_empty() {
                        out.push(Stmt { kind: StmtKind::Decl(decls), span });
                    }
                }
                lc::BlockItem::StaticAssert(_) => {}
                lc::BlockItem::Statement(s) => out.push(self.stmt(s)),
            }
        }
        out
    }

    fn boxed(&mut self, s: &Node<lc::Statement>) -> Box<Stmt> {
        Box::new(self.stmt(s))
    }

    fn opt_expr(&mut self, e: &Option<Box<Node<lc::Expression>>>) -> Option<Expr> {
        e.as_ref().map(|e| self.expr(e))
    }

    pub(super) fn stmt(&mut self, s: &Node<lc::Statement>) -> Stmt {
        use lc::Statement as S;
        let span = self.sp(s.span);
        let kind = match &s.node {
            S::Labeled(l) => {
                let inner = self.boxed(&l.node.statement);
                match &l.node.label.node {
                    lc::Label::Identifier(id) => StmtKind::Label(self.ident(id), inner),
                    lc::Label::Case(e) => StmtKind::Case(self.expr(e), None, inner),
                    lc::Label::CaseRange(r) => {
                        StmtKind::Case(self.expr(&r.node.low), Some(self.expr(&r.node.high)), inner)
                    }
                    lc::Label::Default => StmtKind::Default(inner),
                }
            }
            S::Compound(items) => {
                self.push_scope();
                let b = self.block_items(items);
                self.pop_scope();
                StmtKind::Block(b)
            }
            S::Expression(None) => StmtKind::Empty,
            S::Expression(Some(e)) => {
                if let Some(h) = self.invariant_hint(e) {
                    self.hints.push(h);
                    StmtKind::Empty
                } else {
                    StmtKind::Expr(self.expr(e))
                }
            }
            S::If(i) => {
                let c = self.expr(&i.node.condition);
                let t = self.boxed(&i.node.then_statement);
                let e = i.node.else_statement.as_ref().map(|e| self.boxed(e));
                StmtKind::If(c, t, e)
            }
            S::Switch(w) => {
                let c = self.expr(&w.node.expression);
                StmtKind::Switch(c, self.boxed(&w.node.statement))
            }
            S::While(w) => {
                let c = self.expr(&w.node.expression);
                StmtKind::While(c, self.boxed(&w.node.statement))
            }
            S::DoWhile(w) => {
                let b = self.boxed(&w.node.statement);
                StmtKind::DoWhile(b, self.expr(&w.node.expression))
            }
            S::For(f) => {
                self.push_scope();
                let init_span = self.sp(f.node.initializer.span);
                let init = match &f.node.initializer.node {
                    lc::ForInitializer::Empty | lc::ForInitializer::StaticAssert(_) => None,
                    lc::ForInitializer::Expression(e) => {
                        Some(Box::new(Stmt { kind: StmtKind::Expr(self.expr(e)), span: init_span }))
                    }
                    lc::ForInitializer::Declaration(d) => Some(Box::new(Stmt {
                        kind: StmtKind::Decl(self.declaration(d)),
                        span: init_span,
                    })),
                };
                let cond = self.opt_expr(&f.node.condition);
                let step = self.opt_expr(&f.node.step);
                let body = self.boxed(&f.node.statement);
                self.pop_scope();
                StmtKind::For { init, cond, step, body }
            }
            S::Goto(l) => StmtKind::Goto(self.ident(l)),
            S::Continue => StmtKind::Continue,
            S::Break => StmtKind::Break,
            S::Return(e) => StmtKind::Return(self.opt_expr(e)),
            S::Asm(_) => StmtKind::Other("inline assembly".into()),
        };
        Stmt { kind, span }
    }

    /// `_invariant("l_i == r_i")`: the formula's text and where it is.
    fn invariant_hint(&mut self, e: &Node<lc::Expression>) -> Option<RawHint> {
        let lc::Expression::Call(c) = &e.node else { return None };
        let lc::Expression::Identifier(f) = &c.node.callee.node else { return None };
        if f.node.name != "_invariant" {
            return None;
        }
        let function = self.current_fn.clone()?;
        let span = self.sp(e.span);
        let lit = match c.node.arguments.as_slice() {
            [a] => match &a.node {
                lc::Expression::StringLiteral(s) if s.node.len() == 1 => Some((s, self.sp(a.span))),
                _ => None,
            },
            _ => None,
        };
        let Some((s, lit_span)) = lit else {
            // Not one string: the lowerer says so at the call.
            return None;
        };
        let written = &s.node[0];
        let text = written.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(written);
        let verbatim = self.src.get(lit_span.clone()) == Some(written.as_str());
        Some(RawHint {
            function,
            text: text.to_string(),
            at: verbatim.then_some(lit_span.start + 1),
            span: if verbatim { lit_span } else { span },
        })
    }
}
