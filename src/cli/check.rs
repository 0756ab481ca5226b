//! `forex check`: parse and check files, one summary line per file.

use crate::diag::DiagStyle;
use crate::frontend::InputFormat;
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
    #[arg(long, visible_alias = "input", value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
    /// How to print errors: fancy (default on a terminal), short (file:line:col) or json.
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagStyle>,
}

pub fn main(args: CheckArgs) -> i32 {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let style = args.diagnostics.unwrap_or(if tty { DiagStyle::Fancy } else { DiagStyle::Short });
    let mut code = 0;
    // Folders contribute their `.fe`, ForEx `.txt` and hyena0 files, as for `prove`.
    let files = crate::batch::collect_files(&args.files, args.format);
    for file in &files {
        let path = &file.path;
        match crate::frontend::load_file(path, file.format) {
            Ok(module) => println!("{}: ok ({})", path.display(), summary(&module)),
            Err(diags) => {
                code = 3;
                let n = diags.len();
                println!("{}: {n} error{}", path.display(), if n == 1 { "" } else { "s" });
                eprint!("{}", diags.render_colored(style, tty));
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
