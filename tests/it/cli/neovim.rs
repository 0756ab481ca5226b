//! `forex lsp` driven by a real editor: headless Neovim (0.7 or later) with the Lua
//! scripts in `tests/inputs/neovim/`. Skipped, with a note, where `nvim` is not installed.

use std::path::Path;
use std::process::Command;

fn nvim_present() -> bool {
    Command::new("nvim").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Runs `script` in headless Neovim on a copy of `source`; its printed lines.
fn run_nvim(script: &str, source: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.fe");
    std::fs::write(&file, source).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/neovim").join(script);
    let out = Command::new("nvim")
        .args(["--headless", "--clean", "-u"])
        .arg(&script)
        .env("FOREX_BIN", assert_cmd::cargo::cargo_bin("forex"))
        .env("FE_FILE", &file)
        .current_dir(dir.path())
        .output()
        .unwrap();
    // Neovim prints from Lua on stderr in headless mode.
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn neovim_shows_front_end_errors_and_verdicts_on_save() {
    if !nvim_present() {
        eprintln!("skipped: nvim is not installed");
        return;
    }
    let text = run_nvim("diagnostics.lua", "program p {\n  int x;\n  x = y + 1;\n}\n");
    assert!(
        text.contains("3:7-3:8 severity=1 code=E0200 source=forex unknown variable `y`"),
        "{text}"
    );
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/vacuous.fe"),
    )
    .unwrap();
    let text = run_nvim("verdicts_on_save.lua", &source);
    assert!(text.contains("24:7 severity=2 code=vacuous"), "{text}");
    assert!(text.contains("47:7 severity=3 code=verified ✓ `real` verified"), "{text}");
}
