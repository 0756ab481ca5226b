//! The command line: argument parsing and dispatch only. Each command's driver lives in
//! its own file and calls the library; no verification logic here.

/// `println!` for command output that ignores a closed pipe (`forex check … | head -1`):
/// the reader has left, which is its choice, not an error (and never a panic).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod certify;
mod check;
mod choices;
mod ctrl_c;
mod equiv;
mod explain;
mod lsp;
mod prove;
mod report;
mod run;
mod test;

use choices::{ColorArg, DiagArg};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::OnceLock;

/// forex verifies ∀∃ hyperproperties of programs: generalized non-interference,
/// refinement, delimited release, determinism and any Forall-Exists Hoare tuple
/// written in a `.fe` file (or in the original ForEx tool's format).
///
/// Exit codes: 0 verified, 1 violated, 2 unknown, 3 input error or bad command line
/// (the largest over all tuples). A file named `-` is read from standard input.
#[derive(Parser, Debug)]
#[command(name = "forex", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  forex check examples/*.fe\n  forex prove examples/gni.fe\n  forex prove --jobs 2 --format json ../shared/benchmarks/forex\n  forex test --strategy evo examples/ni_leak.fe\n  forex run examples/gni.fe --program pad --set h=1 --set l=2 --choices 7\n  cat examples/ni.fe | forex check -\n  forex explain W0100"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colours in diagnostics on stderr: auto (on a terminal, unless NO_COLOR is set),
    /// always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// C files: `math` (unbounded integers) or `machine` (LP64, signed overflow wrapping
    /// as `gcc -fwrapv`); default: `math` for `@ELAENIA` files, `machine` for `@forex` ones.
    #[arg(long = "int-model", global = true, value_enum)]
    pub int_model: Option<choices::IntModelArg>,
    /// C files: a folder the preprocessor looks in for `#include` (repeatable; the
    /// file's own folder is always searched for `#include "…"`).
    #[arg(short = 'I', global = true, value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// C files: a macro for the preprocessor, `NAME` or `NAME=VALUE` (repeatable).
    #[arg(short = 'D', global = true, value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// C files: assume that no run reaches undefined behaviour (a null or out-of-object
    /// access, a use after `free`, a failing `assert`) instead of reporting it.
    #[arg(long = "no-ub", global = true)]
    pub no_ub: bool,
    /// C files: how many calls deep a recursive function is unfolded; runs that recurse
    /// deeper are not modelled (they are never proved correct nor shown wrong).
    #[arg(long = "recursion-depth", global = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub recursion_depth: Option<u32>,
}

impl Cli {
    /// How the front end reads files, from the global options.
    fn frontend(&self) -> crate::frontend::Options {
        crate::frontend::Options {
            int_model: self.int_model.map(Into::into),
            cc: crate::c::preprocess::CcOptions {
                include_dirs: self.include.clone(),
                defines: self.define.clone(),
                time_limit: None,
                forced: Vec::new(),
            },
            no_ub: self.no_ub,
            time_limit: None,
            memory_mb: crate::smt::memory::ceiling_mb(),
            recursion_depth: self.recursion_depth,
            summaries: false,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Check(check::CheckArgs),
    Run(run::RunArgs),
    Prove(prove::ProveArgs),
    Equiv(equiv::EquivArgs),
    Certify(certify::CertifyArgs),
    Test(test::TestArgs),
    Lsp(lsp::LspArgs),
    Report(report::ReportArgs),
    Explain(explain::ExplainArgs),
}

/// The `--color` among the raw arguments (the last one wins, as in clap), for clap's
/// own output; `auto` when there is none or it is malformed (clap then says so).
fn clap_color(args: impl Iterator<Item = std::ffi::OsString>) -> clap::ColorChoice {
    let mut choice = clap::ColorChoice::Auto;
    let mut next_is_value = false;
    for arg in args {
        let arg = arg.to_string_lossy().into_owned();
        let value = if next_is_value {
            next_is_value = false;
            Some(arg.as_str())
        } else if arg == "--color" {
            next_is_value = true;
            None
        } else if arg == "--" {
            break;
        } else {
            arg.strip_prefix("--color=")
        };
        match value {
            Some("always") => choice = clap::ColorChoice::Always,
            Some("never") => choice = clap::ColorChoice::Never,
            Some(_) => choice = clap::ColorChoice::Auto,
            None => {}
        }
    }
    choice
}

/// Whether stderr gets colours: `--color`, set once by [`main`].
static COLOR: OnceLock<bool> = OnceLock::new();

/// Whether diagnostics on stderr are coloured (`--color`; `auto`: on a terminal and
/// without NO_COLOR, no-color.org).
fn stderr_color() -> bool {
    *COLOR.get().unwrap_or(&false)
}

fn color_choice(arg: ColorArg) -> bool {
    match arg {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The diagnostic style: the one asked for, else fancy on a terminal and short otherwise.
fn diag_style(arg: Option<DiagArg>) -> crate::diag::DiagStyle {
    use crate::diag::DiagStyle;
    let default = if std::io::stderr().is_terminal() { DiagStyle::Fancy } else { DiagStyle::Short };
    arg.map(DiagStyle::from).unwrap_or(default)
}

/// A command-line error as a line in the diagnostic style asked for (JSON in JSON mode).
fn usage_error(arg: Option<DiagArg>, message: &str) -> String {
    crate::diag::usage_error_line(diag_style(arg), message)
}

/// Writes a report to `output`, or to stdout (a closed pipe is the reader's choice, not
/// an error).
fn write_report(text: &str, output: Option<&PathBuf>) -> Result<(), String> {
    use std::io::Write;
    match output {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write the report: {e}"))
                }
                _ => Ok(()),
            }
        }
    }
}

/// The `--tuple` patterns (globs), or which one is malformed.
fn tuple_patterns(patterns: &[String]) -> Result<Vec<glob::Pattern>, String> {
    patterns
        .iter()
        .map(|p| glob::Pattern::new(p).map_err(|e| format!("--tuple {p}: {e}")))
        .collect()
}

/// `--timeout SECS` as a duration, or why it is not one.
fn timeout(secs: f64) -> Result<std::time::Duration, String> {
    std::time::Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("--timeout {secs}: expected a non-negative number of seconds"))
}

/// Fails now, not after the work, when the report cannot be written to `output`.
fn check_writable(output: Option<&PathBuf>) -> Result<(), String> {
    let Some(path) = output else { return Ok(()) };
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Parses the command line, runs the command, returns the process exit code.
pub fn main() -> i32 {
    use clap::{CommandFactory, FromArgMatches};
    // clap's own help and errors follow `--color` too, so it is read before parsing.
    let command = Cli::command().color(clap_color(std::env::args_os().skip(1)));
    let parsed = command.try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // --help and --version are not errors; a bad command line is an input error.
            return if e.use_stderr() { 3 } else { 0 };
        }
    };
    // Before any thread or Z3 context exists: Z3's global parameters are not safe to
    // change while other threads use Z3.
    crate::smt::memory::ensure_ceiling();
    let _ = COLOR.set(color_choice(cli.color));
    let front = cli.frontend();
    match cli.command {
        Command::Check(args) => check::main(args, &front),
        Command::Run(args) => run::main(args, &front),
        Command::Prove(args) => prove::main(args, &front),
        Command::Equiv(args) => equiv::main(args, &front),
        Command::Certify(args) => certify::main(args),
        Command::Test(args) => test::main(args, &front),
        Command::Lsp(args) => lsp::main(args, &front),
        Command::Report(args) => report::main(args),
        Command::Explain(args) => explain::main(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_color_option_is_found_before_parsing() {
        let choice = |args: &[&str]| clap_color(args.iter().map(std::ffi::OsString::from));
        assert_eq!(choice(&["check", "--color", "never", "x"]), clap::ColorChoice::Never);
        assert_eq!(choice(&["--color=always", "check"]), clap::ColorChoice::Always);
        assert_eq!(choice(&["check", "x"]), clap::ColorChoice::Auto);
        assert_eq!(choice(&["run", "--", "--color=never"]), clap::ColorChoice::Auto);
    }
}
