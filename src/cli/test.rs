//! `forex test`: hypertesting of every tuple of the given files.

use super::choices::{DiagArg, InputArg, StrategyArg};
use crate::batch::{self, execute, BatchOptions, ExecOptions};
use crate::cancel::Cancel;
use crate::diag::DiagStyle;
use crate::hypertest::{hypertest_runs, TestOptions};
use crate::ir::Tuple;
use crate::report::{render_github, render_human, render_json, render_sarif};
use clap::{Args, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum TestReportFormat {
    #[default]
    Human,
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow annotations.
    Github,
}

/// Search for violations by running the programs concretely (hypertesting).
///
/// Never reports `verified`: either `violated` with a replayed counterexample, or
/// `unknown` with the number of runs and the hypercoverage reached.
///
/// Example: forex test --strategy evo --budget-ms 500 --seed 1 examples/ni_leak.fe
#[derive(Args, Debug)]
pub struct TestArgs {
    /// Files and folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// fuzz: random inputs; evo: hypercoverage-guided evolutionary search.
    #[arg(long, value_enum, default_value_t = StrategyArg::Evo)]
    pub strategy: StrategyArg,
    /// Time budget per tuple, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub budget_ms: u64,
    /// Random seed: the same seed runs the same sequence of tests (so gives the same
    /// result when --max-runs, not the time budget, ends the search).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each tuple's search after this many tests.
    #[arg(long, value_name = "N")]
    pub max_runs: Option<u64>,
    /// Observation bound for temporal (`always`) tuples: test runs up to N observations
    /// (replaces the tuples' `observations N;`).
    #[arg(long, value_name = "N", value_parser = super::choices::observation_count)]
    pub observations: Option<u32>,
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = TestReportFormat::Human)]
    pub format: TestReportFormat,
    /// Tuples tested in parallel.
    #[arg(long, short, default_value_t = 1)]
    pub jobs: usize,
    /// Input language of files given by name (folders: detected per file).
    #[arg(long = "input", value_enum, default_value_t = InputArg::Auto)]
    pub input: InputArg,
    /// Test only shard I of N (1-based; the same split as `prove --shard`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<batch::Shard>,
    /// How to print input errors (default: fancy on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagArg>,
}

pub fn main(args: TestArgs) -> i32 {
    let terminal = std::io::stderr().is_terminal();
    let default_style = if terminal { DiagStyle::Fancy } else { DiagStyle::Short };
    let opts = BatchOptions {
        diag_style: args.diagnostics.map(DiagStyle::from).unwrap_or(default_style),
        input: args.input.into(),
        observations: args.observations,
        ..BatchOptions::default()
    };
    let files = batch::collect_files(&args.paths, opts.input);
    let mut entries = batch::load(&files, &opts);
    if let Some(shard) = args.shard {
        shard.retain(&mut entries, &args.paths);
    }
    if entries.is_empty() && args.shard.is_none() {
        eprintln!("error: no tuple to test in the given paths");
        return 3;
    }
    let budget = Duration::from_millis(args.budget_ms);
    let test_opts = TestOptions { strategy: args.strategy.into(), budget, seed: args.seed };
    let exec = ExecOptions {
        jobs: args.jobs.max(1),
        // The campaign stops itself at its budget; the batch deadline is only a backstop
        // for a Z3 query that overruns it.
        timeout: budget + Duration::from_secs(30),
        fail_fast: false,
        progress: false,
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
        TestReportFormat::Sarif => render_sarif(&report),
        TestReportFormat::Github => render_github(&report),
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the report: {e}");
            return 3;
        }
    }
    report.exit_code()
}
