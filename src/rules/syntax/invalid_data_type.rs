//! A data type Flink refuses: a DECIMAL of precision 0 or with a scale above its precision, a
//! ROW with two fields of one name.

use crate::rules::syntax::errors_of;
use crate::rules::{Context, Reporter, Rule};

/// Reports the types the parser found outside Flink's rules (it records them as
/// [`crate::syntax::SyntaxErrorKind::InvalidType`], Flink's message included).
pub struct InvalidDataType;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidDataType;

impl Rule for InvalidDataType {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        let code = out.meta().code;
        for (file, error) in errors_of(ctx, code) {
            let mut d = out
                .diagnostic(file.id, error.span, error.message.clone())
                .with_label("not a type Flink has");
            if let Some(help) = &error.help {
                d = d.with_help(help.clone());
            }
            if let Some(crate::syntax::FlinkSyntax::Verbatim(flink)) = &error.flink {
                d = d.with_flink_message(flink.clone());
            }
            out.report(d);
        }
    }
}
