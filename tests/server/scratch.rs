//! Unsaved buffers (`untitled:` URIs): checked on their own with the workspace's settings,
//! their diagnostics published under their URI, cleared when they close.

use super::client::Client;
use crate::common::TempDir;
use lsp_server::Message;
use serde_json::{json, Value};
use std::time::Duration;

const BUFFER: &str = "untitled:Untitled-1";

fn open(c: &Client, uri: &str, language: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
    );
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}:{}", d["code"].as_str().unwrap(), d["severity"]))
        .collect()
}

fn published_for(messages: &[Message], uri: &str) -> usize {
    messages
        .iter()
        .filter(|m| {
            matches!(m, Message::Notification(n)
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
        })
        .count()
}

#[test]
fn an_unsaved_sql_buffer_is_checked_on_its_own_with_the_workspace_settings() {
    let dir = TempDir::new("lsp-untitled");
    // The workspace turns SY003 into a warning: the buffer is checked with its settings.
    std::fs::write(dir.0.join(".flinklint.yaml"), "rules:\n  SY003: warning\n").unwrap();
    std::fs::write(dir.0.join("job.sql"), "SELECT 1;\n").unwrap();
    let mut c = Client::start(&dir.0, json!({}));
    c.settle();
    open(
        &c,
        BUFFER,
        "sql",
        "SELECT \"x\";\nCREATE TABLE t (a INT, PRIMARY KEY (a)) WITH ('connector' = 'datagen');\n",
    );
    let first = c.diagnostics_of_uri(BUFFER);
    assert_eq!(first["version"], 1);
    // SY003 at the workspace's severity (2: warning); the key without NOT ENFORCED an error.
    let found = codes(&first);
    assert!(found.contains(&"SY003:2".to_string()), "{found:?}");
    assert!(found.iter().any(|c| c.ends_with(":1")), "{found:?}");
    // An edit: the buffer's new diagnostics, with the edit's version.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": BUFFER, "version": 2},
               "contentChanges": [{"range": {"start": {"line": 0, "character": 7},
                                             "end": {"line": 0, "character": 10}},
                                   "text": "'x'"}]}),
    );
    let second = c.diagnostics_of_uri(BUFFER);
    assert_eq!(second["version"], 2);
    let found = codes(&second);
    assert!(!found.iter().any(|c| c.starts_with("SY003")), "{found:?}");
    assert!(!found.is_empty(), "{found:?}");
    // Closed: its diagnostics are cleared.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": BUFFER}}),
    );
    let closed = c.diagnostics_of_uri(BUFFER);
    assert_eq!(closed["diagnostics"], json!([]));
    // A buffer that is not SQL, or a document of another scheme, is not checked; nor does a
    // request about a buffer fail.
    open(&c, "untitled:Untitled-2", "plaintext", "SELECT \"x\";\n");
    open(&c, "git:/x/job.sql", "sql", "SELECT \"x\";\n");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": BUFFER}, "position": {"line": 0, "character": 1}}),
    );
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let messages = c.drain(Duration::from_millis(300));
    assert_eq!(published_for(&messages, "untitled:Untitled-2"), 0);
    assert_eq!(published_for(&messages, "git:/x/job.sql"), 0);
    c.shutdown();
}

#[test]
fn a_client_that_pulls_gets_an_unsaved_buffer_s_diagnostics_when_it_asks() {
    let dir = TempDir::new("lsp-untitled-pull");
    std::fs::write(dir.0.join("job.sql"), "SELECT 1;\n").unwrap();
    let mut c = Client::start(&dir.0, json!({"textDocument": {"diagnostic": {}}}));
    open(&c, BUFFER, "flinksql", "SELECT \"x\";\n");
    let report = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": BUFFER}}),
    );
    assert_eq!(report["result"]["kind"], "full");
    assert_eq!(report["result"]["items"][0]["code"], "SY003");
    let id = report["result"]["resultId"].clone();
    let again = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": BUFFER}, "previousResultId": id}),
    );
    assert_eq!(again["result"]["kind"], "unchanged");
    // Nothing is pushed to a client that pulls.
    let messages = c.drain(Duration::from_millis(200));
    assert_eq!(published_for(&messages, BUFFER), 0);
    c.shutdown();
}
