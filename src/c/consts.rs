//! Integer constant expressions (enum values, array sizes, `case` labels) evaluated with
//! C's types under LP64, and the LP64 sizes and alignments of types (`sizeof`): what gcc
//! computes on x86-64, written once for the parser and the lowerer.

use super::ast::*;
use super::types::{common, promote};
use crate::ir::c::CScalar;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The records and enums that types refer to.
#[derive(Clone, Copy)]
pub struct Tables<'a> {
    pub records: &'a [Record],
    pub enums: &'a [EnumDef],
}

/// `v` reduced into the range of `t` (two's complement wrapping).
pub fn wrap(v: &BigInt, t: CScalar) -> BigInt {
    if t == CScalar::Bool {
        return BigInt::from(u8::from(!v.is_zero()));
    }
    let w = t.bits();
    let m = BigInt::one() << w;
    let r = ((v % &m) + &m) % &m;
    if t.is_signed() && r >= (BigInt::one() << (w - 1)) {
        r - m
    } else {
        r
    }
}

/// Whether `v` is a value of `t`.
pub fn fits(v: &BigInt, t: CScalar) -> bool {
    &wrap(v, t) == v
}

/// The value and type of a constant expression; `sizeof_expr` gives the size of an
/// expression's type where one is asked (`None`: not a constant).
pub fn eval(
    e: &Expr,
    tables: Tables,
    sizeof_expr: &dyn Fn(&Expr) -> Option<u64>,
) -> Option<(BigInt, CScalar)> {
    use BinaryOp as B;
    let go = |e: &Expr| eval(e, tables, sizeof_expr);
    let size = |n: u64| Some((BigInt::from(n), CScalar::ULong));
    match &e.kind {
        ExprKind::Int(v, t) => Some((v.clone(), *t)),
        ExprKind::Bool(b) => Some((BigInt::from(u8::from(*b)), CScalar::Int)),
        ExprKind::SizeofType(t) => size(size_align(t, tables)?.0),
        ExprKind::AlignofType(t) => size(size_align(t, tables)?.1),
        ExprKind::SizeofExpr(a) => size(sizeof_expr(a)?),
        ExprKind::Cast(t, a) => {
            let (v, _) = go(a)?;
            let s = scalar_of(t, tables)?;
            Some((wrap(&v, s), s))
        }
        ExprKind::Unary(op, a) => {
            let (v, t) = go(a)?;
            let t = promote(t);
            Some(match op {
                UnaryOp::Plus => (v, t),
                UnaryOp::Neg => (wrap(&-v, t), t),
                UnaryOp::BitNot => (wrap(&(-v - 1), t), t),
                UnaryOp::Not => (BigInt::from(u8::from(v.is_zero())), CScalar::Int),
                UnaryOp::AddrOf | UnaryOp::Deref => return None,
            })
        }
        ExprKind::Binary(B::And, a, b) => {
            let (x, _) = go(a)?;
            let r = !x.is_zero() && !go(b)?.0.is_zero();
            Some((BigInt::from(u8::from(r)), CScalar::Int))
        }
        ExprKind::Binary(B::Or, a, b) => {
            let (x, _) = go(a)?;
            let r = !x.is_zero() || !go(b)?.0.is_zero();
            Some((BigInt::from(u8::from(r)), CScalar::Int))
        }
        ExprKind::Binary(op, a, b) => {
            let (x, tx) = go(a)?;
            let (y, ty) = go(b)?;
            if matches!(op, B::Shl | B::Shr) {
                let t = promote(tx);
                let n = y.to_u32().filter(|n| *n < t.bits())?;
                let x = wrap(&x, t);
                let r = if *op == B::Shl { x << n } else { x >> n };
                return Some((wrap(&r, t), t));
            }
            let t = common(tx, ty);
            let (x, y) = (wrap(&x, t), wrap(&y, t));
            let truth = |b: bool| Some((BigInt::from(u8::from(b)), CScalar::Int));
            let r = match op {
                B::Add => x + y,
                B::Sub => x - y,
                B::Mul => x * y,
                B::Div | B::Mod => {
                    if y.is_zero() {
                        return None;
                    }
                    // Truncation toward zero, as C.
                    let q = (x.abs() / y.abs())
                        * if x.is_negative() != y.is_negative() { -1 } else { 1 };
                    if *op == B::Div {
                        q
                    } else {
                        x - y * q
                    }
                }
                B::Lt => return truth(x < y),
                B::Le => return truth(x <= y),
                B::Gt => return truth(x > y),
                B::Ge => return truth(x >= y),
                B::Eq => return truth(x == y),
                B::Ne => return truth(x != y),
                B::BitAnd => x & y,
                B::BitOr => x | y,
                B::BitXor => x ^ y,
                _ => return None,
            };
            Some((wrap(&r, t), t))
        }
        ExprKind::Cond(c, a, b) => {
            let (v, _) = go(c)?;
            let (x, tx) = go(a)?;
            let (y, ty) = go(b)?;
            let t = common(tx, ty);
            Some(if v.is_zero() { (wrap(&y, t), t) } else { (wrap(&x, t), t) })
        }
        ExprKind::Comma(_, b) => go(b),
        _ => None,
    }
}

/// The scalar an integer (or enum) type is held in.
pub fn scalar_of(t: &Type, tables: Tables) -> Option<CScalar> {
    match t {
        Type::Int(k) => Some(k.scalar()),
        Type::Enum(id) => tables.enums.get(id.0 as usize).map(|e| e.repr.scalar()),
        _ => None,
    }
}

/// Size and alignment in bytes under LP64 (`None`: incomplete or not an object type).
pub fn size_align(t: &Type, tables: Tables) -> Option<(u64, u64)> {
    match t {
        // GNU C: `sizeof (void)` and of a function are 1.
        Type::Void | Type::Function(_) => Some((1, 1)),
        Type::Int(k) => {
            let n = match k.scalar() {
                CScalar::Bool | CScalar::Char | CScalar::UChar => 1,
                CScalar::Short | CScalar::UShort => 2,
                CScalar::Int | CScalar::UInt => 4,
                CScalar::Long | CScalar::ULong | CScalar::Double => 8,
                CScalar::Float => 4,
            };
            Some((n, n))
        }
        Type::Float(FloatKind::Float) => Some((4, 4)),
        Type::Float(FloatKind::Double) => Some((8, 8)),
        Type::Float(FloatKind::LongDouble) => Some((16, 16)),
        Type::Pointer(_) => Some((8, 8)),
        Type::Array(elem, n) => {
            let (s, a) = size_align(elem, tables)?;
            let n = eval(n.as_ref()?, tables, &|_| None)?.0.to_u64()?;
            Some((s.checked_mul(n)?, a))
        }
        Type::Enum(id) => size_align(&Type::Int(tables.enums.get(id.0 as usize)?.repr), tables),
        Type::Record(id) => record_layout(tables.records.get(id.0 as usize)?, tables),
        Type::Other(_) => None,
    }
}

/// A struct's members laid out in order (bit-fields packed into units of their type, as
/// the x86-64 System V ABI does), a union's over each other; the size rounded up to the
/// alignment.
fn record_layout(r: &Record, tables: Tables) -> Option<(u64, u64)> {
    let members = r.members.as_ref()?;
    let mut bits: u64 = 0;
    let mut align: u64 = 1;
    let mut size: u64 = 0;
    for m in members {
        let (s, a) = size_align(&m.ty, tables)?;
        let width = match &m.bits {
            Some(w) => Some(eval(w, tables, &|_| None)?.0.to_u64()?),
            None => None,
        };
        match (r.kind, width) {
            (RecordKind::Union, w) => {
                size = size.max(w.map_or(s, |w| w.div_ceil(8)));
                align = align.max(a);
            }
            (RecordKind::Struct, None) => {
                let start = bits.div_ceil(8).next_multiple_of(a);
                bits = (start + s) * 8;
                align = align.max(a);
            }
            (RecordKind::Struct, Some(0)) => bits = bits.next_multiple_of(a * 8),
            (RecordKind::Struct, Some(w)) => {
                let unit = s * 8;
                if bits / unit != (bits + w - 1) / unit {
                    bits = bits.next_multiple_of(unit);
                }
                bits += w;
                if m.name.is_some() {
                    align = align.max(a);
                }
            }
        }
    }
    if r.kind == RecordKind::Struct {
        size = bits.div_ceil(8);
    }
    Some((size.next_multiple_of(align), align))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> Expr {
        Expr { kind: ExprKind::Int(BigInt::from(v), CScalar::Int), span: 0..0 }
    }

    fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), span: 0..0 }
    }

    #[test]
    fn constants_follow_c_types() {
        let t = Tables { records: &[], enums: &[] };
        let none = |_: &Expr| None;
        assert_eq!(eval(&bin(BinaryOp::Div, int(-7), int(2)), t, &none).unwrap().0, (-3).into());
        let minus_one_u =
            Expr { kind: ExprKind::Cast(Type::Int(IntKind::UInt), Box::new(int(-1))), span: 0..0 };
        assert_eq!(eval(&minus_one_u, t, &none).unwrap().0, 4294967295u32.into());
        assert_eq!(
            eval(&bin(BinaryOp::Shl, int(1), int(31)), t, &none).unwrap().0,
            i32::MIN.into()
        );
        assert!(eval(&bin(BinaryOp::Mod, int(1), int(0)), t, &none).is_none());
    }

    #[test]
    fn struct_layouts_are_lp64() {
        let m = |ty: Type, bits: Option<i64>| Member {
            name: Some(Ident { name: "m".into(), span: 0..0 }),
            ty,
            bits: bits.map(int),
            span: 0..0,
        };
        let r = Record {
            kind: RecordKind::Struct,
            tag: None,
            members: Some(vec![
                m(Type::Int(IntKind::Char), None),
                m(Type::Int(IntKind::Long), None),
                m(Type::Int(IntKind::UInt), Some(3)),
                m(Type::Int(IntKind::UInt), Some(30)),
            ]),
            span: 0..0,
        };
        let t = Tables { records: std::slice::from_ref(&r), enums: &[] };
        assert_eq!(size_align(&Type::Record(RecordId(0)), t), Some((24, 8)));
        let arr = Type::Array(Box::new(Type::Int(IntKind::Short)), Some(Box::new(int(5))));
        assert_eq!(size_align(&arr, t), Some((10, 2)));
    }
}
