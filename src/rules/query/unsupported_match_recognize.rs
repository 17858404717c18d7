//! MATCH_RECOGNIZE features that Flink's translation to CEP does not support.

use super::cep::{clause_diagnostic, first_problem, match_clauses, CepProblem, Planning, Unsupported};
use crate::rules::{Context, Reporter, Rule};

/// Reports ALL ROWS PER MATCH, alternations, PERMUTE, exclusions, quantified groups, pattern
/// variables written twice, reluctant optionals, optional elements after greedy ones, bounds
/// CEP refuses, patterns that can match no row and PREV / NEXT with a physical offset: the
/// first that Flink's planner meets (`CommonPhysicalMatchRule`, `StreamExecMatch`). On a view
/// or a materialized table, whose query Flink stores without planning it, a warning.
pub struct UnsupportedMatchRecognize;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnsupportedMatchRecognize;

impl Rule for UnsupportedMatchRecognize {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        for file in ctx.files {
            for clause in match_clauses(&file.parsed.script) {
                if clause.planning == Planning::Unread {
                    continue;
                }
                let Some(CepProblem::Unsupported { span, what, flink }) =
                    first_problem(&clause)
                else {
                    continue;
                };
                let written = file.source.slice(span);
                let (message, label, help) = wording(what, written);
                let d = clause_diagnostic(out, &clause, file.id, span, message);
                let d = d
                    .with_label(label)
                    .with_help(help)
                    .with_flink_message(flink);
                out.report(d);
            }
        }
    }
}

/// The message, label and help of each feature; `written` is the source under the span.
fn wording(what: Unsupported, written: &str) -> (String, &'static str, &'static str) {
    let short = |s: &str| -> String {
        let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.chars().count() > 40 {
            let cut: String = flat.chars().take(37).collect();
            format!("{cut}...")
        } else {
            flat
        }
    };
    let w = short(written);
    match what {
        Unsupported::AllRows => (
            "ALL ROWS PER MATCH: Flink's MATCH_RECOGNIZE emits one row per match only".to_string(),
            "not supported",
            "write ONE ROW PER MATCH (the default) and compute what the match needs in MEASURES",
        ),
        Unsupported::Alternation => (
            format!("alternation `{w}` in the pattern: Flink's CEP does not support branching patterns"),
            "alternation",
            "write one MATCH_RECOGNIZE per branch and combine them with UNION ALL",
        ),
        Unsupported::Permute => (
            format!("`{w}` in the pattern: Flink's CEP does not support PERMUTE"),
            "PERMUTE",
            "write one MATCH_RECOGNIZE per order of the variables and combine them with UNION ALL",
        ),
        Unsupported::Exclusion => (
            format!("exclusion `{w}` in the pattern: Flink's CEP does not support `{{- -}}`"),
            "exclusion",
            "match the rows with a plain pattern variable and leave it out of MEASURES",
        ),
        Unsupported::GroupQuantifier => (
            format!("quantified group `{w}` in the pattern: Flink's CEP quantifies single pattern variables only"),
            "quantified group",
            "put the quantifier on a pattern variable, or write the group's repetitions out",
        ),
        Unsupported::DuplicateVariable => (
            format!(
                "pattern variable {} appears twice in the pattern: Flink's CEP needs each pattern variable once",
                // A quoted name is written with its backticks.
                if w.starts_with('`') { w.clone() } else { format!("`{w}`") }
            ),
            "second occurrence",
            "use another pattern variable, with its own DEFINE, for the second occurrence",
        ),
        Unsupported::ReluctantOptional => (
            format!("reluctant optional `{w}`: Flink's CEP does not support it"),
            "reluctant optional",
            "drop the second `?`: write the optional variable greedy (`B?`)",
        ),
        Unsupported::OptionalAfterGreedy => (
            format!("optional `{w}` right after a greedy quantifier: Flink's CEP cannot tell where the greedy element ends"),
            "optional after greedy",
            "make the quantifier before it reluctant (`A+?`), or this element required",
        ),
        Unsupported::Bounds => (
            format!("quantifier `{w}`: Flink's CEP needs a least of 1 or more (0 makes it optional) and a most not below the least"),
            "bounds",
            "write `{n,m}` with 0 <= n <= m and m >= 1 (`{0,3}` rather than `{,3}`)",
        ),
        Unsupported::EmptyMatches => (
            "every element of the pattern is optional, so a match may have no row: Flink does not support empty matches".to_string(),
            "can match no row",
            "make at least one pattern variable required (without `?`, `*` or `{0,...}`)",
        ),
        Unsupported::PhysicalOffset => (
            format!("`{w}` reads rows by their position in the partition: Flink does not support physical offsets"),
            "physical offset",
            "use the logical offsets LAST(X.col, n) and FIRST(X.col, n), which count the rows mapped to pattern variable X",
        ),
    }
}
