//! The report for people: per-tuple details (counterexamples, reasons, proofs with
//! `--explain`) first, then the summary table and a totals line, so that the summary is
//! what stays on screen.

use super::cterms::{shown_choices, shown_vars};
use super::{Report, Status, Stop, TupleResult};
use crate::verdict::{Counterexample, Proof, Verdict};
use comfy_table::{presets, CellAlignment, Table};
use std::fmt::Write;
use std::time::Duration;

/// `12 ms` below a second, `1.04 s` above.
pub(crate) fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

fn table() -> Table {
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    t
}

/// Renders a borderless table flush left, columns two spaces apart, no trailing blanks.
fn finish(mut t: Table) -> String {
    for c in t.column_iter_mut() {
        c.set_padding((0, 2));
    }
    let mut s = t.trim_fmt();
    s.push('\n');
    s
}

/// Indents every line of `text` by `n` spaces.
fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines().map(|l| format!("{pad}{}\n", l.trim_end())).collect()
}

/// A temporal counterexample's observations: per ∀ copy, one row per observation index
/// and one right-aligned column per variable (variables in name order), so the table
/// grows downwards with the index and stays as narrow as the values (about 50 columns
/// at 10 observations × 5 variables). Every index 1..n is shown: no elision, no
/// wrapping (a long value widens its column). Snapshot in `tests/it/reactive/report.rs`.
fn observations_text(obs: &crate::verdict::ObservationTrace) -> String {
    let mut s = format!("fails at observation {}; observed:\n", obs.failing_index);
    for (copy, rows) in &obs.copies {
        let mut t = table();
        let names: Vec<&String> = rows.first().map(|r| r.keys().collect()).unwrap_or_default();
        let mut header = vec![format!("∀ {copy} #")];
        header.extend(names.iter().map(|n| n.to_string()));
        t.set_header(header);
        for (i, row) in rows.iter().enumerate() {
            let mut cells = vec![(i + 1).to_string()];
            cells.extend(names.iter().map(|n| row[*n].to_string()));
            t.add_row(cells);
        }
        for c in t.column_iter_mut() {
            c.set_cell_alignment(CellAlignment::Right);
        }
        s.push_str(&indent(&finish(t), 2));
    }
    let _ = writeln!(
        s,
        "{}",
        if obs.infinite_extension {
            "every ∀ copy can go on observing forever: also a violation over infinite runs"
        } else {
            "not established that every ∀ copy can go on observing (finite-prefix violation)"
        }
    );
    s
}

/// A counterexample as a table of copies × variables (initial → final), then the ∀
/// copies' choices and the explanation.
pub(crate) fn counterexample_text(cex: &Counterexample) -> String {
    let mut t = table();
    t.set_header(vec!["copy", "variable", "initial", "final"]);
    for run in &cex.copies {
        let q = run.quantifier.symbol();
        for (i, row) in shown_vars(cex, run).into_iter().enumerate() {
            let label =
                if i == 0 { format!("{q} {}: {}", run.copy, run.program) } else { String::new() };
            t.add_row(vec![
                label,
                row.name,
                row.initial.unwrap_or_default(),
                row.final_value.unwrap_or_default(),
            ]);
        }
    }
    let mut s = finish(t);
    if let Some(obs) = &cex.observations {
        s.push_str(&observations_text(obs));
    }
    for run in cex.copies.iter().filter(|r| !r.choices.is_empty()) {
        let choices = shown_choices(cex, run);
        let _ = writeln!(s, "choices of {}: {}", run.copy, choices.join(", "));
    }
    if !cex.explanation.is_empty() {
        let _ = writeln!(s, "why: {}", cex.explanation);
    }
    if let Some(c) = &cex.violated_conjunct {
        let _ = writeln!(s, "violated conjunct: {c}");
    }
    s
}

fn proof_text(proof: &Proof, queries: u64) -> String {
    let mut s = format!("{} obligations, {queries} queries\n", proof.obligations);
    if let Some(e) = &proof.exhaustive {
        let _ = writeln!(
            s,
            "exhaustive search: every ∀ run explored with loops unrolled at most {} times \
             ({} ∀ paths), each matched by a complete ∃ run",
            e.unroll, e.forall_paths
        );
    } else if let Some(n) = proof.observation_bound {
        let _ = writeln!(
            s,
            "exhaustive search: no ∀ run reaches observation {}; every ∀ prefix with up to \
             {n} observations has an ∃ witness",
            n + 1
        );
    } else if let Some(how) = &proof.summary {
        let _ = writeln!(s, "{how}");
    } else if proof.loop_points.is_empty() {
        s.push_str("no loop points: the strongest postcondition is exact\n");
    }
    for (i, lp) in proof.loop_points.iter().enumerate() {
        let counts: Vec<String> = lp.counts.iter().map(u32::to_string).collect();
        let _ = writeln!(
            s,
            "loop point {}: {}; counts {}; {} candidates tried",
            i + 1,
            lp.loops.join(", "),
            counts.join(", "),
            lp.candidates_tried
        );
        if let Some(a) = &lp.alignment {
            let _ = writeln!(s, "  alignment: {a}");
        }
        let _ = writeln!(s, "  invariant: {}", lp.invariant);
    }
    if let Some(f) = proof.recorded.float_encoding {
        let _ = writeln!(s, "{}", f.describe());
    }
    strategy_text(&mut s, &proof.recorded.strategy);
    s
}

/// The ∃ side's strategy: each parameter's term, at the proof step that chose it.
fn strategy_text(s: &mut String, strategy: &[crate::verdict::StrategyEntry]) {
    if strategy.is_empty() {
        return;
    }
    s.push_str("∃ strategy:\n");
    for e in strategy {
        let _ = writeln!(s, "  {} := {}   ({})", e.param, e.term, e.step);
    }
}

/// The details block of one result, or `None` when there is nothing beyond the table row.
fn details(r: &TupleResult, explain: bool) -> Option<String> {
    let head = match &r.tuple {
        Some(t) => format!("{t} ({})", r.location()),
        None => r.file.clone(),
    };
    match &r.status {
        Status::Done(o) => match &o.verdict {
            Verdict::Violated { counterexample } => Some(format!(
                "violated: {head}\n{}",
                indent(&counterexample_text(counterexample), 2)
            )),
            Verdict::Unknown { reason } => Some(format!("unknown: {head}: {reason}\n")),
            Verdict::Verified { proof } if explain => Some(format!(
                "proof of {head}:\n{}",
                indent(&proof_text(proof, o.stats.queries), 2)
            )),
            Verdict::Verified { proof } if !proof.warnings.is_empty() => Some(
                proof
                    .warnings
                    .iter()
                    .map(|w| format!("warning[{}]: {head}: {}\n", w.code, w.message))
                    .collect(),
            ),
            Verdict::Verified { .. } => None,
        },
        // A diagnostic line already reads `path:line:col: error: message`.
        Status::Error { reason } if reason.starts_with(&r.file) => Some(format!("{reason}\n")),
        Status::Error { reason } => Some(format!("error: {head}: {reason}\n")),
    }
}

/// The summary table: tuple, file:line, verdict, engine, time.
fn summary_table(report: &Report) -> String {
    let mut t = table();
    t.set_header(vec!["tuple", "location", "verdict", "engine", "time"]);
    for r in &report.results {
        let engine = r.engine().map_or("-".to_string(), |e| {
            serde_json::to_value(e)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        });
        let time = r.time().map_or("-".to_string(), seconds);
        // A verdict the input file's expectation contradicts is marked where it is read.
        let verdict = match r.expected {
            Some(e) if e.contradicted_by(r.verdict_name()) => {
                format!("{} ✗ expected {}", r.verdict_name(), e.name())
            }
            _ if !r.warnings().is_empty() => format!("{} (vacuous)", r.verdict_name()),
            _ => r.verdict_name().to_string(),
        };
        t.add_row(vec![r.display_name(), r.location(), verdict, engine, time]);
    }
    if let Some(c) = t.column_mut(4) {
        c.set_cell_alignment(CellAlignment::Right);
    }
    finish(t)
}

/// The totals line, e.g. `4 tuples: 1 verified, 1 violated, 1 unknown, 1 error in 1.04 s`.
fn totals(report: &Report) -> String {
    let c = report.counts();
    let noun = if c.total() == 1 { "result" } else { "results" };
    let mut s = format!(
        "{} {noun}: {} verified, {} violated, {} unknown, {} error in {}",
        c.total(),
        c.verified,
        c.violated,
        c.unknown,
        c.error,
        seconds(report.time)
    );
    if let Some(stop) = report.stopped {
        let why = match stop {
            Stop::Interrupted => "interrupted",
            Stop::FailFast => "stopped at the first violated tuple (--fail-fast)",
        };
        let _ = write!(s, "; {why}, {} not finished", report.not_run.len());
    }
    s.push('\n');
    for note in &report.notes {
        let _ = writeln!(s, "note: {note}");
    }
    s
}

/// The whole human report. With `explain`, verified tuples show their proofs.
pub fn render_human(report: &Report, explain: bool) -> String {
    let mut s = String::new();
    for r in &report.results {
        if let Some(d) = details(r, explain) {
            s.push_str(&d);
            s.push('\n');
        }
    }
    if !report.results.is_empty() {
        s.push_str(&summary_table(report));
    }
    s.push_str(&totals(report));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;
    use crate::value::Value;
    use std::collections::BTreeMap;

    #[test]
    fn table_rows_and_totals() {
        let out = render_human(&sample(), false);
        let table_start = out.find("tuple").expect("a table header");
        let rows: Vec<&str> = out[table_start..].lines().collect();
        assert!(
            rows[1].contains("ok") && rows[1].contains("x.fe:3") && rows[1].contains("verified")
        );
        assert!(rows[1].contains("prove") && rows[1].contains("12 ms"));
        assert!(
            rows[2].contains("leak") && rows[2].contains("violated") && rows[2].contains("refute")
        );
        assert!(rows[3].contains("hard<&>") && rows[3].contains("1.00 s"));
        assert!(
            rows[4].contains("(bad.fe)")
                && rows[4].contains("dir/bad.fe")
                && rows[4].contains("error")
        );
        assert!(out.ends_with("4 results: 1 verified, 1 violated, 1 unknown, 1 error in 1.04 s\n"));
        assert!(!out.contains("proof of"), "proofs only with --explain");
    }

    #[test]
    fn counterexample_reason_and_proof_details() {
        let out = render_human(&sample(), true);
        assert!(out.contains("violated: leak (x.fe:9)"));
        let row = out.lines().find(|l| l.contains("∀ a: leak")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells, ["∀", "a:", "leak", "h", "1", "1"]);
        assert!(out.lines().any(|l| l.split_whitespace().eq(["o", "0", "51"])));
        assert!(out.contains("∃ c: leak"));
        assert!(out.contains("choices of a: 50, true"));
        assert!(!out.contains("choices of c"));
        assert!(out.contains("why: no run of c ends with o == 51"));
        assert!(out.contains("violated conjunct: a.o == c.o"));
        assert!(out.contains("unknown: hard<&> (y.fe:1): timeout after 1 s (the time"));
        assert!(out.contains("\ndir/bad.fe:2:5: error: unknown variable"), "{out}");
        assert!(out.contains("proof of ok (x.fe:3):"));
        assert!(
            out.contains("loop point 1: a@x.fe:4:3, c@x.fe:4:3; counts 1, 2; 3 candidates tried")
        );
        assert!(out.contains("invariant: a.i == c.i && a.o <= c.o"));
    }

    #[test]
    fn vacuity_warnings_show_above_and_in_the_table() {
        let out = render_human(&crate::report::tests::vacuous_sample(), false);
        assert!(out.contains("warning[W0100]: ok (x.fe:3): `pre` is unsatisfiable <&>\n"), "{out}");
        let row = out.lines().find(|l| l.starts_with("ok ")).unwrap();
        assert!(row.contains("verified (vacuous)"), "{row}");
        // Without warnings, no such text.
        assert!(!render_human(&sample(), false).contains("vacuous"));
    }

    #[test]
    fn stop_reasons_in_totals() {
        let mut r = sample();
        r.stopped = Some(Stop::Interrupted);
        r.not_run = vec!["a.fe: t".into(), "a.fe: u".into()];
        assert!(render_human(&r, false).contains("; interrupted, 2 not finished"));
        assert_eq!(
            render_human(&Report::default(), false),
            "0 results: 0 verified, 0 violated, 0 unknown, 0 error in 0 ms\n"
        );
    }

    #[test]
    fn observations_render_one_row_per_index() {
        let row = |i: i64| -> BTreeMap<String, Value> {
            ["v", "w", "x", "y", "z"].iter().map(|n| (n.to_string(), Value::int(i * 100))).collect()
        };
        let obs = crate::verdict::ObservationTrace {
            failing_index: 10,
            copies: BTreeMap::from([("a".to_string(), (1..=10).map(row).collect())]),
            infinite_extension: true,
        };
        let out = observations_text(&obs);
        assert!(out.starts_with("fails at observation 10; observed:\n"), "{out}");
        let header = out.lines().nth(1).unwrap();
        assert!(header.contains("∀ a #") && header.ends_with('z'), "{out}");
        let last = out.lines().nth(11).unwrap();
        assert!(last.trim_start().starts_with("10") && last.ends_with("1000"), "{out}");
        assert!(out.lines().all(|l| l.chars().count() < 80), "{out}");
        assert!(out.contains("also a violation over infinite runs"));
    }
}
