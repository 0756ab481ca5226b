//! `.fe` source in a test: its first tuple, and the prover's verdict on it.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::Tuple;
use forex::prove::{prove, ProveOptions};
use forex::verdict::Verdict;
use std::time::Duration;

/// The first tuple of `src` (read as `t.fe`); a load error fails the test.
pub fn first_tuple(src: &str) -> Tuple {
    let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe)
        .unwrap_or_else(|d| panic!("does not load: {d:?}"));
    m.tuples.into_iter().next().expect("one tuple")
}

/// The prover's verdict on the first tuple of `src`, within `secs` seconds.
pub fn prove_first(src: &str, secs: u64) -> Verdict {
    let cancel = Cancel::new().with_timeout(Duration::from_secs(secs));
    prove(&first_tuple(src), &ProveOptions::default(), &cancel).verdict
}
