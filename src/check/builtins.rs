//! Calls in expressions: user functions (their arguments; the inlining is in `calls`)
//! and the built-in ones (`min`, `max`, `abs`, `len`, conversions, strings, signed
//! bit-vector functions), each checked for its number and types of arguments.

use super::expr::Scope;
use super::{suggest, Checker};
use crate::diag::Diagnostic;
use crate::ir::{self, BinOp, ExprKind, Type, UnOp};
use crate::syntax::ast;

impl Checker<'_> {
    /// Checks the arguments of a call of function `k`: their number and types.
    pub fn call_args(
        &mut self,
        k: usize,
        args: &[ast::Expr],
        call: &ast::Expr,
        sc: &Scope,
    ) -> Option<Vec<ir::Expr>> {
        let (name, params) = (self.functions[k].name.clone(), self.functions[k].params.clone());
        if args.len() != params.len() {
            return self.fail(
                Diagnostic::new(
                    format!(
                        "`{name}` takes {} argument{}, found {}",
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                    call.span.clone(),
                )
                .with_label("wrong number of arguments"),
            );
        }
        let checked: Vec<Option<ir::Expr>> = args.iter().map(|a| self.expr(a, sc)).collect();
        let mut out = Vec::new();
        for ((a, a2), want) in args.iter().zip(checked).zip(&params) {
            let a2 = a2?;
            self.expect(&a2, &a.span, want, &format!("an argument of `{name}`"))?;
            out.push(a2);
        }
        Some(out)
    }

    pub(super) fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        e: &ast::Expr,
        sc: &Scope,
    ) -> Option<ir::Expr> {
        if let Some(k) = self.functions.iter().position(|f| f.name == name.name) {
            if !self.functions[k].is_pure() {
                return self.fail(
                    Diagnostic::new(
                        format!("`{}` has statements, so it can only be called on its own: `x = {}(…);`", name.name, name.name),
                        e.span.clone(),
                    )
                    .with_label("call inside an expression")
                    .with_hint("assign its result to a variable first, then use the variable"),
                );
            }
            let args2 = self.call_args(k, args, e, sc)?;
            let x = super::lang::substitute(&self.functions[k].result, &args2);
            return self.shallow(x, &e.span);
        }
        if self.broken_functions.contains(&name.name) {
            return None;
        }
        if self.function_names.contains(&name.name) {
            let msg = if self.current_fn.as_deref() == Some(name.name.as_str()) {
                format!("`{}` calls itself: recursive functions are not supported", name.name)
            } else {
                format!("`{}` is not defined before this call", name.name)
            };
            return self.fail(
                Diagnostic::new(msg, name.span.clone())
                    .with_label("recursion or later definition")
                    .with_hint("functions are inlined: define a function before its callers, and without recursion"),
            );
        }
        if matches!(name.name.as_str(), "len" | "str.len" | "concat" | "str.++") {
            if let Some(x) = self.string_call(name, args, e, sc) {
                return x;
            }
        }
        if name.name == "len" {
            return self.fail(
                Diagnostic::new("arrays have no length in forex", name.span.clone())
                    .with_label("`len`")
                    .with_hint("an array is an unbounded map from int; keep its length in an int variable (`int n;`) and bound indices with `0 <= i && i < n`"),
            );
        }
        if super::lang::SIGNED.contains(&name.name.as_str()) {
            return self.signed(name, args, e, sc);
        }
        if let Some(x) = self.float_call(name, args, e, sc) {
            return x;
        }
        let arity = match name.name.as_str() {
            "min" | "max" => 2,
            "abs" => 1,
            _ => {
                let known = ["min", "max", "abs"]
                    .into_iter()
                    .chain(super::lang::SIGNED)
                    .chain(super::floats::NAMES);
                let hint = suggest(&name.name, known)
                    .map(|s| format!("did you mean `{s}`?"))
                    .unwrap_or_else(|| {
                        "the functions are `min`, `max`, `abs`, `len`, `concat`, the signed \
                         bit-vector functions (`slt`, `sdiv`, …) and the float functions of \
                         math.h (`fabs`, `sqrt`, `fma`, `fmin`, `floor`, `isnan`, …)"
                            .to_string()
                    });
                return self.fail(
                    Diagnostic::new(format!("unknown function `{}`", name.name), name.span.clone())
                        .with_label("not a function")
                        .with_hint(hint),
                );
            }
        };
        if args.len() != arity {
            return self.fail(
                Diagnostic::new(
                    format!(
                        "`{}` takes {arity} argument{}, found {}",
                        name.name,
                        if arity == 1 { "" } else { "s" },
                        args.len()
                    ),
                    e.span.clone(),
                )
                .with_label("wrong number of arguments"),
            );
        }
        let mut out = Vec::new();
        for a in args {
            out.push(self.expr(a, sc));
        }
        let mut checked = Vec::new();
        for (a, a2) in args.iter().zip(out) {
            let a2 = a2?;
            if let Type::Float(_) = a2.ty {
                let f = match name.name.as_str() {
                    "min" => "fmin",
                    "max" => "fmax",
                    _ => "fabs",
                };
                return self.fail(
                    Diagnostic::new(
                        format!("`{}` is for ints, found {}", name.name, a2.ty),
                        a.span.clone(),
                    )
                    .with_label(format!("this is {}", a2.ty))
                    .with_hint(format!("for floats write `{f}` (C's semantics)")),
                );
            }
            self.expect(&a2, &a.span, &Type::Int, &format!("an argument of `{}`", name.name))?;
            checked.push(a2);
        }
        let mut it = checked.into_iter();
        let first = it.next()?;
        Some(match it.next() {
            None => ir::Expr { kind: ExprKind::Unary(UnOp::Abs, Box::new(first)), ty: Type::Int },
            Some(second) => {
                let op = if name.name == "min" { BinOp::Min } else { BinOp::Max };
                ir::Expr::binary(op, first, second)
            }
        })
    }
}

impl Checker<'_> {
    /// `len(s)` / `str.len(s)` and `concat(a, b, …)` / `str.++(a, b, …)` on strings.
    /// `None` when `len`'s argument is not a string (then `len` gets its array error).
    fn string_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        e: &ast::Expr,
        sc: &Scope,
    ) -> Option<Option<ir::Expr>> {
        let is_len = name.name.ends_with("len");
        let arity_ok = if is_len { args.len() == 1 } else { args.len() >= 2 };
        if !arity_ok {
            let want = if is_len { "1 argument" } else { "at least 2 arguments" };
            return Some(
                self.fail(
                    Diagnostic::new(
                        format!("`{}` takes {want}, found {}", name.name, args.len()),
                        e.span.clone(),
                    )
                    .with_label("wrong number of arguments"),
                ),
            );
        }
        let mut checked = Vec::new();
        for a in args {
            let a2 = self.expr(a, sc);
            checked.push(a2);
        }
        if is_len && name.name == "len" && checked[0].as_ref().is_some_and(|a| a.ty != Type::Str) {
            return None;
        }
        let mut out = Vec::new();
        for (a, a2) in args.iter().zip(checked) {
            let Some(a2) = a2 else { return Some(None) };
            let what = format!("an argument of `{}`", name.name);
            if self.expect(&a2, &a.span, &Type::Str, &what).is_none() {
                return Some(None);
            }
            out.push(a2);
        }
        let mut it = out.into_iter();
        let first = it.next()?;
        if is_len {
            let x =
                ir::Expr { kind: ExprKind::Unary(UnOp::StrLen, Box::new(first)), ty: Type::Int };
            return Some(self.shallow(x, &e.span));
        }
        let x = it.fold(first, |acc, b| ir::Expr::binary(BinOp::Concat, acc, b));
        Some(self.shallow(x, &e.span))
    }

    /// `slt(a, b)` … `ashr(a, b)`: two bit-vectors of one width.
    fn signed(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        e: &ast::Expr,
        sc: &Scope,
    ) -> Option<ir::Expr> {
        if args.len() != 2 {
            return self.fail(
                Diagnostic::new(
                    format!("`{}` takes 2 arguments, found {}", name.name, args.len()),
                    e.span.clone(),
                )
                .with_label("wrong number of arguments"),
            );
        }
        let (a, b) = (self.expr(&args[0], sc), self.expr(&args[1], sc));
        let (a, b) = (a?, b?);
        let Type::Bv(_) = a.ty else {
            return self.fail(
                Diagnostic::new(
                    format!("`{}` needs bit-vector operands, found {}", name.name, a.ty),
                    args[0].span.clone(),
                )
                .with_label(format!("this is {}", a.ty))
                .with_hint(
                    "signed operators are for bit-vectors; on int, `<`, `/` and `%` already work",
                ),
            );
        };
        self.expect(&b, &args[1].span, &a.ty, &format!("the second argument of `{}`", name.name))?;
        let x = super::lang::signed(&name.name, a, b);
        self.shallow(x, &e.span)
    }
}
