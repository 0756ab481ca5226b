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
    /// C source (also chosen by the `.c` extension under `auto`).
    C,
}

/// How C's integers are read (`ir::c::IntModel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IntModelArg {
    /// Unbounded integers (default for `@ELAENIA` files).
    Math,
    /// LP64 two's complement, signed overflow wrapping as `gcc -fwrapv` (default for
    /// `@forex` files).
    Machine,
}

impl From<IntModelArg> for crate::ir::c::IntModel {
    fn from(a: IntModelArg) -> Self {
        match a {
            IntModelArg::Math => Self::Math,
            IntModelArg::Machine => Self::Machine,
        }
    }
}

impl From<InputArg> for crate::frontend::InputFormat {
    fn from(a: InputArg) -> Self {
        match a {
            InputArg::Auto => Self::Auto,
            InputArg::Fe => Self::Fe,
            InputArg::Forex => Self::Forex,
            InputArg::C => Self::C,
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

/// When diagnostics are coloured (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorArg {
    /// On a terminal, unless the NO_COLOR environment variable is set.
    #[default]
    Auto,
    Always,
    Never,
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

/// `--observations N`: a count of at least 1 (a bound of 0 would search nothing).
pub fn observation_count(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(0) => Err("the bound must be at least 1 (observation indices start at 1)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a number of observations, not `{s}`")),
    }
}
