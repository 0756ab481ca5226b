//! Where reactive copies observe, below the engines: each copy's observation points and
//! the silent segments between them (`graph`, for the temporal prover), and temporal
//! tuples that mean a `post` tuple because every copy observes once, at its end
//! (`sequential`, for the prover, the refuter's certificates and the portfolio). Reads
//! the IR only.

pub mod graph;
pub mod sequential;
