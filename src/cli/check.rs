//! `forex check`: parse and check files, one summary line per file.

use super::choices::{DiagArg, InputArg};
use crate::diag::DiagStyle;
use clap::Args;
use std::path::PathBuf;

/// Parse and type-check files without verifying anything.
///
/// Prints one line per file (programs and tuples found) or its diagnostics.
/// Exits with 3 if any file has an error.
///
/// Example: forex check examples/*.fe
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files or folders to check (`.fe`, ForEx-format `.txt`, hyena0 files).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Input language; `auto` detects the ForEx format from its first section header.
    #[arg(long, visible_alias = "input", value_enum, default_value_t = InputArg::Auto)]
    pub format: InputArg,
    /// How to print errors: fancy (default on a terminal), short (file:line:col) or json.
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagArg>,
}

pub fn main(args: CheckArgs) -> i32 {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let style = args.diagnostics.map(DiagStyle::from).unwrap_or(if tty {
        DiagStyle::Fancy
    } else {
        DiagStyle::Short
    });
    let mut code = 0;
    // Colours only on a terminal, and never when NO_COLOR is set (no-color.org).
    let color = tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    for file in crate::batch::collect_files(&args.files, args.format.into()) {
        let path = &file.path;
        match crate::frontend::load_file(path, file.format) {
            Ok(module) => outln!("{}: ok ({})", path.display(), summary(&module)),
            Err(diags) => {
                code = 3;
                let n = diags.len();
                outln!("{}: {n} error{}", path.display(), if n == 1 { "" } else { "s" });
                eprint!("{}", diags.render_colored(style, color));
            }
        }
    }
    code
}

/// `1 program, 2 tuples`.
fn summary(module: &crate::ir::Module) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}, {}",
        plural(module.programs.len(), "program"),
        plural(module.tuples.len(), "tuple")
    )
}
