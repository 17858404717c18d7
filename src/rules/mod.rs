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
pub mod suppression;
pub mod syntax;
pub mod table;

pub use crate::registry as meta;
pub use crate::registry::{FixAvailability, RuleExample, RuleMeta};

pub use crate::files::FileEntry;

use crate::config::{Level, Settings, SettingsByFile, Target};
use crate::diagnostics::{Diagnostic, Severity};
use crate::semantic::catalog::Origin;
use crate::semantic::problems::Found;
use crate::semantic::Model;
use crate::source::FileId;

/// What rules can read: settings, every file of the run, and the semantic model.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The run's settings. Settings that `overrides` change per file (target, rule levels) are
    /// read with [`Context::settings_for`] / [`Context::target`].
    pub settings: &'a Settings,
    /// Each file's settings (the run's with the matching `overrides` applied).
    pub by_file: &'a SettingsByFile<'a>,
    /// Every file, in run order.
    pub files: &'a [FileEntry],
    /// Catalog sessions and the problems they found.
    pub model: &'a Model,
    /// The suppression comments and what they matched: set only for the rules that run after
    /// suppressions were applied ([`Rule::after_suppressions`]).
    pub suppressions: Option<&'a suppression::Suppressions>,
}

impl Context<'_> {
    /// The file with this id.
    pub fn file(&self, id: FileId) -> &FileEntry {
        &self.files[id.0 as usize]
    }
    /// The settings of one file: the run's, with the `overrides` that match its path.
    pub fn settings_for(&self, file: FileId) -> &Settings {
        self.by_file.get(file.0 as usize)
    }
    /// The target of one file (`--target`, else the last matching override's, else the
    /// config's).
    pub fn target(&self, file: FileId) -> Target {
        self.settings_for(file).target
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
    /// Flink's parse error `Encountered "<token>" at line L, column C.` for the token at `at`
    /// (an empty span: end of input), with JavaCC's list of what it expected (empty: no list).
    pub fn flink_encountered(
        &self,
        file: FileId,
        statement: crate::source::Span,
        at: crate::source::Span,
        expected: &[&str],
    ) -> String {
        let text = self.file(file).source.slice(at);
        let image = if text.is_empty() {
            "<EOF>".to_string()
        } else {
            javacc_escape(text)
        };
        let mut out = format!(
            "Encountered \"{image}\" at {}.",
            self.flink_position(file, statement, at.start)
        );
        match expected {
            [] => {}
            [one] => out.push_str(&format!("\nWas expecting:\n    {one} ...")),
            many => {
                out.push_str("\nWas expecting one of:");
                for e in many {
                    out.push_str(&format!("\n    {e} ..."));
                }
            }
        }
        out
    }
    /// What Flink prints for a syntax error, when the parser knows it. Only the first error of
    /// a statement has one: Flink stops there.
    pub fn flink_syntax_message(
        &self,
        file: &FileEntry,
        error: &crate::syntax::SyntaxError,
    ) -> Option<String> {
        let flink = error.flink.as_ref()?;
        // The statement the error is in (or right after, at its `;`).
        let statements = &file.parsed.script.statements;
        let index = statements
            .iter()
            .rposition(|s| s.span.start <= error.span.start)?;
        let statement = &statements[index];
        let next = statements.get(index + 1).map_or(u32::MAX, |s| s.span.start);
        let first = file
            .parsed
            .errors
            .iter()
            .find(|e| e.span.start >= statement.span.start && e.span.start < next)?;
        if first.span != error.span || first.message != error.message {
            return None;
        }
        Some(match flink {
            crate::syntax::FlinkSyntax::Verbatim(text) => text.clone(),
            crate::syntax::FlinkSyntax::Encountered { at, expected } => {
                self.flink_encountered(file.id, statement.span, *at, expected)
            }
        })
    }
    /// `path:line:col` of a location, for messages.
    pub fn locate(&self, origin: Origin) -> String {
        let file = self.file(origin.file);
        let at = file.source.line_col(origin.span.start);
        format!("{}:{}:{}", file.source.display_path(), at.line, at.column)
    }
}

/// A token's text as JavaCC's `ParseException` prints it (quotes, backslashes, control and
/// non-ASCII characters escaped).
fn javacc_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Collects one rule's diagnostics at the rule's own severities; [`run`] then applies the
/// configured level of each file (`rules:` and `overrides`, `--select`, `--ignore`), which
/// replaces the default and sub-case severities or drops the finding (`off`).
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
    /// Whether the rule runs after suppressions were applied, reading
    /// [`Context::suppressions`] (SU001); its own findings are then suppressed only by
    /// `ignore-file`.
    fn after_suppressions(&self) -> bool {
        false
    }
    /// Whether the rule reads the semantic model ([`Context::model`], [`Context::problems`]).
    /// A rule that reads only the syntax trees and settings says `false`: it runs while the
    /// catalog pass builds the model (see [`run_early`]).
    fn reads_model(&self) -> bool {
        true
    }
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
    &columns::system_column_clash::SystemColumnClash,
    &columns::reserved_system_prefix::ReservedSystemPrefix,
    &columns::write_to_read_only_column::WriteToReadOnlyColumn,
    &columns::case_only_clash::CaseOnlyClash,
    &columns::connector_reserved_column::ConnectorReservedColumn,
    &columns::insert_column_mismatch::InsertColumnMismatch,
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
    &materialized::resume_mode_on_plain_create::ResumeModeOnPlainCreate,
    &materialized::invalid_start_mode::InvalidStartMode,
    &materialized::relative_start_mode::RelativeStartMode,
    &materialized::non_append_query_evolution::NonAppendQueryEvolution,
    &materialized::ignored_clause_change::IgnoredClauseChange,
    &materialized::invalid_freshness::InvalidFreshness,
    &materialized::not_a_materialized_table::NotAMaterializedTable,
    &materialized::unsupported_alter_form::UnsupportedAlterForm,
    &materialized::invalid_schema_change::InvalidSchemaChange,
    &table::primary_key_enforced::PrimaryKeyEnforced,
    &table::unique_constraint_unsupported::UniqueConstraintUnsupported,
    &table::primary_key_on_non_physical_column::PrimaryKeyOnNonPhysicalColumn,
    &table::invalid_watermark_column::InvalidWatermarkColumn,
    &table::invalid_partition_column::InvalidPartitionColumn,
    &table::duplicate_constraint::DuplicateConstraint,
    &suppression::unused_suppression::UnusedSuppression,
];

/// Runs every rule and returns the diagnostics for reported files, sorted. In order: the
/// rules (each skipped when it is off for every file), the findings inside statements that do
/// not parse dropped, the configured levels applied per file, the suppression comments
/// applied, then the rules that read what the suppressions matched (SU001).
pub fn run(ctx: &Context<'_>) -> Vec<Diagnostic> {
    run_after(ctx, run_early(ctx))
}

/// What does not need the semantic model: the findings of the rules that read only the
/// syntax trees, and the suppression comments. Computed while the catalog pass runs.
pub struct Early {
    /// Per rule of [`RULES`] that does not read the model: its index and its findings.
    findings: Vec<(usize, Vec<Diagnostic>)>,
    /// The suppression comments of the reported files.
    directives: Vec<suppression::Directive>,
}

/// The part of [`run`] that does not read `ctx.model` (which may still be empty).
pub fn run_early(ctx: &Context<'_>) -> Early {
    let findings = RULES
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.after_suppressions() && !r.reads_model())
        .map(|(i, rule)| {
            let mut out = Vec::new();
            run_rule(ctx, *rule, &mut out);
            (i, out)
        })
        .collect();
    Early {
        findings,
        directives: suppression::collect(ctx),
    }
}

/// The rest of [`run`], once the model is built: the rules that read it, then the findings
/// of all rules in [`RULES`] order through the same steps.
pub fn run_after(ctx: &Context<'_>, early: Early) -> Vec<Diagnostic> {
    // Most findings of the rules that read the model are its problems, one each.
    let mut out = Vec::with_capacity(
        ctx.model.found.len() + early.findings.iter().map(|(_, f)| f.len()).sum::<usize>(),
    );
    let mut findings = early.findings.into_iter().peekable();
    for (i, rule) in RULES.iter().enumerate() {
        if rule.after_suppressions() {
            continue;
        }
        match findings.next_if(|(at, _)| *at == i) {
            Some((_, found)) => out.extend(found),
            None => run_rule(ctx, *rule, &mut out),
        }
    }
    out.retain(|d| ctx.file(d.file).report);
    drop_after_syntax_errors(ctx, &mut out);
    apply_levels(ctx, &mut out);
    let suppressions = suppression::apply(early.directives, &mut out);
    let late_ctx = Context {
        suppressions: Some(&suppressions),
        ..*ctx
    };
    let mut late = Vec::new();
    for rule in RULES.iter().filter(|r| r.after_suppressions()) {
        run_rule(&late_ctx, *rule, &mut late);
    }
    late.retain(|d| ctx.file(d.file).report);
    apply_levels(ctx, &mut late);
    suppression::apply_file_wide(&suppressions, &mut late);
    out.extend(late);
    crate::diagnostics::sort(&mut out);
    out
}

/// Runs one rule unless it is off for every file.
fn run_rule(ctx: &Context<'_>, rule: &dyn Rule, out: &mut Vec<Diagnostic>) {
    let Some(meta) = meta::lookup(rule.code()) else {
        return;
    };
    let enabled = ctx
        .by_file
        .distinct()
        .any(|s| s.level(meta.code) != Some(Level::Off));
    if !enabled {
        return;
    }
    let mut reporter = Reporter { meta, out };
    rule.check(ctx, &mut reporter);
}

/// Applies each file's configured level: a configured severity replaces the rule's, `off`
/// drops the finding.
fn apply_levels(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    out.retain_mut(
        |d| match ctx.settings_for(d.file).severity(d.code, d.severity) {
            Some(severity) => {
                d.severity = severity;
                true
            }
            None => false,
        },
    );
}

/// One problem, one finding: Flink stops at a syntax error, so semantic findings inside a
/// statement that does not parse on the target are not reported beside the syntax error. A
/// syntax error is an error of an SY rule, or the report of a parse error by the rule its kind
/// belongs to (e.g. MT004 for START_MODE).
fn drop_after_syntax_errors(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let from_parser = |d: &Diagnostic| {
        d.code.starts_with("SY")
            || ctx
                .file(d.file)
                .parsed
                .errors
                .iter()
                .any(|e| e.span == d.span && syntax::rule_for(&e.kind) == d.code)
    };
    let rejected: Vec<(FileId, crate::source::Span)> = out
        .iter()
        .filter(|d| d.severity == Severity::Error && from_parser(d))
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
        from_parser(d)
            || !rejected
                .iter()
                .any(|(f, s)| *f == d.file && s.contains(d.span))
    });
}
