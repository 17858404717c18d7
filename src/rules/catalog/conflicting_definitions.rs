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
        // The first line where two definitions differ, as SHOW CREATE prints them.
        if let [first, rest @ ..] = definitions.as_slice() {
            let a = definition_text(first, ctx.files);
            if let Some((k, b)) = rest
                .iter()
                .enumerate()
                .map(|(k, o)| (k + 2, definition_text(o, ctx.files)))
                .find(|(_, b)| *b != a)
            {
                let (la, lb) = a
                    .lines()
                    .map(Some)
                    .chain(std::iter::repeat(None))
                    .zip(b.lines().map(Some).chain(std::iter::repeat(None)))
                    .take(a.lines().count().max(b.lines().count()))
                    .find(|(x, y)| x != y)
                    .unwrap_or((None, None));
                let show = |l: Option<&str>| l.map_or("(nothing)", str::trim).to_string();
                d = d
                    .with_note(format!("definition 1 has:  {}", show(la)))
                    .with_note(format!("definition {k} has:  {}", show(lb)));
            }
        }
        out.report(d);
    }
}
