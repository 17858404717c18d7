//! The INSERT's row against its sink's columns once they fit in number and names: types that
//! do not cast implicitly, NOT NULL columns left empty, time attributes written, and what the
//! sink cannot take ([`SinkIssue`]).

use super::*;

/// What Flink rejects in an INSERT whose columns fit its sink in number and names: checked
/// after [`InsertIssue`]s, in Flink's order (`PreValidateReWriter` while validating, then
/// `DynamicSinkUtils` while planning, then the connector while translating).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SinkIssue {
    /// A query column's type does not cast implicitly to its sink column's
    /// ([`super::sink_cast`]).
    ColumnType {
        /// The sink column.
        column: String,
        /// Its 1-based position among the sink's persisted columns.
        position: usize,
        /// The query column's type, as Flink prints it.
        query_type: String,
        /// The sink column's type, as Flink prints it.
        sink_type: String,
        /// Flink's `Query schema` (`name: TYPE`, sink order), when every type is known.
        query_schema: Option<Vec<String>>,
        /// Flink's `Sink schema`, when every type is known.
        sink_schema: Option<Vec<String>>,
    },
    /// A target column list leaves out a NOT NULL sink column (its value would be NULL).
    NotNullOmitted {
        /// The column.
        column: String,
        /// Where it is declared.
        declared: Origin,
    },
    /// A static `PARTITION (k = v)` names a column that is not a partition key.
    StaticPartitionNotKey {
        /// The column.
        column: String,
        /// The sink's partition keys.
        keys: Vec<String>,
    },
    /// The INSERT's target is a view.
    IntoView,
    /// `INSERT OVERWRITE` into a sink whose connector cannot overwrite (`blackhole`, `print`).
    OverwriteUnsupported {
        /// The connector.
        connector: String,
    },
    /// `INSERT OVERWRITE` into a `filesystem` sink while the runtime mode is streaming.
    OverwriteInStreaming,
    /// An INSERT into a sink with a persisted metadata column whose connector writes no
    /// metadata (`blackhole`, `print`, `filesystem`).
    MetadataNotWritable {
        /// The first persisted metadata column.
        column: String,
        /// The connector.
        connector: String,
    },
}

impl SinkIssue {
    /// Flink's message for the issue on the sink `table`.
    pub fn flink_message(&self, table: &QualifiedName) -> String {
        match self {
            SinkIssue::ColumnType {
                column,
                position,
                query_schema,
                sink_schema,
                ..
            } => {
                schema_message(
                    table,
                    &format!("Incompatible types for sink column '{column}' at position {position}."),
                    query_schema.as_deref(),
                    sink_schema.as_deref(),
                )
            }
            SinkIssue::NotNullOmitted { column, .. } => {
                format!("Column '{column}' has no default value and does not allow NULLs")
            }
            SinkIssue::StaticPartitionNotKey { column, keys } => format!(
                "Static partition column '{column}' should be in the partition keys list [{}] for table '{}'.",
                keys.join(", "),
                table.dotted()
            ),
            SinkIssue::IntoView => format!("Sink '{}' does not exists", table.dotted()),
            SinkIssue::OverwriteUnsupported { .. } => format!(
                "INSERT OVERWRITE requires that the underlying DynamicTableSink of table '{}' implements the SupportsOverwrite interface.",
                table.dotted()
            ),
            SinkIssue::OverwriteInStreaming => "Streaming mode not support overwrite.".to_string(),
            SinkIssue::MetadataNotWritable { .. } => format!(
                "Table '{}' declares persistable metadata columns, but the underlying DynamicTableSink doesn't implement the SupportsWritingMetadata interface. If the column should not be persisted, it can be declared with the VIRTUAL keyword.",
                table.dotted()
            ),
        }
    }
}

/// One column of the query row Flink compares with the sink, in sink order.
struct RowColumn {
    name: CompactString,
    data_type: Option<Type>,
    /// Written by the query (not a static partition value or a NULL for an omitted column).
    from_query: bool,
    span: Span,
    /// Flink's mark of a time attribute after the type (`*ROWTIME*`, `*PROCTIME*`).
    marker: Option<&'static str>,
}

impl Session<'_> {
    /// Whether the sink column `c` rejects NULL: declared `NOT NULL`, or a primary key column.
    fn is_not_null(t: &TableDef, c: &Column) -> bool {
        c.data_type.as_ref().is_some_and(|d| !d.nullable)
            || t.primary_key
                .as_ref()
                .is_some_and(|pk| pk.columns.contains(&c.name))
    }

    /// The first persisted NOT NULL sink column that neither the column list nor a static
    /// partition value supplies (`PreValidateReWriter` fills it with NULL and rejects that).
    pub(super) fn omitted_not_null<'t>(
        &self,
        i: &Insert,
        t: &'t TableDef,
        list: &ColumnList,
    ) -> Option<&'t Column> {
        let listed: HashSet<&str> = list.names.iter().map(|n| n.text.as_str()).collect();
        let statics: HashSet<&str> = i
            .partition
            .iter()
            .flat_map(|p| p.items.iter())
            .filter(|(_, v)| v.is_some())
            .map(|(k, _)| k.text.as_str())
            .collect();
        t.columns.iter().find(|c| {
            c.kind.is_persisted()
                && self.read_only(c).is_none()
                && !listed.contains(c.name.as_str())
                && !statics.contains(c.name.as_str())
                && Self::is_not_null(t, c)
        })
    }

    /// The problems Flink finds while planning an INSERT whose columns fit: static partition
    /// columns that are not partition keys, an `INSERT OVERWRITE` the connector cannot do, and
    /// column types that do not cast implicitly.
    pub(super) fn sink_problem(
        &self,
        file: &FileEntry,
        i: &Insert,
        name: &QualifiedName,
        object: &CatalogObject,
        t: &TableDef,
    ) -> Option<Problem> {
        let problem = |span, issue| Problem::SinkSchema {
            span,
            table: name.clone(),
            sink: object.name_origin,
            issue,
        };
        let keys: Vec<&str> = t
            .partitions
            .as_ref()
            .map(|p| p.columns.iter().map(|c| c.as_str()).collect())
            .unwrap_or_default();
        if let Some(spec) = &i.partition {
            for (key, value) in &spec.items {
                if value.is_some() && !keys.contains(&key.text.as_str()) {
                    return Some(problem(
                        key.span,
                        SinkIssue::StaticPartitionNotKey {
                            column: key.text.to_string(),
                            keys: keys.iter().map(|k| k.to_string()).collect(),
                        },
                    ));
                }
            }
        }
        let connector = t.option("connector").map(|o| o.value.to_lowercase());
        if i.overwrite {
            if let Some(c) = connector.as_deref().filter(|c| NO_OVERWRITE.contains(c)) {
                return Some(problem(
                    i.table.span,
                    SinkIssue::OverwriteUnsupported {
                        connector: c.to_string(),
                    },
                ));
            }
        }
        if let Some(c) = connector.as_deref().filter(|c| NO_METADATA.contains(c)) {
            let persisted_metadata = t.columns.iter().find(|col| {
                matches!(
                    col.kind,
                    ColumnKind::Metadata {
                        is_virtual: false,
                        ..
                    }
                ) && self.read_only(col).is_none()
            });
            if let Some(m) = persisted_metadata {
                return Some(problem(
                    i.table.span,
                    SinkIssue::MetadataNotWritable {
                        column: m.name.to_string(),
                        connector: c.to_string(),
                    },
                ));
            }
        }
        if let Some(p) = self.type_problem(file, i, t) {
            return Some(problem(p.0, p.1));
        }
        let batch = self
            .config_value("execution.runtime-mode")
            .is_some_and(|m| m.eq_ignore_ascii_case("batch"));
        if i.overwrite && !batch && connector.as_deref() == Some("filesystem") {
            return Some(problem(i.table.span, SinkIssue::OverwriteInStreaming));
        }
        None
    }

    /// The first query column whose type Flink does not cast implicitly to its sink column's
    /// (`DynamicSinkUtils.validateSchemaAndApplyImplicitCast`); nothing when the query's
    /// columns are not knowable or do not fit in number.
    fn type_problem(
        &self,
        file: &FileEntry,
        i: &Insert,
        t: &TableDef,
    ) -> Option<(Span, SinkIssue)> {
        let writable: Vec<&Column> = t
            .columns
            .iter()
            .filter(|c| c.kind.is_persisted() && self.read_only(c).is_none())
            .collect();
        if writable.iter().any(|c| c.data_type.is_none()) {
            return None;
        }
        let row = self.sink_row(file, i, &writable)?;
        let mut first = None;
        for (k, (q, c)) in row.iter().zip(&writable).enumerate() {
            if !q.from_query {
                continue;
            }
            let (Some(qt), Some(st)) = (&q.data_type, &c.data_type) else {
                continue;
            };
            if sink_cast::supports_implicit_cast(qt, st) == Some(false) {
                first = Some((
                    k,
                    q.span,
                    qt.summary(),
                    st.clone().with_nullable(true).summary(),
                ));
                break;
            }
        }
        let (k, span, query_type, sink_type) = first?;
        let schema = |columns: &mut dyn Iterator<Item = (&str, Option<&Type>)>| {
            columns
                .map(|(name, t)| t.map(|d| format!("{name}: {}", d.summary())))
                .collect::<Option<Vec<String>>>()
        };
        let query_schema = schema(&mut row.iter().map(|c| (c.name.as_str(), c.data_type.as_ref())))
            .map(|mut columns| {
                for (text, c) in columns.iter_mut().zip(&row) {
                    if let Some(m) = c.marker {
                        text.push(' ');
                        text.push_str(m);
                    }
                }
                columns
            });
        // Flink prints the sink's columns without their top-level NOT NULL.
        let nullable: Vec<Option<Type>> = writable
            .iter()
            .map(|c| c.data_type.clone().map(|d| d.with_nullable(true)))
            .collect();
        let sink_schema = schema(
            &mut writable
                .iter()
                .zip(&nullable)
                .map(|(c, d)| (c.name.as_str(), d.as_ref())),
        );
        Some((
            span,
            SinkIssue::ColumnType {
                column: writable[k].name.to_string(),
                position: k + 1,
                query_type,
                sink_type,
                query_schema,
                sink_schema,
            },
        ))
    }

    /// The query row in sink order, as `PreValidateReWriter` builds it: the query's columns
    /// where the column list puts them (in order without a list), static partition values
    /// (`EXPR$k`, the column's type, NOT NULL), NULL for the columns a list leaves out
    /// (`EXPR$k`, the column's type); names made unique as Calcite does.
    fn sink_row(
        &self,
        file: &FileEntry,
        i: &Insert,
        writable: &[&Column],
    ) -> Option<Vec<RowColumn>> {
        let columns = self.query_columns(&i.query, file.id)?;
        let statics: HashMap<&str, Span> = i
            .partition
            .iter()
            .flat_map(|p| p.items.iter())
            .filter_map(|(k, v)| v.as_ref().map(|v| (k.text.as_str(), v.span)))
            .collect();
        let filler = |k: usize, c: &Column, not_null: bool, span: Span| {
            let mut out = OutputColumn {
                name: query::expr_name(k),
                written_name: query::expr_name(k),
                data_type: c.data_type.clone().map(|d| {
                    if not_null {
                        d.with_nullable(false)
                    } else {
                        d
                    }
                }),
                span,
            };
            out.written_name = out.name.clone();
            out
        };
        let mut out: Vec<OutputColumn> = Vec::with_capacity(writable.len());
        let mut from_query: Vec<bool> = Vec::with_capacity(writable.len());
        if let Some(list) = &i.columns {
            if list.names.len() != columns.len() {
                return None;
            }
            let at: HashMap<&str, usize> = list
                .names
                .iter()
                .enumerate()
                .map(|(p, n)| (n.text.as_str(), p))
                .collect();
            for (k, c) in writable.iter().enumerate() {
                if let Some(&p) = at.get(c.name.as_str()) {
                    out.push(columns[p].clone());
                    from_query.push(true);
                } else if let Some(&span) = statics.get(c.name.as_str()) {
                    out.push(filler(k, c, true, span));
                    from_query.push(false);
                } else {
                    out.push(filler(k, c, false, i.query.span));
                    from_query.push(false);
                }
            }
        } else {
            let mut next = columns.into_iter();
            for (k, c) in writable.iter().enumerate() {
                if let Some(&span) = statics.get(c.name.as_str()) {
                    out.push(filler(k, c, true, span));
                    from_query.push(false);
                } else {
                    out.push(next.next()?);
                    from_query.push(true);
                }
            }
            if next.next().is_some() {
                return None;
            }
        }
        // The first mark of each name.
        let mut times: HashMap<CompactString, &'static str> = HashMap::new();
        for (name, mark) in self.time_attributes(&i.query) {
            times.entry(name).or_insert(mark);
        }
        let text = &file.source.text;
        let marker = |c: &OutputColumn| -> Option<&'static str> {
            c.data_type.as_ref().filter(|t| t.is_timestamp())?;
            let item = text.get(c.span.range()).unwrap_or_default().trim();
            // By bytes: the item may hold any character (`get` is `None` inside one).
            if item
                .get(..9)
                .is_some_and(|p| p.eq_ignore_ascii_case("PROCTIME("))
            {
                return Some("*PROCTIME*");
            }
            // A column passed on by name (or by `*`) keeps its time attribute.
            let first = item.split_whitespace().next().unwrap_or_default();
            let last = first
                .rsplit('.')
                .next()
                .unwrap_or_default()
                .trim_matches('`');
            if last != "*" && last != c.written_name.as_str() {
                return None;
            }
            if c.written_name == "window_time" {
                return Some("*ROWTIME*");
            }
            times.get(&c.written_name).copied()
        };
        let markers: Vec<Option<&'static str>> = out
            .iter()
            .zip(&from_query)
            .map(|(c, q)| if *q { marker(c) } else { None })
            .collect();
        query::uniquify(&mut out);
        Some(
            out.into_iter()
                .zip(from_query)
                .zip(markers)
                .map(|((c, from_query), marker)| RowColumn {
                    name: c.name,
                    data_type: c.data_type,
                    from_query,
                    span: c.span,
                    marker,
                })
                .collect(),
        )
    }
}

impl Session<'_> {
    /// The time attributes of the tables `query` reads by name: rowtime columns (a
    /// watermark's column) and `AS PROCTIME()` columns, with Flink's mark for each.
    fn time_attributes(&self, query: &Query) -> Vec<(CompactString, &'static str)> {
        let mut names = Vec::new();
        tables_read(query, &mut names, 0);
        let mut out = Vec::new();
        for name in names {
            let Some((_, object)) = query::Scope::lookup(self, name) else {
                continue;
            };
            let ObjectDef::Table(t) = &object.def else {
                continue;
            };
            if let Some([column]) = t.watermark.as_ref().map(|w| w.column.as_slice()) {
                out.push((column.clone(), "*ROWTIME*"));
            }
            for c in &t.columns {
                if let ColumnKind::Computed(e) = &c.kind {
                    let is_proctime = match &e.kind {
                        ExprKind::Function(f) => {
                            f.args.is_empty() && f.name.dotted().eq_ignore_ascii_case("PROCTIME")
                        }
                        _ => false,
                    };
                    if is_proctime {
                        out.push((c.name.clone(), "*PROCTIME*"));
                    }
                }
            }
        }
        out
    }
}

/// The names of the tables and views `query`'s FROM clauses read (bounded depth).
fn tables_read<'q>(query: &'q Query, out: &mut Vec<&'q ObjectName>, depth: usize) {
    fn body<'q>(b: &'q SetExpr, out: &mut Vec<&'q ObjectName>, depth: usize) {
        if depth > 64 {
            return;
        }
        match b {
            SetExpr::Select(s) => {
                if let Some(t) = &s.from {
                    table(t, out, depth + 1);
                }
            }
            SetExpr::Query(q) => tables_read(q, out, depth + 1),
            SetExpr::SetOperation { left, right, .. } => {
                body(left, out, depth + 1);
                body(right, out, depth + 1);
            }
            _ => {}
        }
    }
    fn table<'q>(t: &'q TableRef, out: &mut Vec<&'q ObjectName>, depth: usize) {
        if depth > 64 {
            return;
        }
        match t {
            TableRef::Named { name, .. } => out.push(name),
            TableRef::Subquery { query, .. } => tables_read(query, out, depth + 1),
            TableRef::Join { left, right, .. } => {
                table(left, out, depth + 1);
                table(right, out, depth + 1);
            }
            TableRef::Nested { inner, .. } | TableRef::MatchRecognize { input: inner, .. } => {
                table(inner, out, depth + 1)
            }
            _ => {}
        }
    }
    if depth > 64 {
        return;
    }
    for c in &query.with {
        tables_read(&c.query, out, depth + 1);
    }
    body(&query.body, out, depth);
}

/// Connectors whose sinks do not implement `SupportsWritingMetadata` (verified with Flink
/// 2.3.0).
const NO_METADATA: &[&str] = &["blackhole", "print", "filesystem"];

/// Connectors whose sinks do not implement `SupportsOverwrite` (verified with Flink 2.3.0).
const NO_OVERWRITE: &[&str] = &["blackhole", "print"];
