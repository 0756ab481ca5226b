//! Concrete interpreter over the IR: replays counterexamples and runs hypertests.
//! (Stub: the foundation issue implements it; signatures are the contract.)

use crate::ir::{Loc, Program, Tuple, Type};
use crate::value::Value;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Reached the end of the program.
    Finished,
    /// An `assume` was false: the execution is discarded.
    Blocked { at: Loc },
    /// The step limit was reached ("did not terminate within N steps").
    StepLimit { steps: u64 },
    /// The chooser had no value for a nondeterministic choice.
    OutOfChoices { at: Loc },
}

/// A completed (or stopped) run.
#[derive(Clone, Debug)]
pub struct Run {
    pub end: RunEnd,
    /// Every choice made, in order (`x = *` values, `if (*)` booleans).
    pub choices: Vec<Value>,
    pub steps: u64,
}

/// Resolves nondeterminism: `x = *` asks for a value of `x`'s type, `if (*)` for a bool.
pub trait Chooser {
    fn choose(&mut self, ty: &Type, at: Loc) -> Option<Value>;
}

/// Replays a recorded list of choices in order.
pub struct Replay {
    pub choices: Vec<Value>,
    pub next: usize,
}

impl Chooser for Replay {
    fn choose(&mut self, _ty: &Type, _at: Loc) -> Option<Value> {
        let v = self.choices.get(self.next).cloned();
        self.next += 1;
        v
    }
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum InterpError {
    #[error("choice {value} at {at} does not have type {expected}")]
    BadChoice { value: Value, expected: Type, at: Loc },
}

/// Runs copy `copy` of `tuple` on `state` (indexed by the tuple's `VarId`s; only this
/// copy's variables are read or written).
pub fn run_copy(
    _tuple: &Tuple,
    _copy: usize,
    _state: &mut [Value],
    _chooser: &mut dyn Chooser,
    _max_steps: u64,
) -> Result<Run, InterpError> {
    unimplemented!("interpreter")
}

/// Runs a program on `state` (indexed by the program's `VarId`s).
pub fn run_program(
    _program: &Program,
    _state: &mut [Value],
    _chooser: &mut dyn Chooser,
    _max_steps: u64,
) -> Result<Run, InterpError> {
    unimplemented!("interpreter")
}
