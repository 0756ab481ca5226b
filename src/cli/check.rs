//! `forex check`: parse and check files, one summary line per file.

use super::choices::{DiagArg, InputArg};
use clap::Args;
use std::path::PathBuf;

/// Parse and type-check files without verifying anything.
///
/// Prints one line per file (programs and tuples found) or its diagnostics.
/// Exits with 3 if any file has an error.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  forex check examples/*.fe
  forex check --diagnostics json examples/
  cat examples/ni.fe | forex check -")]
pub struct CheckArgs {
    /// Files or folders to check (`.fe`, ForEx-format `.txt`, hyena0 files); `-` reads
    /// standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Input language; `auto` detects the ForEx format from its first section header.
    /// (`--format` is the old spelling, still accepted.)
    #[arg(long = "input", alias = "format", value_enum, default_value_t = InputArg::Auto)]
    pub input: InputArg,
    /// How to print errors: fancy (default on a terminal), short (file:line:col) or json.
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagArg>,
}

pub fn main(args: CheckArgs, front: &crate::frontend::Options) -> i32 {
    let style = super::diag_style(args.diagnostics);
    let color = super::stderr_color();
    let mut code = 0;
    for file in crate::batch::collect_files(&args.files, args.input.into()) {
        let name = crate::frontend::display_name(&file.path);
        match crate::frontend::load_file_with(&file.path, file.format, front) {
            Ok(module) => outln!("{name}: ok ({})", summary(&module)),
            Err(diags) => {
                code = 3;
                let n = diags.len();
                outln!("{name}: {n} error{}", if n == 1 { "" } else { "s" });
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
