//! An INSERT whose columns do not fit its sink (Flink's `PreValidateReWriter` and
//! `DynamicSinkUtils`; verified in `fixtures/oracle/columns` 084-106).

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::insert::count_message;
use crate::semantic::problems::{InsertIssue, Found, Problem};

/// Reports an INSERT whose query and sink (or target column list) differ in column count, and
/// a target column list naming a column twice or a column the sink lacks.
pub struct InsertColumnMismatch;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InsertColumnMismatch;

impl Rule for InsertColumnMismatch {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InsertMismatch { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InsertMismatch {
            span,
            table,
            sink,
            issue,
        } = &found.problem
        else {
            return;
        };
        let t = &table.object;
        let (message, label, help, flink) = match issue {
            InsertIssue::AssignedTwice { column } => (
                format!("the column list of INSERT INTO `{t}` names `{column}` twice"),
                "named again".to_string(),
                "name each target column once".to_string(),
                format!("Target column '{column}' is assigned more than once"),
            ),
            InsertIssue::UnknownTarget { column, other_case } => (
                format!("`{t}` has no column `{column}`"),
                "no such column".to_string(),
                match other_case {
                    Some(o) => format!("column names are case-sensitive: did you mean `{o}`?"),
                    None => format!("name a column of `{t}`"),
                },
                format!("Unknown target column '{column}'"),
            ),
            InsertIssue::ListLength { list, query } => (
                format!(
                    "the column list of INSERT INTO `{t}` names {list} column{}, the query produces {query}",
                    plural(*list)
                ),
                format!("{query} column{}", plural(*query)),
                "make the column list and the select list the same length".to_string(),
                "Number of columns must match number of query columns".to_string(),
            ),
            InsertIssue::Count {
                query,
                sink,
                query_schema,
                sink_schema,
                read_only,
                static_partitions,
            } => {
                let mut help = if query > sink {
                    "remove the extra columns from the select list, or name the target columns: INSERT INTO t (a, b) SELECT ...".to_string()
                } else {
                    "select a value for every sink column, or name the target columns (the others get NULL): INSERT INTO t (a, b) SELECT ...".to_string()
                };
                if !read_only.is_empty() {
                    help.push_str(&format!(
                        "; the sink's computed and virtual metadata columns ({}) are not written",
                        read_only
                            .iter()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                if !static_partitions.is_empty() {
                    help.push_str(&format!(
                        "; PARTITION (...) already supplies {}",
                        static_partitions
                            .iter()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                (
                    format!(
                        "the query produces {query} column{}, `{t}` takes {sink}",
                        plural(*query)
                    ),
                    format!("{query} column{}", plural(*query)),
                    help,
                    count_message(table, query_schema.as_deref(), sink_schema.as_deref()),
                )
            }
        };
        let d = out
            .diagnostic(found.file, *span, message)
            .with_label(label)
            .with_help(help)
            .with_flink_message(flink)
            .with_related(sink.file, sink.span, format!("`{t}` is defined here"));
        out.report(d);
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
