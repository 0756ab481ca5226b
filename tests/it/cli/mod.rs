//! The `forex` binary: subcommands, exit codes, reports.

mod check;
mod editor;
mod portfolio;
mod prove;
mod refute;
mod report_snapshots;
mod run_test;
