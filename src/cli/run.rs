//! `forex run`: run one program concretely and print its final state.

use crate::cancel::Cancel;
use crate::diag::DiagStyle;
use crate::frontend::InputFormat;
use crate::interp::{self, Replay, RunEnd};
use crate::ir::{Module, Program, Quantifier, Tuple};
use crate::value::Value;
use crate::verdict::Counterexample;
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
///
/// Example: forex run examples/gni.fe --program leak --set h=1 --set l=2 --choices 7
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The file holding the program.
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
    /// Replay a counterexample saved as JSON by `forex prove --format json`.
    #[arg(long, value_name = "CEX.json")]
    pub replay: Option<PathBuf>,
    /// The tuple the counterexample belongs to (with --replay, when the file has several).
    #[arg(long)]
    pub tuple: Option<String>,
    /// Input language.
    #[arg(long, visible_alias = "input", value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
}

pub fn main(args: RunArgs) -> i32 {
    let module = match crate::frontend::load_file(&args.file, args.format) {
        Ok(m) => m,
        Err(diags) => {
            eprint!("{}", diags.render(DiagStyle::Fancy));
            return 3;
        }
    };
    let result = match &args.replay {
        Some(path) => replay(&args, &module, path),
        None => run(&args, &module),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
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
        let value = parse_value(text, Some(ty)).map_err(|e| format!("--set {item}: {e}"))?;
        if !value.has_type(ty) {
            return Err(format!("--set {item}: {name} has type {ty}, but {value} does not"));
        }
        state[var.index()] = value;
    }
    let choices = match &args.choices {
        Some(text) => split_top_level(text)
            .into_iter()
            .map(|c| parse_value(c, None).map_err(|e| format!("--choices: {e}")))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let given = choices.len();
    let reactive = crate::ir::has_observe(&program.body);
    let limits = interp::Limits {
        max_steps: args.max_steps,
        max_observations: args.observations.or(reactive.then_some(DEFAULT_RUN_OBSERVATIONS)),
    };
    let run = interp::run_program_observing(program, &mut state, &mut Replay::new(choices), limits)
        .map_err(|e| format!("{}: {e}", args.file.display()))?;
    print_observations(program, &run.observations);
    if let RunEnd::OutOfChoices { at } = run.end {
        return Err(format!(
            "the run needs more nondeterministic choices than the {given} given with --choices \
             (the next one is at {}:{at})",
            args.file.display()
        ));
    }
    for (decl, value) in program.vars.iter().zip(&state) {
        println!("{} = {value}", decl.name);
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

/// Splits at commas that are not inside `[...]` (array values contain commas).
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// Parses a value written as in `.fe` (`-3`, `true`, `#b01`, `#xff`) or an array
/// `[1: 5, _: 0]`. With the expected type, an array may leave out `_` (the type's zero).
pub fn parse_value(text: &str, ty: Option<&crate::ir::Type>) -> Result<Value, String> {
    use crate::ir::Type;
    let t = text.trim();
    let bad = |why: &str| format!("bad value '{t}': {why}");
    if t == "true" || t == "false" {
        return Ok(Value::bool(t == "true"));
    }
    if let Some(bits) = t.strip_prefix("#b") {
        let width = bits.len() as u32;
        if width == 0 || width > crate::ir::MAX_BV_WIDTH {
            return Err(bad("a bit-vector has 1 to 128 bits"));
        }
        let v = u128::from_str_radix(bits, 2).map_err(|_| bad("expected binary digits"))?;
        return Ok(Value::bv(v, width));
    }
    if let Some(hex) = t.strip_prefix("#x") {
        let width = 4 * hex.len() as u32;
        if width == 0 || width > crate::ir::MAX_BV_WIDTH {
            return Err(bad("a bit-vector has 1 to 32 hex digits"));
        }
        let v = u128::from_str_radix(hex, 16).map_err(|_| bad("expected hex digits"))?;
        return Ok(Value::bv(v, width));
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let elem = match ty {
            Some(Type::Array(e)) => Some(&**e),
            Some(other) => return Err(bad(&format!("expected a value of type {other}"))),
            None => None,
        };
        let mut default = elem.map(Value::default_of);
        let mut entries = Vec::new();
        for item in split_top_level(inner) {
            let (k, v) =
                item.split_once(':').ok_or_else(|| bad("array entries are INDEX: VALUE"))?;
            let v = parse_value(v, elem)?;
            if k.trim() == "_" {
                default = Some(v);
            } else {
                let k = k.trim().parse().map_err(|_| bad("array indices are integers"))?;
                entries.push((k, v));
            }
        }
        let default = default.ok_or_else(|| bad("give the other elements' value as `_: v`"))?;
        let mut arr = Value::Array { default: Box::new(default), entries: Default::default() };
        for (k, v) in entries {
            arr.store(k, v);
        }
        return Ok(arr);
    }
    t.parse::<num_bigint::BigInt>().map(Value::int).map_err(|_| {
        bad("expected an integer, true, false, #b… or #x… bit-vector, or [i: v, _: v] array")
    })
}

/// `forex run --replay`: re-check a counterexample and print the replayed runs.
fn replay(args: &RunArgs, module: &Module, path: &Path) -> Result<i32, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (cex, report_tuple) = load_counterexample(&text, args.tuple.as_deref())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let wanted = args.tuple.as_deref().or(report_tuple.as_deref());
    let tuple = pick_tuple(module, wanted)?;
    let state = initial_state(tuple, &cex)?;
    println!("tuple {}", tuple.name);
    for (i, copy) in tuple.copies.iter().enumerate() {
        let run_info = cex.copies.iter().find(|c| c.copy == copy.name);
        let q = if copy.quantifier == Quantifier::Forall { "forall" } else { "exists" };
        println!("copy {} ({q} {})", copy.name, copy.program);
        let initial: Vec<String> = copy
            .vars
            .iter()
            .map(|v| format!("{} = {}", tuple.var(*v).name, state[v.index()]))
            .collect();
        println!("  initial: {}", initial.join(", "));
        if copy.quantifier == Quantifier::Exists {
            continue;
        }
        let choices = run_info.map(|r| r.choices.clone()).unwrap_or_default();
        let shown: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
        println!("  choices: [{}]", shown.join(", "));
        let mut s = state.clone();
        let run = interp::run_copy(tuple, i, &mut s, &mut Replay::new(choices), args.max_steps)
            .map_err(|e| format!("copy {}: {e}", copy.name))?;
        let fin: Vec<String> = copy
            .vars
            .iter()
            .map(|v| format!("{} = {}", tuple.var(*v).name, s[v.index()]))
            .collect();
        println!("  final:   {}  ({})", fin.join(", "), run.end);
    }
    match crate::refute::replay_counterexample(tuple, &cex, &Cancel::new()) {
        Ok(()) => {
            println!("confirmed: the counterexample shows that {} is violated", tuple.name);
            if !cex.explanation.is_empty() {
                println!("  {}", cex.explanation);
            }
            Ok(1)
        }
        Err(reason) => {
            println!("not confirmed: {reason}");
            Ok(2)
        }
    }
}

/// Reads a bare counterexample, or a `forex prove --format json` report from which the
/// first violated result (of tuple `tuple`, when given) is taken. Also returns the
/// report's tuple name.
fn load_counterexample(
    text: &str,
    tuple: Option<&str>,
) -> Result<(Counterexample, Option<String>), String> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if json.get("copies").is_some() {
        let cex = serde_json::from_value(json).map_err(|e| format!("bad counterexample: {e}"))?;
        return Ok((cex, None));
    }
    let results = json
        .get("results")
        .and_then(|r| r.as_array())
        .ok_or("expected a counterexample (with \"copies\") or a report (with \"results\")")?;
    let hit = results.iter().find(|r| {
        r.get("counterexample").is_some_and(|c| !c.is_null())
            && tuple.is_none_or(|t| r.get("tuple").and_then(|n| n.as_str()) == Some(t))
    });
    let Some(hit) = hit else {
        return Err(match tuple {
            Some(t) => format!("the report has no counterexample for tuple {t}"),
            None => "the report has no violated result with a counterexample".into(),
        });
    };
    let cex = serde_json::from_value(hit["counterexample"].clone())
        .map_err(|e| format!("bad counterexample: {e}"))?;
    Ok((cex, hit.get("tuple").and_then(|n| n.as_str()).map(String::from)))
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

/// The tuple state holding every copy's initial values from the counterexample.
fn initial_state(tuple: &Tuple, cex: &Counterexample) -> Result<Vec<Value>, String> {
    let mut state: Vec<Value> = tuple.vars.iter().map(|v| Value::default_of(&v.ty)).collect();
    for copy in &cex.copies {
        let index = tuple
            .copies
            .iter()
            .position(|c| c.name == copy.copy)
            .ok_or_else(|| format!("tuple {} has no copy {}", tuple.name, copy.copy))?;
        for (name, value) in &copy.initial {
            let var = tuple
                .copy_var(index, name)
                .ok_or_else(|| format!("copy {} has no variable {name}", copy.copy))?;
            let ty = &tuple.var(var).ty;
            if !value.has_type(ty) {
                return Err(format!("{}.{name} has type {ty}, but {value} does not", copy.copy));
            }
            state[var.index()] = value.clone();
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Type;

    #[test]
    fn parses_values() {
        assert_eq!(parse_value(" -12 ", None), Ok(Value::int(-12)));
        assert_eq!(parse_value("true", None), Ok(Value::bool(true)));
        assert_eq!(parse_value("#b01", None), Ok(Value::bv(1, 2)));
        assert_eq!(parse_value("#xff", None), Ok(Value::bv(255, 8)));
        let arr = parse_value("[1: 5, -2: 7, _: 0]", None).unwrap();
        assert_eq!(arr.select(&1.into()), Some(Value::int(5)));
        assert_eq!(arr.select(&(-2).into()), Some(Value::int(7)));
        assert_eq!(arr.select(&9.into()), Some(Value::int(0)));
        // The printed form parses back.
        assert_eq!(parse_value(&arr.to_string(), None), Ok(arr));
        let typed = parse_value("[3: true]", Some(&Type::Array(Box::new(Type::Bool)))).unwrap();
        assert_eq!(typed.select(&0.into()), Some(Value::bool(false)));
        assert!(parse_value("[3: 1]", None).unwrap_err().contains("_: v"));
        assert!(parse_value("#b012", None).unwrap_err().contains("binary digits"));
        assert!(parse_value("abc", None).unwrap_err().contains("bad value 'abc'"));
    }

    #[test]
    fn splits_choices_outside_arrays() {
        assert_eq!(split_top_level("1, [1: 2, _: 0],true"), vec!["1", " [1: 2, _: 0]", "true"]);
        assert!(split_top_level("").is_empty());
    }

    #[test]
    fn loads_bare_counterexample_and_reports() {
        let cex = r#"{"copies":[{"copy":"a","program":"p","quantifier":"forall",
            "initial":{"x":{"type":"int","value":"3"}},"choices":[]}],"explanation":"e"}"#;
        let (c, t) = load_counterexample(cex, None).unwrap();
        assert_eq!(c.copies[0].initial["x"], Value::int(3));
        assert_eq!(t, None);
        let report = format!(
            r#"{{"results":[{{"tuple":"ok","verdict":"verified","counterexample":null}},
                {{"tuple":"bad","verdict":"violated","counterexample":{cex}}}],"summary":{{}}}}"#
        );
        let (_, t) = load_counterexample(&report, None).unwrap();
        assert_eq!(t.as_deref(), Some("bad"));
        assert!(load_counterexample(&report, Some("ok")).unwrap_err().contains("tuple ok"));
        assert!(load_counterexample("[]", None).unwrap_err().contains("expected a counterexample"));
    }
}
