//! Certificates re-checked by cvc5 (`cargo bench --bench certify`): per tuple of the
//! examples, the ForEx suite and hyena0's ORHLE files, the obligations written, how many
//! cvc5 answers unsat, the certificate's status, and the time of forex (prove, writing
//! the certificate) and of the check. Needs cvc5 on the PATH.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn main() {
    let forex = env!("CARGO_BIN_EXE_forex");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/benchmarks");
    let shared = if shared.exists() { shared } else { PathBuf::from("/work/shared/benchmarks") };
    let sets = [root.join("examples"), shared.join("forex"), shared.join("hyena0/orhle")];
    println!(
        "{:<60} {:>5} {:>6}  {:<18} {:>9} {:>9}",
        "tuple", "obl", "cvc5", "status", "forex", "check"
    );
    let (mut verified, mut verified_ok, mut violated, mut violated_ok, mut refuted) =
        (0, 0, 0, 0, 0);
    for set in sets.iter().filter(|s| s.exists()) {
        let dir = std::env::temp_dir().join(format!("forex-bench-certify-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let t0 = Instant::now();
        let _ = Command::new(forex)
            .args(["prove", "-q", "--jobs", "1", "--timeout", "30", "--certificate"])
            .arg(&dir)
            .arg(set)
            .output()
            .expect("forex runs");
        let prove_time = t0.elapsed();
        let mut folders: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|r| r.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        folders.sort();
        println!(
            "{} ({} tuples, forex {:.2} s in all)",
            set.display(),
            folders.len(),
            prove_time.as_secs_f64()
        );
        for f in folders {
            let t = Instant::now();
            let out = Command::new(forex).arg("certify").arg(&f).output().expect("certify runs");
            let check = t.elapsed();
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text.lines().next().unwrap_or("");
            let status = ["partly certified", "certified", "REFUTED", "does not check"]
                .into_iter()
                .find(|s| line.contains(&format!("): {s}")))
                .unwrap_or("?");
            let counts = line.rsplit(" — ").next().unwrap_or("");
            let mut nums = counts.split_whitespace().filter_map(|w| w.parse::<usize>().ok());
            let (ok, total) = (nums.next().unwrap_or(0), nums.next().unwrap_or(0));
            let verdict_violated = line.contains("(violated)");
            if verdict_violated {
                violated += 1;
                violated_ok += (status == "certified") as u32;
            } else {
                verified += 1;
                verified_ok += (status == "certified") as u32;
            }
            refuted += (status == "REFUTED") as u32;
            let name = line.split(" (").next().unwrap_or("");
            println!(
                "{:<60} {:>5} {:>6}  {:<18} {:>9} {:>7.0}ms",
                short(name),
                total,
                ok,
                status,
                "-",
                check.as_secs_f64() * 1000.0
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!(
        "verified: {verified_ok} of {verified} certified; violated: {violated_ok} of {violated} certified; {refuted} REFUTED"
    );
}

fn short(s: &str) -> String {
    let n = s.chars().count();
    if n <= 60 {
        s.to_string()
    } else {
        s.chars().skip(n - 60).collect()
    }
}
