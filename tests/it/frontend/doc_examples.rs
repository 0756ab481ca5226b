//! Every code block of `docs/language.md` is tagged with its language, and every `.fe`
//! (```fe) and ForEx (```forex) block checks: the reference's examples cannot rot.

use forex::frontend::{load_source, InputFormat};

/// (tag, first line number, text) of each fenced block.
fn blocks(doc: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(tag)) => open = Some((tag.trim().to_string(), i + 1, String::new())),
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some((_, _, text)), None) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

#[test]
fn every_language_reference_example_checks() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let mut checked = Vec::new();
    for (tag, line, text) in blocks(&doc) {
        let format = match tag.as_str() {
            "fe" => InputFormat::Fe,
            "forex" => InputFormat::Forex,
            "text" | "sh" | "json" => continue,
            other => panic!("docs/language.md:{line}: code block tagged `{other}`"),
        };
        let module = load_source("example.fe", text.as_bytes(), format).unwrap_or_else(|d| {
            let why = d.render(forex::diag::DiagStyle::Short);
            panic!("docs/language.md:{line}: the {tag} example does not check:\n{why}\n{text}")
        });
        checked.push((line, module.programs.len(), module.tuples.len()));
    }
    // The programs, strings, functions, tuples, shorthands, two ForEx and reactive examples.
    assert_eq!(checked.len(), 8, "{checked:?}");
    assert!(checked.iter().all(|(_, programs, _)| *programs > 0), "{checked:?}");
}
