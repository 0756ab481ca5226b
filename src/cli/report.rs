//! `forex report merge`: combine JSON reports (e.g. of `--shard` jobs) into one.

use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// Work on JSON reports written by `forex prove --format json` or `forex test`.
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  forex report merge shard1.json shard2.json --output all.json")]
pub struct ReportArgs {
    #[command(subcommand)]
    pub command: ReportCommand,
}

#[derive(Subcommand, Debug)]
pub enum ReportCommand {
    /// Merge JSON reports (e.g. one per `--shard i/n` job) into one report with one
    /// summary; exits with the largest verdict code among them.
    ///
    /// Example: forex report merge shard1.json shard2.json --output all.json
    Merge {
        /// The JSON reports.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Write the merged report here instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

pub fn main(args: ReportArgs) -> i32 {
    let ReportCommand::Merge { reports, output } = args.command;
    let mut texts = Vec::new();
    for path in &reports {
        match std::fs::read_to_string(path) {
            Ok(t) => texts.push((path.display().to_string(), t)),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return 3;
            }
        }
    }
    let merged = match crate::report::merge::merge_json(&texts) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return 3;
        }
    };
    let mut text = serde_json::to_string_pretty(&merged).unwrap_or_default();
    text.push('\n');
    let written = match &output {
        Some(path) => std::fs::write(path, &text),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other,
            }
        }
    };
    if let Err(e) = written {
        eprintln!("error: cannot write the merged report: {e}");
        return 3;
    }
    crate::report::merge::exit_code(&merged)
}
