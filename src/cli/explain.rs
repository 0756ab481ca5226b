//! `forex explain`: what a diagnostic or warning code means.

use crate::diag::code::{explain, CODES};
use clap::Args;

/// Explain a diagnostic or warning code (`E0001`, `W0100`, …); without one, list them all.
///
/// Codes appear in `--diagnostics json` (`code`), in the LSP's diagnostics and in
/// reports' warnings (`warning[W0100]`).
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  forex explain E0200\n  forex explain")]
pub struct ExplainArgs {
    /// The code, e.g. E0001 (case does not matter).
    pub code: Option<String>,
}

pub fn main(args: ExplainArgs) -> i32 {
    match args.code {
        None => {
            for (code, text) in CODES {
                let first = text.split(". ").next().unwrap_or(text).trim_end_matches('.');
                outln!("{code}  {first}");
            }
            0
        }
        Some(code) => match explain(&code) {
            Some(text) => {
                outln!("{}: {text}", code.to_uppercase());
                0
            }
            None => {
                let known: Vec<&str> = CODES.iter().map(|(c, _)| *c).collect();
                eprintln!("error: unknown code {code} (the codes are {})", known.join(", "));
                3
            }
        },
    }
}
