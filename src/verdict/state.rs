//! Counterexample ⇄ tuple state: the one place that reads a [`Counterexample`]'s
//! per-copy maps into a state indexed by `VarId`, and writes states back into
//! [`CopyRun`]s. Used by replay, the refuter, the tester and `forex run --replay`.

use super::{CopyRun, Counterexample};
use crate::ir::{Quantifier, Tuple};
use crate::value::Value;
use std::collections::BTreeMap;

impl Counterexample {
    /// The recorded run of copy `name`.
    pub fn run_of(&self, name: &str) -> Result<&CopyRun, String> {
        self.copies
            .iter()
            .find(|r| r.copy == name)
            .ok_or_else(|| format!("the counterexample has no run of copy {name}"))
    }

    /// The initial value of every tuple variable, indexed by `VarId`. Every value must
    /// be recorded and of its variable's type.
    pub fn initial_state(&self, tuple: &Tuple) -> Result<Vec<Value>, String> {
        let mut state = Vec::with_capacity(tuple.vars.len());
        for tv in &tuple.vars {
            let copy = &tuple.copies[tv.copy];
            let run = self.run_of(&copy.name)?;
            let v = run
                .initial
                .get(&tv.name)
                .ok_or_else(|| format!("no initial value for {}.{}", copy.name, tv.name))?;
            if !v.has_type(&tv.ty) {
                return Err(format!(
                    "the initial value {v} of {}.{} is not a {}",
                    copy.name, tv.name, tv.ty
                ));
            }
            state.push(v.clone());
        }
        Ok(state)
    }

    /// The state an ∃-run check takes, as the counterexample records it: final values of
    /// the ∀ copies, initial values of the ∃ copies.
    pub fn end_state(&self, tuple: &Tuple) -> Result<Vec<Value>, String> {
        let mut state = self.initial_state(tuple)?;
        for (i, tv) in tuple.vars.iter().enumerate() {
            let copy = &tuple.copies[tv.copy];
            if copy.quantifier == Quantifier::Forall {
                let run = self.run_of(&copy.name)?;
                let fin = run.final_state.as_ref().and_then(|f| f.get(&tv.name));
                state[i] = fin
                    .ok_or_else(|| format!("no final value for {}.{}", copy.name, tv.name))?
                    .clone();
            }
        }
        Ok(state)
    }
}

impl CopyRun {
    /// Copy `copy` of `tuple` as a counterexample records it, from tuple states indexed
    /// by `VarId`: its initial values, its choices and (for ∀ copies) its final values.
    pub fn from_states(
        tuple: &Tuple,
        copy: usize,
        initial: &[Value],
        choices: Vec<Value>,
        final_state: &[Value],
    ) -> CopyRun {
        let c = &tuple.copies[copy];
        let by_name = |s: &[Value]| -> BTreeMap<String, Value> {
            c.vars.iter().map(|v| (tuple.var(*v).name.clone(), s[v.index()].clone())).collect()
        };
        let forall = c.quantifier == Quantifier::Forall;
        CopyRun {
            copy: c.name.clone(),
            program: c.program.clone(),
            quantifier: c.quantifier,
            initial: by_name(initial),
            choices: if forall { choices } else { Vec::new() },
            final_state: forall.then(|| by_name(final_state)),
        }
    }
}
