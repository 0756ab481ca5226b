//! `forex run`: run one program concretely and print its final state.

use super::choices::{DiagArg, InputArg};
use crate::cancel::Cancel;
use crate::interp::{self, Replay, RunEnd};
use crate::ir::{Module, Program, Quantifier, Tuple};
use crate::value::Value;
use clap::Args;
use std::path::{Path, PathBuf};

/// Run one program of a file concretely and print its final state.
///
/// Unset variables start at 0 / false / #b0… / an all-zero array; nondeterministic
/// choices (`x = *`, `if (*)`) are taken in order from --choices. Values are written as
/// in `.fe` (`-3`, `true`, `#b01`, `#xff`); arrays as `[1: 5, 2: 7, _: 0]` (`_` is the
/// value everywhere else).
///
/// A program with `observe;` prints its observations (the state at each `observe;`) and
/// stops after --observations of them (default 10): reactive programs need not end.
///
/// Exit codes: 0 the run finished or reached the observation bound; 2 it stopped early
/// (a false `assume`, or the step limit); 3 bad input (unknown program or variable, bad value, too few choices).
/// With --replay: 1 the counterexample was confirmed (the tuple is violated), 2 it was
/// not, 3 bad input.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  forex run examples/gni.fe --program pad --set h=1 --set l=2 --choices 7
  forex prove --format json --output report.json examples/ni_leak.fe
  forex run examples/ni_leak.fe --replay report.json
  forex run examples/c/pin_early_exit.c --replay report.json --native")]
pub struct RunArgs {
    /// The file holding the program (`-` reads standard input).
    pub file: PathBuf,
    /// The program to run.
    #[arg(long, short)]
    pub program: Option<String>,
    /// Initial value of a variable, `name=value` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Values for the nondeterministic choices in order, comma-separated (`3,true,#b01`).
    #[arg(long)]
    pub choices: Option<String>,
    /// Stop with "did not terminate" after this many steps.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_steps: u64,
    /// Stop after this many observations (`observe;`); default 10 for programs with
    /// `observe;`, no bound for the others.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub observations: Option<u32>,
    /// Replay a counterexample saved as JSON by `forex prove --format json` (a report,
    /// or a bare counterexample; `-` reads it from standard input).
    #[arg(long, value_name = "CEX.json")]
    pub replay: Option<PathBuf>,
    /// The tuple the counterexample belongs to (with --replay; needed only when the
    /// report holds counterexamples of several tuples of this file).
    #[arg(long)]
    pub tuple: Option<String>,
    /// With --replay on a `.c` file: also compile the program with the system C compiler
    /// and run the counterexample's ∀ copies natively, comparing their final values with
    /// forex's (this runs your code: in a temporary folder, killed after 10 s).
    #[arg(long, requires = "replay")]
    pub native: bool,
    /// Input language. (`--format` is the old spelling, still accepted.)
    #[arg(long = "input", alias = "format", value_enum, default_value_t = InputArg::Auto)]
    pub input: InputArg,
    /// How to print input errors (default: fancy on a terminal, short otherwise).
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagArg>,
}

pub fn main(args: RunArgs, front: &crate::frontend::Options) -> i32 {
    let module = match crate::frontend::load_file_with(&args.file, args.input.into(), front) {
        Ok(m) => m,
        Err(diags) => {
            let style = super::diag_style(args.diagnostics);
            eprint!("{}", diags.render_colored(style, super::stderr_color()));
            return 3;
        }
    };
    let result = match &args.replay {
        Some(path) => replay(&args, &module, path, front),
        None => run(&args, &module),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprint!("{}", super::usage_error(args.diagnostics, &message));
            3
        }
    }
}

fn run(args: &RunArgs, module: &Module) -> Result<i32, String> {
    let program = pick_program(module, args.program.as_deref())?;
    let mut state: Vec<Value> = program.vars.iter().map(|d| Value::default_of(&d.ty)).collect();
    for item in &args.set {
        let (name, text) =
            item.split_once('=').ok_or_else(|| format!("--set {item}: expected NAME=VALUE"))?;
        let name = name.trim();
        let var = program.var_by_name(name).ok_or_else(|| {
            let names: Vec<&str> = program.vars.iter().map(|d| d.name.as_str()).collect();
            format!(
                "--set {item}: program {} has no variable {name} (it has: {})",
                program.name,
                names.join(", ")
            )
        })?;
        let ty = &program.vars[var.index()].ty;
        let value = Value::parse_as(text, ty).map_err(|e| format!("--set {item}: {e}"))?;
        if !value.has_type(ty) {
            return Err(format!("--set {item}: {name} has type {ty}, but {value} does not"));
        }
        state[var.index()] = value;
    }
    let choices = match &args.choices {
        Some(text) => crate::value::split_top_level(text)
            .into_iter()
            .map(|c| c.parse::<Value>().map_err(|e| format!("--choices: {e}")))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let given = choices.len();
    let reactive = crate::ir::has_observe(&program.body);
    let limits = interp::Limits {
        max_steps: args.max_steps,
        max_observations: args.observations.or(reactive.then_some(DEFAULT_RUN_OBSERVATIONS)),
    };
    let file = crate::frontend::display_name(&args.file);
    let run = interp::run_program_observing(program, &mut state, &mut Replay::new(choices), limits)
        .map_err(|e| format!("{file}: {e}"))?;
    print_observations(program, &run.observations);
    if let RunEnd::OutOfChoices { at } = run.end {
        return Err(format!(
            "the run needs more nondeterministic choices than the {given} given with --choices \
             (the next one is at {file}:{at})"
        ));
    }
    for (decl, value) in program.vars.iter().zip(&state) {
        outln!("{} = {value}", decl.name);
    }
    if run.choices.len() < given {
        eprintln!("note: {} of the {given} choices were not used", given - run.choices.len());
    }
    match run.end {
        RunEnd::Finished | RunEnd::ObservationLimit { .. } => Ok(0),
        other => {
            eprintln!("run stopped: {other}; the state above is where it stopped");
            Ok(2)
        }
    }
}

/// Observations `forex run` stops after when the program observes and no bound is given.
const DEFAULT_RUN_OBSERVATIONS: u32 = 10;

/// `observation 1: x = 0, y = 1`, one line per observation.
fn print_observations(program: &Program, observations: &[Vec<Value>]) {
    for (i, values) in observations.iter().enumerate() {
        let shown: Vec<String> =
            program.vars.iter().zip(values).map(|(d, v)| format!("{} = {v}", d.name)).collect();
        println!("observation {}: {}", i + 1, shown.join(", "));
    }
}

fn pick_program<'m>(module: &'m Module, name: Option<&str>) -> Result<&'m Program, String> {
    let names = || module.programs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
    match name {
        Some(n) => module
            .program(n)
            .ok_or_else(|| format!("no program named {n} (the file has: {})", names())),
        None if module.programs.len() == 1 => Ok(&module.programs[0]),
        None if module.programs.is_empty() => Err("the file has no programs".into()),
        None => {
            Err(format!("the file has several programs; choose one with --program ({})", names()))
        }
    }
}

/// `forex run --replay`: re-check a counterexample and print the replayed runs.
fn replay(
    args: &RunArgs,
    module: &Module,
    path: &Path,
    front: &crate::frontend::Options,
) -> Result<i32, String> {
    if args.native && module.c.is_none() {
        return Err(NATIVE_NEEDS_C.into());
    }
    let name = crate::frontend::display_name(path);
    let text = if path == Path::new(crate::frontend::STDIN_PATH) {
        if args.file == path {
            return Err("the program file and --replay cannot both be `-` (standard input)".into());
        }
        std::io::read_to_string(std::io::stdin().lock())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| format!("cannot read {name}: {e}"))?;
    let (cex, report_tuple) =
        crate::report::read_counterexample(&text, args.tuple.as_deref(), &args.file)
            .map_err(|e| format!("{name}: {e}"))?;
    let wanted = args.tuple.as_deref().or(report_tuple.as_deref());
    let tuple = pick_tuple(module, wanted)?;
    let state = cex.initial_state(tuple)?;
    outln!("tuple {}", tuple.name);
    for (i, copy) in tuple.copies.iter().enumerate() {
        let run_info = cex.copies.iter().find(|c| c.copy == copy.name);
        let q = copy.quantifier.keyword();
        outln!("copy {} ({q} {})", copy.name, copy.program);
        let initial: Vec<String> = copy
            .vars
            .iter()
            .map(|v| format!("{} = {}", tuple.var(*v).name, state[v.index()]))
            .collect();
        outln!("  initial: {}", initial.join(", "));
        if copy.quantifier == Quantifier::Exists {
            continue;
        }
        let choices = run_info.map(|r| r.choices.clone()).unwrap_or_default();
        let shown: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
        outln!("  choices: [{}]", shown.join(", "));
        let mut s = state.clone();
        let run = interp::run_copy(tuple, i, &mut s, &mut Replay::new(choices), args.max_steps)
            .map_err(|e| format!("copy {}: {e}", copy.name))?;
        let fin: Vec<String> = copy
            .vars
            .iter()
            .map(|v| format!("{} = {}", tuple.var(*v).name, s[v.index()]))
            .collect();
        outln!("  final:   {}  ({})", fin.join(", "), run.end);
    }
    let confirmed = crate::refute::replay_counterexample(tuple, &cex, &Cancel::new());
    if args.native {
        native(args, module, tuple, &cex, front)?;
    }
    match confirmed {
        Ok(()) => {
            outln!("confirmed: the counterexample shows that {} is violated", tuple.name);
            if !cex.explanation.is_empty() {
                outln!("  {}", cex.explanation);
            }
            Ok(1)
        }
        Err(reason) => {
            outln!("not confirmed: {reason}");
            Ok(2)
        }
    }
}

const NATIVE_NEEDS_C: &str = "--native needs a C file (.c): the compiled code is the oracle";

/// `--native`: the counterexample on the compiled C code (`crate::native`).
fn native(
    args: &RunArgs,
    module: &Module,
    tuple: &Tuple,
    cex: &crate::verdict::Counterexample,
    front: &crate::frontend::Options,
) -> Result<(), String> {
    let Some(info) = &module.c else { return Err(NATIVE_NEEDS_C.into()) };
    let file = crate::frontend::display_name(&args.file);
    let source =
        std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let opts = crate::native::NativeOptions { front: front.clone(), ..Default::default() };
    let outcome = crate::native::check_counterexample(&source, &file, info, tuple, cex, &opts);
    outln!("native: {outcome}");
    Ok(())
}

fn pick_tuple<'m>(module: &'m Module, name: Option<&str>) -> Result<&'m Tuple, String> {
    let names = || module.tuples.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ");
    match name {
        Some(n) => module
            .tuples
            .iter()
            .find(|t| t.name == n)
            .ok_or_else(|| format!("no tuple named {n} (the file has: {})", names())),
        None if module.tuples.len() == 1 => Ok(&module.tuples[0]),
        None if module.tuples.is_empty() => Err("the file has no tuples".into()),
        None => Err(format!("the file has several tuples; choose one with --tuple ({})", names())),
    }
}
