//! Compiling and running a harness: the system C compiler in a fresh temporary folder, the
//! binary under a time limit (killed after it), its output in a file (no pipe to fill up).

use crate::ir::c::IntModel;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// How a harness run went, before its output is read.
#[derive(Debug)]
pub enum Ran {
    /// The binary exited (code, or the signal that ended it) and printed `stdout`.
    Exited {
        code: Option<i32>,
        signal: Option<i32>,
        stdout: String,
    },
    NoCompiler {
        tried: Vec<String>,
    },
    CompileError {
        compiler: String,
        message: String,
    },
    TimeLimit,
    /// The temporary folder or a process could not be made.
    Failed(String),
}

pub use crate::cc::candidates;

/// The first compiler of `candidates` that runs (`CC --version`).
pub fn find_compiler(explicit: Option<&str>) -> Result<String, Vec<String>> {
    let tried = candidates(explicit);
    for cc in &tried {
        let ok = Command::new(cc)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Ok(cc.clone());
        }
    }
    Err(tried)
}

/// The compiler's flags for the integer model: the machine model is `gcc -fwrapv`'s C;
/// in the math model a signed overflow traps (`-ftrapv`), since an unbounded integer has
/// no native counterpart past its C type. Floats as LANGUAGE.md reads them:
/// `-ffp-contract=off` (no fused multiply-add the source does not write; x86-64 computes
/// `float` and `double` in SSE registers of their own width, `FLT_EVAL_METHOD` 0), and
/// `-frounding-math`, which keeps gcc from folding float expressions at compile time by
/// rules that do not hold bit for bit: gcc 12, even at `-O0`, folds `0.0 - (double)n` to
/// `-(double)n`, which is `-0.0` for `n == 0` where IEEE subtraction gives `+0.0` (found
/// by `oracle::c_native_floats`). The run itself keeps the default rounding, to nearest.
pub fn flags(model: IntModel) -> Vec<&'static str> {
    let mut f = vec!["-std=gnu11", "-O0", "-w", "-ffp-contract=off", "-frounding-math"];
    f.push(match model {
        IntModel::Machine => "-fwrapv",
        IntModel::Math => "-ftrapv",
    });
    f
}

/// Compiles `text` with `cc` and runs it for at most `limit`. `keep`: a folder to copy
/// the harness into (for people who want to look at it).
pub fn compile_and_run(
    text: &str,
    model: IntModel,
    compiler: Option<&str>,
    limit: Duration,
    keep: Option<&Path>,
    extra: &[String],
) -> Ran {
    let cc = match find_compiler(compiler) {
        Ok(cc) => cc,
        Err(tried) => return Ran::NoCompiler { tried },
    };
    let dir = match tempfile::Builder::new().prefix("forex-native-").tempdir() {
        Ok(d) => d,
        Err(e) => return Ran::Failed(format!("cannot make a temporary folder: {e}")),
    };
    let source = dir.path().join("harness.c");
    let binary = dir.path().join("harness");
    if let Err(e) = std::fs::write(&source, text) {
        return Ran::Failed(format!("cannot write {}: {e}", source.display()));
    }
    if let Some(keep) = keep {
        let _ = std::fs::create_dir_all(keep);
        let _ = std::fs::write(keep.join("harness.c"), text);
    }
    let out = Command::new(&cc)
        .args(flags(model))
        .args(extra)
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .arg("-lm") // math.h's functions (after the source: linkers read in order)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output();
    match out {
        Err(e) => return Ran::Failed(format!("cannot run {cc}: {e}")),
        Ok(o) if !o.status.success() => {
            let message = String::from_utf8_lossy(&o.stderr).into_owned();
            return Ran::CompileError { compiler: cc, message };
        }
        Ok(_) => {}
    }
    run(&binary, dir.path(), limit)
}

fn run(binary: &PathBuf, dir: &Path, limit: Duration) -> Ran {
    let out_path = dir.join("stdout");
    let out = match std::fs::File::create(&out_path) {
        Ok(f) => f,
        Err(e) => return Ran::Failed(format!("cannot make {}: {e}", out_path.display())),
    };
    let mut child = match Command::new(binary)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return Ran::Failed(format!("cannot run the compiled harness: {e}")),
    };
    let status = match child.wait_timeout(limit) {
        Ok(Some(s)) => s,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Ran::TimeLimit;
        }
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            return Ran::Failed(format!("waiting for the harness: {e}"));
        }
    };
    use std::os::unix::process::ExitStatusExt;
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    Ran::Exited { code: status.code(), signal: status.signal(), stdout }
}
