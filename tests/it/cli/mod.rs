//! The `forex` binary: subcommands, exit codes, reports.

mod certify;
mod check;
mod editor;
mod equiv;
mod equiv_recursion;
mod native;
mod neovim;
mod portfolio;
mod prove;
mod recovery;
mod refute;
mod report_snapshots;
mod rough_edges;
mod run_test;
