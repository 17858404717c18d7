//! The language server end to end, in memory: a client on a channel
//! (`lsp_server::Connection::memory`) drives `flinklint::server::run` on another thread, as an
//! editor would, and the answers are compared with JSON snapshots (paths of the temporary
//! project shown as `file:///PROJECT`). Hostile input (malformed requests, unknown methods,
//! positions out of range, documents never opened, non-ASCII text, a file deleted while open)
//! must get a clean error or nothing, and the server must keep answering.

mod client;
mod scratch;

use crate::common::TempDir;
use client::{project, snapshot, uri, Client};
use lsp_server::Message;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

const PARENT: &str =
    "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen');\n";
const CHILD: &str =
    "CREATE TABLE orders_copy (id INT) WITH ('connector' = 'datagen') LIKE orders;\n";
const JOB: &str =
    "SELECT \"x\";\nCREATE TABLE t (a INT, PRIMARY KEY (a)) WITH ('connector' = 'datagen');\n";

#[test]
fn diagnostics_across_files_on_open_and_change() {
    let dir = project("lsp-cross");
    let mut c = Client::start(&dir.0, json!({}));
    // The workspace is checked on start: every file with findings is published. The child's
    // clash links to the parent's column in the other file (related information).
    let child = c.diagnostics("catalog/V2__orders_copy.sql");
    snapshot("server_child_diagnostics", &c.shown(&child));
    let job = c.diagnostics("job.sql");
    snapshot("server_job_diagnostics", &c.shown(&job));

    // Opening the parent changes nothing; renaming its column (unsaved) clears the child's
    // clash: the child's diagnostics are published again, empty.
    c.open("catalog/V1__orders.sql", PARENT);
    c.change(
        "catalog/V1__orders.sql",
        2,
        "CREATE TABLE orders (order_id INT) WITH ('connector' = 'datagen');\n",
    );
    assert!(c.codes("catalog/V2__orders_copy.sql").is_empty());
    // And back: the clash returns.
    c.change("catalog/V1__orders.sql", 3, PARENT);
    assert_eq!(c.codes("catalog/V2__orders_copy.sql"), vec!["CL002"]);

    // Opening a document publishes its diagnostics (with its version), even unchanged; an
    // edit that fixes its own finding clears it.
    c.open("job.sql", JOB);
    c.sync();
    let opened = c.diagnostics("job.sql");
    assert_eq!(opened["version"], 1);
    assert_eq!(opened["diagnostics"], job["diagnostics"]);
    c.change("job.sql", 2, "SELECT 'x';\n");
    let cleared = c.diagnostics("job.sql");
    assert_eq!(cleared["diagnostics"], json!([]));
    assert_eq!(cleared["version"], 2);
    c.shutdown();
}

#[test]
fn code_actions_hover_definition_references_symbols() {
    let dir = project("lsp-nav");
    let mut c = Client::start(&dir.0, json!({}));
    c.open("job.sql", JOB);
    c.open("catalog/V2__orders_copy.sql", CHILD);
    c.settle();

    // Code actions on line 2 of job.sql (TB001's safe fix, the two ignores, fix-all).
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": c.uri("job.sql")},
               "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 60}},
               "context": {"diagnostics": []}}),
    );
    snapshot("server_code_actions", &c.shown(&actions["result"]));
    // SY003's fix is unsafe: marked, and not preferred.
    let unsafe_actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": c.uri("job.sql")},
               "range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 8}},
               "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    let first = &unsafe_actions["result"][0];
    assert!(
        first["title"].as_str().unwrap().contains("unsafe"),
        "{first}"
    );
    assert_eq!(first["isPreferred"], false);
    // Only the fix-all source action when asked for source actions.
    let source = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": c.uri("job.sql")},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
               "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
    );
    let kinds: Vec<&str> = source["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["source.fixAll.flinklint"]);

    // Hover on the LIKE parent in the child: its expanded definition and columns.
    let at_orders = json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")},
                           "position": {"line": 0, "character": 72}});
    let hover = c.request("textDocument/hover", at_orders.clone());
    snapshot("server_hover_table", &c.shown(&hover["result"]));
    // On a column: its type, kind and origin.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")},
               "position": {"line": 0, "character": 27}}),
    );
    snapshot("server_hover_column", &c.shown(&hover["result"]));

    // Go to definition: the parent's CREATE TABLE in the other file.
    let definition = c.request("textDocument/definition", at_orders.clone());
    snapshot("server_definition", &c.shown(&definition["result"]));
    // References: the declaration and the LIKE.
    let mut params = at_orders;
    params["context"] = json!({"includeDeclaration": true});
    let references = c.request("textDocument/references", params);
    let mut found: Vec<String> = references["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| c.shown(&l["uri"]))
        .collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            "\"file:///PROJECT/catalog/V1__orders.sql\"",
            "\"file:///PROJECT/catalog/V2__orders_copy.sql\""
        ]
    );
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": c.uri("job.sql")}}),
    );
    snapshot("server_symbols", &c.shown(&symbols["result"]));
    c.shutdown();
}

#[test]
fn suppression_hover_and_ignore_action_round_trip() {
    let dir = project("lsp-ignore");
    let mut c = Client::start(&dir.0, json!({}));
    c.open("job.sql", JOB);
    c.settle();
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": c.uri("job.sql")},
               "range": {"start": {"line": 1, "character": 30}, "end": {"line": 1, "character": 30}},
               "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    let ignore = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Ignore TB001 for this statement")
        .expect("an ignore action")
        .clone();
    let edit = &ignore["edit"]["changes"][c.uri("job.sql")][0];
    assert_eq!(edit["newText"], "-- flinklint: ignore TB001\n");
    // Applying it (as the client would) silences TB001.
    let text = JOB.replacen(
        "CREATE TABLE t",
        "-- flinklint: ignore TB001\nCREATE TABLE t",
        1,
    );
    c.change("job.sql", 2, &text);
    assert_eq!(c.codes("job.sql"), vec!["SY003"]);
    // Hover on the code in the comment: the rule's summary.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": c.uri("job.sql")},
               "position": {"line": 1, "character": 23}}),
    );
    let value = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        value.starts_with("**TB001** (primary-key-enforced)"),
        "{value}"
    );
    c.shutdown();
}

#[test]
fn configuration_reload() {
    let dir = project("lsp-config");
    let mut c = Client::start(&dir.0, json!({}));
    assert_eq!(c.codes("catalog/V2__orders_copy.sql"), vec!["CL002"]);
    // Turning CL002 off in the configuration clears it once the client says the file changed.
    std::fs::write(dir.0.join(".flinklint.yaml"), "rules:\n  CL002: off\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": c.uri(".flinklint.yaml"), "type": 1}]}),
    );
    assert!(c.codes("catalog/V2__orders_copy.sql").is_empty());
    // A broken configuration is shown, and the server goes on with the defaults.
    std::fs::write(dir.0.join(".flinklint.yaml"), "rules: [\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": c.uri(".flinklint.yaml"), "type": 2}]}),
    );
    assert_eq!(c.codes("catalog/V2__orders_copy.sql"), vec!["CL002"]);
    let shown = c
        .drain(Duration::from_millis(200))
        .into_iter()
        .any(|m| matches!(m, Message::Notification(n) if n.method == "window/showMessage"));
    assert!(shown, "a broken configuration is shown");
    c.shutdown();
}

#[test]
fn configuration_reload_on_save_and_on_did_change_configuration() {
    let dir = project("lsp-config-save");
    let mut c = Client::start(&dir.0, json!({}));
    assert_eq!(c.codes("catalog/V2__orders_copy.sql"), vec!["CL002"]);
    assert_eq!(c.codes("job.sql"), vec!["SY003", "TB001"]);
    // The configuration edited in the editor and saved: reloaded, every file published again.
    c.open(".flinklint.yaml", "");
    std::fs::write(dir.0.join(".flinklint.yaml"), "rules:\n  CL002: off\n").unwrap();
    c.change(".flinklint.yaml", 2, "rules:\n  CL002: off\n");
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": c.uri(".flinklint.yaml")}}),
    );
    assert!(c.codes("catalog/V2__orders_copy.sql").is_empty());
    assert_eq!(c.codes("job.sql"), vec!["SY003", "TB001"]);
    // A change of the client's settings reloads the configuration too (here the file changed
    // behind the editor's back, which no watcher reported), and applies `docsUrl`.
    std::fs::write(dir.0.join(".flinklint.yaml"), "rules:\n  SY003: off\n").unwrap();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"flinklint": {"docsUrl": "https://example.com/rules/{code}.html"}}}),
    );
    let child = c.diagnostics("catalog/V2__orders_copy.sql");
    assert_eq!(child["diagnostics"][0]["code"], "CL002");
    assert_eq!(
        child["diagnostics"][0]["codeDescription"]["href"],
        "https://example.com/rules/CL002.html"
    );
    assert_eq!(c.codes("job.sql"), vec!["TB001"]);
    // Settings without anything for the server: reloaded all the same.
    std::fs::remove_file(dir.0.join(".flinklint.yaml")).unwrap();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    assert_eq!(c.codes("job.sql"), vec!["SY003", "TB001"]);
    c.shutdown();
}

#[test]
fn hover_on_a_column_of_a_query_is_the_column_the_reference_resolves_to() {
    let dir = TempDir::new("lsp-hover-scope");
    std::fs::create_dir_all(dir.0.join("ddl")).unwrap();
    // Two tables with an `id` column of different types, in another script.
    std::fs::write(
        dir.0.join("ddl/tables.sql"),
        "CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'datagen');\n\
         CREATE TABLE customers (id BIGINT, name STRING) WITH ('connector' = 'datagen');\n\
         CREATE VIEW big AS SELECT id FROM orders WHERE amount > 10;\n",
    )
    .unwrap();
    let job = "SELECT o.id, c.id, amount FROM orders o JOIN customers c ON o.id = c.id;\n\
               WITH w AS (SELECT id AS k FROM customers) SELECT k FROM w;\n\
               SELECT id FROM customers WHERE id IN (SELECT id FROM orders);\n\
               SELECT id FROM big;\n";
    std::fs::write(dir.0.join("job.sql"), job).unwrap();
    let mut c = Client::start(&dir.0, json!({}));
    c.open("job.sql", job);
    c.settle();
    let mut hover = |line: u32, character: u32| -> String {
        let r = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": c.uri("job.sql")},
                   "position": {"line": line, "character": character}}),
        );
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("(no hover)")
            .to_string()
    };
    // `o.id` is the orders' INT column, `c.id` the customers' BIGINT one, whichever comes first
    // in the statement; an unqualified `amount` is the only relation's column of that name.
    let o_id = hover(0, 10);
    assert!(o_id.starts_with("column `id` of "), "{o_id}");
    assert!(o_id.contains(".`orders`"), "{o_id}");
    assert!(o_id.contains("- type: `INT`"), "{o_id}");
    let c_id = hover(0, 16);
    assert!(c_id.starts_with("column `id` of "), "{c_id}");
    assert!(c_id.contains(".`customers`"), "{c_id}");
    assert!(c_id.contains("- type: `BIGINT`"), "{c_id}");
    let on = hover(0, 70);
    assert!(on.contains("customers") && on.contains("BIGINT"), "{on}");
    let amount = hover(0, 20);
    assert!(amount.starts_with("column `amount` of "), "{amount}");
    assert!(amount.contains(".`orders`"), "{amount}");
    // A column of a WITH query: the query's column and its type.
    let k = hover(1, 49);
    assert!(k.starts_with("column `k` of `w`"), "{k}");
    assert!(k.contains("BIGINT"), "{k}");
    // Inside a subquery, `id` is the subquery's table's column (orders), outside the outer one.
    let inner = hover(2, 46);
    assert!(
        inner.contains("orders") && inner.contains("`INT`"),
        "{inner}"
    );
    let outer = hover(2, 32);
    assert!(
        outer.contains("customers") && outer.contains("BIGINT"),
        "{outer}"
    );
    // A view: its definition as SHOW CREATE VIEW prints it; a column read from it, the view's
    // column.
    let view = hover(3, 16);
    assert!(
        view.contains("CREATE VIEW `default_catalog`.`default_database`.`big` (\n  `id`\n)\nAS SELECT `orders`.`id`\nFROM `default_catalog`.`default_database`.`orders` AS `orders`\nWHERE `orders`.`amount` > 10\n"),
        "{view}"
    );
    let from_view = hover(3, 8);
    assert!(from_view.starts_with("column `id` of "), "{from_view}");
    assert!(
        from_view.contains(".`big`") && from_view.contains("`INT`"),
        "{from_view}"
    );
    snapshot("server_hover_query_column", c_id.trim_end());
    c.shutdown();
}

#[test]
fn pull_diagnostics_for_clients_that_pull() {
    let dir = project("lsp-pull");
    let mut c = Client::start(
        &dir.0,
        json!({"textDocument": {"diagnostic": {}}, "workspace": {"diagnostic": {"refreshSupport": true}}}),
    );
    let report = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")}}),
    );
    let result = &report["result"];
    assert_eq!(result["kind"], "full");
    assert_eq!(result["items"][0]["code"], "CL002");
    let id = result["resultId"].clone();
    let again = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")}, "previousResultId": id}),
    );
    assert_eq!(again["result"]["kind"], "unchanged");
    let workspace = c.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let mut uris: Vec<String> = workspace["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| c.shown(&i["uri"]))
        .collect();
    uris.sort();
    assert_eq!(
        uris,
        vec![
            "\"file:///PROJECT/catalog/V2__orders_copy.sql\"",
            "\"file:///PROJECT/job.sql\""
        ]
    );
    // An edit of the parent: the server asks the client to pull again, and nothing is pushed.
    c.open("catalog/V1__orders.sql", PARENT);
    c.change(
        "catalog/V1__orders.sql",
        2,
        "CREATE TABLE orders (order_id INT) WITH ('connector' = 'datagen');\n",
    );
    let after = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")}, "previousResultId": id}),
    );
    assert_eq!(after["result"]["kind"], "full");
    assert_eq!(after["result"]["items"], json!([]));
    let messages = c.drain(Duration::from_millis(200));
    assert!(messages
        .iter()
        .any(|m| matches!(m, Message::Request(r) if r.method == "workspace/diagnostic/refresh")));
    assert!(!messages.iter().any(
        |m| matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics")
    ));
    c.shutdown();
}

#[test]
fn hostile_input_gets_clean_errors_and_the_server_survives() {
    let dir = project("lsp-hostile");
    let mut c = Client::start(&dir.0, json!({}));
    c.settle();
    // Unknown method: "method not found".
    let r = c.request("flinklint/unknown", json!({}));
    assert_eq!(r["error"]["code"], -32601);
    // Parameters of the wrong shape: "invalid params".
    let r = c.request("textDocument/hover", json!({"nonsense": [1, 2]}));
    assert_eq!(r["error"]["code"], -32602);
    let r = c.request("textDocument/codeAction", json!(null));
    assert_eq!(r["error"]["code"], -32602);
    // Notifications that make no sense are ignored: unknown ones, bad parameters, edits of a
    // document never opened, a second initialize is refused.
    c.notify("flinklint/nothing", json!({}));
    c.notify("textDocument/didChange", json!({"garbage": true}));
    c.change("never-opened.sql", 5, "SELECT \"y\";\n");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": "untitled:Untitled-1", "languageId": "sql", "version": 1, "text": "SELECT \"x\";"}}),
    );
    let r = c.request("initialize", json!({"capabilities": {}}));
    assert_eq!(r["error"]["code"], -32600);
    // Positions far out of range, and a document the server does not know: null results.
    c.open("job.sql", JOB);
    for (line, character) in [
        (0u64, 999_999u64),
        (999_999, 0),
        (u32::MAX as u64, u32::MAX as u64),
    ] {
        let r = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": c.uri("job.sql")}, "position": {"line": line, "character": character}}),
        );
        assert!(r.get("error").is_none(), "{r}");
    }
    // What opening it published (its diagnostics, unchanged).
    assert_eq!(c.diagnostics("job.sql")["version"], 1);
    let r = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": c.uri("nowhere/none.sql")}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r["result"], Value::Null);
    // Incremental edits with ranges past the end are clamped.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": c.uri("job.sql"), "version": 2},
               "contentChanges": [{"range": {"start": {"line": 50, "character": 3}, "end": {"line": 2, "character": 0}}, "text": "SELECT 1;\n"}]}),
    );
    // Non-ASCII text: a finding after characters outside the BMP is placed in UTF-16 units.
    c.change("job.sql", 3, "SELECT '𝄞é', \"y\";\n");
    let d = c.diagnostics("job.sql");
    let d = d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SY003")
        .expect("SY003")
        .clone();
    // `SELECT '` is 8 units, the clef 2, `é` 1, `', ` 3: `"y"` starts at unit 14.
    assert_eq!(d["range"]["start"], json!({"line": 0, "character": 14}));
    assert_eq!(d["range"]["end"], json!({"line": 0, "character": 17}));
    // An incremental edit in UTF-16 units replaces `"y"` by `'y'`.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": c.uri("job.sql"), "version": 4},
               "contentChanges": [{"range": {"start": {"line": 0, "character": 14}, "end": {"line": 0, "character": 17}}, "text": "'y'"}]}),
    );
    assert_eq!(c.diagnostics("job.sql")["diagnostics"], json!([]));
    // A file deleted while open: its buffer still counts; closed, its diagnostics are cleared.
    std::fs::remove_file(dir.0.join("catalog/V2__orders_copy.sql")).unwrap();
    c.open("catalog/V2__orders_copy.sql", CHILD);
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": c.uri("catalog/V2__orders_copy.sql"), "type": 3}]}),
    );
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")}, "position": {"line": 0, "character": 72}}),
    );
    assert!(r["result"]["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("CREATE TABLE"));
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": c.uri("catalog/V2__orders_copy.sql")}}),
    );
    let mut cleared = false;
    for _ in 0..5 {
        if c.diagnostics("catalog/V2__orders_copy.sql")["diagnostics"] == json!([]) {
            cleared = true;
            break;
        }
    }
    assert!(cleared);
    // Still answering.
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": c.uri("job.sql")}}),
    );
    assert!(r["result"].is_array(), "{r}");
    // Requests after shutdown are refused; exit ends the server.
    let r = c.request("shutdown", Value::Null);
    assert!(r.get("error").is_none());
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32600);
    c.notify("exit", Value::Null);
    c.server.take().unwrap().join().unwrap();
}

#[test]
fn malformed_json_rpc_on_standard_input() {
    // The binary over stdio: a body that is not JSON, a header line of garbage, then a valid
    // exchange. The server answers the bad body with a parse error and goes on.
    use std::io::{Read, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_flinklint"))
        .arg("server")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let mut input = String::new();
    input.push_str(&frame("{not json"));
    input.push_str("X-Garbage\r\n\r\n");
    input.push_str(&frame(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    ));
    input.push_str(&frame(
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ));
    input.push_str(&frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
    input.push_str(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    assert!(
        out.contains(r#""id":null"#) && out.contains("-32700"),
        "{out}"
    );
    assert!(
        out.contains(r#""id":1,"result""#) || out.contains(r#""id":1"#),
        "{out}"
    );
    assert!(out.contains(r#""id":2"#), "{out}");
}

#[test]
fn exit_without_shutdown_exits_with_one() {
    // The LSP specification of `exit`: 0 after `shutdown`, 1 without it.
    use std::io::Write;
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    for (shutdown, code) in [(true, 0), (false, 1)] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_flinklint"))
            .arg("server")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut input =
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
        if shutdown {
            input.push_str(&frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
        }
        input.push_str(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "shutdown first: {shutdown}");
    }
}

#[test]
fn configuration_per_root_and_multi_root_workspaces() {
    // Two workspace folders; the first holds a folder with its own configuration.
    let a = project("lsp-root-a");
    let b = TempDir::new("lsp-root-b");
    std::fs::create_dir_all(a.0.join("team")).unwrap();
    std::fs::write(a.0.join("team/.flinklint.yaml"), "rules:\n  TB001: off\n").unwrap();
    std::fs::write(a.0.join("team/job.sql"), JOB).unwrap();
    std::fs::write(b.0.join(".flinklint.yaml"), "rules:\n  SY003: off\n").unwrap();
    std::fs::write(b.0.join("job.sql"), JOB).unwrap();
    let mut c = Client::spawn(&a.0);
    c.request(
        "initialize",
        json!({"capabilities": {}, "workspaceFolders": [
            {"uri": uri(&a.0), "name": "a"}, {"uri": uri(&b.0), "name": "b"}]}),
    );
    c.notify("initialized", json!({}));
    c.sync();
    // The first folder's own files: its (default) settings.
    assert_eq!(c.codes("job.sql"), vec!["SY003", "TB001"]);
    // The nested folder's file: its own configuration (TB001 off), found from its folder.
    assert_eq!(c.codes("team/job.sql"), vec!["SY003"]);
    // The second folder: its configuration (SY003 off).
    let b_job = uri(&b.0.join("job.sql"));
    let mut found = None;
    for m in c.drain(Duration::from_millis(500)) {
        if let Message::Notification(n) = m {
            if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == b_job.as_str() {
                found = Some(n.params);
            }
        }
    }
    let codes: Vec<&str> = found.as_ref().expect("diagnostics of the second folder")["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, vec!["TB001"]);
    c.shutdown();
}

/// The severity of each diagnostic published for `rel`, with its code (`TB001:1` for an error).
fn severities(c: &mut Client, rel: &str) -> Vec<String> {
    c.diagnostics(rel)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}:{}", d["code"].as_str().unwrap(), d["severity"]))
        .collect()
}

#[test]
fn configuration_overrides_per_folder_and_their_reload() {
    // A folder with its own configuration whose `overrides:` change severities for some paths.
    let dir = project("lsp-overrides");
    let team = dir.0.join("team");
    std::fs::create_dir_all(team.join("legacy")).unwrap();
    std::fs::write(
        team.join(".flinklint.yaml"),
        "rules:\n  SY003: warning\noverrides:\n  - paths: [legacy/]\n    rules:\n      TB001: info\n      SY003: off\n",
    )
    .unwrap();
    std::fs::write(team.join("job.sql"), JOB).unwrap();
    std::fs::write(team.join("legacy/job.sql"), JOB).unwrap();
    let mut c = Client::start(&dir.0, json!({}));
    // The workspace folder's own file: the defaults (SY003 is a warning, TB001 an error).
    assert_eq!(severities(&mut c, "job.sql"), vec!["SY003:1", "TB001:1"]);
    // The nested folder: its configuration, and the override for `legacy/`.
    assert_eq!(
        severities(&mut c, "team/job.sql"),
        vec!["SY003:2", "TB001:1"]
    );
    assert_eq!(severities(&mut c, "team/legacy/job.sql"), vec!["TB001:3"]);
    // The override edited on disk: reloaded when the client reports the change, and published
    // again where the findings changed.
    std::fs::write(
        team.join(".flinklint.yaml"),
        "rules:\n  SY003: off\noverrides:\n  - paths: [legacy/]\n    rules:\n      TB001: warning\n      SY003: error\n",
    )
    .unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": c.uri("team/.flinklint.yaml"), "type": 2}]}),
    );
    assert_eq!(severities(&mut c, "team/job.sql"), vec!["TB001:1"]);
    assert_eq!(
        severities(&mut c, "team/legacy/job.sql"),
        vec!["SY003:1", "TB001:2"]
    );
    // An open document of the overridden folder keeps its unsaved text under the new settings.
    c.open(
        "team/legacy/job.sql",
        "CREATE TABLE t (a INT, PRIMARY KEY (a)) WITH ('connector' = 'datagen');\n",
    );
    assert_eq!(severities(&mut c, "team/legacy/job.sql"), vec!["TB001:2"]);
    // The nested configuration deleted: its files fall back to the workspace folder's.
    std::fs::remove_file(team.join(".flinklint.yaml")).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": c.uri("team/.flinklint.yaml"), "type": 3}]}),
    );
    assert_eq!(severities(&mut c, "team/legacy/job.sql"), vec!["TB001:1"]);
    assert_eq!(
        severities(&mut c, "team/job.sql"),
        vec!["SY003:1", "TB001:1"]
    );
    c.shutdown();
}

#[test]
fn documents_that_are_not_sql_do_not_flood_the_editor() {
    let dir = project("lsp-binary");
    // A file that is not UTF-8 (Latin-1 bytes, NUL): the editor shows it decoded, with
    // replacement characters; reported as the command line reports it, once (SY000).
    let bytes: Vec<u8> = (0..4000u32).map(|i| (i * 7 % 256) as u8).collect();
    std::fs::write(dir.0.join("blob.sql"), &bytes).unwrap();
    // Text saved as Latin-1, which an editor (Neovim) decodes as Latin-1: no replacement
    // character in the document, and still the file `check` cannot read.
    std::fs::write(dir.0.join("latin.sql"), b"SELECT caf\xe9 FROM t;\n").unwrap();
    let mut c = Client::start(&dir.0, json!({}));
    assert_eq!(c.codes("blob.sql"), vec!["SY000"]);
    assert_eq!(c.codes("latin.sql"), vec!["SY000"]);
    c.open("latin.sql", "SELECT caf\u{e9} FROM t;\n");
    assert_eq!(c.codes("latin.sql"), vec!["SY000"]);
    c.open("blob.sql", &String::from_utf8_lossy(&bytes));
    c.sync();
    let published: Vec<Value> = c
        .drain(Duration::from_millis(300))
        .into_iter()
        .filter_map(|m| match m {
            Message::Notification(n)
                if n.method == "textDocument/publishDiagnostics"
                    && n.params["uri"] == c.uri("blob.sql").as_str() =>
            {
                Some(n.params)
            }
            _ => None,
        })
        .collect();
    // Nothing changed: opening it publishes SY000 once more, for the opened document.
    assert_eq!(published.len(), 1, "{published:?}");
    assert_eq!(published[0]["version"], 1, "{published:?}");
    assert_eq!(
        published[0]["diagnostics"][0]["code"], "SY000",
        "{published:?}"
    );
    // Text full of NUL bytes and garbage, typed into a new buffer: at most 100 diagnostics,
    // the last saying how many more there are.
    let garbage: String = (0..3000)
        .map(|i| match i % 5 {
            0 => '\0',
            1 => '§',
            2 => '(',
            3 => '\u{1F600}',
            _ => '\'',
        })
        .collect();
    c.open("garbage.sql", &garbage);
    let d = c.diagnostics("garbage.sql");
    let list = d["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 100, "{d}");
    assert!(list[99]["message"]
        .as_str()
        .unwrap()
        .contains("more findings in this file are not shown"));
    assert!(list[..99].iter().all(|x| x["severity"] == 1));
    // A huge single line (4 MB of text that is not SQL): answered quickly, capped too.
    let line = "x = y; ".repeat(600_000).replace(';', "\u{e9}");
    let start = std::time::Instant::now();
    c.open("huge.sql", &line);
    let d = c.diagnostics("huge.sql");
    assert!(d["diagnostics"].as_array().unwrap().len() <= 100);
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": c.uri("huge.sql")}, "position": {"line": 0, "character": 4_000_000}}),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    c.shutdown();
}

#[test]
fn hover_on_a_view_is_show_create_view_and_its_columns() {
    let dir = TempDir::new("lsp-hover-view");
    std::fs::write(
        dir.0.join("views.sql"),
        "CREATE TABLE orders (id INT, amount DOUBLE, note STRING) WITH ('connector' = 'datagen');\n\
         CREATE VIEW v_orders AS SELECT id, amount FROM orders WHERE amount > 1;\n\
         CREATE VIEW v_cols (a, b) COMMENT 'big ones' AS SELECT id, amount * 2 AS dbl FROM orders o;\n\
         SELECT * FROM v_orders JOIN v_cols ON v_orders.id = v_cols.a;\n",
    )
    .unwrap();
    std::fs::write(dir.0.join("job.sql"), "SELECT 1;\n").unwrap();
    let mut c = Client::start(&dir.0, json!({}));
    let mut hover = |line: u32, character: u32| {
        let r = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": c.uri("views.sql")}, "position": {"line": line, "character": character}}),
        );
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // As Flink 2.3 prints them (`SHOW CREATE VIEW`, verified with Flink), and the columns
    // with the types the query gives them.
    snapshot(
        "server_hover_view",
        &format!("{}\n---\n{}", hover(3, 16), hover(3, 30)),
    );
    c.shutdown();
}

#[test]
fn first_diagnostics_from_the_context_cache_are_never_stale() {
    let dir = TempDir::new("lsp-cache");
    std::fs::create_dir_all(dir.0.join("ddl")).unwrap();
    std::fs::create_dir_all(dir.0.join("jobs")).unwrap();
    std::fs::write(dir.0.join("ddl/orders.sql"), PARENT).unwrap();
    let job = "CREATE TABLE sink (id INT, amount DOUBLE) WITH ('connector' = 'blackhole');\n\
               INSERT INTO sink SELECT id, amount FROM orders;\n";
    std::fs::write(dir.0.join("jobs/job.sql"), job).unwrap();
    for i in 0..40 {
        std::fs::write(
            dir.0.join(format!("ddl/other_{i}.sql")),
            format!("CREATE TABLE other_{i} (k INT) WITH ('connector' = 'datagen');\n"),
        )
        .unwrap();
    }
    // A server with a document open from the start: initialize, open, then the first check.
    let start = |dir: &Path| {
        let mut c = Client::spawn(dir);
        c.request(
            "initialize",
            json!({"capabilities": {}, "workspaceFolders": [{"uri": uri(dir), "name": "p"}]}),
        );
        c.notify("initialized", json!({}));
        c.open("jobs/job.sql", job);
        c
    };
    // The first start: the cache is cold; the server writes it after its first check.
    let mut c = start(&dir.0);
    c.sync();
    c.shutdown();
    let index = dir.0.join(".flinklint_cache/context-index");
    let written = std::fs::read_to_string(&index).expect("the server wrote the cache");
    assert!(written.contains("orders.sql"), "{written}");
    // The job's table loses a column on disk after the cache was written: the first
    // diagnostics of the next start see it (the entry is stale by size and time).
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(
        dir.0.join("ddl/orders.sql"),
        "CREATE TABLE orders (id INT) WITH ('connector' = 'datagen');\n",
    )
    .unwrap();
    let mut c = start(&dir.0);
    let first = c.codes("jobs/job.sql");
    assert!(!first.is_empty(), "the first diagnostics see the new table");
    c.sync();
    // The whole check agrees: nothing else is published for the job.
    let again: Vec<Message> = c
        .drain(Duration::from_millis(300))
        .into_iter()
        .filter(|m| {
            matches!(m, Message::Notification(n)
            if n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == c.uri("jobs/job.sql").as_str())
        })
        .collect();
    assert!(again.is_empty(), "{again:?}");
    c.shutdown();
    // A garbled cache is not read: the server checks everything, and the findings are right.
    std::fs::write(&index, written.replace("orders", "ordrs")).unwrap();
    let mut c = start(&dir.0);
    assert_eq!(c.codes("jobs/job.sql"), first);
    c.shutdown();
}

#[test]
fn a_clean_document_open_at_the_first_check_gets_its_empty_diagnostics() {
    let dir = TempDir::new("lsp-clean-open");
    let clean = "CREATE TABLE t (id INT) WITH ('connector' = 'datagen');\n";
    std::fs::write(dir.0.join("clean.sql"), clean).unwrap();
    // No context cache yet: the first check publishes the open document's diagnostics, even
    // with nothing in them (as the cache's early diagnostics do on a later start).
    let mut c = Client::spawn(&dir.0);
    c.request(
        "initialize",
        json!({"capabilities": {}, "workspaceFolders": [{"uri": uri(&dir.0), "name": "p"}]}),
    );
    c.notify("initialized", json!({}));
    c.open("clean.sql", clean);
    let published = c.diagnostics("clean.sql");
    assert_eq!(published["diagnostics"], json!([]));
    assert_eq!(published["version"], 1);
    c.shutdown();
}
