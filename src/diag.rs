//! Diagnostics for bad input: every error carries its file, a labelled span and, where
//! it helps, a hint. Rendered fancy (miette), short (`path:line:col: error: message`,
//! codespan-reporting) or as JSON lines (severity, stable code, byte offsets and
//! line/column ranges). Each diagnostic has a stable code (`code`), explained by
//! `forex explain CODE`.

pub mod code;
mod suggest;

pub use code::{Code, Severity};
pub use suggest::suggest;

use crate::ir::Loc;
use std::ops::Range;

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DiagStyle {
    /// Multi-line reports with source snippets (default on a terminal).
    #[default]
    Fancy,
    /// One line per error: `path:line:col: error: message` (for editors).
    Short,
    /// One JSON object per line.
    Json,
}

/// The fancy style shows this many reports per file; the short and JSON styles show all.
pub const FANCY_LIMIT: usize = 50;

/// One error, pointing into the source by byte offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    /// Byte range in the source (may be empty: a position).
    pub span: Range<usize>,
    /// Text under the primary span ("not declared", "expected `;`").
    pub label: Option<String>,
    /// What the user can do ("did you mean `h`?").
    pub hint: Option<String>,
    /// Secondary spans with their labels ("first declared here").
    pub related: Vec<(Range<usize>, String)>,
    /// The stable code of this kind of problem (`diag::code`); the front end fills in
    /// its phase's code for diagnostics built without one.
    pub code: Option<Code>,
    /// About the file as a whole (it could not be read): no position is shown.
    pub whole_file: bool,
}

impl Diagnostic {
    pub fn new(message: impl Into<String>, span: Range<usize>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            label: None,
            hint: None,
            related: Vec::new(),
            code: None,
            whole_file: false,
        }
    }
    pub fn with_code(mut self, code: Code) -> Diagnostic {
        self.code = Some(code);
        self
    }
    /// `code` unless the diagnostic already has one (the front end's phase codes).
    pub fn with_default_code(mut self, code: Code) -> Diagnostic {
        self.code.get_or_insert(code);
        self
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }
    pub fn with_hint_opt(mut self, hint: Option<String>) -> Diagnostic {
        self.hint = hint;
        self
    }
    pub fn with_related(mut self, span: Range<usize>, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }
}

/// Byte offset → line and column (1-based, columns counted in characters).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }
    /// The line and column of byte `offset` in `text` (clamped to the text).
    pub fn loc(&self, text: &str, offset: usize) -> Loc {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let col = text[self.starts[line]..offset].chars().count();
        Loc { line: line as u32 + 1, col: col as u32 + 1 }
    }
}

/// All errors found in one file.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    pub file: String,
    /// One line per error, `line:col: message` (for reports that want plain text).
    pub messages: Vec<String>,
    /// The errors with spans, in source order.
    pub items: Vec<Diagnostic>,
    /// The source text the spans point into (invalid UTF-8 replaced by U+FFFD).
    pub source: String,
}

impl Diagnostics {
    /// Errors of `file`, whose text is `source`. Sorts by position and drops duplicates
    /// (a shorthand expands one bad name into several references).
    pub fn new(file: &str, source: &str, mut items: Vec<Diagnostic>) -> Diagnostics {
        items.sort_by_key(|d| (d.span.start, d.span.end));
        items.dedup_by(|a, b| a.span == b.span && a.message == b.message);
        let index = LineIndex::new(source);
        let messages = items
            .iter()
            .map(|d| format!("{}: {}", index.loc(source, d.span.start), d.message))
            .collect();
        Diagnostics { file: file.to_string(), messages, items, source: source.to_string() }
    }
    /// A file that could not be read: its path and the operating system's reason, at
    /// no position (there is no text to point into).
    pub fn io(file: &str, err: &std::io::Error) -> Diagnostics {
        let message = format!("cannot read {file}: {}", os_reason(err));
        let mut item = Diagnostic::new(message.clone(), 0..0).with_code(Code::CannotRead);
        item.whole_file = true;
        Diagnostics {
            file: file.to_string(),
            messages: vec![message],
            items: vec![item],
            source: String::new(),
        }
    }
    /// Gives every diagnostic without a code the code `code` (the front end's phase).
    pub fn default_code(&mut self, code: Code) {
        for d in &mut self.items {
            d.code.get_or_insert(code);
        }
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Line and column of the start and end of each diagnostic's span.
    pub fn positions(&self) -> Vec<(Loc, Loc)> {
        let index = LineIndex::new(&self.source);
        self.items
            .iter()
            .map(|d| (index.loc(&self.source, d.span.start), index.loc(&self.source, d.span.end)))
            .collect()
    }
    /// Renders every diagnostic in the given style (without colours).
    pub fn render(&self, style: DiagStyle) -> String {
        self.render_colored(style, false)
    }
    /// Renders every diagnostic; `color` enables ANSI colours (fancy and short styles).
    pub fn render_colored(&self, style: DiagStyle, color: bool) -> String {
        match style {
            DiagStyle::Fancy => self.render_fancy(color),
            DiagStyle::Short => self.render_short(color),
            DiagStyle::Json => self.render_json(),
        }
    }

    /// At most [`FANCY_LIMIT`] reports (each shows source), then a count of the rest.
    fn render_fancy(&self, color: bool) -> String {
        use miette::{GraphicalReportHandler, GraphicalTheme};
        let theme =
            if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        let mut out = String::new();
        for (i, d) in self.items.iter().enumerate().take(FANCY_LIMIT) {
            if i > 0 {
                out.push('\n');
            }
            let report = FancyReport { file: &self.file, source: &self.source, diag: d };
            if handler.render_report(&mut out, &report).is_err() {
                out.push_str(&format!("{}: error: {}\n", self.file, d.message));
            }
        }
        if self.items.len() > FANCY_LIMIT {
            let rest = self.items.len() - FANCY_LIMIT;
            out.push_str(&format!(
                "\n{}: {rest} more error{} not shown (`--diagnostics short` lists all)\n",
                self.file,
                if rest == 1 { "" } else { "s" }
            ));
        }
        out
    }

    fn render_short(&self, color: bool) -> String {
        use codespan_reporting::diagnostic::{Diagnostic as CsDiag, Label};
        use codespan_reporting::files::SimpleFile;
        use codespan_reporting::term::termcolor::{Ansi, NoColor, WriteColor};
        use codespan_reporting::term::{self, Config, DisplayStyle};
        let file = SimpleFile::new(self.file.as_str(), self.source.as_str());
        let config = Config { display_style: DisplayStyle::Short, ..Config::default() };
        let mut out = String::new();
        for d in &self.items {
            if d.whole_file {
                out.push_str(&format!("{}: error: {}\n", self.file, d.message));
                continue;
            }
            let span = clamp(&self.source, &d.span);
            let diag = CsDiag::error()
                .with_message(&d.message)
                .with_labels(vec![Label::primary((), span)]);
            let emit = |w: &mut dyn WriteColor| term::emit(w, &config, &file, &diag);
            let text = if color {
                let mut buf = Ansi::new(Vec::new());
                emit(&mut buf).map(|()| buf.into_inner())
            } else {
                let mut buf = NoColor::new(Vec::new());
                emit(&mut buf).map(|()| buf.into_inner())
            };
            match text {
                Ok(bytes) => out.push_str(&String::from_utf8_lossy(&bytes)),
                Err(_) => {
                    let loc = LineIndex::new(&self.source).loc(&self.source, d.span.start);
                    out.push_str(&format!("{}:{}: error: {}\n", self.file, loc, d.message));
                }
            }
        }
        out
    }

    /// One object per line: severity, code, message, label, hint, and the span as byte
    /// offsets with 1-based line/column at both ends (`line`/`column` repeat the start;
    /// all positions are null for a file that could not be read).
    fn render_json(&self) -> String {
        let index = LineIndex::new(&self.source);
        let point = |offset: usize| {
            let loc = index.loc(&self.source, offset);
            serde_json::json!({ "line": loc.line, "column": loc.col, "offset": offset })
        };
        let mut out = String::new();
        for d in &self.items {
            let span = clamp(&self.source, &d.span);
            let (start, end) = if d.whole_file {
                (serde_json::Value::Null, serde_json::Value::Null)
            } else {
                (point(span.start), point(span.end))
            };
            let related: Vec<serde_json::Value> = d
                .related
                .iter()
                .map(|(r, label)| {
                    let r = clamp(&self.source, r);
                    serde_json::json!({ "start": point(r.start), "end": point(r.end), "label": label })
                })
                .collect();
            let value = serde_json::json!({
                "file": self.file,
                "severity": Severity::Error.name(),
                "code": d.code.map(Code::as_str),
                "line": start.get("line"),
                "column": start.get("column"),
                "start": start,
                "end": end,
                "message": d.message,
                "label": d.label,
                "hint": d.hint,
                "related": related,
            });
            out.push_str(&value.to_string());
            out.push('\n');
        }
        out
    }
}

/// A warning that belongs to no source span (a file without tuples, an unused
/// `--tuple` pattern) in the given style: a JSON object in the JSON style (so that
/// JSON consumers never meet plain text), `warning: …` otherwise. Ends with a newline.
pub fn warning_line(style: DiagStyle, file: Option<&str>, code: Code, message: &str) -> String {
    message_line(style, Severity::Warning, file, code, message)
}

/// An error of the command line itself (a bad option value, nothing to do, an
/// unwritable report), in the given style, as [`warning_line`]. Ends with a newline.
pub fn usage_error_line(style: DiagStyle, message: &str) -> String {
    message_line(style, Severity::Error, None, Code::Usage, message)
}

fn message_line(
    style: DiagStyle,
    severity: Severity,
    file: Option<&str>,
    code: Code,
    message: &str,
) -> String {
    match style {
        DiagStyle::Json => {
            let value = serde_json::json!({
                "file": file,
                "severity": severity.name(),
                "code": code.as_str(),
                "line": null,
                "column": null,
                "start": null,
                "end": null,
                "message": message,
                "label": null,
                "hint": null,
                "related": [],
            });
            format!("{value}\n")
        }
        DiagStyle::Fancy | DiagStyle::Short => match file {
            Some(file) => format!("{}: {file}: {message}\n", severity.name()),
            None => format!("{}: {message}\n", severity.name()),
        },
    }
}

/// The operating system's reason without Rust's `(os error N)` suffix.
fn os_reason(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// `span` limited to `text` and to character boundaries (renderers index by it).
fn clamp(text: &str, span: &Range<usize>) -> Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(span.start);
    start..fix(span.end).max(start)
}

/// One diagnostic as a miette report, for the graphical handler.
struct FancyReport<'a> {
    file: &'a str,
    source: &'a str,
    diag: &'a Diagnostic,
}

impl std::fmt::Debug for FancyReport<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.diag.message)
    }
}

impl std::fmt::Display for FancyReport<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.diag.message)
    }
}

impl std::error::Error for FancyReport<'_> {}

impl miette::Diagnostic for FancyReport<'_> {
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.diag.hint.as_ref().map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        if self.source.is_empty() {
            None
        } else {
            Some(self as &dyn miette::SourceCode)
        }
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if self.source.is_empty() {
            return None;
        }
        let span = |r: &Range<usize>| {
            let r = clamp(self.source, r);
            miette::SourceSpan::new(r.start.into(), r.end - r.start)
        };
        let primary = miette::LabeledSpan::new_primary_with_span(
            Some(self.diag.label.clone().unwrap_or_else(|| "here".to_string())),
            span(&self.diag.span),
        );
        let related = self
            .diag
            .related
            .iter()
            .map(move |(r, l)| miette::LabeledSpan::new_with_span(Some(l.clone()), span(r)));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

impl miette::SourceCode for FancyReport<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let inner = self.source.read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.file.to_string(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_counts_characters() {
        let text = "ab\nçd x\n";
        let index = LineIndex::new(text);
        assert_eq!(index.loc(text, 0), Loc { line: 1, col: 1 });
        assert_eq!(index.loc(text, 3), Loc { line: 2, col: 1 });
        // `x` is after a two-byte character: column 4, byte 7.
        assert_eq!(index.loc(text, 7), Loc { line: 2, col: 4 });
        assert_eq!(index.loc(text, 100), Loc { line: 3, col: 1 });
    }

    #[test]
    fn short_and_json_styles_carry_positions() {
        let d = Diagnostics::new(
            "t.fe",
            "program p {\n  x = 1;\n}\n",
            vec![Diagnostic::new("unknown variable `x`", 14..15).with_hint("declare it")],
        );
        assert_eq!(d.render(DiagStyle::Short), "t.fe:2:3: error: unknown variable `x`\n");
        let json: serde_json::Value =
            serde_json::from_str(d.render(DiagStyle::Json).trim()).unwrap();
        assert_eq!(json["line"], 2);
        assert_eq!(json["column"], 3);
        assert_eq!(json["end"]["column"], 4);
        assert_eq!(json["hint"], "declare it");
        assert!(d.render(DiagStyle::Fancy).contains("unknown variable `x`"));
    }

    #[test]
    fn fancy_style_shows_a_limited_number_of_reports() {
        let src = "x\n".repeat(60);
        let items =
            (0..60).map(|i| Diagnostic::new(format!("error {i}"), 2 * i..2 * i + 1)).collect();
        let d = Diagnostics::new("t.fe", &src, items);
        let fancy = d.render(DiagStyle::Fancy);
        assert!(fancy.contains("error 49") && !fancy.contains("error 50"));
        assert!(fancy.contains("t.fe: 10 more errors not shown"));
        assert_eq!(d.render(DiagStyle::Short).lines().count(), 60);
    }
}
