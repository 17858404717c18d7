//! The streaming checks of a statement's pipeline ([`crate::semantic::plan`]): an INSERT (a
//! statement-set member included), a CREATE TABLE AS and a SELECT are planned as Flink's
//! planner would plan them, and the first problem its optimizer reports is found. Only in
//! streaming mode (`execution.runtime-mode` is not `batch`).

use super::{RecordedPlan, Session};
use crate::files::FileEntry;
use crate::semantic::catalog::ObjectDef;
use crate::semantic::plan::{self, Planned, SinkTarget};
use crate::semantic::problems::Problem;
use crate::syntax::ast::{Statement, StatementKind};

impl Session<'_> {
    /// Plans the statement's pipeline and reports its first streaming problem.
    pub(super) fn check_streaming(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        kind: &StatementKind,
    ) {
        if statement.has_error
            || !self.plan_pipelines
            || self
                .config_value("execution.runtime-mode")
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("batch"))
        {
            return;
        }
        let planned: Planned = match kind {
            StatementKind::Insert(i) => {
                let Some(name) = self.resolve(&i.table) else {
                    return;
                };
                let Some(object) = self.catalog.get(&name) else {
                    return;
                };
                let ObjectDef::Table(t) = &object.def else {
                    return;
                };
                if object.incomplete {
                    return;
                }
                let sink = SinkTarget {
                    name: name.dotted(),
                    span: i.table.span,
                    connector: t.option("connector").map(|o| o.value.trim().to_string()),
                    format: t
                        .option("value.format")
                        .or_else(|| t.option("format"))
                        .map(|o| o.value.trim().to_string()),
                };
                plan::plan_sink(&i.query, self, &sink)
            }
            StatementKind::CreateTable(ct) => {
                let (Some(query), None) = (&ct.query, &ct.like) else {
                    return;
                };
                let Some(name) = self.resolve(&ct.name) else {
                    return;
                };
                let option = |key: &str| {
                    ct.with
                        .as_ref()
                        .and_then(|w| w.get(key))
                        .map(|p| p.value.value.trim().to_string())
                };
                let sink = SinkTarget {
                    name: name.dotted(),
                    span: ct.name.span,
                    connector: option("connector"),
                    format: option("value.format").or_else(|| option("format")),
                };
                plan::plan_sink(query, self, &sink)
            }
            StatementKind::Query(q) => plan::plan_query(q, self),
            _ => return,
        };
        if let Some(problem) = planned.problem.clone() {
            self.report(file.id, statement.span, Problem::Streaming(problem));
        }
        // The checks after changelog inference ([`plan::checks`]).
        if planned.problem.is_none() {
            self.check_pipeline(file, statement, kind, &planned);
        }
        if self.record_versions {
            if let Some(root) = planned.root {
                self.plans.push(RecordedPlan {
                    file: file.id,
                    statement: statement.span,
                    root,
                    problem: planned.problem,
                });
            }
        }
    }
}
