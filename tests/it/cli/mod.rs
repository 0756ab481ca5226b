//! The `forex` binary: subcommands, exit codes, reports.

mod check;
mod editor;
mod prove;
mod recovery;
mod refute;
mod report_snapshots;
mod run_test;
