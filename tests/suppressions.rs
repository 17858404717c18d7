//! Suppression comments end to end: what they silence, SU001's fixes applied with `--fix`
//! until nothing changes, and the settings that shape SU001 (`require-suppression-reason`,
//! levels, `--select`). The cases of SU001 itself are fixtures (`fixtures/rules/SU001/`).

use flinklint::config::{Level, RuleSelector, Settings};
use std::path::PathBuf;
use std::process::{Command, Output};

fn codes(text: &str, settings: &Settings) -> Vec<&'static str> {
    flinklint::check_texts(&[("a.sql".to_string(), text.to_string())], settings)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn statement_suppressions_silence_only_their_statement() {
    let s = Settings::default();
    let text = "-- flinklint: ignore SY003\nSELECT \"a\";\nSELECT \"b\";\n";
    assert_eq!(codes(text, &s), ["SY003"]);
    // A comment after a statement on its line applies to the next statement.
    let text = "SELECT \"a\"; -- flinklint: ignore SY003\nSELECT \"b\";\n";
    assert_eq!(codes(text, &s), ["SY003"]);
    // File-wide, anywhere in the file, by name.
    let text = "SELECT \"a\";\nSELECT \"b\";\n-- flinklint: ignore-file double-quoted-literal\n";
    assert_eq!(codes(text, &s), Vec::<&str>::new());
    // Nothing left to silence: SU001.
    let text = "-- flinklint: ignore SY003\nSELECT 'a';\n";
    assert_eq!(codes(text, &s), ["SU001"]);
}

#[test]
fn su001_follows_levels_and_selection() {
    let text = "-- flinklint: ignore SY003\nSELECT 'a';\n-- flinklint: ignore TB001\nSELECT 1;\n";
    let mut s = Settings::default();
    s.rules
        .push_layer(vec![(RuleSelector::Code("SU001"), Level::Off)]);
    assert_eq!(codes(text, &s), Vec::<&str>::new());
    // A suppression of a rule that does not run cannot be judged unused.
    let s = Settings {
        ignore: vec![RuleSelector::Code("SY003")],
        ..Settings::default()
    };
    assert_eq!(codes(text, &s), ["SU001"]);
    let s = Settings {
        select: Some(vec![RuleSelector::Family("SU")]),
        ..Settings::default()
    };
    assert_eq!(codes(text, &s), Vec::<&str>::new());
    // ignore-file SU001 silences SU001 in the file.
    let with_file = format!("-- flinklint: ignore-file SU001 -- kept for the next release\n{text}");
    assert_eq!(codes(&with_file, &Settings::default()), Vec::<&str>::new());
}

#[test]
fn reasons_are_required_when_configured() {
    let text = "-- flinklint: ignore SY003\nSELECT \"a\";\n-- flinklint: ignore SY003 -- legacy\nSELECT \"b\";\n";
    assert_eq!(codes(text, &Settings::default()), Vec::<&str>::new());
    let s = Settings {
        require_suppression_reason: true,
        ..Settings::default()
    };
    assert_eq!(codes(text, &s), ["SU001"]);
}

fn run_fix(dir: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .args(["check", "--fix", "--format", "concise", "."])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn fixes_remove_unused_suppressions_and_converge() {
    let dir = std::env::temp_dir().join(format!("flinklint-suppressions-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(".flinklint.yaml"), "").unwrap();
    let before = "\
-- flinklint: ignore SY003 -- corrected long ago
SELECT 'a';
SELECT 1; -- flinklint: ignore-file TB001
-- flinklint: ignore SY003, SY03, CT002 -- legacy
SELECT \"b\";
-- flinklint: ignore SY03
SELECT 2;
";
    std::fs::write(dir.join("a.sql"), before).unwrap();
    let out = run_fix(&dir);
    let after = std::fs::read_to_string(dir.join("a.sql")).unwrap();
    assert_eq!(
        after,
        "\
SELECT 'a';
SELECT 1;
-- flinklint: ignore SY003 -- legacy
SELECT \"b\";
SELECT 2;
",
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Converged: a second run changes nothing.
    let _ = run_fix(&dir);
    assert_eq!(std::fs::read_to_string(dir.join("a.sql")).unwrap(), after);
    let _ = std::fs::remove_dir_all(&dir);
}
