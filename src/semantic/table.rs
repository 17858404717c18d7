//! Building a table definition from `CREATE TABLE`, with or without `LIKE`: Flink's merge
//! algorithm (FLIP-110; `MergeTableLikeUtil`, flink-spec §3.2-3.6) and the checks every table
//! definition goes through (§2.1 and §3.5 step I). One function, [`build_table`], returns the
//! resolved table and every problem, in Flink's order; the LIKE, column and table rules all
//! report from it.

use super::catalog::*;
use super::exprs;
use super::names::QualifiedName;
use super::problems::{
    Kind, PartitionIssue, PrimaryKeyIssue, Problem, Strategies, Unresolvable, WatermarkIssue,
};
use super::system::SystemColumn;
use super::types::Type;
use crate::source::{FileId, Span};
use crate::syntax::ast::{
    self, ColumnDef, ConstraintKind, Enforcement, FeatureOption, MergingStrategy, TableElement,
    TableElements,
};
use compact_str::CompactString;
use std::sync::Arc;

/// The LIKE parent as the session resolved it.
pub struct Parent<'a> {
    /// Its name.
    pub name: &'a QualifiedName,
    /// Its definition.
    pub table: &'a TableDef,
}

/// What the derived statement declares, independent of the statement kind (CREATE TABLE,
/// CREATE MATERIALIZED TABLE).
pub struct Declared<'a> {
    /// The file of the statement.
    pub file: FileId,
    /// Column list, constraints and watermarks.
    pub elements: Option<&'a TableElements>,
    /// Table comment.
    pub comment: Option<&'a ast::StringLit>,
    /// Distribution.
    pub distribution: Option<&'a ast::Distribution>,
    /// Partition keys.
    pub partitioned_by: Option<&'a ast::ColumnList>,
    /// Options.
    pub with: Option<&'a ast::PropertyList>,
    /// The LIKE clause.
    pub like: Option<&'a ast::LikeClause>,
    /// The query's columns of a `CREATE TABLE ... AS SELECT` (merged before the primary key,
    /// watermark and partition keys are checked, as Flink's `MergeTableAsUtil` does).
    pub query: QueryColumns<'a>,
    /// The platform's implicit system columns (Confluent Cloud's `$rowtime`): a watermark or a
    /// computed column may refer to one the table does not shadow.
    pub system: &'a [SystemColumn],
}

/// The columns of a CTAS query, as far as the session knows them.
#[derive(Clone, Copy)]
pub enum QueryColumns<'a> {
    /// Not a CTAS (or the query's columns are merged elsewhere).
    None,
    /// The query's output columns.
    Known(&'a [super::query::OutputColumn]),
    /// A CTAS whose query reads objects the session cannot see: its columns are unknown, so
    /// column references are not checked.
    Unknown,
}

/// The result of building a table.
pub struct Built {
    /// The resolved table (partial when problems stopped the merge).
    pub table: TableDef,
    /// Problems, in Flink's order.
    pub problems: Vec<Problem>,
    /// Effective merging strategies (for `--explain-like`), when there is a LIKE.
    pub strategies: Option<Strategies>,
}

pub(crate) fn kind_of(c: &ColumnKind) -> Kind {
    match c {
        ColumnKind::Physical => Kind::Physical,
        ColumnKind::Computed(_) => Kind::Computed,
        ColumnKind::Metadata { .. } => Kind::Metadata,
    }
}

/// Effective strategies of a like option list (flink-spec §3.2), and its problems (§3.3):
/// a feature named twice, OVERWRITING on ALL/CONSTRAINTS/DISTRIBUTION/PARTITIONS.
pub fn strategies(options: &[ast::LikeOption]) -> (Strategies, Vec<Problem>) {
    let mut problems = Vec::new();
    for (i, o) in options.iter().enumerate() {
        if let Some(first) = options[..i].iter().find(|p| p.feature == o.feature) {
            problems.push(Problem::DuplicateLikeOption {
                span: o.span,
                first: first.span,
                feature: o.feature,
            });
        }
    }
    // Flink checks duplicates first and stops there.
    let duplicates = !problems.is_empty();
    for o in options.iter().filter(|_| !duplicates) {
        let illegal = matches!(
            o.feature,
            FeatureOption::All
                | FeatureOption::Constraints
                | FeatureOption::Distribution
                | FeatureOption::Partitions
        ) && o.strategy == MergingStrategy::Overwriting;
        if illegal {
            problems.push(Problem::IllegalMergingStrategy {
                span: o.span,
                feature: o.feature,
            });
        }
    }
    let mut s = Strategies::defaults();
    if let Some(all) = options.iter().find(|o| o.feature == FeatureOption::All) {
        let features: Vec<FeatureOption> = s.iter().map(|(f, _, _)| f).collect();
        for f in features {
            s.set(f, all.strategy, Some(all.span));
        }
    }
    for o in options.iter().filter(|o| o.feature != FeatureOption::All) {
        s.set(o.feature, o.strategy, Some(o.span));
    }
    (s, problems)
}

fn column_from_ast(c: &ColumnDef, file: FileId) -> Column {
    let (kind, data_type) = match &c.kind {
        ast::ColumnKind::Physical { data_type } => {
            (ColumnKind::Physical, Some(Type::from_ast(data_type)))
        }
        ast::ColumnKind::Computed { expr } => (ColumnKind::Computed(expr.clone()), None),
        ast::ColumnKind::Metadata {
            data_type,
            key,
            virtual_span,
        } => (
            ColumnKind::Metadata {
                key: key.as_ref().map(|k| k.value.clone()),
                is_virtual: virtual_span.is_some(),
            },
            Some(Type::from_ast(data_type)),
        ),
        ast::ColumnKind::NameOnly => (ColumnKind::Physical, None),
    };
    Column {
        name: c.name.text.clone(),
        kind,
        data_type,
        comment: c.comment.as_ref().map(|s| s.value.to_string()),
        origin: Origin { file, span: c.span },
        inherited_from: None,
    }
}

/// Flink's generated constraint name: `PK_` and the columns joined by `_`.
pub fn generated_pk_name<S: AsRef<str>>(columns: impl IntoIterator<Item = S>) -> CompactString {
    let mut name = CompactString::const_new("PK");
    for c in columns {
        name.push('_');
        name.push_str(c.as_ref());
    }
    name
}

/// Builds the table a CREATE statement defines: the derived declaration merged with the LIKE
/// parent (or with nothing, as Flink does for a plain CREATE TABLE), then resolved.
///
/// `parent` is `None` when there is no LIKE or its source was not found / not a table (the
/// caller reports those). Problems come in Flink's order: option list, constraints, partitions
/// conflict, columns, watermark, primary key, partition keys, options, distribution,
/// resolution.
pub fn build_table(declared: &Declared<'_>, parent: Option<Parent<'_>>) -> Built {
    let file = declared.file;
    let mut problems = Vec::new();
    let (strategies, option_problems) = match declared.like {
        Some(like) => {
            let (s, p) = strategies(&like.options);
            (Some(s), p)
        }
        None => (None, Vec::new()),
    };
    let options_invalid = !option_problems.is_empty();
    problems.extend(option_problems);
    constraint_checks(declared, &mut problems);
    if options_invalid {
        // Flink rejects the option list while validating the statement: no merge happens.
        return Built {
            table: declared_only(declared),
            problems,
            strategies,
        };
    }
    let s = strategies.clone().unwrap_or_else(Strategies::defaults);
    let parent = if options_invalid { None } else { parent };
    let empty = TableDef::empty();
    let p = parent.as_ref().map_or(&empty, |p| p.table);
    let parent_name = parent.as_ref().map(|p| p.name.clone());
    let inherited_name = parent_name.clone().map(Arc::new);

    let derived_columns = || declared.elements.into_iter().flat_map(|e| e.columns());
    let derived_watermark = declared.elements.and_then(|e| e.watermarks().next());
    let derived_pk = primary_key_of(declared.elements);

    // G (first part): partitions conflict.
    if let (Some(d), Some(pp)) = (declared.partitioned_by, &p.partitions) {
        if s.get(FeatureOption::Partitions) != MergingStrategy::Excluding && parent.is_some() {
            problems.push(Problem::PartitionConflict {
                span: d.span,
                parent: pp.origin,
            });
        }
    }

    // A: seed from the parent.
    let mut columns: Vec<Column> = Vec::with_capacity(p.columns.len() + derived_columns().count());
    for c in &p.columns {
        let keep = match c.kind {
            ColumnKind::Physical => true,
            ColumnKind::Computed(_) => {
                s.get(FeatureOption::Generated) != MergingStrategy::Excluding
            }
            ColumnKind::Metadata { .. } => {
                s.get(FeatureOption::Metadata) != MergingStrategy::Excluding
            }
        };
        if keep {
            let mut c = c.clone();
            c.inherited_from = c.inherited_from.or_else(|| inherited_name.clone());
            columns.push(c);
        }
    }
    let inherited_count = columns.len();
    let mut watermark = if s.get(FeatureOption::Watermarks) != MergingStrategy::Excluding {
        p.watermark.clone().map(|mut w| {
            w.inherited_from = w.inherited_from.or_else(|| inherited_name.clone());
            w
        })
    } else {
        None
    };
    let mut primary_key = if s.get(FeatureOption::Constraints) == MergingStrategy::Including {
        p.primary_key.clone()
    } else {
        None
    };
    let inherited_pk = primary_key.is_some();

    // B: derived physical columns first.
    let is_inherited = |columns: &Vec<Column>, i: usize| {
        i < inherited_count && columns[i].inherited_from.is_some()
    };
    for d in derived_columns().filter(|c| {
        matches!(
            c.kind,
            ast::ColumnKind::Physical { .. } | ast::ColumnKind::NameOnly
        )
    }) {
        let name = d.name.as_str();
        if let Some(i) = columns.iter().position(|c| c.name == name) {
            let existing = &columns[i];
            if is_inherited(&columns, i) {
                problems.push(Problem::LikeColumnClash {
                    span: d.name.span,
                    name: name.to_string(),
                    derived_kind: Kind::Physical,
                    inherited_kind: kind_of(&existing.kind),
                    inherited: existing.origin,
                    parent_name: parent_name
                        .clone()
                        .unwrap_or_else(|| QualifiedName::new("", "", "")),
                });
            } else {
                problems.push(Problem::DuplicateColumn {
                    span: d.name.span,
                    name: name.to_string(),
                    first: existing.origin,
                    first_kind: kind_of(&existing.kind),
                    second_kind: Kind::Physical,
                });
            }
            continue;
        }
        columns.push(column_from_ast(d, file));
    }

    // C: computed and metadata columns in declaration order.
    let mut declared_metadata: Vec<CompactString> = Vec::new();
    for d in derived_columns() {
        let derived_kind = match d.kind {
            ast::ColumnKind::Computed { .. } => Kind::Computed,
            ast::ColumnKind::Metadata { .. } => Kind::Metadata,
            _ => continue,
        };
        let name = d.name.as_str();
        let strategy = s.get(if derived_kind == Kind::Computed {
            FeatureOption::Generated
        } else {
            FeatureOption::Metadata
        });
        if let ast::ColumnKind::Computed { expr } = &d.kind {
            check_computed_references(
                expr,
                name,
                &columns,
                inherited_count,
                &declared_metadata,
                &mut problems,
            );
        }
        let position = columns.iter().position(|c| c.name == name);
        let clash = |problems: &mut Vec<Problem>, i: usize, columns: &Vec<Column>| {
            let existing = &columns[i];
            if is_inherited(columns, i) {
                problems.push(Problem::LikeColumnClash {
                    span: d.name.span,
                    name: name.to_string(),
                    derived_kind,
                    inherited_kind: kind_of(&existing.kind),
                    inherited: existing.origin,
                    parent_name: parent_name
                        .clone()
                        .unwrap_or_else(|| QualifiedName::new("", "", "")),
                });
            } else {
                problems.push(Problem::DuplicateColumn {
                    span: d.name.span,
                    name: name.to_string(),
                    first: existing.origin,
                    first_kind: kind_of(&existing.kind),
                    second_kind: derived_kind,
                });
            }
        };
        match position {
            // A physical column (inherited or declared) is never overwritten; step C adds no
            // physical column, so the kind at `i` is the one step B left.
            Some(i) if columns[i].kind.is_physical() => clash(&mut problems, i, &columns),
            Some(i) if kind_of(&columns[i].kind) != derived_kind => {
                clash(&mut problems, i, &columns)
            }
            Some(i) if strategy != MergingStrategy::Overwriting => {
                clash(&mut problems, i, &columns)
            }
            Some(i) => columns[i] = column_from_ast(d, file),
            None => columns.push(column_from_ast(d, file)),
        }
        if derived_kind == Kind::Metadata {
            declared_metadata.push(d.name.text.clone());
        }
    }
    // Flink validates physical columns first but keeps declaration order: the derived
    // columns follow the inherited ones in the order they were written.
    columns[inherited_count..].sort_by_key(|c| c.origin.span.start);
    // Inherited computed columns must still resolve once the like options removed columns.
    for c in columns[..inherited_count].iter() {
        if let ColumnKind::Computed(expr) = &c.kind {
            for (name, _) in exprs::column_references(expr) {
                if !columns.iter().any(|k| k.name == name) && p.column(name).is_some() {
                    problems.push(Problem::InheritedNotResolvable {
                        span: declared.like.map_or(c.origin.span, |l| l.span),
                        name: name.to_string(),
                        what: Unresolvable::ExcludedReference {
                            column: c.name.to_string(),
                        },
                        inherited: Some(c.origin),
                    });
                }
            }
        }
    }

    // CTAS: the query's columns join the declared ones before the references are checked.
    let query_unknown = matches!(declared.query, QueryColumns::Unknown);
    let mut from_query: Vec<CompactString> = Vec::new();
    if let QueryColumns::Known(query) = declared.query {
        let typed = |name: &str| {
            derived_columns()
                .any(|d| d.name.as_str() == name && !matches!(d.kind, ast::ColumnKind::NameOnly))
        };
        from_query = query
            .iter()
            .filter(|q| !typed(&q.name))
            .map(|q| q.name.clone())
            .collect();
        columns = ctas_columns(&columns, query, declared.elements, file);
    }

    // D: watermark.
    if let Some(w) = derived_watermark {
        let column: Vec<CompactString> = w.column.parts.iter().map(|i| i.text.clone()).collect();
        let origin = Origin { file, span: w.span };
        if let Some(pw) = &watermark {
            if pw.column == column
                && s.get(FeatureOption::Watermarks) != MergingStrategy::Overwriting
            {
                problems.push(Problem::WatermarkConflict {
                    span: w.span,
                    column: column.join("."),
                    parent: pw.origin,
                });
            }
        }
        let rowtime = column[0].as_str();
        let resolvable = columns.iter().enumerate().any(|(i, c)| {
            c.name == rowtime
                && (i >= inherited_count || c.inherited_from.is_none() || c.kind.is_physical())
        }) || (columns.iter().all(|c| c.name != rowtime)
            && declared.system.iter().any(|s| s.name == rowtime));
        if !resolvable && !query_unknown {
            match columns.iter().find(|c| c.name == rowtime) {
                Some(inherited) => problems.push(Problem::InheritedNotResolvable {
                    span: w.column.span,
                    name: rowtime.to_string(),
                    what: Unresolvable::WatermarkColumn {
                        available: resolvable_fields(&columns, inherited_count),
                    },
                    inherited: Some(inherited.origin),
                }),
                None => problems.push(Problem::InvalidWatermark {
                    span: w.column.span,
                    column: column.join("."),
                    issue: WatermarkIssue::UnknownColumn {
                        available: resolvable_fields(&columns, inherited_count),
                        inherited: false,
                    },
                    inherited: None,
                }),
            }
        }
        let new = WatermarkDef {
            column,
            expr: w.expr.clone(),
            origin,
            inherited_from: None,
        };
        match &watermark {
            Some(pw) if pw.column != new.column => {
                problems.push(Problem::MultipleWatermarks {
                    span: w.span,
                    parent: pw.origin,
                });
            }
            _ => {}
        }
        watermark = Some(new);
    }

    // E: primary key.
    if let Some((pk, pk_span)) = &derived_pk {
        if inherited_pk {
            if let Some(ppk) = &p.primary_key {
                problems.push(Problem::PrimaryKeyConflict {
                    span: *pk_span,
                    parent: ppk.origin,
                });
            }
        }
        for ident in pk.columns {
            let (col, col_span) = (&ident.text, &ident.span);
            match columns.iter().find(|c| c.name == *col) {
                None if query_unknown => {}
                None => problems.push(Problem::InvalidPrimaryKey {
                    span: *col_span,
                    column: col.to_string(),
                    issue: PrimaryKeyIssue::UnknownColumn,
                }),
                Some(c) if !c.kind.is_physical() => problems.push(Problem::InvalidPrimaryKey {
                    span: *col_span,
                    column: col.to_string(),
                    issue: PrimaryKeyIssue::NotPhysical,
                }),
                Some(c) => {
                    // Flink patches NOT NULL only on columns declared in this statement; a
                    // column only the CTAS query produces keeps the query's nullability.
                    let nullable = c.data_type.as_ref().is_some_and(|t| t.nullable);
                    if from_query.contains(col) && nullable {
                        problems.push(Problem::InvalidPrimaryKey {
                            span: *col_span,
                            column: col.to_string(),
                            issue: PrimaryKeyIssue::NullableQueryColumn {
                                constraint: pk.name.to_string(),
                            },
                        });
                    } else if c.inherited_from.is_some() && nullable {
                        problems.push(Problem::InheritedNotResolvable {
                            span: *col_span,
                            name: col.to_string(),
                            what: Unresolvable::NullablePrimaryKey {
                                constraint: pk.name.to_string(),
                            },
                            inherited: Some(c.origin),
                        });
                    }
                }
            }
        }
        let names: Vec<CompactString> = pk.columns.iter().map(|c| c.text.clone()).collect();
        for c in columns.iter_mut() {
            if c.inherited_from.is_none()
                && names.contains(&c.name)
                && !from_query.contains(&c.name)
            {
                if let Some(t) = &mut c.data_type {
                    t.nullable = false;
                }
            }
        }
        primary_key = Some(PrimaryKeyDef {
            name: pk.name.clone(),
            columns: names,
            origin: Origin {
                file,
                span: *pk_span,
            },
        });
    }

    // G (second part): partition keys exist and are physical.
    let partitions = match declared.partitioned_by {
        Some(d) => {
            for key in &d.names {
                match columns.iter().find(|c| c.name == key.as_str()) {
                    None if query_unknown => {}
                    None => problems.push(Problem::InvalidPartition {
                        span: key.span,
                        column: key.text.to_string(),
                        issue: PartitionIssue::UnknownColumn {
                            available: columns.iter().map(|c| c.name.to_string()).collect(),
                        },
                    }),
                    Some(c) if !c.kind.is_physical() => problems.push(Problem::InvalidPartition {
                        span: key.span,
                        column: key.text.to_string(),
                        issue: PartitionIssue::NotPhysical {
                            physical: columns
                                .iter()
                                .filter(|c| c.kind.is_physical())
                                .map(|c| c.name.to_string())
                                .collect(),
                        },
                    }),
                    Some(_) => {}
                }
            }
            Some(PartitionDef {
                columns: d.names.iter().map(|n| n.text.clone()).collect(),
                origin: Origin { file, span: d.span },
            })
        }
        None => {
            if let (Some(pp), true) = (
                &p.partitions,
                s.get(FeatureOption::Partitions) == MergingStrategy::Excluding,
            ) {
                if let Some(span) = s.source(FeatureOption::Partitions) {
                    problems.push(Problem::IneffectiveExcluding {
                        span,
                        feature: FeatureOption::Partitions,
                        parent: pp.origin,
                        inherited: super::show_create::partitions(pp),
                    });
                }
            }
            p.partitions.clone()
        }
    };

    // H: options.
    let mut options: Vec<OptionDef> =
        Vec::with_capacity(p.options.len() + declared.with.map_or(0, |w| w.items.len()));
    if s.get(FeatureOption::Options) != MergingStrategy::Excluding {
        options.extend(p.options.iter().cloned());
    }
    let options_strategy = s.get(FeatureOption::Options);
    if let Some(with) = declared.with {
        for prop in &with.items {
            let origin = Origin {
                file,
                span: prop.span,
            };
            let new = OptionDef {
                key: prop.key.value.clone(),
                value: prop.value.value.clone(),
                origin,
            };
            let parent_option = p
                .option(&new.key)
                .filter(|_| options_strategy != MergingStrategy::Excluding);
            match parent_option {
                Some(old) if options_strategy != MergingStrategy::Overwriting => {
                    problems.push(Problem::OptionKeyConflict {
                        span: prop.span,
                        key: new.key.to_string(),
                        parent_value: old.value.to_string(),
                        parent: old.origin,
                        parent_name: parent_name
                            .clone()
                            .unwrap_or_else(|| QualifiedName::new("", "", "")),
                        via_all: s.source(FeatureOption::Options).is_some_and(|src| {
                            declared.like.is_some_and(|l| {
                                l.options
                                    .iter()
                                    .any(|o| o.span == src && o.feature == FeatureOption::All)
                            })
                        }),
                    });
                }
                Some(old) if old.value != new.value => {
                    problems.push(Problem::OverridesOption {
                        span: prop.span,
                        key: new.key.to_string(),
                        old: old.value.to_string(),
                        new: new.value.to_string(),
                        parent: old.origin,
                    });
                }
                _ => {}
            }
            match options.iter_mut().find(|o| o.key == new.key) {
                Some(o) => *o = new,
                None => options.push(new),
            }
        }
    }

    // F: distribution.
    let distribution = match declared.distribution {
        Some(d) => {
            if let Some(pd) = &p.distribution {
                if s.get(FeatureOption::Distribution) != MergingStrategy::Excluding {
                    problems.push(Problem::DistributionConflict {
                        span: d.span,
                        parent: pd.origin,
                    });
                }
            }
            Some(DistributionDef {
                kind: d.kind,
                columns: d
                    .columns
                    .as_ref()
                    .map(|c| c.names.iter().map(|n| n.text.clone()).collect())
                    .unwrap_or_default(),
                buckets: d.buckets,
                origin: Origin { file, span: d.span },
            })
        }
        None => {
            if let (Some(pd), true) = (
                &p.distribution,
                s.get(FeatureOption::Distribution) == MergingStrategy::Excluding,
            ) {
                if let Some(span) = s.source(FeatureOption::Distribution) {
                    problems.push(Problem::IneffectiveExcluding {
                        span,
                        feature: FeatureOption::Distribution,
                        parent: pd.origin,
                        inherited: super::show_create::distribution(pd),
                    });
                }
            }
            p.distribution.clone()
        }
    };

    // I: resolution of the watermark (inherited or derived).
    if let Some(w) = &watermark {
        check_rowtime(
            w,
            &columns,
            declared.system,
            derived_watermark.map(|d| &d.column),
            declared.like.map(|l| l.span),
            &mut problems,
        );
    }

    let table = TableDef {
        columns,
        watermark,
        primary_key,
        distribution,
        partitions,
        options,
        comment: declared.comment.map(|c| c.value.to_string()),
        materialized: None,
    };
    Built {
        table,
        problems,
        strategies,
    }
}

/// Fields a derived watermark or computed column may refer to, as Flink lists them:
/// parent physical columns and the derived columns.
fn resolvable_fields(columns: &[Column], inherited_count: usize) -> Vec<String> {
    columns
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            *i >= inherited_count || c.inherited_from.is_none() || c.kind.is_physical()
        })
        .map(|(_, c)| c.name.to_string())
        .collect()
}

/// A derived computed column referring to an inherited computed or metadata column, which
/// Flink cannot resolve in a LIKE.
fn check_computed_references(
    expr: &ast::Expr,
    column: &str,
    columns: &[Column],
    inherited_count: usize,
    _declared_metadata: &[CompactString],
    problems: &mut Vec<Problem>,
) {
    for (name, span) in exprs::column_references(expr) {
        if let Some(c) = columns[..inherited_count].iter().find(|c| c.name == name) {
            if !c.kind.is_physical() && c.inherited_from.is_some() {
                problems.push(Problem::InheritedNotResolvable {
                    span,
                    name: name.to_string(),
                    what: Unresolvable::ComputedReference {
                        column: column.to_string(),
                    },
                    inherited: Some(c.origin),
                });
            }
        }
    }
}

/// Step I for the watermark: its column exists and is a rowtime-capable timestamp.
fn check_rowtime(
    w: &WatermarkDef,
    columns: &[Column],
    system: &[SystemColumn],
    derived: Option<&ast::ObjectName>,
    like_span: Option<Span>,
    problems: &mut Vec<Problem>,
) {
    let name = w.column.join(".");
    // A derived watermark is reported at its column; an inherited one at the LIKE clause.
    let derived = derived.filter(|_| w.inherited_from.is_none());
    let span = derived
        .map(|d| d.span)
        .or(like_span)
        .unwrap_or(w.origin.span);
    let inherited = w.inherited_from.as_ref().map(|_| w.origin);
    let implicit = system_column(columns, system, &w.column[0], w.origin);
    let Some(c) = columns
        .iter()
        .find(|c| c.name == w.column[0])
        .or(implicit.as_ref())
    else {
        if w.inherited_from.is_some() {
            problems.push(Problem::InvalidWatermark {
                span,
                column: name,
                issue: WatermarkIssue::UnknownColumn {
                    available: columns.iter().map(|c| c.name.to_string()).collect(),
                    inherited: true,
                },
                inherited,
            });
        }
        return;
    };
    if w.column.len() > 1 {
        // Nested rowtime: follow the path through ROW types.
        let mut current = c.data_type.clone();
        let mut missing = None;
        let mut span = span;
        for (i, field) in w.column.iter().enumerate().skip(1) {
            match current.as_ref().map(|t| &t.kind) {
                Some(super::types::Kind::Row(fields)) => {
                    match fields.iter().find(|(n, _)| n == field.as_str()) {
                        Some((_, t)) => current = Some(t.clone()),
                        None => {
                            missing = Some((
                                field.to_string(),
                                current.as_ref().map(|t| t.summary()).unwrap_or_default(),
                            ));
                            // Flink points at the missing field.
                            if let Some(part) = derived.and_then(|d| d.parts.get(i)) {
                                span = part.span;
                            }
                            break;
                        }
                    }
                }
                _ => return,
            }
        }
        problems.push(Problem::InvalidWatermark {
            span,
            column: name,
            issue: WatermarkIssue::Nested {
                missing,
                available: columns.iter().map(|c| c.name.to_string()).collect(),
            },
            inherited,
        });
        return;
    }
    let t = match &c.kind {
        ColumnKind::Computed(expr) => {
            if exprs::is_proctime(expr) {
                problems.push(Problem::InvalidWatermark {
                    span,
                    column: name,
                    issue: WatermarkIssue::ProcessingTime,
                    inherited,
                });
                return;
            }
            exprs::infer_type(expr, &|n| column_type(columns, system, n))
        }
        _ => c.data_type.clone(),
    };
    if let Some(t) = t {
        if !t.is_rowtime_capable() {
            problems.push(Problem::InvalidWatermark {
                span,
                column: name,
                issue: WatermarkIssue::WrongType { found: t.summary() },
                inherited,
            });
        }
    }
}

/// The implicit system column `name` as a column of a table with `columns` (read-only
/// `METADATA VIRTUAL`), unless a column of that name shadows it.
fn system_column(
    columns: &[Column],
    system: &[SystemColumn],
    name: &str,
    origin: Origin,
) -> Option<Column> {
    if columns.iter().any(|c| c.name == name) {
        return None;
    }
    let s = system.iter().find(|s| s.name == name)?;
    Some(Column {
        name: s.name.as_str().into(),
        kind: ColumnKind::Metadata {
            key: None,
            is_virtual: true,
        },
        data_type: s.data_type.clone(),
        comment: None,
        origin,
        inherited_from: None,
    })
}

/// CTAS-style merge of declared columns with the query's output (flink-spec §4.2): columns
/// only in the DDL come first in DDL order, then the query's columns in query order; a typed
/// DDL column that the query also produces keeps the query position with the DDL type. An
/// identifiers-only list reorders the query's columns.
pub(super) fn ctas_columns(
    declared: &[Column],
    query: &[super::query::OutputColumn],
    elements: Option<&TableElements>,
    file: FileId,
) -> Vec<Column> {
    let names_only = elements.is_some_and(|e| {
        e.columns()
            .any(|c| matches!(c.kind, ast::ColumnKind::NameOnly))
    });
    let from_query = |c: &super::query::OutputColumn| Column {
        name: c.name.clone(),
        kind: ColumnKind::Physical,
        data_type: c.data_type.clone(),
        comment: None,
        origin: Origin { file, span: c.span },
        inherited_from: None,
    };
    if names_only {
        let order: Vec<&CompactString> = declared.iter().map(|c| &c.name).collect();
        let mut out: Vec<Column> = order
            .iter()
            .filter_map(|n| query.iter().find(|q| q.name == **n).map(from_query))
            .collect();
        if out.len() != query.len() {
            out = query.iter().map(from_query).collect();
        }
        return out;
    }
    let mut out: Vec<Column> = declared
        .iter()
        .filter(|d| !query.iter().any(|q| q.name == d.name))
        .cloned()
        .collect();
    for q in query {
        match declared.iter().find(|d| d.name == q.name) {
            Some(d) => {
                let mut c = from_query(q);
                if d.data_type.is_some() {
                    c.data_type = d.data_type.clone();
                }
                c.comment = d.comment.clone();
                out.push(c);
            }
            None => out.push(from_query(q)),
        }
    }
    out
}

/// The type of the column `name` of a table with `columns`, falling back to the implicit
/// system columns (for computed columns and watermarks over `$rowtime`).
pub(crate) fn column_type(columns: &[Column], system: &[SystemColumn], name: &str) -> Option<Type> {
    match columns.iter().find(|c| c.name == name) {
        Some(c) => c.data_type.clone(),
        None => system
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.data_type.clone()),
    }
}

/// A declared primary key: name and columns (the statement's identifiers).
struct DeclaredKey<'a> {
    name: CompactString,
    columns: &'a [crate::syntax::ast::Ident],
}

/// The statement's primary key (column-level or table-level), if any.
fn primary_key_of(elements: Option<&TableElements>) -> Option<(DeclaredKey<'_>, Span)> {
    let elements = elements?;
    for e in &elements.items {
        match e {
            TableElement::Constraint(c) if c.kind == ConstraintKind::PrimaryKey => {
                let columns = c.columns.names.as_slice();
                let name = c.name.as_ref().map_or_else(
                    || generated_pk_name(columns.iter().map(|n| n.as_str())),
                    |n| n.text.clone(),
                );
                return Some((DeclaredKey { name, columns }, c.span));
            }
            TableElement::Column(col) => {
                if let Some(cc) = &col.constraint {
                    if cc.kind == ConstraintKind::PrimaryKey {
                        let columns = std::slice::from_ref(&col.name);
                        let name = cc.name.as_ref().map_or_else(
                            || generated_pk_name([col.name.as_str()]),
                            |n| n.text.clone(),
                        );
                        return Some((DeclaredKey { name, columns }, cc.span));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// SQL-node validation of constraints (flink-spec §2.1): NOT ENFORCED required, UNIQUE
/// rejected, one primary key.
fn constraint_checks(declared: &Declared<'_>, problems: &mut Vec<Problem>) {
    if let Some(elements) = declared.elements {
        constraint_problems(&elements.items, problems);
    }
}

/// The constraint-form problems ([`Problem::in_constraint_form`]) of a list of table elements
/// (a CREATE's or an ALTER ... ADD's).
pub(super) fn constraint_problems(items: &[TableElement], problems: &mut Vec<Problem>) {
    let mut first_pk: Option<Span> = None;
    for e in items {
        let (kind, enforcement, written, span) = match e {
            TableElement::Constraint(c) => (c.kind, c.enforcement, c.enforcement_span, c.span),
            TableElement::Column(col) => match &col.constraint {
                Some(c) => (c.kind, c.enforcement, c.enforcement_span, c.span),
                None => continue,
            },
            TableElement::Watermark(_) => continue,
        };
        if kind == ConstraintKind::Unique {
            problems.push(Problem::UniqueConstraint { span });
            continue;
        }
        if let Some(first) = first_pk {
            problems.push(Problem::DuplicatePrimaryKey { span, first });
        } else {
            first_pk = Some(span);
        }
        if enforcement != Enforcement::NotEnforced {
            problems.push(Problem::PrimaryKeyEnforced {
                span,
                enforced: written,
            });
        }
    }
}

/// The parent of a LIKE as the session sees it, for diagnostics.
pub fn parent_table(object: &Arc<CatalogObject>) -> Option<&TableDef> {
    match &object.def {
        ObjectDef::Table(t) => Some(t),
        _ => None,
    }
}

/// The table as declared, without a merge: what flinklint registers when the merge cannot run.
fn declared_only(declared: &Declared<'_>) -> TableDef {
    let mut t = TableDef::empty();
    if let Some(elements) = declared.elements {
        t.columns = elements
            .columns()
            .map(|c| column_from_ast(c, declared.file))
            .collect();
    }
    t
}
