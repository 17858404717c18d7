//! `flinklint expand`: a table's definition as Flink's `SHOW CREATE TABLE` prints it after its
//! session or history has run, its columns as `DESCRIBE` lists them (with kind and origin),
//! diffs against its LIKE parent or its declaration, every version across a history, and the
//! effective LIKE strategies.

use super::{run_inputs, use_color, InputArgs};
use flinklint::diagnostics::Severity;
use flinklint::files::FileEntry;
use flinklint::project::lookup::{self, expanded};
use flinklint::render;
use flinklint::semantic::catalog::{CatalogObject, ObjectDef};
use flinklint::semantic::describe::{self, DescribeOrigin, DescribeRow};
use flinklint::semantic::system::SystemColumns;
use flinklint::semantic::{table, SessionResult};
use flinklint::syntax::ast::{ObjectName, StatementKind};

use compact_str::CompactString;
use flinklint::source::escape;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `expand`.
#[derive(Debug, clap::Args)]
pub struct ExpandArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The table: a 1-3 part name (backticks allowed), resolved against the final current
    /// catalog and database of the session or history that defines it.
    #[arg(long, value_name = "NAME", required_unless_present = "explain_like")]
    table: Option<String>,
    /// When several scripts define the table, the file whose session to use.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print a unified diff of the LIKE parent's expanded definition against the table's.
    #[arg(long, conflicts_with_all = ["diff_declared", "versions", "describe"])]
    diff: bool,
    /// Print a unified diff of the statement as written against the expanded definition.
    #[arg(long, conflicts_with_all = ["versions", "describe"])]
    diff_declared: bool,
    /// Print every version of the table across its history (or its session), the first in
    /// full, each next one as a unified diff against the one before. With `--base REV`, the
    /// version deployed from REV comes first.
    #[arg(
        long = "history",
        visible_alias = "versions",
        conflicts_with = "describe"
    )]
    versions: bool,
    /// Print the table's columns as Flink's `DESCRIBE` lists them (name, type, null, key,
    /// extras, watermark, comment), system columns included, with each column's kind
    /// (physical / computed / metadata [virtual] / system) and origin (declared or inherited
    /// from a LIKE parent, at file:line).
    #[arg(long)]
    describe: bool,
    /// Print the effective merging strategy of every feature for each LIKE in the inputs.
    #[arg(long)]
    explain_like: bool,
}

/// Prints SQL text (a definition, a diff, a version of the history): on a terminal with the
/// control characters of the input (a name, a comment, an option value) escaped, so that none
/// acts on the terminal; verbatim into a pipe or a file, where it is SQL to run or to keep
/// (`expand --table t > t.sql`). `Err` carries exit code 2 when standard output failed.
fn out(text: &str) -> Result<(), ExitCode> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        super::print_stdout(&escape::lines(text))
    } else {
        super::print_stdout(text)
    }
}

/// `text` of the input (a name, a path) for a message or a report line: escaped everywhere,
/// a pipe included (see [`escape::text`]).
fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    escape::text(text)
}

/// A file's path for a message or a report line, escaped.
fn shown_file(file: &FileEntry) -> String {
    escape::path(&file.source.path)
}

/// `--describe`: the rows in the SQL client's table layout (cells left-aligned, where the SQL
/// client right-aligns them: file paths read better), the `comment` column only when a column
/// has a comment, as Flink's `DESCRIBE` prints it.
fn describe_table(
    rows: &[DescribeRow],
    files: &[FileEntry],
    current: &(CompactString, CompactString),
) -> String {
    let at = |origin: &flinklint::semantic::catalog::Origin| {
        let file = &files[origin.file.0 as usize];
        let line = file.source.line_col(origin.span.start).line;
        format!("{}:{line}", shown_file(file))
    };
    let with_comment = rows.iter().any(|r| r.comment.is_some());
    let mut header = vec!["name", "type", "null", "key", "extras", "watermark"];
    if with_comment {
        header.push("comment");
    }
    header.extend(["kind", "origin"]);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let text = |v: &Option<String>| safe(v.as_deref().unwrap_or_default()).into_owned();
            let mut row = vec![
                safe(&r.name).into_owned(),
                r.data_type
                    .as_deref()
                    .map_or_else(|| "(unknown)".to_string(), |t| safe(t).into_owned()),
                match r.nullable {
                    Some(true) => "TRUE".to_string(),
                    Some(false) => "FALSE".to_string(),
                    None => String::new(),
                },
                text(&r.key),
                text(&r.extras),
                text(&r.watermark),
            ];
            if with_comment {
                row.push(text(&r.comment));
            }
            row.push(r.kind.as_str().to_string());
            row.push(match &r.origin {
                DescribeOrigin::Declared(o) => format!("declared at {}", at(o)),
                DescribeOrigin::Inherited(parent, o) => {
                    // The parent as the session names it: unqualified in its current database.
                    let name = if parent.catalog == current.0 && parent.database == current.1 {
                        flinklint::semantic::names::quote(&parent.object)
                    } else {
                        parent.to_string()
                    };
                    format!("inherited from {} at {}", safe(&name), at(o))
                }
                DescribeOrigin::Platform => "platform".to_string(),
            });
            row
        })
        .collect();
    let width = |i: usize| {
        cells
            .iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let rule = format!(
        "+{}+\n",
        widths
            .iter()
            .map(|w| "-".repeat(w + 2))
            .collect::<Vec<_>>()
            .join("+")
    );
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!(" {c:<w$} "))
            .collect();
        format!("|{}|\n", padded.join("|"))
    };
    let mut out = rule.clone();
    out.push_str(&line(
        &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
    ));
    out.push_str(&rule);
    for row in &cells {
        out.push_str(&line(row));
    }
    out.push_str(&rule);
    out.push_str(&format!(
        "{} row{} in set\n",
        cells.len(),
        if cells.len() == 1 { "" } else { "s" }
    ));
    out
}

fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

/// Runs `expand`.
pub fn run(args: ExpandArgs) -> ExitCode {
    let settings = match super::settings(&args.input, Default::default()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let outcome = match run_inputs(&args.input, None, &settings, false) {
        Ok(o) => o,
        Err(code) => return code,
    };
    if args.explain_like {
        if let Err(code) = super::print_stdout(&explain_like(&outcome.files)) {
            return code;
        }
        if args.table.is_none() {
            return ExitCode::SUCCESS;
        }
    }
    let Some(table_arg) = &args.table else {
        return ExitCode::SUCCESS;
    };
    let file_filter = args
        .file
        .as_ref()
        .map(|f| f.to_string_lossy().replace('\\', "/"));
    if let Some(filter) = &file_filter {
        if !outcome.files.iter().any(|f| same_path(f, filter)) {
            let filter = safe(filter);
            eprintln!("flinklint: `{filter}` is not among the input files; --file names one of the files given to expand");
            return ExitCode::from(2);
        }
    }
    let accepts = |f: &FileEntry| {
        file_filter
            .as_ref()
            .is_none_or(|filter| same_path(f, filter))
    };
    let candidates: Vec<(&SessionResult, Arc<CatalogObject>)> =
        match lookup::definitions(&outcome, table_arg, Some(&accepts)) {
            Ok(found) => found
                .into_iter()
                .map(|d| (&outcome.model.sessions[d.session], d.object))
                .collect(),
            Err(e) => {
                eprintln!("flinklint: {}", safe(&e.to_string()));
                return ExitCode::from(2);
            }
        };
    // Every message below quotes the name as given: escaped.
    let table_arg = safe(table_arg);
    match candidates.len() {
        0 => {
            eprintln!("flinklint: no session defines table `{table_arg}`");
            return ExitCode::from(2);
        }
        1 => {}
        _ => {
            eprintln!(
                "flinklint: several sessions define table `{table_arg}`; pick one with --file:"
            );
            for (_, object) in &candidates {
                let file = &outcome.files[object.name_origin.file.0 as usize];
                let at = file.source.line_col(object.name_origin.span.start);
                eprintln!("  {}:{}", shown_file(file), at.line);
            }
            return ExitCode::from(2);
        }
    }
    let (session, object) = &candidates[0];
    // The table's own statements must be free of errors.
    let statements: Vec<_> = session
        .versions
        .iter()
        .filter(|v| v.object.name == object.name)
        .map(|v| v.statement)
        .collect();
    let errors: Vec<_> = outcome
        .diagnostics
        .iter()
        .filter(|d| {
            d.severity == Severity::Error
                && statements
                    .iter()
                    .any(|s| s.file == d.file && s.span.contains(d.span))
        })
        .cloned()
        .collect();
    if errors.is_empty() && object.incomplete {
        // No error of its own: it depends on something the inputs do not define.
        eprintln!(
            "flinklint: cannot expand `{table_arg}`: {}",
            safe(&incomplete_reason(object, &outcome.files, session))
        );
        return ExitCode::from(1);
    }
    if !errors.is_empty() {
        let text = render::human::render(
            &outcome.files,
            outcome.files_checked(),
            &errors,
            render::human::HumanOptions {
                color: use_color(),
                width: super::report_width(true),
            },
        );
        // The human format escapes what it quotes (and colours only on a terminal).
        if let Err(code) = super::print_stdout(&text) {
            return code;
        }
        eprintln!("flinklint: `{table_arg}` has errors in its definition; fix them to expand it");
        return ExitCode::from(1);
    }
    let system = SystemColumns::from_settings(&settings);
    let text = expanded(object, &system);
    if args.describe {
        let t = match &object.def {
            ObjectDef::Table(t) | ObjectDef::Materialized(t) => t,
            ObjectDef::View(_) => {
                eprintln!("flinklint: `{table_arg}` is a view; --describe lists the columns of tables and materialized tables");
                return ExitCode::from(2);
            }
        };
        let rows = describe::rows(t, &system);
        // A report whose cells are escaped, on a terminal or not.
        if let Err(code) =
            super::print_stdout(&describe_table(&rows, &outcome.files, &session.current))
        {
            return code;
        }
    } else if args.diff {
        let Some(parent) = &object.derived_from else {
            eprintln!("flinklint: `{table_arg}` is not defined with LIKE; --diff compares a table with its LIKE parent");
            return ExitCode::from(2);
        };
        if let Err(code) = out(&unified(
            &expanded(parent, &system),
            &text,
            &parent.name.to_string(),
            &object.name.to_string(),
        )) {
            return code;
        }
    } else if args.diff_declared {
        let first = session
            .versions
            .iter()
            .find(|v| v.object.name == object.name)
            .map(|v| v.statement)
            .unwrap_or(object.statement);
        let file = &outcome.files[first.file.0 as usize];
        let declared = format!("{};\n", file.source.slice(first.span));
        if let Err(code) = out(&unified(
            &declared,
            &text,
            &format!("{} (as written)", file.source.display_path()),
            &format!("{} (expanded)", object.name),
        )) {
            return code;
        }
    } else if args.versions {
        let versions: Vec<_> = session
            .versions
            .iter()
            .filter(|v| v.object.name == object.name)
            .collect();
        let mut previous: Option<String> = None;
        for (i, v) in versions.iter().enumerate() {
            let file = &outcome.files[v.statement.file.0 as usize];
            let at = file.source.line_col(v.statement.span.start);
            let current = expanded(&v.object, &system);
            // The path in a SQL comment: escaped, so that no line break ends the comment.
            let header = format!("-- version {} ({}:{})\n", i + 1, shown_file(file), at.line);
            let shown = match &previous {
                None => out(&format!("{header}{current}")),
                Some(p) => out(&format!(
                    "{header}{}",
                    unified(
                        p,
                        &current,
                        &format!("version {i}"),
                        &format!("version {}", i + 1),
                    )
                )),
            };
            if let Err(code) = shown {
                return code;
            }
            previous = Some(current);
        }
    } else if let Err(code) = out(&text) {
        return code;
    }
    ExitCode::SUCCESS
}

/// Why a table without errors of its own has unknown columns: its LIKE parent or the objects
/// its query reads are missing from (or broken in) the inputs.
fn incomplete_reason(
    object: &CatalogObject,
    files: &[FileEntry],
    session: &SessionResult,
) -> String {
    let statement = files
        .get(object.statement.file.0 as usize)
        .and_then(|f| {
            f.parsed
                .script
                .all_statements()
                .into_iter()
                .find(|s| s.span == object.statement.span)
        })
        .map(|s| &s.kind);
    match statement {
        Some(StatementKind::CreateTable(ct)) => {
            if let Some(like) = &ct.like {
                let parts: Vec<String> =
                    like.source.parts.iter().map(|p| p.text.to_string()).collect();
                let parent = dotted(&like.source);
                return match session.object(&lookup::resolve(&parts, session)) {
                    Some(_) => format!(
                        "the LIKE parent `{parent}` has errors in its definition; its columns are unknown"
                    ),
                    None => format!(
                        "the LIKE parent `{parent}` is not defined in the given files; its columns are unknown"
                    ),
                };
            }
            if ct.query.is_some() {
                return "its query reads tables or views not defined in the given files; its columns are unknown".to_string();
            }
            "its definition depends on objects not defined in the given files".to_string()
        }
        Some(StatementKind::CreateMaterializedTable(_)) => {
            "its query reads tables or views not defined in the given files; its columns are unknown".to_string()
        }
        _ => "its definition depends on objects not defined in the given files".to_string(),
    }
}

fn same_path(file: &FileEntry, filter: &str) -> bool {
    let shown = file.source.display_path();
    let norm = |s: &str| s.trim_start_matches("./").to_string();
    norm(&shown) == norm(filter)
        || std::fs::canonicalize(&file.source.path).ok() == std::fs::canonicalize(filter).ok()
            && std::path::Path::new(filter).exists()
}

/// `--explain-like`: each LIKE's effective strategy per feature (flink-spec §3.2).
fn explain_like(files: &[FileEntry]) -> String {
    let mut text = String::new();
    for file in files.iter().filter(|f| f.report) {
        for statement in file.parsed.script.all_statements() {
            let StatementKind::CreateTable(ct) = &statement.kind else {
                continue;
            };
            let Some(like) = &ct.like else { continue };
            let at = file.source.line_col(statement.span.start);
            text.push_str(&format!(
                "{}:{}: {} LIKE {}\n",
                shown_file(file),
                at.line,
                safe(&dotted(&ct.name)),
                safe(&dotted(&like.source))
            ));
            let (strategies, _) = table::strategies(&like.options);
            for (feature, strategy, source) in strategies.iter() {
                let why = match source {
                    Some(span) => format!("from `{}`", safe(file.source.slice(span))),
                    None => "default".to_string(),
                };
                text.push_str(&format!(
                    "  {:<13} {:<12} ({why})\n",
                    feature.as_str(),
                    strategy.as_str()
                ));
            }
        }
    }
    if text.is_empty() {
        text.push_str("no CREATE TABLE ... LIKE in the given files\n");
    }
    text
}

fn dotted(name: &ObjectName) -> String {
    name.dotted()
}
