//! What rules read: the run's settings and files and the semantic model ([`Context`]), with
//! the helpers that print positions and parse errors as Flink does.

use super::suppression::Suppressions;
use crate::config::{Settings, SettingsByFile, Target};
use crate::files::FileEntry;
use crate::semantic::catalog::Origin;
use crate::semantic::Model;
use crate::source::FileId;

/// What rules can read: settings, every file of the run, and the semantic model.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The run's settings. Settings that `overrides` change per file (target, rule levels) are
    /// read with [`Context::settings_for`] / [`Context::target`].
    pub settings: &'a Settings,
    /// Each file's settings (the run's with the matching `overrides` applied).
    pub by_file: &'a SettingsByFile<'a>,
    /// Every file, in run order.
    pub files: &'a [FileEntry],
    /// Catalog sessions and the problems they found.
    pub model: &'a Model,
    /// The suppression comments and what they matched: set only for the rules that run after
    /// suppressions were applied ([`super::Rule::after_suppressions`]).
    pub suppressions: Option<&'a Suppressions>,
}

impl Context<'_> {
    /// The file with this id.
    pub fn file(&self, id: FileId) -> &FileEntry {
        &self.files[id.0 as usize]
    }
    /// The settings of one file: the run's, with the `overrides` that match its path.
    pub fn settings_for(&self, file: FileId) -> &Settings {
        self.by_file.get(file.0 as usize)
    }
    /// The target of one file (`--target`, else the last matching override's, else the
    /// config's).
    pub fn target(&self, file: FileId) -> Target {
        self.settings_for(file).target
    }
    /// A position as Flink's messages print it: "line L, column C", relative to the start of
    /// the statement (Flink parses each statement on its own).
    pub fn flink_position(
        &self,
        file: FileId,
        statement: crate::source::Span,
        offset: u32,
    ) -> String {
        let source = &self.file(file).source;
        let start = source.line_col(statement.start);
        let at = source.line_col(offset);
        let line = at.line - start.line + 1;
        let column = if at.line == start.line {
            at.column - start.column + 1
        } else {
            at.column
        };
        format!("line {line}, column {column}")
    }
    /// Flink's parse error `Encountered "<token>" at line L, column C.` for the token at `at`
    /// (an empty span: end of input), with JavaCC's list of what it expected (empty: no list).
    pub fn flink_encountered(
        &self,
        file: FileId,
        statement: crate::source::Span,
        at: crate::source::Span,
        expected: &[&str],
    ) -> String {
        let text = self.file(file).source.slice(at);
        let image = if text.is_empty() {
            "<EOF>".to_string()
        } else {
            javacc_escape(text)
        };
        let mut out = format!(
            "Encountered \"{image}\" at {}.",
            self.flink_position(file, statement, at.start)
        );
        match expected {
            [] => {}
            [one] => out.push_str(&format!("\nWas expecting:\n    {one} ...")),
            many => {
                out.push_str("\nWas expecting one of:");
                for e in many {
                    out.push_str(&format!("\n    {e} ..."));
                }
            }
        }
        out
    }
    /// What Flink prints for a syntax error, when the parser knows it. Only the first error of
    /// a statement has one: Flink stops there.
    pub fn flink_syntax_message(
        &self,
        file: &FileEntry,
        error: &crate::syntax::SyntaxError,
    ) -> Option<String> {
        let flink = error.flink.as_ref()?;
        // The statement the error is in (or right after, at its `;`).
        let statements = &file.parsed.script.statements;
        let index = statements
            .iter()
            .rposition(|s| s.span.start <= error.span.start)?;
        let statement = &statements[index];
        let next = statements.get(index + 1).map_or(u32::MAX, |s| s.span.start);
        let first = file
            .parsed
            .errors
            .iter()
            .find(|e| e.span.start >= statement.span.start && e.span.start < next)?;
        if first.span != error.span || first.message != error.message {
            return None;
        }
        Some(match flink {
            crate::syntax::FlinkSyntax::Verbatim(text) => text.clone(),
            crate::syntax::FlinkSyntax::Encountered { at, expected } => {
                self.flink_encountered(file.id, statement.span, *at, expected)
            }
        })
    }
    /// `path:line:col` of a location, for messages.
    pub fn locate(&self, origin: Origin) -> String {
        let file = self.file(origin.file);
        let at = file.source.line_col(origin.span.start);
        format!("{}:{}:{}", file.source.display_path(), at.line, at.column)
    }
}

/// A token's text as JavaCC's `ParseException` prints it (quotes, backslashes, control and
/// non-ASCII characters escaped).
fn javacc_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out
}
