//! The command line's spelling of the library's option enums. clap derives live here,
//! not on the library types, so the library has no command-line dependency; each mirror
//! converts into the library enum it names.

use clap::ValueEnum;

/// Which input language a file is in (`frontend::InputFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum InputArg {
    /// ForEx format when the first section header is `[forall]` or `[exists]`, else `.fe`.
    #[default]
    Auto,
    /// The `.fe` language.
    Fe,
    /// The original ForEx tool's format.
    Forex,
}

impl From<InputArg> for crate::frontend::InputFormat {
    fn from(a: InputArg) -> Self {
        match a {
            InputArg::Auto => Self::Auto,
            InputArg::Fe => Self::Fe,
            InputArg::Forex => Self::Forex,
        }
    }
}

/// How diagnostics are printed (`diag::DiagStyle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagArg {
    /// Multi-line reports with source snippets (default on a terminal).
    Fancy,
    /// One line per error: `path:line:col: error: message` (for editors).
    Short,
    /// One JSON object per line.
    Json,
}

impl From<DiagArg> for crate::diag::DiagStyle {
    fn from(a: DiagArg) -> Self {
        match a {
            DiagArg::Fancy => Self::Fancy,
            DiagArg::Short => Self::Short,
            DiagArg::Json => Self::Json,
        }
    }
}

/// Which engines decide a tuple (`portfolio::EngineChoice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum EngineArg {
    /// The ForEx prover alone.
    Prove,
    /// Bounded ∀∃ symbolic execution alone.
    Refute,
    /// Hypertesting alone (never verified).
    Test,
    /// All three: the first definitive answer wins.
    #[default]
    All,
    /// Prover and refuter (kept so that older command lines work).
    #[value(hide = true)]
    Both,
}

impl From<EngineArg> for crate::portfolio::EngineChoice {
    fn from(a: EngineArg) -> Self {
        match a {
            EngineArg::Prove => Self::Prove,
            EngineArg::Refute => Self::Refute,
            EngineArg::Test => Self::Test,
            EngineArg::All => Self::All,
            EngineArg::Both => Self::Both,
        }
    }
}

/// The hypertesting search (`hypertest::Strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum StrategyArg {
    /// HyperFuzz: random generation.
    Fuzz,
    /// HyperEvo: many-objective evolutionary search over hypercoverage goals.
    #[default]
    Evo,
}

impl From<StrategyArg> for crate::hypertest::Strategy {
    fn from(a: StrategyArg) -> Self {
        match a {
            StrategyArg::Fuzz => Self::Fuzz,
            StrategyArg::Evo => Self::Evo,
        }
    }
}
