//! A file that cannot be read or is not UTF-8: the operating system refused it, it is not a
//! regular file (a named pipe, a device, a symbolic-link loop), it is larger than
//! [`crate::files::SQL_LIMIT`], or it is not UTF-8 text.

use crate::rules::{Context, Reporter, Rule};
use crate::source::Span;

/// Reports files that could not be read.
pub struct UnreadableFile;

/// The rule, as the registry runs it.
pub(crate) const RULE: &dyn Rule = &UnreadableFile;

impl Rule for UnreadableFile {
    fn reads_model(&self) -> bool {
        false
    }
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>) {
        for file in ctx.files {
            if let Some(reason) = &file.load_error {
                let help = if reason.starts_with("not valid UTF-8") {
                    "save the file as UTF-8 text; the other files were checked"
                } else {
                    "flinklint reads regular files (not pipes or devices) of up to 100 MiB; the other files were checked"
                };
                let d = report
                    .diagnostic(
                        file.id,
                        Span::empty(0),
                        format!("cannot read this file: {reason}"),
                    )
                    .with_help(help);
                report.report(d);
            }
        }
    }
}
