//! `forex prove` over many files: collect the files, load them, select tuples, decide
//! them in parallel and hand back a [`Report`] in input order.
//!
//! Loading is sequential and happens first, so diagnostics are printed before any
//! progress bar and the number of tuples is known up front. Deciding happens in
//! [`exec`]: `jobs` lanes on long-lived engine workers that keep their thread-local Z3
//! contexts between tuples, with `--jobs` cores shared by the tuples and their
//! portfolios' second engines.

mod cost;
mod exec;
mod progress;
mod shard;

pub use exec::{execute, Decider, ExecOptions};
pub use shard::Shard;

use crate::cancel::Cancel;
use crate::diag::{warning_line, DiagStyle, Diagnostics};
use crate::frontend::{load_file_recovering_with, InputFormat, Recovered};
use crate::ir::Tuple;
use crate::portfolio::cores::CoreBudget;
use crate::portfolio::{decide, DecideOptions};
use crate::report::{Report, Status, TupleResult};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Everything `forex prove` can ask of a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    pub decide: DecideOptions,
    /// Tuples decided at the same time (at least 1).
    pub jobs: usize,
    /// Stop at the first violated tuple.
    pub fail_fast: bool,
    /// Only tuples whose name matches one of these (empty: all).
    pub select: Vec<glob::Pattern>,
    /// Format of files named on the command line (files found in folders: `Auto`).
    pub input: InputFormat,
    /// How diagnostics are printed on stderr.
    pub diag_style: DiagStyle,
    /// Colours in those diagnostics (`--color`).
    pub diag_color: bool,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Only this shard of the tuples (`--shard i/n`).
    pub shard: Option<Shard>,
    /// `--observations N`: replaces every tuple's `observations` bound.
    pub observations: Option<u32>,
    /// How every file is read (C files: integer model, `-I`, `-D`).
    pub frontend: crate::frontend::Options,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            decide: DecideOptions::default(),
            jobs: default_jobs(),
            fail_fast: false,
            select: Vec::new(),
            input: InputFormat::Auto,
            diag_style: DiagStyle::Short,
            diag_color: false,
            progress: false,
            shard: None,
            observations: None,
            frontend: crate::frontend::Options::default(),
        }
    }
}

/// The number of cores (1 when it cannot be found out).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A file to load and the format to load it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputFile {
    pub path: PathBuf,
    pub format: InputFormat,
}

/// Whether a `.txt` found in a folder is a ForEx instance: its first line that is neither
/// blank nor a comment opens a section (`[forall]`, …). A README.txt is not; a ForEx file
/// with a misspelt header still is, so that the user gets a diagnostic for it.
fn looks_like_forex(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else { return true };
    let text = String::from_utf8_lossy(&bytes);
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//"));
    first.is_some_and(|l| l.starts_with('['))
}

fn walk(dir: &Path, seen: &mut HashSet<PathBuf>, out: &mut Vec<InputFile>) {
    // Symbolic links may form cycles: visit every real folder once.
    if let Ok(real) = dir.canonicalize() {
        if !seen.insert(real) {
            return;
        }
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        // Reported as an unreadable file by the loader.
        out.push(InputFile { path: dir.to_path_buf(), format: InputFormat::Auto });
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, seen, out);
            continue;
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("fe" | "c") => out.push(InputFile { path, format: InputFormat::Auto }),
            Some("txt") if looks_like_forex(&path) => {
                out.push(InputFile { path, format: InputFormat::Auto })
            }
            // hyena0's files have no extension: picked up by content.
            None if looks_like_hyena(&path) => {
                out.push(InputFile { path, format: InputFormat::Auto })
            }
            _ => {}
        }
    }
}

/// Whether the file at `path` starts like a hyena0 file (see `syntax::hyena`).
fn looks_like_hyena(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(64 * 1024).read_to_end(&mut head));
    read.is_ok() && crate::syntax::hyena::looks_like_hyena(&String::from_utf8_lossy(&head))
}

/// The files to load, in a deterministic order: paths as given; a folder contributes its
/// `*.fe` and ForEx-format `*.txt` files, recursively, sorted by path. A path that does
/// not exist is kept (loading it yields the diagnostic). `format` applies to files named
/// directly; files found in folders are detected one by one.
pub fn collect_files(paths: &[PathBuf], format: InputFormat) -> Vec<InputFile> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut seen, &mut found);
        } else {
            found.push(InputFile { path: path.clone(), format });
        }
    }
    // A file reached twice (`dir dir/a.fe`, overlapping folders) is decided once, at its
    // first place.
    let mut files = HashSet::new();
    found.retain(|f| f.path.canonicalize().map_or(true, |real| files.insert(real)));
    found
}

/// One entry of a batch, in input order.
// One entry per tuple, held only until the batch runs: the size difference between a
// finished result and a pending tuple costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Entry {
    /// Already finished: a file that did not load.
    Done(TupleResult),
    /// A tuple to decide; `file` is how the report names its file.
    Todo { file: String, tuple: Arc<Tuple>, expected: Option<crate::ir::ExpectedOutcome> },
}

/// Whether `name` is selected by the `--tuple` patterns (all, when there are none).
pub fn selected(select: &[glob::Pattern], name: &str) -> bool {
    select.is_empty() || select.iter().any(|p| p.matches(name))
}

/// `N input errors; first: <the first diagnostic's short line>`.
fn error_reason(diags: &Diagnostics) -> String {
    let short = diags.render(DiagStyle::Short);
    let first = short.lines().find(|l| !l.trim().is_empty()).unwrap_or("input error").trim();
    match diags.len() {
        0 | 1 => first.to_string(),
        n => format!("{n} input errors; first: {first}"),
    }
}

/// Loads every file, printing diagnostics on stderr, and returns the entries in input
/// order. A file with errors becomes one `error` entry; the others still run. Patterns
/// that match no tuple at all are named in a warning.
pub fn load(files: &[InputFile], opts: &BatchOptions) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut used = vec![false; opts.select.len()];
    for f in files {
        let file = crate::frontend::display_name(&f.path);
        match load_file_recovering_with(&f.path, f.format, &opts.frontend) {
            Ok(Recovered { module, broken, limited, unused }) => {
                let has_unused = unused.is_some();
                if let Some(diags) = unused {
                    eprint!("{}", diags.render_colored(opts.diag_style, opts.diag_color));
                    entries.push(Entry::Done(TupleResult {
                        file: file.clone(),
                        tuple: None,
                        loc: None,
                        status: Status::Error { reason: error_reason(&diags) },
                        expected: None,
                    }));
                }
                if module.tuples.is_empty()
                    && broken.is_empty()
                    && limited.is_empty()
                    && !has_unused
                {
                    let (style, code) = (opts.diag_style, crate::diag::Code::NoTuple);
                    eprint!("{}", warning_line(style, Some(&file), code, "no tuple to prove"));
                }
                // Checked and broken tuples, reported in source order.
                let mut in_file = Vec::new();
                for tuple in module.tuples.clone() {
                    for (i, p) in opts.select.iter().enumerate() {
                        used[i] |= p.matches(&tuple.name);
                    }
                    if selected(&opts.select, &tuple.name) {
                        let expected = module.expected_of(&tuple.name);
                        let mut tuple = tuple;
                        if opts.observations.is_some() {
                            tuple.observations = opts.observations;
                        }
                        let loc = tuple.loc;
                        let tuple = Arc::new(tuple);
                        in_file.push((loc, Entry::Todo { file: file.clone(), tuple, expected }));
                    }
                }
                for b in broken {
                    for (i, p) in opts.select.iter().enumerate() {
                        used[i] |= p.matches(&b.name);
                    }
                    if selected(&opts.select, &b.name) {
                        eprint!(
                            "{}",
                            b.diagnostics.render_colored(opts.diag_style, opts.diag_color)
                        );
                        let status = Status::Error { reason: error_reason(&b.diagnostics) };
                        let result = TupleResult {
                            file: file.clone(),
                            tuple: Some(b.name),
                            loc: Some(b.loc),
                            status,
                            expected: None,
                        };
                        in_file.push((b.loc, Entry::Done(result)));
                    }
                }
                // Past the front end's limits: undecided, with the limit as the reason.
                for l in limited {
                    for (i, p) in opts.select.iter().enumerate() {
                        used[i] |= p.matches(&l.name);
                    }
                    if selected(&opts.select, &l.name) {
                        let result = TupleResult {
                            file: file.clone(),
                            tuple: Some(l.name),
                            loc: Some(l.loc),
                            status: Status::Done(limit_outcome(&l.limit)),
                            expected: None,
                        };
                        in_file.push((l.loc, Entry::Done(result)));
                    }
                }
                in_file.sort_by_key(|(loc, _)| *loc);
                entries.extend(in_file.into_iter().map(|(_, e)| e));
            }
            Err(diags) => {
                eprint!("{}", diags.render_colored(opts.diag_style, opts.diag_color));
                entries.push(Entry::Done(TupleResult {
                    file,
                    tuple: None,
                    loc: None,
                    status: Status::Error { reason: error_reason(&diags) },
                    expected: None,
                }));
            }
        }
    }
    for (p, used) in opts.select.iter().zip(used) {
        if !used {
            let message = format!("--tuple {} matches no tuple", p.as_str());
            let code = crate::diag::Code::UnmatchedPattern;
            eprint!("{}", warning_line(opts.diag_style, None, code, &message));
        }
    }
    entries
}

/// The `unknown` outcome of a tuple whose programs ran into the front end's limits: a
/// timeout (the time limit is the tuple's), or the memory running out (the size limit).
fn limit_outcome(limit: &crate::frontend::LimitHit) -> crate::verdict::Outcome {
    use crate::verdict::{Engine, Outcome, UnknownReason, Verdict};
    let reason = match limit {
        crate::frontend::LimitHit::Time(d) => UnknownReason::Timeout {
            limit: *d,
            during: Box::new(UnknownReason::Unsupported(limit.to_string())),
        },
        crate::frontend::LimitHit::Size { .. } => UnknownReason::MemoryOut(limit.to_string()),
    };
    Outcome {
        verdict: Verdict::Unknown { reason },
        engine: Engine::Prove,
        time: std::time::Duration::ZERO,
        stats: Default::default(),
    }
}

/// The portfolio as a [`Decider`].
pub fn portfolio_decider(opts: DecideOptions) -> Decider {
    Arc::new(move |tuple: &Tuple, cancel: &Cancel| decide(tuple, &opts, cancel))
}

/// `forex prove`: collect, load and decide everything under `paths`. `root` is cancelled
/// on Ctrl-C; what finished before that is in the report.
pub fn run(paths: &[PathBuf], opts: &BatchOptions, root: &Cancel) -> Report {
    let start = std::time::Instant::now();
    let files = collect_files(paths, opts.input);
    let mut entries = load(&files, opts);
    if let Some(shard) = opts.shard {
        shard.retain(&mut entries, paths);
    }
    // One budget of cores for the tuples and their portfolios' second engines.
    let cores = CoreBudget::new(opts.jobs);
    let decide = DecideOptions { cores: Some(cores.clone()), ..opts.decide.clone() };
    let exec = ExecOptions {
        jobs: opts.jobs.max(1),
        cores: Some(cores),
        timeout: opts.decide.timeout,
        fail_fast: opts.fail_fast,
        progress: opts.progress,
        grace: Duration::from_secs(5),
    };
    let mut report = execute(entries, &exec, root, portfolio_decider(decide));
    report.time = start.elapsed();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn folders_sorted_recursively_files_as_given() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("b/sub")).unwrap();
        fs::create_dir_all(d.join("a")).unwrap();
        fs::write(d.join("b/z.fe"), "").unwrap();
        fs::write(d.join("b/sub/y.fe"), "").unwrap();
        fs::write(d.join("b/m.txt"), "// ForEx\n\n[forall]\nint x;\n").unwrap();
        fs::write(d.join("b/README.txt"), "Some notes.\n[forall] is a header\n").unwrap();
        fs::write(d.join("b/notes.md"), "").unwrap();
        fs::write(d.join("a/x.fe"), "").unwrap();
        fs::write(d.join("given.txt"), "not forex, but named").unwrap();
        let paths = [
            d.join("given.txt"),
            d.join("b"),
            d.join("a"),
            d.join("missing.fe"),
            d.join("b/z.fe"),
            d.join("a/../given.txt"),
        ];
        let files = collect_files(&paths, InputFormat::Forex);
        let rel: Vec<_> = files
            .iter()
            .map(|f| (f.path.strip_prefix(d).unwrap().to_str().unwrap().to_string(), f.format))
            .collect();
        let auto = InputFormat::Auto;
        assert_eq!(
            rel,
            [
                ("given.txt".to_string(), InputFormat::Forex),
                ("b/m.txt".to_string(), auto),
                ("b/sub/y.fe".to_string(), auto),
                ("b/z.fe".to_string(), auto),
                ("a/x.fe".to_string(), auto),
                ("missing.fe".to_string(), InputFormat::Forex),
            ]
        );
    }

    #[test]
    fn unreadable_file_is_an_error_entry() {
        let opts = BatchOptions::default();
        let files = [InputFile { path: "/nonexistent/forex/x.fe".into(), format: InputFormat::Fe }];
        let entries = load(&files, &opts);
        assert_eq!(entries.len(), 1);
        let Entry::Done(r) = &entries[0] else { panic!("expected an error entry") };
        assert_eq!(r.verdict_name(), "error");
        assert_eq!(r.file, "/nonexistent/forex/x.fe");
        assert!(r.reason().unwrap().contains("/nonexistent/forex/x.fe"), "{:?}", r.reason());
    }

    #[test]
    fn selection_by_glob() {
        let pats: Vec<glob::Pattern> =
            ["gni*", "ni_?"].iter().map(|p| glob::Pattern::new(p).unwrap()).collect();
        assert!(selected(&pats, "gni_leak"));
        assert!(selected(&pats, "ni_a"));
        assert!(!selected(&pats, "ni_ab"));
        assert!(!selected(&pats, "refine"));
        assert!(selected(&[], "anything"));
    }
}
