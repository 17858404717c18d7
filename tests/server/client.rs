//! The client of the server's tests: a server running in a thread, driven over an in-memory
//! connection as an editor drives it.

use super::{CHILD, JOB, PARENT};
use crate::common::{self, TempDir};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;
/// How long a test waits for a message before it fails (generous: a loaded machine).
pub(super) const WAIT: Duration = Duration::from_secs(60);

pub(super) struct Client {
    pub(super) connection: Connection,
    pub(super) server: Option<std::thread::JoinHandle<()>>,
    pub(super) next_id: i32,
    /// Notifications and requests from the server not yet looked at.
    pub(super) inbox: Vec<Message>,
    pub(super) dir: PathBuf,
}

pub(super) fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    /// A server running in a thread and a client connected to it, with `dir` as the folder
    /// the client's paths are relative to: nothing sent yet.
    pub(super) fn spawn(dir: &Path) -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || {
            flinklint::server::run(&server).expect("the server runs");
        });
        Client {
            connection: client,
            server: Some(handle),
            next_id: 0,
            inbox: Vec::new(),
            dir: dir.to_path_buf(),
        }
    }

    /// A server on `dir` as the workspace folder, initialized with `capabilities`.
    pub(super) fn start(dir: &Path, capabilities: Value) -> Client {
        let mut c = Client::spawn(dir);
        let result = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": capabilities,
                "workspaceFolders": [{"uri": uri(dir), "name": "project"}],
            }),
        );
        assert_eq!(result["result"]["serverInfo"]["name"], "flinklint");
        c.notify("initialized", json!({}));
        c.sync();
        c
    }

    /// Waits until the server has checked what it was sent: a request is answered only after
    /// the pending check, whose diagnostics are published before the answer.
    pub(super) fn sync(&mut self) {
        let probe = self.uri("job.sql");
        self.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": probe}}),
        );
    }

    /// [`Client::sync`], then forgets what the server sent so far.
    pub(super) fn settle(&mut self) {
        self.sync();
        self.inbox.clear();
    }

    pub(super) fn uri(&self, rel: &str) -> String {
        uri(&self.dir.join(rel))
    }

    pub(super) fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Notification::new(method.to_string(), params).into())
            .unwrap();
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub(super) fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.connection
            .sender
            .send(Request::new(id.clone(), method.to_string(), params).into())
            .unwrap();
        loop {
            match self.connection.receiver.recv_timeout(WAIT) {
                Ok(Message::Response(r)) if r.id == id => return serde_json::to_value(r).unwrap(),
                Ok(other) => self.inbox.push(other),
                Err(e) => panic!("no response to {method}: {e}"),
            }
        }
    }

    /// The next diagnostics published for `rel`.
    pub(super) fn diagnostics(&mut self, rel: &str) -> Value {
        let want = self.uri(rel);
        self.diagnostics_of_uri(&want)
    }

    /// The next diagnostics published for the document at `want` (any URI).
    pub(super) fn diagnostics_of_uri(&mut self, want: &str) -> Value {
        let matches = |m: &Message| {
            matches!(m, Message::Notification(n)
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == want)
        };
        if let Some(i) = self.inbox.iter().position(matches) {
            let Message::Notification(n) = self.inbox.remove(i) else {
                unreachable!()
            };
            return n.params;
        }
        loop {
            match self.connection.receiver.recv_timeout(WAIT) {
                Ok(m) if matches(&m) => {
                    let Message::Notification(n) = m else {
                        unreachable!()
                    };
                    return n.params;
                }
                Ok(other) => self.inbox.push(other),
                Err(e) => panic!("no diagnostics for {want}: {e}"),
            }
        }
    }

    /// The codes of the next diagnostics published for `rel`.
    pub(super) fn codes(&mut self, rel: &str) -> Vec<String> {
        self.diagnostics(rel)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect()
    }

    /// Every message that arrives within `quiet` of the last one.
    pub(super) fn drain(&mut self, quiet: Duration) -> Vec<Message> {
        let mut out = std::mem::take(&mut self.inbox);
        while let Ok(m) = self.connection.receiver.recv_timeout(quiet) {
            out.push(m);
        }
        out
    }

    pub(super) fn open(&self, rel: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": self.uri(rel), "languageId": "sql", "version": 1, "text": text}}),
        );
    }

    pub(super) fn change(&self, rel: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": self.uri(rel), "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    }

    /// JSON with the project's folder shown as `/PROJECT`.
    pub(super) fn shown(&self, value: &Value) -> String {
        let text = serde_json::to_string_pretty(value).unwrap();
        let tmp = std::env::temp_dir().display().to_string();
        text.replace(&self.dir.display().to_string(), "/PROJECT")
            .replace(tmp.trim_end_matches('/'), "/TMP")
            .replace(env!("CARGO_PKG_VERSION"), "VERSION")
    }

    pub(super) fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

pub(super) fn project(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    std::fs::create_dir_all(dir.0.join("catalog")).unwrap();
    std::fs::write(dir.0.join("catalog/V1__orders.sql"), PARENT).unwrap();
    std::fs::write(dir.0.join("catalog/V2__orders_copy.sql"), CHILD).unwrap();
    std::fs::write(dir.0.join("job.sql"), JOB).unwrap();
    dir
}

pub(super) fn snapshot(name: &str, text: &str) {
    common::snapshot_settings(&common::root().join("tests"))
        .bind(|| insta::assert_snapshot!(name, text));
}
