//! Shared test support: a brute-force oracle, random tuple generators, an IR builder.
//! Each test file includes it with `mod common;` and uses what it needs.
#![allow(dead_code)]

pub mod brute;
pub mod build;
pub mod gen;
