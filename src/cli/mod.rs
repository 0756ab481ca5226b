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

mod check;
mod choices;
mod ctrl_c;
mod lsp;
mod prove;
mod report;
mod run;
mod test;

use clap::{Parser, Subcommand};

/// forex verifies ∀∃ hyperproperties of programs: generalized non-interference,
/// refinement, delimited release, determinism and any Forall-Exists Hoare tuple
/// written in a `.fe` file (or in the original ForEx tool's format).
///
/// Exit codes: 0 verified, 1 violated, 2 unknown, 3 input error or bad command line
/// (the largest over all tuples).
#[derive(Parser, Debug)]
#[command(name = "forex", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  forex check examples/*.fe\n  forex prove examples/gni.fe\n  forex prove --jobs 2 --format json ../shared/benchmarks/forex\n  forex test --strategy evo examples/ni_leak.fe\n  forex run examples/gni.fe --program pad --set h=1 --set l=2 --choices 7"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Check(check::CheckArgs),
    Run(run::RunArgs),
    Prove(prove::ProveArgs),
    Test(test::TestArgs),
    Lsp(lsp::LspArgs),
    Report(report::ReportArgs),
}

/// Parses the command line, runs the command, returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // --help and --version are not errors; a bad command line is an input error.
            return if e.use_stderr() { 3 } else { 0 };
        }
    };
    // Before any thread or Z3 context exists: Z3's global parameters are not safe to
    // change while other threads use Z3.
    crate::smt::session::ensure_memory_limit();
    match cli.command {
        Command::Check(args) => check::main(args),
        Command::Run(args) => run::main(args),
        Command::Prove(args) => prove::main(args),
        Command::Test(args) => test::main(args),
        Command::Lsp(args) => lsp::main(args),
        Command::Report(args) => report::main(args),
    }
}
