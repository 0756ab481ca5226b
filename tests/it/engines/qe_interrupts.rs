//! The prover's quantifier-elimination solver (and the light elimination before it)
//! must survive being stopped: Z3 4.8.12's `qe` tactic crashed the whole process (SIGSEGV) when a check was interrupted, which
//! every time limit and every lost portfolio race does. A crash here kills the test
//! binary, so the suite fails.

use assert_cmd::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The prover's quantified integer queries on our own soundness inputs, as SMT-LIB.
fn quantified_queries() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("q");
    Command::cargo_bin("forex")
        .unwrap()
        .args(["prove", "--quiet", "--engine", "prove", "--jobs", "1", "--timeout", "1"])
        .arg("--dump-smt")
        .arg(&dump)
        .args(["tests/inputs/soundness/loops.fe", "tests/inputs/soundness/exists.fe"])
        .output()
        .expect("forex runs");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dump).expect("dumped queries") {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let integer = !["BitVec", "Array", "String"].iter().any(|s| text.contains(s));
        if text.contains("forall") && integer {
            out.push(text);
        }
    }
    out
}

#[test]
fn quantifier_elimination_survives_interrupts() {
    let queries = quantified_queries();
    assert!(queries.len() > 50, "only {} quantified queries", queries.len());
    // With `qe`, two threads crashed within 0.3 s; this runs each for 2 s.
    std::thread::scope(|s| {
        for offset in 0..2 {
            let queries = &queries;
            s.spawn(move || {
                let ctx = z3::Context::thread_local();
                let handle = ctx.handle();
                let (running, done) = (AtomicBool::new(false), AtomicBool::new(false));
                std::thread::scope(|inner| {
                    inner.spawn(|| {
                        let mut i = 0u64;
                        while !done.load(Ordering::SeqCst) {
                            i += 1;
                            std::thread::sleep(Duration::from_micros(200 + (i * 337) % 2500));
                            if running.load(Ordering::SeqCst) {
                                handle.interrupt();
                            }
                        }
                    });
                    let start = Instant::now();
                    for q in queries.iter().skip(offset).step_by(2).cycle() {
                        if start.elapsed() > Duration::from_secs(2) {
                            break;
                        }
                        let solver = forex::smt::query::qe_then_smt();
                        solver.from_string(q.as_str());
                        let query = z3::ast::Bool::and(&solver.get_assertions());
                        running.store(true, Ordering::SeqCst);
                        // The light elimination every quantified query goes through
                        // first, then the full elimination.
                        for _ in 0..20 {
                            let _ = forex::smt::light::eliminate_light(&query);
                        }
                        let _ = solver.check();
                        running.store(false, Ordering::SeqCst);
                        // Clear an interrupt that arrived after the check returned.
                        let _ = forex::smt::session::solver().check();
                    }
                    done.store(true, Ordering::SeqCst);
                });
            });
        }
    });
}
