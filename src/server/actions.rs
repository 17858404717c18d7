//! Code actions: each finding's fix as a quick fix (an unsafe fix says so and is never the
//! preferred one), "ignore CODE for this statement" and "for this file" (the suppression
//! comments of [`crate::rules::suppression`]), and a source action that applies every safe fix
//! of the file.

// `lsp_types::WorkspaceEdit` keys its changes by `Uri`, whose parsed form caches positions in
// `Cell`s that never change its hash or equality (clippy cannot see that).
#![allow(clippy::mutable_key_type)]

use super::{convert, text};
use crate::diagnostics::{Applicability, Diagnostic};
use crate::fix::{apply_to_text, FixMode};
use crate::project::Outcome;
use crate::source::embedded::Format;
use crate::source::{FileId, Span};
use lsp_types as lsp;
use std::collections::HashMap;

/// The kind of the fix-all source action.
pub const FIX_ALL: &str = "source.fixAll.flinklint";

/// Whether `kind` is asked for by `only` (a requested kind covers its sub-kinds).
fn wanted(only: Option<&[lsp::CodeActionKind]>, kind: &str) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|o| {
            let o = o.as_str();
            kind == o || kind.starts_with(&format!("{o}."))
        })
    })
}

fn edit_of(changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>>) -> lsp::WorkspaceEdit {
    lsp::WorkspaceEdit {
        changes: Some(changes),
        ..lsp::WorkspaceEdit::default()
    }
}

/// The code actions of file `index` of `outcome` for the byte range `span`.
pub fn actions(
    outcome: &Outcome,
    index: usize,
    span: Span,
    only: Option<&[lsp::CodeActionKind]>,
    docs: Option<&str>,
) -> Vec<lsp::CodeActionOrCommand> {
    let file = &outcome.files[index];
    let Some(uri) = text::path_to_uri(&file.source.path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let in_file: Vec<&Diagnostic> = outcome.diagnostics_of(FileId(index as u32)).collect();
    for d in in_file
        .iter()
        .filter(|d| d.span.start <= span.end && d.span.end.max(d.span.start) >= span.start)
    {
        let lsp_diagnostic = convert::diagnostic(outcome, d, docs);
        if let Some(fix) = &d.fix {
            if wanted(only, lsp::CodeActionKind::QUICKFIX.as_str()) {
                let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
                let mut complete = true;
                for e in &fix.edits {
                    let target = outcome.files.get(e.file.0 as usize);
                    match target.and_then(|f| Some((f, text::path_to_uri(&f.source.path)?))) {
                        Some((f, u)) => changes.entry(u).or_default().push(lsp::TextEdit {
                            range: text::range(&f.source, e.span),
                            new_text: e.replacement.clone(),
                        }),
                        None => complete = false,
                    }
                }
                if complete && !changes.is_empty() {
                    let safe = fix.applicability == Applicability::Safe;
                    out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                        title: if safe {
                            format!("{} ({})", fix.title, d.code)
                        } else {
                            format!("{} ({}, unsafe: review the change)", fix.title, d.code)
                        },
                        kind: Some(lsp::CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![lsp_diagnostic.clone()]),
                        edit: Some(edit_of(changes)),
                        is_preferred: Some(safe),
                        ..lsp::CodeAction::default()
                    }));
                }
            }
        }
        if !wanted(only, lsp::CodeActionKind::QUICKFIX.as_str()) {
            continue;
        }
        let text = &*file.source.text;
        let format = Format::of(&file.source.path);
        // Ignore for this statement: a `--` comment on its own line before the statement.
        if let Some(statement) = file
            .parsed
            .script
            .statements
            .iter()
            .find(|s| s.span.start <= d.span.start && d.span.start <= s.span.end)
        {
            let at = statement.span.start as usize;
            let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |p| p + 1);
            let before = &text[line_start..at];
            let comment = format!("-- flinklint: ignore {}", d.code);
            let (offset, insert) = if before.trim().is_empty() {
                (line_start, format!("{before}{comment}\n"))
            } else {
                (at, format!("\n{comment}\n"))
            };
            let range = text::range(&file.source, Span::empty(offset as u32));
            out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("Ignore {} for this statement", d.code),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![lsp_diagnostic.clone()]),
                edit: Some(edit_of(HashMap::from([(
                    uri.clone(),
                    vec![lsp::TextEdit {
                        range,
                        new_text: insert,
                    }],
                )]))),
                is_preferred: Some(false),
                ..lsp::CodeAction::default()
            }));
        }
        // Ignore for this file: a directive on the first line (after a byte-order mark).
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let line = match format {
            Format::Sql => format!("-- flinklint: ignore-file {}\n", d.code),
            Format::Markdown => format!("<!-- flinklint: ignore-file {} -->\n", d.code),
            Format::Rst => format!(".. flinklint: ignore-file {}\n\n", d.code),
        };
        out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: format!("Ignore {} for this file", d.code),
            kind: Some(lsp::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp_diagnostic]),
            edit: Some(edit_of(HashMap::from([(
                uri.clone(),
                vec![lsp::TextEdit {
                    range: text::range(&file.source, Span::empty(start)),
                    new_text: line,
                }],
            )]))),
            is_preferred: Some(false),
            ..lsp::CodeAction::default()
        }));
    }
    if wanted(only, FIX_ALL) {
        if let Some(all) = fix_all(outcome, index) {
            out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: "Fix all safe flinklint findings".to_string(),
                kind: Some(lsp::CodeActionKind::from(FIX_ALL)),
                edit: Some(edit_of(HashMap::from([(uri, vec![all])]))),
                ..lsp::CodeAction::default()
            }));
        }
    }
    out
}

/// One edit that applies every safe fix of file `index` (the fixes that do not overlap).
pub fn fix_all(outcome: &Outcome, index: usize) -> Option<lsp::TextEdit> {
    let file = &outcome.files[index];
    let diagnostics: Vec<Diagnostic> = outcome
        .diagnostics_of(FileId(index as u32))
        .cloned()
        .collect();
    let fixed = apply_to_text(
        &file.source.text,
        FileId(index as u32),
        &diagnostics,
        FixMode::Safe,
    )?;
    Some(lsp::TextEdit {
        range: text::range(&file.source, Span::new(0, file.source.text.len())),
        new_text: fixed.text,
    })
}
