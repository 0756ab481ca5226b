//! forex: a verifier for ∀∃ hyperproperties of programs.
//!
//! Flow: syntax → checked IR → engines (prove, refute, test) → verdicts → reports.
//! See ARCHITECTURE.md for the code map and the invariants.

pub mod batch;
pub mod c;
pub mod cancel;
pub mod cc;
pub mod certificate;
pub mod check;
pub mod cli;
pub mod diag;
pub mod equiv;
pub mod frontend;
pub mod hypertest;
pub mod interp;
pub mod interrupt;
pub mod ir;
pub mod lsp;
pub mod native;
pub mod observation;
pub mod portfolio;
pub mod pretty;
pub mod prove;
pub mod refute;
pub mod report;
pub mod smt;
pub mod stack;
pub mod symex;
pub mod syntax;
pub mod vacuity;
pub mod value;
pub mod verdict;
