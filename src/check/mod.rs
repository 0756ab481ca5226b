//! The checker: name resolution and types, syntax tree → IR.
