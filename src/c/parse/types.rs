//! Types: declaration specifiers folded into a base type (`unsigned long`, a typedef
//! name, a `struct` defined or referred to by its tag, an `enum` with its constants'
//! values), and declarators applied to it (pointers, arrays, functions), as C reads them.

use super::{Converter, Ordinary, Tag};
use crate::c::ast::*;
use crate::c::consts::{eval, fits};
use crate::diag::Diagnostic;
use crate::ir::c::CScalar;
use lang_c::ast as lc;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// A declaration's specifiers, read.
pub(super) struct Base {
    pub ty: Type,
    pub storage: Storage,
    pub typedef: bool,
    /// From the first specifier to the last.
    pub span: Span,
}

/// A declarator applied to a base type.
pub(super) struct Declared {
    pub name: Option<Ident>,
    pub ty: Type,
    /// The parameters of the function declarator closest to the name, if any.
    pub params: Option<(Vec<Param>, bool)>,
}

impl Converter<'_> {
    pub(super) fn base_decl(&mut self, specs: &[Node<lc::DeclarationSpecifier>]) -> Base {
        let mut words = Vec::new();
        let mut storage = Storage::Auto;
        let mut typedef = false;
        for s in specs {
            match &s.node {
                lc::DeclarationSpecifier::TypeSpecifier(t) => words.push(t),
                lc::DeclarationSpecifier::StorageClass(c) => match c.node {
                    lc::StorageClassSpecifier::Typedef => typedef = true,
                    lc::StorageClassSpecifier::Extern => storage = Storage::Extern,
                    lc::StorageClassSpecifier::Static => storage = Storage::Static,
                    lc::StorageClassSpecifier::ThreadLocal => storage = Storage::ThreadLocal,
                    lc::StorageClassSpecifier::Auto | lc::StorageClassSpecifier::Register => {}
                },
                _ => {}
            }
        }
        let span = self.specs_span(specs.iter().map(|s| s.span));
        Base { ty: self.type_words(&words), storage, typedef, span }
    }

    pub(super) fn base_qual(&mut self, specs: &[Node<lc::SpecifierQualifier>]) -> Base {
        let words: Vec<&Node<lc::TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                lc::SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        let span = self.specs_span(specs.iter().map(|s| s.span));
        Base { ty: self.type_words(&words), storage: Storage::Auto, typedef: false, span }
    }

    fn specs_span(&self, mut spans: impl Iterator<Item = lang_c::span::Span>) -> Span {
        let Some(first) = spans.next() else { return 0..0 };
        let last = spans.last().unwrap_or(first);
        let a = self.sp(first);
        let b = self.sp(last);
        if b.end >= a.start {
            a.start..b.end
        } else {
            a
        }
    }

    /// C's type words (C11 6.7.2) as one type.
    fn type_words(&mut self, words: &[&Node<lc::TypeSpecifier>]) -> Type {
        use lc::TypeSpecifier as T;
        let (mut signed, mut unsigned, mut short, mut long, mut int) =
            (false, false, false, 0, false);
        let (mut char_, mut float, mut double, mut complex, mut void, mut bool_) =
            (false, false, false, false, false, false);
        let mut named: Option<Type> = None;
        for w in words {
            match &w.node {
                T::Void => void = true,
                T::Char => char_ = true,
                T::Short => short = true,
                T::Int => int = true,
                T::Long => long += 1,
                T::Float => float = true,
                T::Double => double = true,
                T::Signed => signed = true,
                T::Unsigned => unsigned = true,
                T::Bool => bool_ = true,
                T::Complex => complex = true,
                T::Atomic(_) => named = Some(Type::Other("`_Atomic` types".into())),
                T::Struct(s) => named = Some(self.record(s)),
                T::Enum(e) => named = Some(self.enumeration(e)),
                T::TypedefName(n) => {
                    named = Some(match self.lookup(&n.node.name) {
                        Some(Ordinary::Typedef(t)) => t.clone(),
                        _ => Type::Other(format!("the type `{}`", n.node.name)),
                    })
                }
                T::TypeOf(_) => named = Some(Type::Other("`typeof`".into())),
                T::TS18661Float(f) => named = Some(Type::Other(format!("`_Float{}`", f.width))),
            }
        }
        if let Some(t) = named {
            return t;
        }
        if complex {
            return Type::Other("`_Complex` numbers".into());
        }
        if void {
            return Type::Void;
        }
        if bool_ {
            return Type::Int(IntKind::Bool);
        }
        if float {
            return Type::Float(FloatKind::Float);
        }
        if double {
            return Type::Float(if long > 0 { FloatKind::LongDouble } else { FloatKind::Double });
        }
        let _ = int;
        Type::Int(match (char_, short, long, unsigned) {
            (true, _, _, true) => IntKind::UChar,
            (true, _, _, false) if signed => IntKind::SChar,
            (true, _, _, false) => IntKind::Char,
            (_, true, _, true) => IntKind::UShort,
            (_, true, _, false) => IntKind::Short,
            (_, _, 1, true) => IntKind::ULong,
            (_, _, 1, false) => IntKind::Long,
            (_, _, n, true) if n > 1 => IntKind::ULongLong,
            (_, _, n, false) if n > 1 => IntKind::LongLong,
            (_, _, _, true) => IntKind::UInt,
            _ => IntKind::Int,
        })
    }

    /// A `struct`/`union` specifier: its definition (a new record in this scope, or the
    /// completion of one declared here) or a reference by tag.
    fn record(&mut self, s: &Node<lc::StructType>) -> Type {
        let kind = match s.node.kind.node {
            lc::StructKind::Struct => RecordKind::Struct,
            lc::StructKind::Union => RecordKind::Union,
        };
        let tag = s.node.identifier.as_ref().map(|i| i.node.name.clone());
        let span = self.sp(s.span);
        let existing = tag.as_ref().and_then(|t| {
            let here = self.scopes.last().and_then(|sc| sc.tags.get(t).copied());
            let visible = if s.node.declarations.is_some() { here } else { self.lookup_tag(t) };
            match visible {
                Some(Tag::Record(id)) => Some(id),
                _ => None,
            }
        });
        let id = match existing {
            Some(id) if s.node.declarations.is_none() => return Type::Record(id),
            Some(id) if self.file.records[id.0 as usize].members.is_none() => id,
            _ => {
                let id = RecordId(self.file.records.len() as u32);
                self.file.records.push(Record {
                    kind,
                    tag: tag.clone(),
                    members: None,
                    span: span.clone(),
                });
                if let (Some(t), Some(sc)) = (&tag, self.scopes.last_mut()) {
                    sc.tags.insert(t.clone(), Tag::Record(id));
                }
                id
            }
        };
        if let Some(decls) = &s.node.declarations {
            let mut members = Vec::new();
            for d in decls {
                let lc::StructDeclaration::Field(f) = &d.node else { continue };
                let base = self.base_qual(&f.node.specifiers);
                if f.node.declarators.is_empty() {
                    let span = self.sp(f.span);
                    members.push(Member { name: None, ty: base.ty.clone(), bits: None, span });
                }
                for sd in &f.node.declarators {
                    let (name, ty) = match &sd.node.declarator {
                        Some(dd) => {
                            let d = self.declarator(base.ty.clone(), dd);
                            (d.name, d.ty)
                        }
                        None => (None, base.ty.clone()),
                    };
                    let bits = sd.node.bit_width.as_ref().map(|w| self.expr(w));
                    members.push(Member { name, ty, bits, span: self.sp(sd.span) });
                }
            }
            let r = &mut self.file.records[id.0 as usize];
            r.members = Some(members);
            r.span = span;
        }
        Type::Record(id)
    }

    /// An `enum` specifier: its constants are declared with their values (C11 6.7.2.2;
    /// the type gcc picks: `unsigned int` unless a value is negative, wider if needed).
    fn enumeration(&mut self, e: &Node<lc::EnumType>) -> Type {
        let tag = e.node.identifier.as_ref().map(|i| i.node.name.clone());
        let span = self.sp(e.span);
        if e.node.enumerators.is_empty() {
            if let Some(Tag::Enum(id)) = tag.as_ref().and_then(|t| self.lookup_tag(t)) {
                return Type::Enum(id);
            }
        }
        let id = EnumId(self.file.enums.len() as u32);
        self.file.enums.push(EnumDef {
            tag: tag.clone(),
            constants: Vec::new(),
            repr: IntKind::UInt,
            span: span.clone(),
        });
        if let (Some(t), Some(sc)) = (&tag, self.scopes.last_mut()) {
            sc.tags.insert(t.clone(), Tag::Enum(id));
        }
        let mut next = BigInt::zero();
        let mut constants = Vec::new();
        for en in &e.node.enumerators {
            let name = self.ident(&en.node.identifier);
            if let Some(x) = &en.node.expression {
                let ex = self.expr(x);
                match eval(&ex, self.tables(), &|_| None) {
                    Some((v, _)) => next = v,
                    None if self.in_header(x.span) => {}
                    None => self.diags.push(
                        Diagnostic::new(
                            format!("the value of `{}` is not an integer constant", name.name),
                            ex.span.clone(),
                        )
                        .with_label("not a constant"),
                    ),
                }
            }
            let t = if fits(&next, CScalar::Int) { CScalar::Int } else { CScalar::Long };
            self.declare(&name.name, Ordinary::Constant(next.clone(), t));
            constants.push((name, next.clone()));
            next += BigInt::one();
        }
        let negative = constants.iter().any(|(_, v)| v < &BigInt::zero());
        let all = |t: CScalar| constants.iter().all(|(_, v)| fits(v, t));
        let repr = match negative {
            false if all(CScalar::UInt) => IntKind::UInt,
            true if all(CScalar::Int) => IntKind::Int,
            false if all(CScalar::ULong) => IntKind::ULong,
            _ => IntKind::Long,
        };
        // Constants that do not fit `int` take the enum's type (a GNU extension).
        for (n, v) in &constants {
            if !fits(v, CScalar::Int) {
                self.declare(&n.name, Ordinary::Constant(v.clone(), repr.scalar()));
            }
        }
        let def = &mut self.file.enums[id.0 as usize];
        def.constants = constants;
        def.repr = repr;
        Type::Enum(id)
    }

    /// A declarator over `base`: C reads pointers before the suffixes (`*a[3]` is an
    /// array of pointers), suffixes outermost first, then the inner declarator.
    pub(super) fn declarator(&mut self, base: Type, d: &Node<lc::Declarator>) -> Declared {
        let mut params = None;
        let (name, ty) = self.apply(base, &d.node, &mut params);
        Declared { name, ty, params }
    }

    fn apply(
        &mut self,
        mut t: Type,
        d: &lc::Declarator,
        params: &mut Option<(Vec<Param>, bool)>,
    ) -> (Option<Ident>, Type) {
        use lc::DerivedDeclarator as D;
        let split = d
            .derived
            .iter()
            .position(|x| !matches!(x.node, D::Pointer(_)))
            .unwrap_or(d.derived.len());
        for _ in &d.derived[..split] {
            t = Type::Pointer(Box::new(t));
        }
        for x in d.derived[split..].iter().rev() {
            t = match &x.node {
                D::Pointer(_) => Type::Pointer(Box::new(t)),
                D::Block(_) => Type::Other("blocks (`^`)".into()),
                D::Array(a) => {
                    let size = match &a.node.size {
                        lc::ArraySize::VariableExpression(e)
                        | lc::ArraySize::StaticExpression(e) => Some(Box::new(self.expr(e))),
                        lc::ArraySize::Unknown | lc::ArraySize::VariableUnknown => None,
                    };
                    Type::Array(Box::new(t), size)
                }
                D::Function(f) => {
                    let (ps, variadic) = self.params(&f.node);
                    let types = ps.iter().map(|p| p.ty.clone()).collect();
                    *params = Some((ps, variadic));
                    Type::Function(Box::new(FnType { ret: t, params: types, variadic }))
                }
                D::KRFunction(names) => {
                    let ps: Vec<Param> = names
                        .iter()
                        .map(|n| Param {
                            name: self.ident(n),
                            ty: Type::int(),
                            span: self.sp(n.span),
                        })
                        .collect();
                    let types = ps.iter().map(|p| p.ty.clone()).collect();
                    *params = Some((ps, false));
                    Type::Function(Box::new(FnType { ret: t, params: types, variadic: false }))
                }
            };
        }
        match &d.kind.node {
            lc::DeclaratorKind::Identifier(id) => (Some(self.ident(id)), t),
            lc::DeclaratorKind::Abstract => (None, t),
            lc::DeclaratorKind::Declarator(inner) => self.apply(t, &inner.node, params),
        }
    }

    /// A parameter list: each parameter's name (`argK` when unnamed) and type; `(void)`
    /// is no parameter.
    fn params(&mut self, f: &lc::FunctionDeclarator) -> (Vec<Param>, bool) {
        let mut out = Vec::new();
        for (k, p) in f.parameters.iter().enumerate() {
            let base = self.base_decl(&p.node.specifiers);
            let (name, ty) = match &p.node.declarator {
                Some(d) => {
                    let d = self.declarator(base.ty, d);
                    (d.name, d.ty)
                }
                None => (None, base.ty),
            };
            if f.parameters.len() == 1 && name.is_none() && matches!(ty, Type::Void) {
                break;
            }
            // A function parameter is a pointer to a function.
            let ty = match ty {
                Type::Function(_) => Type::Pointer(Box::new(ty)),
                t => t,
            };
            let span = self.sp(p.span);
            let name =
                name.unwrap_or_else(|| Ident { name: format!("arg{}", k + 1), span: span.clone() });
            out.push(Param { name, ty, span });
        }
        (out, f.ellipsis == lc::Ellipsis::Some)
    }

    /// A type name (casts, `sizeof`).
    pub(super) fn type_name(&mut self, t: &Node<lc::TypeName>) -> Type {
        let base = self.base_qual(&t.node.specifiers);
        match &t.node.declarator {
            Some(d) => self.declarator(base.ty, d).ty,
            None => base.ty,
        }
    }
}
