//! The ForEx prover: parametric strongest postconditions (genpp), loop alignment by an
//! invariant/counter lattice, and ∀∃∀ queries to Z3 (../shared/DESIGN.md §2).
//!
//! Soundness rests on three rules: every symbol has one global id and is never renamed;
//! every obligation of a path (∃-side restrictions, initiations, merged consecutions and
//! the postcondition) is checked in one ∀∃∀ query, so the parameters are chosen once;
//! and only `Valid` answers count — `unknown` and timeouts make the verdict `unknown`.

mod genpp;
mod loops;
mod mine;
mod rank;
mod state;

use crate::cancel::Cancel;
use crate::ir::Tuple;
use crate::smt::query::QueryEngine;
use crate::verdict::{Engine, Outcome, Proof, Stats, UnknownReason, Verdict};
use genpp::{Cfg, End, Fail, FailKind, Item, Prover};
use state::{Acc, Kind, Scope, SymState, Syms};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug, Default)]
pub struct ProveOptions {
    /// Record candidates tried per loop point in the proof (`--explain`).
    pub explain: bool,
    /// Write every SMT query as SMT-LIB into this folder (`--dump-smt`).
    pub dump_smt: Option<PathBuf>,
}

/// Tries to prove `tuple` valid. The deadline and cancellation come with `cancel`.
///
/// The proof always lists every loop point with its candidates tried, so `explain`
/// needs no extra work here.
pub fn prove(tuple: &Tuple, opts: &ProveOptions, cancel: &Cancel) -> Outcome {
    if tuple.is_reactive() {
        return Outcome::unsupported(Engine::Prove, crate::verdict::REACTIVE_UNSUPPORTED);
    }
    let start = Instant::now();
    let mut p = Prover {
        tuple,
        syms: Syms::default(),
        smt: QueryEngine::new(cancel, opts.dump_smt.clone(), &tuple.name),
        cancel: cancel.clone(),
        candidates: 0,
        obligations: 0,
        proof: Vec::new(),
        closest: None,
        saw_unknown: None,
        loop_instances: 0,
        probe_failed: Vec::new(),
        ranking: None,
    };
    let main = Scope { floor: 0, conj: false };
    let mut vars = im::HashMap::new();
    for (i, tv) in tuple.vars.iter().enumerate() {
        let v = crate::ir::VarId(i as u32);
        vars.insert(v, p.syms.fresh(main, &tuple.var_display(v), &tv.ty, Kind::Univ));
    }
    let mut st = SymState { vars, pc: im::Vector::new() };
    let pre = st.eval_bool(&tuple.pre);
    st.pc.push_back(pre);
    let conts = tuple.copies.iter().map(|c| c.body.iter().map(Item::S).collect()).collect();
    let cfg = Cfg { conts, st, unrolled: 0 };
    let result = p.run(cfg, Acc::new(), main, &End::Post);
    let verdict = match result {
        Ok(_) => Verdict::Verified {
            proof: Proof {
                loop_points: p.proof.clone(),
                obligations: p.obligations,
                observation_bound: None,
            },
        },
        Err(f) => {
            let loop_free = tuple.copies.iter().all(|c| !genpp::has_loop(&c.body));
            let undecided =
                |f: &Fail| format!("the prover could not decide a proof obligation: {}", f.msg);
            let reason = match f.kind {
                FailKind::Stopped => UnknownReason::Cancelled(undecided(&f)),
                FailKind::Undecided => UnknownReason::SolverUnknown(undecided(&f)),
                FailKind::Invalid | FailKind::NoInvariant if loop_free => {
                    UnknownReason::NotProved(format!(
                        "not valid: {} fails for some ∀ runs whatever the ∃ copies choose (the \
                     encoding of loop-free programs is exact); the refuter can produce a \
                     counterexample",
                        f.msg
                    ))
                }
                FailKind::NoInvariant => UnknownReason::NoInvariant(f.msg),
                FailKind::Invalid => UnknownReason::NotProved(f.msg),
            };
            Verdict::Unknown { reason }
        }
    };
    Outcome {
        verdict,
        engine: Engine::Prove,
        time: start.elapsed(),
        stats: Stats { queries: p.smt.queries(), candidates: p.candidates, ..Stats::default() },
    }
}
