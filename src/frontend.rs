//! The front end's one entry point: source bytes → checked [`Module`] or diagnostics.
//! (Stub: the foundation issue implements parsing and checking.)

use crate::diag::Diagnostics;
use crate::ir::Module;
use std::path::Path;

/// Which input language a file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum InputFormat {
    /// ForEx format when the first section header is `[forall]` or `[exists]`, else `.fe`.
    #[default]
    Auto,
    /// The `.fe` language.
    Fe,
    /// The original ForEx tool's format.
    Forex,
}

/// Reads, parses and checks one file. `name` is how reports and diagnostics name it.
pub fn load_file(path: &Path, format: InputFormat) -> Result<Module, Diagnostics> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => load_source(&name, &bytes, format),
        Err(e) => Err(Diagnostics::io(&name, &e)),
    }
}

/// Parses and checks source text (any bytes: invalid UTF-8 is a diagnostic).
pub fn load_source(name: &str, _bytes: &[u8], _format: InputFormat) -> Result<Module, Diagnostics> {
    Err(Diagnostics::io(name, &std::io::Error::other("the front end is not implemented yet")))
}
