//! Tables the copies only read: input arrays no copy writes and some copy reads by
//! index (a C library function's uninterpreted table, `log` read at `log[bits(x)]`; a
//! `.fe` array input). A random array is one default value with a few entries at small
//! indices, so every read of a table at a large index (a float's bit pattern) gives the
//! default: `log(a)` and `log(b)` agree for every `a` and `b`, and a difference that flows
//! only through a library function's argument is never seen. After a run the search
//! learns where the copies read each table (`Tables::reads`, an observer beside the
//! coverage trace) and may spread the table (`Tables::spread`): each index read gets a
//! value of its own, drawn from a hash of the table's name and the index, so that
//! copies of one function (tables of one name, equal under `pre`) get equal entries.
//! The spread test is an ordinary input: a violation it shows is replayed as any other.

use super::values::Values;
use crate::interp::eval_expr;
use crate::ir::{Expr, ExprKind, Stmt, Tuple, Type, VarId};
use crate::value::Value;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hash::{Hash, Hasher};

/// At most this many indices are learned per run (a loop over a table reads many).
const MAX_READS: usize = 64;

#[derive(Default)]
pub struct Tables {
    vars: Vec<VarId>,
}

impl Tables {
    /// The tables of `tuple`: array variables of a ∀ copy it never writes and reads by
    /// index somewhere in its body.
    pub fn of(tuple: &Tuple) -> Tables {
        let mut vars = Vec::new();
        for copy in tuple.copies.iter().filter(|c| c.quantifier == crate::ir::Quantifier::Forall) {
            let written = crate::ir::modified_vars(&copy.body);
            let mut read = Vec::new();
            crate::ir::for_each_expr(&copy.body, &mut |e| selects(e, &mut |v, _| read.push(v)));
            for v in read {
                let array = matches!(tuple.var(v).ty, Type::Array(_));
                if array && !written.contains(&v) && !vars.contains(&v) {
                    vars.push(v);
                }
            }
        }
        Tables { vars }
    }

    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// Records the table reads of `stmt`'s own expressions (not its nested blocks') on
    /// `state`, before it runs: (table, index).
    pub fn reads(&self, stmt: &Stmt, state: &[Value], out: &mut Vec<(VarId, Value)>) {
        if self.vars.is_empty() || out.len() >= MAX_READS {
            return;
        }
        for e in crate::ir::own_exprs(stmt) {
            selects(e, &mut |v, index| {
                if out.len() < MAX_READS && self.vars.contains(&v) {
                    if let Ok(i) = eval_expr(index, state) {
                        if !out.iter().any(|(w, j)| *w == v && *j == i) {
                            out.push((v, i));
                        }
                    }
                }
            });
        }
    }

    /// Gives each index of `reads` its own value in `input`, in every table of the
    /// read one's name (where it has no entry there yet); whether anything changed. `salt` varies the values
    /// between spreads of one test.
    pub fn spread(
        &self,
        tuple: &Tuple,
        input: &mut [Value],
        reads: &[(VarId, Value)],
        values: &Values,
        salt: u64,
    ) -> bool {
        let mut changed = false;
        for (v, index) in reads {
            let Some(i) = index_of(index) else { continue };
            let var = tuple.var(*v);
            let Type::Array(elem) = &var.ty else { continue };
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&var.name, &i, salt).hash(&mut h);
            let value = values.random(elem, &mut ChaCha8Rng::seed_from_u64(h.finish()));
            // Every copy's table of this name: `pre` asks them equal.
            for &w in self.vars.iter().filter(|&&w| tuple.var(w).name == var.name) {
                if tuple.var(w).ty != var.ty {
                    continue;
                }
                if let Some(arr @ Value::Array { .. }) = input.get_mut(w.index()) {
                    let Value::Array { entries, .. } = &*arr else { continue };
                    if !entries.contains_key(&i) {
                        arr.store(i.clone(), value.clone());
                        changed = true;
                    }
                }
            }
        }
        changed
    }
}

fn index_of(v: &Value) -> Option<num_bigint::BigInt> {
    match v {
        Value::Int { value } => Some(value.clone()),
        _ => None,
    }
}

/// Calls `f(table, index)` for each `select(table, index)` in `e`, a table being a
/// variable.
fn selects(e: &Expr, f: &mut dyn FnMut(VarId, &Expr)) {
    if let ExprKind::Select(a, i) = &e.kind {
        if let ExprKind::Var(v) = a.kind {
            f(v, i);
        }
    }
    for c in e.children() {
        selects(c, f);
    }
}
