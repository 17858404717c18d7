//! A DECIMAL of precision 0, or with a scale above its precision.

use crate::rules::syntax::errors_of;
use crate::rules::{Context, Reporter, Rule};

/// Reports the DECIMAL types the parser found out of Flink's range (it records them as
/// [`crate::syntax::SyntaxErrorKind::InvalidDecimal`], Flink's message included).
pub struct InvalidDecimalType;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &InvalidDecimalType;

impl Rule for InvalidDecimalType {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, out: &mut Reporter<'_>) {
        let code = out.meta().code;
        for (file, error) in errors_of(ctx, code) {
            let mut d = out
                .diagnostic(file.id, error.span, error.message.clone())
                .with_label("not a DECIMAL Flink has")
                .with_help("DECIMAL(p, s): p counts all digits (1 to 38), s those after the point (0 to p)");
            if let Some(crate::syntax::FlinkSyntax::Verbatim(flink)) = &error.flink {
                d = d.with_flink_message(flink.clone());
            }
            out.report(d);
        }
    }
}
