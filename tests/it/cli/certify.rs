//! Certificates: `forex prove --certificate DIR` and `forex certify DIR` with cvc5 (the
//! tests skip, with a note, where cvc5 is not installed). One certificate per proof kind
//! checks; tampered certificates are REFUTED or fail to check; the scripts parse (and
//! answer `unsat`) in Z3 as well.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn cvc5() -> bool {
    let ok = std::process::Command::new("cvc5").arg("--version").output().is_ok();
    if !ok {
        eprintln!("note: cvc5 is not installed: certificate test skipped");
    }
    ok
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Proves `file` with `engine`, writing its certificate into a fresh folder.
fn certify_file(file: &Path, engine: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "-q", "--engine", engine, "--certificate"])
        .arg(dir.path())
        .arg(file)
        .assert()
        .code(predicates::ord::lt(3));
    dir
}

fn certify(dir: &Path) -> (i32, String) {
    let out = Command::cargo_bin("forex").unwrap().arg("certify").arg(dir).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn tuple_folder(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_dir()).unwrap()
}

fn scripts(folder: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    v.sort();
    v
}

/// Rewrites the certificate's hashes and digest after a script was changed by hand, so
/// the change reaches the second solver.
fn rehash(folder: &Path) {
    let path = folder.join(forex::certificate::DATA_FILE);
    let mut data: forex::certificate::CertificateData =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for o in &mut data.obligations {
        let text = std::fs::read(folder.join(&o.script)).unwrap();
        o.sha256 = forex::certificate::sha256_hex(&text);
        o.strategy.retain(|l| String::from_utf8_lossy(&text).lines().any(|x| x == l));
    }
    data.digest = forex::certificate::digest_of(&data);
    std::fs::write(&path, serde_json::to_string_pretty(&data).unwrap()).unwrap();
}

#[test]
fn each_proof_kind_is_certified_by_cvc5() {
    if !cvc5() {
        return;
    }
    let root = root();
    let cases: Vec<(PathBuf, &str, &str)> = vec![
        (root.join("examples/gni.fe"), "prove", "loop-free"),
        (root.join("examples/async_loops.fe"), "prove", "aligned loops"),
        (root.join("tests/inputs/certificate/exists_loop.fe"), "prove", "∃-only loop"),
        (root.join("examples/reactive_od.fe"), "prove", "temporal"),
        (root.join("tests/inputs/certificate/float_commutes.fe"), "prove", "float abstraction"),
        // The exhaustive searches' own claims as scripts (`refute::certify`).
        (root.join("examples/reactive_optimisation.fe"), "refute", "exhaustive bounded search"),
        (root.join("examples/c/pin_constant_time.c"), "refute", "exhaustive search of C"),
        (root.join("examples/gni_leak.fe"), "refute", "refuted"),
        (root.join("examples/reactive_gni_leak.fe"), "all", "temporal refuted"),
        // The refuter's ∃ loop summary (last iteration from a guard state) decides it;
        // the certificate summarises the same way, without mined facts.
        (
            root.join("tests/inputs/certificate/exists_unbounded_loop.fe"),
            "refute",
            "∃ loop summarised",
        ),
    ];
    for (file, engine, kind) in cases {
        let dir = certify_file(&file, engine);
        let (code, out) = certify(dir.path());
        assert_eq!(code, 0, "{kind} ({}): {out}", file.display());
        assert!(out.contains(": certified"), "{kind}: {out}");
    }
}

#[test]
fn a_wrong_strategy_term_is_refuted() {
    if !cvc5() {
        return;
    }
    let dir = certify_file(&root().join("examples/gni.fe"), "prove");
    let folder = tuple_folder(dir.path());
    let script = scripts(&folder).into_iter().next().unwrap();
    let text = std::fs::read_to_string(&script).unwrap();
    let line = text.lines().find(|l| l.starts_with("(define-fun ")).expect("a strategy line");
    // `(define-fun |c.r#N| () Int TERM)` → the term replaced by 0.
    let head: String = line.splitn(4, ' ').take(3).collect::<Vec<_>>().join(" ");
    let wrong = format!("{head} Int 0)");
    std::fs::write(&script, text.replace(line, &wrong)).unwrap();
    // Changed but not re-hashed: the certificate does not check.
    let (code, out) = certify(dir.path());
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("SHA-256 does not match"), "{out}");
    // Re-hashed: the second solver finds the model.
    rehash(&folder);
    let (code, out) = certify(dir.path());
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("REFUTED") && out.contains("SOUNDNESS ALARM"), "{out}");
}

#[test]
fn a_flipped_obligation_is_refuted() {
    if !cvc5() {
        return;
    }
    let dir = certify_file(&root().join("examples/async_loops.fe"), "prove");
    let folder = tuple_folder(dir.path());
    let script = scripts(&folder).into_iter().last().unwrap();
    let text = std::fs::read_to_string(&script).unwrap();
    // The negated obligation asserted un-negated: satisfiable unless it is vacuous.
    let flipped = text
        .replacen("(assert (not ", "(assert (not (not ", 1)
        .replace("(check-sat)", ")\n(check-sat)");
    std::fs::write(&script, flipped).unwrap();
    rehash(&folder);
    let (code, out) = certify(dir.path());
    assert_eq!(code, 4, "{out}");
}

#[test]
fn a_weakened_invariant_fails_to_check() {
    if !cvc5() {
        return;
    }
    let dir = certify_file(&root().join("examples/async_loops.fe"), "prove");
    let folder = tuple_folder(dir.path());
    let path = folder.join("certificate.json");
    let mut data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let inv = &mut data["proof"]["loop_points"][0]["invariant"];
    assert!(inv.is_string(), "{data}");
    *inv = serde_json::Value::String("true".into());
    std::fs::write(&path, serde_json::to_string_pretty(&data).unwrap()).unwrap();
    let (code, out) = certify(dir.path());
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("digest does not match"), "{out}");
}

#[test]
fn scripts_parse_and_are_unsat_in_z3() {
    let root = root();
    for (file, engine) in [
        ("examples/gni.fe", "prove"),
        ("examples/gni_shorthand.fe", "prove"),
        ("examples/async_loops.fe", "prove"),
        ("examples/gni_leak.fe", "refute"),
    ] {
        let dir = certify_file(&root.join(file), engine);
        let folder = tuple_folder(dir.path());
        for script in scripts(&folder) {
            let text = std::fs::read_to_string(&script).unwrap();
            assert!(!text.contains("bv2int") && !text.contains("(! "), "{}", script.display());
            let answer = z3_eval(&text);
            assert_eq!(answer.trim(), "unsat", "{}: {answer}", script.display());
        }
    }
}

/// Z3's own SMT-LIB reader on `text`: its printed answers (or errors).
fn z3_eval(text: &str) -> String {
    let ctx = z3::Context::thread_local();
    let raw = ctx.get_z3_context();
    // A fresh state per script: the context keeps declarations between calls.
    let c = std::ffi::CString::new(format!("(reset)\n{text}")).unwrap();
    // SAFETY: a live context of this thread; the answer is copied before the next call.
    unsafe {
        let out = z3_sys::Z3_eval_smtlib2_string(raw, c.as_ptr());
        std::ffi::CStr::from_ptr(out).to_string_lossy().into_owned()
    }
}

#[test]
fn cross_check_reports_the_certificate_in_json() {
    if !cvc5() {
        return;
    }
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--engine", "prove", "--format", "json", "--cross-check"])
        .arg(root().join("examples/gni.fe"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["results"][0]["certificate"];
    assert_eq!(c["checked"], 1);
    assert_eq!(c["total"], 1);
    assert_eq!(c["solver"], "cvc5 --lang=smt2");
    assert_eq!(v["results"][0]["proof"]["strategy"][0]["param"], "c.r");
}

#[test]
fn explain_shows_the_strategy() {
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--engine", "prove", "--explain"])
        .arg(root().join("examples/gni.fe"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let strategy: String = text
        .lines()
        .skip_while(|l| !l.contains("∃ strategy"))
        .take(2)
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(strategy, @r"
      ∃ strategy:
        c.r := a.h + a.r - b.h   (the postcondition)
    ");
}

/// A temporal counterexample's "no ∃ prefix" script, with the conjunct that rules out
/// the last ∃ choice dropped, is satisfiable: REFUTED.
#[test]
fn a_weakened_temporal_counterexample_is_refuted() {
    if !cvc5() {
        return;
    }
    let dir = certify_file(&root().join("examples/reactive_gni_leak.fe"), "all");
    let folder = tuple_folder(dir.path());
    let script = scripts(&folder).into_iter().last().unwrap();
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("no ∃ prefix matches"), "{text}");
    // The script is the encoding itself (declared ∃ choices), not a simplified `false`.
    assert!(text.contains("(declare-fun "), "{text}");
    let weakened = text
        .replacen("(assert (and ", "(assert (and true (or true ", 1)
        .replace("(check-sat)", ")\n(check-sat)");
    std::fs::write(&script, weakened).unwrap();
    rehash(&folder);
    let (code, out) = certify(dir.path());
    assert_eq!(code, 4, "{out}");
}

/// A verdict of the refuter's exhaustive search is certified by the search's own claims
/// (no prover proof stands in: the steps name the search), with the ∃ choice defined as
/// a term over the ∀ values; `--explain` shows that strategy. The invalid twins are
/// violated, with certified counterexamples.
#[test]
fn an_exhaustive_search_is_certified_with_its_strategy() {
    if !cvc5() {
        return;
    }
    let file = root().join("tests/inputs/certificate/exhaustive_choice.fe");
    let dir = certify_file(&file, "refute");
    let (code, out) = certify(dir.path());
    assert_eq!(code, 0, "{out}");
    for (name, verdict) in [
        ("matched", "verified"),
        ("matched_twin", "violated"),
        ("step", "verified"),
        ("step_twin", "violated"),
    ] {
        assert!(out.contains(&format!(": {name} ({verdict}): certified")), "{name}: {out}");
    }
    let mut folders: Vec<PathBuf> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    for folder in [&folders[0], &folders[2]] {
        let data = std::fs::read_to_string(folder.join(forex::certificate::DATA_FILE)).unwrap();
        assert!(data.contains("every ∀ run has an ∃ run within"), "{data}");
        assert!(data.contains("no ∀ run goes past"), "{data}");
        let text: String =
            scripts(folder).iter().map(|s| std::fs::read_to_string(s).unwrap()).collect();
        assert!(text.contains("(define-fun b.c!"), "{text}");
    }
    let out = Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--engine", "refute", "--explain", "--tuple", "step"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("∃ strategy:") && text.contains(":= 1 + a.x@0 - b.x@0"), "{text}");
}
