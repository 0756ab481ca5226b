//! The lowerer's C types (`CTy`) and how a value of one is spread over IR variables:
//! Burstall–Bornat field splitting. A scalar is one IR variable; a `struct` is one IR
//! variable per scalar leaf (`s.a`, `s.b.c`); a pointer is two, its object (`p`, 0 for
//! `NULL`) and its element offset (`p.off`, a `long`); an array adds one IR array
//! dimension to each leaf of its element type (an array of structs is one IR array per
//! leaf field). Arrays in structs are IR arrays; arrays of arrays nest.

use super::{unsupported_type, Context};
use crate::c::ast::{self, RecordKind, Type};
use crate::c::consts;
use crate::ir::c::CScalar;
use num_traits::ToPrimitive;
use std::ops::Range;

/// A C type as the lowerer reads it: typedefs and enums resolved, qualifiers dropped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CTy {
    Void,
    Scalar(CScalar),
    /// A pointer to objects of the type (`Void`: `void *`).
    Ptr(Box<CTy>),
    /// A `struct` of the file's table (`ast::RecordId`'s index).
    Struct(u32),
    /// An array: its element type and its number of elements when a constant says it.
    Array(Box<CTy>, Option<u64>),
}

/// One scalar of a type's layout: the path that names it under the variable (`""`, `.a`,
/// `.b.c`, `.off`), its C scalar, and how many array dimensions hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    pub path: String,
    pub scalar: CScalar,
    pub dims: u32,
}

/// The C scalar that holds a pointer's object (0 is `NULL`).
pub const TAG: CScalar = CScalar::Int;
/// The C scalar that holds a pointer's element offset (`ptrdiff_t`).
pub const OFF: CScalar = CScalar::Long;

impl CTy {
    pub fn is_scalar(&self) -> bool {
        matches!(self, CTy::Scalar(_))
    }

    pub fn pointee(&self) -> Option<&CTy> {
        match self {
            CTy::Ptr(t) => Some(t),
            _ => None,
        }
    }

    /// The element type of an array.
    pub fn elem(&self) -> Option<&CTy> {
        match self {
            CTy::Array(e, _) => Some(e),
            _ => None,
        }
    }

    /// Whether values of the type are only ever scalars, pointers and structs of those
    /// (no arrays anywhere inside): what the IR can hold in plain variables.
    pub fn has_array(&self, cx: &Context) -> bool {
        match self {
            CTy::Array(..) => true,
            CTy::Struct(id) => {
                record_members(cx, *id).is_some_and(|ms| ms.iter().any(|(_, t)| t.has_array(cx)))
            }
            _ => false,
        }
    }
}

/// The named members of struct `id` in order, with their types (`None`: incomplete, or a
/// member forex does not read; lowering reports it where the struct is used).
pub fn record_members(cx: &Context, id: u32) -> Option<Vec<(String, CTy)>> {
    let r = cx.file.records.get(id as usize)?;
    let mut out = Vec::new();
    for m in r.members.as_ref()? {
        if m.bits.is_some() {
            return None;
        }
        let t = cty(cx, &m.ty).ok()?;
        match &m.name {
            Some(n) => out.push((n.name.clone(), t)),
            // C11 anonymous struct: its members are the enclosing struct's.
            None => match t {
                CTy::Struct(inner) => out.extend(record_members(cx, inner)?),
                _ => return None,
            },
        }
    }
    Some(out)
}

/// Why struct `id` cannot be held by value (incomplete, a bit-field, a member of a type
/// forex does not read), as a message.
pub fn record_problem(cx: &Context, id: u32) -> Option<String> {
    let r = cx.file.records.get(id as usize)?;
    let name = match &r.tag {
        Some(t) => format!("`struct {t}`"),
        None => "this struct".into(),
    };
    let Some(members) = &r.members else {
        return Some(format!("{name} is incomplete (declared, never defined)"));
    };
    for m in members {
        if m.bits.is_some() {
            return Some("bit-fields are not supported".into());
        }
        if let Err((what, _)) = cty(cx, &m.ty) {
            return Some(what);
        }
        if m.name.is_none() && !matches!(cty(cx, &m.ty), Ok(CTy::Struct(_))) {
            return Some("anonymous members other than structs are not supported".into());
        }
        if let Ok(CTy::Struct(inner)) = cty(cx, &m.ty) {
            if inner != id {
                if let Some(p) = record_problem(cx, inner) {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// The lowerer's type of a C type, or what forex does not read in it (and whether that
/// is written in the declarator rather than the type words).
pub fn cty(cx: &Context, t: &Type) -> Result<CTy, (String, bool)> {
    match t {
        Type::Void => Ok(CTy::Void),
        Type::Int(k) => Ok(CTy::Scalar(k.scalar())),
        Type::Enum(_) => Ok(CTy::Scalar(consts::scalar_of(t, cx.tables()).unwrap_or(CScalar::Int))),
        Type::Pointer(p) => match &**p {
            Type::Function(_) => Err(("function pointers are not supported".into(), true)),
            inner => Ok(CTy::Ptr(Box::new(pointee(cx, inner)?))),
        },
        Type::Array(e, n) => {
            let elem = cty(cx, e)?;
            if matches!(elem, CTy::Void) {
                return Err(("arrays of `void` are not C".into(), true));
            }
            let len = n
                .as_ref()
                .and_then(|n| consts::eval(n, cx.tables(), &|_| None))
                .and_then(|(v, _)| v.to_u64());
            Ok(CTy::Array(Box::new(elem), len))
        }
        Type::Record(id) => match cx.file.records.get(id.0 as usize).map(|r| r.kind) {
            Some(RecordKind::Struct) => Ok(CTy::Struct(id.0)),
            _ => Err((unsupported_type(t, cx.file), false)),
        },
        Type::Float(ast::FloatKind::Float) => Ok(CTy::Scalar(CScalar::Float)),
        Type::Float(ast::FloatKind::Double) => Ok(CTy::Scalar(CScalar::Double)),
        Type::Float(_) | Type::Function(_) | Type::Other(_) => {
            Err((unsupported_type(t, cx.file), matches!(t, Type::Function(_))))
        }
    }
}

/// A pointer's target type: like [`cty`], but a `struct` may be incomplete (an opaque
/// handle) and unions are named as what they are.
fn pointee(cx: &Context, t: &Type) -> Result<CTy, (String, bool)> {
    match t {
        Type::Record(id) => match cx.file.records.get(id.0 as usize).map(|r| r.kind) {
            Some(RecordKind::Struct) => Ok(CTy::Struct(id.0)),
            _ => Err(("pointers to unions are not supported (`union` types are not)".into(), true)),
        },
        Type::Float(_) | Type::Other(_) => Err((unsupported_type(t, cx.file), false)),
        t => cty(cx, t),
    }
}

/// The leaves of a type in layout order (`None`: an incomplete or unreadable struct
/// inside, or `void`).
pub fn leaves(cx: &Context, t: &CTy) -> Option<Vec<Leaf>> {
    let mut out = Vec::new();
    push_leaves(cx, t, "", 0, &mut out, 0)?;
    Some(out)
}

fn push_leaves(
    cx: &Context,
    t: &CTy,
    path: &str,
    dims: u32,
    out: &mut Vec<Leaf>,
    depth: u32,
) -> Option<()> {
    // A struct that holds itself by value is not C; stop rather than recurse forever.
    if depth > 64 {
        return None;
    }
    match t {
        CTy::Void => return None,
        CTy::Scalar(s) => out.push(Leaf { path: path.to_string(), scalar: *s, dims }),
        CTy::Ptr(_) => {
            out.push(Leaf { path: path.to_string(), scalar: TAG, dims });
            out.push(Leaf { path: format!("{path}.off"), scalar: OFF, dims });
        }
        CTy::Struct(id) => {
            for (name, mt) in record_members(cx, *id)? {
                push_leaves(cx, &mt, &format!("{path}.{name}"), dims, out, depth + 1)?;
            }
        }
        CTy::Array(e, _) => push_leaves(cx, e, path, dims + 1, out, depth + 1)?,
    }
    Some(())
}

/// How many leaves a type has.
pub fn leaf_count(cx: &Context, t: &CTy) -> Option<usize> {
    leaves(cx, t).map(|l| l.len())
}

/// Member `name` of struct `id`: its type and the range of its leaves among the struct's.
pub fn member(cx: &Context, id: u32, name: &str) -> Option<(CTy, Range<usize>)> {
    let mut start = 0;
    for (n, t) in record_members(cx, id)? {
        let k = leaf_count(cx, &t)?;
        if n == name {
            return Some((t, start..start + k));
        }
        start += k;
    }
    None
}

/// Size in bytes under LP64 (`sizeof`), `None` for incomplete types and `void`.
pub fn size_of(cx: &Context, t: &CTy) -> Option<u64> {
    match t {
        CTy::Void => None,
        CTy::Scalar(s) => Some(match s {
            CScalar::Bool | CScalar::Char | CScalar::UChar => 1,
            CScalar::Short | CScalar::UShort => 2,
            CScalar::Int | CScalar::UInt => 4,
            CScalar::Long | CScalar::ULong => 8,
            CScalar::Float => 4,
            CScalar::Double => 8,
        }),
        CTy::Ptr(_) => Some(8),
        CTy::Struct(id) => {
            consts::size_align(&Type::Record(ast::RecordId(*id)), cx.tables()).map(|(n, _)| n)
        }
        CTy::Array(e, n) => size_of(cx, e)?.checked_mul((*n)?),
    }
}

/// The type as C spells it, for messages (`int *`, `struct acc`, `int[4]`).
pub fn spell(cx: &Context, t: &CTy) -> String {
    match t {
        CTy::Void => "void".into(),
        CTy::Scalar(s) => s.c_name().into(),
        CTy::Ptr(p) => format!("{} *", spell(cx, p)),
        CTy::Struct(id) => match cx.file.records.get(*id as usize).and_then(|r| r.tag.clone()) {
            Some(tag) => format!("struct {tag}"),
            None => "struct (anonymous)".into(),
        },
        CTy::Array(e, n) => match n {
            Some(n) => format!("{}[{n}]", spell(cx, e)),
            None => format!("{}[]", spell(cx, e)),
        },
    }
}
