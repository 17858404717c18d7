//! Real clients of `flinklint server`: Neovim's built-in LSP client run headless by
//! `tests/nvim/lsp.lua`, and the VS Code extension of `editors/vscode` built and packaged
//! into a `.vsix`. Each test is skipped when its tool (`nvim`; `node` and `npm`) is missing,
//! except under `CI=true`, where a missing tool fails it (`.ci/run` installs them).

use crate::common::{self, TempDir};
use std::process::Command;

/// Whether `program --version` runs. Without it: `false` (the caller skips), or a failure
/// under `CI=true`.
fn available(program: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "`{program}` is needed by this test under CI=true (.ci/run installs it)"
        );
        eprintln!("skipped: `{program}` is not installed");
    }
    found
}

#[test]
fn neovim_drives_the_server() {
    if !available("nvim") {
        return;
    }
    let dir = TempDir::new("lsp-nvim");
    let root = &dir.0;
    std::fs::create_dir_all(root.join("catalog")).unwrap();
    std::fs::write(
        root.join("catalog/V1__orders.sql"),
        "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    std::fs::write(
        root.join("catalog/V2__orders_copy.sql"),
        "CREATE TABLE orders_copy (id INT) WITH ('connector' = 'datagen') LIKE orders;\n",
    )
    .unwrap();
    std::fs::write(
        root.join("job.sql"),
        "SELECT \"x\";\nCREATE TABLE t (a INT, PRIMARY KEY (a)) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    let script = common::root().join("tests/nvim/lsp.lua");
    let output = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("FLINKLINT_BIN", env!("CARGO_BIN_EXE_flinklint"))
        .env("PROJECT", root)
        .current_dir(root)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("OK"),
        "nvim failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
}

#[test]
fn the_vscode_extension_builds_into_a_vsix() {
    if !available("node") || !available("npm") {
        return;
    }
    let dir = common::root().join("editors/vscode");
    let vsix = dir.join("flinklint.vsix");
    let _ = std::fs::remove_file(&vsix);
    let output = Command::new("bash")
        .arg(dir.join("build.sh"))
        .current_dir(&dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "build.sh failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = std::fs::read(&vsix).expect("the .vsix was written");
    // A zip archive whose central directory names the compiled extension, its manifest and
    // the language client it needs at run time.
    assert!(bytes.starts_with(b"PK"));
    for name in [
        "extension/out/extension.js",
        "extension/package.json",
        "extension/node_modules/vscode-languageclient/package.json",
    ] {
        assert!(
            contains(&bytes, name.as_bytes()),
            "{name} is not in {}",
            vsix.display()
        );
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
