//! The front end's one entry point: source bytes → checked [`Module`] or diagnostics.
//!
//! Steps: UTF-8 check, format detection, a lexical nesting pre-scan, pest, AST
//! building, checking. Parsing runs on a large stack (`crate::stack`, on the calling
//! thread), so that no input can overflow it even in unoptimised builds; the pre-scan and the builders bound the
//! nesting depth anyway (`ir::MAX_DEPTH`).

use crate::diag::{Code, Diagnostic, Diagnostics, LineIndex};
use crate::ir::{Loc, Module};
use crate::syntax::recover::{self, Item, ItemKind};
use crate::syntax::{self, Format};
use std::collections::HashMap;
use std::path::Path;

/// Which input language a file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InputFormat {
    /// ForEx format when the first section header is `[forall]` or `[exists]`, else `.fe`.
    #[default]
    Auto,
    /// The `.fe` language.
    Fe,
    /// The original ForEx tool's format.
    Forex,
    /// hyena0's s-expression files (detected by a first form `(define-program`,
    /// `(strategy` or `(find-counterexample`).
    Hyena,
    /// C source (`--input c`; detected by the `.c` extension).
    C,
}

/// How the front end reads files (for C files: the integer model, the preprocessor's
/// `-I` folders and `-D` macros). A value passed per file: two files of one batch may be
/// read differently.
pub type Options = crate::c::Options;

/// A limit of the C front end (time, size) that left a tuple undecided.
pub use crate::c::LimitHit;

/// Whether the file `name` is read as C under `format`.
pub fn is_c(name: &str, format: InputFormat) -> bool {
    format == InputFormat::C || (format == InputFormat::Auto && name.ends_with(".c"))
}

fn stem_of(name: &str) -> String {
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned());
    stem.unwrap_or_else(|| "tuple".to_string())
}

/// The folder `#include "…"` looks in for the file named `name` (its own folder; the
/// current folder for standard input and names that are no path).
fn include_dir(name: &str) -> std::path::PathBuf {
    match Path::new(name).parent() {
        Some(p) if name != STDIN_NAME && !p.as_os_str().is_empty() && p.is_dir() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    }
}

/// A C file: its module, or (with `recovering`) the tuples its errors break.
fn load_c(name: &str, src: &str, opts: &Options) -> Result<Recovered, Diagnostics> {
    let whole = |ds: Vec<Diagnostic>| {
        let ds = ds.into_iter().map(|d| d.with_default_code(Code::Check)).collect();
        Diagnostics::new(name, src, ds)
    };
    let dir = include_dir(name);
    let loaded = crate::c::load(name, src, &stem_of(name), &dir, opts).map_err(whole)?;
    let broken = loaded
        .broken
        .into_iter()
        .map(|(tuple, loc, ds)| BrokenTuple { name: tuple, loc, diagnostics: whole(ds) })
        .collect();
    let unused = (!loaded.unused.is_empty()).then(|| whole(loaded.unused));
    let limited = loaded
        .limited
        .into_iter()
        .map(|(tuple, loc, limit, d)| LimitedTuple {
            name: tuple,
            loc,
            limit,
            diagnostics: whole(vec![d]),
        })
        .collect();
    Ok(Recovered { module: loaded.module, broken, limited, unused })
}

/// The path that stands for standard input on the command line.
pub const STDIN_PATH: &str = "-";
/// How diagnostics and reports name standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// How reports and diagnostics name the file at `path` (`-` is `<stdin>`).
pub fn display_name(path: &Path) -> String {
    if path == Path::new(STDIN_PATH) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads, parses and checks one file; `-` reads standard input (to its end).
pub fn load_file(path: &Path, format: InputFormat) -> Result<Module, Diagnostics> {
    load_file_with(path, format, &Options::default())
}

/// [`load_file`] under `opts`.
pub fn load_file_with(
    path: &Path,
    format: InputFormat,
    opts: &Options,
) -> Result<Module, Diagnostics> {
    let (name, bytes) = read_file(path)?;
    load_source_with(&name, &bytes, format, opts)
}

/// The display name and bytes of the file at `path` (`-`: standard input, to its end).
fn read_file(path: &Path) -> Result<(String, Vec<u8>), Diagnostics> {
    let name = display_name(path);
    let read = if path == Path::new(STDIN_PATH) {
        use std::io::Read;
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes).map(|_| bytes)
    } else {
        std::fs::read(path)
    };
    read.map(|bytes| (name.clone(), bytes)).map_err(|e| Diagnostics::io(&name, &e))
}

/// Parses and checks source text (any bytes: invalid UTF-8 is a diagnostic).
pub fn load_source(name: &str, bytes: &[u8], format: InputFormat) -> Result<Module, Diagnostics> {
    load_source_with(name, bytes, format, &Options::default())
}

/// [`load_source`] under `opts`.
pub fn load_source_with(
    name: &str,
    bytes: &[u8],
    format: InputFormat,
    opts: &Options,
) -> Result<Module, Diagnostics> {
    on_parse_stack(name, bytes, || load_inline_with(name, bytes, format, opts))
}

/// Runs a front-end phase on a large stack (see [`crate::stack`]); a panic in it is an
/// internal-error diagnostic, never a crash.
fn on_parse_stack<T>(
    name: &str,
    bytes: &[u8],
    phase: impl FnOnce() -> Result<T, Diagnostics>,
) -> Result<T, Diagnostics> {
    let run =
        std::panic::AssertUnwindSafe(|| crate::stack::run_on_big_stack(crate::stack::PARSE, phase));
    std::panic::catch_unwind(run).unwrap_or_else(|_| {
        let text = String::from_utf8_lossy(bytes);
        let d = Diagnostic::new("internal error in the front end (please report this input)", 0..0)
            .with_code(Code::Internal);
        Err(Diagnostics::new(name, &text, vec![d]))
    })
}

/// [`load_source`] on the current thread.
pub fn load_inline(name: &str, bytes: &[u8], format: InputFormat) -> Result<Module, Diagnostics> {
    load_inline_with(name, bytes, format, &Options::default())
}

/// [`load_source_with`] on the current thread.
pub fn load_inline_with(
    name: &str,
    bytes: &[u8],
    format: InputFormat,
    opts: &Options,
) -> Result<Module, Diagnostics> {
    let src = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let at = e.valid_up_to();
            let lossy = String::from_utf8_lossy(bytes);
            let d = Diagnostic::new(
                format!("the file is not valid UTF-8 (byte 0x{:02x} at offset {at})", bytes[at]),
                at..at + 1,
            )
            .with_label("invalid byte")
            .with_hint("save the file as UTF-8")
            .with_code(Code::NotUtf8);
            return Err(Diagnostics::new(name, &lossy, vec![d]));
        }
    };
    if is_c(name, format) {
        let r = load_c(name, src, opts)?;
        let mut all: Vec<Diagnostic> = Vec::new();
        // Without a report to say `unknown` in, a limit is an error.
        let limited = r.limited.into_iter().map(|l| l.diagnostics);
        for b in r.broken.into_iter().map(|b| b.diagnostics).chain(limited) {
            for d in b.items {
                if !all.iter().any(|e| e.span == d.span && e.message == d.message) {
                    all.push(d);
                }
            }
        }
        if let Some(u) = r.unused {
            all.extend(u.items);
        }
        if all.is_empty() {
            return Ok(r.module);
        }
        return Err(Diagnostics::new(name, src, all));
    }
    if format == InputFormat::Hyena
        || (format == InputFormat::Auto && syntax::hyena::looks_like_hyena(src))
    {
        return load_hyena(name, src);
    }
    let fmt = match format {
        InputFormat::Hyena | InputFormat::C => Format::Fe,
        InputFormat::Fe => Format::Fe,
        InputFormat::Forex => Format::Forex,
        InputFormat::Auto if syntax::looks_like_forex(src) => Format::Forex,
        InputFormat::Auto => Format::Fe,
    };
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_else(|| "tuple".to_string());
    let (ast, mut diags) = syntax::parse(src, fmt, &stem);
    let Some(ast) = ast else {
        // A syntax error in a file of the other format: say so.
        let other = match fmt {
            Format::Fe if syntax::looks_like_forex(src) => {
                Some("this is a ForEx-format file, read as .fe: choose the input format `forex` or `auto`")
            }
            Format::Forex if !syntax::looks_like_forex(src) && src.contains("program") => {
                Some("this looks like a .fe file, read as ForEx: choose the input format `fe` or `auto`")
            }
            _ => None,
        };
        if let (Some(hint), Some(first)) = (other, diags.first_mut()) {
            first.hint = Some(hint.to_string());
        }
        return Err(coded(Diagnostics::new(name, src, diags), Code::Syntax));
    };
    if fmt == Format::Fe && ast.programs.is_empty() && ast.tuples.is_empty() && diags.is_empty() {
        let d = Diagnostic::new("the file defines no programs and no tuples", 0..0)
            .with_label("empty")
            .with_hint("a .fe file holds `program name { … }` and `tuple name { … }` definitions")
            .with_code(Code::EmptyFile);
        return Err(Diagnostics::new(name, src, vec![d]));
    }
    let (module, check_diags) = crate::check::check(&ast, name, src, fmt == Format::Forex);
    with_phase_codes(&mut diags, check_diags);
    if diags.is_empty() {
        Ok(module)
    } else {
        Err(Diagnostics::new(name, src, diags))
    }
}

/// `diags` with `code` on every diagnostic that has none.
fn coded(mut diags: Diagnostics, code: Code) -> Diagnostics {
    diags.default_code(code);
    diags
}

/// Appends the checker's diagnostics to the parser's, each phase's code on those
/// without one.
fn with_phase_codes(parsed: &mut Vec<Diagnostic>, checked: Vec<Diagnostic>) {
    for d in parsed.iter_mut() {
        d.code.get_or_insert(Code::Syntax);
    }
    parsed.extend(checked.into_iter().map(|mut d| {
        d.code.get_or_insert(Code::Check);
        d
    }));
}

/// A tuple that cannot be decided: its name, where it starts, and the errors that break
/// it (its own, or those of a program it uses).
#[derive(Clone, Debug)]
pub struct BrokenTuple {
    pub name: String,
    pub loc: Loc,
    pub diagnostics: Diagnostics,
}

/// A tuple whose programs ran into the front end's limits (time, size): undecided, not
/// wrong; reports say `unknown` with the limit.
#[derive(Clone, Debug)]
pub struct LimitedTuple {
    pub name: String,
    pub loc: Loc,
    pub limit: LimitHit,
    /// The same, as a diagnostic at the tuple (for commands without a report).
    pub diagnostics: Diagnostics,
}

/// A file loaded as far as its errors allow: the tuples that checked, and the broken ones.
#[derive(Clone, Debug)]
pub struct Recovered {
    pub module: Module,
    pub broken: Vec<BrokenTuple>,
    /// C tuples past the front end's limits.
    pub limited: Vec<LimitedTuple>,
    /// Errors that break no tuple (in a program no tuple uses): still input errors.
    pub unused: Option<Diagnostics>,
}

/// Like [`load_file`], but an error inside one `program` or `tuple` of a `.fe` file
/// breaks only the tuples it concerns (the tuple itself, or the tuples using the program);
/// the others are returned checked. A syntax error blanks out its top-level item and the
/// rest is parsed again. Errors outside programs and tuples (in a function, or between
/// items), and every error of a ForEx or hyena0 file, still fail the whole file.
pub fn load_file_recovering(path: &Path, format: InputFormat) -> Result<Recovered, Diagnostics> {
    load_file_recovering_with(path, format, &Options::default())
}

/// [`load_file_recovering`] under `opts`.
pub fn load_file_recovering_with(
    path: &Path,
    format: InputFormat,
    opts: &Options,
) -> Result<Recovered, Diagnostics> {
    let (name, bytes) = read_file(path)?;
    if is_c(&name, format) {
        if let Ok(src) = std::str::from_utf8(&bytes) {
            let src = src.to_string();
            return on_parse_stack(&name, &bytes, || load_c(&name, &src, opts));
        }
    }
    let fe = match std::str::from_utf8(&bytes) {
        Ok(src) => match format {
            InputFormat::Fe => true,
            InputFormat::Auto => {
                !syntax::hyena::looks_like_hyena(src) && !syntax::looks_like_forex(src)
            }
            InputFormat::Forex | InputFormat::Hyena | InputFormat::C => false,
        },
        Err(_) => false,
    };
    if !fe {
        return load_source_with(&name, &bytes, format, opts).map(|module| Recovered {
            module,
            broken: Vec::new(),
            limited: Vec::new(),
            unused: None,
        });
    }
    let src = String::from_utf8_lossy(&bytes);
    on_parse_stack(&name, &bytes, || recover_fe(&name, &src))
}

/// Most syntax errors blanked out of one file before giving up on it.
const MAX_BLANKED: usize = 64;

/// The top-level item holding byte offset `pos` (an offset past the last item counts as
/// the last item: an unclosed item runs to the end).
fn item_at(items: &[Item], pos: usize) -> Option<usize> {
    let last = items.len().checked_sub(1).filter(|&l| pos >= items[l].span.end);
    items.iter().position(|it| it.span.contains(&pos)).or(last)
}

fn recover_fe(name: &str, src: &str) -> Result<Recovered, Diagnostics> {
    let whole = |diags: Vec<Diagnostic>| Diagnostics::new(name, src, diags);
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_else(|| "tuple".to_string());
    let items = recover::items(src);
    let mut text = src.to_string();
    let mut all: Vec<Diagnostic> = Vec::new();
    let mut blanked: Vec<usize> = Vec::new();
    let ast = loop {
        let (ast, diags) = syntax::parse(&text, Format::Fe, &stem);
        let diags = diags.into_iter().map(|d| d.with_default_code(Code::Syntax));
        if let Some(ast) = ast {
            all.extend(diags);
            break ast;
        }
        let diags: Vec<Diagnostic> = diags.collect();
        let hit = diags.first().and_then(|d| item_at(&items, d.span.start));
        all.extend(diags);
        match hit {
            Some(i) if !blanked.contains(&i) && blanked.len() < MAX_BLANKED => {
                text = recover::blank(&text, &items[i].span);
                blanked.push(i);
            }
            _ => return Err(whole(all)),
        }
    };
    if ast.programs.is_empty() && ast.tuples.is_empty() && all.is_empty() {
        let d = Diagnostic::new("the file defines no programs and no tuples", 0..0)
            .with_label("empty")
            .with_hint("a .fe file holds `program name { … }` and `tuple name { … }` definitions")
            .with_code(Code::EmptyFile);
        return Err(whole(vec![d]));
    }
    let (mut module, check_diags) = crate::check::check(&ast, name, &text, false);
    all.extend(check_diags.into_iter().map(|d| d.with_default_code(Code::Check)));
    if all.is_empty() {
        return Ok(Recovered { module, broken: Vec::new(), limited: Vec::new(), unused: None });
    }
    let mut per_item: Vec<Vec<Diagnostic>> = vec![Vec::new(); items.len()];
    for d in &all {
        match item_at(&items, d.span.start) {
            Some(i) if items[i].kind != ItemKind::Other && !items[i].name.is_empty() => {
                per_item[i].push(d.clone())
            }
            // Outside any program or tuple, or in a function: no telling what it breaks.
            _ => return Err(whole(all)),
        }
    }
    // Per broken program: its errors, whether a syntax error blanked it, whether a tuple uses it.
    let mut broken_programs: HashMap<&str, (Vec<Diagnostic>, bool, bool)> = HashMap::new();
    for (i, it) in items.iter().enumerate() {
        if it.kind == ItemKind::Program && !per_item[i].is_empty() {
            let entry = broken_programs.entry(&it.name).or_default();
            entry.0.extend(per_item[i].iter().cloned());
            entry.1 |= blanked.contains(&i);
        }
    }
    let lines = LineIndex::new(src);
    let mut broken = Vec::new();
    for (i, it) in items.iter().enumerate().filter(|(_, it)| it.kind == ItemKind::Tuple) {
        let used: Vec<&str> = ast
            .tuples
            .iter()
            .filter(|t| t.name.name == it.name)
            .flat_map(|t| t.copies.iter().map(|c| c.program.name.as_str()))
            .collect();
        let mut diags = Vec::new();
        let mut program_gone = false;
        for p in used {
            if let Some((d, gone, used)) = broken_programs.get_mut(p) {
                diags.extend(d.iter().cloned());
                program_gone |= *gone;
                *used = true;
            }
        }
        // A program lost to a syntax error is "unknown" to the tuple: its own error says
        // nothing more than the program's.
        if !program_gone {
            diags.extend(per_item[i].iter().cloned());
        }
        if diags.is_empty() {
            continue;
        }
        module.tuples.retain(|t| t.name != it.name);
        broken.push(BrokenTuple {
            name: it.name.clone(),
            loc: lines.loc(src, it.span.start),
            diagnostics: whole(diags),
        });
    }
    let unused: Vec<Diagnostic> =
        broken_programs.into_values().filter(|p| !p.2).flat_map(|p| p.0).collect();
    let unused = (!unused.is_empty()).then(|| whole(unused));
    Ok(Recovered { module, broken, limited: Vec::new(), unused })
}

/// A hyena0 file: read into the syntax tree, checked like a `.fe` file.
fn load_hyena(name: &str, src: &str) -> Result<Module, Diagnostics> {
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_else(|| "tuple".to_string());
    let (ast, mut diags, expected) = syntax::hyena::parse(src, &stem);
    let Some(ast) = ast else {
        return Err(coded(Diagnostics::new(name, src, diags), Code::Syntax));
    };
    if ast.programs.is_empty() && ast.tuples.is_empty() && diags.is_empty() {
        let d = Diagnostic::new("the file defines no programs and no queries", 0..0)
            .with_label("empty")
            .with_code(Code::EmptyFile);
        return Err(Diagnostics::new(name, src, vec![d]));
    }
    let (mut module, check_diags) = crate::check::check(&ast, name, src, false);
    with_phase_codes(&mut diags, check_diags);
    if !diags.is_empty() {
        return Err(Diagnostics::new(name, src, diags));
    }
    module.expected = expected;
    Ok(module)
}

/// One version of a file for `forex equiv`: its module and, for C, each function's own
/// errors (a broken function breaks only the pairs that use it).
#[derive(Clone, Debug)]
pub struct Version {
    /// How reports name the file.
    pub name: String,
    pub module: Module,
    /// Errors by function name (C); a `.fe` file with errors does not load at all.
    pub broken: HashMap<String, Diagnostics>,
    /// Whether the file is C.
    pub c: bool,
}

/// Reads one version of a file for `forex equiv` from `bytes` (named `name`): C under
/// `opts` (integer model by default: machine integers, what the compiled code does), else
/// `.fe`. Tuples
/// the file holds are kept but not used.
pub fn load_version(
    name: &str,
    bytes: &[u8],
    format: InputFormat,
    opts: &Options,
) -> Result<Version, Diagnostics> {
    if !is_c(name, format) {
        let module = load_source_with(name, bytes, format, opts)?;
        return Ok(Version { name: name.to_string(), module, broken: HashMap::new(), c: false });
    }
    let Ok(src) = std::str::from_utf8(bytes).map(str::to_string) else {
        // The UTF-8 diagnostic.
        let module = load_source_with(name, bytes, format, opts)?;
        return Ok(Version { name: name.to_string(), module, broken: HashMap::new(), c: true });
    };
    let opts = Options {
        int_model: Some(opts.int_model.unwrap_or(crate::ir::c::IntModel::Machine)),
        summaries: true,
        ..opts.clone()
    };
    on_parse_stack(name, bytes, || {
        let whole = |ds: Vec<Diagnostic>| {
            let ds = ds.into_iter().map(|d| d.with_default_code(Code::Check)).collect();
            Diagnostics::new(name, &src, ds)
        };
        let dir = include_dir(name);
        let loaded = crate::c::load(name, &src, &stem_of(name), &dir, &opts).map_err(whole)?;
        let broken = loaded.function_errors.into_iter().map(|(f, ds)| (f, whole(ds))).collect();
        Ok(Version { name: name.to_string(), module: loaded.module, broken, c: true })
    })
}
