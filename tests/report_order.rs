//! The order of findings: by file in natural order (`a2/` before `a10/`, `x2.sql` before
//! `x10.sql`), the files of a history in the order they apply (`V2` before `V11`, or the
//! configured order), the same in every format.

use crate::common::{isolated_command, TempDir};
use std::path::Path;

const FORMATS: &[&str] = &[
    "human", "concise", "json", "sarif", "github", "gitlab", "junit",
];

/// Writes each file (each with one finding: double quotes around a string).
fn project(dir: &Path, files: &[&str]) {
    for f in files {
        let path = dir.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "SELECT \"x\";\n").unwrap();
    }
}

/// The output of `check --format FORMAT .` in `dir`.
fn check(dir: &Path, format: &str) -> String {
    let out = isolated_command(env!("CARGO_BIN_EXE_flinklint"), dir)
        .args(["check", "--exit-zero", "--format", format, "."])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Asserts that in every format, each of `expected` occurs and first occurs in that order.
fn assert_order(dir: &Path, expected: &[&str]) {
    for format in FORMATS {
        let text = check(dir, format);
        let at: Vec<usize> = expected
            .iter()
            .map(|p| {
                text.find(p)
                    .unwrap_or_else(|| panic!("{format}: {p} missing:\n{text}"))
            })
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "{format}: not in the order {expected:?}:\n{text}"
        );
    }
}

#[test]
fn findings_come_by_file_in_natural_order_in_every_format() {
    let tmp = TempDir::new("report-order-natural");
    let files = [
        "a2/q.sql",
        "a10/q.sql",
        "db/V1__init.sql",
        "db/V2__a.sql",
        "db/V11__b.sql",
        "jobs/x2.sql",
        "jobs/x10.sql",
    ];
    // Written in another order than expected.
    let mut shuffled = files;
    shuffled.reverse();
    project(&tmp.0, &shuffled);
    assert_order(&tmp.0, &files);
}

#[test]
fn a_history_reports_in_its_configured_order() {
    let tmp = TempDir::new("report-order-history");
    project(
        &tmp.0,
        &[
            "db/V1__init.sql",
            "db/V2__a.sql",
            "db/V11__b.sql",
            "db/after.sql",
        ],
    );
    // By name, byte by byte: `V11__` before `V1__` (`1` sorts before `_`).
    std::fs::write(
        tmp.0.join(".flinklint.yaml"),
        "histories:\n  - path: db\n    order: lexicographic\n",
    )
    .unwrap();
    assert_order(
        &tmp.0,
        &[
            "db/V11__b.sql",
            "db/V1__init.sql",
            "db/V2__a.sql",
            "db/after.sql",
        ],
    );
    // A list file: the listed files in its order, then the others in natural order.
    std::fs::write(tmp.0.join("db/ORDER"), "V2__a.sql\nV1__init.sql\n").unwrap();
    std::fs::write(
        tmp.0.join(".flinklint.yaml"),
        "histories:\n  - path: db\n    order: db/ORDER\n",
    )
    .unwrap();
    assert_order(
        &tmp.0,
        &[
            "db/V2__a.sql",
            "db/V1__init.sql",
            "db/V11__b.sql",
            "db/after.sql",
        ],
    );
}
