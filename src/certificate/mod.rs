//! Certificates (`forex prove --certificate DIR`, `forex certify DIR`): per decided tuple
//! a folder with `certificate.json` (the proof data: alignment, counts, invariants,
//! strategy; or the counterexample) and each obligation as a standalone SMT-LIB 2.6
//! script expected `unsat`, which a second solver re-checks without forex's search.
//!
//! Tying the data to the scripts: the JSON lists every script with its SHA-256, every
//! strategy `define-fun` line a script carries (checked to be there verbatim), and a
//! digest of all of it; the checker refuses a certificate whose digest or hashes do not
//! match. A script changed and re-hashed by hand is re-checked like any other: a
//! weakened invariant or a wrong strategy term then comes back `sat` (REFUTED).

pub mod check;
pub mod refuted;

use crate::ir::Tuple;
use crate::report::{Report, Status, TupleResult};
use crate::verdict::{RecordedObligation, Verdict};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The format tag in every `certificate.json`.
pub const FORMAT: &str = "forex-certificate-1";
/// The proof-data file of a tuple's certificate folder.
pub const DATA_FILE: &str = "certificate.json";

/// `certificate.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CertificateData {
    pub format: String,
    pub file: String,
    pub tuple: String,
    /// `file:line:col` of the tuple.
    pub span: String,
    /// `verified` or `violated`.
    pub verdict: String,
    /// The proof data (loop points with alignment, counts and invariants; strategy;
    /// exhaustive bound), for `verified`.
    pub proof: Option<serde_json::Value>,
    /// The concrete ∀ runs, for `violated`.
    pub counterexample: Option<serde_json::Value>,
    pub obligations: Vec<ObligationEntry>,
    /// Why some obligations of the proof are not in the certificate (then it can only be
    /// partly certified).
    pub missing: Vec<String>,
    /// SHA-256 of this JSON (keys sorted, compact) without the `digest` key.
    #[serde(default)]
    pub digest: String,
}

/// One obligation: its script and what it stands for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ObligationEntry {
    /// The script's file name in the folder.
    pub script: String,
    /// The proof step (`initiation`, `consecution`, `the postcondition`, …).
    pub step: String,
    /// Where the tuple the obligation belongs to starts (`file:line:col`).
    pub span: String,
    /// Always `unsat`.
    pub expect: String,
    /// The script has quantifiers (a second solver may answer unknown).
    pub quantified: bool,
    /// The ∃ strategy's `define-fun` lines the script must contain verbatim.
    pub strategy: Vec<String>,
    /// SHA-256 of the script, hex.
    pub sha256: String,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// The digest of `data` (its `digest` field left out).
pub fn digest_of(data: &CertificateData) -> String {
    let mut v = serde_json::to_value(data).expect("certificate data serialises");
    if let Some(o) = v.as_object_mut() {
        o.remove("digest");
    }
    sha256_hex(v.to_string().as_bytes())
}

/// Writes a certificate for every decided (verified or violated) tuple of `report` into
/// `dir`, one folder per tuple; returns the folders. `tuples` finds a result's tuple
/// (the violated obligations are built from it).
pub fn write_report(
    dir: &Path,
    report: &Report,
    tuples: &dyn Fn(&TupleResult) -> Option<Tuple>,
) -> Result<Vec<Option<PathBuf>>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--certificate {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for (i, r) in report.results.iter().enumerate() {
        out.push(write_one(dir, i, r, tuples)?);
    }
    Ok(out)
}

fn write_one(
    dir: &Path,
    index: usize,
    r: &TupleResult,
    tuples: &dyn Fn(&TupleResult) -> Option<Tuple>,
) -> Result<Option<PathBuf>, String> {
    let Status::Done(outcome) = &r.status else { return Ok(None) };
    let Some(name) = &r.tuple else { return Ok(None) };
    let span = match &r.loc {
        Some(l) => format!("{}:{}:{}", r.file, l.line, l.col),
        None => r.file.clone(),
    };
    let (verdict, proof, counterexample, obligations, missing) = match &outcome.verdict {
        Verdict::Verified { proof } => {
            let mut missing = Vec::new();
            let mut proof = proof.clone();
            if !proof.recorded.on {
                match tuples(r) {
                    Some(t) => missing = search_certificate(&t, &mut proof),
                    None => missing.push("the tuple could not be loaded again".to_string()),
                }
            }
            let data = serde_json::to_value(&proof).map_err(|e| e.to_string())?;
            ("verified", Some(data), None, proof.recorded.obligations.clone(), missing)
        }
        Verdict::Violated { counterexample } => {
            let (obligations, missing) = match tuples(r) {
                Some(t) => refuted::obligations(&t, counterexample),
                None => (Vec::new(), vec!["the tuple could not be loaded again".to_string()]),
            };
            let data = serde_json::to_value(counterexample).map_err(|e| e.to_string())?;
            ("violated", None, Some(data), obligations, missing)
        }
        Verdict::Unknown { .. } => return Ok(None),
    };
    let folder = dir.join(format!("{:03}-{}", index + 1, file_safe(name)));
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut entries = Vec::new();
    for (k, o) in obligations.iter().enumerate() {
        entries.push(write_script(&folder, k, o, &span)?);
    }
    let mut data = CertificateData {
        format: FORMAT.into(),
        file: r.file.clone(),
        tuple: name.clone(),
        span,
        verdict: verdict.into(),
        proof,
        counterexample,
        obligations: entries,
        missing,
        digest: String::new(),
    };
    data.digest = digest_of(&data);
    let json = serde_json::to_string_pretty(&data).map_err(|e| e.to_string())?;
    let path = folder.join(DATA_FILE);
    std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(folder))
}

/// A verified tuple without recorded obligations: the refuter's exhaustive search decided
/// it, whose claims `refute::certify` writes as scripts; failing that, the prover is asked for
/// a proof whose obligations are. Fills `proof.recorded`; returns what is missing.
fn search_certificate(tuple: &Tuple, proof: &mut crate::verdict::Proof) -> Vec<String> {
    let mut partial = None;
    if crate::refute::certify::is_exhaustive(proof) {
        let found =
            crate::refute::certify::obligations(tuple, proof, &crate::cancel::Cancel::new());
        if found.missing.is_empty() {
            proof.recorded = found.recorded;
            return Vec::new();
        }
        partial = Some(found);
    }
    match (prover_proof(tuple), partial) {
        (Ok(p), _) => {
            *proof = p;
            Vec::new()
        }
        (Err(prover), None) => vec![format!(
            "the verdict has no recorded obligations, and the prover found no proof to certify \
             instead: {prover}"
        )],
        // What the search's scripts do cover stays in the certificate.
        (Err(prover), Some(found)) => {
            proof.recorded = found.recorded;
            found
                .missing
                .into_iter()
                .chain([format!("the prover found no proof to certify instead: {prover}")])
                .collect()
        }
    }
}

/// Longest the prover may take for a certificate of a tuple the refuter verified.
const PROVER_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// The prover's proof of `tuple`, with its obligations recorded.
fn prover_proof(tuple: &Tuple) -> Result<crate::verdict::Proof, String> {
    let opts = crate::prove::ProveOptions { record: true, ..Default::default() };
    let cancel = crate::cancel::Cancel::new().with_timeout(PROVER_LIMIT);
    match crate::prove::prove(tuple, &opts, &cancel).verdict {
        Verdict::Verified { proof } => Ok(proof),
        Verdict::Unknown { reason } => Err(reason.to_string()),
        Verdict::Violated { .. } => Err("the prover disagrees".into()),
    }
}

fn write_script(
    folder: &Path,
    k: usize,
    o: &RecordedObligation,
    span: &str,
) -> Result<ObligationEntry, String> {
    let file = format!("{:03}-{}.smt2", k + 1, file_safe(&o.step));
    let text = format!("; source: {span}\n{}", o.script);
    let path = folder.join(&file);
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    let strategy =
        text.lines().filter(|l| l.starts_with("(define-fun ")).map(str::to_string).collect();
    Ok(ObligationEntry {
        script: file,
        step: o.step.clone(),
        span: span.to_string(),
        expect: "unsat".into(),
        quantified: o.quantified,
        strategy,
        sha256: sha256_hex(text.as_bytes()),
    })
}

/// A name usable as a file name: letters, digits, `-` and `_`, at most 40 characters.
fn file_safe(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    let out = out.trim_matches('-');
    out.chars().take(40).collect::<String>().trim_end_matches('-').to_string()
}
