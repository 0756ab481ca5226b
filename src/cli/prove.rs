//! `forex prove`: decide every tuple of the given files and folders.

use super::choices::{DiagArg, EngineArg, InputArg};
use crate::batch::{self, BatchOptions};
use crate::cancel::Cancel;
use crate::certificate::check::{SolverCmd, Status, TupleCheck};
use crate::hypertest::TestOptions;
use crate::portfolio::DecideOptions;
use crate::prove::ProveOptions;
use crate::refute::RefuteOptions;
use crate::report::{
    render_github, render_human, render_json, render_json_checked, render_junit, render_sarif,
    CrossCheck,
};
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum ReportFormat {
    #[default]
    Human,
    Json,
    Junit,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow annotations (`::error file=…,line=…::…`).
    Github,
}

/// Prove or refute every tuple in the given files and folders.
///
/// Folders are searched recursively for `*.fe` and ForEx-format `*.txt` files (`-`
/// reads one file from standard input). Each
/// tuple gets a verdict: verified (a proof was found), violated (a replayed
/// counterexample), unknown (with the reason) or error (bad input). The exit code is the
/// largest over all tuples: 0 verified, 1 violated, 2 unknown, 3 error.
#[derive(Args, Debug)]
// The examples live in `after_help`: doc comments are re-wrapped, which joins their lines.
#[command(after_help = "Examples:
  forex prove examples/gni.fe
  forex prove --jobs 2 --format json ../shared/benchmarks/forex
  forex prove --tuple 'gni*' --timeout 10 --explain examples/
  forex prove --format sarif --output forex.sarif examples/")]
pub struct ProveArgs {
    /// Files and folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Only tuples whose name matches (repeatable; `*` and `?` globs).
    #[arg(long = "tuple", value_name = "NAME")]
    pub tuples: Vec<String>,
    /// Decide only shard I of N (1-based): a stable split by file path (relative to its
    /// argument) and tuple name, so N CI jobs together cover every tuple once.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<batch::Shard>,
    /// Observation bound for temporal (`always`) tuples: refutation looks for
    /// violations with at most N observations (replaces the tuples' `observations N;`).
    #[arg(long, value_name = "N", value_parser = super::choices::observation_count)]
    pub observations: Option<u32>,
    /// Stop at the first violated tuple.
    #[arg(long)]
    pub fail_fast: bool,
    /// Input language of files given by name (folders: detected per file). `--format`
    /// names the report format here, so the input language is `--input` (as in `check`).
    #[arg(long = "input", value_enum, default_value_t = InputArg::Auto)]
    pub input: InputArg,
    #[command(flatten)]
    pub decide: DecideArgs,
}

/// How tuples are decided and reported: the options `prove` and `equiv` share.
#[derive(Args, Debug)]
pub struct DecideArgs {
    /// Engines: prove (ForEx), refute (bounded ∀∃ symbolic execution), test
    /// (hypertesting) or all three concurrently.
    #[arg(long, value_enum, default_value_t = EngineArg::All)]
    pub engine: EngineArg,
    /// Time limit per tuple, in seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    pub timeout: f64,
    /// Cores to use: at most N engines compute at once, counting each tuple's prover and
    /// the second engines of its portfolio (default: number of cores). With a free core
    /// the refuter and tester start beside a prover that has run 30 ms; on a full budget
    /// they wait until it has run 200 ms (at most a quarter of --timeout) or gave up.
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
    /// Write the report to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Print the proof: per loop point the alignment, counts, invariant and candidates tried.
    #[arg(long)]
    pub explain: bool,
    /// Write every SMT query as SMT-LIB into this folder.
    #[arg(long, value_name = "DIR")]
    pub dump_smt: Option<PathBuf>,
    /// Write a certificate per decided tuple into this folder: the proof data as JSON and
    /// each obligation as a standalone SMT-LIB 2.6 script (`forex certify DIR` re-checks it).
    #[arg(long, value_name = "DIR")]
    pub certificate: Option<PathBuf>,
    /// Re-check every certificate with a second solver as tuples are decided (JSON:
    /// `certificate: {checked, total, solver}`).
    #[arg(long)]
    pub cross_check: bool,
    /// The second solver for `--cross-check`: a command reading an SMT-LIB file named as
    /// its last argument (default: cvc5).
    #[arg(long, value_name = "CMD ARGS")]
    pub solver: Option<String>,
    /// Refuter: largest loop-unrolling bound (it deepens 1, 2, 4, … up to N); for temporal
    /// tuples without `observations`, also the longest prefix checked. Default: no fixed
    /// bound, it deepens until the time limit, the path budget or a complete search.
    #[arg(long, value_name = "N")]
    pub unroll: Option<u32>,
    /// Refuter: largest number of symbolic paths explored at one loop bound.
    #[arg(long, value_name = "N", default_value_t = RefuteOptions::default().max_paths)]
    pub max_paths: u64,
    /// No progress bar (there is none anyway when stderr is not a terminal, or with
    /// `--format json` or `--diagnostics json`).
    #[arg(long, short)]
    pub quiet: bool,
    /// After a C tuple is violated, compile the C file with the system compiler and replay
    /// the counterexample natively (this runs your code: in a temporary folder, killed
    /// after 10 s); human and JSON reports show the result (JSON: a `native` field).
    #[arg(long)]
    pub native_check: bool,
    /// How to print input errors.
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagArg>,
}

fn options(prove: &ProveArgs, front: &crate::frontend::Options) -> Result<BatchOptions, String> {
    let select = super::tuple_patterns(&prove.tuples)?;
    let args = &prove.decide;
    Ok(BatchOptions {
        fail_fast: prove.fail_fast,
        select,
        input: prove.input.into(),
        shard: prove.shard,
        observations: prove.observations,
        // Reading a file counts against its tuples' time.
        frontend: crate::frontend::Options {
            time_limit: Some(super::timeout(prove.decide.timeout)?),
            ..front.clone()
        },
        ..decide_options(args)?
    })
}

/// The batch options `args` ask for (all tuples, no shard, input detected per file).
pub(super) fn decide_options(args: &DecideArgs) -> Result<BatchOptions, String> {
    let timeout = super::timeout(args.timeout)?;
    // An unwritable report path fails now, not after all the proving.
    super::check_writable(args.output.as_ref())?;
    if let Some(dir) = &args.dump_smt {
        std::fs::create_dir_all(dir).map_err(|e| format!("--dump-smt {}: {e}", dir.display()))?;
    }
    let terminal = std::io::stderr().is_terminal();
    Ok(BatchOptions {
        decide: DecideOptions {
            engine: args.engine.into(),
            timeout,
            prove: ProveOptions {
                explain: args.explain,
                dump_smt: args.dump_smt.clone(),
                record: args.explain
                    || args.format == ReportFormat::Json
                    || args.certificate.is_some()
                    || args.cross_check,
                strategy_only: args.certificate.is_none() && !args.cross_check,
            },
            refute: RefuteOptions {
                dump_smt: args.dump_smt.clone(),
                max_unroll: args.unroll,
                max_paths: args.max_paths,
                // Not for JSON alone: certifying an exhaustive search's claims can cost far
                // more than the search (a Fibonacci unfolding: 36 ms, then the time limit).
                record: args.explain || args.certificate.is_some() || args.cross_check,
                ..RefuteOptions::default()
            },
            test: TestOptions { dump_smt: args.dump_smt.clone(), ..DecideOptions::default().test },
            ..DecideOptions::default()
        },
        jobs: args.jobs.unwrap_or_else(batch::default_jobs).max(1),
        fail_fast: false,
        select: Vec::new(),
        input: Default::default(),
        diag_style: super::diag_style(args.diagnostics),
        diag_color: super::stderr_color(),
        progress: terminal
            && !args.quiet
            && args.format != ReportFormat::Json
            && args.diagnostics != Some(DiagArg::Json),
        shard: None,
        observations: None,
        frontend: Default::default(),
    })
}

pub fn main(args: ProveArgs, front: &crate::frontend::Options) -> i32 {
    // First, while this is the only thread (see `ctrl_c::on_ctrl_c`).
    let root = Cancel::new();
    super::ctrl_c::on_ctrl_c(&root);
    let diagnostics = args.decide.diagnostics;
    let opts = match options(&args, front) {
        Ok(o) => o,
        Err(e) => {
            eprint!("{}", super::usage_error(diagnostics, &e));
            return 3;
        }
    };
    let cross_solver = match cross_solver(&args.decide) {
        Ok(s) => s,
        Err(e) => {
            eprint!("{}", super::usage_error(diagnostics, &e));
            return 3;
        }
    };
    let report = batch::run(&args.paths, &opts, &root);
    if report.results.is_empty() && report.not_run.is_empty() && args.shard.is_none() {
        let message = "no tuple to prove in the given paths";
        eprint!("{}", super::usage_error(diagnostics, message));
        return 3;
    }
    let input: crate::frontend::InputFormat = args.input.into();
    let native = |report: &crate::report::Report| {
        let opts = crate::native::NativeOptions { front: front.clone(), ..Default::default() };
        crate::native::report::check_report(report, input, &opts)
    };
    let tuple_of = |r: &crate::report::TupleResult| {
        let module =
            crate::frontend::load_file_with(std::path::Path::new(&r.file), input, front).ok()?;
        module.tuples.into_iter().find(|t| Some(&t.name) == r.tuple.as_ref())
    };
    finish(&report, &args.decide, cross_solver.as_ref(), &native, &tuple_of)
}

/// The second solver `--cross-check` asks for, if it does.
pub(super) fn cross_solver(args: &DecideArgs) -> Result<Option<SolverCmd>, String> {
    args.cross_check.then(|| super::certify::solver(args.solver.as_deref())).transpose()
}

/// What the native check says of a report's violated tuples.
pub(super) type NativeCheck<'a> =
    dyn Fn(&crate::report::Report) -> Vec<crate::native::report::NativeCheck> + 'a;
/// The tuple behind a result, for its certificate.
pub(super) type TupleOf<'a> = dyn Fn(&crate::report::TupleResult) -> Option<crate::ir::Tuple> + 'a;

/// Certificates, the native check, the report in the format asked for, and the exit code.
pub(super) fn finish(
    report: &crate::report::Report,
    args: &DecideArgs,
    cross_solver: Option<&SolverCmd>,
    native_check: &NativeCheck,
    tuple_of: &TupleOf,
) -> i32 {
    let native = if args.native_check { native_check(report) } else { Vec::new() };
    let checks = match certificates(args, report, cross_solver, tuple_of) {
        Ok(c) => c,
        Err(e) => {
            eprint!("{}", super::usage_error(args.diagnostics, &e));
            return 3;
        }
    };
    let text = match args.format {
        ReportFormat::Human => {
            let mut text = render_human(report, args.explain);
            if let Some(solver) = cross_solver {
                let done: Vec<_> = checks.iter().flatten().cloned().collect();
                text.push_str(&crate::certificate::check::render(&done, solver));
            }
            text + &crate::native::report::render_human(&native)
        }
        ReportFormat::Json if cross_solver.is_some() => {
            let solver = cross_solver.map(|s| s.display()).unwrap_or_default();
            let cross: Vec<Option<CrossCheck>> = checks
                .iter()
                .map(|c| {
                    c.as_ref().map(|c| CrossCheck {
                        checked: c.checked(),
                        total: c.total(),
                        solver: solver.clone(),
                        status: c.status_name().to_string(),
                    })
                })
                .collect();
            crate::native::report::add_to_json(&render_json_checked(report, &cross), &native)
        }
        ReportFormat::Json => crate::native::report::add_to_json(&render_json(report), &native),
        ReportFormat::Junit => render_junit(report),
        ReportFormat::Sarif => render_sarif(report),
        ReportFormat::Github => render_github(report),
    };
    if let Err(e) = super::write_report(&text, args.output.as_ref()) {
        eprint!("{}", super::usage_error(args.diagnostics, &e));
        return 3;
    }
    let alarm = checks.iter().flatten().any(|c| c.status == Status::Refuted);
    if alarm {
        eprintln!(
            "error: a second solver REFUTED an obligation Z3 answered unsat (see the report)"
        );
        return crate::certificate::check::EXIT_REFUTED;
    }
    report.exit_code()
}

/// `--certificate DIR` and `--cross-check`: writes the certificates (for a cross-check
/// without `--certificate`, into a temporary folder) and re-checks them, per result.
fn certificates(
    args: &DecideArgs,
    report: &crate::report::Report,
    solver: Option<&SolverCmd>,
    tuple_of: &TupleOf,
) -> Result<Vec<Option<TupleCheck>>, String> {
    let none = || report.results.iter().map(|_| None).collect();
    let temp;
    let dir = match (&args.certificate, solver) {
        (Some(dir), _) => dir.clone(),
        (None, Some(_)) => {
            temp = tempdir()?;
            temp.0.clone()
        }
        (None, None) => return Ok(none()),
    };
    let folders = crate::certificate::write_report(&dir, report, tuple_of)?;
    let Some(solver) = solver else { return Ok(none()) };
    let limit = std::time::Duration::from_secs(20);
    Ok(folders
        .iter()
        .map(|f| f.as_ref().map(|f| crate::certificate::check::check_folder(f, solver, limit)))
        .collect())
}

/// A temporary folder removed on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tempdir() -> Result<TempDir, String> {
    let dir = std::env::temp_dir().join(format!("forex-cross-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(TempDir(dir))
}
