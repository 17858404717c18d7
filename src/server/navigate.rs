//! Hover, go to definition, find references and document symbols, answered from a project's
//! last check: names are read from the file's tokens and looked up in the catalog
//! ([`crate::project::lookup`]), so a name means what it means in its session.

use super::text;
use crate::files::FileEntry;
use crate::project::{lookup, Outcome, Project};
use crate::semantic::catalog::{CatalogObject, Column, TableDef};
use crate::semantic::describe::{self, DescribeOrigin, DescribeRow};
use crate::semantic::names::QualifiedName;
use crate::semantic::query::Scope;
use crate::semantic::session::statement_query;
use crate::semantic::system::SystemColumns;
use crate::semantic::types::Type;
use crate::semantic::validate;
use crate::semantic::SessionResult;
use crate::source::Span;
use crate::syntax::ast::ObjectName;
use crate::syntax::ast::StatementKind;
use crate::syntax::lexer::{Token, TokenKind};
use compact_str::CompactString;
use lsp_types as lsp;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn is_ident(t: &Token) -> bool {
    matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent)
}

/// The index of the token at byte `offset` (a cursor just after a word counts as on it).
fn token_at(tokens: &[Token], offset: u32) -> Option<usize> {
    let i = tokens.partition_point(|t| t.span.end < offset);
    let t = tokens.get(i)?;
    if t.span.start <= offset && offset <= t.span.end {
        // Between two tokens that touch: prefer the identifier.
        if offset == t.span.end {
            if let Some(next) = tokens.get(i + 1) {
                if next.span.start == offset && is_ident(next) && !is_ident(t) {
                    return Some(i + 1);
                }
            }
        }
        Some(i)
    } else {
        None
    }
}

/// The token indices of the dotted name (1 to 3 parts) that holds identifier token `i`.
fn dotted(tokens: &[Token], i: usize) -> (usize, usize) {
    let (mut first, mut last) = (i, i);
    while first >= 2
        && tokens[first - 1].kind == TokenKind::Dot
        && is_ident(&tokens[first - 2])
        && last - first < 4
    {
        first -= 2;
    }
    while last + 2 < tokens.len()
        && tokens[last + 1].kind == TokenKind::Dot
        && is_ident(&tokens[last + 2])
        && last - first < 4
    {
        last += 2;
    }
    (first, last)
}

/// A name under the cursor: its text and span.
pub struct NameAt {
    /// The whole dotted name.
    pub name: String,
    /// Its span.
    pub span: Span,
    /// The identifier under the cursor, unquoted.
    pub word: String,
}

fn unquote(raw: &str) -> String {
    match raw.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        Some(inner) => inner.replace("``", "`"),
        None => raw.to_string(),
    }
}

/// The name at byte `offset` of `file`.
pub fn name_at(file: &FileEntry, offset: u32) -> Option<NameAt> {
    let tokens = &file.parsed.tokens;
    let i = token_at(tokens, offset)?;
    if !is_ident(&tokens[i]) {
        return None;
    }
    let (first, last) = dotted(tokens, i);
    let span = tokens[first].span.cover(tokens[last].span);
    let text = &file.source.text;
    Some(NameAt {
        name: text[span.range()].to_string(),
        span,
        word: unquote(&text[tokens[i].span.range()]),
    })
}

/// The rule code under the cursor in a `flinklint:` comment.
pub fn rule_in_comment(
    file: &FileEntry,
    offset: u32,
) -> Option<&'static crate::registry::RuleMeta> {
    let tokens = &file.parsed.tokens;
    let i = token_at(tokens, offset)?;
    let t = &tokens[i];
    let text = &file.source.text;
    let comment = &text[t.span.range()];
    if !comment.contains(crate::rules::suppression::MARKER) {
        return None;
    }
    let at = (offset - t.span.start) as usize;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let start = comment[..at.min(comment.len())]
        .rfind(|c: char| !word(c))
        .map_or(0, |p| p + 1);
    let end = comment[start..]
        .find(|c: char| !word(c))
        .map_or(comment.len(), |p| start + p);
    crate::registry::find(comment.get(start..end)?)
}

/// A file's path for a hover: relative to the project root when under it.
fn shown(project: &Project, path: &Path) -> String {
    project
        .settings()
        .root
        .as_deref()
        .and_then(|r| path.strip_prefix(r).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn origin_text(project: &Project, outcome: &Outcome, row: &DescribeRow) -> String {
    let at = |o: &crate::semantic::catalog::Origin| {
        let file = &outcome.files[o.file.0 as usize];
        format!(
            "{}:{}",
            shown(project, &file.source.path),
            file.source.line_col(o.span.start).line
        )
    };
    match &row.origin {
        DescribeOrigin::Declared(o) => format!("declared at {}", at(o)),
        DescribeOrigin::Inherited(parent, o) => format!("inherited from {parent} at {}", at(o)),
        DescribeOrigin::Platform => "platform".to_string(),
    }
}

/// `s` as a Markdown code span (a span that holds backticks is delimited by two).
fn code(s: &str) -> String {
    if s.contains('`') {
        format!("`` {} ``", s.replace(['\n', '\r'], " "))
    } else {
        format!("`{s}`")
    }
}

/// A Markdown table cell: pipes and line breaks escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The hover of table, view or materialized table `name`: its expanded definition and columns.
pub fn hover_object(project: &Project, outcome: &Outcome, name: &str) -> Option<String> {
    let definitions = project.definitions(name);
    let definition = definitions.first()?;
    let system = SystemColumns::from_settings(project.settings());
    let object = &definition.object;
    let expanded = lookup::expanded(object, &system);
    let mut out = format!("```sql\n{expanded}```\n");
    if let crate::semantic::catalog::ObjectDef::View(view) = &object.def {
        // A view's columns and the types its query gives them.
        if let Some(columns) = view.columns.as_ref().filter(|c| !c.is_empty()) {
            out.push_str("\n| column | type |\n|---|---|\n");
            for (i, c) in columns.iter().enumerate() {
                let data_type = view
                    .types
                    .get(i)
                    .and_then(Option::as_ref)
                    .map_or_else(|| "(unknown)".to_string(), |t| t.render());
                out.push_str(&format!("| {} | {} |\n", cell(c), cell(&data_type)));
            }
        }
    }
    if let Some(table) = definition.object.def.table() {
        let rows = describe::rows(table, &system);
        if !rows.is_empty() {
            out.push_str("\n| column | type | kind | origin |\n|---|---|---|---|\n");
            for r in &rows {
                out.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    cell(&r.name),
                    cell(r.data_type.as_deref().unwrap_or("(unknown)")),
                    r.kind.as_str(),
                    cell(&origin_text(project, outcome, r)),
                ));
            }
        }
    }
    if definitions.len() > 1 {
        out.push_str(&format!(
            "\n{} sessions define `{}`; this is the first.\n",
            definitions.len(),
            cell(name)
        ));
    }
    Some(out)
}

/// Every dotted name in the statement of `file` that holds `offset`, with their spans.
fn names_in_statement(file: &FileEntry, offset: u32) -> Vec<String> {
    let Some(statement) = file
        .parsed
        .script
        .statements
        .iter()
        .find(|s| s.span.start <= offset && offset <= s.span.end)
    else {
        return Vec::new();
    };
    let tokens = &file.parsed.tokens;
    let from = tokens.partition_point(|t| t.span.end <= statement.span.start);
    let mut out = Vec::new();
    let mut i = from;
    while i < tokens.len() && tokens[i].span.start < statement.span.end {
        if is_ident(&tokens[i]) {
            let (first, last) = dotted(tokens, i);
            let span = tokens[first].span.cover(tokens[last].span);
            let name = file.source.text[span.range()].to_string();
            if !out.contains(&name) {
                out.push(name);
            }
            i = last + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The hover of a column named `word` of a table that the statement at `offset` names (or
/// creates): its type, kind and where it comes from.
pub fn hover_column(
    project: &Project,
    outcome: &Outcome,
    file: &FileEntry,
    offset: u32,
    word: &str,
) -> Option<String> {
    let system = SystemColumns::from_settings(project.settings());
    let mut found = None;
    for name in names_in_statement(file, offset) {
        let Some(definition) = project.definitions(&name).into_iter().next() else {
            continue;
        };
        let Some(table) = definition.object.def.table() else {
            continue;
        };
        let rows = describe::rows(table, &system);
        let row = rows
            .iter()
            .find(|r| r.name == word)
            .or_else(|| rows.iter().find(|r| r.name.eq_ignore_ascii_case(word)));
        if let Some(row) = row {
            found = Some((definition.object.name.to_string(), row.clone()));
            break;
        }
    }
    let (table, row) = found?;
    Some(column_markdown(project, outcome, &table, &row))
}

/// The hover of a column: its table, type, kind and origin.
fn column_markdown(project: &Project, outcome: &Outcome, table: &str, row: &DescribeRow) -> String {
    let mut out = format!(
        "column {} of {}\n\n- type: {}\n- kind: {}\n- origin: {}\n",
        code(&row.name),
        code(table),
        code(row.data_type.as_deref().unwrap_or("(unknown)")),
        row.kind.as_str(),
        origin_text(project, outcome, row)
    );
    if let Some(key) = &row.key {
        out.push_str(&format!("- key: {key}\n"));
    }
    if let Some(extras) = &row.extras {
        out.push_str(&format!("- {}\n", cell(extras)));
    }
    out
}

/// The catalog a hover's query is resolved against: the objects the file's session leaves
/// (its current catalog and database as at its end), and the objects other sessions define
/// that the statement names (what a script sees of other scripts and histories).
struct HoverScope<'a> {
    session: &'a SessionResult,
    others: HashMap<QualifiedName, Arc<CatalogObject>>,
    system: &'a SystemColumns,
}

impl HoverScope<'_> {
    fn object(&self, q: &QualifiedName) -> Option<&CatalogObject> {
        self.session
            .object(q)
            .map(|o| &**o)
            .or_else(|| self.others.get(q).map(|o| &**o))
    }
}

impl Scope for HoverScope<'_> {
    fn lookup(&self, name: &ObjectName) -> Option<(QualifiedName, &CatalogObject)> {
        let q = QualifiedName::resolve(name, &self.session.current.0, &self.session.current.1)?;
        let object = self.object(&q)?;
        Some((q, object))
    }
    fn hidden_from_star(&self, column: &Column) -> bool {
        self.system.is_declared_system(column)
    }
    fn system_columns(&self, table: &TableDef) -> Vec<(CompactString, Option<Type>)> {
        self.system
            .of_table(table)
            .map(|c| (CompactString::from(c.name.as_str()), c.data_type.clone()))
            .collect()
    }
}

/// The hover of the column an identifier of a query at `offset` resolves to, as Flink's
/// validator resolves it (scopes, aliases, joins, subqueries: [`validate`]): the column of
/// the table the reference names, with its type, kind and origin; for a column of a WITH
/// query or a subquery, its relation and type. `None` where the statement has no query, the
/// offset is on no resolved identifier, or the query has a name problem before it.
pub fn hover_query_column(
    project: &Project,
    outcome: &Outcome,
    file: &FileEntry,
    offset: u32,
) -> Option<String> {
    let statement = file
        .parsed
        .script
        .statements
        .iter()
        .find(|s| s.span.start <= offset && offset <= s.span.end)?;
    let query = statement_query(&statement.kind)?;
    let session = outcome.model.session_of(file.id)?;
    let system = SystemColumns::from_settings(project.settings());
    let mut others = HashMap::new();
    for name in names_in_statement(file, offset) {
        let Some(parts) = lookup::parse_name(&name) else {
            continue;
        };
        let q = lookup::resolve(&parts, session);
        if session.object(&q).is_some() || others.contains_key(&q) {
            continue;
        }
        if let Some(d) = project
            .definitions(&name)
            .into_iter()
            .find(|d| d.object.name == q)
        {
            others.insert(q, d.object);
        }
    }
    let scope = HoverScope {
        session,
        others,
        system: &system,
    };
    let validation = validate::validate(query, &scope, &[]);
    let (_, column) = validation
        .columns
        .iter()
        .filter(|(span, _)| span.start <= offset && offset <= span.end)
        .min_by_key(|(span, _)| span.end - span.start)?;
    let name = column
        .column
        .split('.')
        .next()
        .unwrap_or(column.column.as_str());
    if let Some(q) = &column.table {
        let object = scope.object(q)?;
        if let Some(table) = object.def.table() {
            let rows = describe::rows(table, &system);
            if let Some(row) = rows.iter().find(|r| r.name == name) {
                let mut out = column_markdown(project, outcome, &q.to_string(), row);
                if column.column != name {
                    out.push_str(&format!(
                        "- field {} : {}\n",
                        code(&column.column),
                        code(&type_text(column.data_type.as_ref()))
                    ));
                }
                return Some(out);
            }
        }
    }
    let relation = column
        .table
        .as_ref()
        .map(|q| q.to_string())
        .or_else(|| column.relation.as_ref().map(|r| r.to_string()))
        .unwrap_or_default();
    Some(format!(
        "column {} of {}\n\n- type: {}\n",
        code(&column.column),
        code(&relation),
        code(&type_text(column.data_type.as_ref()))
    ))
}

fn type_text(t: Option<&Type>) -> String {
    t.map_or_else(|| "(unknown)".to_string(), Type::render)
}

/// Where `name` is defined: one location per session that defines it (duplicates merged).
pub fn definition_locations(
    project: &Project,
    outcome: &Outcome,
    name: &str,
) -> Vec<lsp::Location> {
    let mut seen = HashSet::new();
    project
        .definitions(name)
        .into_iter()
        .filter(|d| seen.insert((d.path.clone(), d.span.start)))
        .filter_map(|d| location(outcome, &d.path, d.span))
        .collect()
}

fn location(outcome: &Outcome, path: &Path, span: Span) -> Option<lsp::Location> {
    let file = outcome.files.iter().find(|f| f.source.path == path)?;
    Some(lsp::Location {
        uri: text::path_to_uri(path)?,
        range: text::range(&file.source, span),
    })
}

/// Every place in the project's files that names the object `name` names (the same
/// definitions), its definitions included when `declaration`.
pub fn references(
    project: &Project,
    outcome: &Outcome,
    name: &str,
    declaration: bool,
) -> Vec<lsp::Location> {
    let target: HashSet<(PathBuf, u32)> = project
        .definitions(name)
        .into_iter()
        .map(|d| (d.path, d.span.start))
        .collect();
    if target.is_empty() {
        return Vec::new();
    }
    let Some(parts) = lookup::parse_name(name) else {
        return Vec::new();
    };
    let last = parts.last().cloned().unwrap_or_default();
    let mut cache: HashMap<String, bool> = HashMap::new();
    let mut out = Vec::new();
    for file in &outcome.files {
        let tokens = &file.parsed.tokens;
        let text = &file.source.text;
        let mut i = 0;
        while i < tokens.len() {
            if !is_ident(&tokens[i]) {
                i += 1;
                continue;
            }
            let (first, end) = dotted(tokens, i);
            i = end + 1;
            if !unquote(&text[tokens[end].span.range()]).eq_ignore_ascii_case(&last) {
                continue;
            }
            let span = tokens[first].span.cover(tokens[end].span);
            let candidate = &text[span.range()];
            let same = *cache.entry(candidate.to_string()).or_insert_with(|| {
                project
                    .definitions(candidate)
                    .into_iter()
                    .any(|d| target.contains(&(d.path, d.span.start)))
            });
            if !same {
                continue;
            }
            let is_declaration = target.contains(&(file.source.path.clone(), span.start))
                || target
                    .iter()
                    .any(|(p, s)| *p == file.source.path && *s >= span.start && *s < span.end);
            if is_declaration && !declaration {
                continue;
            }
            if let Some(uri) = text::path_to_uri(&file.source.path) {
                out.push(lsp::Location {
                    uri,
                    range: text::range(&file.source, span),
                });
            }
        }
    }
    out
}

/// The statements of a file as symbols, named by the objects they create.
pub fn symbols(file: &FileEntry) -> Vec<lsp::DocumentSymbol> {
    let text = &file.source.text;
    file.parsed
        .script
        .statements
        .iter()
        .filter(|s| !s.span.is_empty())
        .map(|s| {
            let (name, kind, selection) = match &s.kind {
                StatementKind::CreateTable(t) => {
                    (t.name.span, lsp::SymbolKind::STRUCT, "CREATE TABLE")
                }
                StatementKind::CreateMaterializedTable(t) => (
                    t.name.span,
                    lsp::SymbolKind::STRUCT,
                    "CREATE MATERIALIZED TABLE",
                ),
                StatementKind::CreateView(v) => {
                    (v.name.span, lsp::SymbolKind::INTERFACE, "CREATE VIEW")
                }
                _ => (s.span, lsp::SymbolKind::EVENT, ""),
            };
            let (label, detail) = if selection.is_empty() {
                let head: String = text[s.span.range()]
                    .split_whitespace()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" ");
                let head: String = head.chars().take(60).collect();
                (head, None)
            } else {
                (text[name.range()].to_string(), Some(selection.to_string()))
            };
            let range = text::range(&file.source, s.span);
            let selection_range = if selection.is_empty() {
                range
            } else {
                text::range(&file.source, name)
            };
            #[allow(deprecated)]
            lsp::DocumentSymbol {
                name: if label.is_empty() {
                    "statement".to_string()
                } else {
                    label
                },
                detail,
                kind,
                tags: None,
                deprecated: None,
                range,
                selection_range,
                children: None,
            }
        })
        .collect()
}
