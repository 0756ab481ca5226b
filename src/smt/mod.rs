//! The SMT layer: the one IR → Z3 encoding shared by every engine, and (in `query`)
//! the ∀∃∀ query builder with its cache and limits.

pub mod encode;
pub mod incremental;
pub mod light;
pub mod memory;
pub mod query;
pub mod record;
pub mod session;
