//! Expanded definitions: what Flink 2.3's `SHOW CREATE TABLE` (and `SHOW CREATE MATERIALIZED
//! TABLE`) prints for a catalog object (flink-spec §3.7, §4.7; Flink's `ShowCreateUtil`).

use super::catalog::*;
use super::names::quote;
use super::render_expr;
use crate::syntax::ast::{DistributionKind, StartModeArg};

/// A string literal as SHOW CREATE prints it: single-quoted, quotes doubled.
pub fn string_literal(value: &str) -> String {
    string(value)
}

fn string(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// One column as SHOW CREATE prints it (`` `a` INT ``, `` `c` AS `a` * 2 ``, metadata with its key).
pub fn column(c: &Column) -> String {
    let mut out = quote(&c.name);
    match &c.kind {
        ColumnKind::Computed(expr) => {
            out.push_str(" AS ");
            out.push_str(&render_expr::render(expr));
        }
        ColumnKind::Physical => {
            out.push(' ');
            out.push_str(
                &c.data_type
                    .as_ref()
                    .map_or_else(|| "NULL".to_string(), |t| t.render()),
            );
        }
        ColumnKind::Metadata { key, is_virtual } => {
            out.push(' ');
            out.push_str(
                &c.data_type
                    .as_ref()
                    .map_or_else(|| "NULL".to_string(), |t| t.render()),
            );
            out.push_str(" METADATA");
            if let Some(k) = key {
                out.push_str(" FROM ");
                out.push_str(&string(k));
            }
            if *is_virtual {
                out.push_str(" VIRTUAL");
            }
        }
    }
    if let Some(comment) = &c.comment {
        out.push_str(" COMMENT ");
        out.push_str(&string(comment));
    }
    out
}

/// `` `a`, `b` ``.
pub fn key_list(columns: &[compact_str::CompactString]) -> String {
    columns
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `PARTITIONED BY (`a`, `b`)`.
pub fn partitions(p: &PartitionDef) -> String {
    format!("PARTITIONED BY ({})", key_list(&p.columns))
}

/// `DISTRIBUTED BY HASH(`k`) INTO 4 BUCKETS` and its other forms.
pub fn distribution(d: &DistributionDef) -> String {
    let mut out = String::from("DISTRIBUTED");
    if !d.columns.is_empty() {
        out.push_str(" BY ");
        match d.kind {
            Some(DistributionKind::Hash) => out.push_str("HASH"),
            Some(DistributionKind::Range) => out.push_str("RANGE"),
            None => {}
        }
        out.push('(');
        out.push_str(&key_list(&d.columns));
        out.push(')');
    }
    if let Some(n) = d.buckets {
        out.push_str(&format!(" INTO {n} BUCKETS"));
    }
    out
}

/// `WATERMARK FOR `ts` AS expr`.
pub fn watermark(w: &WatermarkDef) -> String {
    let column: Vec<String> = w.column.iter().map(|c| quote(c)).collect();
    format!(
        "WATERMARK FOR {} AS {}",
        column.join("."),
        render_expr::render(&w.expr)
    )
}

/// The column block, COMMENT, DISTRIBUTED, PARTITIONED BY and WITH of a table.
fn body(t: &TableDef, out: &mut String) {
    let mut elements: Vec<String> = t.columns.iter().map(column).collect();
    if let Some(w) = &t.watermark {
        elements.push(watermark(w));
    }
    if let Some(pk) = &t.primary_key {
        elements.push(format!(
            "CONSTRAINT {} PRIMARY KEY ({}) NOT ENFORCED",
            quote(&pk.name),
            key_list(&pk.columns)
        ));
    }
    // Flink prints the parentheses even without columns: ` (\n\n)`.
    out.push_str(" (\n");
    out.push_str(
        &elements
            .iter()
            .map(|e| format!("  {e}"))
            .collect::<Vec<_>>()
            .join(",\n"),
    );
    out.push_str("\n)");
    out.push('\n');
    if let Some(c) = t.comment.as_ref().filter(|c| !c.is_empty()) {
        out.push_str(&format!("COMMENT {}\n", string(c)));
    }
    if let Some(d) = &t.distribution {
        out.push_str(&distribution(d));
        out.push('\n');
    }
    if let Some(p) = t.partitions.as_ref().filter(|p| !p.columns.is_empty()) {
        out.push_str(&partitions(p));
        out.push('\n');
    }
    if !t.options.is_empty() {
        let mut options: Vec<&OptionDef> = t.options.iter().collect();
        options.sort_by(|a, b| a.key.cmp(&b.key));
        out.push_str("WITH (\n");
        let lines: Vec<String> = options
            .iter()
            .map(|o| format!("  {} = {}", string(&o.key), string(&o.value)))
            .collect();
        out.push_str(&lines.join(",\n"));
        out.push_str("\n)\n");
    }
}

/// The expanded definition of a table, as `SHOW CREATE TABLE` prints it (ends with a newline).
/// Materialized tables use [`materialized_table`].
pub fn table(object: &CatalogObject, t: &TableDef) -> String {
    let mut out = String::from("CREATE ");
    if object.temporary {
        out.push_str("TEMPORARY ");
    }
    out.push_str("TABLE ");
    out.push_str(&object.name.to_string());
    body(t, &mut out);
    out
}

/// The definition `SHOW CREATE MATERIALIZED TABLE` prints (Flink 2.3 layout). The query is
/// Flink's validated, fully qualified form when flinklint can print it
/// ([`MaterializedDef::expanded_query`]: one table or view, select-project-filter-aggregate);
/// beyond that it is the query as written, in Flink's style but unqualified (a known gap).
pub fn materialized_table(object: &CatalogObject, t: &TableDef, or_alter: bool) -> String {
    let mut out = String::from(if or_alter {
        "CREATE OR ALTER MATERIALIZED TABLE "
    } else {
        "CREATE MATERIALIZED TABLE "
    });
    out.push_str(&object.name.to_string());
    body(t, &mut out);
    if let Some(m) = &t.materialized {
        let start = match &m.start_mode {
            Some(sm) => {
                let mut s = sm.kind.as_str().to_string();
                if let Some(arg) = &sm.arg {
                    let e = match arg {
                        StartModeArg::Interval(e)
                        | StartModeArg::Timestamp(e)
                        | StartModeArg::Invalid(e) => e,
                    };
                    s.push('(');
                    s.push_str(&render_expr::render(e));
                    s.push(')');
                }
                s
            }
            None => "FROM_BEGINNING".to_string(),
        };
        out.push_str(&format!("START_MODE = {start}\n"));
        // Omitted: REFRESH_MODE follows the freshness threshold, FRESHNESS the mode's default.
        let mode = super::materialized::effective_refresh_mode(m);
        let freshness = m.freshness.as_ref().map_or_else(
            || super::materialized::default_freshness(mode).to_string(),
            render_expr::render,
        );
        out.push_str(&format!("FRESHNESS = {freshness}\n"));
        out.push_str(&format!("REFRESH_MODE = {}\n", mode.as_str()));
        out.push_str("AS ");
        match &m.expanded_query {
            Some(q) => out.push_str(q),
            None => out.push_str(&super::render_query::render(&m.query)),
        }
        out.push('\n');
    }
    out
}

/// The definition `SHOW CREATE VIEW` prints (Flink 2.3, `ShowCreateUtil`): the view's
/// columns, its comment and its query, validated and fully qualified when flinklint can print
/// it ([`ViewDef::expanded_query`]); beyond that the query as written, in Flink's style but
/// unqualified (a known gap). Without known columns the column list is left out.
pub fn view(object: &CatalogObject, v: &ViewDef) -> String {
    let mut out = String::from("CREATE ");
    if object.temporary {
        out.push_str("TEMPORARY ");
    }
    out.push_str("VIEW ");
    out.push_str(&object.name.to_string());
    match &v.columns {
        Some(columns) if !columns.is_empty() => {
            out.push_str(" (\n");
            let list: Vec<String> = columns.iter().map(|c| format!("  {}", quote(c))).collect();
            out.push_str(&list.join(",\n"));
            out.push_str("\n)\n");
        }
        _ => out.push('\n'),
    }
    if let Some(comment) = &v.comment {
        out.push_str("COMMENT ");
        out.push_str(&string(comment));
        out.push('\n');
    }
    out.push_str("AS ");
    match (&v.expanded_query, &v.query) {
        (Some(q), _) => out.push_str(q),
        (None, Some(q)) => out.push_str(&super::render_query::render(q)),
        (None, None) => {}
    }
    out.push('\n');
    out
}
