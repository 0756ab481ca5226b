//! `forex test`: hypertesting of every tuple of the given files.

use super::choices::{DiagArg, InputArg, StrategyArg};
use crate::batch::{self, execute, BatchOptions, ExecOptions};
use crate::cancel::Cancel;
use crate::hypertest::{hypertest_runs, TestOptions};
use crate::ir::Tuple;
use crate::report::{render_github, render_human, render_json, render_junit, render_sarif};
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum TestReportFormat {
    #[default]
    Human,
    Json,
    Junit,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow annotations.
    Github,
}

/// How long the batch lets a tuple run past its search budget without `--timeout`: a
/// backstop for a Z3 query that overruns the budget.
const BUDGET_BACKSTOP: Duration = Duration::from_secs(30);

/// Search for violations by running the programs concretely (hypertesting).
///
/// Never reports `verified`: either `violated` with a replayed counterexample, or
/// `unknown` with the number of runs and the hypercoverage reached.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  forex test examples/ni_leak.fe
  forex test --strategy evo --budget-ms 500 --seed 1 examples/ni_leak.fe
  forex test --tuple 'leak*' --timeout 5 --format junit --output tests.xml examples/")]
pub struct TestArgs {
    /// Files and folders (`-` reads one file from standard input).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// fuzz: random inputs; evo: hypercoverage-guided evolutionary search.
    #[arg(long, value_enum, default_value_t = StrategyArg::Evo)]
    pub strategy: StrategyArg,
    /// Search budget per tuple, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub budget_ms: u64,
    /// Hard time limit per tuple, in seconds (also caps the search budget).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Random seed: the same seed runs the same sequence of tests (so gives the same
    /// result when --max-runs, not the time budget, ends the search).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each tuple's search after this many tests.
    #[arg(long, value_name = "N")]
    pub max_runs: Option<u64>,
    /// Only tuples whose name matches (repeatable; `*` and `?` globs).
    #[arg(long = "tuple", value_name = "NAME")]
    pub tuples: Vec<String>,
    /// Observation bound for temporal (`always`) tuples: test runs up to N observations
    /// (replaces the tuples' `observations N;`).
    #[arg(long, value_name = "N", value_parser = super::choices::observation_count)]
    pub observations: Option<u32>,
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = TestReportFormat::Human)]
    pub format: TestReportFormat,
    /// Write the report to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Tuples tested in parallel.
    #[arg(long, short, default_value_t = 1)]
    pub jobs: usize,
    /// No progress bar (there is none anyway when stderr is not a terminal, or with
    /// `--format json` or `--diagnostics json`).
    #[arg(long, short)]
    pub quiet: bool,
    /// Input language of files given by name (folders: detected per file).
    #[arg(long = "input", value_enum, default_value_t = InputArg::Auto)]
    pub input: InputArg,
    /// Test only shard I of N (1-based; the same split as `prove --shard`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<batch::Shard>,
    /// How to print input errors (default: fancy on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagArg>,
    /// Write every SMT query (input solving, ∃ checks) as SMT-LIB into this folder.
    #[arg(long, value_name = "DIR")]
    pub dump_smt: Option<PathBuf>,
}

/// The batch options and the per-tuple limit, or what is wrong with the arguments.
fn options(
    args: &TestArgs,
    front: &crate::frontend::Options,
) -> Result<(BatchOptions, Option<Duration>), String> {
    let timeout = args.timeout.map(super::timeout).transpose()?;
    let select = super::tuple_patterns(&args.tuples)?;
    super::check_writable(args.output.as_ref())?;
    if let Some(dir) = &args.dump_smt {
        std::fs::create_dir_all(dir).map_err(|e| format!("--dump-smt {}: {e}", dir.display()))?;
    }
    let opts = BatchOptions {
        diag_style: super::diag_style(args.diagnostics),
        diag_color: super::stderr_color(),
        input: args.input.into(),
        select,
        observations: args.observations,
        frontend: crate::frontend::Options { time_limit: timeout, ..front.clone() },
        ..BatchOptions::default()
    };
    Ok((opts, timeout))
}

pub fn main(args: TestArgs, front: &crate::frontend::Options) -> i32 {
    let (opts, timeout) = match options(&args, front) {
        Ok(o) => o,
        Err(e) => {
            eprint!("{}", super::usage_error(args.diagnostics, &e));
            return 3;
        }
    };
    let files = batch::collect_files(&args.paths, opts.input);
    let mut entries = batch::load(&files, &opts);
    if let Some(shard) = args.shard {
        shard.retain(&mut entries, &args.paths);
    }
    if entries.is_empty() && args.shard.is_none() {
        let message = "no tuple to test in the given paths";
        eprint!("{}", super::usage_error(args.diagnostics, message));
        return 3;
    }
    let mut budget = Duration::from_millis(args.budget_ms);
    if let Some(limit) = timeout {
        budget = budget.min(limit);
    }
    let test_opts = TestOptions {
        strategy: args.strategy.into(),
        budget,
        seed: args.seed,
        dump_smt: args.dump_smt.clone(),
    };
    let json = args.format == TestReportFormat::Json || args.diagnostics == Some(DiagArg::Json);
    let exec = ExecOptions {
        jobs: args.jobs.max(1),
        cores: None,
        // The campaign stops itself at its budget; without --timeout the batch deadline
        // is only a backstop for a Z3 query that overruns it.
        timeout: timeout.unwrap_or(budget + BUDGET_BACKSTOP),
        fail_fast: false,
        progress: std::io::stderr().is_terminal() && !args.quiet && !json,
        grace: Duration::from_secs(5),
    };
    let max_runs = args.max_runs;
    let decider = Arc::new(move |tuple: &Tuple, cancel: &Cancel| {
        hypertest_runs(tuple, &test_opts, max_runs, cancel)
    });
    let report = execute(entries, &exec, &Cancel::new(), decider);
    let text = match args.format {
        TestReportFormat::Human => render_human(&report, false),
        TestReportFormat::Json => render_json(&report),
        TestReportFormat::Junit => render_junit(&report),
        TestReportFormat::Sarif => render_sarif(&report),
        TestReportFormat::Github => render_github(&report),
    };
    if let Err(e) = super::write_report(&text, args.output.as_ref()) {
        eprint!("{}", super::usage_error(args.diagnostics, &e));
        return 3;
    }
    report.exit_code()
}
