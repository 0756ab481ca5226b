//! Expressions: name resolution and types. Every failing sub-expression is reported
//! once and yields `None`; its parents then stay silent, so one mistake gives one error.

use super::{suggest, Checker};
use crate::diag::Diagnostic;
use crate::ir::{self, BinOp, BoundId, ExprKind, Type, UnOp, VarId};
use crate::syntax::ast::{self, Span};
use std::collections::HashMap;

/// Where an expression is: which names it may use.
pub enum Scope<'x> {
    /// Inside a program body at byte offset `at`: variables declared before `at`.
    Program { vars: &'x HashMap<String, (VarId, Type, Span)>, at: usize },
    /// Inside a tuple's pre/post/hints: `copy.var`, and quantified variables.
    /// `broken` copies name unknown programs (already reported; references stay silent).
    /// `shorthand`: the tuple was expanded from `ni(…)` etc. (messages name programs).
    Tuple {
        tuple: &'x ir::Tuple,
        copies: &'x HashMap<String, usize>,
        broken: &'x [String],
        shorthand: bool,
    },
}

/// A bit-vector literal of width `w` to suggest in hints (`#x00`, `#b000`).
pub fn bv_example(w: u32) -> String {
    if w.is_multiple_of(4) {
        format!("#x{}1", "0".repeat(w as usize / 4 - 1))
    } else {
        format!("#b{}1", "0".repeat(w as usize - 1))
    }
}

fn is_num(t: &Type) -> bool {
    matches!(t, Type::Int | Type::Bv(_))
}

fn is_float(t: &Type) -> bool {
    matches!(t, Type::Float(_))
}

impl Checker<'_> {
    pub fn expr(&mut self, e: &ast::Expr, sc: &Scope) -> Option<ir::Expr> {
        use ast::ExprKind as A;
        match &e.kind {
            A::Error => None,
            A::Int(n) => Some(ir::Expr::int(n.clone())),
            A::Bool(b) => Some(ir::Expr::bool(*b)),
            A::Bv { value, width } => Some(ir::Expr::bv(*value, *width)),
            A::Str(s) => Some(ir::Expr { kind: ExprKind::Str(s.clone()), ty: Type::Str }),
            A::Float { kind, bits } => Some(ir::Expr::float(*kind, *bits)),
            A::Var(name) => self.var(name, &e.span, sc),
            A::CopyVar { copy, var } => self.copy_var(copy, var, sc),
            A::Unary(op, a) => self.unary(*op, a, e, sc),
            A::Binary(op, a, b) => self.binary(*op, a, b, sc),
            A::Ite(c, a, b) => {
                let (c2, a2, b2) = (self.expr(c, sc), self.expr(a, sc), self.expr(b, sc));
                let (c2, a2, b2) = (c2?, a2?, b2?);
                self.expect(&c2, &c.span, &Type::Bool, "the condition of `if … then … else`")?;
                if a2.ty != b2.ty {
                    return self.fail(
                        Diagnostic::new(
                            format!(
                                "the branches of `if … then … else` have different types: {} and {}",
                                a2.ty, b2.ty
                            ),
                            b.span.clone(),
                        )
                        .with_label(format!("this is {}", b2.ty))
                        .with_related(a.span.clone(), format!("this is {}", a2.ty)),
                    );
                }
                let ty = a2.ty.clone();
                Some(ir::Expr { kind: ExprKind::Ite(Box::new(c2), Box::new(a2), Box::new(b2)), ty })
            }
            A::Index(a, i) => {
                let (a2, i2) = (self.expr(a, sc), self.expr(i, sc));
                let (a2, i2) = (a2?, i2?);
                let Type::Array(elem) = a2.ty.clone() else {
                    let hint = match a2.ty {
                        Type::Bv(w) => format!(
                            "to extract bits of a bit-vector write `[hi:lo]`, e.g. `[{}:0]`",
                            w - 1
                        ),
                        _ => "only arrays (`int[] a;`) can be indexed".to_string(),
                    };
                    return self.fail(
                        Diagnostic::new(
                            format!("cannot index a value of type {}", a2.ty),
                            a.span.clone(),
                        )
                        .with_label(format!("this is {}", a2.ty))
                        .with_hint(hint),
                    );
                };
                self.expect(&i2, &i.span, &Type::Int, "an array index")?;
                Some(ir::Expr { kind: ExprKind::Select(Box::new(a2), Box::new(i2)), ty: *elem })
            }
            A::Extract { arg, hi, lo, bounds } => {
                let a2 = self.expr(arg, sc)?;
                let Type::Bv(w) = a2.ty else {
                    return self.fail(
                        Diagnostic::new(
                            format!("bit extraction needs a bit-vector, found {}", a2.ty),
                            arg.span.clone(),
                        )
                        .with_label(format!("this is {}", a2.ty)),
                    );
                };
                if hi < lo {
                    return self.fail(
                        Diagnostic::new(
                            format!("empty bit range: {hi} is below {lo}"),
                            bounds.clone(),
                        )
                        .with_label("high bit first")
                        .with_hint(format!("write `[{lo}:{hi}]` (high bit, then low bit)")),
                    );
                }
                if *hi >= w {
                    return self.fail(
                        Diagnostic::new(
                            format!(
                                "bit {hi} is out of range for a bv{w} value (bits {}..0)",
                                w - 1
                            ),
                            bounds.clone(),
                        )
                        .with_label("out of range")
                        .with_hint(format!("the highest bit of a bv{w} is {}", w - 1)),
                    );
                }
                Some(ir::Expr {
                    kind: ExprKind::Extract { hi: *hi, lo: *lo, arg: Box::new(a2) },
                    ty: Type::Bv(hi - lo + 1),
                })
            }
            A::Call { name, args } => self.call(name, args, e, sc),
            A::OneLike(a) => {
                let a2 = self.expr(a, sc)?;
                match super::lang::one(&a2.ty) {
                    Some(one) => Some(one),
                    None => self.fail(
                        Diagnostic::new(
                            format!("`++`/`--` need an int or bit-vector, found {}", a2.ty),
                            e.span.clone(),
                        )
                        .with_label(format!("this is {}", a2.ty)),
                    ),
                }
            }
            A::Convert { to, arg } => {
                let to2 = self.ty(to)?;
                let a2 = self.expr(arg, sc)?;
                let from = a2.ty.clone();
                match super::lang::convert(a2, &to2) {
                    Some(c) => self.shallow(c, &e.span),
                    None => self.fail(
                        Diagnostic::new(format!("cannot convert {from} to {to2}"), e.span.clone())
                            .with_label(format!("this is {from}"))
                            .with_hint(
                                "conversions are between int, bool, bit-vectors, float and double",
                            ),
                    ),
                }
            }
            A::Quant { quantifier, var, ty, body } => {
                if matches!(sc, Scope::Program { .. }) {
                    return self.fail(
                        Diagnostic::new(
                            "quantifiers are only allowed in pre, post and hints",
                            e.span.clone(),
                        )
                        .with_label("quantifier in a program"),
                    );
                }
                let ty2 = self.ty(ty)?;
                if !ty2.is_scalar() {
                    return self.fail(
                        Diagnostic::new(
                            "a quantified variable must be int, bool or a bit-vector",
                            ty.span.clone(),
                        )
                        .with_label("array type"),
                    );
                }
                let id = BoundId(self.next_bound);
                self.next_bound += 1;
                self.bound.push((var.name.clone(), id, ty2.clone()));
                let body2 = self.expr(body, sc);
                self.bound.pop();
                let body2 = body2?;
                self.expect(&body2, &body.span, &Type::Bool, "a quantifier's body")?;
                Some(ir::Expr {
                    kind: ExprKind::Quant {
                        quantifier: *quantifier,
                        var: id,
                        name: var.name.clone(),
                        var_ty: ty2,
                        body: Box::new(body2),
                    },
                    ty: Type::Bool,
                })
            }
        }
    }

    pub fn fail<T>(&mut self, d: Diagnostic) -> Option<T> {
        self.diags.push(d);
        None
    }

    /// Reports unless `e` has type `want`; `what` says where ("an array index").
    pub fn expect(&mut self, e: &ir::Expr, span: &Span, want: &Type, what: &str) -> Option<()> {
        if &e.ty == want {
            return Some(());
        }
        let hint = match (want, &e.ty) {
            (Type::Bool, Type::Int) => Some(
                "forex has no implicit conversions; compare explicitly, e.g. `x != 0`".to_string(),
            ),
            (Type::Bv(w), Type::Int) => {
                Some(format!("write a bit-vector literal such as `{}`", bv_example(*w)))
            }
            (Type::Bv(_), Type::Bv(_)) => Some(
                "use `[hi:lo]` to extract bits; forex has no implicit width conversions"
                    .to_string(),
            ),
            _ => None,
        };
        self.fail(
            Diagnostic::new(format!("{what} must be {want}, found {}", e.ty), span.clone())
                .with_label(format!("this is {}", e.ty))
                .with_hint_opt(hint),
        )
    }

    fn var(&mut self, name: &str, span: &Span, sc: &Scope) -> Option<ir::Expr> {
        if let Some((_, id, ty)) = self.bound.iter().rev().find(|(n, ..)| n == name) {
            return Some(ir::Expr { kind: ExprKind::Bound(*id), ty: ty.clone() });
        }
        match sc {
            Scope::Program { vars, at } => {
                let (id, ty) = self.program_var(vars, *at, name, span, "int")?;
                Some(ir::Expr::var(id, ty))
            }
            Scope::Tuple { tuple, .. } => {
                let owner = (0..tuple.copies.len()).find(|&k| tuple.copy_var(k, name).is_some());
                let hint = match owner {
                    Some(k) => {
                        format!("write `{}`", self.display_ref(&tuple.copies[k].name, name, k))
                    }
                    None => {
                        let all = tuple.vars.iter().map(|v| v.name.as_str());
                        match suggest(name, all) {
                            Some(s) => {
                                format!("no copy has a variable `{name}`; did you mean `{s}`?")
                            }
                            None => format!("no copy has a variable `{name}`"),
                        }
                    }
                };
                let what = if self.forex { "a copy index" } else { "a copy name" };
                self.fail(
                    Diagnostic::new(format!("`{name}` needs {what}"), span.clone())
                        .with_label("which copy?")
                        .with_hint(hint),
                )
            }
        }
    }

    /// Looks up program variable `name` used at byte `at` (declarations must come first).
    pub fn program_var(
        &mut self,
        vars: &HashMap<String, (VarId, Type, Span)>,
        at: usize,
        name: &str,
        span: &Span,
        ty_hint: &str,
    ) -> Option<(VarId, Type)> {
        if self.silent.iter().any(|s| s == name) {
            return None;
        }
        match vars.get(name) {
            Some((id, ty, decl)) if decl.start < at => Some((*id, ty.clone())),
            Some((_, ty, decl)) => self.fail(
                Diagnostic::new(format!("`{name}` is used before its declaration"), span.clone())
                    .with_label("used here")
                    .with_related(decl.clone(), "declared here")
                    .with_hint(format!("move `{ty} {name};` to the top of the program")),
            ),
            None => {
                let hint = match suggest(name, vars.keys().map(|k| k.as_str())) {
                    Some(s) => format!(
                        "did you mean `{s}`? or declare `{name}` first: `{ty_hint} {name};`"
                    ),
                    None => format!("declare `{name}` first: `{ty_hint} {name};`"),
                };
                self.fail(
                    Diagnostic::new(format!("unknown variable `{name}`"), span.clone())
                        .with_label("not declared")
                        .with_hint(hint),
                )
            }
        }
    }

    /// `copy.var` as the user wrote it: `a.x`, or `x_0` in ForEx files.
    fn display_ref(&self, copy: &str, var: &str, index: usize) -> String {
        if self.forex {
            format!("{var}_{index}")
        } else {
            format!("{copy}.{var}")
        }
    }

    fn copy_var(&mut self, copy: &ast::Ident, var: &ast::Ident, sc: &Scope) -> Option<ir::Expr> {
        let Scope::Tuple { tuple, copies, broken, shorthand } = sc else {
            return self.fail(
                Diagnostic::new(
                    format!(
                        "`{}.{}` names a copy, but copies exist only in a tuple",
                        copy.name, var.name
                    ),
                    copy.span.start..var.span.end,
                )
                .with_label("copy reference in a program")
                .with_hint(format!("inside a program write `{}`", var.name)),
            );
        };
        let Some(&k) = copies.get(&copy.name) else {
            if broken.contains(&copy.name) {
                return None;
            }
            let names: Vec<&str> = tuple.copies.iter().map(|c| c.name.as_str()).collect();
            let hint = match suggest(&copy.name, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if names.is_empty() => "this tuple has no copies".to_string(),
                None => format!(
                    "the copies are {}",
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                ),
            };
            return self.fail(
                Diagnostic::new(format!("unknown copy `{}`", copy.name), copy.span.clone())
                    .with_label("no such copy")
                    .with_hint(hint),
            );
        };
        let c = &tuple.copies[k];
        match tuple.copy_var(k, &var.name) {
            Some(id) => Some(ir::Expr::var(id, tuple.var(id).ty.clone())),
            None => {
                let names = c.vars.iter().map(|v| tuple.var(*v).name.as_str());
                let hint = match suggest(&var.name, names.clone()) {
                    Some(s) if *shorthand => format!("did you mean `{s}`?"),
                    Some(s) => format!("did you mean `{}`?", self.display_ref(&c.name, s, k)),
                    None => {
                        let all: Vec<String> = names.map(|n| format!("`{n}`")).collect();
                        let owner = if self.forex {
                            format!("copy {k}")
                        } else {
                            format!("program `{}`", c.program)
                        };
                        if all.is_empty() {
                            format!("{owner} declares no variables")
                        } else {
                            format!("the variables of {owner} are {}", all.join(", "))
                        }
                    }
                };
                let hint = Some(hint);
                let message = if *shorthand {
                    format!("program `{}` has no variable `{}`", c.program, var.name)
                } else if self.forex {
                    format!("`{}_{k}`: copy {k} has no variable `{}`", var.name, var.name)
                } else {
                    format!(
                        "copy `{}` (program `{}`) has no variable `{}`",
                        c.name, c.program, var.name
                    )
                };
                self.fail(
                    Diagnostic::new(message, var.span.clone())
                        .with_label("unknown variable")
                        .with_hint_opt(hint),
                )
            }
        }
    }

    fn unary(&mut self, op: UnOp, a: &ast::Expr, e: &ast::Expr, sc: &Scope) -> Option<ir::Expr> {
        let a2 = self.expr(a, sc)?;
        if let (UnOp::Neg, ExprKind::Int(n)) = (op, &a2.kind) {
            // `-5` is a literal, not an operation (keeps printed formulas short).
            return Some(ir::Expr::int(-n.clone()));
        }
        if let (UnOp::Neg, ExprKind::Float(bits), Type::Float(k)) = (op, &a2.kind, &a2.ty) {
            // Negation of a float is exact: `-1.5` is a literal too.
            return Some(ir::Expr::float(*k, bits ^ (1u64 << (k.width() - 1))));
        }
        let (ok, sym, want) = match op {
            UnOp::Neg => (is_num(&a2.ty) || is_float(&a2.ty), "-", "an int, bit-vector or float"),
            UnOp::Not => (a2.ty == Type::Bool, "!", "a bool"),
            UnOp::BitNot => (matches!(a2.ty, Type::Bv(_)), "~", "a bit-vector"),
            UnOp::Abs => (a2.ty == Type::Int, "abs", "an int"),
            UnOp::BvToInt => (matches!(a2.ty, Type::Bv(_)), "int", "a bit-vector"),
            UnOp::StrLen => (a2.ty == Type::Str, "len", "a string"),
            // Only the C front end builds extensions; float functions are calls (`floats`).
            UnOp::SignExt(_) | UnOp::ZeroExt(_) => (false, "extend", "a bit-vector"),
            UnOp::FAbs
            | UnOp::Sqrt
            | UnOp::RoundTo(_)
            | UnOp::FloatIs(_)
            | UnOp::ToFloat { .. }
            | UnOp::FloatToInt(_)
            | UnOp::FloatFits(_)
            | UnOp::FloatBits => (false, "float function", "a float"),
        };
        if !ok {
            let hint = match (op, &a2.ty) {
                (UnOp::Not, Type::Bv(_)) => Some("for bitwise not write `~`".to_string()),
                (UnOp::Not, Type::Int) => Some("compare explicitly, e.g. `x == 0`".to_string()),
                (UnOp::BitNot, Type::Bool) => Some("for boolean not write `!`".to_string()),
                _ => None,
            };
            return self.fail(
                Diagnostic::new(
                    format!("`{sym}` needs {want} operand, found {}", a2.ty),
                    e.span.clone(),
                )
                .with_label(format!("this is {}", a2.ty))
                .with_hint_opt(hint),
            );
        }
        Some(ir::Expr::unary(op, a2))
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, sc: &Scope) -> Option<ir::Expr> {
        use BinOp::*;
        let (a2, b2) = (self.expr(a, sc), self.expr(b, sc));
        let (a2, b2) = (a2?, b2?);
        let sym = op.symbol();
        let (ok_a, want) = match op {
            And | Or | Implies | Iff => (a2.ty == Type::Bool, "bool"),
            Add | Sub | Mul | Div | Lt | Le | Gt | Ge => {
                (is_num(&a2.ty) || is_float(&a2.ty), "int, bit-vector or float")
            }
            Mod => (is_num(&a2.ty), "int or bit-vector"),
            BitAnd | BitOr | BitXor | Shl | Shr | SLt | SLe | SGt | SGe | SDiv | SRem | AShr => {
                (matches!(a2.ty, Type::Bv(_)), "bit-vector")
            }
            Min | Max => (a2.ty == Type::Int, "int"),
            Concat => (a2.ty == Type::Str, "string"),
            Eq | Ne | Ident => (true, "any"),
            // Built by `floats` from calls, never written infix.
            FMin | FMax | CopySign => (is_float(&a2.ty), "float"),
        };
        if !ok_a {
            let hint = match (op, &a2.ty) {
                (BitAnd, Type::Bool) => Some("for boolean and write `&&`".to_string()),
                (BitOr, Type::Bool) => Some("for boolean or write `||`".to_string()),
                (BitAnd | BitOr | BitXor | Shl | Shr, Type::Int) => {
                    Some("bitwise operators need bit-vectors (`bv8 x;`); forex has no implicit conversions".to_string())
                }
                (Mod, Type::Float(_)) => Some(
                    "`%` is for integers; floats have no remainder operator in forex".to_string(),
                ),
                _ => None,
            };
            return self.fail(
                Diagnostic::new(
                    format!("`{sym}` needs {want} operands, found {}", a2.ty),
                    a.span.clone(),
                )
                .with_label(format!("this is {}", a2.ty))
                .with_hint_opt(hint),
            );
        }
        if a2.ty != b2.ty {
            let (message, hint) = match (&a2.ty, &b2.ty) {
                (Type::Bv(x), Type::Bv(y)) => (
                    format!("bit-vector width mismatch: bv{x} {sym} bv{y}"),
                    "both operands must have one width; extract bits with `[hi:lo]`".to_string(),
                ),
                (Type::Bv(w), Type::Int) if matches!(b2.kind, ExprKind::Int(_)) => (
                    format!("mismatched types: bv{w} {sym} int"),
                    format!("write the literal as a bit-vector, e.g. `{}`", bv_example(*w)),
                ),
                (Type::Float(k), Type::Int) if matches!(b2.kind, ExprKind::Int(_)) => (
                    format!("mismatched types: {k} {sym} int"),
                    format!(
                        "write the literal as a {k}, e.g. `{}`",
                        super::floats::literal_example(*k, &b2)
                    ),
                ),
                (Type::Float(_), _) | (_, Type::Float(_)) => (
                    format!("mismatched types: {} {sym} {}", a2.ty, b2.ty),
                    "forex has no implicit conversions: convert one side with `double(e)`, `float(e)` or `int(e)`"
                        .to_string(),
                ),
                (x, y) => (
                    format!("mismatched types: {x} {sym} {y}"),
                    "both operands must have the same type; forex has no implicit conversions"
                        .to_string(),
                ),
            };
            return self.fail(
                Diagnostic::new(message, b.span.clone())
                    .with_label(format!("this is {}", b2.ty))
                    .with_related(a.span.clone(), format!("this is {}", a2.ty))
                    .with_hint(hint),
            );
        }
        // `===` is identity; on other types than floats that is `==`.
        let op = if op == Ident && !is_float(&a2.ty) { Eq } else { op };
        Some(ir::Expr::binary(op, a2, b2))
    }

    /// A desugared expression, unless it nests deeper than the IR allows.
    pub(super) fn shallow(&mut self, x: ir::Expr, span: &Span) -> Option<ir::Expr> {
        if super::lang::expr_depth(&x) > ir::MAX_DEPTH {
            return self.fail(
                Diagnostic::new(
                    format!(
                        "expression nested too deeply once expanded (more than {} levels)",
                        ir::MAX_DEPTH
                    ),
                    span.clone(),
                )
                .with_label("too deep")
                .with_hint("split it using intermediate variables"),
            );
        }
        Some(x)
    }
}
