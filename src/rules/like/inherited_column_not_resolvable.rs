//! An element of the derived table that refers to an inherited column Flink 2.3 cannot resolve in a
//! LIKE.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem, Unresolvable};

/// Reports derived watermarks (their column or their strategy) and computed columns over
/// inherited computed or metadata columns, derived primary keys over inherited nullable columns, and inherited computed
/// columns whose inputs the like options excluded (all verified rejected by Flink 2.3).
pub struct InheritedNotResolvable;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InheritedNotResolvable;

impl Rule for InheritedNotResolvable {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::InheritedNotResolvable { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::InheritedNotResolvable {
            span,
            name,
            what,
            inherited,
        } = &found.problem
        else {
            return;
        };
        let (message, help, flink) = match what {
            Unresolvable::ComputedReference { column } => (
                format!("computed column `{column}` refers to `{name}`, an inherited computed or metadata column, which Flink 2.3 cannot resolve in a LIKE"),
                format!("compute `{column}` from the parent's physical columns, or declare `{name}` in this table"),
                format!("Unknown identifier '{name}'"),
            ),
            Unresolvable::WatermarkColumn { available } => (
                format!("the watermark is declared on `{name}`, an inherited computed or metadata column, which Flink 2.3 cannot resolve in a LIKE"),
                format!("declare `{name}` in this table (and EXCLUDING GENERATED / METADATA for the parent's), or declare the watermark in the parent"),
                format!(
                    "The rowtime attribute field '{name}' is not defined in the table schema, at {}\nAvailable fields: [{}]",
                    ctx.flink_position(found.file, found.statement, span.start),
                    available.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", ")
                ),
            ),
            Unresolvable::WatermarkReference { column } => (
                format!("the watermark for `{column}` reads `{name}`, an inherited computed or metadata column, which Flink 2.3 cannot resolve in a LIKE"),
                "compute the strategy from the parent's physical columns or this table's own columns, or declare the watermark in the parent".to_string(),
                format!("Unknown identifier '{name}'"),
            ),
            Unresolvable::NullablePrimaryKey { constraint } => (
                format!("primary key column `{name}` is inherited and nullable: Flink makes only columns declared in this statement NOT NULL"),
                format!("declare `{name}` as NOT NULL in the parent"),
                format!("Invalid primary key '{constraint}'. Column '{name}' is nullable."),
            ),
            Unresolvable::ExcludedReference { column } => (
                format!("inherited computed column `{column}` refers to `{name}`, which the like options exclude"),
                format!("include `{name}` (e.g. INCLUDING METADATA) or exclude `{column}` too (EXCLUDING GENERATED)"),
                format!("Unknown identifier '{name}'"),
            ),
        };
        let mut d = out
            .diagnostic(found.file, *span, message)
            .with_help(help)
            .with_flink_message(flink);
        if let Some(origin) = inherited {
            let label = match what {
                Unresolvable::ExcludedReference { column } => {
                    format!("inherited computed column `{column}`")
                }
                _ => format!("`{name}` is inherited from here"),
            };
            d = d.with_related(origin.file, origin.span, label);
        }
        out.report(d.with_notes(&found.diff));
    }
}
