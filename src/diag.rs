//! Diagnostics for bad input: every error carries its file, a labelled span and, where
//! it helps, a hint. Rendered fancy (miette), short (`path:line:col: error: message`,
//! codespan-reporting) or as JSON lines. (Stub: the foundation issue implements it.)

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiagStyle {
    /// Multi-line reports with source snippets (default on a terminal).
    #[default]
    Fancy,
    /// One line per error: `path:line:col: error: message` (for editors).
    Short,
    /// One JSON object per line.
    Json,
}

/// All errors found in one file.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    pub file: String,
    pub messages: Vec<String>,
}

impl Diagnostics {
    /// A file that could not be read.
    pub fn io(file: &str, err: &std::io::Error) -> Diagnostics {
        Diagnostics { file: file.to_string(), messages: vec![format!("cannot read {file}: {err}")] }
    }
    pub fn len(&self) -> usize {
        self.messages.len()
    }
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
    /// Renders every diagnostic in the given style.
    pub fn render(&self, _style: DiagStyle) -> String {
        self.messages.iter().map(|m| format!("{}: error: {m}\n", self.file)).collect()
    }
}
