//! `forex certify DIR`: re-checks certificates with a second SMT-LIB solver (cvc5 by
//! default), reading only the certificate: its JSON's digest and script hashes first
//! (a tampered certificate fails to check), then every script, which must come back
//! `unsat`. A `sat` answer is a soundness alarm (`REFUTED`), printed with the model.

use super::{digest_of, sha256_hex, CertificateData, DATA_FILE, FORMAT};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// The second solver: a program and its arguments; the script's path goes last.
#[derive(Clone, Debug)]
pub struct SolverCmd {
    pub program: String,
    pub args: Vec<String>,
}

impl SolverCmd {
    /// cvc5, the default second solver.
    pub fn cvc5() -> SolverCmd {
        SolverCmd { program: "cvc5".into(), args: vec!["--lang=smt2".into()] }
    }

    /// `"CMD ARGS"`, split at white space.
    pub fn parse(s: &str) -> Result<SolverCmd, String> {
        let mut words = s.split_whitespace().map(str::to_string);
        let program = words.next().ok_or("--solver: empty command")?;
        Ok(SolverCmd { program, args: words.collect() })
    }

    /// The command as people read it.
    pub fn display(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether the program can be started at all.
    pub fn available(&self) -> bool {
        Command::new(&self.program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    }
}

/// The second solver's answer on one script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Unsat,
    /// A model where the first solver said `unsat`: the soundness alarm.
    Sat {
        model: String,
    },
    /// Not decided, and why (unknown, timeout, a parse error, the solver failed).
    Undecided(String),
}

/// One obligation's re-check.
#[derive(Clone, Debug)]
pub struct ObligationCheck {
    pub script: String,
    pub step: String,
    pub answer: Answer,
    pub time: Duration,
}

/// How a tuple's certificate fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every obligation `unsat`, none missing.
    Certified,
    /// Some obligations undecided or missing (each with why).
    Partly(Vec<String>),
    /// A second solver found a model for some obligation.
    Refuted,
    /// The certificate does not check: tampered, incomplete or unreadable.
    Broken(String),
}

/// One tuple's certificate, checked.
#[derive(Clone, Debug)]
pub struct TupleCheck {
    pub folder: PathBuf,
    pub file: String,
    pub tuple: String,
    pub verdict: String,
    pub status: Status,
    pub obligations: Vec<ObligationCheck>,
    pub time: Duration,
}

impl TupleCheck {
    /// Obligations the second solver answered `unsat`.
    pub fn checked(&self) -> usize {
        self.obligations.iter().filter(|o| o.answer == Answer::Unsat).count()
    }
    pub fn total(&self) -> usize {
        self.obligations.len()
    }
    pub fn status_name(&self) -> &'static str {
        match self.status {
            Status::Certified => "certified",
            Status::Partly(_) => "partly certified",
            Status::Refuted => "REFUTED",
            Status::Broken(_) => "does not check",
        }
    }
}

/// Exit codes of `forex certify`.
pub const EXIT_CERTIFIED: i32 = 0;
pub const EXIT_PARTLY: i32 = 2;
pub const EXIT_BROKEN: i32 = 3;
pub const EXIT_REFUTED: i32 = 4;

/// The worst exit code over `checks`: a refutation outranks everything.
pub fn exit_code(checks: &[TupleCheck]) -> i32 {
    checks
        .iter()
        .map(|c| match c.status {
            Status::Certified => EXIT_CERTIFIED,
            Status::Partly(_) => EXIT_PARTLY,
            Status::Broken(_) => EXIT_BROKEN,
            Status::Refuted => EXIT_REFUTED,
        })
        .max()
        .unwrap_or(EXIT_CERTIFIED)
}

/// The certificate folders under `dir`: `dir` itself when it holds `certificate.json`,
/// else its subfolders that do, in name order.
pub fn folders(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if dir.join(DATA_FILE).is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(DATA_FILE).is_file())
        .collect();
    out.sort();
    if out.is_empty() {
        return Err(format!("{}: no certificate ({DATA_FILE}) found", dir.display()));
    }
    Ok(out)
}

/// Checks every certificate under `dir`.
pub fn check_dir(
    dir: &Path,
    solver: &SolverCmd,
    limit: Duration,
) -> Result<Vec<TupleCheck>, String> {
    Ok(folders(dir)?.iter().map(|f| check_folder(f, solver, limit)).collect())
}

/// Checks one tuple's certificate folder.
pub fn check_folder(folder: &Path, solver: &SolverCmd, limit: Duration) -> TupleCheck {
    let start = Instant::now();
    let mut check = TupleCheck {
        folder: folder.to_path_buf(),
        file: String::new(),
        tuple: folder.display().to_string(),
        verdict: String::new(),
        status: Status::Certified,
        obligations: Vec::new(),
        time: Duration::ZERO,
    };
    let data = match read_data(folder) {
        Ok(d) => d,
        Err(e) => {
            check.status = Status::Broken(e);
            return check;
        }
    };
    check.file = data.file.clone();
    check.tuple = data.tuple.clone();
    check.verdict = data.verdict.clone();
    // Every script first, so a tampered certificate is not half checked.
    let mut scripts = Vec::new();
    for o in &data.obligations {
        match read_script(folder, o) {
            Ok(p) => scripts.push(p),
            Err(e) => {
                check.status = Status::Broken(e);
                return check;
            }
        }
    }
    let mut undecided: Vec<String> = data.missing.clone();
    let mut refuted = false;
    for (o, path) in data.obligations.iter().zip(&scripts) {
        let t0 = Instant::now();
        let answer = run_solver(solver, path, limit);
        match &answer {
            Answer::Unsat => {}
            Answer::Sat { .. } => refuted = true,
            Answer::Undecided(why) => undecided.push(format!("{} ({}): {why}", o.script, o.step)),
        }
        check.obligations.push(ObligationCheck {
            script: o.script.clone(),
            step: o.step.clone(),
            answer,
            time: t0.elapsed(),
        });
    }
    if data.obligations.is_empty() && undecided.is_empty() {
        undecided.push("the certificate has no obligation".into());
    }
    check.status = if refuted {
        Status::Refuted
    } else if undecided.is_empty() {
        Status::Certified
    } else {
        Status::Partly(undecided)
    };
    check.time = start.elapsed();
    check
}

fn read_data(folder: &Path) -> Result<CertificateData, String> {
    let path = folder.join(DATA_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let data: CertificateData = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a certificate: {e}", path.display()))?;
    if data.format != FORMAT {
        return Err(format!("{}: unknown format `{}`", path.display(), data.format));
    }
    if data.verdict != "verified" && data.verdict != "violated" {
        return Err(format!("{}: unknown verdict `{}`", path.display(), data.verdict));
    }
    if digest_of(&data) != data.digest {
        return Err(format!(
            "{}: the digest does not match the certificate's data (it was changed after it \
             was written)",
            path.display()
        ));
    }
    Ok(data)
}

fn read_script(folder: &Path, o: &super::ObligationEntry) -> Result<PathBuf, String> {
    if o.script.contains('/') || o.script.contains('\\') || o.script.starts_with('.') {
        return Err(format!("{}: a script outside the certificate's folder", o.script));
    }
    let path = folder.join(&o.script);
    let text = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if sha256_hex(&text) != o.sha256 {
        return Err(format!(
            "{}: the script's SHA-256 does not match the certificate (it was changed after it \
             was written)",
            path.display()
        ));
    }
    let text = String::from_utf8_lossy(&text);
    if o.expect != "unsat" {
        return Err(format!("{}: expects `{}`, not `unsat`", path.display(), o.expect));
    }
    for line in &o.strategy {
        if !text.lines().any(|l| l == line) {
            return Err(format!(
                "{}: the strategy line `{line}` of the certificate is not in the script",
                path.display()
            ));
        }
    }
    Ok(path)
}

/// Runs the solver on `script` within `limit`.
pub fn run_solver(solver: &SolverCmd, script: &Path, limit: Duration) -> Answer {
    let out = match run(solver, script, limit) {
        Ok(out) => out,
        Err(e) => return Answer::Undecided(e),
    };
    let first = out.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    match first {
        "unsat" => Answer::Unsat,
        "sat" => Answer::Sat { model: model(solver, script, limit) },
        "unknown" => Answer::Undecided(format!("{} answered unknown", solver.program)),
        "timeout" => Answer::Undecided(format!("{} timed out", solver.program)),
        _ => {
            let text: String = out.trim().chars().take(300).collect();
            Answer::Undecided(format!("{} gave no answer: {text}", solver.program))
        }
    }
}

/// The model of a `sat` script, asked for by a second run with models on.
fn model(solver: &SolverCmd, script: &Path, limit: Duration) -> String {
    let Ok(text) = std::fs::read_to_string(script) else { return String::new() };
    let with_model = format!("(set-option :produce-models true)\n{text}(get-model)\n");
    let tmp = std::env::temp_dir().join(format!(
        "forex-certify-{}-{}.smt2",
        std::process::id(),
        sha256_hex(text.as_bytes())
    ));
    if std::fs::write(&tmp, with_model).is_err() {
        return String::new();
    }
    let out = run(solver, &tmp, limit).unwrap_or_default();
    let _ = std::fs::remove_file(&tmp);
    out.lines().skip_while(|l| l.trim() == "sat").collect::<Vec<_>>().join("\n")
}

/// The solver's standard output (and standard error when it failed).
fn run(solver: &SolverCmd, script: &Path, limit: Duration) -> Result<String, String> {
    let mut child = Command::new(&solver.program)
        .args(&solver.args)
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", solver.program))?;
    // Read while waiting, so a long output cannot block the solver on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = match child.wait_timeout(limit).map_err(|e| e.to_string())? {
        Some(s) => s,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            return Ok("timeout".into());
        }
    };
    let out = reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if out.trim().is_empty() && !status.success() {
        return Err(format!("{} failed ({status}): {}", solver.program, err.trim()));
    }
    Ok(out)
}

/// The per-tuple table `forex certify` prints.
pub fn render(checks: &[TupleCheck], solver: &SolverCmd) -> String {
    let mut s = String::new();
    for c in checks {
        s.push_str(&format!(
            "{}: {} ({}): {} — {} of {} obligations unsat by {} ({:.0} ms)\n",
            c.file,
            c.tuple,
            c.verdict,
            c.status_name(),
            c.checked(),
            c.total(),
            solver.program,
            c.time.as_secs_f64() * 1000.0
        ));
        match &c.status {
            Status::Partly(why) => {
                for w in why {
                    s.push_str(&format!("  not certified: {w}\n"));
                }
            }
            Status::Broken(why) => s.push_str(&format!("  {why}\n")),
            Status::Refuted => {
                for o in &c.obligations {
                    if let Answer::Sat { model } = &o.answer {
                        s.push_str(&format!(
                            "  SOUNDNESS ALARM: {} ({}) is satisfiable for {}, which Z3 \
                             answered unsat; model:\n",
                            o.script, o.step, solver.program
                        ));
                        for l in model.lines() {
                            s.push_str(&format!("    {l}\n"));
                        }
                    }
                }
            }
            Status::Certified => {}
        }
    }
    let count = |f: fn(&Status) -> bool| checks.iter().filter(|c| f(&c.status)).count();
    s.push_str(&format!(
        "{} certificates: {} certified, {} partly certified, {} REFUTED, {} do not check\n",
        checks.len(),
        count(|s| *s == Status::Certified),
        count(|s| matches!(s, Status::Partly(_))),
        count(|s| *s == Status::Refuted),
        count(|s| matches!(s, Status::Broken(_))),
    ));
    s
}
