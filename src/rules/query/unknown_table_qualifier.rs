//! A qualifier that names no relation of the query.

use super::cep::{match_clauses, unknown_qualifier};
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};
use crate::semantic::validate::NameProblem;

/// A qualifier that names no relation of the query (found by the semantic stage), or no
/// pattern variable of a MATCH_RECOGNIZE's MEASURES and DEFINE (read from the syntax trees).
pub struct UnknownTableQualifier;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnknownTableQualifier;

impl Rule for UnknownTableQualifier {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::Names(NameProblem::UnknownQualifier { .. }))
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::Names(NameProblem::UnknownQualifier { span, name, case_match, star }) = &found.problem
        else {
            return;
        };
        // Calcite's `tableNameNotFound` (`unknownIdentifier` for `x.*`).
        let mut flink = if *star {
            format!("Unknown identifier '{name}'")
        } else {
            format!("Table '{name}' not found")
        };
        if let (Some(c), false) = (case_match, star) {
            flink.push_str(&format!("; did you mean '{c}'?"));
        }
        let help = match case_match {
            Some(c) => format!("did you mean `{c}`? Flink compares names exactly, case included"),
            None => "qualify the column with the alias of a table in the FROM clause (a table with an alias is known only by its alias)".to_string(),
        };
        let d = out
            .diagnostic(found.file, *span, format!("`{name}` is not a table or alias of the FROM clause"))
            .with_label("no such table or alias")
            .with_help(help)
            .with_flink_message(flink);
        out.report(d);
    }
    // MATCH_RECOGNIZE: Calcite's `MatchRecognizeScope` knows the pattern variables and the
    // input table; the semantic stage does not model it.
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        for file in ctx.files {
            for clause in match_clauses(&file.parsed.script) {
                let Some(unknown) = unknown_qualifier(&clause) else {
                    continue;
                };
                let name = &unknown.name.text;
                let mut flink = format!("Table '{name}' not found");
                if let Some(c) = unknown.case_match {
                    flink.push_str(&format!("; did you mean '{c}'?"));
                }
                let help = match unknown.similar_variable.or(unknown.case_match) {
                    Some(c) => format!("did you mean `{c}`? Flink compares names exactly, case included"),
                    None => "qualify the column with a pattern variable of PATTERN or DEFINE (`A.price`), or with the input table".to_string(),
                };
                let d = out
                    .diagnostic(
                        file.id,
                        unknown.name.span,
                        format!("`{name}` is not a pattern variable of the MATCH_RECOGNIZE, nor its input table"),
                    )
                    .with_label("no such pattern variable")
                    .with_help(help)
                    .with_flink_message(flink);
                out.report(d);
            }
        }
    }
}
