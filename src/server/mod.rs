//! The language server (`flinklint server`): the Language Server Protocol 3.17 over a
//! [`lsp_server::Connection`] (standard input and output for the command, a pair of channels
//! in tests).
//!
//! The server holds each configuration root's files in a [`crate::project::Project`]
//! ([`workspace`]); an open document's unsaved text replaces the file's. Changes are debounced
//! ([`DEBOUNCE`]): when the messages stop, each changed project is checked again and the
//! diagnostics of every file whose findings changed are published (pushed with
//! `textDocument/publishDiagnostics`, or, for a client that pulls them, announced with
//! `workspace/diagnostic/refresh`), so an edit of a `LIKE` parent updates its children in
//! other files. Every request is answered from a check of the latest texts.
//!
//! Nothing a client sends ends the server but `exit` (or the end of its input): a request that
//! cannot be parsed gets an "invalid params" error, an unknown one "method not found", and a
//! notification that makes no sense is ignored.

mod actions;
mod convert;
mod navigate;
mod publish;
mod scratch;
mod startup;
pub mod text;
pub mod transport;
mod workspace;

use crossbeam_channel::RecvTimeoutError;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use workspace::Workspace;

/// How long the server waits after a change for more changes before it checks again: a burst
/// of changes (a paste, a multi-cursor edit, a client's save sequence) is checked once.
/// Messages already queued are always read before a check.
pub const DEBOUNCE: Duration = Duration::from_millis(5);

/// How a server's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `exit` after `shutdown`, or the end of the input.
    Cleanly,
    /// `exit` without a `shutdown` first: the process exits with 1, as the LSP specification
    /// asks of the `exit` notification.
    ExitWithoutShutdown,
}

/// Runs the server on standard input and output until `exit` or the end of the input.
pub fn run_stdio() -> Result<Ended, String> {
    let (connection, io) = transport::stdio();
    let result = serve(&connection);
    drop(connection);
    io.join();
    result
}

/// Runs the server on `connection` until `exit` or until the client goes away.
pub fn run(connection: &Connection) -> Result<(), String> {
    serve(connection).map(|_| ())
}

/// [`run`], saying how the run ended.
pub fn serve(connection: &Connection) -> Result<Ended, String> {
    let Some((id, params)) = wait_for_initialize(connection) else {
        return Ok(Ended::Cleanly);
    };
    let mut server = Server::new(connection, &params);
    server.send(Response::new_ok(id, server.capabilities()).into());
    server.start();
    Ok(server.main_loop())
}

/// Answers requests before `initialize` with "server not initialized"; returns the
/// `initialize` request (`None` when the client leaves first).
fn wait_for_initialize(connection: &Connection) -> Option<(RequestId, lsp::InitializeParams)> {
    loop {
        match connection.receiver.recv().ok()? {
            Message::Request(req) if req.method == "initialize" => {
                match serde_json::from_value::<lsp::InitializeParams>(req.params) {
                    Ok(params) => return Some((req.id, params)),
                    Err(e) => {
                        let _ = connection.sender.send(
                            Response::new_err(
                                req.id,
                                ErrorCode::InvalidParams as i32,
                                format!("invalid initialize parameters: {e}"),
                            )
                            .into(),
                        );
                    }
                }
            }
            Message::Request(req) => {
                let _ = connection.sender.send(
                    Response::new_err(
                        req.id,
                        ErrorCode::ServerNotInitialized as i32,
                        "the server is not initialized".to_string(),
                    )
                    .into(),
                );
            }
            Message::Notification(n) if n.method == "exit" => return None,
            _ => {}
        }
    }
}

/// What the client said it can do.
#[derive(Default)]
struct ClientCaps {
    /// It pulls diagnostics (`textDocument/diagnostic`).
    pull: bool,
    /// It accepts `workspace/diagnostic/refresh`.
    refresh: bool,
    /// It accepts registrations of watched files.
    watch: bool,
}

struct Server<'c> {
    connection: &'c Connection,
    caps: ClientCaps,
    workspace: Workspace,
    /// When the last change arrived, while a check is due.
    pending: Option<Instant>,
    /// Documents opened since the last check, whose diagnostics the check publishes even when
    /// they did not change.
    just_opened: Vec<PathBuf>,
    /// Files whose published (pushed) diagnostics are not empty.
    published: HashSet<PathBuf>,
    /// For a pulling client: the result id of each file's last report.
    result_ids: HashMap<PathBuf, String>,
    /// A template of the rules' documentation links (`{code}`), from `initializationOptions`.
    docs: Option<String>,
    /// The diagnostics published for open documents before their project's first whole check
    /// ([`startup`]), until that check publishes its own.
    early: HashMap<PathBuf, Vec<lsp::Diagnostic>>,
    /// Open documents that are not files (unsaved buffers), checked on their own.
    scratch: scratch::Scratches,
    next_id: i32,
    shutdown: bool,
}

/// `file:` URI of a text document parameter.
fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    text::uri_to_path(uri)
}

impl<'c> Server<'c> {
    fn new(connection: &'c Connection, params: &lsp::InitializeParams) -> Server<'c> {
        let caps = &params.capabilities;
        let pull = caps
            .text_document
            .as_ref()
            .and_then(|t| t.diagnostic.as_ref())
            .is_some();
        let refresh = caps
            .workspace
            .as_ref()
            .and_then(|w| w.diagnostic.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false);
        let watch = caps
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        let mut workspace = Workspace::default();
        let mut folders: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|f| path_of(&f.uri))
            .collect();
        #[allow(deprecated)]
        if folders.is_empty() {
            if let Some(root) = params.root_uri.as_ref().and_then(path_of) {
                folders.push(root);
            }
        }
        workspace.folders = folders;
        let docs = params
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("docsUrl"))
            .and_then(|v| v.as_str())
            .map(str::to_string);
        Server {
            connection,
            caps: ClientCaps {
                pull,
                refresh,
                watch,
            },
            workspace,
            pending: None,
            just_opened: Vec::new(),
            published: HashSet::new(),
            result_ids: HashMap::new(),
            docs,
            early: HashMap::new(),
            scratch: scratch::Scratches::new(),
            next_id: 0,
            shutdown: false,
        }
    }

    fn capabilities(&self) -> lsp::InitializeResult {
        let capabilities = lsp::ServerCapabilities {
            position_encoding: Some(lsp::PositionEncodingKind::UTF16),
            text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
                lsp::TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                    save: Some(lsp::TextDocumentSyncSaveOptions::SaveOptions(
                        lsp::SaveOptions {
                            include_text: Some(false),
                        },
                    )),
                    ..lsp::TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
            definition_provider: Some(lsp::OneOf::Left(true)),
            references_provider: Some(lsp::OneOf::Left(true)),
            document_symbol_provider: Some(lsp::OneOf::Left(true)),
            code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
                lsp::CodeActionOptions {
                    code_action_kinds: Some(vec![
                        lsp::CodeActionKind::QUICKFIX,
                        lsp::CodeActionKind::from(actions::FIX_ALL),
                    ]),
                    ..lsp::CodeActionOptions::default()
                },
            )),
            diagnostic_provider: self.caps.pull.then(|| {
                lsp::DiagnosticServerCapabilities::Options(lsp::DiagnosticOptions {
                    identifier: Some("flinklint".to_string()),
                    inter_file_dependencies: true,
                    workspace_diagnostics: true,
                    ..lsp::DiagnosticOptions::default()
                })
            }),
            workspace: Some(lsp::WorkspaceServerCapabilities {
                workspace_folders: Some(lsp::WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(lsp::OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            ..lsp::ServerCapabilities::default()
        };
        lsp::InitializeResult {
            capabilities,
            server_info: Some(lsp::ServerInfo {
                name: "flinklint".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        }
    }

    /// After `initialize`: watch the configuration and SQL files, load the workspace folders.
    fn start(&mut self) {
        if self.caps.watch {
            let options = lsp::DidChangeWatchedFilesRegistrationOptions {
                watchers: ["**/.flinklint.yaml", "**/*.sql", "**/*.md", "**/*.rst"]
                    .iter()
                    .map(|g| lsp::FileSystemWatcher {
                        glob_pattern: lsp::GlobPattern::String(g.to_string()),
                        kind: None,
                    })
                    .collect(),
            };
            let params = lsp::RegistrationParams {
                registrations: vec![lsp::Registration {
                    id: "flinklint-watch".to_string(),
                    method: "workspace/didChangeWatchedFiles".to_string(),
                    register_options: serde_json::to_value(options).ok(),
                }],
            };
            self.request("client/registerCapability", params);
        }
        let folders = self.workspace.folders.clone();
        let mut messages = Vec::new();
        for folder in folders {
            let dir = self.workspace.root_dir_of_folder(&folder);
            self.workspace.ensure_root(&dir, &mut messages);
        }
        self.show(messages);
        // The first check waits for the debounce: the documents a client opens right after
        // `initialized` are then open for it (and checked first, see [`startup`]).
        self.pending = Some(Instant::now());
    }

    fn send(&self, message: Message) {
        let _ = self.connection.sender.send(message);
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        self.send(Notification::new(method.to_string(), params).into());
    }

    fn request(&mut self, method: &str, params: impl serde::Serialize) {
        self.next_id += 1;
        let id = RequestId::from(format!("flinklint-{}", self.next_id));
        self.send(Request::new(id, method.to_string(), params).into());
    }

    fn show(&self, messages: Vec<String>) {
        for message in messages {
            self.notify(
                "window/showMessage",
                lsp::ShowMessageParams {
                    typ: lsp::MessageType::ERROR,
                    message: format!("flinklint: {message}"),
                },
            );
        }
    }

    fn main_loop(&mut self) -> Ended {
        loop {
            let message = match self.pending {
                Some(since) => {
                    let wait = DEBOUNCE.saturating_sub(since.elapsed());
                    match self.connection.receiver.recv_timeout(wait) {
                        Ok(m) => m,
                        Err(RecvTimeoutError::Timeout) => {
                            self.flush();
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return Ended::Cleanly,
                    }
                }
                None => match self.connection.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ended::Cleanly,
                },
            };
            match message {
                Message::Request(req) => {
                    let response = self.request_response(req);
                    self.send(response.into());
                }
                Message::Notification(n) => {
                    if n.method == "exit" {
                        return match self.shutdown {
                            true => Ended::Cleanly,
                            false => Ended::ExitWithoutShutdown,
                        };
                    }
                    if !self.shutdown {
                        self.notification(n);
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    fn request_response(&mut self, req: Request) -> Response {
        if self.shutdown {
            return Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_string(),
            );
        }
        if req.method == "shutdown" {
            self.shutdown = true;
            return Response::new_ok(req.id, ());
        }
        if req.method == "initialize" {
            return Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "the server is already initialized".to_string(),
            );
        }
        if self.pending.is_some() {
            self.flush();
        }
        let id = req.id.clone();
        let result = match req.method.as_str() {
            "textDocument/hover" => self.parse(req).map(|p| to_value(self.hover(p))),
            "textDocument/definition" => self.parse(req).map(|p| to_value(self.definition(p))),
            "textDocument/references" => self.parse(req).map(|p| to_value(self.references(p))),
            "textDocument/documentSymbol" => self.parse(req).map(|p| to_value(self.symbols(p))),
            "textDocument/codeAction" => self.parse(req).map(|p| to_value(self.code_actions(p))),
            "textDocument/diagnostic" => self.parse(req).map(|p| to_value(self.pull(p))),
            "workspace/diagnostic" => self.parse(req).map(|p| to_value(self.pull_workspace(p))),
            other => Err((
                ErrorCode::MethodNotFound,
                format!("unknown method `{other}`"),
            )),
        };
        match result {
            Ok(value) => Response {
                id,
                result: Some(value),
                error: None,
            },
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn parse<P: serde::de::DeserializeOwned>(
        &self,
        req: Request,
    ) -> Result<P, (ErrorCode, String)> {
        serde_json::from_value(req.params).map_err(|e| {
            (
                ErrorCode::InvalidParams,
                format!("invalid parameters of `{}`: {e}", req.method),
            )
        })
    }

    fn notification(&mut self, n: Notification) {
        let params = n.params;
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(params) {
                    self.did_open(p);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(params) {
                    self.did_change(p);
                }
            }
            "textDocument/didSave" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(params) {
                    self.did_save(p);
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(params) {
                    self.did_close(p);
                }
            }
            "workspace/didChangeWatchedFiles" => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(params) {
                    self.watched(p);
                }
            }
            "workspace/didChangeConfiguration" => {
                // The client's settings for the server (`flinklint.docsUrl`, when it sends
                // them), and whatever changed in the configuration files: reloaded either way.
                let docs = params
                    .get("settings")
                    .map(|s| s.get("flinklint").unwrap_or(s))
                    .and_then(|s| s.get("docsUrl"))
                    .and_then(|v| v.as_str());
                if let Some(docs) = docs {
                    self.docs = (!docs.is_empty()).then(|| docs.to_string());
                }
                self.reload();
            }
            "workspace/didChangeWorkspaceFolders" => {
                if let Ok(p) =
                    serde_json::from_value::<lsp::DidChangeWorkspaceFoldersParams>(params)
                {
                    for f in &p.event.removed {
                        if let Some(path) = path_of(&f.uri) {
                            self.workspace.folders.retain(|x| *x != path);
                        }
                    }
                    for f in &p.event.added {
                        if let Some(path) = path_of(&f.uri) {
                            self.workspace.folders.push(path);
                        }
                    }
                    self.reload();
                }
            }
            _ => {}
        }
    }

    fn changed(&mut self) {
        self.pending = Some(Instant::now());
    }

    fn did_open(&mut self, p: lsp::DidOpenTextDocumentParams) {
        let document = p.text_document;
        if scratch::is_scratch(&document.uri, &document.language_id) {
            self.open_scratch(document.uri, document.text, document.version);
            return;
        }
        let p = lsp::DidOpenTextDocumentParams {
            text_document: document,
        };
        let Some(path) = path_of(&p.text_document.uri) else {
            return;
        };
        let text: Arc<str> = Arc::from(p.text_document.text);
        self.workspace
            .open
            .insert(path.clone(), (text.clone(), p.text_document.version));
        self.just_opened.push(path.clone());
        let mut messages = Vec::new();
        match undecodable(&path, &text) {
            Some(error) => self.workspace.set_unreadable(&path, &error, &mut messages),
            None => self.workspace.set_text(&path, text, &mut messages),
        }
        self.show(messages);
        self.changed();
    }

    fn did_change(&mut self, p: lsp::DidChangeTextDocumentParams) {
        let document = p.text_document;
        if self.scratch.contains_key(document.uri.as_str()) {
            self.change_scratch(&document.uri, document.version, p.content_changes);
            return;
        }
        let Some(path) = path_of(&document.uri) else {
            return;
        };
        let Some((current, _)) = self.workspace.open.get(&path) else {
            return;
        };
        let text: Arc<str> = Arc::from(text::apply_changes(current, p.content_changes));
        self.workspace
            .open
            .insert(path.clone(), (text.clone(), document.version));
        let mut messages = Vec::new();
        self.workspace.set_text(&path, text, &mut messages);
        self.show(messages);
        self.changed();
    }

    fn did_save(&mut self, p: lsp::DidSaveTextDocumentParams) {
        let Some(path) = path_of(&p.text_document.uri) else {
            return;
        };
        if path
            .file_name()
            .is_some_and(|n| n == crate::config::load::CONFIG_FILE)
        {
            self.reload();
            return;
        }
        if let (Some(text), true) = (p.text, self.workspace.open.contains_key(&path)) {
            let version = self.workspace.open[&path].1;
            let text: Arc<str> = Arc::from(text);
            self.workspace
                .open
                .insert(path.clone(), (text.clone(), version));
            let mut messages = Vec::new();
            self.workspace.set_text(&path, text, &mut messages);
            self.show(messages);
        }
        self.changed();
    }

    fn did_close(&mut self, p: lsp::DidCloseTextDocumentParams) {
        if self.close_scratch(&p.text_document.uri) {
            return;
        }
        let Some(path) = path_of(&p.text_document.uri) else {
            return;
        };
        if self.workspace.open.remove(&path).is_none() {
            return;
        }
        self.workspace.refresh_from_disk(&path);
        self.changed();
    }

    fn watched(&mut self, p: lsp::DidChangeWatchedFilesParams) {
        let paths: Vec<PathBuf> = p.changes.iter().filter_map(|c| path_of(&c.uri)).collect();
        if paths.iter().any(|p| {
            p.file_name()
                .is_some_and(|n| n == crate::config::load::CONFIG_FILE)
        }) {
            self.reload();
            return;
        }
        for path in paths {
            self.workspace.refresh_from_disk(&path);
        }
        self.changed();
    }

    /// Configuration changed: every root is loaded again, and every file's diagnostics are
    /// published again (cleared where the new settings find nothing).
    fn reload(&mut self) {
        self.workspace.clear();
        let mut messages = Vec::new();
        for folder in self.workspace.folders.clone() {
            let dir = self.workspace.root_dir_of_folder(&folder);
            self.workspace.ensure_root(&dir, &mut messages);
        }
        let open: Vec<(PathBuf, Arc<str>)> = self
            .workspace
            .open
            .iter()
            .map(|(p, (t, _))| (p.clone(), t.clone()))
            .collect();
        for (path, text) in open {
            self.workspace.set_text(&path, text, &mut messages);
        }
        self.show(messages);
        self.flush_all(true);
    }

    /// The root reading `path`, its outcome and the file's index in it.
    fn file(&self, uri: &lsp::Uri) -> Option<(&workspace::Root, usize)> {
        let path = path_of(uri)?;
        let root = self.workspace.reading_root(&path)?;
        let index = convert::file_index(root.project.outcome()?, &path)?;
        Some((root, index))
    }

    fn hover(&self, p: lsp::HoverParams) -> Option<lsp::Hover> {
        let position = p.text_document_position_params;
        let (root, index) = self.file(&position.text_document.uri)?;
        let outcome = root.project.outcome()?;
        let file = &outcome.files[index];
        let offset = text::offset(&file.source, position.position);
        let (markdown, span) = if let Some(meta) = navigate::rule_in_comment(file, offset) {
            (
                format!("**{}** ({}): {}", meta.code, meta.name, meta.summary),
                None,
            )
        } else {
            let name = navigate::name_at(file, offset)?;
            let markdown = navigate::hover_object(&root.project, outcome, &name.name)
                .or_else(|| navigate::hover_query_column(&root.project, outcome, file, offset))
                .or_else(|| {
                    navigate::hover_column(&root.project, outcome, file, offset, &name.word)
                })?;
            (markdown, Some(name.span))
        };
        Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: markdown,
            }),
            range: span.map(|s| text::range(&file.source, s)),
        })
    }

    fn definition(&self, p: lsp::GotoDefinitionParams) -> Option<lsp::GotoDefinitionResponse> {
        let position = p.text_document_position_params;
        let (root, index) = self.file(&position.text_document.uri)?;
        let outcome = root.project.outcome()?;
        let file = &outcome.files[index];
        let name = navigate::name_at(file, text::offset(&file.source, position.position))?;
        let locations = navigate::definition_locations(&root.project, outcome, &name.name);
        (!locations.is_empty()).then_some(lsp::GotoDefinitionResponse::Array(locations))
    }

    fn references(&self, p: lsp::ReferenceParams) -> Option<Vec<lsp::Location>> {
        let position = p.text_document_position;
        let (root, index) = self.file(&position.text_document.uri)?;
        let outcome = root.project.outcome()?;
        let file = &outcome.files[index];
        let name = navigate::name_at(file, text::offset(&file.source, position.position))?;
        Some(navigate::references(
            &root.project,
            outcome,
            &name.name,
            p.context.include_declaration,
        ))
    }

    fn symbols(&self, p: lsp::DocumentSymbolParams) -> Option<lsp::DocumentSymbolResponse> {
        let (root, index) = self.file(&p.text_document.uri)?;
        let outcome = root.project.outcome()?;
        Some(lsp::DocumentSymbolResponse::Nested(navigate::symbols(
            &outcome.files[index],
        )))
    }

    fn code_actions(&self, p: lsp::CodeActionParams) -> Option<lsp::CodeActionResponse> {
        let (root, index) = self.file(&p.text_document.uri)?;
        let outcome = root.project.outcome()?;
        let source = &outcome.files[index].source;
        let start = text::offset(source, p.range.start);
        let end = text::offset(source, p.range.end).max(start);
        Some(actions::actions(
            outcome,
            index,
            crate::source::Span::new(start as usize, end as usize),
            p.context.only.as_deref(),
            self.docs.as_deref(),
        ))
    }
}

/// Why an opened document is not text, as the command line says of its file: the editor
/// decoded a file that is not UTF-8 (with U+FFFD, the replacement character, where the file's
/// bytes are not UTF-8, or as Latin-1, as Neovim does). Its findings would be noise about
/// undecodable bytes, or findings `check` does not make; the file is reported as unreadable
/// (SY000), once, until the document is edited. `None` for a text document. A document of
/// ASCII text alone is never read from disk again (no decoding gives ASCII for bytes that
/// are not UTF-8).
fn undecodable(path: &Path, text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    let (_, error) = crate::discover::read::load(&crate::discover::Input::File(path.into()), None);
    error.filter(|e| e.starts_with("not valid UTF-8"))
}

fn to_value(v: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}
