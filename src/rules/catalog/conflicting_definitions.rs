//! Scripts that create the same object differently, and a script that uses it.

use crate::rules::{Context, Reporter, Rule};
use crate::semantic::deploy::definition_text;
use crate::semantic::problems::{Found, Problem};

/// Reports a name that several scripts create with different definitions while another script
/// uses it (`catalog: auto`): which definition that script sees depends on the deployment.
pub struct ConflictingDefinitions;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &ConflictingDefinitions;

impl Rule for ConflictingDefinitions {
    fn consumes(&self, problem: &Problem) -> bool {
        matches!(problem, Problem::ConflictingDefinitions { .. })
    }
    fn report(&self, ctx: &Context<'_>, found: &Found, out: &mut Reporter<'_>) {
        let Problem::ConflictingDefinitions {
            span,
            name,
            definitions,
            uses,
        } = &found.problem
        else {
            return;
        };
        let kind = definitions
            .first()
            .map_or("table", |d| d.def.kind_name());
        let mut d = out
            .diagnostic(
                found.file,
                *span,
                format!(
                    "`{}` is created with {} different definitions by other scripts: which one this script sees depends on which script was deployed last",
                    name.object,
                    definitions.len()
                ),
            )
            .with_label("defined differently by other scripts")
            .with_help(format!(
                "keep one definition of the {kind} (one DDL file that every script relies on), or give the different {kind}s different names; flinklint checks nothing here that depends on its definition"
            ));
        for (k, definition) in definitions.iter().enumerate() {
            let origin = definition.name_origin;
            d = d.with_related(origin.file, origin.span, format!("definition {}", k + 1));
        }
        for used in uses.iter().skip(1) {
            d = d.with_related(used.file, used.span, "also used here");
        }
        // Where two definitions differ, as SHOW CREATE prints them.
        if let [first, rest @ ..] = definitions.as_slice() {
            let a = definition_text(first, ctx.files);
            if let Some((k, b)) = rest
                .iter()
                .enumerate()
                .map(|(k, o)| (k + 2, definition_text(o, ctx.files)))
                .find(|(_, b)| *b != a)
            {
                let (la, lb) = first_difference(&a, &b);
                let show = |l: Option<&str>| l.unwrap_or("(nothing)").to_string();
                d = d
                    .with_note(format!("definition 1 has:  {}", show(la)))
                    .with_note(format!("definition {k} has:  {}", show(lb)));
            }
        }
        out.report(d);
    }
}

/// A line of a SHOW CREATE text as it is compared and shown: trimmed, without the comma that
/// separates it from the next column (the last column has none).
fn line_of(line: &str) -> &str {
    let line = line.trim();
    line.strip_suffix(',').unwrap_or(line)
}

/// The first line that one definition has and the other lacks, from each side (`None`: the
/// side has no line the other lacks, such as a definition with one column less); when both
/// have the same lines in another order, the first line where they differ.
fn first_difference<'t>(a: &'t str, b: &'t str) -> (Option<&'t str>, Option<&'t str>) {
    let lines = |t: &'t str| t.lines().map(line_of).collect::<Vec<_>>();
    let (la, lb) = (lines(a), lines(b));
    // Definitions are short (one line per column): sorted copies make the lookups cheap.
    let sorted = |v: &Vec<&'t str>| {
        let mut s = v.clone();
        s.sort_unstable();
        s
    };
    let (sa, sb) = (sorted(&la), sorted(&lb));
    let only_a = la.iter().copied().find(|l| sb.binary_search(l).is_err());
    let only_b = lb.iter().copied().find(|l| sa.binary_search(l).is_err());
    if only_a.is_some() || only_b.is_some() {
        return (only_a, only_b);
    }
    la.iter()
        .map(|l| Some(*l))
        .chain(std::iter::repeat(None))
        .zip(lb.iter().map(|l| Some(*l)).chain(std::iter::repeat(None)))
        .take(la.len().max(lb.len()))
        .find(|(x, y)| x != y)
        .unwrap_or((None, None))
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn differences_show_whole_columns() {
        let a = "CREATE TABLE `t` (\n  `a` VARCHAR(2147483647)\n)\nWITH (\n  'connector' = 'datagen'\n)\n";
        let b = "CREATE TABLE `t` (\n  `a` VARCHAR(2147483647),\n  `b` INT\n)\nWITH (\n  'connector' = 'datagen'\n)\n";
        // An extra column: the other side has nothing, and no separator comma is shown.
        assert_eq!(first_difference(a, b), (None, Some("`b` INT")));
        assert_eq!(first_difference(b, a), (Some("`b` INT"), None));
        // A changed type.
        let c = b.replace("`b` INT", "`b` BIGINT");
        assert_eq!(first_difference(b, &c), (Some("`b` INT"), Some("`b` BIGINT")));
        // The same columns in another order.
        let d = "CREATE TABLE `t` (\n  `b` INT,\n  `a` VARCHAR(2147483647)\n)\nWITH (\n  'connector' = 'datagen'\n)\n";
        assert_eq!(
            first_difference(b, d),
            (Some("`a` VARCHAR(2147483647)"), Some("`b` INT"))
        );
    }
}
