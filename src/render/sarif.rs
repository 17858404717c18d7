//! `--format sarif`: a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format,
//! <https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html>), for GitHub code
//! scanning (`github/codeql-action/upload-sarif`) and other SARIF viewers.
//!
//! One run. `tool.driver` names flinklint (`name`, `version`, `informationUri`) and lists, in
//! code order, the metadata of every rule that appears in the results: `id` (the code), `name`,
//! `shortDescription` (the summary), `fullDescription` and `help` ("what it does" and "why it
//! matters"), and `defaultConfiguration.level` (the default severity). `columnKind` is
//! `unicodeCodePoints`: columns count characters, as everywhere in flinklint.
//!
//! Each result has `ruleId`, `ruleIndex`, `level` (`error`, `warning`, or `note` for info),
//! `message.text`, one location (`artifactLocation.uri` is the path as shown, percent-encoded
//! where a URI needs it: a relative reference for a relative path, with `uriBaseId`
//! `%SRCROOT%`, and a `file:` URI with no base id for an absolute one; the `region` has 1-based `startLine`, `startColumn`, `endLine` and
//! `endColumn`, the end exclusive as SARIF defines it), `partialFingerprints`
//! (`flinklint/v1`, see [`super::fingerprints`]), `relatedLocations` for related locations,
//! `fixes` for a fix (one `artifactChange` per file, each edit a `replacement` of a
//! `deletedRegion` by `insertedContent`; the fix's applicability in its `properties`), and
//! `properties` with `help`, `flinkMessage` (Flink's own message) and `notes` when present.
//!
//! Artifact URIs are relative to the project root ([`Base`]: the folder of the config file,
//! else the git work tree, else the working directory), whatever folder the run was made
//! from: `flinklint check ..` from a subfolder writes `sub/x.sql`, not `../sub/x.sql`. The run
//! names the root in `originalUriBaseIds` as `%SRCROOT%`, a `file:` URI ending in `/` (as
//! SARIF 2.1.0 requires of a base), so that a viewer can resolve the relative references; a
//! file outside the root gets an absolute `file:` URI. GitHub code scanning resolves relative
//! references against the root of the repository (GitHub Docs, "SARIF support for code
//! scanning", `artifactLocation.uri`). `%SRCROOT%` is the base id CodeQL writes.
//!
//! Past the limit (`--max-findings`), `results` holds the first findings, and the run gains an
//! `invocations` entry whose `toolExecutionNotifications` has one `warning` saying how many
//! were left out, with `properties.omitted` (`count`, `limit`, `by_code` as in `--format
//! json`).
//!
//! The output is validated against the OASIS schema in `tests/formats.rs`.

use super::{fingerprints, line_cols, path_of};
use crate::diagnostics::{Applicability, Diagnostic, Severity};
use crate::files::FileEntry;
use crate::source::{FileId, Span};
use serde_json::{json, Map, Value};
use std::path::Path;

/// The SARIF version written.
pub const SARIF_VERSION: &str = "2.1.0";

/// The URI of the SARIF 2.1.0 schema (OASIS, with errata 01), written as `$schema`.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// `tool.driver.informationUri`: the package's repository or homepage from `Cargo.toml`, or
/// its crates.io page when neither is set.
pub const INFORMATION_URI: &str = first_set(
    &[env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")],
    concat!("https://crates.io/crates/", env!("CARGO_PKG_NAME")),
);

/// The first non-empty candidate, or `fallback`.
const fn first_set(candidates: &[&'static str], fallback: &'static str) -> &'static str {
    let mut i = 0;
    while i < candidates.len() {
        if !candidates[i].is_empty() {
            return candidates[i];
        }
        i += 1;
    }
    fallback
}

/// The SARIF level of a severity.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as a URI reference (RFC 3986): relative paths stay relative, absolute ones become
/// `file:` URIs; bytes outside the unreserved set, `/` and the sub-delimiters are
/// percent-encoded (so `a b.sql` becomes `a%20b.sql` and `<stdin>` becomes `%3Cstdin%3E`).
pub fn uri(path: &str) -> String {
    let b = path.as_bytes();
    let drive = b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/';
    let (prefix, rest) = if drive {
        ("file:///", path)
    } else if path.starts_with('/') {
        ("file://", path)
    } else {
        ("", path)
    };
    let mut out = String::from(prefix);
    for (i, b) in rest.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric()
            || b"-._~/!$&'()*+,;=@".contains(&b)
            // The colon of a drive letter.
            || (drive && i == 1);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn region(files: &[FileEntry], file: FileId, span: Span) -> Value {
    let (start, end) = line_cols(files, file, span);
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
    })
}

/// The URI base id of relative artifact locations: the folder the paths are relative to.
pub const SRCROOT: &str = "%SRCROOT%";

/// Where the paths of a log are relative to.
#[derive(Debug, Clone, Copy)]
pub struct Base<'a> {
    /// The project root (absolute): the folder of the config file, else the git work tree,
    /// else the working directory. Artifact URIs are relative to it, and it is `%SRCROOT%`.
    pub root: &'a Path,
    /// The folder the files' relative paths are relative to (the working directory).
    pub cwd: &'a Path,
}

impl<'a> Base<'a> {
    /// Paths relative to `folder`, which is also the root.
    pub fn at(folder: &'a Path) -> Base<'a> {
        Base {
            root: folder,
            cwd: folder,
        }
    }

    /// `shown` (a path as the run shows it: relative to the working directory, or absolute)
    /// relative to the root, with `/` between its parts; absolute when it lies outside the
    /// root; as given for standard input.
    fn rebase(self, shown: &str) -> String {
        // Standard input (without `--stdin-filename`) has no path.
        if shown == "<stdin>" {
            return shown.to_string();
        }
        let path = normalize(&self.cwd.join(shown));
        let root = normalize(self.root);
        let relative = path
            .strip_prefix(&root)
            .ok()
            .map(Path::to_path_buf)
            .or_else(|| {
                // The same folders spelled differently (a symbolic link): compare real paths.
                let real = std::fs::canonicalize(&path).ok()?;
                let real_root = std::fs::canonicalize(&root).ok()?;
                real.strip_prefix(&real_root).ok().map(Path::to_path_buf)
            });
        match relative {
            Some(r) if !r.as_os_str().is_empty() => r.to_string_lossy().replace('\\', "/"),
            _ => path.to_string_lossy().replace('\\', "/"),
        }
    }
}

/// `path` without `.` parts and with each `..` taking away the part before it (lexically).
fn normalize(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out
}

fn artifact_location(files: &[FileEntry], file: FileId, base: Option<Base<'_>>) -> Value {
    let shown = path_of(files, file);
    let uri = uri(&base.map_or(shown.clone(), |b| b.rebase(&shown)));
    if uri.starts_with("file:") {
        // SARIF 2.1.0 (`artifactLocation.uriBaseId`): a base id only with a relative reference.
        json!({ "uri": uri })
    } else {
        json!({"uri": uri, "uriBaseId": SRCROOT})
    }
}

/// `base` (an absolute folder) as a `file:` URI ending in `/`, as `originalUriBaseIds` wants
/// it; `None` for a relative path (it names no folder on its own).
pub fn base_uri(base: &Path) -> Option<String> {
    let path = base.to_string_lossy().replace('\\', "/");
    let mut out = uri(&path);
    if !out.starts_with("file:") {
        return None;
    }
    if !out.ends_with('/') {
        out.push('/');
    }
    Some(out)
}

fn physical_location(
    files: &[FileEntry],
    file: FileId,
    span: Span,
    base: Option<Base<'_>>,
) -> Value {
    json!({
        "artifactLocation": artifact_location(files, file, base),
        "region": region(files, file, span),
    })
}

fn text(s: &str) -> Value {
    json!({"text": s})
}

/// Rule documentation without its hard line breaks: paragraphs (separated by a blank line)
/// and list items (`- `) each on one line, so that viewers can wrap the text themselves. The
/// result reads as plain text and as Markdown alike.
fn reflow(doc: &str) -> String {
    let mut paragraphs = Vec::new();
    for paragraph in doc.trim().split("\n\n") {
        let mut lines: Vec<String> = Vec::new();
        for line in paragraph.lines() {
            match lines.last_mut() {
                Some(last) if !line.starts_with("- ") => {
                    last.push(' ');
                    last.push_str(line.trim());
                }
                _ => lines.push(line.trim().to_string()),
            }
        }
        paragraphs.push(lines.join("\n"));
    }
    paragraphs.join("\n\n")
}

/// The reporting descriptor of a rule code (from the rule's metadata).
fn rule_descriptor(code: &str, fallback: &Diagnostic) -> Value {
    let Some(meta) = crate::rules::meta::find(code) else {
        return json!({
            "id": code,
            "name": fallback.name,
            "defaultConfiguration": {"level": level(fallback.severity)},
        });
    };
    let (what, why) = (reflow(meta.what), reflow(meta.why));
    let full = format!("{what}\n\n{why}");
    let markdown = format!("**What it does**\n\n{what}\n\n**Why it matters**\n\n{why}");
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": text(meta.summary),
        "fullDescription": text(&full),
        "help": {"text": full, "markdown": markdown},
        "defaultConfiguration": {"level": level(meta.severity)},
    })
}

fn fix_value(files: &[FileEntry], fix: &crate::diagnostics::Fix, base: Option<Base<'_>>) -> Value {
    // One artifactChange per file, in the order the files first appear among the edits.
    let mut changes: Vec<(FileId, Vec<Value>)> = Vec::new();
    for e in &fix.edits {
        let replacement = json!({
            "deletedRegion": region(files, e.file, e.span),
            "insertedContent": text(&e.replacement),
        });
        match changes.iter_mut().find(|(f, _)| *f == e.file) {
            Some((_, list)) => list.push(replacement),
            None => changes.push((e.file, vec![replacement])),
        }
    }
    let changes: Vec<Value> = changes
        .into_iter()
        .map(|(file, replacements)| {
            json!({
                "artifactLocation": artifact_location(files, file, base),
                "replacements": replacements,
            })
        })
        .collect();
    let applicability = match fix.applicability {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
    };
    json!({
        "description": text(&fix.title),
        "artifactChanges": changes,
        "properties": {"applicability": applicability},
    })
}

/// The log as a JSON value, without `originalUriBaseIds` (see [`log_with_base`]).
pub fn log(files: &[FileEntry], diagnostics: &[Diagnostic]) -> Value {
    log_limited(files, diagnostics, usize::MAX, None)
}

/// The log as a JSON value; `base`, the absolute folder the relative paths are relative to,
/// becomes the run's `originalUriBaseIds` entry for [`SRCROOT`].
pub fn log_with_base(
    files: &[FileEntry],
    diagnostics: &[Diagnostic],
    base: Option<&Path>,
) -> Value {
    log_limited(files, diagnostics, usize::MAX, base.map(Base::at))
}

/// The log of the first `limit` diagnostics, with a notification counting the others; `base`
/// says which folder the artifact URIs are relative to (its root, written as
/// `originalUriBaseIds`) and which folder the files' own paths are relative to.
pub fn log_limited(
    files: &[FileEntry],
    diagnostics: &[Diagnostic],
    limit: usize,
    base: Option<Base<'_>>,
) -> Value {
    let (diagnostics, omitted) = super::limit(diagnostics, limit);
    let mut log = log_of(files, diagnostics, base);
    if let Some(omitted) = omitted {
        log["runs"][0]["invocations"] = json!([{
            "executionSuccessful": true,
            "toolExecutionNotifications": [{
                "level": "warning",
                "message": text(&omitted.sentence()),
                "properties": {"omitted": super::json::omitted_value(&omitted)},
            }],
        }]);
    }
    log
}

fn log_of(files: &[FileEntry], diagnostics: &[Diagnostic], base: Option<Base<'_>>) -> Value {
    let mut codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
    codes.sort_unstable();
    codes.dedup();
    let mut firsts: std::collections::HashMap<&str, &Diagnostic> = std::collections::HashMap::new();
    for d in diagnostics {
        firsts.entry(d.code).or_insert(d);
    }
    let rules: Vec<Value> = codes
        .iter()
        .map(|code| {
            firsts
                .get(code)
                .map_or(Value::Null, |d| rule_descriptor(code, d))
        })
        .collect();
    let prints = fingerprints(files, diagnostics);
    let results: Vec<Value> = diagnostics
        .iter()
        .zip(prints)
        .map(|(d, print)| {
            let mut r = Map::new();
            r.insert("ruleId".into(), json!(d.code));
            let index = codes.binary_search(&d.code).unwrap_or_default();
            r.insert("ruleIndex".into(), json!(index));
            r.insert("level".into(), json!(level(d.severity)));
            r.insert("message".into(), text(&d.message));
            r.insert(
                "locations".into(),
                json!([{"physicalLocation": physical_location(files, d.file, d.span, base)}]),
            );
            r.insert("partialFingerprints".into(), json!({"flinklint/v1": print}));
            if !d.related.is_empty() {
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, rel)| {
                        json!({
                            "id": i,
                            "physicalLocation": physical_location(files, rel.file, rel.span, base),
                            "message": text(&rel.message),
                        })
                    })
                    .collect();
                r.insert("relatedLocations".into(), Value::Array(related));
            }
            if let Some(fix) = &d.fix {
                r.insert("fixes".into(), json!([fix_value(files, fix, base)]));
            }
            let mut props = Map::new();
            if let Some(help) = &d.help {
                props.insert("help".into(), json!(help));
            }
            if let Some(flink) = &d.flink_message {
                props.insert("flinkMessage".into(), json!(flink));
            }
            if !d.notes.is_empty() {
                props.insert("notes".into(), json!(d.notes));
            }
            if !props.is_empty() {
                r.insert("properties".into(), Value::Object(props));
            }
            Value::Object(r)
        })
        .collect();
    let mut run = json!({
        "tool": {
            "driver": {
                "name": "flinklint",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules,
            },
        },
        "columnKind": "unicodeCodePoints",
    });
    if let Some(base) = base.and_then(|b| base_uri(b.root)) {
        run["originalUriBaseIds"] = json!({ SRCROOT: {"uri": base} });
    }
    run["results"] = Value::Array(results);
    json!({
        "$schema": SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [run],
    })
}

/// The log, pretty-printed, with a trailing newline (without `originalUriBaseIds`: see
/// [`render_with_base`]).
pub fn render(files: &[FileEntry], diagnostics: &[Diagnostic]) -> String {
    render_limited(files, diagnostics, usize::MAX, None)
}

/// The log, pretty-printed, with a trailing newline; `base` is the absolute folder the
/// relative paths are relative to (the working directory), written as `originalUriBaseIds`.
pub fn render_with_base(
    files: &[FileEntry],
    diagnostics: &[Diagnostic],
    base: Option<&Path>,
) -> String {
    render_limited(files, diagnostics, usize::MAX, base.map(Base::at))
}

/// The log of the first `limit` diagnostics (see [`log_limited`]), pretty-printed; `base` as
/// in [`log_limited`].
pub fn render_limited(
    files: &[FileEntry],
    diagnostics: &[Diagnostic],
    limit: usize,
    base: Option<Base<'_>>,
) -> String {
    let log = log_limited(files, diagnostics, limit, base);
    let mut out = crate::source::escape::json_pretty(&log);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::{reflow, uri};

    #[test]
    fn reflow_joins_wrapped_lines_and_keeps_list_items() {
        let doc = "Reports a\nthing:\n- one,\n  wrapped\n- two\n\nWhy it\nmatters.\n";
        assert_eq!(
            reflow(doc),
            "Reports a thing:\n- one, wrapped\n- two\n\nWhy it matters."
        );
    }

    #[test]
    fn a_base_folder_becomes_a_file_uri_ending_in_a_slash() {
        use super::base_uri;
        use std::path::Path;
        assert_eq!(
            base_uri(Path::new("/srv/my sql")).as_deref(),
            Some("file:///srv/my%20sql/")
        );
        assert_eq!(base_uri(Path::new("/")).as_deref(), Some("file:///"));
        assert_eq!(base_uri(Path::new("sql")), None);
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("jobs/orders.sql"), "jobs/orders.sql");
        assert_eq!(uri("./a-b_c~d.sql"), "./a-b_c~d.sql");
        assert_eq!(uri("my jobs/100%.sql"), "my%20jobs/100%25.sql");
        assert_eq!(uri("a:b#c?.sql"), "a%3Ab%23c%3F.sql");
        assert_eq!(uri("<stdin>"), "%3Cstdin%3E");
        assert_eq!(uri("tables/été.sql"), "tables/%C3%A9t%C3%A9.sql");
        assert_eq!(uri("/srv/sql/a.sql"), "file:///srv/sql/a.sql");
        assert_eq!(uri("C:/sql/a b.sql"), "file:///C:/sql/a%20b.sql");
    }
}
