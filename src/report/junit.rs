//! JUnit XML: one `<testsuite>` per file, one `<testcase>` per tuple. Violated is a
//! `<failure>` (with the counterexample as text), unknown is `<skipped>` (with the
//! reason), a file that did not load is an `<error>`. quick-xml does the escaping; we
//! only replace characters XML 1.0 cannot carry at all.

use super::human::counterexample_text;
use super::{Counts, Report, TupleResult};
use crate::verdict::Verdict;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io;
use std::time::Duration;

/// XML 1.0 forbids most control characters even as character references.
fn xml_safe(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

fn secs(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

fn counts_of(results: &[&TupleResult]) -> Counts {
    let mut c = Counts::default();
    for r in results {
        c.add(r.kind());
    }
    c
}

/// Attributes shared by `<testsuites>` and `<testsuite>`: JUnit counts violated as
/// failures, unknown as skipped, input errors as errors.
fn count_attrs(c: &Counts, time: Duration) -> Vec<(&'static str, String)> {
    vec![
        ("tests", c.total().to_string()),
        ("failures", c.violated.to_string()),
        ("errors", c.error.to_string()),
        ("skipped", c.unknown.to_string()),
        ("time", secs(time)),
    ]
}

fn testcase<W: io::Write>(w: &mut Writer<W>, r: &TupleResult) -> io::Result<()> {
    let name = xml_safe(&r.display_name());
    let classname = xml_safe(&r.file);
    let time = secs(r.time().unwrap_or_default());
    let el = w.create_element("testcase").with_attributes([
        ("name", name.as_str()),
        ("classname", classname.as_str()),
        ("time", time.as_str()),
    ]);
    let (tag, kind, message, body) = match r.outcome().map(|o| &o.verdict) {
        Some(Verdict::Verified { proof }) if proof.warnings.is_empty() => {
            el.write_empty()?;
            return Ok(());
        }
        // JUnit has no warning level: a vacuous proof passes, with its warnings as output.
        Some(Verdict::Verified { proof }) => {
            let text: String = proof
                .warnings
                .iter()
                .map(|w| format!("warning[{}]: {}\n", w.code, w.message))
                .collect();
            el.write_inner_content(|w| {
                w.create_element("system-out")
                    .write_text_content(BytesText::new(&xml_safe(&text)))?;
                Ok(())
            })?;
            return Ok(());
        }
        Some(Verdict::Violated { counterexample }) => (
            "failure",
            "violated",
            counterexample.explanation.clone(),
            counterexample_text(counterexample),
        ),
        Some(Verdict::Unknown { reason }) => {
            ("skipped", "unknown", reason.to_string(), String::new())
        }
        None => {
            let reason = r.reason().unwrap_or_else(|| "input error".into());
            ("error", "error", reason.lines().next().unwrap_or("").to_string(), reason)
        }
    };
    el.write_inner_content(|w| {
        let message = xml_safe(&message);
        let inner =
            w.create_element(tag).with_attributes([("message", message.as_str()), ("type", kind)]);
        if body.is_empty() {
            inner.write_empty()?;
        } else {
            inner.write_text_content(BytesText::new(&xml_safe(&body)))?;
        }
        Ok(())
    })?;
    Ok(())
}

/// The whole report as a JUnit XML document, with a trailing newline.
pub fn render_junit(report: &Report) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    write(&mut w, report).expect("writing into memory cannot fail");
    let mut s = String::from_utf8(w.into_inner()).expect("quick-xml writes UTF-8 we gave it");
    s.push('\n');
    s
}

fn write(w: &mut Writer<Vec<u8>>, report: &Report) -> io::Result<()> {
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    // Results come in file order, so consecutive runs of one file form its suite.
    let mut suites: Vec<Vec<&TupleResult>> = Vec::new();
    for r in &report.results {
        match suites.last_mut() {
            Some(s) if s[0].file == r.file => s.push(r),
            _ => suites.push(vec![r]),
        }
    }
    let attrs = count_attrs(&report.counts(), report.time);
    w.create_element("testsuites")
        .with_attribute(("name", "forex"))
        .with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())))
        .write_inner_content(|w| {
            for suite in &suites {
                let time = suite.iter().filter_map(|r| r.time()).sum();
                let attrs = count_attrs(&counts_of(suite), time);
                let name = xml_safe(&suite[0].file);
                w.create_element("testsuite")
                    .with_attribute(("name", name.as_str()))
                    .with_attributes(attrs.iter().map(|(k, v)| (*k, v.as_str())))
                    .write_inner_content(|w| suite.iter().try_for_each(|r| testcase(w, r)))?;
            }
            Ok(())
        })?;
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::tests::sample;
    use quick_xml::events::Event;
    use quick_xml::{Reader, XmlVersion};
    use std::collections::HashMap;

    /// Parses a JUnit document back (quick-xml checks that end tags match): per element,
    /// its name and unescaped attributes, in document order.
    pub fn parse(xml: &str) -> Vec<(String, HashMap<String, String>)> {
        let mut reader = Reader::from_str(xml);
        let mut out = Vec::new();
        let mut open = 0i32;
        loop {
            let event = reader.read_event().expect("well-formed XML");
            let e = match &event {
                Event::Start(e) | Event::Empty(e) => e,
                Event::End(_) => {
                    open -= 1;
                    continue;
                }
                Event::Eof => break,
                _ => continue,
            };
            if matches!(event, Event::Start(_)) {
                open += 1;
            }
            let name = e.name().as_ref().to_string();
            let attrs = e
                .attributes()
                .map(|a| {
                    let a = a.unwrap();
                    let k = a.key.as_ref().to_string();
                    (k, a.normalized_value(XmlVersion::Explicit1_0).unwrap().into_owned())
                })
                .collect();
            out.push((name, attrs));
        }
        assert_eq!(open, 0, "every element is closed");
        out
    }

    #[test]
    fn well_formed_with_counts() {
        let xml = render_junit(&sample());
        assert!(!xml.contains('\u{1}'), "control characters are replaced");
        let els = parse(&xml);
        let root = &els.iter().find(|(n, _)| n == "testsuites").unwrap().1;
        assert_eq!(root["tests"], "4");
        assert_eq!(root["failures"], "1");
        assert_eq!(root["errors"], "1");
        assert_eq!(root["skipped"], "1");
        let suites: Vec<_> = els.iter().filter(|(n, _)| n == "testsuite").collect();
        assert_eq!(suites.len(), 3);
        assert_eq!(suites[0].1["name"], "x.fe");
        assert_eq!(suites[0].1["tests"], "2");
        assert_eq!(suites[0].1["failures"], "1");
        let cases: Vec<_> = els.iter().filter(|(n, _)| n == "testcase").collect();
        let names: Vec<_> = cases.iter().map(|(_, a)| a["name"].as_str()).collect();
        assert_eq!(names, ["ok", "leak", "hard<&>", "(bad.fe)"]);
        let kinds: Vec<_> = els
            .iter()
            .filter(|(n, _)| ["failure", "skipped", "error"].contains(&n.as_str()))
            .map(|(n, a)| (n.as_str(), a["message"].as_str()))
            .collect();
        assert_eq!(kinds[0], ("failure", "no run of c ends with o == 51 <&> \"quoted\""));
        assert_eq!(kinds[1], ("skipped", "timeout after 1 s (the time limit was reached)"));
        assert_eq!(kinds[2].0, "error");
        assert!(kinds[2].1.contains("unknown variable `q`"));
    }

    #[test]
    fn a_vacuous_proof_passes_with_its_warning_as_output() {
        let xml = render_junit(&crate::report::tests::vacuous_sample());
        let els = parse(&xml);
        let root = &els.iter().find(|(n, _)| n == "testsuites").unwrap().1;
        assert_eq!(root["failures"], "1", "still one failure: the vacuous proof passes");
        assert!(els.iter().any(|(n, _)| n == "system-out"));
        assert!(xml.contains("warning[W0100]: `pre` is unsatisfiable &lt;&amp;&gt;"), "{xml}");
    }
}
