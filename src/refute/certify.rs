//! The obligations of the refuter's exhaustive searches, for certificates and the ∃
//! strategy (`--explain`, JSON): `verified` because every ∀ run was
//! explored and matched (`Proof::exhaustive`), or, for a temporal tuple, because no ∀ run
//! reaches observation N + 1 and every prefix up to N observations was matched
//! (`Proof::observation_bound`). The search's claims become standalone SMT-LIB scripts,
//! each expected `unsat`, over the merged encoding of the copies that the temporal
//! refuter uses (`refute::temporal::symex`: one formula per copy, exact up to an
//! unrolling bound, choices as constants, nothing mined or summarised). A sequential
//! program observes once, at its end, so one encoding serves both kinds of tuple. Per
//! observation index n (sequential tuples: n = 1 only):
//! 1. *no ∀ run goes past the bound*: `pre`, every ∀ copy reaches observation n within
//!    the bound or is still looping at it, and some ∀ copy is still looping — unsat;
//! 2. *every ∀ run has an ∃ run*: `pre` and every ∀ copy reaching observation n within
//!    the bound, but not (every ∃ copy reaching it within the bound and φ at every index
//!    up to n) — unsat, with the ∃ copies' choice constants defined (`define-fun`) as
//!    terms over the ∀ values (initial values and ∀ choices): the ∃ strategy. Without
//!    such terms the script keeps the choices quantified (`forall`), which a second
//!    solver may not decide.
//!
//! and for a temporal tuple
//! 3. *no ∀ run reaches observation N + 1*: `pre` and every ∀ copy reaching it within the
//!    bound or still looping at it — unsat.
//!
//! Why they prove the tuple: take any ∀ runs from initial values satisfying `pre` with n
//! observations each (sequential: terminating runs). Each copy's run either reaches
//! observation n within the bound or is still looping at it; by 1 the latter is
//! impossible, so each is one of the encoded runs within the bound, and by 2 the ∃
//! copies' choices given by the strategy make every ∃ copy reach observation n with φ at
//! every index: the encoding of the ∃ side is exact up to its bound, so these are real ∃
//! runs. Every n up to N is covered this way, and by 3 there is nothing to check beyond
//! N (no ∀ prefix with N + 1 observations exists). The encoding itself (what a run of a
//! copy is) is forex's, as in every other certificate.
//!
//! The bound is not the search's (which steps loop iterations whose exit is impossible
//! without counting them): each claim is tried at growing bounds, and a script is kept
//! only once Z3, reading the script's own text, answers `unsat`.

use crate::cancel::Cancel;
use crate::ir::{Quantifier, Tuple};
use crate::refute::temporal::prefix::exists_side;
use crate::refute::temporal::symex::{encode_copy_certified, Encoded, PastBound};
use crate::smt::encode::{encode_bool, named};
use crate::smt::record::{self, Recorded};
use crate::smt::session::Sat;
use crate::verdict::Proof;
use std::time::Duration;
use z3::ast::{Bool, Dynamic};

/// Unrolling bounds tried per claim.
const UNROLLS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// Longest Z3 may take on one script before the next bound is tried.
const SCRIPT_LIMIT: Duration = Duration::from_secs(10);

/// What an exhaustive search's certificate holds.
pub struct Certified {
    /// The obligations and the ∃ strategy read off them.
    pub recorded: crate::verdict::Recorded,
    /// Why some claim is not in it (then the certificate is only partly certified).
    pub missing: Vec<String>,
}

/// Whether `proof` is the refuter's exhaustive search (the proofs this module certifies).
pub fn is_exhaustive(proof: &Proof) -> bool {
    proof.exhaustive.is_some() || proof.observation_bound.is_some()
}

/// The scripts of an exhaustive search's claims for `tuple` (module comment); `cancel`
/// bounds Z3's checks of them (a claim not confirmed in time is missing).
pub fn obligations(tuple: &Tuple, proof: &Proof, cancel: &Cancel) -> Certified {
    let mut items: Vec<Recorded> = Vec::new();
    let mut missing = Vec::new();
    let init: Vec<Dynamic> = tuple
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| named(&format!("{}@0", tuple.var_display(crate::ir::VarId(i as u32))), &v.ty))
        .collect();
    let pre = encode_bool(&tuple.pre, &|v| init[v.index()].clone());
    let reactive = tuple.is_reactive();
    let last = match proof.observation_bound {
        Some(n) if reactive => n as usize,
        _ => 1,
    };
    for n in 1..=last {
        let at = if reactive { format!(" (prefixes of {n} observations)") } else { String::new() };
        match claims_at(tuple, &init, &pre, n, &at, cancel) {
            Ok(mut found) => items.append(&mut found),
            Err(why) => missing.push(why),
        }
    }
    if reactive {
        match beyond(tuple, &init, &pre, last + 1, cancel) {
            Ok(item) => items.push(item),
            Err(why) => missing.push(why),
        }
    }
    Certified { recorded: record::into_proof(items), missing }
}

/// Every ∀ copy encoded up to observation `n` at bound `unroll` (∃ entries unused).
fn encode_forall(tuple: &Tuple, init: &[Dynamic], n: usize, unroll: u32) -> Vec<Encoded> {
    (0..tuple.copies.len())
        .map(|c| match tuple.copies[c].quantifier {
            Quantifier::Forall => {
                encode_copy_certified(tuple, c, init, n, unroll, PastBound::Residual)
            }
            Quantifier::Exists => crate::refute::temporal::prefix::placeholder(),
        })
        .collect()
}

/// The ∀ copies' guards: each reaches observation n within the bound, and each reaches
/// it within the bound or is still looping at it.
fn forall_guards(tuple: &Tuple, enc: &[Encoded]) -> (Vec<Bool>, Vec<Bool>) {
    let mut reached = Vec::new();
    let mut live = Vec::new();
    for (c, _) in tuple.forall_copies() {
        let g = enc[c].done.as_ref().map_or(Bool::from_bool(false), |d| d.guard.clone());
        live.push(Bool::or(&[g.clone(), enc[c].residual.clone()]));
        reached.push(g);
    }
    (reached, live)
}

/// Claims 1 and 2 at observation index `n`.
fn claims_at(
    tuple: &Tuple,
    init: &[Dynamic],
    pre: &Bool,
    n: usize,
    at: &str,
    cancel: &Cancel,
) -> Result<Vec<Recorded>, String> {
    // 1: the smallest bound past which no ∀ run goes.
    let mut found = None;
    for unroll in UNROLLS {
        let enc = encode_forall(tuple, init, n, unroll);
        let (_, live) = forall_guards(tuple, &enc);
        let looping: Vec<Bool> =
            tuple.forall_copies().map(|(c, _)| enc[c].residual.clone()).collect();
        let mut parts = vec![pre.clone()];
        parts.extend(live);
        parts.push(Bool::or(&looping));
        let step = format!("no ∀ run goes past {unroll} iteration(s) of a loop{at}");
        let item = record::standalone(&step, &Bool::and(&parts).not(), &[], init);
        if z3_unsat(&item.script, cancel) {
            found = Some((unroll, enc, item));
            break;
        }
    }
    let Some((unroll, enc, past)) = found else {
        return Err(format!(
            "a ∀ run may go past {} iterations per loop{at}: no script says that every ∀ run \
             was explored",
            UNROLLS[UNROLLS.len() - 1]
        ));
    };
    // 2: the smallest ∃ bound with a witness for every ∀ run within the ∀ bound.
    let (reached, _) = forall_guards(tuple, &enc);
    let mut hyp = vec![pre.clone()];
    hyp.extend(reached);
    let hyp = Bool::and(&hyp);
    let forall_obs = |c: usize, i: usize| enc[c].done.as_ref().expect("reached").obs[i].clone();
    let has_exists = tuple.exists_copies().next().is_some();
    for unroll_e in UNROLLS {
        let mut all = enc.iter().map(clone_encoded).collect::<Vec<_>>();
        for (c, _) in tuple.exists_copies() {
            all[c] = encode_copy_certified(tuple, c, init, n, unroll_e, PastBound::Residual);
        }
        let witness = if tuple.forall_copies().all(|(c, _)| enc[c].done.is_some()) {
            exists_side(tuple, &all, n, &forall_obs).0
        } else {
            // Some ∀ copy never reaches observation n: the hypothesis is false.
            Bool::from_bool(true)
        };
        let params: Vec<Dynamic> = tuple
            .exists_copies()
            .flat_map(|(c, _)| all[c].choices.iter().map(|(k, _)| k.clone()))
            .collect();
        let mut known: Vec<Dynamic> = init.to_vec();
        for (c, _) in tuple.forall_copies() {
            known.extend(enc[c].choices.iter().map(|(k, _)| k.clone()));
        }
        known.extend(params.iter().cloned());
        let step = if has_exists {
            format!("every ∀ run has an ∃ run within {unroll_e} iteration(s) of a loop{at}")
        } else {
            format!("every ∀ run satisfies the property{at}")
        };
        let item = record::standalone(&step, &hyp.implies(&witness), &params, &known);
        if z3_unsat(&item.script, cancel) {
            let _ = unroll;
            return Ok(vec![past, item]);
        }
        if !has_exists {
            break;
        }
    }
    Err(if has_exists {
        format!(
            "no ∃ strategy within {} iterations per loop that Z3 confirms{at}",
            UNROLLS[UNROLLS.len() - 1]
        )
    } else {
        format!("Z3 did not confirm the property for every ∀ run{at}")
    })
}

fn clone_encoded(e: &Encoded) -> Encoded {
    Encoded {
        done: e.done.clone(),
        residual: e.residual.clone(),
        approx: e.approx.clone(),
        choices: e.choices.clone(),
    }
}

/// Claim 3: no ∀ run reaches observation `n`.
fn beyond(
    tuple: &Tuple,
    init: &[Dynamic],
    pre: &Bool,
    n: usize,
    cancel: &Cancel,
) -> Result<Recorded, String> {
    for unroll in UNROLLS {
        let enc = encode_forall(tuple, init, n, unroll);
        let (_, live) = forall_guards(tuple, &enc);
        let mut parts = vec![pre.clone()];
        parts.extend(live);
        let step = format!("no ∀ run reaches observation {n} (loops up to {unroll} iteration(s))");
        let item = record::standalone(&step, &Bool::and(&parts).not(), &[], init);
        if z3_unsat(&item.script, cancel) {
            return Ok(item);
        }
    }
    Err(format!("Z3 did not confirm that no ∀ run reaches observation {n}"))
}

/// Whether Z3, reading `script` as text, answers `unsat` within [`SCRIPT_LIMIT`].
pub fn z3_unsat(script: &str, cancel: &Cancel) -> bool {
    let solver = crate::smt::session::solver();
    solver.from_string(script);
    crate::smt::session::check(&solver, &[], cancel, Some(SCRIPT_LIMIT)) == Sat::Unsat
}
