//! The brute-force oracle and random tuples: the oracle's answers, the generator, and
//! differential soundness hunts of the engines against the oracle.

mod answers;
mod c_native;
mod c_native_floats;
mod differential;
mod generator;
mod hypertest_differential;
mod reactive;
mod refute_deep;
mod semantics;
