//! The front end's one entry point: source bytes → checked [`Module`] or diagnostics.
//!
//! Steps: UTF-8 check, format detection, a lexical nesting pre-scan, pest, AST
//! building, checking. Parsing runs on a thread with a large stack, so that no input
//! can overflow it even in unoptimised builds; the pre-scan and the builders bound the
//! nesting depth anyway (`ir::MAX_DEPTH`).

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Module;
use crate::syntax::{self, Format};
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
}

/// Stack size of the parsing thread.
const PARSE_STACK: usize = 256 << 20;

/// Reads, parses and checks one file. `name` is how reports and diagnostics name it.
pub fn load_file(path: &Path, format: InputFormat) -> Result<Module, Diagnostics> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => load_source(&name, &bytes, format),
        Err(e) => Err(Diagnostics::io(&name, &e)),
    }
}

/// Parses and checks source text (any bytes: invalid UTF-8 is a diagnostic).
pub fn load_source(name: &str, bytes: &[u8], format: InputFormat) -> Result<Module, Diagnostics> {
    let (owned_name, owned_bytes) = (name.to_string(), bytes.to_vec());
    let worker = std::thread::Builder::new()
        .name("forex-parse".into())
        .stack_size(PARSE_STACK)
        .spawn(move || load_inline(&owned_name, &owned_bytes, format));
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            let text = String::from_utf8_lossy(bytes);
            Err(Diagnostics::new(
                name,
                &text,
                vec![Diagnostic::new(
                    "internal error in the front end (please report this input)",
                    0..0,
                )],
            ))
        }),
        // No thread available: parse here (the depth limits still hold).
        Err(_) => load_inline(name, bytes, format),
    }
}

/// [`load_source`] on the current thread.
pub fn load_inline(name: &str, bytes: &[u8], format: InputFormat) -> Result<Module, Diagnostics> {
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
            .with_hint("save the file as UTF-8");
            return Err(Diagnostics::new(name, &lossy, vec![d]));
        }
    };
    if format == InputFormat::Hyena
        || (format == InputFormat::Auto && syntax::hyena::looks_like_hyena(src))
    {
        return load_hyena(name, src);
    }
    let fmt = match format {
        InputFormat::Hyena => Format::Fe,
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
        return Err(Diagnostics::new(name, src, diags));
    };
    if fmt == Format::Fe && ast.programs.is_empty() && ast.tuples.is_empty() && diags.is_empty() {
        let d = Diagnostic::new("the file defines no programs and no tuples", 0..0)
            .with_label("empty")
            .with_hint("a .fe file holds `program name { … }` and `tuple name { … }` definitions");
        return Err(Diagnostics::new(name, src, vec![d]));
    }
    let (module, check_diags) = crate::check::check(&ast, name, src, fmt == Format::Forex);
    diags.extend(check_diags);
    if diags.is_empty() {
        Ok(module)
    } else {
        Err(Diagnostics::new(name, src, diags))
    }
}

/// A hyena0 file: read into the syntax tree, checked like a `.fe` file.
fn load_hyena(name: &str, src: &str) -> Result<Module, Diagnostics> {
    let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_else(|| "tuple".to_string());
    let (ast, mut diags, expected) = syntax::hyena::parse(src, &stem);
    let Some(ast) = ast else { return Err(Diagnostics::new(name, src, diags)) };
    if ast.programs.is_empty() && ast.tuples.is_empty() && diags.is_empty() {
        let d = Diagnostic::new("the file defines no programs and no queries", 0..0)
            .with_label("empty");
        return Err(Diagnostics::new(name, src, vec![d]));
    }
    let (mut module, check_diags) = crate::check::check(&ast, name, src, false);
    diags.extend(check_diags);
    if !diags.is_empty() {
        return Err(Diagnostics::new(name, src, diags));
    }
    module.expected = expected;
    Ok(module)
}
