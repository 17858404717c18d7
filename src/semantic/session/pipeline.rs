//! The checks Flink's planner makes on a pipeline after its changelog modes are inferred
//! ([`crate::semantic::plan::checks`]): the sink's primary key against the query's upsert
//! keys and `ON CONFLICT`, non-deterministic updates, and state without a TTL.

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::{ColumnKind, ObjectDef};
use crate::semantic::names::QualifiedName;
use crate::semantic::plan::{self, checks, Node, PipelineSettings, Planned, SinkInfo};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{Query, Statement, StatementKind};
use compact_str::CompactString;

impl Session<'_> {
    /// The session's settings the checks read.
    fn pipeline_settings(&self) -> PipelineSettings {
        let value = |key: &str| self.config_value(key).map(str::trim);
        PipelineSettings {
            try_resolve: value("table.optimizer.non-deterministic-update.strategy")
                .is_some_and(|v| v.eq_ignore_ascii_case("TRY_RESOLVE")),
            state_ttl: value("table.exec.state.ttl").is_some_and(plan::state::ttl_bounds),
            require_on_conflict: !value("table.exec.sink.require-on-conflict")
                .is_some_and(|v| v.eq_ignore_ascii_case("false"))
                && value("table.exec.sink.upsert-materialize")
                    .is_none_or(|v| v.eq_ignore_ascii_case("AUTO")),
        }
    }

    /// Runs the checks on a planned pipeline that Flink's changelog inference accepts and
    /// reports the first problem.
    pub(super) fn check_pipeline(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        kind: &StatementKind,
        planned: &Planned,
    ) {
        let Some(root) = &planned.root else {
            return;
        };
        let settings = self.pipeline_settings();
        let (query, sink): (&Query, Option<(SinkInfo, Option<String>)>) = match kind {
            StatementKind::Insert(i) => (&i.query, self.insert_sink(i)),
            StatementKind::CreateTable(ct) => {
                let Some(query) = &ct.query else {
                    return;
                };
                // A CREATE TABLE AS with a primary key: its key is not followed.
                if ct.elements.is_some() {
                    return;
                }
                let Some(name) = self.resolve(&ct.name) else {
                    return;
                };
                let option = |key: &str| {
                    ct.with
                        .as_ref()
                        .and_then(|w| w.get(key))
                        .map(|p| p.value.value.trim().to_string())
                };
                let info = SinkInfo {
                    name: full_name(&name),
                    span: ct.name.span,
                    connector: option("connector"),
                    primary_key: Vec::new(),
                    primary_key_at: None,
                    targets: Vec::new(),
                    on_conflict: None,
                };
                (
                    query.as_ref(),
                    Some((info, option("value.format").or_else(|| option("format")))),
                )
            }
            StatementKind::Query(q) => (q, None),
            _ => return,
        };
        if matches!(kind, StatementKind::Insert(_)) && sink.is_none() {
            return;
        }
        let unbounded = |scan: &Node| -> Option<bool> {
            let (c, d, o) = checks::scan_table(scan)?;
            let name = QualifiedName {
                catalog: c.into(),
                database: d.into(),
                object: o.into(),
            };
            let object = self.catalog.get(&name)?;
            match &object.def {
                ObjectDef::Table(t) => plan::state::table_unbounded(t),
                _ => None,
            }
        };
        let problem = checks::check_pipeline(
            root,
            query,
            sink.as_ref().map(|(s, f)| (s, f.as_deref())),
            &settings,
            &unbounded,
        );
        if let Some(problem) = problem {
            self.report(file.id, statement.span, Problem::Pipeline(problem));
        }
    }

    /// The sink of an INSERT, when the session sees its table.
    fn insert_sink(&self, i: &crate::syntax::ast::Insert) -> Option<(SinkInfo, Option<String>)> {
        let name = self.resolve(&i.table)?;
        let object = self.catalog.get(&name)?;
        let ObjectDef::Table(t) = &object.def else {
            return None;
        };
        if object.incomplete {
            return None;
        }
        let targets: Vec<CompactString> = match &i.columns {
            Some(list) => list.names.iter().map(|n| n.text.clone()).collect(),
            None => t
                .columns
                .iter()
                .filter(|c| match &c.kind {
                    ColumnKind::Physical => true,
                    ColumnKind::Computed(_) => false,
                    ColumnKind::Metadata { is_virtual, .. } => !is_virtual,
                })
                .map(|c| c.name.clone())
                .collect(),
        };
        let format = t
            .option("value.format")
            .or_else(|| t.option("format"))
            .map(|o| o.value.trim().to_string());
        Some((
            SinkInfo {
                name: full_name(&name),
                span: i.table.span,
                connector: t.option("connector").map(|o| o.value.trim().to_string()),
                primary_key: t
                    .primary_key
                    .as_ref()
                    .map(|pk| pk.columns.clone())
                    .unwrap_or_default(),
                primary_key_at: t.primary_key.as_ref().map(|pk| pk.origin),
                targets,
                on_conflict: i.on_conflict,
            },
            format,
        ))
    }
}

fn full_name(name: &QualifiedName) -> String {
    name.dotted()
}
