//! The front end: parsing and checking `.fe` and ForEx input, diagnostics, the IR.

mod c_annotations;
mod c_diagnostics;
mod c_floats;
mod c_memory;
mod c_preprocess;
mod c_recursion;
mod c_semantics;
mod c_stdlib;
mod check_valid;
mod diagnostics;
mod doc_examples;
mod fe_roundtrip;
mod fuzz;
mod ir_invariants;
mod lang_diagnostics;
mod recovery;
