//! `forex certify DIR`: re-check certificates written by `forex prove --certificate`.

use crate::certificate::check::{self, SolverCmd};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Re-check certificates with an independent SMT-LIB solver (cvc5 by default).
///
/// DIR is a folder written by `forex prove --certificate DIR` (or one tuple's folder in
/// it). Each tuple is `certified` (every obligation unsat), `partly certified` (with the
/// obligations the solver could not decide and why) or `REFUTED` (the second solver
/// found a model where Z3 said unsat: a soundness alarm). forex's search is not run
/// again. Exit codes: 0 certified, 2 partly certified, 3 a certificate does not check
/// (tampered, incomplete) or bad command line, 4 REFUTED.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  forex prove --certificate certs examples/gni.fe && forex certify certs
  forex certify --solver 'z3 -smt2' certs")]
pub struct CertifyArgs {
    /// The certificate folder.
    pub dir: PathBuf,
    /// The second solver: a command that reads the SMT-LIB file named as its last argument.
    #[arg(long, value_name = "CMD ARGS")]
    pub solver: Option<String>,
    /// Time limit per script, in seconds.
    #[arg(long, default_value_t = 20.0, value_name = "SECS")]
    pub timeout: f64,
}

pub fn main(args: CertifyArgs) -> i32 {
    let solver = match solver(args.solver.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return check::EXIT_BROKEN;
        }
    };
    let limit = match super::timeout(args.timeout) {
        Ok(t) if !t.is_zero() => t,
        Ok(_) => Duration::from_secs(20),
        Err(e) => {
            eprintln!("error: {e}");
            return check::EXIT_BROKEN;
        }
    };
    match check::check_dir(&args.dir, &solver, limit) {
        Ok(checks) => {
            print!("{}", check::render(&checks, &solver));
            check::exit_code(&checks)
        }
        Err(e) => {
            eprintln!("error: {e}");
            check::EXIT_BROKEN
        }
    }
}

/// The solver command, checked to start.
pub fn solver(arg: Option<&str>) -> Result<SolverCmd, String> {
    let solver = match arg {
        Some(s) => SolverCmd::parse(s)?,
        None => SolverCmd::cvc5(),
    };
    if !solver.available() {
        return Err(format!(
            "the solver `{}` cannot be started (install cvc5: `apt-get install cvc5`, or \
             name another with --solver)",
            solver.program
        ));
    }
    Ok(solver)
}
