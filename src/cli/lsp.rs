//! `forex lsp`: the language server on stdin/stdout.

use crate::portfolio::DecideOptions;
use clap::Args;
use std::time::Duration;

/// Run the language server over stdin/stdout (for editors).
///
/// Publishes input errors while you type and, on save, each tuple's verdict as a
/// diagnostic on its name: verified (information), violated (error, with the
/// counterexample) or unknown (warning, with the reason).
#[derive(Args, Debug)]
#[command(after_help = "Example (editors start it themselves; see the README for Neovim, VS Code \
                         and Helix):\n  forex lsp --timeout 5")]
pub struct LspArgs {
    /// Time limit per tuple when verifying on save, in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    pub timeout: f64,
    /// Accepted for editors that pass it; stdio is the only transport.
    #[arg(long, hide = true)]
    pub stdio: bool,
}

pub fn main(args: LspArgs, front: &crate::frontend::Options) -> i32 {
    let Ok(timeout) = Duration::try_from_secs_f64(args.timeout) else {
        eprintln!("error: --timeout {}: expected a non-negative number of seconds", args.timeout);
        return 3;
    };
    let decide = DecideOptions { timeout, ..DecideOptions::default() };
    match crate::lsp::run_stdio(
        decide,
        crate::frontend::Options { time_limit: Some(timeout), ..front.clone() },
    ) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("forex lsp: {e}");
            3
        }
    }
}
