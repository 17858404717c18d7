//! Materialized tables in a session: `CREATE [OR ALTER] MATERIALIZED TABLE`, every
//! `ALTER MATERIALIZED TABLE` form, and the checks Flink runs when a definition evolves
//! (FLIP-435 materialized tables, FLIP-492 `ALTER ... AS`, FLIP-546 `CREATE OR ALTER`,
//! FLIP-557 start modes; flink-spec §4.4-4.6, `fixtures/oracle/mt/FINDINGS.md`).
//!
//! Evolution follows Flink 2.3's `MaterializedTableChangeHandler`: the new query's persisted
//! columns must start with the old persisted columns (same name, same type; a nullability
//! tightening is tolerated for query-derived schemas); new columns may only be appended and are
//! stored nullable. On `CREATE OR ALTER` of an existing table WITH and DISTRIBUTED BY are
//! declarative, an added PRIMARY KEY is applied, an omitted PK or watermark is kept, and
//! FRESHNESS, COMMENT, PARTITIONED BY and an added watermark are silently ignored; a changed
//! REFRESH_MODE is rejected.

use super::catalog::*;
use super::problems::{EvolutionIssue, IgnoredClause, Problem, SessionSetting};
use super::query::OutputColumn;
use super::render_expr;
use super::session::Session;
use super::show_create;
use super::table::ctas_columns;
use super::table::{self, Declared};
use crate::files::FileEntry;
use crate::source::Span;
use crate::syntax::ast;
use crate::syntax::ast::{
    AlterMaterializedTable, AlterMaterializedTableAction, CreateMaterializedTable, Expr, ExprKind,
    Literal, Query, RefreshMode, Statement,
};
use std::sync::Arc;

/// The session option that sets the start mode of statements that declare none.
pub const DEFAULT_START_MODE_KEY: &str = "materialized-table.default-start-mode";

/// Freshness at or above which an omitted REFRESH_MODE is FULL (Flink's default
/// `materialized-table.refresh-mode.freshness-threshold`, 30 minutes), in seconds.
pub const FULL_THRESHOLD_SECONDS: u64 = 30 * 60;

impl Session<'_> {
    /// The `SET 'materialized-table.default-start-mode'` in effect, if any.
    pub fn session_start_mode(&self) -> Option<SessionSetting> {
        self.setting(DEFAULT_START_MODE_KEY)
    }

    /// `CREATE [OR ALTER] MATERIALIZED TABLE`.
    pub(super) fn create_materialized(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        mt: &CreateMaterializedTable,
    ) {
        let Some(name) = self.resolve(&mt.name) else {
            return;
        };
        let origin = |span: Span| Origin {
            file: file.id,
            span,
        };
        // `--base`: a statement the file still holds unchanged is the one that deployed the
        // table; re-running it is no evolution, so it runs as the first creation it was.
        if let Some(deployed) = self.deployed.remove(&name) {
            let text = file.source.slice(statement.span);
            if deployed == super::session::normalized_statement(text) {
                if let Some(old) = self.catalog.permanent(&name).cloned() {
                    self.catalog.remove(&name, false);
                    self.versions
                        .retain(|v| !(v.object.name == name && v.statement == old.statement));
                }
            }
        }
        let existing = self.catalog.get(&name).filter(|o| !o.incomplete).cloned();
        let previous = match &existing {
            Some(existing) => match (&existing.def, mt.or_alter) {
                (_, None) => {
                    self.report(
                        file.id,
                        statement.span,
                        Problem::AlreadyExists {
                            span: mt.name.span,
                            name: name.clone(),
                            existing: existing.clone(),
                            creating: "materialized table",
                        },
                    );
                    return;
                }
                (ObjectDef::Materialized(t), Some(_)) => Some((existing.clone(), t.clone())),
                (_, Some(_)) => {
                    self.report(
                        file.id,
                        statement.span,
                        Problem::NotMaterialized {
                            span: mt.name.span,
                            name: name.clone(),
                            action: "CREATE OR ALTER MATERIALIZED TABLE",
                            existing: existing.clone(),
                            verified: true,
                        },
                    );
                    return;
                }
            },
            None => None,
        };
        let Some(query) = &mt.query else { return };
        let Some((mut built, known)) = self.build_materialized(file, statement, mt, query) else {
            return;
        };
        let mut rejected = statement.has_error || !known;
        if let Some((old_object, old)) = previous {
            let checks = !statement.has_error;
            if checks && mt.start_mode.is_none() {
                let head_end = mt.name.span.end;
                self.report(
                    file.id,
                    statement.span,
                    Problem::CreateOrAlterWithoutStartMode {
                        span: Span {
                            start: statement.span.start,
                            end: head_end,
                        },
                        session_default: self.session_start_mode(),
                        insert_at: start_mode_position(mt),
                        previous: old_object.statement,
                    },
                );
            }
            let new_persisted: Vec<Column> = built
                .columns
                .iter()
                .filter(|c| c.kind.is_persisted())
                .cloned()
                .collect();
            if known && checks {
                if let Some(p) = evolution_problem(
                    &old,
                    &new_persisted,
                    query.span,
                    old_object.statement,
                    false,
                ) {
                    rejected = true;
                    self.report(file.id, statement.span, p);
                }
            }
            if known && checks && !rejected {
                // A new query column named like a computed or virtual metadata column the
                // table keeps: Flink's schema resolution finds the duplicate.
                let kept = old.columns.iter().filter(|c| c.kind.is_persisted()).count();
                for c in new_persisted.iter().skip(kept) {
                    if let Some(existing) = old.column(&c.name).filter(|e| !e.kind.is_persisted()) {
                        rejected = true;
                        self.report(
                            file.id,
                            statement.span,
                            Problem::EvolvedDuplicate {
                                span: c.origin.span,
                                name: c.name.to_string(),
                                existing: existing.origin,
                                existing_kind: super::table::kind_of(&existing.kind),
                            },
                        );
                    }
                }
            }
            let mut changes = Vec::new();
            let evolved = evolve_definition(&old, &built, mt, &new_persisted, &mut changes);
            if checks {
                for p in changes {
                    rejected |= p.rejects();
                    self.report(file.id, statement.span, p);
                }
            }
            built = evolved;
        }
        self.register(CatalogObject {
            name,
            def: ObjectDef::Materialized(built),
            temporary: false,
            statement: origin(statement.span),
            name_origin: origin(mt.name.span),
            incomplete: rejected,
            derived_from: None,
            ambiguous: false,
        });
    }

    /// The definition a CREATE MATERIALIZED TABLE makes on its own, and whether the query's
    /// columns are known. Reports the constraint-form problems ([`Problem::in_constraint_form`]).
    fn build_materialized(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        mt: &CreateMaterializedTable,
        query: &Arc<Query>,
    ) -> Option<(TableDef, bool)> {
        let system = self.system.implicit.clone();
        let declared = Declared {
            file: file.id,
            system: &system,
            elements: mt.elements.as_ref(),
            comment: mt.comment.as_ref(),
            distribution: mt.distribution.as_ref(),
            partitioned_by: None,
            with: mt.with.as_ref(),
            like: None,
            query: table::QueryColumns::None,
        };
        let mut built = table::build_table(&declared, None);
        if let Some(p) = &mt.partitioned_by {
            built.table.partitions = Some(PartitionDef {
                columns: p.names.iter().map(|n| n.text.clone()).collect(),
                origin: Origin {
                    file: file.id,
                    span: p.span,
                },
            });
        }
        let schema_from_query = mt.elements.as_ref().is_none_or(|e| {
            e.columns()
                .all(|c| matches!(c.kind, ast::ColumnKind::NameOnly))
        });
        let identifiers = mt.elements.as_ref().is_some_and(|e| {
            e.columns()
                .any(|c| matches!(c.kind, ast::ColumnKind::NameOnly))
        });
        super::session::collapse_duplicates(&mut built.problems, identifiers);
        let columns = self.query_columns(query, file.id);
        let known = columns.is_some();
        if let (Some(columns), false) = (&columns, statement.has_error) {
            for p in super::session::renamed_columns(columns, file.id, "CREATE MATERIALIZED TABLE")
            {
                self.report(file.id, statement.span, p);
            }
        }
        let mut schema_rejected = false;
        if let Some(columns) = &columns {
            built.table.columns =
                ctas_columns(&built.table.columns, columns, mt.elements.as_ref(), file.id);
            if let Some(name) = self.resolve(&mt.name) {
                for p in super::alter::create_schema(mt, columns, &built.table, &name, file.id) {
                    schema_rejected = true;
                    if !statement.has_error {
                        self.report(file.id, statement.span, p);
                    }
                }
            }
        }
        // Column references (PK, watermark, partitions) are checked against the merged schema
        // below; of the table checks only the constraint forms apply before the merge.
        let mut rejected = false;
        for p in built.problems {
            if matches!(p, Problem::CollapsedColumnList { .. }) {
                if !statement.has_error {
                    self.report(file.id, statement.span, p);
                }
                continue;
            }
            if p.in_constraint_form() {
                rejected |= p.rejects();
                if !statement.has_error {
                    self.report(file.id, statement.span, p);
                }
            }
        }
        built.table.materialized = Some(Box::new(MaterializedDef {
            query: query.clone(),
            query_origin: Origin {
                file: file.id,
                span: query.span,
            },
            start_mode: mt.start_mode.clone(),
            freshness: mt.freshness.as_ref().map(|f| f.interval.clone()),
            refresh_mode: mt.refresh_mode.as_ref().map(|r| r.mode),
            schema_from_query,
            expanded_query: super::render_query::flink_expanded(query, self),
        }));
        Some((built.table, known && !rejected && !schema_rejected))
    }

    /// `ALTER MATERIALIZED TABLE`.
    pub(super) fn alter_materialized(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        amt: &AlterMaterializedTable,
    ) {
        // A constraint Flink rejects whatever the table (even one the session cannot see).
        if let AlterMaterializedTableAction::Schema(change) = &amt.action {
            if let Some(p) = super::alter::constraint_form(change) {
                if !statement.has_error {
                    self.report(file.id, statement.span, p);
                }
                return;
            }
        }
        let Some(name) = self.resolve(&amt.name) else {
            return;
        };
        let action = match &amt.action {
            AlterMaterializedTableAction::AsQuery(_) => "ALTER MATERIALIZED TABLE ... AS",
            AlterMaterializedTableAction::Suspend => "ALTER MATERIALIZED TABLE ... SUSPEND",
            AlterMaterializedTableAction::Resume(_) => "ALTER MATERIALIZED TABLE ... RESUME",
            AlterMaterializedTableAction::Refresh(_) => "ALTER MATERIALIZED TABLE ... REFRESH",
            AlterMaterializedTableAction::Schema(_) => "ALTER MATERIALIZED TABLE",
            // Forms Flink 2.3 rejects whatever the table: the syntax-tree rules report them.
            _ => return,
        };
        let object = match self.catalog.get(&name).cloned() {
            Some(o) => o,
            None => {
                if !statement.has_error {
                    let similar = self.similar(&name);
                    self.report(
                        file.id,
                        statement.span,
                        Problem::UnknownMaterialized {
                            span: amt.name.span,
                            name,
                            action,
                            similar,
                        },
                    );
                }
                return;
            }
        };
        let ObjectDef::Materialized(t) = &object.def else {
            // A definition that scripts define differently says nothing certain about its kind.
            if !statement.has_error && !object.ambiguous {
                // Flink rejects ALTER ... AS and ADD/MODIFY/DROP on a regular table at convert;
                // SUSPEND / RESUME / REFRESH reach the SQL gateway, which the oracle cannot run.
                let verified = matches!(
                    amt.action,
                    AlterMaterializedTableAction::AsQuery(_)
                        | AlterMaterializedTableAction::Schema(_)
                );
                self.report(
                    file.id,
                    statement.span,
                    Problem::NotMaterialized {
                        span: amt.name.span,
                        name,
                        action,
                        existing: object.clone(),
                        verified,
                    },
                );
            }
            return;
        };
        let mut t = t.clone();
        let mut rejected = false;
        match &amt.action {
            AlterMaterializedTableAction::AsQuery(q) => {
                if !statement.has_error && q.start_mode.is_none() {
                    self.report(
                        file.id,
                        statement.span,
                        Problem::AlterWithoutStartMode {
                            span: Span {
                                start: statement.span.start,
                                end: q.as_span.end,
                            },
                            name: name.clone(),
                            object: object.clone(),
                            session_default: self.session_start_mode(),
                            as_span: q.as_span,
                            name_span: amt.name.span,
                            query_span: q.query.span,
                        },
                    );
                }
                if let Some(columns) = self.query_columns(&q.query, file.id) {
                    let new: Vec<Column> =
                        columns.iter().map(|c| query_column(c, file.id)).collect();
                    if !statement.has_error && !object.ambiguous {
                        if let Some(p) =
                            evolution_problem(&t, &new, q.query.span, object.statement, true)
                        {
                            rejected = true;
                            self.report(file.id, statement.span, p);
                        }
                    }
                    append_columns(&mut t, &new);
                }
                let expanded_query = super::render_query::flink_expanded(&q.query, self);
                if let Some(m) = &mut t.materialized {
                    m.query = q.query.clone();
                    m.expanded_query = expanded_query;
                    m.query_origin = Origin {
                        file: file.id,
                        span: q.query.span,
                    };
                    m.start_mode = q.start_mode.clone();
                }
            }
            AlterMaterializedTableAction::Schema(change) => {
                let altered = super::alter::Altered {
                    table: &t,
                    name: &name,
                    query: self.materialized_query(&t),
                    system_watermark: !self.system.implicit.is_empty(),
                };
                // The columns of an ambiguous definition are not knowable.
                let problem = if object.ambiguous {
                    None
                } else {
                    super::alter::schema_change(&altered, change)
                };
                if let Some(p) = problem {
                    // Flink rejects the statement: the table stays as it was.
                    if !statement.has_error {
                        self.report(file.id, statement.span, p);
                    }
                    return;
                }
                super::session::apply_schema_change(&mut t, change, file.id)
            }
            _ => return,
        }
        self.register(CatalogObject {
            name,
            def: ObjectDef::Materialized(t),
            temporary: false,
            statement: Origin {
                file: file.id,
                span: statement.span,
            },
            name_origin: object.name_origin,
            incomplete: object.incomplete || statement.has_error || rejected,
            derived_from: object.derived_from.clone(),
            ambiguous: object.ambiguous,
        });
    }
}

/// Where a START_MODE clause goes in a CREATE [OR ALTER]: before FRESHNESS, REFRESH_MODE or
/// AS, whichever comes first (byte offset).
pub fn start_mode_position(mt: &CreateMaterializedTable) -> u32 {
    mt.freshness
        .as_ref()
        .map(|f| f.span.start)
        .or(mt.refresh_mode.as_ref().map(|r| r.span.start))
        .or(mt.as_span.map(|s| s.start))
        .unwrap_or(mt.name.span.end)
}

fn query_column(c: &OutputColumn, file: crate::source::FileId) -> Column {
    Column {
        name: c.name.clone(),
        kind: ColumnKind::Physical,
        data_type: c.data_type.clone(),
        comment: None,
        origin: Origin { file, span: c.span },
        inherited_from: None,
    }
}

/// `` `name` TYPE `` as Flink's evolution messages print a column.
pub fn describe_column(c: &Column) -> String {
    match &c.data_type {
        Some(t) => format!("{} {}", super::names::quote(&c.name), t.summary()),
        None => super::names::quote(&c.name),
    }
}

/// Whether a new column keeps an old persisted column: same name and, where both types are
/// known, the same type. Nullability is not compared: Flink tolerates a tightening for
/// query-derived schemas, and flinklint cannot always tell a loosening from an expression
/// whose nullability it does not infer (a missed finding beats a false one).
fn same_column(old: &Column, new: &Column) -> bool {
    if old.name != new.name {
        return false;
    }
    match (&old.data_type, &new.data_type) {
        (Some(o), Some(n)) => o.kind == n.kind,
        _ => true,
    }
}

/// A query evolution must be append-only: the new persisted columns must start with the old
/// persisted columns.
fn evolution_problem(
    old: &TableDef,
    new: &[Column],
    span: Span,
    previous: Origin,
    via_alter: bool,
) -> Option<Problem> {
    let old_persisted: Vec<&Column> = old
        .columns
        .iter()
        .filter(|c| c.kind.is_persisted())
        .collect();
    let render =
        |cols: &mut dyn Iterator<Item = &Column>| cols.map(describe_column).collect::<Vec<_>>();
    let old_columns = render(&mut old_persisted.iter().copied());
    let new_columns = render(&mut new.iter());
    let issue = if new.len() < old_persisted.len() {
        Some(EvolutionIssue::Dropped {
            old: old_persisted.len(),
            new: new.len(),
        })
    } else {
        old_persisted
            .iter()
            .zip(new)
            .enumerate()
            .find(|(_, (o, n))| !same_column(o, n))
            .map(|(i, (o, n))| EvolutionIssue::Mismatch {
                position: i + 1,
                old: describe_column(o),
                new: describe_column(n),
            })
    }?;
    Some(Problem::NonAppendEvolution {
        span,
        issue,
        old_columns,
        new_columns,
        previous,
        via_alter,
    })
}

/// Appends the new query's columns beyond the old persisted ones, stored nullable.
fn append_columns(t: &mut TableDef, new: &[Column]) {
    let persisted = t.columns.iter().filter(|c| c.kind.is_persisted()).count();
    for c in new.iter().skip(persisted) {
        if t.column(&c.name).is_some() {
            // Flink: "Schema must not contain duplicate column names" (an old computed column).
            continue;
        }
        let mut c = c.clone();
        c.data_type = c.data_type.map(|d| d.with_nullable(true));
        t.columns.push(c);
    }
}

/// Effective refresh mode: the declared one, else FULL when the freshness is at or above the
/// threshold, else CONTINUOUS.
pub fn effective_refresh_mode(m: &MaterializedDef) -> RefreshMode {
    if let Some(mode) = m.refresh_mode {
        return mode;
    }
    match m.freshness.as_ref().and_then(interval_seconds) {
        Some(s) if s >= FULL_THRESHOLD_SECONDS => RefreshMode::Full,
        _ => RefreshMode::Continuous,
    }
}

/// The length of a simple interval literal (`INTERVAL '5' MINUTE`), in seconds.
pub fn interval_seconds(e: &Expr) -> Option<u64> {
    let ExprKind::Literal(Literal::Interval {
        negative: false,
        value,
        qualifier,
    }) = &e.kind
    else {
        return None;
    };
    let n: u64 = value.value.trim().parse().ok()?;
    let unit = match qualifier.start.as_str() {
        "SECOND" => 1,
        "MINUTE" => 60,
        "HOUR" => 3600,
        "DAY" => 86_400,
        "WEEK" => 7 * 86_400,
        _ => return None,
    };
    if qualifier.end.is_some() {
        return None;
    }
    Some(n * unit)
}

/// The FRESHNESS Flink stores when none is declared (`materialized-table.default-freshness.*`).
pub fn default_freshness(mode: RefreshMode) -> &'static str {
    match mode {
        RefreshMode::Full => "INTERVAL '1' HOUR",
        RefreshMode::Continuous => "INTERVAL '3' MINUTE",
    }
}

/// The definition after CREATE OR ALTER of an existing table, and the clause changes Flink
/// ignores, rejects or applies surprisingly.
fn evolve_definition(
    old: &TableDef,
    new: &TableDef,
    mt: &CreateMaterializedTable,
    new_persisted: &[Column],
    changes: &mut Vec<Problem>,
) -> TableDef {
    let mut out = old.clone();
    append_columns(&mut out, new_persisted);
    let old_m = old.materialized.as_ref();
    let new_m = new.materialized.as_ref();
    let mut change = |span: Span,
                      clause: IgnoredClause,
                      old: Option<String>,
                      new: Option<String>,
                      previous: Option<Origin>| {
        changes.push(Problem::IgnoredClauseChange {
            span,
            clause,
            old,
            new,
            previous,
        });
    };
    // REFRESH_MODE: an explicit, different mode is rejected; an omitted one keeps the old.
    if let (Some(om), Some(nm), Some(clause)) = (old_m, new_m, &mt.refresh_mode) {
        let old_mode = effective_refresh_mode(om);
        if clause.mode != old_mode {
            change(
                clause.span,
                IgnoredClause::RefreshMode,
                Some(old_mode.as_str().to_string()),
                Some(clause.mode.as_str().to_string()),
                Some(om.query_origin),
            );
        }
        let _ = nm;
    }
    // FRESHNESS: ignored.
    if let (Some(om), Some(nm)) = (old_m, new_m) {
        let mode = effective_refresh_mode(om);
        let old_f = om
            .freshness
            .as_ref()
            .map_or_else(|| default_freshness(mode).to_string(), render_expr::render);
        let new_f = nm.freshness.as_ref().map(render_expr::render);
        let declared_old = om.freshness.is_some();
        let differs = match &new_f {
            Some(n) => *n != old_f,
            None => declared_old,
        };
        if differs {
            change(
                mt.freshness.as_ref().map_or(mt.name.span, |f| f.span),
                IgnoredClause::Freshness,
                Some(old_f),
                new_f,
                None,
            );
        }
    }
    // COMMENT: ignored.
    if new.comment != old.comment {
        change(
            mt.comment.as_ref().map_or(mt.name.span, |c| c.span),
            IgnoredClause::Comment,
            old.comment.as_ref().map(|c| show_create::string_literal(c)),
            new.comment.as_ref().map(|c| show_create::string_literal(c)),
            None,
        );
    }
    // PARTITIONED BY: ignored.
    let keys = |p: &Option<PartitionDef>| p.as_ref().map(|p| p.columns.clone()).unwrap_or_default();
    if keys(&new.partitions) != keys(&old.partitions) {
        change(
            mt.partitioned_by.as_ref().map_or(mt.name.span, |p| p.span),
            IgnoredClause::PartitionedBy,
            old.partitions.as_ref().map(show_create::partitions),
            new.partitions.as_ref().map(show_create::partitions),
            old.partitions.as_ref().map(|p| p.origin),
        );
    }
    // WATERMARK: an omitted one is kept; an added or different one is ignored.
    if let Some(w) = &new.watermark {
        let rendered = show_create::watermark(w);
        if old.watermark.as_ref().map(show_create::watermark) != Some(rendered.clone()) {
            change(
                w.origin.span,
                IgnoredClause::Watermark,
                old.watermark.as_ref().map(show_create::watermark),
                Some(rendered),
                old.watermark.as_ref().map(|w| w.origin),
            );
        }
    }
    // PRIMARY KEY: an added or changed one is applied; an omitted one is kept.
    if new.primary_key.is_some() {
        out.primary_key = new.primary_key.clone();
    }
    // DISTRIBUTED BY: declarative; omitting it removes the old one.
    if new.distribution.is_none() {
        if let Some(d) = &old.distribution {
            change(
                mt.name.span,
                IgnoredClause::DistributionDropped,
                Some(show_create::distribution(d)),
                None,
                Some(d.origin),
            );
        }
    }
    out.distribution = new.distribution.clone();
    // WITH: declarative; omitting it removes every stored option.
    if new.options.is_empty() && !old.options.is_empty() {
        change(
            mt.name.span,
            IgnoredClause::OptionsDropped,
            Some(
                old.options
                    .iter()
                    .map(|o| {
                        format!(
                            "{} = {}",
                            show_create::string_literal(&o.key),
                            show_create::string_literal(&o.value)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            None,
            old.options.first().map(|o| o.origin),
        );
    }
    out.options = new.options.clone();
    // The query and start mode are the new ones; freshness and refresh mode stay.
    if let (Some(m), Some(nm)) = (&mut out.materialized, new_m) {
        m.query = nm.query.clone();
        m.expanded_query = nm.expanded_query.clone();
        m.query_origin = nm.query_origin;
        m.start_mode = nm.start_mode.clone();
    }
    out
}

/// The columns a CREATE OR ALTER would write for `t` (non-persisted columns, and persisted
/// ones when the schema was declared rather than derived), for rewriting `ALTER MATERIALIZED
/// TABLE ... AS` as CREATE OR ALTER.
pub fn declared_columns(t: &TableDef) -> Vec<&Column> {
    let query_derived = t.materialized.as_ref().is_none_or(|m| m.schema_from_query);
    t.columns
        .iter()
        .filter(|c| !query_derived || !c.kind.is_persisted())
        .collect()
}
