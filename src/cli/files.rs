//! `flinklint files`: each file a run reads, whether it is Flink SQL, and why (the verdicts of
//! the dialect stage, with the configuration's `flink-files`, `other-files` and
//! `dialect-detection` applied); which folders are histories and in which order their files
//! apply; and, for a file `check` cannot read or holds NUL bytes, what `check` reports there.

use super::{run_inputs, InputArgs};
use flinklint::config::{CliSettings, Settings};
use flinklint::dialect::{Dialect, FileDialect, FileVerdict, How, Reason, Signal};
use flinklint::files::FileEntry;
use flinklint::semantic::history::{HistoryBy, Plan};
use flinklint::source::FileId;
use serde_json::json;
use std::process::ExitCode;

/// Output formats of `flinklint files`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FilesFormat {
    /// One line per file (and one per stretch of a mixed file), then a summary.
    Text,
    /// One JSON document: every file with its recorded signals, every top-level statement
    /// with its dialect (and, in files with other dialects, its signals), the stretches, and
    /// the counts.
    Json,
}

/// Arguments of `files`.
#[derive(Debug, clap::Args)]
pub struct FilesArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: FilesFormat,
}

/// Runs `flinklint files`: exit code 0, or 2 on a usage or configuration error.
pub fn run(args: FilesArgs) -> ExitCode {
    let settings = match super::settings(&args.input, CliSettings::default()) {
        Ok(s) => Settings {
            drop_script_sessions: true,
            ..s
        },
        Err(code) => return code,
    };
    let outcome = match run_inputs(&args.input, None, &settings, false) {
        Ok(o) => o,
        Err(code) => {
            // Nothing to check (exit code 2): the JSON format still writes a valid document,
            // without files, for a program that parses it.
            if args.format == FilesFormat::Json
                && super::NOTHING_TO_CHECK.load(std::sync::atomic::Ordering::Relaxed)
            {
                let plan = flinklint::semantic::history::Plan::default();
                let mut s = flinklint::source::escape::json_pretty(&json_doc(&[], &[], &plan));
                s.push('\n');
                let _ = super::print_stdout(&s);
            }
            return code;
        }
    };
    let files: Vec<&FileEntry> = outcome
        .files
        .iter()
        .filter(|f| f.report && f.base_of.is_none())
        .collect();
    let plan = &outcome.model.plan;
    let text = match args.format {
        // Paths and quoted tokens come from the input: no control character reaches the
        // terminal raw (JSON writes them as `\u` escapes).
        FilesFormat::Text => {
            flinklint::source::escape::lines(&text(&files, &outcome.files, plan)).into_owned()
        }
        FilesFormat::Json => {
            let mut s =
                flinklint::source::escape::json_pretty(&json_doc(&files, &outcome.files, plan));
            s.push('\n');
            s
        }
    };
    match super::print_stdout(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// What `check` says of a file it cannot read (SY000), as `files` says it.
fn unreadable_text(reason: &str) -> String {
    format!("unreadable: {reason}; `check` reports it (SY000) and checks nothing in it")
}

/// The NUL bytes of a file's text: how many, and where the first is.
fn nul_bytes(file: &FileEntry) -> Option<(usize, u32, u32)> {
    let text = &file.source.text;
    let first = text.find('\0')?;
    let at = file.source.line_col(first as u32);
    Some((text.matches('\0').count(), at.line, at.column))
}

/// What `check` says of NUL bytes, as `files` says it (Flink's parser rejects the character:
/// each is a syntax error, as many as the lexical errors of a file are reported).
fn nul_text((count, line, column): (usize, u32, u32)) -> String {
    let what = if count == 1 {
        "a NUL byte".to_string()
    } else {
        format!("{count} NUL bytes")
    };
    format!(
        "; it holds {what} (the first at line {line}, column {column}), which `check` reports \
         as syntax errors (SY001): a binary file, or text saved as UTF-16, is not SQL"
    )
}

/// A history's or a folder's path as shown: the folder of its first file, as the file's path
/// is shown.
fn folder_display(dir: &std::path::Path, ids: &[FileId], all: &[FileEntry]) -> String {
    if dir == std::path::Path::new(flinklint::semantic::history::EXTERNAL_TABLES) {
        return "external-tables".to_string();
    }
    let Some(first) = ids.first().and_then(|id| all.get(id.0 as usize)) else {
        return dir.to_string_lossy().replace('\\', "/");
    };
    match first.source.display_path().rsplit_once('/') {
        Some((folder, _)) if !folder.is_empty() => folder.to_string(),
        _ => ".".to_string(),
    }
}

/// The names of a folder's files, in order.
fn file_names(ids: &[FileId], all: &[FileEntry]) -> Vec<String> {
    ids.iter()
        .filter_map(|id| all.get(id.0 as usize))
        .map(|f| {
            f.source
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| f.source.display_path())
        })
        .collect()
}

fn history_by_id(by: HistoryBy) -> &'static str {
    match by {
        HistoryBy::ExternalTables => "external-tables",
        HistoryBy::Configured => "configured",
        HistoryBy::FlywayNames => "flyway-names",
        HistoryBy::NumberedNames => "numbered-names",
    }
}

/// The histories, and the numbered folders that are scripts, as lines of text.
fn plan_text(plan: &Plan, all: &[FileEntry]) -> String {
    let mut out = String::new();
    if !plan.histories.is_empty() {
        out.push_str(
            "histories (each folder's files apply in this order, in one session, before the \
             scripts):\n",
        );
        for h in &plan.histories {
            out.push_str(&format!(
                "  {} ({}): {}\n",
                folder_display(&h.dir, &h.files, all),
                h.by.describe(),
                file_names(&h.files, all).join(", ")
            ));
        }
    }
    if !plan.independent.is_empty() {
        out.push_str(
            "numbered files that are independent scripts, not a history (each re-creates what \
             it uses; none builds on an earlier one):\n",
        );
        for f in &plan.independent {
            out.push_str(&format!(
                "  {}: {}\n",
                folder_display(&f.dir, &f.files, all),
                file_names(&f.files, all).join(", ")
            ));
        }
    }
    out
}

/// `line L` or `lines A-B` of a span of `file`.
fn lines(file: &FileEntry, start: u32, end: u32) -> (u32, u32) {
    let first = file.source.line_col(start).line;
    let last = file.source.line_col(end.saturating_sub(1).max(start)).line;
    (first, last)
}

fn line_range((a, b): (u32, u32)) -> String {
    if a == b {
        format!("line {a}")
    } else {
        format!("lines {a}-{b}")
    }
}

/// `AUTO_INCREMENT at line 4, ENGINE = ... at line 9`.
fn signal_list(file: &FileEntry, signals: &[&Signal]) -> String {
    signals
        .iter()
        .map(|s| {
            format!(
                "{} at line {}",
                s.what,
                file.source.line_col(s.span.start).line
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn dialect_names(dialects: &[Dialect]) -> String {
    dialects
        .iter()
        .map(|d| d.name())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The reasons a file is Flink SQL: its strongest Flink signals, or why not any.
fn flink_reasons(file: &FileEntry) -> String {
    let dialect = &file.dialect;
    match dialect.reason {
        Reason::FlinkFiles => return "it matches `flink-files`".to_string(),
        Reason::DetectionOff => return "dialect-detection is off".to_string(),
        Reason::OtherFiles | Reason::Detected => {}
    }
    let mut seen: Vec<&Signal> = Vec::new();
    for s in dialect
        .signals
        .iter()
        .filter(|s| s.dialect == Dialect::Flink)
    {
        if !seen.iter().any(|o| o.what == s.what) {
            seen.push(s);
        }
    }
    seen.sort_by_key(|s| std::cmp::Reverse(s.strength));
    seen.truncate(3);
    if seen.is_empty() {
        if file.parsed.script.statements.is_empty() {
            "no statements".to_string()
        } else {
            "nothing speaks against it".to_string()
        }
    } else {
        signal_list(file, &seen)
    }
}

/// The description of one non-Flink stretch.
fn stretch_text(file: &FileEntry, stretch: &flinklint::dialect::Stretch) -> String {
    if file.dialect.reason == Reason::OtherFiles {
        return "not Flink SQL (it matches `other-files`)".to_string();
    }
    let names = dialect_names(&stretch.dialects);
    if let Some(set) = stretch.hive_switch {
        return format!(
            "{names} (after SET 'table.sql-dialect' = 'hive' at line {})",
            file.source.line_col(set.start).line
        );
    }
    let signals: Vec<&Signal> = stretch.signals.iter().collect();
    format!("{names} ({})", signal_list(file, &signals))
}

fn text(files: &[&FileEntry], all: &[FileEntry], plan: &Plan) -> String {
    let mut out = String::new();
    let mut counts = [0usize; 3];
    let mut unreadable = 0usize;
    let (mut flink_statements, mut other_statements) = (0usize, 0usize);
    for file in files {
        let d: &FileDialect = &file.dialect;
        let path = file.source.display_path();
        if let Some(reason) = &file.load_error {
            unreadable += 1;
            out.push_str(&format!("{path}: {}\n", unreadable_text(reason)));
            continue;
        }
        let nul = nul_bytes(file).map(nul_text).unwrap_or_default();
        let statements = &file.parsed.script.statements;
        let other = (0..statements.len()).filter(|i| !d.is_flink(*i)).count();
        other_statements += other;
        flink_statements += statements.len() - other;
        match d.verdict() {
            FileVerdict::Flink => {
                counts[0] += 1;
                out.push_str(&format!(
                    "{path}: Flink SQL ({}){nul}\n",
                    flink_reasons(file)
                ));
            }
            FileVerdict::NotFlink => {
                counts[1] += 1;
                let what = d
                    .stretches
                    .iter()
                    .map(|s| stretch_text(file, s))
                    .collect::<Vec<_>>()
                    .join("; ");
                out.push_str(&format!("{path}: not Flink SQL: {what}{nul}\n"));
            }
            FileVerdict::Mixed => {
                counts[2] += 1;
                out.push_str(&format!(
                    "{path}: mixed: {} of {} statements are not Flink SQL{nul}\n",
                    other,
                    statements.len()
                ));
                let mut at = 0usize;
                for s in &d.stretches {
                    if at < s.statements.start {
                        let span = statements[at]
                            .span
                            .cover(statements[s.statements.start - 1].span);
                        out.push_str(&format!(
                            "  {}: Flink SQL\n",
                            line_range(lines(file, span.start, span.end))
                        ));
                    }
                    out.push_str(&format!(
                        "  {}: {}\n",
                        line_range(lines(file, s.statements_span.start, s.statements_span.end)),
                        stretch_text(file, s)
                    ));
                    at = s.statements.end;
                }
                if at < statements.len() {
                    let span = statements[at]
                        .span
                        .cover(statements[statements.len() - 1].span);
                    out.push_str(&format!(
                        "  {}: Flink SQL\n",
                        line_range(lines(file, span.start, span.end))
                    ));
                }
            }
        }
    }
    out.push_str(&plan_text(plan, all));
    let unreadable = if unreadable > 0 {
        format!(", {unreadable} unreadable")
    } else {
        String::new()
    };
    out.push_str(&format!(
        "{} files: {} Flink SQL, {} not Flink SQL, {} mixed{unreadable}; {} statements: {} Flink SQL, {} not\n",
        files.len(),
        counts[0],
        counts[1],
        counts[2],
        flink_statements + other_statements,
        flink_statements,
        other_statements
    ));
    out
}

fn how_name(how: How) -> &'static str {
    match how {
        How::Signals => "signals",
        How::Neighbours => "neighbours",
        How::Names => "names",
        How::Default => "default",
        How::HiveDialect { .. } => "hive-dialect",
        How::JinjaFile => "jinja-file",
        How::Configured => "configured",
    }
}

fn dialect_id(d: Dialect) -> &'static str {
    match d {
        Dialect::Flink => "flink",
        Dialect::MySql => "mysql",
        Dialect::Postgres => "postgresql",
        Dialect::Hive => "hive",
        Dialect::Spark => "spark",
        Dialect::HiveOrSpark => "hive-or-spark",
        Dialect::ClickHouse => "clickhouse",
        Dialect::Doris => "doris",
        Dialect::Oracle => "oracle",
        Dialect::SqlServer => "sqlserver",
        Dialect::KsqlDb => "ksqldb",
        Dialect::Snowflake => "snowflake",
        Dialect::OtherDatabase => "other-database",
        Dialect::Jinja => "jinja",
        Dialect::Placeholders => "placeholders",
        Dialect::Fragment => "fragment",
    }
}

fn signal_json(file: &FileEntry, s: &Signal) -> serde_json::Value {
    let at = file.source.line_col(s.span.start);
    json!({
        "what": s.what,
        "dialect": dialect_id(s.dialect),
        "strength": format!("{:?}", s.strength).to_lowercase(),
        "line": at.line,
        "column": at.column,
    })
}

fn json_doc(files: &[&FileEntry], all: &[FileEntry], plan: &Plan) -> serde_json::Value {
    let mut out = Vec::new();
    let mut counts = [0usize; 3];
    let mut unreadable = 0usize;
    let (mut flink_statements, mut other_statements) = (0usize, 0usize);
    for file in files {
        if let Some(reason) = &file.load_error {
            unreadable += 1;
            out.push(json!({
                "path": file.source.display_path(),
                "verdict": "unreadable",
                "reason": "Unreadable",
                "load_error": reason,
                "check": unreadable_text(reason),
                "signals": [],
                "statements": [],
                "stretches": [],
            }));
            continue;
        }
        let d = &file.dialect;
        let verdict = d.verdict();
        counts[match verdict {
            FileVerdict::Flink => 0,
            FileVerdict::NotFlink => 1,
            FileVerdict::Mixed => 2,
        }] += 1;
        let statements: Vec<serde_json::Value> = file
            .parsed
            .script
            .statements
            .iter()
            .enumerate()
            .map(|(i, st)| {
                let verdict = d.statements.get(i);
                let dialect = d.dialect_of(i);
                if dialect == Dialect::Flink {
                    flink_statements += 1;
                } else {
                    other_statements += 1;
                }
                let at = file.source.line_col(st.span.start);
                let (_, end_line) = lines(file, st.span.start, st.span.end);
                json!({
                    "line": at.line,
                    "column": at.column,
                    "end_line": end_line,
                    "dialect": dialect_id(dialect),
                    "how": match verdict {
                        Some(v) => how_name(v.how),
                        None if d.reason == Reason::Detected => "default",
                        None => "configured",
                    },
                    "signals": d.signals_of(i).iter().map(|s| signal_json(file, s)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let stretches: Vec<serde_json::Value> = d
            .stretches
            .iter()
            .map(|s| {
                let (a, b) = lines(file, s.statements_span.start, s.statements_span.end);
                json!({
                    "start_line": a,
                    "end_line": b,
                    "statements": s.statements.len(),
                    "dialects": s.dialects.iter().map(|d| dialect_id(*d)).collect::<Vec<_>>(),
                    "signals": s.signals.iter().map(|x| signal_json(file, x)).collect::<Vec<_>>(),
                    "hive_switch_line": s.hive_switch.map(|h| file.source.line_col(h.start).line),
                })
            })
            .collect();
        let nul = nul_bytes(file);
        out.push(json!({
            "path": file.source.display_path(),
            "verdict": verdict,
            "nul_bytes": nul.map(|(count, line, column)| json!({
                "count": count,
                "line": line,
                "column": column,
                "check": nul_text((count, line, column)).trim_start_matches("; ").to_string(),
            })),
            "reason": format!("{:?}", d.reason),
            "signals": d.signals.iter().map(|s| signal_json(file, s)).collect::<Vec<_>>(),
            "statements": statements,
            "stretches": stretches,
        }));
    }
    let histories: Vec<serde_json::Value> = plan
        .histories
        .iter()
        .map(|h| {
            json!({
                "folder": folder_display(&h.dir, &h.files, all),
                "by": history_by_id(h.by),
                "files": h.files.iter().filter_map(|id| all.get(id.0 as usize))
                    .map(|f| f.source.display_path()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let independent: Vec<serde_json::Value> = plan
        .independent
        .iter()
        .map(|f| {
            json!({
                "folder": folder_display(&f.dir, &f.files, all),
                "files": f.files.iter().filter_map(|id| all.get(id.0 as usize))
                    .map(|f| f.source.display_path()).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "version": 1,
        "files": out,
        "histories": histories,
        "independent_scripts": independent,
        "summary": {
            "files": files.len(),
            "flink": counts[0],
            "not_flink": counts[1],
            "mixed": counts[2],
            "unreadable": unreadable,
            "statements": flink_statements + other_statements,
            "flink_statements": flink_statements,
            "other_statements": other_statements,
        }
    })
}
