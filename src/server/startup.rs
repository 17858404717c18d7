//! The first diagnostics of the documents open when a project is loaded, before the whole
//! project is checked, from the context cache that `flinklint check` keeps
//! ([`crate::discover::cache`], `.flinklint_cache/`): with a warm cache, the context files an
//! open document needs are known without parsing the project, and a check of the document and
//! those files gives its findings, those of a check of the whole project. The whole project is
//! checked right after (and its diagnostics published where they differ); after that check the
//! server records in the cache the summaries of the files it parsed, so that the next start is
//! warm even when `flinklint check` never ran.
//!
//! The cache is trusted only as far as the command line trusts it: an entry counts when the
//! file's size and time (to the nanosecond) are unchanged, its content hash where the time is
//! too close to the cache's writing; with more than a twentieth of the files stale, the cache
//! is cold and the project is checked whole at once. A document whose text differs from the
//! file on disk is not checked early (what it creates and uses is not what the cache says).

use super::convert;
use super::workspace::Root;
use crate::discover::{cache, Input};
use crate::project::{Loaded, Role};
use crate::source::SourceFile;
use lsp_types as lsp;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The diagnostics of the open documents of `root` from a check of them and the context files
/// the cache says they need; `None` when the cache cannot tell (cold, missing, or every file
/// is needed) or no open document is one of the root's files as the disk has it.
pub fn early_diagnostics(
    root: &Root,
    open: &HashMap<PathBuf, (Arc<str>, i32)>,
    docs: Option<&str>,
) -> Option<Vec<(PathBuf, Vec<lsp::Diagnostic>)>> {
    let project = &root.project;
    let mut documents: Vec<PathBuf> = open
        .iter()
        .filter(|(path, (text, _))| {
            project.role(path) == Some(Role::Reported)
                && crate::files::read_file(path, crate::files::SQL_LIMIT)
                    .is_ok_and(|bytes| bytes == text.as_bytes())
        })
        .map(|(path, _)| path.clone())
        .collect();
    if documents.is_empty() {
        return None;
    }
    documents.sort();
    let settings = project.settings();
    let inputs: Vec<Input> = documents.iter().cloned().map(Input::File).collect();
    let context: Vec<Input> = project
        .paths()
        .filter(|p| !documents.iter().any(|d| d == p))
        .map(|p| Input::File(p.to_path_buf()))
        .collect();
    let max_stale = context.len() / 20;
    let (chosen, _) = cache::warm_context(
        &inputs,
        &context,
        settings,
        &cache::cache_dir(settings),
        max_stale,
    )?;
    let loaded: Vec<Loaded> = inputs
        .iter()
        .map(|i| (i, true))
        .chain(chosen.iter().map(|i| (i, false)))
        .filter_map(|(input, report)| {
            let path = input.path();
            let text = project.text(path)?;
            Some(Loaded {
                source: SourceFile::new(path, text.clone()),
                load_error: None,
                report,
                base_of: None,
            })
        })
        .collect();
    let outcome = crate::project::check_loaded(loaded, settings);
    Some(
        documents
            .into_iter()
            .filter_map(|path| {
                let index = convert::file_index(&outcome, &path)?;
                Some((path, convert::diagnostics_of(&outcome, index, docs)))
            })
            .collect(),
    )
}

/// Records in the context cache the summaries of the files of `root` its check parsed (see
/// [`cache::record`]).
pub fn record(root: &Root) -> usize {
    let settings = root.project.settings();
    cache::record(&cache::cache_dir(settings), &root.project.parsed_files())
}
