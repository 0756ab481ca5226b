//! Declarations: C's type words folded into one scalar type, declarators (arrays,
//! and the pointers outside the subset), and the file's functions and prototypes.

use super::{span, Builder};
use crate::c::ast::*;
use crate::ir::c::CScalar;
use crate::syntax::Rule;
use pest::iterators::Pair;

impl Builder<'_> {
    /// The scalar type named by `c_type` (`None` after a diagnostic); `Ok(None)` is `void`.
    pub fn base_type(&mut self, p: Pair<Rule>) -> Option<Option<CScalar>> {
        let sp = span(&p);
        let (
            mut unsigned,
            mut signed,
            mut char_,
            mut short,
            mut int,
            mut long,
            mut bool_,
            mut void,
        ) = (false, false, false, false, false, 0, false, false);
        for w in p.into_inner() {
            match w.as_rule() {
                Rule::c_tagged => {
                    let kw = w.clone().into_inner().next().map(|k| k.as_str().to_string());
                    let kw = kw.unwrap_or_else(|| "struct".into());
                    let what = match kw.as_str() {
                        "enum" => "`enum` types are",
                        "union" => "`union` types are",
                        _ => "`struct` types are",
                    };
                    self.unsupported(what, span(&w));
                    return None;
                }
                _ => match w.as_str() {
                    "unsigned" => unsigned = true,
                    "signed" => signed = true,
                    "char" => char_ = true,
                    "short" => short = true,
                    "int" => int = true,
                    "long" => long += 1,
                    "_Bool" | "bool" => bool_ = true,
                    "void" => void = true,
                    "float" | "double" => {
                        self.unsupported("floating point is", span(&w));
                        return None;
                    }
                    // Qualifiers and storage classes do not change the values.
                    _ => {}
                },
            }
        }
        let sign_words = unsigned || signed;
        let bad = |b: &mut Self| {
            b.error("this combination of type words is not a C type", sp.clone(), "not a type");
            None
        };
        if void {
            if sign_words || char_ || short || int || long > 0 || bool_ {
                return bad(self);
            }
            return Some(None);
        }
        if bool_ {
            if sign_words || char_ || short || int || long > 0 {
                return bad(self);
            }
            return Some(Some(CScalar::Bool));
        }
        if unsigned && signed || (char_ as u8 + short as u8 + (long > 0) as u8) > 1 || long > 2 {
            return bad(self);
        }
        if char_ && int {
            return bad(self);
        }
        let ty = if char_ {
            if unsigned {
                CScalar::UChar
            } else {
                CScalar::Char
            }
        } else if short {
            if unsigned {
                CScalar::UShort
            } else {
                CScalar::Short
            }
        } else if long > 0 {
            if unsigned {
                CScalar::ULong
            } else {
                CScalar::Long
            }
        } else if int || sign_words {
            if unsigned {
                CScalar::UInt
            } else {
                CScalar::Int
            }
        } else {
            return bad(self);
        };
        Some(Some(ty))
    }

    /// A declarator over base type `base`: the name and the declared type.
    pub(super) fn declarator(
        &mut self,
        p: Pair<Rule>,
        base: Option<CScalar>,
        base_span: &Span,
    ) -> Option<(Ident, DeclTy)> {
        let mut name = None;
        let mut dims = Vec::new();
        let mut ok = true;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::c_ptr => {
                    self.unsupported("pointers are", span(&q));
                    ok = false;
                }
                Rule::c_fnptr => {
                    self.unsupported("function pointers are", span(&q));
                    ok = false;
                }
                Rule::c_ident => name = Some(Ident { name: q.as_str().into(), span: span(&q) }),
                Rule::c_dim => {
                    let d = q.clone().into_inner().next().map(|e| self.expr(e));
                    match d {
                        Some(None) => ok = false,
                        Some(Some(e)) => dims.push(Some(e)),
                        None => dims.push(None),
                    }
                    if dims.len() == 3 {
                        self.unsupported("arrays of more than two dimensions are", span(&q));
                        ok = false;
                    }
                }
                _ => {}
            }
        }
        let name = name?;
        if !ok {
            return None;
        }
        let ty = match (base, dims.is_empty()) {
            (None, _) => {
                self.error(
                    format!("`{}` is declared `void`", name.name),
                    base_span.clone(),
                    "a variable needs a value type",
                );
                return None;
            }
            (Some(s), true) => DeclTy::Scalar(s),
            (Some(s), false) => DeclTy::Array(s, dims),
        };
        Some((name, ty))
    }

    // ------------------------------------------------------------ top level

    pub fn file(&mut self, p: Pair<Rule>) -> Vec<Function> {
        let mut out = Vec::new();
        for item in p.into_inner() {
            match item.as_rule() {
                Rule::c_function | Rule::c_prototype => {
                    if let Some(f) = self.function(item) {
                        out.push(f);
                    }
                }
                Rule::c_global => {
                    let sp = span(&item);
                    let mut inner = item.into_inner();
                    let ty = inner.next().and_then(|t| self.base_type(t));
                    if ty.is_some() && inner.next().is_some() {
                        self.unsupported("global variables are", sp);
                    }
                }
                Rule::c_typedef => self.unsupported("`typedef` is", span(&item)),
                _ => {}
            }
        }
        out
    }

    fn function(&mut self, p: Pair<Rule>) -> Option<Function> {
        let sp = span(&p);
        let is_def = p.as_rule() == Rule::c_function;
        let mut inner = p.into_inner();
        let ty_pair = inner.next()?;
        let ty_span = span(&ty_pair);
        let mut rest: Vec<Pair<Rule>> = inner.collect();
        let mut pointer = false;
        while rest.first().map(|q| q.as_rule()) == Some(Rule::c_ptr) {
            let q = rest.remove(0);
            self.unsupported("pointers are", span(&q));
            pointer = true;
        }
        let name_pair = rest.remove(0);
        let name = Ident { name: name_pair.as_str().to_string(), span: span(&name_pair) };
        self.items.push((name.name.clone(), sp.clone()));
        // The test harness of the Elaenia tool: skipped, whatever it contains.
        if name.name.starts_with('_') {
            return None;
        }
        let ret = self.base_type(ty_pair);
        let params_pair = rest.remove(0);
        let mut params = Vec::new();
        let mut ok = ret.is_some() && !pointer;
        let list: Vec<Pair<Rule>> = params_pair.into_inner().collect();
        let only_void = list.len() == 1 && list[0].as_str().trim() == "void";
        for (k, prm) in list.into_iter().enumerate() {
            if only_void {
                break;
            }
            let psp = span(&prm);
            let mut pi = prm.into_inner();
            let first = pi.next()?;
            if first.as_rule() == Rule::c_ellipsis {
                self.unsupported("variadic functions (`...`) are", psp);
                ok = false;
                continue;
            }
            let base = self.base_type(first);
            let Some(base) = base else {
                ok = false;
                continue;
            };
            match pi.next() {
                Some(d) => match self.declarator(d, base, &psp) {
                    Some((n, t)) => params.push(Param { name: n, ty: t }),
                    None => ok = false,
                },
                None => match base {
                    Some(s) => params.push(Param {
                        name: Ident { name: format!("arg{}", k + 1), span: psp },
                        ty: DeclTy::Scalar(s),
                    }),
                    None => ok = false,
                },
            }
        }
        let body = if is_def {
            self.current_fn = Some(name.name.clone());
            let b = rest.pop().map(|b| self.block(b));
            self.current_fn = None;
            match b {
                Some(Some(b)) => Some(b),
                _ => {
                    ok = false;
                    None
                }
            }
        } else {
            None
        };
        let ret = match ret {
            Some(None) => DeclTy::Void,
            Some(Some(s)) => DeclTy::Scalar(s),
            None => DeclTy::Void,
        };
        let _ = ty_span;
        ok.then_some(Function { name, ret, params, body, span: sp })
    }
}
