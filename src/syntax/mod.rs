//! Syntax: pest parser for `.fe` and the ForEx format → span-carrying AST.
