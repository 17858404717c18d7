//! The expressions of a CREATE TABLE: computed columns and the watermark strategy, validated as
//! Flink's schema resolution validates them (`DefaultSchemaResolver`, with Calcite's validator
//! over the table's columns) when it creates the table.
//!
//! - A computed column reads the table's physical and metadata columns, wherever they are
//!   declared; not another computed column ("Unknown identifier 'b'").
//! - The watermark strategy reads every column, computed ones included.
//! - Their calls and operators are checked as a query's are ([`Checker`]): `UPPER(a)` of an
//!   INT, `a + 'x'`. Only what Flink's validator rejects: what a query's planning rejects
//!   (`s = 1` of a STRING, `CAST(ts AS INT)`) Flink accepts in the table's definition.
//! - The strategy's type must be TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p <= 3, of the rowtime
//!   column's type root ("The watermark declaration's output data type ... is different from
//!   the time field's data type ...": precision may differ).
//!
//! The same holds for the computed columns and the watermark an ALTER TABLE adds or modifies
//! (Flink resolves the altered schema). Verified with Flink 2.3.0 (`fixtures/oracle/table/`).
//! What flinklint cannot know it leaves alone: a LIKE whose parent it cannot see, a CTAS, an
//! expression with a subquery (a syntax error, reported by the parser) or a lambda, and any
//! name of an implicit or foreign system column (other checks report those).

use super::Session;
use crate::semantic::catalog::{ColumnKind, TableDef};
use crate::semantic::exprs::{self, Aggregation};
use crate::semantic::functions::check::Checker;
use crate::semantic::problems::Problem;
use crate::semantic::types::{Kind, Type};
use crate::syntax::ast::{self, CreateTable, Expr, ExprKind, TableElement};

impl Session<'_> {
    /// The first problem of the table's computed columns and watermark strategy, in Flink's
    /// order (columns in declaration order, then the watermark).
    pub(super) fn table_expression_problem(
        &self,
        ct: &CreateTable,
        table: &TableDef,
    ) -> Option<Problem> {
        if ct.query.is_some() {
            return None;
        }
        let elements = ct.elements.as_ref()?;
        self.element_expression_problem(&elements.items, table)
    }

    /// The first problem of the computed columns and the watermark strategy among `items`
    /// (those a CREATE TABLE or an ALTER TABLE ADD / MODIFY declares), read over `table`, the
    /// table with them.
    pub(super) fn element_expression_problem(
        &self,
        items: &[TableElement],
        table: &TableDef,
    ) -> Option<Problem> {
        // With LIKE, `table` is the merged table: the parent's columns the like options keep
        // (an excluded metadata column is unknown to a derived computed column).
        let readable = |name: &str| {
            table
                .columns
                .iter()
                .find(|c| c.name == name && !matches!(c.kind, ColumnKind::Computed(_)))
        };
        let column_type = |name: &str| readable(name).and_then(|c| c.data_type.clone());
        let env = self.functions.clone();
        for item in items {
            let TableElement::Column(c) = item else {
                continue;
            };
            let ast::ColumnKind::Computed { expr } = &c.kind else {
                continue;
            };
            if !c.parents.is_empty() || !checkable(expr) {
                continue;
            }
            let within = format!("computed column `{}`", c.name.text);
            if let Some(p) = self.unknown_name(expr, table, &within, false) {
                return Some(p);
            }
            let mut checker = Checker::new(&env);
            checker.expr(expr, &column_type, Aggregation::None);
            if let Some(f) = checker.found.into_iter().find(|f| !f.planning) {
                return Some(Problem::Expression {
                    span: f.span,
                    issue: f.issue,
                    flink: f.flink,
                });
            }
        }
        let w = items.iter().find_map(|item| match item {
            TableElement::Watermark(w) => Some(w),
            _ => None,
        })?;
        if !checkable(&w.expr) || w.column.parts.len() != 1 {
            return None;
        }
        let rowtime = w.column.parts[0].as_str();
        let within = format!("watermark for `{rowtime}`");
        if let Some(p) = self.unknown_name(&w.expr, table, &within, true) {
            return Some(p);
        }
        // Every column, a computed one typed from the columns it reads.
        let any_type = |name: &str| -> Option<Type> {
            let c = table.columns.iter().find(|c| c.name == name)?;
            match &c.kind {
                ColumnKind::Computed(e) => exprs::infer_type(e, &column_type),
                _ => c.data_type.clone(),
            }
        };
        let mut checker = Checker::new(&env);
        checker.expr(&w.expr, &any_type, Aggregation::None);
        if let Some(f) = checker.found.into_iter().find(|f| !f.planning) {
            return Some(Problem::Expression {
                span: f.span,
                issue: f.issue,
                flink: f.flink,
            });
        }
        // `SOURCE_WATERMARK()` takes the rowtime column's type; `CURRENT_WATERMARK(ts)` has
        // checks of its own on its argument (a rowtime attribute), which Flink reports first.
        if exprs::call_name(&w.expr).is_some_and(|n| n == "SOURCE_WATERMARK") {
            return None;
        }
        let mut current_watermark = false;
        exprs::walk(&w.expr, &mut |e| {
            current_watermark |= exprs::call_name(e).is_some_and(|n| n == "CURRENT_WATERMARK");
        });
        if current_watermark {
            return None;
        }
        let found = exprs::infer_type(&w.expr, &any_type)?;
        if !found.is_rowtime_capable() {
            return Some(Problem::InvalidWatermarkExpression {
                span: w.expr.span,
                column: rowtime.to_string(),
                found: found.summary(),
                field: None,
            });
        }
        let field = any_type(rowtime)?;
        let same_root = matches!(
            (&found.kind, &field.kind),
            (Kind::Timestamp(_), Kind::Timestamp(_))
                | (Kind::TimestampLtz(_), Kind::TimestampLtz(_))
        );
        // A rowtime column of another type is the column's problem (found with the schema),
        // not the expression's.
        if !same_root && field.is_rowtime_capable() {
            return Some(Problem::InvalidWatermarkExpression {
                span: w.expr.span,
                column: rowtime.to_string(),
                found: found.summary(),
                field: Some(field.summary()),
            });
        }
        None
    }

    /// The first name of `expr` that is not a column it may read: physical and metadata
    /// columns, and computed ones too when `all`.
    fn unknown_name(
        &self,
        expr: &Expr,
        table: &TableDef,
        within: &str,
        all: bool,
    ) -> Option<Problem> {
        let mut found = None;
        exprs::walk(expr, &mut |e| {
            if found.is_some() {
                return;
            }
            let ExprKind::Identifier(name) = &e.kind else {
                return;
            };
            let name_parts = &name.parts[..];
            let first = &name.parts[0];
            let name = first.as_str();
            if self.system.implicit(name).is_some() || self.system.foreign.iter().any(|f| f == name)
            {
                return;
            }
            let column = table.columns.iter().find(|c| c.name == name);
            let computed = column.is_some_and(|c| matches!(c.kind, ColumnKind::Computed(_)));
            if column.is_some() && (all || !computed) {
                let ty = column.and_then(|c| c.data_type.as_ref());
                found = ty.and_then(|t| unknown_field(t, &name_parts[1..], within));
                return;
            }
            let candidates = table
                .columns
                .iter()
                .filter(|c| all || !matches!(c.kind, ColumnKind::Computed(_)))
                .map(|c| c.name.as_str());
            found = Some(Problem::UnknownTableExpressionName {
                span: first.span,
                name: name.to_string(),
                within: within.to_string(),
                computed,
                similar: crate::semantic::validate::similar_names(name, candidates),
            });
        });
        found
    }
}

/// Whether flinklint validates the expression: no subquery (a syntax error in Flink) and no
/// lambda (its parameters are names of their own).
fn checkable(expr: &Expr) -> bool {
    let mut ok = true;
    exprs::walk(expr, &mut |e| {
        if matches!(
            e.kind,
            ExprKind::Lambda { .. }
                | ExprKind::Subquery(_)
                | ExprKind::Exists(_)
                | ExprKind::InSubquery { .. }
                | ExprKind::ArrayQuery(_)
                | ExprKind::MapQuery(_)
        ) {
            ok = false;
        }
    });
    ok
}

/// The first of `fields` (a column's nested fields, `r.x.y` without `r`) that the column's
/// type `t` does not have: "Unknown field 'z'" of a ROW, "Trying to access field x in a type
/// with no fields: INTEGER" of another type (reported only where Calcite's type name is known).
fn unknown_field(t: &Type, fields: &[ast::Ident], within: &str) -> Option<Problem> {
    let mut t = t;
    for field in fields {
        match &t.kind {
            Kind::Row(row) => match row.iter().find(|(n, _)| n == field.as_str()) {
                Some((_, ft)) => t = ft,
                None => {
                    return Some(Problem::UnknownTableExpressionField {
                        span: field.span,
                        field: field.text.to_string(),
                        within: within.to_string(),
                        fields: row.iter().map(|(n, _)| n.clone()).collect(),
                        scalar: None,
                    })
                }
            },
            _ => {
                return crate::semantic::casts::calcite_name(t).map(|scalar| {
                    Problem::UnknownTableExpressionField {
                        span: field.span,
                        field: field.text.to_string(),
                        within: within.to_string(),
                        fields: Vec::new(),
                        scalar: Some(scalar),
                    }
                })
            }
        }
    }
    None
}
