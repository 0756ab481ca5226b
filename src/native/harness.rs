//! The harness: one C file that holds the user's source and replays a counterexample's
//! ∀ runs on the compiled code.
//!
//! Layout of the generated file:
//! 1. the harness's own declarations: the choice queue, `__VERIFIER_nondet_*`,
//!    `__VERIFIER_assume`/`assume`, `_invariant` (a no-op), and per ∀ function the
//!    capture of its scalar parameters' final values;
//! 2. `#define main forex_user_main`, then the user's text after `#line 1 "FILE"` (so cc's
//!    messages point at the user's lines), with one declaration added right after the
//!    `{` of each ∀ function: an array of pointers to its scalar parameters with
//!    `__attribute__((cleanup))`, whose handler copies their values out when the function
//!    returns, by any `return` or by its end (C passes scalars by value: the caller cannot
//!    see them otherwise);
//! 3. `#undef main`, the library functions (uninterpreted: the counterexample's table;
//!    specified: the next recorded choice), one `forex_run_K` per ∀ copy that lays out
//!    its arrays, calls the function and prints what it observed, and `main`.
//!
//! The user's own `main` and `_`-prefixed harness functions (which may call `rand()`)
//! are compiled but never called. Locals are not observable from outside the function:
//! they are listed as unobserved, never compared. A local declared without an initialiser
//! holds whatever C gives it, not the counterexample's initial value.
//!
//! Output lines (parsed back by `super::compare`): `V K VAR VALUE` (scalar or returned
//! value of copy K), `A K VAR INDEX VALUE` (an array element that differs from the final
//! default), `N K COUNT` (choices taken); a run stopped by the harness prints
//! `FOREX-STOP K WHY` and exits with 90.

use super::cint::{self, c_value, differs, has_literal, literal, observe, printf_of, to_c_scalar};
use super::scan;
use crate::ir::c::{CFunction, CInfo, CLibrary, CScalar, CType, IntModel, LibraryModel};
use crate::ir::Tuple;
use crate::value::Value;
use crate::verdict::{CopyRun, Counterexample};
use num_traits::ToPrimitive;
use std::collections::BTreeMap;

/// Exit code of a harness run that the harness itself stopped (false assume, choices
/// used up, a choice out of its type's range).
pub const STOP_EXIT: i32 = 90;

/// Array elements laid out on each side of the indices a counterexample lists.
const ARRAY_PAD: i128 = 1024;
/// Largest array laid out natively (elements).
const MAX_ARRAY: i128 = 1 << 22;

/// A generated harness and what its run must print to agree with the counterexample.
#[derive(Debug)]
pub struct Harness {
    pub text: String,
    pub copies: Vec<CopyExpect>,
    pub model: IntModel,
}

/// What one ∀ copy's native run must show.
#[derive(Debug)]
pub struct CopyExpect {
    /// The copy's name in the tuple.
    pub name: String,
    /// Scalar parameters (final values) and the returned value: variable, type, value.
    pub scalars: Vec<(String, CScalar, i128)>,
    pub arrays: Vec<ArrayExpect>,
    /// Choices the counterexample's run takes.
    pub choices: usize,
    /// Variables of the counterexample the native run cannot show (locals).
    pub unobserved: Vec<String>,
}

/// An array parameter's final contents over the laid-out indices `lo..=hi`.
#[derive(Debug)]
pub struct ArrayExpect {
    pub name: String,
    pub elem: CScalar,
    pub default: i128,
    pub entries: BTreeMap<i128, i128>,
    pub lo: i128,
    pub hi: i128,
}

/// Why no harness was written.
#[derive(Debug)]
pub enum NoHarness {
    /// The tuple or counterexample uses something the harness cannot replay.
    Unsupported(String),
    /// Values of the counterexample that no C integer of their type holds (math model).
    NotRepresentable(Vec<String>),
}

/// The nondeterministic functions of SV-COMP that the harness defines: name, type.
const NONDET: &[(&str, CScalar)] = &[
    ("int", CScalar::Int),
    ("uint", CScalar::UInt),
    ("unsigned", CScalar::UInt),
    ("long", CScalar::Long),
    ("ulong", CScalar::ULong),
    ("short", CScalar::Short),
    ("ushort", CScalar::UShort),
    ("char", CScalar::Char),
    ("uchar", CScalar::UChar),
    ("bool", CScalar::Bool),
];

/// Writes the harness that replays `cex`'s ∀ copies of `tuple` on `source` (the text of
/// the `.c` file `file_name`, whose C facts are `info`).
pub fn write(
    source: &str,
    file_name: &str,
    info: &CInfo,
    tuple: &Tuple,
    cex: &Counterexample,
) -> Result<Harness, NoHarness> {
    let mut unfit = Vec::new();
    let mut w = Writer::default();
    let mut copies = Vec::new();
    let mut functions: Vec<&CFunction> = Vec::new();
    let mut runs = Vec::new();
    for (_, copy) in tuple.forall_copies() {
        let f = info.function(&copy.program).ok_or_else(|| {
            NoHarness::Unsupported(format!(
                "copy {} runs {}, which is no C function of the file",
                copy.name, copy.program
            ))
        })?;
        let run = cex.run_of(&copy.name).map_err(NoHarness::Unsupported)?;
        if !functions.iter().any(|g| g.name == f.name) {
            functions.push(f);
        }
        runs.push((copy, f, run));
    }
    if runs.is_empty() {
        return Err(NoHarness::Unsupported("the tuple has no ∀ copy to run".into()));
    }

    // 1. The harness's declarations.
    w.line("/* Generated by forex: the native replay of a counterexample (forex run --native). */");
    w.line("#include <stdio.h>\n#include <stdlib.h>");
    w.line("struct forex_choice { __int128 value; int width; };");
    w.line("static int forex_copy, forex_nchoices, forex_next;");
    w.line("static const struct forex_choice *forex_choices;");
    w.line(TAKE);
    w.line(cint::FLOAT_BITS);
    for (name, ty) in NONDET {
        w.line(&format!("{} __VERIFIER_nondet_{name}(void);", ty.c_name()));
    }
    w.line("void __VERIFIER_assume(int);\nvoid assume(int);\nvoid _invariant(const char *);");
    for f in &functions {
        let scalars = scalar_params(f);
        if scalars.is_empty() {
            continue;
        }
        let n = scalars.len();
        w.line(&format!("static long long forex_fin_{}[{n}];", f.name));
        w.line(&format!("static void forex_save_{}(void *(*cap)[{n}]) {{", f.name));
        for (i, (_, ty)) in scalars.iter().enumerate() {
            let value = observe(*ty, &format!("*({} *)(*cap)[{i}]", ty.c_name()));
            w.line(&format!("  forex_fin_{}[{i}] = (long long){value};", f.name));
        }
        w.line("}");
    }

    // 2. The user's text, instrumented.
    let mut inserts = Vec::new();
    for f in &functions {
        let scalars = scalar_params(f);
        if scalars.is_empty() {
            continue;
        }
        let at = scan::body_start(source, &f.name, f.line)
            .or_else(|| scan::body_start(source, &f.name, 0))
            .ok_or_else(|| {
                NoHarness::Unsupported(format!("no definition of {} found in the source", f.name))
            })?;
        let ptrs: Vec<String> = scalars.iter().map(|(p, _)| format!("(void *)&{p}")).collect();
        inserts.push((
            at,
            format!(
                " void *forex_cap[{}] __attribute__((cleanup(forex_save_{}))) = {{ {} }};",
                scalars.len(),
                f.name,
                ptrs.join(", ")
            ),
        ));
    }
    inserts.sort_by_key(|i| std::cmp::Reverse(i.0));
    let mut user = source.to_string();
    for (at, text) in inserts {
        user.insert_str(at, &text);
    }
    w.line("#define main forex_user_main");
    w.line(&format!("#line 1 \"{}\"", file_name.replace('\\', "\\\\").replace('"', "\\\"")));
    w.text.push_str(&user);
    if !user.ends_with('\n') {
        w.text.push('\n');
    }
    w.line("#line 1 \"<forex harness>\"\n#undef main");

    // 3. Definitions, libraries, runs.
    w.line(DEFINITIONS);
    for (name, ty) in NONDET {
        let (bits, signed) = (ty.bits(), ty.is_signed() as i32);
        w.line(&format!(
            "{} __VERIFIER_nondet_{name}(void) {{ return ({0})forex_take({bits}, {signed}); }}",
            ty.c_name()
        ));
    }
    for lib in &info.libraries {
        library(&mut w, lib, &runs, &mut unfit)?;
    }
    for (k, (copy, f, run)) in runs.iter().enumerate() {
        copies.push(copy_run(&mut w, k, &copy.name, f, run, &mut unfit)?);
    }
    w.line("int main(void) {");
    for k in 0..runs.len() {
        w.line(&format!("  forex_run_{k}();"));
    }
    w.line("  return 0;\n}");
    if !unfit.is_empty() {
        return Err(NoHarness::NotRepresentable(unfit));
    }
    Ok(Harness { text: w.text, copies, model: info.model })
}

/// The choice queue: the next recorded choice, read as a C integer of `bits` bits
/// (a bit-vector of that width two's complement when signed), range-checked.
const TAKE: &str = r#"static void forex_stop(const char *why) {
  printf("FOREX-STOP %d %s\n", forex_copy, why);
  fflush(stdout);
  exit(90);
}
static __int128 forex_take(int bits, int is_signed) {
  if (forex_next >= forex_nchoices) forex_stop("the run asks for more nondeterministic choices than the counterexample records");
  struct forex_choice c = forex_choices[forex_next++];
  __int128 v = c.value;
  if (c.width != 0 && is_signed && c.width == bits && ((v >> (bits - 1)) & 1)) v -= (__int128)1 << bits;
  __int128 lo = is_signed ? -((__int128)1 << (bits - 1)) : 0;
  __int128 hi = is_signed ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
  if (v < lo || v > hi) forex_stop("a recorded choice does not fit the C type that takes it");
  return v;
}"#;

const DEFINITIONS: &str = r#"void __VERIFIER_assume(int c) { if (!c) forex_stop("an assume is false"); }
void assume(int c) { if (!c) forex_stop("an assume is false"); }
void _invariant(const char *s) { (void)s; }
static void *forex_alloc(long long n, long long size) {
  void *p = calloc((size_t)n, (size_t)size);
  if (!p) forex_stop("cannot allocate an array");
  return p;
}"#;

#[derive(Default)]
struct Writer {
    text: String,
}

impl Writer {
    fn line(&mut self, s: &str) {
        self.text.push_str(s);
        self.text.push('\n');
    }
}

/// The scalar parameters of `f`: name, type.
fn scalar_params(f: &CFunction) -> Vec<(&str, CScalar)> {
    f.params
        .iter()
        .filter_map(|p| match p.ty {
            CType::Scalar(s) => Some((p.name.as_str(), s)),
            _ => None,
        })
        .collect()
}

/// The definition of a library function: the table of the running copy
/// (uninterpreted) or its next choice (specified).
fn library(
    w: &mut Writer,
    lib: &CLibrary,
    runs: &[(&crate::ir::Copy, &CFunction, &CopyRun)],
    unfit: &mut Vec<String>,
) -> Result<(), NoHarness> {
    let params: Vec<String> =
        lib.params.iter().enumerate().map(|(i, t)| format!("{} p{i}", t.c_name())).collect();
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let ret = lib.ret.c_name();
    w.line(&format!("{ret} {}({params}) {{", lib.name));
    for i in 0..lib.params.len() {
        w.line(&format!("  (void)p{i};"));
    }
    match &lib.model {
        LibraryModel::Specified => {
            w.line(&format!(
                "  return ({ret})forex_take({}, {});",
                lib.ret.bits(),
                lib.ret.is_signed() as i32
            ));
        }
        LibraryModel::Uninterpreted { var } => {
            w.line("  switch (forex_copy) {");
            for (k, (copy, _, run)) in runs.iter().enumerate() {
                let Some(table) = run.initial.get(var) else { continue };
                w.line(&format!("  case {k}: {{"));
                let what = format!("{}.{var} (the table of {})", copy.name, lib.name);
                lookup(w, table, 0, lib, &what, unfit);
                w.line("  }");
            }
            w.line("  }\n  return 0;");
        }
    }
    w.line("}");
    Ok(())
}

/// `return table[p<depth>][…];` as nested comparisons with the listed indices.
fn lookup(
    w: &mut Writer,
    table: &Value,
    depth: usize,
    lib: &CLibrary,
    what: &str,
    unfit: &mut Vec<String>,
) {
    match table {
        Value::Array { default, entries } if depth < lib.params.len() => {
            let ty = lib.params[depth];
            for (index, sub) in entries {
                let Some(i) = index.to_i128().filter(|i| has_literal(*i)) else {
                    continue; // no C argument equals it
                };
                let p = format!("p{depth}");
                let test = match cint::float_kind(ty) {
                    // A float argument's key is its bit pattern, every NaN the one NaN
                    // (`c::float::as_key`).
                    Some(k) if i >= 0 && i < 1i128 << k.width() => {
                        if k.is_nan(i as u64) {
                            format!("{p} != {p}")
                        } else {
                            format!("!({})", differs(ty, &p, i))
                        }
                    }
                    Some(_) => continue,
                    None => format!("(__int128){p} == (__int128){}", literal(i)),
                };
                w.line(&format!("  if ({test}) {{"));
                lookup(w, sub, depth + 1, lib, what, unfit);
                w.line("  }");
            }
            lookup(w, default, depth + 1, lib, what, unfit);
        }
        v => match to_c_scalar(v, lib.ret) {
            Ok(n) => w.line(&format!("  return {};", c_value(lib.ret, n))),
            Err(e) => {
                unfit.push(format!("{what}: {e}"));
                w.line("  return 0;");
            }
        },
    }
}

/// `forex_run_K`: copy K's choices, arrays, the call and what it prints.
fn copy_run(
    w: &mut Writer,
    k: usize,
    copy: &str,
    f: &CFunction,
    run: &CopyRun,
    unfit: &mut Vec<String>,
) -> Result<CopyExpect, NoHarness> {
    let fin = run.final_state.as_ref().ok_or_else(|| {
        NoHarness::Unsupported(format!("the counterexample has no final state of copy {copy}"))
    })?;
    // Choices.
    let mut rows = Vec::new();
    for (i, c) in run.choices.iter().enumerate() {
        match cint::as_integer(c) {
            Ok(n) if has_literal(n) => {
                let width = if let Value::Bv { width, .. } = c { *width } else { 0 };
                rows.push(format!("{{ (__int128){}, {width} }}", literal(n)));
            }
            Ok(_) => {
                unfit.push(format!("{copy}'s choice {}: {c} is wider than any C integer", i + 1))
            }
            Err(e) => unfit.push(format!("{copy}'s choice {}: {e}", i + 1)),
        }
    }
    if rows.is_empty() {
        rows.push("{ 0, 0 }".into());
    }
    w.line(&format!(
        "static const struct forex_choice forex_choices_{k}[] = {{ {} }};",
        rows.join(", ")
    ));
    w.line(&format!("static void forex_run_{k}(void) {{"));
    w.line(&format!(
        "  forex_copy = {k}; forex_choices = forex_choices_{k}; forex_nchoices = {}; forex_next = 0;",
        run.choices.len()
    ));
    let initial_of = |name: &str| {
        run.initial.get(name).ok_or_else(|| {
            NoHarness::Unsupported(format!(
                "the counterexample has no initial value of {copy}.{name}"
            ))
        })
    };
    // Scalar values bound the arrays' layout: loops index arrays by them.
    let mut reach: i128 = 0;
    let mut args = Vec::new();
    let mut scalars = Vec::new();
    let mut arrays = Vec::new();
    for p in &f.params {
        let init = initial_of(&p.var)?;
        match &p.ty {
            CType::Scalar(ty) => {
                match to_c_scalar(init, *ty) {
                    Ok(n) => {
                        if !ty.is_float() {
                            reach = reach.max(n.clamp(0, 1 << 20));
                        }
                        args.push(c_value(*ty, n));
                    }
                    Err(e) => {
                        unfit.push(format!("initial {copy}.{}: {e}", p.name));
                        args.push("0".into());
                    }
                }
                if let Some(v) = fin.get(&p.var) {
                    match to_c_scalar(v, *ty) {
                        Ok(n) => scalars.push((p.var.clone(), *ty, n)),
                        Err(e) => unfit.push(format!("final {copy}.{}: {e}", p.name)),
                    }
                }
            }
            CType::Array { elem, dims: 1 } => {
                args.push(String::new());
                arrays.push((p, *elem, init));
            }
            CType::Array { .. } => {
                return Err(NoHarness::Unsupported(format!(
                    "{}'s parameter {} is a two-dimensional array, which the native replay \
                     does not lay out",
                    f.name, p.name
                )))
            }
            CType::Void => args.push(String::new()),
            CType::Pointer(_) | CType::Struct(_) => {
                return Err(NoHarness::Unsupported(format!(
                    "{}'s parameter {} is {}, which the native replay does not lay out",
                    f.name,
                    p.name,
                    p.ty.c_name()
                )))
            }
        }
    }
    let mut array_expects = Vec::new();
    let mut prints = Vec::new();
    for (p, elem, init) in arrays {
        let fin_value = fin.get(&p.var).cloned().unwrap_or_else(|| init.clone());
        let (Value::Array { default: d0, entries: e0 }, Value::Array { default: d1, entries: e1 }) =
            (init, &fin_value)
        else {
            return Err(NoHarness::Unsupported(format!("{copy}.{} is no array value", p.name)));
        };
        let mut indices = Vec::new();
        for i in e0.keys().chain(e1.keys()) {
            let i = i
                .to_i128()
                .filter(|i| i.abs() < MAX_ARRAY)
                .ok_or_else(|| too_far(copy, &p.name))?;
            indices.push(i);
        }
        let lo = indices.iter().copied().min().unwrap_or(0).min(0) - ARRAY_PAD;
        let hi = indices.iter().copied().max().unwrap_or(0).max(reach) + ARRAY_PAD;
        if hi - lo > MAX_ARRAY {
            return Err(too_far(copy, &p.name));
        }
        let mut conv = |v: &Value, what: &str| {
            to_c_scalar(v, elem).unwrap_or_else(|e| {
                unfit.push(format!("{what} {copy}.{}: {e}", p.name));
                0
            })
        };
        let buf = format!("forex_arr_{}", p.name);
        let t = elem.c_name();
        let len = literal(hi - lo + 1);
        w.line(&format!("  {t} *{buf} = forex_alloc({len}, sizeof({t}));"));
        let d0 = conv(d0, "initial");
        w.line(&format!(
            "  for (long long i = 0; i < {len}; i++) {buf}[i] = {};",
            c_value(elem, d0)
        ));
        for (i, v) in e0 {
            let i = i.to_i128().unwrap_or(0);
            let v = conv(v, "initial");
            w.line(&format!("  {buf}[{}] = {};", literal(i - lo), c_value(elem, v)));
        }
        let default = conv(d1, "final");
        let entries =
            e1.iter().map(|(i, v)| (i.to_i128().unwrap_or(0), conv(v, "final"))).collect();
        let (fmt, _) = printf_of(elem);
        prints.push(format!(
            "  for (long long i = 0; i < {len}; i++) if ({}) \
             printf(\"A {k} {} %lld {fmt}\\n\", i + {}, {});",
            differs(elem, &format!("{buf}[i]"), default),
            p.var,
            literal(lo),
            observe(elem, &format!("{buf}[i]")),
        ));
        args_array(&mut args, f, &p.name, format!("{buf} + {}", literal(-lo)));
        array_expects.push(ArrayExpect { name: p.var.clone(), elem, default, entries, lo, hi });
    }
    // The call; its result is the variable `ret_var`.
    let call = format!("{}({})", f.name, args.join(", "));
    match (&f.ret, &f.ret_var) {
        (CType::Scalar(ty), Some(rv)) => {
            let (fmt, _) = printf_of(*ty);
            w.line(&format!("  {} forex_r = {call};", ty.c_name()));
            w.line(&format!("  printf(\"V {k} {rv} {fmt}\\n\", {});", observe(*ty, "forex_r")));
            if let Some(v) = fin.get(rv) {
                match to_c_scalar(v, *ty) {
                    Ok(n) => scalars.push((rv.clone(), *ty, n)),
                    Err(e) => unfit.push(format!("final {copy}.{rv}: {e}")),
                }
            }
        }
        _ => w.line(&format!("  {call};")),
    }
    for (i, (p, ty)) in scalar_params(f).iter().enumerate() {
        let var = f.params.iter().find(|q| q.name == *p).map_or(*p, |q| q.var.as_str());
        let (fmt, cast) = printf_of(*ty);
        w.line(&format!("  printf(\"V {k} {var} {fmt}\\n\", {cast}forex_fin_{}[{i}]);", f.name));
    }
    for line in prints {
        w.line(&line);
    }
    w.line(&format!("  printf(\"N {k} %d\\n\", forex_next);\n  fflush(stdout);\n}}"));
    let observed: Vec<&str> = scalars
        .iter()
        .map(|s| s.0.as_str())
        .chain(array_expects.iter().map(|a| a.name.as_str()))
        .collect();
    let unobserved = fin.keys().filter(|v| !observed.contains(&v.as_str())).cloned().collect();
    Ok(CopyExpect {
        name: copy.to_string(),
        scalars,
        arrays: array_expects,
        choices: run.choices.len(),
        unobserved,
    })
}

/// Puts an array argument in its parameter's place (`args` has a placeholder there).
fn args_array(args: &mut [String], f: &CFunction, name: &str, arg: String) {
    if let Some(i) = f.params.iter().position(|p| p.name == name) {
        args[i] = arg;
    }
}

fn too_far(copy: &str, name: &str) -> NoHarness {
    NoHarness::Unsupported(format!(
        "the indices of {copy}.{name} span more than {MAX_ARRAY} elements, too many to lay out natively"
    ))
}
