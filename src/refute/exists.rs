//! Does some run of the ∃ copies match given concrete ∀ outcomes? Used by the refuter's
//! replay and by hypertesting of ∀∃ tuples. (Stub: issue "Refute".)

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::value::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExistsAnswer {
    /// Some terminating runs of the ∃ copies satisfy `post`.
    Witness,
    /// Proved: no terminating run of the ∃ copies satisfies `post` (every terminating
    /// run was covered by the bound).
    NoRun { explanation: String },
    /// Could not decide (bound too small for a complete answer, solver unknown, timeout).
    Unknown { reason: String },
}

/// `state` holds, for every tuple variable, the final value of a ∀ copy's variable and
/// the initial value of an ∃ copy's variable. Decides whether the ∃ copies have
/// terminating runs from those initial values whose final states, together with the ∀
/// final states, satisfy the tuple's `post`.
pub fn exists_run(_tuple: &Tuple, _state: &[Value], _cancel: &Cancel) -> ExistsAnswer {
    ExistsAnswer::Unknown { reason: "∃-run checks are not implemented yet".into() }
}
