//! Shared test support: a brute-force oracle, random tuple generators, an IR builder.
//! A module of the `it` test crate; every layer uses what it needs through `crate::common`.
#![allow(dead_code)]

pub mod brute;
pub mod build;
pub mod cgen;
pub mod corpus;
pub mod fe;
pub mod gen;
