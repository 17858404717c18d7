//! `UPDATE` and `DELETE`: their names and expressions validated as Flink's validator does
//! (Calcite's `SqlValidatorImpl.validateUpdate` / `validateDelete`): the SET targets must be
//! columns of the table ("Unknown target column 'x'"), and the WHERE condition and the SET
//! values are validated as the source SELECT Calcite builds, `SELECT *, values FROM t [AS a]
//! WHERE cond` (fixtures/oracle/qv-names). Only tables the session sees are checked.

use super::Session;
use crate::files::FileEntry;
use crate::semantic::catalog::ObjectDef;
use crate::semantic::problems::{InsertIssue, Problem};
use crate::source::Span;
use crate::syntax::ast::*;

impl Session<'_> {
    /// `UPDATE` / `DELETE` of a table the session sees.
    pub(super) fn update_delete(
        &mut self,
        file: &FileEntry,
        statement: &Statement,
        o: &OtherStatement,
    ) {
        if statement.has_error {
            return;
        }
        let (alias, assignments, filter) = match &o.form {
            OtherForm::Update {
                alias,
                assignments,
                filter,
            } => (alias, assignments.as_slice(), filter),
            OtherForm::Delete { alias, filter } => (alias, &[][..], filter),
            _ => return,
        };
        let Some(name) = &o.name else {
            return;
        };
        let Some(qualified) = self.resolve(name) else {
            return;
        };
        let Some(object) = self.catalog.get(&qualified).cloned() else {
            return;
        };
        let (ObjectDef::Table(t) | ObjectDef::Materialized(t)) = &object.def else {
            return;
        };
        for (target, _) in assignments {
            let column = target.last().as_str();
            if target.parts.len() == 1 && t.column(column).is_none() {
                let lower = column.to_lowercase();
                let other_case = t
                    .columns
                    .iter()
                    .find(|c| c.name.to_lowercase() == lower)
                    .map(|c| c.name.to_string());
                self.report(
                    file.id,
                    statement.span,
                    Problem::InsertMismatch {
                        span: target.span,
                        table: qualified,
                        sink: object.name_origin,
                        issue: InsertIssue::UnknownTarget {
                            column: column.to_string(),
                            other_case,
                        },
                    },
                );
                return;
            }
        }
        let query = source_select(
            name,
            alias.as_ref(),
            assignments,
            filter.as_deref(),
            statement.span,
        );
        if let Some(validation) = self.validate_query(file, statement, &query) {
            self.check_expressions(file, statement, &query, &validation);
        }
    }
}

/// The SELECT Calcite validates for an UPDATE / DELETE: `SELECT *, values FROM t [AS a]
/// [WHERE cond]` (a bare `NULL` value left out: it takes the target column's type).
fn source_select(
    name: &ObjectName,
    alias: Option<&Ident>,
    assignments: &[(ObjectName, Expr)],
    filter: Option<&Expr>,
    span: Span,
) -> Query {
    let mut items = vec![SelectItem::Wildcard {
        qualifier: None,
        span: Span::empty(span.start),
    }];
    items.extend(
        assignments
            .iter()
            .filter(|(_, e)| !matches!(e.kind, ExprKind::Literal(Literal::Null)))
            .map(|(_, e)| SelectItem::Expr {
                expr: e.clone(),
                alias: None,
                span: e.span,
            }),
    );
    let select = Select {
        hints: Vec::new(),
        distinct: false,
        items,
        from: Some(TableRef::Named {
            name: name.clone(),
            hints: Vec::new(),
            system_time: None,
            alias: alias.map(|a| TableAlias {
                name: a.clone(),
                columns: Vec::new(),
                span: a.span,
            }),
            span: name.span,
        }),
        selection: filter.cloned(),
        group_by: Vec::new(),
        having: None,
        windows: Vec::new(),
        qualify: None,
        span,
    };
    Query {
        with: Vec::new(),
        body: SetExpr::Select(Box::new(select)),
        order_by: Vec::new(),
        limit: None,
        offset: None,
        span,
    }
}
