//! What an engine concludes about one tuple. Shared by all engines and all reports.
//!
//! Invariant: a `Verified` outcome is only built from a proof whose every SMT
//! obligation came back valid, and a `Violated` outcome only from a counterexample
//! that was replayed concretely. Everything else is `Unknown` with a reason.

mod reason;
mod state;

pub use reason::{engine_label, UnknownReason};

use crate::ir::Quantifier;
use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    Prove,
    Refute,
    Test,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    Verified { proof: Proof },
    Violated { counterexample: Counterexample },
    Unknown { reason: UnknownReason },
}

/// A verdict without its evidence: what counts, tables and exit codes look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerdictKind {
    Verified,
    Violated,
    Unknown,
}

impl VerdictKind {
    /// `verified`, `violated` or `unknown` (LANGUAGE.md).
    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::Verified => "verified",
            VerdictKind::Violated => "violated",
            VerdictKind::Unknown => "unknown",
        }
    }
}

impl Verdict {
    pub fn kind(&self) -> VerdictKind {
        match self {
            Verdict::Verified { .. } => VerdictKind::Verified,
            Verdict::Violated { .. } => VerdictKind::Violated,
            Verdict::Unknown { .. } => VerdictKind::Unknown,
        }
    }
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
    /// The reason of an `unknown` verdict.
    pub fn unknown_reason(&self) -> Option<&UnknownReason> {
        match self {
            Verdict::Unknown { reason } => Some(reason),
            _ => None,
        }
    }
    /// The process exit code this verdict contributes (LANGUAGE.md).
    pub fn exit_code(&self) -> i32 {
        match self {
            Verdict::Verified { .. } => 0,
            Verdict::Violated { .. } => 1,
            Verdict::Unknown { .. } => 2,
        }
    }
    pub fn is_definitive(&self) -> bool {
        !matches!(self, Verdict::Unknown { .. })
    }
}

/// An engine's answer for one tuple.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The engine that produced the verdict (for `unknown`: the last one that gave up).
    pub engine: Engine,
    pub time: Duration,
    /// Work counters for reports and benchmark tables.
    pub stats: Stats,
}

impl Outcome {
    /// `unknown` from `engine` before any work: the tuple is outside what it handles.
    pub fn unsupported(engine: Engine, reason: &str) -> Outcome {
        Outcome {
            verdict: Verdict::Unknown { reason: UnknownReason::Unsupported(reason.to_string()) },
            engine,
            time: Duration::ZERO,
            stats: Stats::default(),
        }
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Stats {
    /// SMT queries issued (cache hits excluded).
    pub queries: u64,
    /// Invariant candidates tried by the prover.
    pub candidates: u64,
    /// Symbolic paths explored by the refuter.
    pub paths: u64,
    /// Concrete runs executed by the tester.
    pub runs: u64,
    /// The tester's hypercoverage (`None` when no tester ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypercoverage: Option<Hypercoverage>,
}

/// Hypercoverage reached by a hypertest campaign: `hit` of `goals` (branch outcomes per
/// copy; on temporal tuples, per observation index too).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Hypercoverage {
    pub goals: u64,
    pub hit: u64,
}

/// The evidence behind `verified`: per loop point, how it was handled.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Proof {
    pub loop_points: Vec<LoopPointProof>,
    /// Number of SMT obligations discharged (all valid).
    pub obligations: u64,
    /// Set when the proof is the refuter's exhaustive bounded search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaustive: Option<ExhaustiveSearch>,
    /// Why the proof may say nothing (`vacuity`); reports show them at the result.
    #[serde(skip)]
    pub warnings: Vec<Warning>,
    /// Temporal tuples proved by exhaustive bounded search: no ∀ run reaches an
    /// (N+1)-th observation, and every prefix up to N observations has an ∃ witness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observation_bound: Option<u32>,
    /// The ∃ strategy and the recorded obligations, when the engine recorded them
    /// (`--explain`, JSON reports, `--certificate`).
    #[serde(flatten)]
    pub recorded: Recorded,
    /// Set when the proof is of a pair of recursive functions' mutual summary (`forex
    /// equiv`, `c::lower::summary`): how their recursive calls were paired (boxed: a
    /// rare field of every outcome).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Box<String>>,
}

/// How the prover encoded floats in a proof (`smt::encode::FloatMode`).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FloatEncoding {
    /// Uninterpreted operations: valid for every interpretation, IEEE-754 included.
    Abstract,
    /// IEEE-754 exactly (SMT-LIB FloatingPoint).
    Exact,
}

impl FloatEncoding {
    /// A line for people (`--explain`).
    pub fn describe(self) -> &'static str {
        match self {
            FloatEncoding::Abstract => {
                "floats abstracted: each operation an uninterpreted function (valid for every \
                 interpretation, so for IEEE-754)"
            }
            FloatEncoding::Exact => {
                "floats exact: IEEE-754 bit-precise (SMT-LIB FloatingPoint); the abstraction \
                 did not prove it"
            }
        }
    }
}

/// What a proof run wrote down beside its verdict: the ∃ side's strategy (JSON
/// `proof.strategy`) and, for certificates, every obligation as an SMT-LIB script.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Recorded {
    /// Each ∃ parameter the proof chose, as a term over the ∀ values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strategy: Vec<StrategyEntry>,
    /// The obligations, each a standalone script expected `unsat` (certificates only).
    #[serde(skip)]
    pub obligations: Vec<RecordedObligation>,
    /// Obligations were recorded (a proof with none recorded had nothing to record).
    #[serde(skip)]
    pub on: bool,
    /// For a tuple with floats proved by the prover: which encoding of floats its
    /// obligations were valid in (JSON `proof.float_encoding`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_encoding: Option<FloatEncoding>,
}

/// One ∃ parameter's term: `param := term` at the proof step that chose it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
pub struct StrategyEntry {
    pub param: String,
    pub term: String,
    pub step: String,
}

/// One obligation of a proof as a standalone SMT-LIB 2.6 script.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RecordedObligation {
    /// The proof step (`initiation`, `consecution`, `postcondition`, …).
    pub step: String,
    /// The script; `unsat` means the obligation holds.
    pub script: String,
    /// The script has quantifiers (a second solver may not decide it).
    pub quantified: bool,
}

/// A proof by exhaustive bounded search: every ∀ run was explored (no ∀ loop can run
/// more than `unroll` branching iterations) and each is matched by a complete ∃ run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ExhaustiveSearch {
    /// The loop-unrolling bound at which the search covered every ∀ run.
    pub unroll: u32,
    /// The ∀ paths explored at that bound, each shown to have no counterexample.
    pub forall_paths: u64,
}

/// Something a report should point out about a verdict that stands (a vacuous proof).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Warning {
    /// Stable code (`diag::code`, `forex explain CODE`).
    pub code: String,
    pub message: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LoopPointProof {
    /// Source positions of the aligned loops, as `copy@file:line:col`.
    pub loops: Vec<String>,
    /// Per aligned copy, its iterations per joint step.
    pub counts: Vec<u32>,
    /// The relational invariant chosen, in `.fe` syntax.
    pub invariant: String,
    /// How many candidates were tried at this loop point.
    pub candidates_tried: u64,
    /// How the loops ran when not simply together to a joint exit (`None`): e.g.
    /// `lockstep while every guard holds, then c1 alone`, or a loop that runs no more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alignment: Option<String>,
    /// For a loop point that finishes a lockstep's leftovers: that lockstep's index in
    /// the proof's loop points (the prover uses it to describe the lockstep in full).
    #[serde(skip)]
    pub leftover_of: Option<usize>,
}

/// A concrete, replayed witness that a tuple is invalid.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Counterexample {
    pub copies: Vec<CopyRun>,
    /// Why no ∃ run matches, or which post conjunct fails (human text).
    pub explanation: String,
    /// The post conjunct that fails, in `.fe` syntax, when one can be named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violated_conjunct: Option<String>,
    /// For temporal (`always`) tuples: the observation prefix that fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observations: Option<ObservationTrace>,
    /// For a C tuple: per copy, the variables the C source names and their C types
    /// (`ir::c::CView`); reports show only these, in decimal as C prints them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c_types: Option<BTreeMap<String, BTreeMap<String, String>>>,
}

/// The observations of a temporal counterexample: the ∀ copies' observed states at
/// indices 1..=`failing_index`, after which no ∃ prefix satisfies φ at every index.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ObservationTrace {
    /// The observation index n at which every ∃ prefix has failed φ.
    pub failing_index: u32,
    /// Per ∀ copy (by name), per index 1..=n, the observed value of every variable.
    pub copies: BTreeMap<String, Vec<BTreeMap<String, Value>>>,
    /// Every ∀ copy could have gone on observing forever after this prefix (then the
    /// violation holds over infinite runs too); `false` when that was not established.
    pub infinite_extension: bool,
}

/// One copy's part of a counterexample.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CopyRun {
    pub copy: String,
    pub program: String,
    /// Serialized as "forall" or "exists".
    pub quantifier: Quantifier,
    /// Initial value of every variable, by name.
    pub initial: BTreeMap<String, Value>,
    /// Nondeterministic choices in execution order (`x = *` values, `if (*)` booleans).
    /// Empty for ∃ copies: for them, no choice works.
    pub choices: Vec<Value>,
    /// Final state of a ∀ copy (absent for ∃ copies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_state: Option<BTreeMap<String, Value>>,
}
