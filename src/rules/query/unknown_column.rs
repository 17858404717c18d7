//! A column no relation in scope has.

use super::{did_you_mean, written_name};
use crate::diagnostics::{Applicability, Edit, Fix};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// Reports column references Flink's validator does not resolve, with an unsafe fix when
/// exactly one column in scope is close to the name.
pub struct UnknownColumn;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownColumn;

impl Rule for UnknownColumn {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::UnknownColumn { .. }))
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::UnknownColumn {
            span,
            name_span,
            name,
            table,
            case_match,
            similar,
            foreign_system,
        }) = &found.problem
        else {
            return;
        };
        // Calcite's `columnNotFound`, `columnNotFoundInTable` and their "did you mean" forms.
        let mut flink = match table {
            Some(t) => format!("Column '{name}' not found in table '{t}'"),
            None => format!("Column '{name}' not found in any table"),
        };
        if let Some(c) = case_match {
            flink.push_str(&format!("; did you mean '{c}'?"));
        }
        let message = if *foreign_system {
            format!(
                "`{name}` is a system column of Confluent Cloud; {} has none",
                ctx.target(found.file)
            )
        } else {
            match table {
                Some(t) => format!("column `{name}` not found in table `{t}`"),
                None => format!("column `{name}` not found in any table of the query"),
            }
        };
        let candidates: Vec<String> = match case_match {
            Some(c) => vec![c.clone()],
            None => similar.clone(),
        };
        let help = if *foreign_system {
            format!(
                "Apache Flink has no system columns: declare `{name}` in the table (e.g. `` `{name}` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL `` on Kafka), or check with --target confluent"
            )
        } else {
            did_you_mean(&candidates).unwrap_or_else(|| {
                "check the spelling (Flink compares names exactly, case included) and that a table of the FROM clause has the column".to_string()
            })
        };
        let mut d = out
            .diagnostic(found.file, *span, message)
            .with_label("no such column")
            .with_help(help)
            .with_flink_message(flink);
        if let [only] = &candidates[..] {
            d = d.with_fix(Fix {
                title: format!("Use `{only}`"),
                applicability: Applicability::Unsafe,
                edits: vec![Edit {
                    file: found.file,
                    span: *name_span,
                    replacement: written_name(only),
                }],
            });
        }
        out.report(d);
    }
}
