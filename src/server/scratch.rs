//! Documents that are not files: the buffers an editor has not saved yet (`untitled:` URIs).
//! Each is checked on its own, as `flinklint check -` checks standard input: one script in its
//! own session, with the settings of the first workspace folder's project (its target, rules
//! and external tables), and its diagnostics published under its URI. Requests that read a
//! project (hover, definitions, code actions) have nothing to say of them.

use super::{convert, text, Server};
use lsp_types as lsp;
use std::collections::HashMap;
use std::sync::Arc;

/// The URI scheme of unsaved buffers (VS Code, and the LSP clients that follow it).
const UNTITLED: &str = "untitled";

/// One open document that is not a file.
pub(super) struct Scratch {
    pub(super) uri: lsp::Uri,
    pub(super) text: Arc<str>,
    pub(super) version: i32,
    /// Its diagnostics since its last check; `None` while a check is due.
    pub(super) diagnostics: Option<Vec<lsp::Diagnostic>>,
}

/// The open documents that are not files, by URI.
pub(super) type Scratches = HashMap<String, Scratch>;

/// Whether a document opened with `uri` and `language` is an unsaved buffer of SQL that the
/// server checks on its own (`sql`, `flinksql`, ... as the client names the language).
pub(super) fn is_scratch(uri: &lsp::Uri, language: &str) -> bool {
    let scheme = uri.as_str().split(':').next().unwrap_or_default();
    scheme.eq_ignore_ascii_case(UNTITLED) && language.to_ascii_lowercase().contains("sql")
}

impl Server<'_> {
    /// Opens (or replaces) the buffer at `uri`.
    pub(super) fn open_scratch(&mut self, uri: lsp::Uri, text: String, version: i32) {
        let key = uri.as_str().to_string();
        let scratch = Scratch {
            uri,
            text: Arc::from(text),
            version,
            diagnostics: None,
        };
        self.scratch.insert(key, scratch);
        self.changed();
    }

    /// Applies `changes` to the buffer at `uri` (when it is one).
    pub(super) fn change_scratch(
        &mut self,
        uri: &lsp::Uri,
        version: i32,
        changes: Vec<lsp::TextDocumentContentChangeEvent>,
    ) {
        let Some(scratch) = self.scratch.get_mut(uri.as_str()) else {
            return;
        };
        scratch.text = Arc::from(text::apply_changes(&scratch.text, changes));
        scratch.version = version;
        scratch.diagnostics = None;
        self.changed();
    }

    /// Closes the buffer at `uri` (its diagnostics cleared); `false` when it is not one.
    pub(super) fn close_scratch(&mut self, uri: &lsp::Uri) -> bool {
        let Some(scratch) = self.scratch.remove(uri.as_str()) else {
            return false;
        };
        if !self.caps.pull {
            self.notify(
                "textDocument/publishDiagnostics",
                lsp::PublishDiagnosticsParams {
                    uri: scratch.uri,
                    diagnostics: Vec::new(),
                    version: None,
                },
            );
        }
        true
    }

    /// Checks the buffers whose check is due (all of them when `everything`) and, for a client
    /// that does not pull diagnostics, publishes them.
    pub(super) fn check_scratches(&mut self, everything: bool) {
        if self.scratch.is_empty() {
            return;
        }
        let settings = self
            .workspace
            .roots
            .first()
            .map(|root| root.project.settings().clone())
            .unwrap_or_default();
        let mut checked = Vec::new();
        for (key, scratch) in &mut self.scratch {
            if scratch.diagnostics.is_some() && !everything {
                continue;
            }
            // The buffer's name as the editor shows it (`Untitled-1`).
            let name = scratch
                .uri
                .as_str()
                .split_once(':')
                .map_or("", |(_, n)| n)
                .to_string();
            let outcome =
                crate::project::check_texts(&[(name, scratch.text.to_string())], &settings);
            scratch.diagnostics = Some(convert::diagnostics_of(&outcome, 0, self.docs.as_deref()));
            checked.push(key.clone());
        }
        if self.caps.pull {
            return;
        }
        for key in checked {
            let scratch = &self.scratch[&key];
            self.notify(
                "textDocument/publishDiagnostics",
                lsp::PublishDiagnosticsParams {
                    uri: scratch.uri.clone(),
                    diagnostics: scratch.diagnostics.clone().unwrap_or_default(),
                    version: Some(scratch.version),
                },
            );
        }
    }

    /// The diagnostics of the buffer at `uri`, for a client that pulls them.
    pub(super) fn scratch_diagnostics(&mut self, uri: &lsp::Uri) -> Option<Vec<lsp::Diagnostic>> {
        if self
            .scratch
            .get(uri.as_str())
            .is_some_and(|s| s.diagnostics.is_none())
        {
            self.check_scratches(false);
        }
        self.scratch.get(uri.as_str())?.diagnostics.clone()
    }
}
