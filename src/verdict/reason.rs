//! Why a tuple stays `unknown`, as data: engines build an [`UnknownReason`], the
//! portfolio and the batch combine and wrap it by matching on its variants, and only the
//! reports turn it into text (`Display`) or a stable machine name ([`UnknownReason::kind`]).
//!
//! Every variant carries the human explanation the engine wrote (without an engine
//! label: [`UnknownReason::From`] adds that), so the text stays as informative as before
//! while no decision depends on it.

use super::Engine;
use std::fmt;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// The tuple's time limit ran out; `during` is where the engines had got to.
    Timeout { limit: Duration, during: Box<UnknownReason> },
    /// The engine's token was cancelled (deadline, Ctrl-C, a lost portfolio race)
    /// before it reached an answer.
    Cancelled(String),
    /// The solver answered `unknown` on an obligation or path query.
    SolverUnknown(String),
    /// The refuter found no counterexample up to its loop bound; a larger bound may.
    BoundReached(String),
    /// The refuter covered every run within its bounds and found no counterexample.
    SearchExhausted(String),
    /// The refuter's symbolic path budget ran out.
    PathLimit(String),
    /// The prover found no invariant; the text names the closest failure.
    NoInvariant(String),
    /// The prover's obligations do not hold (e.g. an invalid loop-free tuple, an ∃-only
    /// loop not shown to exit); only the refuter or tester can show a violation.
    NotProved(String),
    /// The tester spent its budget without finding a violation.
    NoViolationFound(String),
    /// A counterexample candidate did not replay concretely, so it is not reported.
    ReplayFailed(String),
    /// The tuple is outside what the engine handles.
    Unsupported(String),
    /// The engine panicked; the panic was caught.
    EnginePanic(String),
    /// Z3 ran out of memory: its ceiling, or the process's address-space limit.
    MemoryOut(String),
    /// Something else went wrong inside forex (a thread could not start, a model could
    /// not be read).
    Internal(String),
    /// One engine's reason, shown with that engine's label (`refuter: …`).
    From { engine: Engine, reason: Box<UnknownReason> },
    /// Every portfolio engine that ran gave up: each one's reason, labelled.
    Combined(Vec<(Engine, UnknownReason)>),
}

impl UnknownReason {
    /// The stable machine name of this reason (JSON `reason_kind`). A labelled reason
    /// has its inner reason's kind.
    pub fn kind(&self) -> &'static str {
        match self {
            UnknownReason::Timeout { .. } => "timeout",
            UnknownReason::Cancelled(_) => "cancelled",
            UnknownReason::SolverUnknown(_) => "solver_unknown",
            UnknownReason::BoundReached(_) => "bound_reached",
            UnknownReason::SearchExhausted(_) => "search_exhausted",
            UnknownReason::PathLimit(_) => "path_limit",
            UnknownReason::NoInvariant(_) => "no_invariant",
            UnknownReason::NotProved(_) => "not_proved",
            UnknownReason::NoViolationFound(_) => "no_violation_found",
            UnknownReason::ReplayFailed(_) => "replay_failed",
            UnknownReason::Unsupported(_) => "unsupported",
            UnknownReason::EnginePanic(_) => "engine_panic",
            UnknownReason::MemoryOut(_) => "memory_out",
            UnknownReason::Internal(_) => "internal",
            UnknownReason::From { reason, .. } => reason.kind(),
            UnknownReason::Combined(_) => "combined",
        }
    }

    /// This reason labelled with the engine that gave it.
    pub fn from_engine(self, engine: Engine) -> UnknownReason {
        UnknownReason::From { engine, reason: Box::new(self) }
    }

    /// The reason without an engine label.
    pub fn unlabelled(&self) -> &UnknownReason {
        match self {
            UnknownReason::From { reason, .. } => reason.unlabelled(),
            other => other,
        }
    }

    /// One reason for engines that all gave up, each part labelled once, in the order
    /// given; an already combined part contributes its parts.
    pub fn combine<'a>(
        parts: impl IntoIterator<Item = (Engine, &'a UnknownReason)>,
    ) -> UnknownReason {
        let mut out = Vec::new();
        for (engine, reason) in parts {
            match reason.unlabelled() {
                UnknownReason::Combined(inner) => out.extend(inner.iter().cloned()),
                plain => out.push((engine, plain.clone())),
            }
        }
        UnknownReason::Combined(out)
    }

    /// Whether the time limit is already part of this reason.
    pub fn is_timeout(&self) -> bool {
        matches!(self.unlabelled(), UnknownReason::Timeout { .. })
    }
}

/// The label people read in front of an engine's reason.
pub fn engine_label(e: Engine) -> &'static str {
    match e {
        Engine::Prove => "prover",
        Engine::Refute => "refuter",
        Engine::Test => "tester",
    }
}

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownReason::Timeout { limit, during } => {
                write!(f, "timeout after {} s ({during})", limit.as_secs_f64())
            }
            UnknownReason::Cancelled(s)
            | UnknownReason::SolverUnknown(s)
            | UnknownReason::BoundReached(s)
            | UnknownReason::SearchExhausted(s)
            | UnknownReason::PathLimit(s)
            | UnknownReason::NoInvariant(s)
            | UnknownReason::NotProved(s)
            | UnknownReason::NoViolationFound(s)
            | UnknownReason::ReplayFailed(s)
            | UnknownReason::Unsupported(s)
            | UnknownReason::EnginePanic(s)
            | UnknownReason::MemoryOut(s)
            | UnknownReason::Internal(s) => f.write_str(s),
            UnknownReason::From { engine, reason } => {
                write!(f, "{}: {reason}", engine_label(*engine))
            }
            UnknownReason::Combined(parts) => {
                for (i, (engine, reason)) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{}: {reason}", engine_label(*engine))?;
                }
                Ok(())
            }
        }
    }
}

/// Serialized as its human text (the LANGUAGE.md `reason` string); reports add the
/// machine name next to it as `reason_kind`.
impl serde::Serialize for UnknownReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_combine_once_and_kinds_see_through_labels() {
        let refuter = UnknownReason::BoundReached("no counterexample up to 8".into())
            .from_engine(Engine::Refute);
        assert_eq!(refuter.to_string(), "refuter: no counterexample up to 8");
        assert_eq!(refuter.kind(), "bound_reached");
        let prover = UnknownReason::NoInvariant("no invariant found".into());
        let both = UnknownReason::combine([(Engine::Prove, &prover), (Engine::Refute, &refuter)]);
        assert_eq!(
            both.to_string(),
            "prover: no invariant found; refuter: no counterexample up to 8"
        );
        assert_eq!(both.kind(), "combined");
        let late = UnknownReason::Timeout {
            limit: Duration::from_secs(1),
            during: Box::new(both.clone()),
        };
        assert!(late.is_timeout());
        assert!(late.to_string().starts_with("timeout after 1 s (prover: "));
        let tester = UnknownReason::NoViolationFound("no violation found in 7 runs".into());
        let all = UnknownReason::combine([(Engine::Prove, &both), (Engine::Test, &tester)]);
        assert_eq!(
            all.to_string(),
            "prover: no invariant found; refuter: no counterexample up to 8; tester: no \
             violation found in 7 runs"
        );
        let UnknownReason::Combined(parts) = &all else { panic!("combined") };
        assert_eq!(parts.len(), 3, "nested combinations are flattened");
    }
}
