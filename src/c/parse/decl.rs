//! Declarations: typedefs (into the scope), objects (globals or a block's locals, with
//! their initialisers), function declarations and definitions (the Elaenia tool's
//! harness, `_`-named functions with a body, skipped).

use super::{Converter, Ordinary};
use crate::c::ast::*;
use lang_c::ast as lc;
use lang_c::span::Node;

impl Converter<'_> {
    pub(super) fn external(&mut self, item: &Node<lc::ExternalDeclaration>) {
        match &item.node {
            lc::ExternalDeclaration::Declaration(d) => {
                let decls = self.declaration(d);
                self.file.globals.extend(decls);
            }
            lc::ExternalDeclaration::FunctionDefinition(f) => self.function(f),
            lc::ExternalDeclaration::StaticAssert(_) => {}
        }
    }

    /// A declaration: typedef names and function declarations are recorded, objects
    /// returned (file-scope or block-scope, as the caller places them).
    pub(super) fn declaration(&mut self, d: &Node<lc::Declaration>) -> Vec<VarDecl> {
        let base = self.base_decl(&d.node.specifiers);
        let header = self.in_header(d.span);
        let mut out = Vec::new();
        for init in &d.node.declarators {
            let dd = self.declarator(base.ty.clone(), &init.node.declarator);
            let Some(name) = dd.name else { continue };
            if base.typedef {
                self.declare(&name.name, Ordinary::Typedef(dd.ty));
                continue;
            }
            if let Type::Function(ft) = &dd.ty {
                let (params, variadic) = dd.params.unwrap_or_default();
                let span = self.sp(init.span);
                if !header {
                    self.items.push((name.name.clone(), self.sp(d.span)));
                }
                self.file.functions.push(Function {
                    name,
                    ret: ft.ret.clone(),
                    params,
                    variadic: variadic || ft.variadic,
                    body: None,
                    span,
                    storage: base.storage,
                    in_header: header,
                });
                continue;
            }
            self.declare(&name.name, Ordinary::Object);
            let init_value = init.node.initializer.as_ref().map(|i| self.initializer(i));
            out.push(VarDecl {
                name,
                ty: dd.ty,
                ty_span: base.span.clone(),
                init: init_value,
                storage: base.storage,
                span: self.sp(init.span),
            });
        }
        out
    }

    pub(super) fn initializer(&mut self, i: &Node<lc::Initializer>) -> Init {
        match &i.node {
            lc::Initializer::Expression(e) => Init::Expr(self.expr(e)),
            lc::Initializer::List(items) => {
                let items = items
                    .iter()
                    .map(|it| InitItem {
                        designators: it
                            .node
                            .designation
                            .iter()
                            .map(|d| match &d.node {
                                lc::Designator::Index(e) => Designator::Index(self.expr(e)),
                                lc::Designator::Member(m) => Designator::Member(self.ident(m)),
                                lc::Designator::Range(r) => Designator::Range(
                                    self.expr(&r.node.from),
                                    self.expr(&r.node.to),
                                ),
                            })
                            .collect(),
                        init: self.initializer(&it.node.initializer),
                    })
                    .collect();
                Init::List(items, self.sp(i.span))
            }
        }
    }

    fn function(&mut self, f: &Node<lc::FunctionDefinition>) {
        let base = self.base_decl(&f.node.specifiers);
        let dd = self.declarator(base.ty, &f.node.declarator);
        let span = self.sp(f.span);
        let header = self.in_header(f.span);
        let Some(name) = dd.name else { return };
        let Type::Function(ft) = dd.ty else { return };
        if !header {
            self.items.push((name.name.clone(), span.clone()));
        }
        // The test harness of the Elaenia tool: skipped, whatever it contains.
        if name.name.starts_with('_') {
            return;
        }
        let (mut params, variadic) = dd.params.unwrap_or_default();
        self.declare(&name.name, Ordinary::Object);
        self.push_scope();
        // K&R definitions: the parameters' types from the declarations before the body.
        for d in &f.node.declarations {
            for v in self.declaration(d) {
                if let Some(p) = params.iter_mut().find(|p| p.name.name == v.name.name) {
                    p.ty = v.ty;
                }
            }
        }
        for p in &params {
            self.declare(&p.name.name, Ordinary::Object);
        }
        self.current_fn = Some(name.name.clone());
        let body = match &f.node.statement.node {
            lc::Statement::Compound(items) => self.block_items(items),
            _ => vec![self.stmt(&f.node.statement)],
        };
        self.current_fn = None;
        self.pop_scope();
        self.file.functions.push(Function {
            name,
            ret: ft.ret,
            params,
            variadic,
            body: Some(body),
            span,
            storage: base.storage,
            in_header: header,
        });
    }
}
