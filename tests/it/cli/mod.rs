//! The `forex` binary: subcommands, exit codes, reports.

mod check;
mod prove;
mod refute;
mod run_test;
