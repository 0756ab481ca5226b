//! `forex equiv OLD NEW`: is the new version equivalent to the old one? The pairs come
//! from `crate::equiv`; deciding and reporting are `prove`'s.

use super::choices::InputArg;
use super::prove::DecideArgs;
use crate::batch::{self, Entry, ExecOptions};
use crate::cancel::Cancel;
use crate::equiv::{EquivOptions, NamePair, Pair};
use crate::frontend::{InputFormat, Version};
use crate::ir::Tuple;
use crate::portfolio::{cores::CoreBudget, DecideOptions, Lemma};
use crate::report::{Status, TupleResult};
use clap::Args;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use std::sync::Arc;

/// Is the new version of a file equivalent to the old one? (regression verification)
///
/// Functions (C) or programs (`.fe`) of the same name in both files are paired; each pair
/// is the tuple "equal inputs ⇒ equal outputs" over one run of each version: for C the
/// parameters (array contents included) and the library functions both call are the
/// inputs, the returned value and the arrays either version writes the outputs; for `.fe`
/// the variables of one name and type in both. A pair is verified (equivalent), violated
/// (a replayed input on which the versions differ) or unknown. C files are read with
/// machine integers (what the compiled code does) unless `--int-model math` says
/// otherwise. Exit codes as `prove`: 0 all equivalent, 1 a difference, 2 unknown, 3 input
/// error.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  forex equiv old.c new.c
  forex equiv old.c new.c --function sum --function mean=average
  forex equiv old.c new.c --function f --in x,n --out ret
  forex equiv --git HEAD~1 src/filter.c
  forex equiv --refines spec.fe impl.fe --format json")]
pub struct EquivArgs {
    /// OLD and NEW (with `--git REV`: only NEW, whose revision REV is the old version).
    #[arg(required = true, num_args = 1..=2, value_name = "OLD NEW")]
    pub files: Vec<PathBuf>,
    /// Compare only this function (repeatable); `old_name=new_name` pairs renamed ones.
    #[arg(long = "function", short = 'f', value_name = "NAME|OLD=NEW")]
    pub functions: Vec<String>,
    /// The inputs that are equal at the start, replacing the default list (comma
    /// separated; `old_name=new_name` for renamed ones).
    #[arg(long = "in", value_delimiter = ',', value_name = "X,Y")]
    pub inputs: Option<Vec<String>>,
    /// The outputs that must be equal at the end, replacing the default list.
    #[arg(long = "out", value_delimiter = ',', value_name = "RET,G")]
    pub outputs: Option<Vec<String>>,
    /// Ask that every run of NEW be matched by some run of OLD (∀∃ refinement, for
    /// nondeterministic code) instead of equal outputs for every pair of runs.
    #[arg(long)]
    pub refines: bool,
    /// Read OLD from this git revision of NEW's path (`git show REV:path`).
    #[arg(long, value_name = "REV")]
    pub git: Option<String>,
    /// Input language (default: C for `.c` files, else `.fe`).
    #[arg(long = "input", value_enum, default_value_t = InputArg::Auto)]
    pub input: InputArg,
    #[command(flatten)]
    pub decide: DecideArgs,
}

fn name_pairs(flag: &str, list: &[String]) -> Result<Vec<NamePair>, String> {
    list.iter()
        .map(|s| {
            NamePair::parse(s)
                .ok_or_else(|| format!("{flag} {s:?}: expected NAME or OLD_NAME=NEW_NAME"))
        })
        .collect()
}

fn options(args: &EquivArgs) -> Result<EquivOptions, String> {
    Ok(EquivOptions {
        functions: name_pairs("--function", &args.functions)?,
        inputs: args.inputs.as_deref().map(|l| name_pairs("--in", l)).transpose()?,
        outputs: args.outputs.as_deref().map(|l| name_pairs("--out", l)).transpose()?,
        refines: args.refines,
    })
}

/// The old and new versions' names and bytes.
fn sources(args: &EquivArgs) -> Result<[(String, Vec<u8>); 2], String> {
    let read = |p: &Path| {
        let name = crate::frontend::display_name(p);
        std::fs::read(p).map(|b| (name.clone(), b)).map_err(|e| format!("cannot read {name}: {e}"))
    };
    match (&args.git, args.files.as_slice()) {
        (None, [old, new]) => Ok([read(old)?, read(new)?]),
        (None, _) => Err("give two files, OLD and NEW (or one file with --git REV)".into()),
        (Some(rev), [new]) => {
            let new_src = read(new)?;
            Ok([git_show(rev, new)?, new_src])
        }
        (Some(_), _) => Err("with --git REV give one file: the new version".into()),
    }
}

/// `git show REV:./file` run in the file's folder: the file as it was at REV.
fn git_show(rev: &str, path: &Path) -> Result<(String, Vec<u8>), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file = path.file_name().ok_or_else(|| format!("{}: not a file", path.display()))?;
    let spec = format!("{rev}:./{}", file.to_string_lossy());
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["show", &spec])
        .output()
        .map_err(|e| format!("--git: cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("--git {rev}: {}", err.trim()));
    }
    Ok((format!("{}@{rev}", path.display()), out.stdout))
}

fn load(
    name: &str,
    bytes: &[u8],
    format: InputFormat,
    front: &crate::frontend::Options,
) -> Result<Version, crate::diag::Diagnostics> {
    // `old.c@HEAD~1` is C like `old.c`.
    let format = match format {
        InputFormat::Auto if name.split('@').next().is_some_and(|n| n.ends_with(".c")) => {
            InputFormat::C
        }
        f => f,
    };
    crate::frontend::load_version(name, bytes, format, front)
}

pub fn main(args: EquivArgs, front: &crate::frontend::Options) -> i32 {
    let root = Cancel::new();
    super::ctrl_c::on_ctrl_c(&root);
    let diagnostics = args.decide.diagnostics;
    let fail = |e: &str| {
        eprint!("{}", super::usage_error(diagnostics, e));
        3
    };
    let (equiv, batch_opts, cross_solver) = match (
        options(&args),
        super::prove::decide_options(&args.decide),
        super::prove::cross_solver(&args.decide),
    ) {
        (Ok(e), Ok(b), Ok(c)) => (e, b, c),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return fail(&e),
    };
    if let Err(e) = super::check_writable(args.decide.output.as_ref()) {
        return fail(&e);
    }
    let sources = match sources(&args) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let [(old_name, old_bytes), (new_name, new_bytes)] = &sources;
    let format: InputFormat = args.input.into();
    let style = batch_opts.diag_style;
    let versions =
        (load(old_name, old_bytes, format, front), load(new_name, new_bytes, format, front));
    let (old, new) = match versions {
        (Ok(o), Ok(n)) => (o, n),
        (o, n) => {
            for d in [o.err(), n.err()].into_iter().flatten() {
                eprint!("{}", d.render_colored(style, batch_opts.diag_color));
            }
            return 3;
        }
    };
    let (pairs, warnings) = match crate::equiv::pairs(&old, &new, &equiv) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    for w in &warnings {
        let code = crate::diag::Code::NoTuple;
        eprint!("{}", crate::diag::warning_line(style, None, code, w));
    }
    if pairs.is_empty() {
        return fail(&format!("{} and {} define no function of the same name", old.name, new.name));
    }
    let mut entries = Vec::new();
    let mut tuples = Vec::new();
    // Pairs of recursive functions: their mutual summaries (`portfolio::Lemma`).
    let mut lemmas: HashMap<String, Lemma> = HashMap::new();
    for p in pairs {
        match p {
            Pair::Ready { tuple, summary } => {
                let tuple = *tuple;
                if let Some(s) = summary {
                    let what = crate::equiv::summary_what(&tuple.name);
                    let tuples =
                        s.map(|ts| ts.into_iter().map(|(t, h)| (Arc::new(t), h)).collect());
                    let lemma = Lemma { tuples, what };
                    lemmas.insert(tuple.name.clone(), lemma);
                }
                tuples.push(tuple.clone());
                let file = new.name.clone();
                entries.push(Entry::Todo { file, tuple: Arc::new(tuple), expected: None });
            }
            Pair::Broken { name, loc, reason, diagnostics } => {
                for d in &diagnostics {
                    eprint!("{}", d.render_colored(style, batch_opts.diag_color));
                }
                if diagnostics.is_empty() {
                    eprint!("{}", super::usage_error(args.decide.diagnostics, &reason));
                }
                entries.push(Entry::Done(TupleResult {
                    file: new.name.clone(),
                    tuple: Some(name),
                    loc,
                    status: Status::Error { reason },
                    expected: None,
                }));
            }
        }
    }
    let start = std::time::Instant::now();
    let cores = CoreBudget::new(batch_opts.jobs);
    let decide = DecideOptions { cores: Some(cores.clone()), ..batch_opts.decide.clone() };
    let exec = ExecOptions {
        jobs: batch_opts.jobs,
        cores: Some(cores),
        timeout: batch_opts.decide.timeout,
        fail_fast: false,
        progress: batch_opts.progress,
        grace: std::time::Duration::from_secs(5),
    };
    let decider: batch::Decider =
        Arc::new(move |tuple: &Tuple, cancel: &Cancel| match lemmas.get(&tuple.name) {
            Some(lemma) => crate::portfolio::decide_with_lemma(tuple, lemma, &decide, cancel),
            None => crate::portfolio::decide(tuple, &decide, cancel),
        });
    let mut report = batch::execute(entries, &exec, &root, decider);
    report.time = start.elapsed();
    let native =
        |report: &crate::report::Report| native_check(report, &tuples, &old, &new, &sources, front);
    let tuple_of =
        |r: &TupleResult| tuples.iter().find(|t| Some(&t.name) == r.tuple.as_ref()).cloned();
    super::prove::finish(&report, &args.decide, cross_solver.as_ref(), &native, &tuple_of)
}

/// `--native-check`: each violated pair's counterexample replayed on both compiled
/// versions (each ∀ copy on its own file), one check per pair: it agrees when both
/// versions compute the counterexample's values.
fn native_check(
    report: &crate::report::Report,
    tuples: &[crate::ir::Tuple],
    old: &Version,
    new: &Version,
    sources: &[(String, Vec<u8>); 2],
    front: &crate::frontend::Options,
) -> Vec<crate::native::report::NativeCheck> {
    use crate::native::NativeOutcome;
    use crate::verdict::Verdict;
    let opts = crate::native::NativeOptions { front: front.clone(), ..Default::default() };
    let mut out = Vec::new();
    for r in &report.results {
        let (Status::Done(outcome), Some(name)) = (&r.status, &r.tuple) else { continue };
        let Verdict::Violated { counterexample } = &outcome.verdict else { continue };
        let Some(tuple) = tuples.iter().find(|t| &t.name == name) else { continue };
        let mut outcomes = Vec::new();
        for (k, copy) in tuple.forall_copies() {
            let (version, (_, bytes)) =
                if copy.name == "old" { (old, &sources[0]) } else { (new, &sources[1]) };
            let Some(info) = &version.module.c else { continue };
            // The harness replays the tuple's ∀ copies: this one only.
            let mut one = tuple.clone();
            for (j, c) in one.copies.iter_mut().enumerate() {
                if j != k {
                    c.quantifier = crate::ir::Quantifier::Exists;
                }
            }
            let text = String::from_utf8_lossy(bytes);
            outcomes.push(crate::native::check_counterexample(
                &text,
                &version.name,
                info,
                &one,
                counterexample,
                &opts,
            ));
        }
        let combined = outcomes.iter().fold(None::<NativeOutcome>, |acc, o| match (acc, o) {
            (None, o) => Some(o.clone()),
            (
                Some(NativeOutcome::Agrees { compared, unobserved }),
                NativeOutcome::Agrees { compared: c2, unobserved: u2 },
            ) => Some(NativeOutcome::Agrees {
                compared: compared + c2,
                unobserved: unobserved.into_iter().chain(u2.iter().cloned()).collect(),
            }),
            (Some(NativeOutcome::Agrees { .. }), o) => Some(o.clone()),
            (Some(a), _) => Some(a),
        });
        if let Some(outcome) = combined {
            out.push(crate::native::report::NativeCheck {
                file: r.file.clone(),
                tuple: name.clone(),
                outcome,
            });
        }
    }
    out
}
