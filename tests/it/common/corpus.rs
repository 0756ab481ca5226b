//! The one discovery of the inputs the tests run over:
//! - the project's examples, `examples/*.fe`, whose first line says
//!   `// expect: verified`, `// expect: violated` or `// expect: unknown` (what forex
//!   says today where no engine decides it yet);
//! - the equivalence pairs `benches/equiv/<class>/*.fe` (a program before and after a
//!   transformation), first line `// expect: verified|violated`, invalid twins `*_bad.fe`;
//! - the ForEx benchmark suite next to the project, `../shared/benchmarks/forex/*/*.txt`,
//!   whose EXPECTED.tsv lists the instances not expected `verified`. It is third-party and
//!   not in the repository: tests skip it with a notice when it is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The verdict an input declares (examples) or is listed with (EXPECTED.tsv).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Verified,
    Violated,
    /// Neither engine decides it today (e.g. a valid reactive tuple before the temporal
    /// prover): every engine must answer `unknown`.
    Unknown,
}

impl Expect {
    fn parse(word: &str) -> Option<Expect> {
        match word.trim() {
            "verified" => Some(Expect::Verified),
            "violated" => Some(Expect::Violated),
            "unknown" => Some(Expect::Unknown),
            _ => None,
        }
    }

    /// The verdict's name as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Expect::Verified => "verified",
            Expect::Violated => "violated",
            Expect::Unknown => "unknown",
        }
    }
}

/// One file of `examples/`.
pub struct Example {
    pub path: PathBuf,
    pub text: String,
    /// From the first line; `None` when it is not an expect line.
    pub expect: Option<Expect>,
}

impl Example {
    /// The file name, for messages.
    pub fn name(&self) -> String {
        self.path.file_name().unwrap_or_default().to_string_lossy().into_owned()
    }
}

pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// Every `examples/*.fe`, sorted by path.
pub fn examples() -> Vec<Example> {
    let dir = examples_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .map(|e| e.expect("readable examples folder").path())
        .filter(|p| p.extension().is_some_and(|e| e == "fe"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no examples in {}", dir.display());
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable example");
            let first = text.lines().next().unwrap_or("").trim();
            let expect = first.strip_prefix("// expect:").and_then(Expect::parse);
            Example { path, text, expect }
        })
        .collect()
}

/// Every `benches/equiv/<class>/*.fe` with its class (the folder), sorted by path.
pub fn equiv_pairs() -> Vec<(String, Example)> {
    let pattern = format!("{}/benches/equiv/*/*.fe", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Example)> = glob::glob(&pattern)
        .expect("pattern")
        .map(|entry| {
            let path = entry.expect("readable");
            let class = path.parent().and_then(|p| p.file_name()).unwrap_or_default();
            let class = class.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("readable pair");
            let first = text.lines().next().unwrap_or("").trim();
            let expect = first.strip_prefix("// expect:").and_then(Expect::parse);
            (class, Example { path, text, expect })
        })
        .collect();
    out.sort_by(|a, b| a.1.path.cmp(&b.1.path));
    assert!(!out.is_empty(), "no pairs under benches/equiv");
    out
}

/// One instance of the ForEx benchmark suite.
pub struct Instance {
    /// Relative to the suite's folder, as EXPECTED.tsv names it: `hypro/p1_1bit.txt`.
    pub rel: String,
    pub path: PathBuf,
    pub expect: Expect,
}

pub fn forex_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/forex")
}

/// Every instance of the ForEx suite, sorted by path, with its expected verdict
/// (EXPECTED.tsv, `verified` when unlisted); `None`, after a notice on stderr, when the
/// suite is not next to the project.
pub fn forex_suite() -> Option<Vec<Instance>> {
    let dir = forex_dir();
    if !dir.is_dir() {
        eprintln!("NOTICE: {} is absent; skipping the ForEx benchmark test", dir.display());
        return None;
    }
    let tsv = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap_or_default();
    let mut listed: BTreeMap<String, Expect> = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut cols = line.split('\t');
        if let (Some(file), Some(verdict)) = (cols.next(), cols.next()) {
            let expect = Expect::parse(verdict)
                .unwrap_or_else(|| panic!("EXPECTED.tsv: unknown verdict {verdict:?}"));
            listed.insert(file.to_string(), expect);
        }
    }
    let pattern = format!("{}/*/*.txt", dir.display());
    let mut out: Vec<Instance> = glob::glob(&pattern)
        .expect("pattern")
        .map(|entry| {
            let path = entry.expect("readable");
            let rel = path.strip_prefix(&dir).expect("inside").display().to_string();
            let expect = listed.get(&rel).copied().unwrap_or(Expect::Verified);
            Instance { rel, path, expect }
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Some(out)
}
