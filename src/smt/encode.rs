//! The one translation from IR expressions to Z3 terms, and from Z3 model values back
//! to [`Value`]s. Every engine encodes through here, so the semantics fixed in
//! `ir.rs` (Euclidean `div`/`mod` with total division, unsigned bit-vector order,
//! logical shifts) is written down exactly once.
//! Strings go to the sequence theory; floats to the FloatingPoint theory or its
//! uninterpreted abstraction (`float`, which also rewrites IEEE identities: a division
//! by a power of two, `x * 2`, `(float)(double)x`, `(int)trunc(x)`). Array model
//! values come as `lambda` terms, read at a far index, around 0 and around the term's
//! numerals; replay checks the rest.
//!
//! z3 0.22 uses an implicit thread-local context: terms built here belong to the
//! calling thread, and each worker thread encodes its own.

mod float;
mod shape;

pub use float::ABSTRACT_PREFIX as FLOAT_ABSTRACT_PREFIX;
pub use float::{mode as float_mode, mode_scope as float_mode_scope, FloatMode, ModeScope};

use crate::ir::{BinOp, BoundId, Expr, ExprKind, Quantifier, Type, UnOp, VarId};
use crate::value::{bv_mask, Value};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use std::str::FromStr;
use z3::ast::{Array, Ast, Bool, Dynamic, Int, String as Str, BV};
use z3::Sort;

/// The Z3 sort of an IR type.
pub fn sort(ty: &Type) -> Sort {
    match ty {
        Type::Int => Sort::int(),
        Type::Bool => Sort::bool(),
        Type::Bv(w) => Sort::bitvector(*w),
        Type::Str => Sort::string(),
        Type::Float(k) => float::sort(*k),
        Type::Array(elem) => Sort::array(&Sort::int(), &sort(elem)),
    }
}

/// A fresh constant of the given type (Z3 makes the name unique).
pub fn fresh(prefix: &str, ty: &Type) -> Dynamic {
    Dynamic::fresh_const(prefix, &sort(ty))
}

/// A constant with exactly this name (the same name gives the same constant).
pub fn named(name: &str, ty: &Type) -> Dynamic {
    Dynamic::new_const(name, &sort(ty))
}

/// Encodes `e`, looking up program variables with `vars`.
pub fn encode(e: &Expr, vars: &dyn Fn(VarId) -> Dynamic) -> Dynamic {
    Encoder { vars, bound: BTreeMap::new() }.expr(e)
}

/// Encodes a boolean expression.
pub fn encode_bool(e: &Expr, vars: &dyn Fn(VarId) -> Dynamic) -> Bool {
    encode(e, vars).as_bool().expect("checked IR: boolean expression")
}

struct Encoder<'a> {
    vars: &'a dyn Fn(VarId) -> Dynamic,
    bound: BTreeMap<BoundId, Dynamic>,
}

fn int(d: &Dynamic) -> Int {
    d.as_int().expect("checked IR: int operand")
}
fn bv(d: &Dynamic) -> BV {
    d.as_bv().expect("checked IR: bit-vector operand")
}
fn string(d: &Dynamic) -> Str {
    d.as_string().expect("checked IR: string operand")
}

/// A string literal. Its characters are printable ASCII; Z3 reads `\` in a literal as the
/// start of an escape, so a backslash is written as the escape `\u{5c}`.
pub fn str_literal(s: &str) -> Str {
    Str::from_str(&s.replace('\\', "\\u{5c}")).expect("printable ASCII has no NUL")
}

fn boolean(d: &Dynamic) -> Bool {
    d.as_bool().expect("checked IR: bool operand")
}

/// An integer literal of any size.
pub fn int_literal(n: &BigInt) -> Int {
    match i64::try_from(n) {
        Ok(small) => Int::from_i64(small),
        Err(_) => n.to_string().parse().expect("decimal literal"),
    }
}

/// A bit-vector literal.
pub fn bv_literal(value: u128, width: u32) -> BV {
    let value = value & bv_mask(width);
    if width <= 64 {
        BV::from_u64(value as u64, width)
    } else {
        BV::from_str(width, &value.to_string()).expect("decimal literal")
    }
}

impl Encoder<'_> {
    fn expr(&mut self, e: &Expr) -> Dynamic {
        if let Some(cheaper) = float::rewrite(e) {
            return self.expr(&cheaper);
        }
        match &e.kind {
            ExprKind::Var(v) => (self.vars)(*v),
            ExprKind::Bound(b) => self.bound.get(b).expect("checked IR: bound variable").clone(),
            ExprKind::Int(n) => int_literal(n).into(),
            ExprKind::Bool(b) => Bool::from_bool(*b).into(),
            ExprKind::Bv(value) => {
                let Type::Bv(w) = e.ty else { unreachable!("checked IR: bv literal type") };
                bv_literal(*value, w).into()
            }
            ExprKind::Str(s) => str_literal(s).into(),
            ExprKind::Float(bits) => {
                let Type::Float(k) = e.ty else { unreachable!("checked IR: float literal type") };
                float::literal(k, *bits)
            }
            ExprKind::Fma(a, b, c) => {
                let Type::Float(k) = e.ty else { unreachable!("checked IR: fma on floats") };
                let (a, b, c) = (self.expr(a), self.expr(b), self.expr(c));
                float::fma(k, &a, &b, &c)
            }
            ExprKind::Unary(UnOp::ToFloat { kind, signed }, a) => {
                let from = a.ty.clone();
                let a = self.expr(a);
                float::to_float(*kind, *signed, &a, &from)
            }
            ExprKind::Unary(op, a) if matches!(a.ty, Type::Float(_)) => {
                let Type::Float(k) = a.ty else { unreachable!() };
                let a = self.expr(a);
                float::unary(*op, k, &a)
            }
            ExprKind::Binary(op, a, b) if matches!(a.ty, Type::Float(_)) => {
                let Type::Float(k) = a.ty else { unreachable!() };
                let (a, b) = (self.expr(a), self.expr(b));
                float::binary(*op, k, &a, &b)
            }
            ExprKind::ConstArray(a) => Array::const_array(&Sort::int(), &self.expr(a)).into(),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a);
                match op {
                    UnOp::Neg => match a.as_int() {
                        Some(i) => i.unary_minus().into(),
                        None => bv(&a).bvneg().into(),
                    },
                    UnOp::Not => boolean(&a).not().into(),
                    UnOp::BitNot => bv(&a).bvnot().into(),
                    UnOp::Abs => {
                        let i = int(&a);
                        i.ge(Int::from_i64(0)).ite(&i, &i.unary_minus()).into()
                    }
                    UnOp::BvToInt => bv(&a).to_int(false).into(),
                    UnOp::StrLen => string(&a).length().into(),
                    UnOp::SignExt(n) => bv(&a).sign_ext(*n).into(),
                    UnOp::ZeroExt(n) => bv(&a).zero_ext(*n).into(),
                    UnOp::FAbs
                    | UnOp::Sqrt
                    | UnOp::RoundTo(_)
                    | UnOp::FloatIs(_)
                    | UnOp::ToFloat { .. }
                    | UnOp::FloatToInt(_)
                    | UnOp::FloatFits(_)
                    | UnOp::FloatBits => unreachable!("checked IR: {op:?} on a float"),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.expr(a);
                let b = self.expr(b);
                binary(*op, &a, &b)
            }
            ExprKind::Ite(c, a, b) => {
                let c = boolean(&self.expr(c));
                let a = self.expr(a);
                let b = self.expr(b);
                c.ite(&a, &b)
            }
            ExprKind::Select(a, i) => {
                let a = self.expr(a).as_array().expect("checked IR: array operand");
                let i = self.expr(i);
                a.select(&i)
            }
            ExprKind::Extract { hi, lo, arg } => bv(&self.expr(arg)).extract(*hi, *lo).into(),
            ExprKind::Quant { quantifier, var, name, var_ty, body } => {
                let bound_const = fresh(name, var_ty);
                let previous = self.bound.insert(*var, bound_const.clone());
                let body = boolean(&self.expr(body));
                match previous {
                    Some(p) => self.bound.insert(*var, p),
                    None => self.bound.remove(var),
                };
                let bounds: [&dyn Ast; 1] = [&bound_const];
                match quantifier {
                    Quantifier::Forall => z3::ast::forall_const(&bounds, &[], &body).into(),
                    Quantifier::Exists => z3::ast::exists_const(&bounds, &[], &body).into(),
                }
            }
        }
    }
}

/// `a op b` on already-encoded operands of matching sorts, not floats (whose operators
/// need their format: `float::binary`).
fn binary(op: BinOp, a: &Dynamic, b: &Dynamic) -> Dynamic {
    use BinOp::*;
    match op {
        Eq | Ident => a.eq(b).into(),
        Ne => a.eq(b).not().into(),
        And => Bool::and(&[boolean(a), boolean(b)]).into(),
        Or => Bool::or(&[boolean(a), boolean(b)]).into(),
        Implies => boolean(a).implies(boolean(b)).into(),
        Iff => boolean(a).eq(boolean(b)).into(),
        Concat => Str::concat(&[string(a), string(b)]).into(),
        _ if a.as_int().is_some() => int_binary(op, &int(a), &int(b)),
        _ => bv_binary(op, &bv(a), &bv(b)),
    }
}

fn int_binary(op: BinOp, a: &Int, b: &Int) -> Dynamic {
    use BinOp::*;
    let zero = Int::from_i64(0);
    match op {
        Add => Int::add(&[a, b]).into(),
        Sub => Int::sub(&[a, b]).into(),
        Mul => Int::mul(&[a, b]).into(),
        // Division is total: x / 0 == 0 and x % 0 == x (ir.rs), as in the interpreter.
        Div => b.eq(&zero).ite(&zero, &a.div(b)).into(),
        Mod => b.eq(&zero).ite(a, &a.modulo(b)).into(),
        Lt => a.lt(b).into(),
        Le => a.le(b).into(),
        Gt => a.gt(b).into(),
        Ge => a.ge(b).into(),
        Min => a.le(b).ite(a, b).into(),
        Max => a.ge(b).ite(a, b).into(),
        _ => unreachable!("checked IR: {op:?} on int"),
    }
}

fn bv_binary(op: BinOp, a: &BV, b: &BV) -> Dynamic {
    use BinOp::*;
    match op {
        Add => a.bvadd(b).into(),
        Sub => a.bvsub(b).into(),
        Mul => a.bvmul(b).into(),
        Div => a.bvudiv(b).into(),
        Mod => a.bvurem(b).into(),
        Lt => a.bvult(b).into(),
        Le => a.bvule(b).into(),
        Gt => a.bvugt(b).into(),
        Ge => a.bvuge(b).into(),
        BitAnd => a.bvand(b).into(),
        BitOr => a.bvor(b).into(),
        BitXor => a.bvxor(b).into(),
        Shl => a.bvshl(b).into(),
        Shr => a.bvlshr(b).into(),
        SLt => a.bvslt(b).into(),
        SLe => a.bvsle(b).into(),
        SGt => a.bvsgt(b).into(),
        SGe => a.bvsge(b).into(),
        SDiv => a.bvsdiv(b).into(),
        SRem => a.bvsrem(b).into(),
        AShr => a.bvashr(b).into(),
        _ => unreachable!("checked IR: {op:?} on bit-vectors"),
    }
}

/// The Z3 term for a concrete value.
pub fn value_term(v: &Value) -> Dynamic {
    match v {
        Value::Int { value } => int_literal(value).into(),
        Value::Bool { value } => Bool::from_bool(*value).into(),
        Value::Bv { width, value } => bv_literal(*value, *width).into(),
        Value::Str { value } => str_literal(value).into(),
        Value::Float { kind, bits } => float::literal(*kind, *bits),
        Value::Array { default, entries } => {
            let mut arr = Array::const_array(&Sort::int(), &value_term(default));
            for (k, val) in entries {
                arr = arr.store(&int_literal(k), &value_term(val));
            }
            arr.into()
        }
    }
}

/// Reads a concrete value of type `ty` from a term a model evaluated (with model
/// completion). `None` when the term is not a literal forex understands (for example
/// an array given as a function interpretation).
pub fn term_value(t: &Dynamic, ty: &Type) -> Option<Value> {
    match ty {
        Type::Int => {
            let i = t.as_int()?;
            if let Some(small) = i.as_i64() {
                return Some(Value::int(small));
            }
            parse_int_numeral(&i.to_string()).map(Value::int)
        }
        Type::Bool => t.as_bool()?.as_bool().map(Value::bool),
        Type::Bv(w) => {
            let b = t.as_bv()?;
            if *w <= 64 {
                return b.as_u64().map(|u| Value::bv(u as u128, *w));
            }
            b.to_int(false).simplify().as_u128().map(|u| Value::bv(u, *w))
        }
        Type::Str => t.as_string()?.simplify().as_string().and_then(|s| decode_z3_string(&s)),
        Type::Float(k) => float::value_bits(t, *k).map(|bits| Value::float(*k, bits)),
        Type::Array(elem) => array_value(t, elem),
    }
}

/// A string as Z3 4.8's `Z3_get_string` prints it: printable ASCII as itself (a `\\`
/// too), other characters as `\\u{…}` escapes.
fn decode_z3_string(text: &str) -> Option<Value> {
    let mut out = std::string::String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\\u{") {
        out.push_str(&rest[..i]);
        let braced = &rest[i + 3..];
        let decoded = braced.find('}').and_then(|end| {
            let c = char::from_u32(u32::from_str_radix(&braced[..end], 16).ok()?)?;
            Some((c, &braced[end + 1..]))
        });
        match decoded {
            Some((c, tail)) => {
                out.push(c);
                rest = tail;
            }
            None => {
                out.push('\\');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    Some(Value::Str { value: out })
}

fn parse_int_numeral(text: &str) -> Option<BigInt> {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix("(-").and_then(|s| s.strip_suffix(')')) {
        return inner.trim().parse::<BigInt>().ok().map(|n| -n);
    }
    text.parse().ok()
}

fn array_value(t: &Dynamic, elem: &Type) -> Option<Value> {
    if t.kind() == z3::AstKind::Quantifier {
        return lambda_value(t, elem);
    }
    if !t.is_app() {
        return None;
    }
    let children = t.children();
    // Match on the declaration's name: z3-sys's `DeclKind` numbering follows a newer Z3
    // than the Debian 4.8.12 this links against.
    match t.decl().name().as_str() {
        "const" if children.len() == 1 => Some(Value::Array {
            default: Box::new(term_value(&children[0], elem)?),
            entries: BTreeMap::new(),
        }),
        "store" if children.len() == 3 => {
            let mut base = array_value(&children[0], elem)?;
            let Value::Int { value: index } = term_value(&children[1], &Type::Int)? else {
                return None;
            };
            let v = term_value(&children[2], elem)?;
            // Stores nearer the root are later; the innermost is applied first.
            base.store(index, v);
            Some(base)
        }
        _ => None,
    }
}

/// Indices either side of 0 at which a `lambda` array is read ([`lambda_value`]).
const LAMBDA_WINDOW: i64 = 16;

/// Largest number of the numerals in a `lambda`'s text around which it is read.
const LAMBDA_NUMERALS: usize = 64;

/// A model's array given as a `lambda` term (Z3 may answer `(lambda ((x Int)) (ite (<= 0
/// x) 3 38))`), which no finite table of entries equals in general: read as the value
/// at a far index (the default) with the values at the indices a run is likely to touch
/// (−16..16 and around each numeral in the term) as entries. Where this differs from the
/// model, the run's replay (the gate every verdict passes) notices.
fn lambda_value(t: &Dynamic, elem: &Type) -> Option<Value> {
    // Reading takes dozens of Z3 calls; once the caller's token interrupts Z3, the z3
    // crate panics on the null it gets back: then the array is unreadable (`None`).
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_lambda(t, elem))).ok().flatten()
}

fn read_lambda(t: &Dynamic, elem: &Type) -> Option<Value> {
    let array = t.as_array()?;
    if array.get_sort().array_domain()?.kind() != z3::SortKind::Int {
        return None;
    }
    let at = |i: &BigInt| -> Option<Value> {
        let index = int_literal(i);
        term_value(&array.select(&index).simplify(), elem)
    };
    let mut indices: std::collections::BTreeSet<BigInt> =
        (-LAMBDA_WINDOW..=LAMBDA_WINDOW).map(BigInt::from).collect();
    for n in numerals(&t.to_string()).into_iter().take(LAMBDA_NUMERALS) {
        for d in -1..=1 {
            indices.insert(&n + d);
        }
    }
    let far = indices.iter().next_back().cloned().unwrap_or_default() + 1_000_000;
    let mut value = Value::Array { default: Box::new(at(&far)?), entries: BTreeMap::new() };
    for i in indices {
        let v = at(&i)?;
        value.store(i, v);
    }
    Some(value)
}

/// The integer numerals in a term's text (`-` for `(- n)` is not read: both n and −n
/// are taken).
fn numerals(text: &str) -> Vec<BigInt> {
    let mut out = Vec::new();
    let mut digits = String::new();
    let mut prev = ' ';
    for ch in text.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit()
            && (!digits.is_empty()
                || !(prev.is_alphanumeric() || prev == '!' || prev == '_' || prev == '.'))
        {
            digits.push(ch);
        } else if !digits.is_empty() {
            if let Ok(n) = digits.parse::<BigInt>() {
                out.push(-n.clone());
                out.push(n);
            }
            digits.clear();
        }
        prev = ch;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::SatResult;

    #[test]
    fn a_lambda_array_in_a_model_is_read_at_the_indices_runs_touch() {
        // The model form a user met: `(lambda ((x!1 Int)) (ite (<= 0 x!1) 3 38))`.
        let x = Int::new_const("x!1");
        let body: Dynamic =
            x.ge(Int::from_i64(0)).ite(&Int::from_i64(3), &Int::from_i64(38)).into();
        let lambda: Dynamic = z3::ast::lambda_const(&[&x], &body).into();
        assert_eq!(lambda.kind(), z3::AstKind::Quantifier);
        let v = term_value(&lambda, &Type::Array(Box::new(Type::Int))).expect("a lambda is read");
        let Value::Array { default, entries } = &v else { panic!("an array: {v}") };
        assert_eq!(**default, Value::int(3));
        assert_eq!(entries.get(&BigInt::from(-1)), Some(&Value::int(38)));
        assert_eq!(entries.get(&BigInt::from(-16)), Some(&Value::int(38)));
        assert_eq!(entries.get(&BigInt::from(5)), None, "equal to the default: no entry");
        // And through a model: an array constrained pointwise on both sides of 0.
        let a = z3::ast::Array::new_const("A", &z3::Sort::int(), &z3::Sort::int());
        let s = crate::smt::session::solver();
        let i = Int::new_const("i");
        let all = z3::ast::forall_const(
            &[&i],
            &[],
            &a.select(&i)
                .as_int()
                .unwrap()
                .eq(i.ge(Int::from_i64(0)).ite(&Int::from_i64(3), &Int::from_i64(38))),
        );
        s.assert(&all);
        assert_eq!(s.check(), SatResult::Sat);
        let m = s.get_model().unwrap();
        let got = m.eval(&Dynamic::from(a), true).unwrap();
        let v = term_value(&got.simplify(), &Type::Array(Box::new(Type::Int)));
        assert!(v.is_some(), "model array read: {got}");
    }

    fn x_int(_: VarId) -> Dynamic {
        Int::new_const("x").into()
    }

    #[test]
    fn division_is_total_and_euclidean() {
        let s = crate::smt::session::solver();
        let e = Expr::binary(BinOp::Div, Expr::int(-7), Expr::int(2));
        let q = encode(&e, &x_int);
        let m = Expr::binary(BinOp::Mod, Expr::int(-7), Expr::int(2));
        let r = encode(&m, &x_int);
        let z = encode(&Expr::binary(BinOp::Div, Expr::int(5), Expr::int(0)), &x_int);
        s.assert(q.eq(Dynamic::from(Int::from_i64(-4))).not());
        assert_eq!(s.check(), SatResult::Unsat);
        s.reset();
        s.assert(r.eq(Dynamic::from(Int::from_i64(1))).not());
        assert_eq!(s.check(), SatResult::Unsat);
        s.reset();
        s.assert(z.eq(Dynamic::from(Int::from_i64(0))).not());
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn signed_operators_agree_with_the_interpreter_on_every_bv4_pair() {
        use crate::interp::eval_expr;
        for op in
            [BinOp::SLt, BinOp::SLe, BinOp::SGt, BinOp::SGe, BinOp::SDiv, BinOp::SRem, BinOp::AShr]
        {
            for a in 0..16u128 {
                for b in 0..16u128 {
                    let e = Expr::binary(op, Expr::bv(a, 4), Expr::bv(b, 4));
                    let z3 = term_value(&encode(&e, &x_int).simplify(), &e.ty);
                    assert_eq!(z3, eval_expr(&e, &[]).ok(), "{op:?} {a} {b}");
                }
            }
        }
        let e = Expr {
            kind: ExprKind::Unary(UnOp::BvToInt, Box::new(Expr::bv(200, 8))),
            ty: Type::Int,
        };
        assert_eq!(term_value(&encode(&e, &x_int).simplify(), &Type::Int), Some(Value::int(200)));
    }

    #[test]
    fn strings_round_trip_and_concatenate() {
        for text in ["", "ab", "a\\b\"", " ~"] {
            let v = Value::Str { value: text.to_string() };
            assert_eq!(term_value(&value_term(&v).simplify(), &Type::Str), Some(v.clone()));
            let len =
                Expr { kind: ExprKind::Unary(UnOp::StrLen, Box::new(lit(text))), ty: Type::Int };
            let got = term_value(&encode(&len, &x_int).simplify(), &Type::Int);
            assert_eq!(got, Some(Value::int(text.len() as i64)), "len of {text:?}");
        }
        let cat = Expr::binary(BinOp::Concat, lit("a\\"), lit("\"b"));
        let got = term_value(&encode(&cat, &x_int).simplify(), &Type::Str);
        assert_eq!(got, Some(Value::Str { value: "a\\\"b".to_string() }));
    }

    fn lit(s: &str) -> Expr {
        Expr { kind: ExprKind::Str(s.to_string()), ty: Type::Str }
    }

    #[test]
    fn values_round_trip_through_terms() {
        let mut arr = Value::default_of(&Type::Array(Box::new(Type::Bv(4))));
        arr.store(BigInt::from(3), Value::bv(9, 4));
        arr.store(BigInt::from(-2), Value::bv(1, 4));
        for (v, ty) in [
            (Value::int(-12345678901234567890i128), Type::Int),
            (Value::bool(true), Type::Bool),
            (Value::bv(0xdead_beef_dead_beef_1234, 80), Type::Bv(80)),
            (arr, Type::Array(Box::new(Type::Bv(4)))),
        ] {
            let t = value_term(&v).simplify();
            assert_eq!(term_value(&t, &ty), Some(v));
        }
    }
}
