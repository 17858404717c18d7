//! A column whose name or metadata key has the reserved system-column prefix but that does not
//! qualify as a system column (seed FLIP-348 draft: only `METADATA VIRTUAL` columns without an
//! alias are system columns).

use crate::diagnostics::Severity;
use crate::rules::{Context, Reporter, Rule};
use crate::semantic::problems::{Found, Problem};

/// Reports `$`-prefixed physical, computed, persisted metadata and aliased metadata columns
/// where a prefix is reserved (`--target flink-next`, or a configured prefix).
pub struct ReservedSystemPrefix;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ReservedSystemPrefix;

impl Rule for ReservedSystemPrefix {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::ReservedPrefix { .. })
    }
    fn report(&self, _ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::ReservedPrefix {
            span,
            name,
            kind,
            aliased_key,
            prefix,
        } = &found.problem
        else {
            return;
        };
        let d = match aliased_key {
            Some(key) => out
                .diagnostic_with(
                    Severity::Info,
                    found.file,
                    *span,
                    format!(
                        "`{name}` reads the system metadata key '{key}' through an alias: it is an ordinary metadata column, not a system column"
                    ),
                )
                .with_label("aliased metadata key")
                .with_help(format!(
                    "only `{key}` declared as `` `{key}` <type> METADATA VIRTUAL `` (no FROM) is a system column: read-only and hidden from SELECT *; `{name}` is returned by SELECT *"
                )),
            None => out
                .diagnostic(
                    found.file,
                    *span,
                    format!(
                        "`{name}` uses the reserved system-column prefix `{prefix}` but is a {} column, not a system column",
                        kind.as_str()
                    ),
                )
                .with_label("not a system column")
                .with_help(format!(
                    "system columns are `METADATA VIRTUAL` columns without FROM whose key starts with `{prefix}`; declare it that way, or give the column a name without the prefix"
                )),
        };
        out.report(d);
    }
}
