//! Symbols, symbolic states and the obligations a proof attempt accumulates.
//!
//! Every symbol (initial value, ∀-side choice, parameter, loop-summary value) gets a
//! globally unique id when it is created and is never renamed: a parameter created
//! before a branch is the same parameter in both branches (../shared/DESIGN.md, "Known traps").

use crate::ir::{Expr, Type, VarId};
use crate::smt::encode;
use crate::smt::query::Class;
use std::collections::HashMap;
use z3::ast::{Bool, Dynamic};

/// What a symbol stands for; with the scope it fixes the quantifier class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An initial value or a ∀-side choice / loop summary.
    Univ,
    /// A parameter: an ∃-side choice decided by the solver.
    Param,
    /// An ∃-side value after a loop (its invariant describes it).
    ExHavoc,
    /// A ∀-side value where a lockstep with ∃ loops stopped: how far the ∀ loop got
    /// depends on when the ∃ loops stopped, so on the ∃ choices, and a parameter must
    /// not be chosen knowing it.
    Midway,
    /// A loop-head value in a consecution check of its own.
    Head,
}

/// Which query the current obligations belong to.
///
/// Symbols created at or after `floor` are classified by their kind; older symbols belong
/// to an enclosing query and are universally quantified in front (the ∃ player knows
/// everything that happened before). In a `conj` scope (a consecution merged into the
/// enclosing query because its ∃ bodies make no choices) every new symbol is innermost
/// universal: the enclosing parameters must not depend on one loop iteration's values.
#[derive(Clone, Copy, Debug)]
pub struct Scope {
    pub floor: u32,
    pub conj: bool,
}

#[derive(Default)]
pub struct Syms {
    info: HashMap<Dynamic, (u32, Class)>,
    all: Vec<Dynamic>,
    /// The id of the latest parameter (class `P`) made, if any.
    last_param: Option<u32>,
}

impl Syms {
    pub fn next_id(&self) -> u32 {
        self.all.len() as u32
    }

    /// A new symbol of type `ty`; `name` is for dumps and debugging only.
    pub fn fresh(&mut self, scope: Scope, name: &str, ty: &Type, kind: Kind) -> Dynamic {
        let id = self.next_id();
        // `#` forces SMT-LIB quoting, so printed names never clash (see `QueryEngine::valid`).
        let sym = encode::named(&format!("{name}#{id}"), ty);
        let class = if scope.conj {
            Class::B
        } else {
            match kind {
                Kind::Univ | Kind::Head => Class::A,
                Kind::Param => Class::P,
                Kind::ExHavoc | Kind::Midway => Class::B,
            }
        };
        self.info.insert(sym.clone(), (id, class));
        self.all.push(sym.clone());
        if class == Class::P {
            self.last_param = Some(id);
        }
        sym
    }

    /// Whether a query of a scope with this floor has parameters so far: without them,
    /// its obligations are independent of each other (`∀A ∃P ∀B` distributes over a
    /// conjunct without P), so a valid one need not be checked again.
    pub fn params_since(&self, floor: u32) -> bool {
        self.last_param.is_some_and(|id| id >= floor)
    }

    pub fn class(&self, floor: u32, c: &Dynamic) -> Class {
        match self.info.get(c) {
            Some((id, class)) if *id >= floor => *class,
            _ => Class::A,
        }
    }

    /// Symbols of this scope that are not outermost (for quantified pre/post).
    pub fn inner_since(&self, floor: u32) -> Vec<Dynamic> {
        self.all[floor as usize..]
            .iter()
            .filter(|s| self.info.get(*s).is_some_and(|(_, c)| *c != Class::A))
            .cloned()
            .collect()
    }
}

/// A symbolic state: each variable's current term and the path condition (as conjuncts).
#[derive(Clone)]
pub struct SymState {
    pub vars: im::HashMap<VarId, Dynamic>,
    pub pc: im::Vector<Bool>,
}

impl SymState {
    pub fn eval(&self, e: &Expr) -> Dynamic {
        encode::encode(e, &|v| self.vars.get(&v).expect("every tuple variable has a term").clone())
    }
    pub fn eval_bool(&self, e: &Expr) -> Bool {
        self.eval(e).as_bool().expect("checked IR: boolean expression")
    }
    pub fn eval_all(&self, es: &[Expr]) -> Bool {
        let parts: Vec<Bool> = es.iter().map(|e| self.eval_bool(e)).collect();
        Bool::and(&parts)
    }
    pub fn pc_formula(&self) -> Bool {
        let parts: Vec<Bool> = self.pc.iter().cloned().collect();
        Bool::and(&parts)
    }
    /// The obligation "on this path, `goal` holds".
    pub fn implies(&self, goal: &Bool) -> Bool {
        self.pc_formula().implies(goal)
    }
    /// Joins the states after `if (c)`: each variable keeps the latest term of each branch.
    pub fn join(c: &Bool, base_pc_len: usize, then: SymState, els: SymState) -> SymState {
        let mut vars = then.vars.clone();
        for (v, te) in els.vars.iter() {
            let tt = &then.vars[v];
            if !tt.ast_eq(te) {
                vars.insert(*v, c.ite(tt, te));
            }
        }
        // The branches' own path conjuncts (after the branch condition itself).
        let extra = |s: &SymState| {
            let parts: Vec<Bool> = s.pc.iter().skip(base_pc_len + 1).cloned().collect();
            parts
        };
        let (et, ee) = (extra(&then), extra(&els));
        let mut pc = then.pc.clone();
        pc.truncate(base_pc_len);
        if !et.is_empty() || !ee.is_empty() {
            pc.push_back(c.ite(&Bool::and(&et), &Bool::and(&ee)));
        }
        SymState { vars, pc }
    }
}

/// The obligations of one query, as a persistent conjunction.
pub type Acc = im::Vector<Bool>;
