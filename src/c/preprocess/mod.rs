//! The system C preprocessor on the user's file (LANGUAGE.md "What is read"): the text is
//! piped through `cc -E -dD` (the first of `$FOREX_CC`, `$CC`, `cc`, `gcc`, `clang` that
//! exists) with the file's folder as the quote-include path and the user's `-I`/`-D`,
//! under a time limit. Its errors (a missing header, `#error`) become diagnostics at the
//! user's line and column. `map` builds the way back from the output to the user's file,
//! and keeps the macros defined at the end (annotation formulas use the object-like ones).

mod lex;
mod map;

pub use map::{HeaderLoc, Macro, PositionMap};

use crate::c::ast::Span;
use crate::diag::Diagnostic;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// How the preprocessor is run (the front end's options for C files).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CcOptions {
    /// `-I DIR`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME` or `-D NAME=VALUE`, in order.
    pub defines: Vec<String>,
    /// How long the preprocessor may run (`None`: [`DEFAULT_LIMIT`]).
    pub time_limit: Option<Duration>,
    /// Headers read before the file (`-include`): those of standard functions it calls
    /// without declaring them (`c::implicit`).
    pub forced: Vec<&'static str>,
}

/// The preprocessor's time limit unless the options say otherwise.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(30);

/// The preprocessed file.
pub struct Preprocessed {
    /// The compiler's output (line markers and `#define` lines included: lang-c reads
    /// `#` lines as blank).
    pub text: String,
    /// Macros defined at the end of the file.
    pub macros: HashMap<String, Macro>,
    pub map: PositionMap,
}

/// Preprocesses `src`, whose `#include "…"` headers are looked for in `dir`.
pub fn preprocess(
    src: &str,
    dir: &Path,
    opts: &CcOptions,
) -> Result<Preprocessed, Vec<Diagnostic>> {
    let out = run(src, dir, opts)?;
    if !out.ok {
        return Err(errors(src, &out.stderr));
    }
    let walked = map::walk(src, &out.stdout);
    Ok(Preprocessed { text: out.stdout, macros: walked.macros, map: walked.map })
}

struct Output {
    ok: bool,
    stdout: String,
    stderr: String,
}

fn whole(message: String, hint: &str) -> Vec<Diagnostic> {
    let mut d = Diagnostic::new(message, 0..0).with_hint(hint);
    d.whole_file = true;
    vec![d]
}

fn run(src: &str, dir: &Path, opts: &CcOptions) -> Result<Output, Vec<Diagnostic>> {
    let tried = crate::cc::candidates(None);
    for cc in &tried {
        let mut cmd = Command::new(cc);
        // `-ftabstop=1`: columns in messages count characters, as ours do.
        cmd.args(["-E", "-dD", "-x", "c", "-ftabstop=1", "-iquote"]).arg(dir);
        for d in &opts.include_dirs {
            cmd.arg("-I").arg(d);
        }
        for d in &opts.defines {
            cmd.arg("-D").arg(d);
        }
        for h in &opts.forced {
            cmd.arg("-include").arg(h);
        }
        cmd.arg("-").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(whole(
                    format!("cannot run the C preprocessor `{cc}`: {e}"),
                    "set FOREX_CC to a working C compiler",
                ))
            }
        };
        let limit = opts.time_limit.unwrap_or(DEFAULT_LIMIT);
        return wait(child.stdin.take(), &mut child, src, limit).map_err(|why| {
            let _ = child.kill();
            let _ = child.wait();
            whole(format!("the C preprocessor `{cc}` {why}"), "simplify the file's includes")
        });
    }
    Err(whole(
        format!(
            "no C compiler found to preprocess the file (tried {})",
            tried.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
        ),
        "install gcc or clang, or name a compiler in FOREX_CC",
    ))
}

/// Feeds `src` to the child and collects its output, for at most `limit`.
fn wait(
    stdin: Option<std::process::ChildStdin>,
    child: &mut std::process::Child,
    src: &str,
    limit: Duration,
) -> Result<Output, String> {
    // Writing and reading happen on their own threads: the compiler may fill its output
    // pipe before it has read all of its input.
    let text = src.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(mut s) = stdin {
            let _ = s.write_all(&text);
        }
    });
    let mut out_pipe = child.stdout.take();
    let mut err_pipe = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = out_pipe.as_mut() {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = err_pipe.as_mut() {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    });
    let status = match child.wait_timeout(limit) {
        Ok(Some(s)) => s,
        Ok(None) => {
            return Err(format!("took longer than {} s and was stopped", limit.as_secs_f64()))
        }
        Err(e) => return Err(format!("could not be waited for: {e}")),
    };
    let _ = writer.join();
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    Ok(Output {
        ok: status.success(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    })
}

/// The first preprocessing token of `text` (which starts with one).
pub fn first_token(text: &str) -> &str {
    if text.is_empty() {
        return text;
    }
    &text[..lex::token_end(text.as_bytes(), 0).min(text.len())]
}

/// The byte span of the token at 1-based `line`, `col` (characters) of `src`.
fn at(src: &str, line: usize, col: usize) -> Span {
    let start = src.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>();
    let start = start.min(src.len());
    let text = src[start..].split('\n').next().unwrap_or("");
    let off = text.char_indices().nth(col.saturating_sub(1)).map_or(text.len(), |(i, _)| i);
    let s = start + off;
    if s >= src.len() || src.as_bytes()[s].is_ascii_whitespace() {
        return s..s;
    }
    s..lex::token_end(src.as_bytes(), s).min(src.len())
}

/// `file:line:col: error: message` (or `file:line: …`): the parts.
fn error_line(l: &str) -> Option<(&str, usize, usize, &str)> {
    for kind in [": fatal error: ", ": error: "] {
        if let Some(k) = l.find(kind) {
            let head = &l[..k];
            let msg = &l[k + kind.len()..];
            let mut parts = head.rsplitn(3, ':');
            let (c, b, a) = (parts.next()?, parts.next(), parts.next());
            return match (a, b) {
                (Some(file), Some(line)) => Some((file, line.parse().ok()?, c.parse().ok()?, msg)),
                _ => match head.rsplit_once(':') {
                    Some((file, line)) => Some((file, line.parse().ok()?, 1, msg)),
                    None => Some((head, 0, 0, msg)),
                },
            };
        }
    }
    None
}

/// The preprocessor's error messages as diagnostics in the user's file.
fn errors(src: &str, stderr: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // The user's `#include` line that the next error's header came from.
    let mut included_from: Option<usize> = None;
    for l in stderr.lines() {
        if let Some(i) = l.find("included from <stdin>:") {
            let rest = &l[i + "included from <stdin>:".len()..];
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            included_from = n.parse().ok();
            continue;
        }
        let Some((file, line, col, msg)) = error_line(l) else { continue };
        let d = if file == "<stdin>" {
            Diagnostic::new(msg.to_string(), at(src, line, col))
                .with_label("the C preprocessor stops here")
        } else if let Some(inc) = included_from {
            let sp = at(src, inc, 1);
            let whole_line =
                sp.start..src[sp.start..].find('\n').map_or(src.len(), |e| sp.start + e);
            Diagnostic::new(msg.to_string(), whole_line)
                .with_label(format!("in the header {file}:{line}, included here"))
        } else {
            let mut d = Diagnostic::new(format!("{file}: {msg}"), 0..0);
            d.whole_file = true;
            d
        };
        included_from = None;
        out.push(d);
    }
    if out.is_empty() {
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        out = whole(
            format!("the C preprocessor failed: {first}"),
            "run `cc -E` on the file to see why",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_messages_are_parsed() {
        assert_eq!(
            error_line("<stdin>:2:10: fatal error: nope.h: No such file or directory"),
            Some(("<stdin>", 2, 10, "nope.h: No such file or directory"))
        );
        assert_eq!(error_line("h2.h:2:2: error: #error x"), Some(("h2.h", 2, 2, "#error x")));
        assert_eq!(error_line("In file included from <stdin>:1:"), None);
    }

    #[test]
    fn positions_count_characters() {
        let src = "int x;\n\tint é = 1;\n";
        assert_eq!(at(src, 2, 2), 8..11);
        assert_eq!(&src[at(src, 2, 6)], "é");
    }
}
