//! Rules: one module per rule, grouped by family; one registry list.
//!
//! A rule reads the typed AST and the semantic model through a read-only [`Context`] and
//! reports [`Diagnostic`]s through a [`Reporter`]. Detection, message and fix are separate
//! steps inside each rule. Each rule's code, name, default severity and docs live in
//! `rules/<CODE>.yaml` ([`meta`]); a test fails when a YAML has no module, a module has no
//! YAML, or a rule has no fixtures.

pub mod catalog;
pub mod columns;
pub mod like;
pub mod materialized;
pub mod meta;
pub mod syntax;
pub mod table;

pub use meta::{FixAvailability, RuleExample, RuleMeta};

use crate::config::Settings;
use crate::diagnostics::{Diagnostic, Severity};
use crate::semantic::catalog::Origin;
use crate::semantic::problems::Found;
use crate::semantic::Model;
use crate::source::{FileId, SourceFile};
use crate::syntax::Parsed;

/// One file of the run: its text, its parse, and whether findings in it are reported.
#[derive(Debug)]
pub struct FileEntry {
    /// Index in the run's file list.
    pub id: FileId,
    /// The text (empty when unreadable).
    pub source: SourceFile,
    /// The parse of the text.
    pub parsed: Parsed,
    /// Why the file could not be read, if it could not (reported as SY000).
    pub load_error: Option<String>,
    /// Whether findings in this file are reported (context files are loaded but not reported).
    pub report: bool,
}

/// What rules can read: settings, every file of the run, and the semantic model.
pub struct Context<'a> {
    /// The run's settings.
    pub settings: &'a Settings,
    /// Every file, in run order.
    pub files: &'a [FileEntry],
    /// Catalog sessions and the problems they found.
    pub model: &'a Model,
}

impl Context<'_> {
    /// The file with this id.
    pub fn file(&self, id: FileId) -> &FileEntry {
        &self.files[id.0 as usize]
    }
    /// The semantic problems a rule reports.
    pub fn problems<'s>(&'s self, code: &'s str) -> impl Iterator<Item = &'s Found> + 's {
        self.model
            .found
            .iter()
            .filter(move |f| f.problem.code() == code)
    }
    /// A position as Flink's messages print it: "line L, column C", relative to the start of
    /// the statement (Flink parses each statement on its own).
    pub fn flink_position(
        &self,
        file: FileId,
        statement: crate::source::Span,
        offset: u32,
    ) -> String {
        let source = &self.file(file).source;
        let start = source.line_col(statement.start);
        let at = source.line_col(offset);
        let line = at.line - start.line + 1;
        let column = if at.line == start.line {
            at.column - start.column + 1
        } else {
            at.column
        };
        format!("line {line}, column {column}")
    }
    /// `path:line:col` of a location, for messages.
    pub fn locate(&self, origin: Origin) -> String {
        let file = self.file(origin.file);
        let at = file.source.line_col(origin.span.start);
        format!("{}:{}:{}", file.source.display_path(), at.line, at.column)
    }
}

/// Collects one rule's diagnostics, applying the configured severity.
pub struct Reporter<'a> {
    meta: &'static RuleMeta,
    out: &'a mut Vec<Diagnostic>,
}

impl<'a> Reporter<'a> {
    /// The rule's metadata.
    pub fn meta(&self) -> &'static RuleMeta {
        self.meta
    }
    /// A diagnostic at the rule's default severity.
    pub fn diagnostic(
        &self,
        file: FileId,
        span: crate::source::Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(self.meta, self.meta.severity, file, span, message)
    }
    /// A diagnostic of a documented sub-case with another severity.
    pub fn diagnostic_with(
        &self,
        severity: Severity,
        file: FileId,
        span: crate::source::Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        debug_assert!(
            severity == self.meta.severity || self.meta.other_severities.contains(&severity)
        );
        Diagnostic::new(self.meta, severity, file, span, message)
    }
    /// Reports a diagnostic.
    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.out.push(diagnostic);
    }
}

/// A lint rule.
pub trait Rule: Send + Sync {
    /// The rule's code; its metadata is `rules/<code>.yaml`.
    fn code(&self) -> &'static str;
    /// Reports the rule's findings over the whole run.
    fn check(&self, ctx: &Context<'_>, report: &mut Reporter<'_>);
}

/// Every rule, in code order. Adding a rule: a module, `rules/<CODE>.yaml`, fixtures, and one
/// line here.
pub static RULES: &[&dyn Rule] = &[
    &syntax::unreadable_file::UnreadableFile,
    &syntax::syntax_error::SyntaxErrorRule,
    &syntax::typographic_quote::TypographicQuote,
    &syntax::double_quoted_literal::DoubleQuotedLiteral,
    &syntax::reserved_word_identifier::ReservedWordIdentifier,
    &syntax::unsupported_by_target::UnsupportedByTarget,
    &catalog::table_already_exists::TableAlreadyExists,
    &catalog::unknown_table::UnknownTable,
    &columns::duplicate_column::DuplicateColumn,
    &columns::like_column_clash::LikeColumnClash,
    &columns::computed_column_clash::ComputedColumnClash,
    &columns::metadata_column_clash::MetadataColumnClash,
    &columns::alter_column_clash::AlterColumnClash,
    &like::duplicate_like_option::DuplicateLikeOption,
    &like::illegal_merging_strategy::IllegalMergingStrategy,
    &like::source_not_found::LikeSourceNotFound,
    &like::source_is_view::LikeSourceIsView,
    &like::option_key_conflict::OptionKeyConflict,
    &like::watermark_conflict::WatermarkConflict,
    &like::primary_key_conflict::PrimaryKeyConflict,
    &like::partition_conflict::PartitionConflict,
    &like::distribution_conflict::DistributionConflict,
    &like::ineffective_excluding::IneffectiveExcluding,
    &like::inherited_not_resolvable::InheritedNotResolvable,
    &like::like_overrides_option::LikeOverridesOption,
    &materialized::alter_query_without_start_mode::AlterQueryWithoutStartMode,
    &materialized::create_or_alter_without_start_mode::CreateOrAlterWithoutStartMode,
    &materialized::non_append_query_evolution::NonAppendQueryEvolution,
    &materialized::ignored_clause_change::IgnoredClauseChange,
    &materialized::not_a_materialized_table::NotAMaterializedTable,
    &materialized::unsupported_alter_form::UnsupportedAlterForm,
    &materialized::invalid_schema_change::InvalidSchemaChange,
    &table::primary_key_enforced::PrimaryKeyEnforced,
    &table::unique_constraint_unsupported::UniqueConstraintUnsupported,
    &table::primary_key_on_non_physical_column::PrimaryKeyOnNonPhysicalColumn,
    &table::invalid_watermark_column::InvalidWatermarkColumn,
    &table::invalid_partition_column::InvalidPartitionColumn,
    &table::duplicate_constraint::DuplicateConstraint,
];

/// Runs every rule and returns the diagnostics for reported files, sorted.
pub fn run(ctx: &Context<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for rule in RULES {
        let Some(meta) = meta::lookup(rule.code()) else {
            continue;
        };
        let mut reporter = Reporter {
            meta,
            out: &mut out,
        };
        rule.check(ctx, &mut reporter);
    }
    out.retain(|d| ctx.file(d.file).report);
    drop_after_syntax_errors(ctx, &mut out);
    crate::diagnostics::sort(&mut out);
    out
}

/// One problem, one finding: Flink stops at a syntax error, so semantic findings inside a
/// statement that does not parse on the target are not reported beside the SY error.
fn drop_after_syntax_errors(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let rejected: Vec<(FileId, crate::source::Span)> = out
        .iter()
        .filter(|d| d.code.starts_with("SY") && d.severity == Severity::Error)
        .filter_map(|d| {
            let file = ctx.file(d.file);
            file.parsed
                .script
                .statements
                .iter()
                .find(|s| s.span.contains(d.span))
                .map(|s| (d.file, s.span))
        })
        .collect();
    if rejected.is_empty() {
        return;
    }
    out.retain(|d| {
        d.code.starts_with("SY")
            || !rejected
                .iter()
                .any(|(f, s)| *f == d.file && s.contains(d.span))
    });
}
