//! What the editor asks about a place in the text: hover on `copy.var`, go-to-definition
//! from a copy (or `copy.var`) to its program (or the variable's declaration), and the
//! outline (programs and tuples). Answers come from the syntax tree, so they work on
//! files that parse even when they do not type-check.

use crate::ir::Quantifier;
use crate::syntax::ast::{self, BodyItem, Expr, ExprKind, Ident, Span, TyKind};
use crate::syntax::{self, Format};

/// A parsed document: its syntax tree, if the text parses.
pub struct Outline {
    pub file: Option<ast::File>,
}

/// A mention of a copy in a tuple: `a.h` in a formula, or `a: prog` in its copy list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyRef {
    pub span: Span,
    pub copy: String,
    pub program: String,
    pub quantifier: Quantifier,
    /// The variable of `copy.var` (absent on the copy declaration itself).
    pub var: Option<String>,
}

impl Outline {
    pub fn parse(text: &str, stem: &str) -> Outline {
        let format = if syntax::looks_like_forex(text) { Format::Forex } else { Format::Fe };
        Outline { file: syntax::parse(text, format, stem).0 }
    }

    pub fn programs(&self) -> &[ast::Program] {
        self.file.as_ref().map_or(&[], |f| &f.programs)
    }
    pub fn tuples(&self) -> &[ast::Tuple] {
        self.file.as_ref().map_or(&[], |f| &f.tuples)
    }

    /// The innermost copy mention whose span holds byte `offset`.
    pub fn copy_ref_at(&self, offset: usize) -> Option<CopyRef> {
        let holds = |s: &Span| s.start <= offset && offset <= s.end;
        for tuple in self.tuples() {
            if !holds(&tuple.span) && !tuple.shorthand {
                continue;
            }
            let program_of = |copy: &str| tuple.copies.iter().find(|c| c.name.name == copy);
            for c in &tuple.copies {
                for ident in [&c.name, &c.program] {
                    if holds(&ident.span) && !ident.span.is_empty() {
                        return Some(CopyRef {
                            span: ident.span.clone(),
                            copy: c.name.name.clone(),
                            program: c.program.name.clone(),
                            quantifier: c.quantifier,
                            var: None,
                        });
                    }
                }
            }
            let mut found = None;
            visit_copy_vars(tuple, &mut |copy, var| {
                let span = copy.span.start.min(var.span.start)..copy.span.end.max(var.span.end);
                if found.is_none() && holds(&span) {
                    if let Some(c) = program_of(&copy.name) {
                        found = Some(CopyRef {
                            span,
                            copy: copy.name.clone(),
                            program: c.program.name.clone(),
                            quantifier: c.quantifier,
                            var: Some(var.name.clone()),
                        });
                    }
                }
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Where `r` is defined: the variable's declaration in its program, else the program.
    pub fn definition(&self, r: &CopyRef) -> Option<Span> {
        let program = self.programs().iter().find(|p| p.name.name == r.program)?;
        if let Some(var) = &r.var {
            if let Some((ident, _)) = declaration(program, var) {
                return Some(ident.span.clone());
            }
        }
        Some(program.name.span.clone())
    }

    /// Markdown for a hover over `r`.
    pub fn hover(&self, r: &CopyRef) -> String {
        let q = match r.quantifier {
            Quantifier::Forall => "∀",
            Quantifier::Exists => "∃",
        };
        let program = self.programs().iter().find(|p| p.name.name == r.program);
        match (&r.var, program) {
            (Some(var), Some(p)) => match declaration(p, var) {
                Some((_, ty)) => format!(
                    "`{}.{var}`: `{}`\n\nvariable `{var}` of program `{}` in {q} copy `{}`",
                    r.copy,
                    type_name(ty),
                    r.program,
                    r.copy
                ),
                None => format!("`{}.{var}`: program `{}` declares no `{var}`", r.copy, r.program),
            },
            (None, Some(p)) => {
                let vars: Vec<String> = declarations(p)
                    .map(|(id, ty)| format!("{} {}", type_name(ty), id.name))
                    .collect();
                format!("{q} copy `{}` of program `{}`\n\n`{}`", r.copy, r.program, vars.join("; "))
            }
            (_, None) => format!("{q} copy `{}` of program `{}` (not defined)", r.copy, r.program),
        }
    }
}

/// The declared variables of a program, with their types, in declaration order.
fn declarations(p: &ast::Program) -> impl Iterator<Item = (&Ident, &TyKind)> {
    p.items.iter().flat_map(|item| match item {
        BodyItem::Decl(d) => d.names.iter().map(|n| (n, &d.ty.kind)).collect::<Vec<_>>(),
        BodyItem::Stmt(_) => Vec::new(),
    })
}

fn declaration<'p>(p: &'p ast::Program, var: &str) -> Option<(&'p Ident, &'p TyKind)> {
    declarations(p).find(|(id, _)| id.name == var)
}

fn type_name(ty: &TyKind) -> String {
    match ty {
        TyKind::Int => "int".into(),
        TyKind::Bool => "bool".into(),
        TyKind::Bv(w) => format!("bv{w}"),
        TyKind::Str => "string".into(),
        TyKind::Float(k) => k.name().into(),
        TyKind::Array(elem) => format!("{}[]", type_name(&elem.kind)),
        TyKind::Unsupported => "unsupported".into(),
    }
}

/// Calls `f` on every `copy.var` in the tuple's formulas and mentions. Walks with an
/// explicit stack: formulas may nest up to `ir::MAX_DEPTH`.
fn visit_copy_vars(tuple: &ast::Tuple, f: &mut impl FnMut(&Ident, &Ident)) {
    for (copy, var) in &tuple.mentions {
        f(copy, var);
    }
    let mut stack: Vec<&Expr> = tuple.pre.iter().chain(&tuple.post).collect();
    stack.extend(&tuple.invariants);
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::CopyVar { copy, var } => f(copy, var),
            ExprKind::Unary(_, a) => stack.push(a),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => stack.extend([&**a, &**b]),
            ExprKind::Ite(a, b, c) => stack.extend([&**a, &**b, &**c]),
            ExprKind::Extract { arg, .. }
            | ExprKind::Convert { arg, .. }
            | ExprKind::OneLike(arg) => stack.push(arg),
            ExprKind::Call { args, .. } => stack.extend(args),
            ExprKind::Quant { body, .. } => stack.push(body),
            ExprKind::Var(_)
            | ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Bv { .. }
            | ExprKind::Float { .. }
            | ExprKind::Str(_)
            | ExprKind::Error => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "program p {\n  int h, l;\n  l = l + 1;\n}\n\ntuple t {\n  forall a: p, b: p;\n  pre a.l == b.l;\n  post a.l == b.l;\n}\n";

    #[test]
    fn hover_and_definition_of_copy_var() {
        let o = Outline::parse(SRC, "x");
        let at = SRC.find("b.l;").unwrap() + 2;
        let r = o.copy_ref_at(at).expect("a copy.var under the cursor");
        assert_eq!((r.copy.as_str(), r.var.as_deref()), ("b", Some("l")));
        assert!(o.hover(&r).contains("`b.l`: `int`"), "{}", o.hover(&r));
        let def = o.definition(&r).unwrap();
        assert_eq!(&SRC[def.clone()], "l");
        assert_eq!(def.start, SRC.find("h, l").unwrap() + 3);
    }

    #[test]
    fn definition_of_copy_declaration_is_the_program() {
        let o = Outline::parse(SRC, "x");
        let at = SRC.find("b: p").unwrap() + 3;
        let r = o.copy_ref_at(at).expect("the program name of a copy");
        assert_eq!(o.definition(&r), Some(8..9));
    }
}
