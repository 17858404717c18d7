//! Diagnostics: each check of the roots with changes, and what is published (pushed) or
//! reported (pulled) after it.

use super::{convert, path_of, startup, text, Server};
use lsp_types as lsp;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

impl Server<'_> {
    /// Checks every root with changes and publishes the diagnostics that changed.
    pub(super) fn flush(&mut self) {
        self.flush_all(false);
    }

    pub(super) fn flush_all(&mut self, everything: bool) {
        self.pending = None;
        let mut changed: Vec<(usize, PathBuf)> = Vec::new();
        let timings = std::env::var_os("FLINKLINT_TIMINGS").is_some();
        let mut first_checks = Vec::new();
        for i in 0..self.workspace.roots.len() {
            let root = &self.workspace.roots[i];
            if !root.dirty && root.project.outcome().is_some() {
                continue;
            }
            let first = root.project.outcome().is_none();
            if first && !everything && !self.caps.pull {
                let start = Instant::now();
                let early =
                    startup::early_diagnostics(root, &self.workspace.open, self.docs.as_deref());
                if timings {
                    eprintln!(
                        "timings: early check of the open documents of {}: {:.2} ms ({})",
                        root.dir.display(),
                        start.elapsed().as_secs_f64() * 1e3,
                        if early.is_some() {
                            "from the cache"
                        } else {
                            "cache cold"
                        }
                    );
                }
                for (path, diagnostics) in early.into_iter().flatten() {
                    self.publish(&path, diagnostics.clone());
                    self.early.insert(path, diagnostics);
                }
            }
            let root = &mut self.workspace.roots[i];
            root.dirty = false;
            let start = Instant::now();
            let paths = root.project.check();
            if timings {
                // On standard error, which the protocol leaves to the server's log.
                eprintln!(
                    "timings: check of {} ({} files): {:.2} ms, {} file(s) changed",
                    root.dir.display(),
                    root.project.paths().count(),
                    start.elapsed().as_secs_f64() * 1e3,
                    paths.len()
                );
                if let Some(o) = root.project.outcome() {
                    for (stage, took) in &o.timings {
                        eprintln!("timings:   {stage} {:.2} ms", took.as_secs_f64() * 1e3);
                    }
                }
            }
            if first {
                first_checks.push(i);
            }
            changed.extend(paths.into_iter().map(|p| (i, p)));
        }
        // Documents opened since the last check, whose diagnostics are published even when
        // unchanged or empty (a client then knows an opened document has been checked); and
        // documents the early diagnostics spoke of, which the whole check may find clean.
        let pull = self.caps.pull;
        let opened = std::mem::take(&mut self.just_opened);
        let early: Vec<PathBuf> = self.early.keys().cloned().collect();
        for path in opened.into_iter().filter(|_| !pull).chain(early) {
            if changed.iter().any(|(_, p)| *p == path) {
                continue;
            }
            if let Some(i) = self
                .workspace
                .roots
                .iter()
                .position(|r| r.project.role(&path) == Some(crate::project::Role::Reported))
            {
                changed.push((i, path));
            }
        }
        if everything {
            changed.clear();
            for (i, root) in self.workspace.roots.iter().enumerate() {
                if let Some(o) = root.project.outcome() {
                    changed.extend(convert::with_findings(o).into_iter().map(|p| (i, p)));
                }
            }
            let now: HashSet<&PathBuf> = changed.iter().map(|(_, p)| p).collect();
            let gone: Vec<PathBuf> = self
                .published
                .iter()
                .filter(|p| !now.contains(p))
                .cloned()
                .collect();
            for path in gone {
                self.publish_empty(&path);
            }
        }
        // Files no root reports any more (deleted, closed outside the project).
        let stale: Vec<PathBuf> = self
            .published
            .iter()
            .filter(|p| self.workspace.reporting_root(p).is_none())
            .cloned()
            .collect();
        for path in stale {
            self.publish_empty(&path);
        }
        if self.caps.pull {
            if self.caps.refresh && !changed.is_empty() {
                self.request("workspace/diagnostic/refresh", ());
            }
        } else {
            self.publish_changed(changed);
        }
        self.early.clear();
        self.check_scratches(everything);
        // The first check of a project: what its files create and use, for the next start.
        for i in first_checks {
            let start = Instant::now();
            let written = startup::record(&self.workspace.roots[i]);
            if timings {
                eprintln!(
                    "timings: {written} context cache entries written: {:.2} ms",
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
        }
    }

    /// Publishes the diagnostics of the files in `changed` (by root), but for an open
    /// document whose early diagnostics ([`startup`]) were the same.
    pub(super) fn publish_changed(&mut self, changed: Vec<(usize, PathBuf)>) {
        for (i, path) in changed {
            let root = &self.workspace.roots[i];
            if root.project.role(&path) != Some(crate::project::Role::Reported) {
                continue;
            }
            let Some(outcome) = root.project.outcome() else {
                continue;
            };
            let Some(index) = convert::file_index(outcome, &path) else {
                continue;
            };
            let diagnostics = convert::diagnostics_of(outcome, index, self.docs.as_deref());
            if self.early.remove(&path).as_ref() == Some(&diagnostics) {
                continue;
            }
            self.publish(&path, diagnostics);
        }
    }

    pub(super) fn publish(&mut self, path: &Path, diagnostics: Vec<lsp::Diagnostic>) {
        let Some(uri) = text::path_to_uri(path) else {
            return;
        };
        if diagnostics.is_empty() {
            self.published.remove(path);
        } else {
            self.published.insert(path.to_path_buf());
        }
        let version = self.workspace.open.get(path).map(|(_, v)| *v);
        self.notify(
            "textDocument/publishDiagnostics",
            lsp::PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            },
        );
    }

    pub(super) fn publish_empty(&mut self, path: &Path) {
        if self.caps.pull {
            self.published.remove(path);
            return;
        }
        self.publish(path, Vec::new());
    }

    /// The report of one file for a pulling client, and its result id.
    pub(super) fn report(&self, path: &Path) -> (Vec<lsp::Diagnostic>, String) {
        let diagnostics = self
            .workspace
            .reporting_root(path)
            .and_then(|root| {
                let outcome = root.project.outcome()?;
                let index = convert::file_index(outcome, path)?;
                Some(convert::diagnostics_of(
                    outcome,
                    index,
                    self.docs.as_deref(),
                ))
            })
            .unwrap_or_default();
        let id = result_id(&diagnostics);
        (diagnostics, id)
    }

    pub(super) fn pull(
        &mut self,
        p: lsp::DocumentDiagnosticParams,
    ) -> lsp::DocumentDiagnosticReportResult {
        let path = path_of(&p.text_document.uri).unwrap_or_default();
        let (items, id) = match self.scratch_diagnostics(&p.text_document.uri) {
            Some(items) => {
                let id = result_id(&items);
                (items, id)
            }
            None => {
                let (items, id) = self.report(&path);
                self.result_ids.insert(path, id.clone());
                (items, id)
            }
        };
        let report = if p.previous_result_id.as_deref() == Some(id.as_str()) {
            lsp::DocumentDiagnosticReport::Unchanged(
                lsp::RelatedUnchangedDocumentDiagnosticReport {
                    related_documents: None,
                    unchanged_document_diagnostic_report: lsp::UnchangedDocumentDiagnosticReport {
                        result_id: id,
                    },
                },
            )
        } else {
            lsp::DocumentDiagnosticReport::Full(lsp::RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                    result_id: Some(id),
                    items,
                },
            })
        };
        lsp::DocumentDiagnosticReportResult::Report(report)
    }

    pub(super) fn pull_workspace(
        &mut self,
        p: lsp::WorkspaceDiagnosticParams,
    ) -> lsp::WorkspaceDiagnosticReportResult {
        let previous: HashMap<PathBuf, String> = p
            .previous_result_ids
            .iter()
            .filter_map(|r| Some((path_of(&r.uri)?, r.value.clone())))
            .collect();
        let mut paths: Vec<PathBuf> = previous.keys().cloned().collect();
        for root in &self.workspace.roots {
            if let Some(o) = root.project.outcome() {
                paths.extend(convert::with_findings(o));
            }
        }
        paths.sort();
        paths.dedup();
        let mut items = Vec::new();
        for path in paths {
            let Some(uri) = text::path_to_uri(&path) else {
                continue;
            };
            let (diagnostics, id) = self.report(&path);
            let version = self.workspace.open.get(&path).map(|(_, v)| i64::from(*v));
            if previous.get(&path) == Some(&id) {
                items.push(lsp::WorkspaceDocumentDiagnosticReport::Unchanged(
                    lsp::WorkspaceUnchangedDocumentDiagnosticReport {
                        uri,
                        version,
                        unchanged_document_diagnostic_report:
                            lsp::UnchangedDocumentDiagnosticReport { result_id: id },
                    },
                ));
            } else {
                items.push(lsp::WorkspaceDocumentDiagnosticReport::Full(
                    lsp::WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version,
                        full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                            result_id: Some(id),
                            items: diagnostics,
                        },
                    },
                ));
            }
        }
        lsp::WorkspaceDiagnosticReportResult::Report(lsp::WorkspaceDiagnosticReport { items })
    }
}

/// The result id of a pulled report: a hash of its diagnostics (the same diagnostics, the
/// same id: the client is told they are unchanged).
fn result_id(diagnostics: &[lsp::Diagnostic]) -> String {
    let json = serde_json::to_string(diagnostics).unwrap_or_default();
    format!("{:016x}", crate::diagnostics::fnv1a64(json.as_bytes()))
}
