//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message` per
//! violated tuple or input error, `::warning …` per unknown tuple, then a summary line.
//! Actions turns them into annotations on the pull request's diff.

use super::oneline::problem;
use super::{Report, Status};
use crate::verdict::Verdict;
use std::fmt::Write;

/// Escapes a command's message (`%`, CR, LF), as the runner decodes them.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value: also `:` and `,`, which delimit properties.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render_github(report: &Report) -> String {
    let mut out = String::new();
    for r in &report.results {
        let Some(message) = problem(r) else { continue };
        let level = match &r.status {
            Status::Done(o) if matches!(o.verdict, Verdict::Unknown { .. }) => "warning",
            _ => "error",
        };
        let mut props = format!("file={}", escape_property(&r.file));
        if let Some(loc) = r.loc {
            let _ = write!(props, ",line={},col={}", loc.line, loc.col);
        }
        let title = format!("forex: {} {}", r.display_name(), r.verdict_name());
        let _ = write!(props, ",title={}", escape_property(&title));
        let _ = writeln!(out, "::{level} {props}::{}", escape_data(&message));
    }
    for r in &report.results {
        for w in r.warnings() {
            let mut props = format!("file={}", escape_property(&r.file));
            if let Some(loc) = r.loc {
                let _ = write!(props, ",line={},col={}", loc.line, loc.col);
            }
            let title = format!("forex: {} verified vacuously ({})", r.display_name(), w.code);
            let _ = write!(props, ",title={}", escape_property(&title));
            let _ = writeln!(out, "::warning {props}::{}", escape_data(&w.message));
        }
    }
    let c = report.counts();
    let _ = writeln!(
        out,
        "forex: {} verified, {} violated, {} unknown, {} error",
        c.verified, c.violated, c.unknown, c.error
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_single_lines_with_escaped_properties() {
        let report = crate::report::tests::sample();
        let text = render_github(&report);
        let problems = report.results.iter().filter(|r| problem(r).is_some()).count();
        let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
        assert_eq!(annotations.len(), problems, "{text}");
        for a in annotations {
            assert!(a.starts_with("::error file=") || a.starts_with("::warning file="), "{a}");
        }
        assert_eq!(escape_property("a,b:c\n%"), "a%2Cb%3Ac%0A%25");
    }

    #[test]
    fn a_vacuous_proof_is_a_warning_annotation() {
        let text = render_github(&crate::report::tests::vacuous_sample());
        let line = text.lines().find(|l| l.contains("vacuously")).expect("an annotation");
        assert!(line.starts_with("::warning file=x.fe,line=3,col=1,title="), "{line}");
        assert!(line.ends_with("::`pre` is unsatisfiable <&>"), "{line}");
    }
}
