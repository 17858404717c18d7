//! Queries printed in the style of Flink's `SHOW CREATE MATERIALIZED TABLE` (identifiers
//! backticked, keywords upper-case). Flink prints the validated, fully qualified query; this
//! renders select-project-filter-aggregate queries from the syntax tree and qualifies nothing:
//! a documented gap.

use super::names::quote;
use super::render_expr::render as expr;
use crate::syntax::ast::*;

/// Renders a query.
pub fn render(q: &Query) -> String {
    let mut out = String::new();
    if !q.with.is_empty() {
        out.push_str("WITH ");
        let ctes: Vec<String> = q
            .with
            .iter()
            .map(|c| format!("{} AS ({})", quote(&c.name.text), render(&c.query)))
            .collect();
        out.push_str(&ctes.join(", "));
        out.push(' ');
    }
    set_expr(&q.body, &mut out);
    if !q.order_by.is_empty() {
        out.push_str("\nORDER BY ");
        let items: Vec<String> = q
            .order_by
            .iter()
            .map(|o| {
                format!(
                    "{}{}",
                    expr(&o.expr),
                    if o.descending { " DESC" } else { "" }
                )
            })
            .collect();
        out.push_str(&items.join(", "));
    }
    if let Some(l) = &q.limit {
        out.push_str("\nLIMIT ");
        out.push_str(&expr(l));
    }
    out
}

fn set_expr(s: &SetExpr, out: &mut String) {
    match s {
        SetExpr::Select(sel) => select(sel, out),
        SetExpr::Values(v) => {
            out.push_str("VALUES ");
            let rows: Vec<String> = v
                .rows
                .iter()
                .map(|r| format!("ROW({})", r.iter().map(expr).collect::<Vec<_>>().join(", ")))
                .collect();
            out.push_str(&rows.join(", "));
        }
        SetExpr::Table(t) => {
            out.push_str("TABLE ");
            out.push_str(&name(t));
        }
        SetExpr::Query(q) => {
            out.push('(');
            out.push_str(&render(q));
            out.push(')');
        }
        SetExpr::SetOperation {
            op,
            all,
            left,
            right,
            ..
        } => {
            set_expr(left, out);
            out.push_str(match op {
                SetOperator::Union => "\nUNION ",
                SetOperator::Intersect => "\nINTERSECT ",
                SetOperator::Except => "\nEXCEPT ",
            });
            if *all {
                out.push_str("ALL ");
            }
            set_expr(right, out);
        }
    }
}

fn name(n: &ObjectName) -> String {
    n.parts
        .iter()
        .map(|p| quote(&p.text))
        .collect::<Vec<_>>()
        .join(".")
}

fn select(s: &Select, out: &mut String) {
    out.push_str("SELECT ");
    if s.distinct {
        out.push_str("DISTINCT ");
    }
    let items: Vec<String> = s
        .items
        .iter()
        .map(|i| match i {
            SelectItem::Wildcard {
                qualifier: Some(q), ..
            } => format!("{}.*", name(q)),
            SelectItem::Wildcard {
                qualifier: None, ..
            } => "*".to_string(),
            SelectItem::Expr {
                expr: e,
                alias: Some(a),
                ..
            } => format!("{} AS {}", expr(e), quote(&a.text)),
            SelectItem::Expr {
                expr: e,
                alias: None,
                ..
            } => expr(e),
        })
        .collect();
    out.push_str(&items.join(", "));
    if let Some(from) = &s.from {
        out.push_str("\nFROM ");
        table_ref(from, out);
    }
    if let Some(w) = &s.selection {
        out.push_str("\nWHERE ");
        out.push_str(&expr(w));
    }
    if !s.group_by.is_empty() {
        out.push_str("\nGROUP BY ");
        out.push_str(&s.group_by.iter().map(expr).collect::<Vec<_>>().join(", "));
    }
    if let Some(h) = &s.having {
        out.push_str("\nHAVING ");
        out.push_str(&expr(h));
    }
}

fn alias(a: &Option<TableAlias>, out: &mut String) {
    if let Some(a) = a {
        out.push_str(" AS ");
        out.push_str(&quote(&a.name.text));
    }
}

fn table_ref(t: &TableRef, out: &mut String) {
    match t {
        TableRef::Named {
            name: n, alias: a, ..
        } => {
            out.push_str(&name(n));
            alias(a, out);
        }
        TableRef::Subquery {
            query, alias: a, ..
        } => {
            out.push('(');
            out.push_str(&render(query));
            out.push(')');
            alias(a, out);
        }
        TableRef::Function { call, alias: a, .. } => {
            out.push_str("TABLE(");
            out.push_str(&expr(call));
            out.push(')');
            alias(a, out);
        }
        TableRef::Join {
            left,
            right,
            kind,
            on,
            ..
        } => {
            table_ref(left, out);
            out.push_str(match kind {
                JoinKind::Inner => "\nINNER JOIN ",
                JoinKind::Left => "\nLEFT JOIN ",
                JoinKind::Right => "\nRIGHT JOIN ",
                JoinKind::Full => "\nFULL JOIN ",
                JoinKind::Cross => "\nCROSS JOIN ",
                JoinKind::Comma => ",\n",
            });
            table_ref(right, out);
            if let Some(on) = on {
                out.push_str(" ON ");
                out.push_str(&expr(on));
            }
        }
        TableRef::Nested { inner, .. } => table_ref(inner, out),
        TableRef::Unnest {
            exprs, alias: a, ..
        } => {
            out.push_str("UNNEST(");
            out.push_str(&exprs.iter().map(expr).collect::<Vec<_>>().join(", "));
            out.push(')');
            alias(a, out);
        }
        TableRef::MatchRecognize {
            input, alias: a, ..
        } => {
            table_ref(input, out);
            out.push_str(" MATCH_RECOGNIZE (...)");
            alias(a, out);
        }
    }
}
