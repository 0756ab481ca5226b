//! Stable codes for diagnostics and warnings, each with a short explanation
//! (`forex explain CODE`). A code names a kind of problem, never one message text, so
//! tools may match on it; codes are only ever added, never renumbered.

/// Whether a diagnostic stops the file (error) or only draws attention (warning).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    /// `error` or `warning` (JSON, SARIF levels, short style).
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A kind of problem, printed as its stable code (`E0001`, `W0100`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// The file could not be read (missing, a folder, no permission).
    CannotRead,
    /// The file is not UTF-8.
    NotUtf8,
    /// The file defines nothing.
    EmptyFile,
    /// The front end failed on this input (a bug in forex).
    Internal,
    /// The command line cannot be carried out (bad option value, nothing to do).
    Usage,
    /// The text does not parse (grammar, nesting, shorthands).
    Syntax,
    /// The file parses but does not check (names, types, copies, widths).
    Check,
    /// A file holds no tuple to decide.
    NoTuple,
    /// A `--tuple` pattern selects no tuple.
    UnmatchedPattern,
    /// `verified`, but `pre` is unsatisfiable.
    VacuousPre,
    /// `verified`, but no run of the ∀ copies reaches the end.
    VacuousRuns,
}

impl Code {
    /// The printed code.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::CannotRead => CANNOT_READ,
            Code::NotUtf8 => NOT_UTF8,
            Code::EmptyFile => EMPTY_FILE,
            Code::Internal => INTERNAL,
            Code::Usage => USAGE,
            Code::Syntax => SYNTAX,
            Code::Check => CHECK,
            Code::NoTuple => NO_TUPLE,
            Code::UnmatchedPattern => UNMATCHED_PATTERN,
            Code::VacuousPre => VACUOUS_PRE,
            Code::VacuousRuns => VACUOUS_RUNS,
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub const CANNOT_READ: &str = "E0001";
pub const NOT_UTF8: &str = "E0002";
pub const EMPTY_FILE: &str = "E0003";
pub const INTERNAL: &str = "E0004";
pub const USAGE: &str = "E0005";
pub const SYNTAX: &str = "E0100";
pub const CHECK: &str = "E0200";
pub const NO_TUPLE: &str = "W0001";
pub const UNMATCHED_PATTERN: &str = "W0002";
pub const VACUOUS_PRE: &str = "W0100";
pub const VACUOUS_RUNS: &str = "W0101";

/// Every code with its explanation, in code order.
pub const CODES: &[(&str, &str)] = &[
    (
        CANNOT_READ,
        "The file could not be read: it does not exist, is a folder where a file was \
         expected, or is not readable. The message gives the path and the operating \
         system's reason. Check the path (relative to the current folder) and its \
         permissions; `-` reads standard input.",
    ),
    (
        NOT_UTF8,
        "The file is not valid UTF-8. The message gives the offset of the first invalid \
         byte. Save the file as UTF-8.",
    ),
    (
        EMPTY_FILE,
        "The file defines no programs and no tuples. A .fe file holds `program name { … }` \
         and `tuple name { … }` definitions (docs/language.md).",
    ),
    (
        INTERNAL,
        "The front end failed on this input. This is a bug in forex: please report the \
         input that caused it.",
    ),
    (
        USAGE,
        "The command line cannot be carried out: an option has a bad value (a negative \
         --timeout, a malformed --tuple pattern), the report cannot be written, or the \
         given paths hold no tuple. The message names the option or path.",
    ),
    (
        SYNTAX,
        "The text does not follow the grammar of its input language (.fe, ForEx or \
         hyena0): a missing `;` or brace, an unknown keyword, nesting deeper than forex \
         accepts, or a bad shorthand. The label says what was expected at the position.",
    ),
    (
        CHECK,
        "The file parses but does not check: an unknown or twice-declared name, a type \
         mismatch, a wrong bit-vector width, a copy that is not declared, or a function \
         used in a way it cannot be inlined. The hint, where there is one, says what to \
         write instead.",
    ),
    (
        NO_TUPLE,
        "The file checks but holds no `tuple`, so `prove` and `test` have nothing to \
         decide in it. Add a tuple, or pass only the files that have one.",
    ),
    (
        UNMATCHED_PATTERN,
        "A `--tuple` pattern matches no tuple of the given files. Patterns match whole \
         tuple names, with `*` and `?` as globs.",
    ),
    (
        VACUOUS_PRE,
        "The tuple is verified, but its `pre` is unsatisfiable: no initial state satisfies \
         it, so the tuple holds for no run at all and says nothing about the programs. \
         Check `pre` for contradictory conjuncts.",
    ),
    (
        VACUOUS_RUNS,
        "The tuple is verified, but no run of the ∀ copies that starts in `pre` reaches \
         the end of its program: every path meets a false `assume` or a loop that never \
         ends. The postcondition is then never checked, so the tuple holds vacuously. \
         (For an `always` tuple: no ∀ run reaches its first `observe;`.) \
         Check the `assume` statements and the loops of the ∀ programs.",
    ),
];

/// The explanation of `code` (case-insensitive), if it is one.
pub fn explain(code: &str) -> Option<&'static str> {
    CODES.iter().find(|(c, _)| c.eq_ignore_ascii_case(code)).map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_explained() {
        let mut seen = std::collections::HashSet::new();
        for (code, text) in CODES {
            assert!(seen.insert(*code), "{code} twice");
            assert!(!text.is_empty());
        }
        assert_eq!(explain("e0001"), explain(CANNOT_READ));
        assert!(explain("E9999").is_none());
    }
}
