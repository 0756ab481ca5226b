//! The command line's finish: JSON diagnostics with codes, vacuity warnings in every
//! report format, one spelling per option, `-` for stdin, `--color`, `forex test`'s
//! options, replay without `--tuple`, missing files, `forex explain`.

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

fn forex() -> Command {
    let mut c = Command::cargo_bin("forex").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn stderr_of(args: &[&str]) -> String {
    let out = forex().args(args).output().unwrap();
    String::from_utf8(out.stderr).unwrap()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn json_diagnostics_carry_severity_code_offsets_and_ranges() {
    let lines =
        json_lines(&stderr_of(&["check", "--diagnostics", "json", "tests/inputs/bad_types.fe"]));
    let z = lines.iter().find(|d| d["message"] == "unknown variable `z`").unwrap();
    assert_eq!(z["severity"], "error");
    assert_eq!(z["code"], "E0200");
    assert_eq!((z["start"]["line"].as_u64(), z["start"]["column"].as_u64()), (Some(8), Some(3)));
    assert_eq!((z["end"]["line"].as_u64(), z["end"]["column"].as_u64()), (Some(8), Some(4)));
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/bad_types.fe"),
    )
    .unwrap();
    let (a, b) = (z["start"]["offset"].as_u64().unwrap(), z["end"]["offset"].as_u64().unwrap());
    assert_eq!(&source[a as usize..b as usize], "z");
    // A syntax error has the syntax code.
    let out = forex()
        .args(["check", "--diagnostics", "json", "-"])
        .write_stdin("program p { int x; x = ; }")
        .output()
        .unwrap();
    let d = &json_lines(&String::from_utf8(out.stderr).unwrap())[0];
    assert_eq!(d["code"], "E0100");
    assert_eq!(d["file"], "<stdin>");
}

#[test]
fn warnings_are_json_in_json_mode_and_plain_otherwise() {
    let args = ["prove", "--engine", "refute", "--tuple", "nothing*", "examples/ni.fe"];
    let json = stderr_of(&[&args[..], &["--diagnostics", "json"]].concat());
    let lines = json_lines(&json);
    assert_eq!(lines[0]["severity"], "warning");
    assert_eq!(lines[0]["code"], "W0002");
    assert_eq!(lines[0]["message"], "--tuple nothing* matches no tuple");
    assert_eq!(lines[1]["severity"], "error");
    assert_eq!(lines[1]["code"], "E0005");
    assert_eq!(lines[1]["message"], "no tuple to prove in the given paths");
    let plain = stderr_of(&args);
    assert!(plain.contains("warning: --tuple nothing* matches no tuple"), "{plain}");
    assert!(plain.contains("error: no tuple to prove in the given paths"), "{plain}");
}

#[test]
fn a_missing_file_is_named_with_the_os_reason_and_no_position() {
    let short = stderr_of(&["check", "--diagnostics", "short", "tests/inputs/no_such.fe"]);
    assert_eq!(
        short,
        "tests/inputs/no_such.fe: error: cannot read tests/inputs/no_such.fe: No such file or \
         directory\n"
    );
    let json = json_lines(&stderr_of(&["prove", "--diagnostics", "json", "no_such.fe"]));
    assert_eq!(json[0]["code"], "E0001");
    assert!(json[0]["line"].is_null() && json[0]["start"].is_null());
    let fancy = stderr_of(&["run", "--diagnostics", "fancy", "no_such.fe"]);
    assert!(fancy.contains("cannot read no_such.fe: No such file or directory"), "{fancy}");
    assert!(!fancy.contains("1:1"), "{fancy}");
}

#[test]
fn the_refuters_exhaustive_proofs_carry_the_same_vacuity_warnings() {
    // The refuter proves loop-free tuples by exhaustive search; a vacuous one must warn
    // as the prover's proof does (the never-ending loop is out of its reach: unknown).
    let file = "tests/inputs/vacuous.fe";
    let out = forex()
        .args(["prove", "--engine", "refute", "--timeout", "5", "--format", "json", file])
        .args(["--tuple", "pre_false", "--tuple", "dead_assume", "--tuple", "real"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got: Vec<(String, String, Vec<String>)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let codes = r["warnings"].as_array().unwrap();
            let codes = codes.iter().map(|w| w["code"].as_str().unwrap().to_string()).collect();
            (r["tuple"].as_str().unwrap().into(), r["verdict"].as_str().unwrap().into(), codes)
        })
        .collect();
    let row = |t: &str, c: &[&str]| {
        (t.to_string(), "verified".to_string(), c.iter().map(|s| s.to_string()).collect())
    };
    assert_eq!(
        got,
        vec![row("pre_false", &["W0100"]), row("dead_assume", &["W0101"]), row("real", &[])]
    );
}

#[test]
fn vacuous_proofs_stay_verified_with_a_warning_in_every_format() {
    let file = "tests/inputs/vacuous.fe";
    let out =
        forex().args(["prove", "--engine", "prove", "--format", "json", file]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "vacuous proofs are still verified");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<(String, Vec<String>)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["verdict"], "verified", "{r}");
            let codes = r["warnings"].as_array().unwrap();
            let codes = codes.iter().map(|w| w["code"].as_str().unwrap().to_string()).collect();
            (r["tuple"].as_str().unwrap().to_string(), codes)
        })
        .collect();
    let expect = |t: &str, c: &[&str]| (t.to_string(), c.iter().map(|s| s.to_string()).collect());
    assert_eq!(
        codes,
        vec![
            expect("pre_false", &["W0100"]),
            expect("dead_assume", &["W0101"]),
            expect("never_ends", &["W0101"]),
            expect("real", &[]),
        ]
    );
    let run = |format: &str| {
        let out = forex()
            .args(["prove", "--engine", "prove", "--tuple", "pre_false", "--format", format, file])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let human = run("human");
    assert!(human.contains("warning[W0100]: pre_false (tests/inputs/vacuous.fe:24)"), "{human}");
    assert!(human.contains("verified (vacuous)"), "{human}");
    assert!(run("junit").contains("<system-out>warning[W0100]: `pre` is unsatisfiable"));
    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(
        (result["ruleId"].as_str(), result["level"].as_str()),
        (Some("vacuous"), Some("warning"))
    );
    let github = run("github");
    assert!(github.starts_with("::warning file=tests/inputs/vacuous.fe,line=24,"), "{github}");
}

#[test]
fn input_and_format_have_one_meaning_with_the_old_spellings_hidden() {
    for flag in ["--input", "--format"] {
        forex()
            .args(["check", flag, "forex", "tests/inputs/forex_small.txt"])
            .assert()
            .code(0)
            .stdout(contains("ok (2 programs, 1 tuple)"));
        forex()
            .args(["run", flag, "fe", "examples/loop_leak.fe", "--set", "h=1"])
            .assert()
            .code(0)
            .stdout(contains("o = 1"));
    }
    for command in ["check", "run"] {
        let help = forex().args([command, "--help"]).output().unwrap().stdout;
        let help = String::from_utf8(help).unwrap();
        assert!(help.contains("--input <") && !help.contains("--format <"), "{help}");
    }
    // `prove` and `test`: --format is the report.
    forex()
        .args(["test", "--max-runs", "50", "--format", "junit", "examples/ni_leak.fe"])
        .assert()
        .code(1)
        .stdout(contains("<testsuites"));
}

#[test]
fn a_dash_reads_standard_input_in_every_command() {
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ni_leak.fe"),
    )
    .unwrap();
    forex()
        .args(["check", "-"])
        .write_stdin(source.clone())
        .assert()
        .code(0)
        .stdout("<stdin>: ok (1 program, 1 tuple)\n");
    forex()
        .args(["run", "-", "--set", "h=1"])
        .write_stdin(source.clone())
        .assert()
        .code(0)
        .stdout(contains("o = 1"));
    let out = forex()
        .args(["prove", "--engine", "refute", "--format", "json", "-"])
        .write_stdin(source.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["results"][0]["file"], "<stdin>");
    forex()
        .args(["test", "--max-runs", "50", "-"])
        .write_stdin(source)
        .assert()
        .code(1)
        .stdout(contains("<stdin>"));
    forex()
        .args(["check", "--diagnostics", "short", "-"])
        .write_stdin("program p { y = 1; }")
        .assert()
        .code(3)
        .stderr(contains("<stdin>:1:13: error: unknown variable `y`"));
}

#[test]
fn color_is_chosen_by_the_flag_and_never_by_default_off_a_terminal() {
    let args = ["check", "--diagnostics", "short", "tests/inputs/bad_types.fe"];
    let esc = "\u{1b}[";
    assert!(!stderr_of(&args).contains(esc), "not a terminal: no colour");
    assert!(stderr_of(&[&["--color", "always"][..], &args].concat()).contains(esc));
    let out = forex().args(["--color", "never"]).args(args).env("NO_COLOR", "").output();
    assert!(!String::from_utf8(out.unwrap().stderr).unwrap().contains(esc));
    // After the command too (a global option), and on every command.
    assert!(stderr_of(&[&args[..], &["--color", "always"]].concat()).contains(esc));
    for command in ["check", "run", "prove", "test", "lsp", "report", "explain"] {
        let help = forex().args([command, "--help"]).output().unwrap().stdout;
        assert!(String::from_utf8(help).unwrap().contains("--color"), "{command}");
    }
}

#[test]
fn test_selects_tuples_writes_junit_to_a_file_and_keeps_a_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("t.xml");
    forex()
        .args(["test", "--max-runs", "50", "--tuple", "leak*", "--timeout", "20", "--quiet"])
        .args(["--format", "junit", "--output", xml.to_str().unwrap()])
        .args(["examples/ni_leak.fe", "examples/ni.fe"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("");
    let text = std::fs::read_to_string(&xml).unwrap();
    assert!(text.contains("name=\"leak_ni\"") && !text.contains("name=\"ni\""), "{text}");
    // A zero time limit ends each tuple at once, as unknown.
    let out = forex()
        .args(["test", "--timeout", "0", "--format", "json", "examples/ni.fe"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["results"][0]["verdict"], "unknown");
    assert_eq!(out.status.code(), Some(2));
    forex().args(["test", "--timeout", "-1", "examples/ni.fe"]).assert().code(3);
}

#[test]
fn replay_finds_the_files_counterexample_without_tuple_and_lists_several() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let report = report.to_str().unwrap();
    forex()
        .args(["prove", "--engine", "refute", "--format", "json", "--output", report])
        .args(["examples/gni_leak.fe", "examples/ni_leak.fe"])
        .assert()
        .code(1);
    forex()
        .args(["run", "examples/ni_leak.fe", "--replay", report])
        .assert()
        .code(1)
        .stdout(contains("confirmed: the counterexample shows that leak_ni is violated"));
    // Two violated tuples of one file: the choice is the user's.
    let two = dir.path().join("two.fe");
    let mut source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ni_leak.fe"),
    )
    .unwrap();
    source.push_str("tuple again = ni(leak, low: [l], high: [h], out: [o]);\n");
    std::fs::write(&two, source).unwrap();
    let two = two.to_str().unwrap();
    forex()
        .args(["prove", "--engine", "refute", "--format", "json", "--output", report, two])
        .assert()
        .code(1);
    forex()
        .args(["run", two, "--replay", report])
        .assert()
        .code(3)
        .stderr(contains("counterexamples of 2 tuples (leak_ni, again); choose one with --tuple"));
    forex().args(["run", two, "--replay", report, "--tuple", "again"]).assert().code(1);
    // The report can come from standard input.
    forex()
        .args(["run", two, "--replay", "-", "--tuple", "again"])
        .write_stdin(std::fs::read_to_string(report).unwrap())
        .assert()
        .code(1);
}

#[test]
fn explain_knows_every_code_and_rejects_others() {
    forex()
        .args(["explain", "e0001"])
        .assert()
        .code(0)
        .stdout(contains("E0001: The file could not be read"));
    forex().arg("explain").assert().code(0).stdout(contains("W0101"));
    forex().args(["explain", "E4242"]).assert().code(3).stderr(contains("unknown code E4242"));
}

#[test]
fn the_readme_documents_every_flag_of_every_command() {
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let commands: [&[&str]; 7] =
        [&["check"], &["run"], &["prove"], &["test"], &["lsp"], &["explain"], &["report", "merge"]];
    for command in commands {
        let help = forex().args(command).arg("--help").output().unwrap().stdout;
        let help = String::from_utf8(help).unwrap();
        let flags: Vec<&str> = help
            .lines()
            .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
            .map(|w| w.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '-'))
            .filter(|f| f.len() > 2)
            .collect();
        assert!(flags.contains(&"--help"), "{help}");
        for flag in flags {
            assert!(
                readme.contains(&format!("`{flag}")),
                "{command:?} {flag} is not in the README"
            );
        }
    }
}

/// `forex test ARGS` under a pseudo-terminal (util-linux `script`), stdout and stderr
/// together; `None` where `script` is not installed.
fn test_on_a_terminal(args: &str) -> Option<String> {
    let bin = assert_cmd::cargo::cargo_bin("forex");
    let line = format!("{} test --budget-ms 300 {args} examples/ni.fe", bin.display());
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    out.status.code().is_some().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn test_draws_a_progress_bar_on_a_terminal_only_when_asked_for_plain_output() {
    let Some(plain) = test_on_a_terminal("") else {
        eprintln!("skipped: `script` is not installed");
        return;
    };
    let bar = |s: &str| s.contains("] 0/1") || s.contains("] 1/1");
    assert!(bar(&plain), "{plain}");
    for quiet in ["--quiet", "--format json", "--diagnostics json"] {
        let text = test_on_a_terminal(quiet).unwrap();
        assert!(!bar(&text), "{quiet}: {text}");
    }
}

#[test]
fn clap_errors_follow_the_color_option() {
    let esc = "\u{1b}[";
    let bad = ["check", "--no-such-flag", "x.fe"];
    let always = stderr_of(&[&["--color", "always"][..], &bad].concat());
    assert!(always.contains(esc), "{always}");
    let never = stderr_of(&[&["--color=never"][..], &bad].concat());
    assert!(!never.contains(esc) && never.contains("--no-such-flag"), "{never}");
}
