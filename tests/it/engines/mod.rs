//! The engines (prover, refuter, hypertesting, portfolio) called as a library.

mod cuts;
mod examples;
mod hypertest_examples;
mod lang_features;
mod limits;
mod portfolio_search;
mod prove_comparators;
mod prove_decides_more;
mod prove_examples;
mod prove_exists_arrays;
mod prove_fe;
mod prove_leftovers;
mod prove_loops;
mod prove_prophecy;
mod prove_scale;
mod prove_steering;
mod prove_temporal;
mod prove_transformations;
mod qe_interrupts;
mod refute_deep;
mod refute_examples;
mod refute_random;
mod refute_scale;
mod soundness_audit;
mod strings;
