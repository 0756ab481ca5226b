//! ARCHITECTURE.md's code map stays true: every `crate::` path a library module uses
//! (outside its own module and outside `#[cfg(test)]` code) is in that module's "may
//! call" column, and every module under `src/` has a row. Also: clap and process exits
//! only in the command line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's key as the table names it: `syntax`, `smt::encode`, `smt` (the rest of
/// `src/smt/`).
type Key = String;

/// Rows of the code map: module key → the keys it may call (`None`: everything above).
fn code_map() -> BTreeMap<Key, Option<BTreeSet<Key>>> {
    let text = std::fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md");
    let section = text.split("## Code map").nth(1).expect("a code map section");
    let section = section.split("\n## ").next().unwrap();
    let mut map = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `src/")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 3, "a code map row has three cells: {line}");
        let keys: BTreeSet<Key> = backticked(cells[0]).iter().map(|p| key_of_row(p)).collect();
        let may = cells[2];
        let allowed = if may.contains("everything above") {
            None
        } else {
            Some(backticked(may).into_iter().map(|s| s.to_string()).collect())
        };
        for k in keys {
            map.insert(k, allowed.clone());
        }
    }
    assert!(map.len() > 10, "the code map was not found or not parsed: {map:?}");
    map
}

fn backticked(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// `src/smt/encode.rs` → `smt::encode`; `src/syntax/`, `src/frontend.rs` → their name;
/// `src/main.rs` → `cli` (the binary is part of the command line).
fn key_of_row(path: &str) -> Key {
    let rel = path.trim_start_matches("src/").trim_end_matches('/').trim_end_matches(".rs");
    match rel {
        "main" => "cli".into(),
        "smt/encode" => "smt::encode".into(),
        other => other.split('/').next().unwrap().to_string(),
    }
}

/// The key of a source file, as the table names its module.
fn key_of_file(rel: &Path) -> Key {
    let parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [m] if m == "main" => "cli".into(),
        [s, e, ..] if s == "smt" && e == "encode" => "smt::encode".into(),
        [first, ..] => first.clone(),
        [] => unreachable!(),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Test-only files: unit-test modules and their helpers.
fn test_only(path: &Path) -> bool {
    let name = path.file_stem().unwrap().to_string_lossy();
    name == "tests" || name == "testkit" || name.ends_with("_tests")
}

/// The code of a file outside `#[cfg(test)]` items and comments.
fn production_code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The table keys of every `crate::…` path in `code` (`crate::smt::query::X` → `smt`
/// with `smt::query`; grouped `use crate::{a, b::c}` included).
fn crate_refs(code: &str) -> BTreeSet<(Key, Option<Key>)> {
    let mut refs = BTreeSet::new();
    let mut add = |path: &str| {
        let mut parts = path.split("::").map(|p| {
            p.trim()
                .trim_start_matches('{')
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
        });
        let Some(Some(first)) = parts.next() else { return };
        if first.is_empty() || first == "self" {
            return;
        }
        let second = parts.next().flatten().filter(|s| !s.is_empty()).map(String::from);
        refs.insert((first.to_string(), second));
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            group.split(',').for_each(&mut add);
        } else {
            add(rest);
        }
    }
    refs
}

fn allowed(
    map: &BTreeMap<Key, Option<BTreeSet<Key>>>,
    from: &str,
    to: &(Key, Option<Key>),
) -> bool {
    let (first, second) = to;
    let full = second.as_ref().map(|s| format!("{first}::{s}"));
    // A module's own paths, and `smt`'s own submodules.
    if first == from || from.split("::").next() == Some(first.as_str()) {
        return true;
    }
    match map.get(from) {
        Some(None) => true,
        Some(Some(may)) => may.contains(first) || full.is_some_and(|f| may.contains(&f)),
        None => false,
    }
}

#[test]
fn may_call_column_matches_the_code() {
    let map = code_map();
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut problems = Vec::new();
    for path in files {
        let rel = path.strip_prefix("src").unwrap();
        if rel == Path::new("lib.rs") || test_only(&path) {
            continue;
        }
        let key = key_of_file(rel);
        if !map.contains_key(&key) {
            problems.push(format!("{}: module `{key}` has no code map row", path.display()));
            continue;
        }
        let code = production_code(&std::fs::read_to_string(&path).unwrap());
        for r in crate_refs(&code) {
            if !allowed(&map, &key, &r) {
                let shown = match &r.1 {
                    Some(s) => format!("{}::{s}", r.0),
                    None => r.0.clone(),
                };
                problems.push(format!(
                    "{}: `{key}` uses `crate::{shown}`, not in its \"may call\" column",
                    path.display()
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md code map is out of date:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_library_has_no_command_line_code() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    for path in files {
        let rel = path.strip_prefix("src").unwrap();
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        let code = production_code(&std::fs::read_to_string(&path).unwrap());
        for banned in ["clap", "process::exit"] {
            assert!(!code.contains(banned), "{}: `{banned}` belongs in src/cli", path.display());
        }
    }
}

/// Z3's default solver spends ~6 ms of strategy on every non-incremental check; every
/// solver comes from `smt::session` so that one place decides how solvers are made.
#[test]
fn solvers_are_made_in_one_place() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    for path in files {
        if path.ends_with("smt/session.rs") {
            continue;
        }
        let code = production_code(&std::fs::read_to_string(&path).unwrap());
        for banned in ["Solver::new", "new_for_logic"] {
            // `PreSolver::new` and the like are not Z3's.
            let z3s = code.match_indices(banned).filter(|(at, _)| {
                !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            assert_eq!(
                z3s.count(),
                0,
                "{}: `{banned}`: make solvers with smt::session::solver()",
                path.display()
            );
        }
    }
}

#[test]
fn parses_grouped_and_nested_paths() {
    let refs = crate_refs("use crate::{ir::Tuple, value};\nlet q = crate::smt::query::f();");
    let want: BTreeSet<(Key, Option<Key>)> = [
        ("ir".to_string(), Some("Tuple".to_string())),
        ("value".to_string(), None),
        ("smt".to_string(), Some("query".to_string())),
    ]
    .into_iter()
    .collect();
    assert_eq!(refs, want);
}
