//! Problems the semantic stage finds, in Flink's terms: typed data, no wording, no rule codes.
//! Each problem is turned into a diagnostic (message, help, Flink's message, fix) by the one
//! rule that consumes it (`crate::rules`, a stage above this one). The details
//! some problems carry (why a watermark is invalid, how an ALTER clashes, ...) live in the
//! `details` submodule, the effective merging strategies of a LIKE in `strategies`; both are
//! re-exported here.

mod details;
mod strategies;

pub use details::*;
pub use strategies::Strategies;

use super::catalog::{CatalogObject, Origin};
use super::names::QualifiedName;
use crate::source::{FileId, Span};
use crate::syntax::ast::FeatureOption;
use std::sync::Arc;

/// A problem in one statement.
#[derive(Debug, Clone)]
pub enum Problem {
    /// A like feature named twice.
    DuplicateLikeOption {
        /// The second option.
        span: Span,
        /// The first one.
        first: Span,
        /// The feature.
        feature: FeatureOption,
    },
    /// OVERWRITING for ALL, CONSTRAINTS, DISTRIBUTION or PARTITIONS.
    IllegalMergingStrategy {
        /// The option.
        span: Span,
        /// The feature.
        feature: FeatureOption,
    },
    /// The LIKE source is not in the session's catalog.
    LikeSourceNotFound {
        /// The source name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// Similar names the session sees.
        similar: Vec<QualifiedName>,
    },
    /// The LIKE source is a view or materialized table.
    LikeSourceIsView {
        /// The source name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// Its definition.
        source: Arc<CatalogObject>,
    },
    /// A WITH option the parent has, while OPTIONS is INCLUDING.
    OptionKeyConflict {
        /// The derived option.
        span: Span,
        /// The key.
        key: String,
        /// The parent's value.
        parent_value: String,
        /// The parent's option.
        parent: Origin,
        /// The parent's name.
        parent_name: QualifiedName,
        /// Whether INCLUDING came from `INCLUDING ALL` (OPTIONS default is OVERWRITING).
        via_all: bool,
    },
    /// A derived watermark on a column the parent already has one on (not OVERWRITING).
    WatermarkConflict {
        /// The derived watermark.
        span: Span,
        /// The column.
        column: String,
        /// The parent's watermark.
        parent: Origin,
    },
    /// Two watermarks after the merge (derived and inherited on different columns).
    MultipleWatermarks {
        /// The derived watermark.
        span: Span,
        /// The inherited one.
        parent: Origin,
    },
    /// A derived primary key while the parent's is included.
    PrimaryKeyConflict {
        /// The derived key.
        span: Span,
        /// The parent's key.
        parent: Origin,
    },
    /// Derived partitions while the parent's are included.
    PartitionConflict {
        /// The derived PARTITIONED BY.
        span: Span,
        /// The parent's.
        parent: Origin,
    },
    /// A derived distribution while the parent's is included.
    DistributionConflict {
        /// The derived DISTRIBUTED BY.
        span: Span,
        /// The parent's.
        parent: Origin,
    },
    /// EXCLUDING PARTITIONS / DISTRIBUTION (or ALL) without a derived one: Flink still
    /// inherits the parent's.
    IneffectiveExcluding {
        /// The like option that excludes.
        span: Span,
        /// PARTITIONS or DISTRIBUTION.
        feature: FeatureOption,
        /// The parent's clause that is inherited anyway.
        parent: Origin,
        /// The inherited clause as Flink prints it, e.g. ``PARTITIONED BY (`dt`)``.
        inherited: String,
    },
    /// An inherited element the derived table cannot resolve.
    InheritedNotResolvable {
        /// The derived element.
        span: Span,
        /// The inherited column.
        name: String,
        /// What uses it.
        what: Unresolvable,
        /// Where the inherited column is.
        inherited: Option<Origin>,
    },
    /// OVERWRITING changes a parent option's value.
    OverridesOption {
        /// The derived option.
        span: Span,
        /// The key.
        key: String,
        /// The parent's value.
        old: String,
        /// The new value.
        new: String,
        /// The parent's option.
        parent: Origin,
    },
    /// The same column name twice in one column list.
    DuplicateColumn {
        /// The second definition.
        span: Span,
        /// The name.
        name: String,
        /// The first definition.
        first: Origin,
        /// Kind of the first definition.
        first_kind: Kind,
        /// Kind of the second definition.
        second_kind: Kind,
    },
    /// A view whose column list or select list repeats a name (Flink rejects the view:
    /// "A column with the same name `a` has been defined at line L, column C.").
    DuplicateViewColumn {
        /// The second occurrence.
        span: Span,
        /// The name.
        name: String,
        /// The first occurrence.
        first: Origin,
        /// Where Flink says the first one is defined: the select item it comes from.
        flink_at: u32,
    },
    /// A CTAS or materialized-table select list that repeats a name; Flink
    /// accepts and renames the repeat (Calcite's uniquify: `x` becomes `x0`).
    RenamedQueryColumn {
        /// The repeated select item.
        span: Span,
        /// The name as written.
        name: String,
        /// The name Flink stores.
        renamed: String,
        /// The first select item of that name.
        first: Origin,
        /// "CREATE TABLE ... AS" or "CREATE MATERIALIZED TABLE".
        statement: &'static str,
    },
    /// A CTAS or materialized-table column list naming a column twice, which
    /// Flink accepts, keeping one column of that name.
    CollapsedColumnList {
        /// The second declaration.
        span: Span,
        /// The name.
        name: String,
        /// The first declaration.
        first: Origin,
        /// An identifiers-only list of a materialized table (Flink then keeps only the listed
        /// columns, so the query's other columns are lost).
        identifiers: bool,
    },
    /// CREATE OR ALTER MATERIALIZED TABLE whose query appends a column named like a
    /// computed or virtual metadata column the table keeps (Flink: "Schema must not contain
    /// duplicate column names. Found duplicates: [x]").
    EvolvedDuplicate {
        /// The query's select item.
        span: Span,
        /// The name.
        name: String,
        /// The existing column.
        existing: Origin,
        /// Its kind.
        existing_kind: Kind,
    },
    /// Two columns of one table or view whose names differ only in letter case (Flink
    /// accepts; case-insensitive systems do not), or a RENAME that only changes the case.
    CaseOnlyClash {
        /// The later column (or the new name of a RENAME).
        span: Span,
        /// Its name.
        name: String,
        /// The other name.
        other: String,
        /// The other column, when it is a different column.
        other_origin: Option<Origin>,
        /// A RENAME changing only the case of one column.
        rename: bool,
    },
    /// A column named as its table's connector names its own fields (see
    /// [`super::connectors`]).
    ConnectorReservedColumn {
        /// The column.
        column: Origin,
        /// Its name.
        name: String,
        /// The table's name (object part).
        table: String,
        /// How the name is reserved: "has a name" or "starts with `_KEY_`, a prefix".
        how: String,
        /// The connector, as the data file names it.
        connector: &'static str,
        /// The table's `connector` option.
        connector_option: Origin,
        /// Why the connector reserves the name.
        why: &'static str,
        /// Where that is documented.
        source: &'static str,
    },
    /// A Kafka table whose key and value formats both produce its `key.fields`
    /// columns (no `key.fields-prefix`, no `'value.fields-include' = 'EXCEPT_KEY'`).
    KafkaKeyFieldsInValue {
        /// The `key.fields` option.
        fields: Origin,
        /// The table's name (object part).
        table: String,
        /// The key columns, with where they are declared.
        columns: Vec<(String, Origin)>,
        /// Where the overlap is documented.
        source: &'static str,
    },
    /// An INSERT writing a computed, virtual metadata or system column: named in its
    /// target column list, or supplied by name by a query with one column too many.
    WriteToReadOnly {
        /// The name in the column list, or the query's select item.
        span: Span,
        /// The column.
        column: String,
        /// Why it is read-only.
        kind: ReadOnly,
        /// Where the sink declares it (`None` for an implicit system column).
        declared: Option<Origin>,
        /// Named in the target column list (rather than supplied by the query).
        in_list: bool,
        /// The sink.
        table: QualifiedName,
        /// Flink's message.
        flink: String,
    },
    /// An INSERT whose columns do not fit its sink.
    InsertMismatch {
        /// The column list entry or the query.
        span: Span,
        /// The sink.
        table: QualifiedName,
        /// The sink's definition.
        sink: Origin,
        /// What does not fit.
        issue: InsertIssue,
    },
    /// An INSERT whose sink cannot take what it writes (column types, omitted NOT NULL
    /// columns, static partitions, a view as the sink, INSERT OVERWRITE).
    SinkSchema {
        /// The column, clause or query concerned.
        span: Span,
        /// The sink.
        table: QualifiedName,
        /// The sink's definition.
        sink: Origin,
        /// What Flink rejects.
        issue: super::insert::SinkIssue,
    },
    /// A reference to another platform's system column (Confluent's `$rowtime`) the
    /// target does not have.
    ForeignSystemColumn {
        /// The reference.
        span: Span,
        /// The column.
        name: String,
        /// In a computed column or watermark strategy of a CREATE TABLE (Flink: "Unknown
        /// identifier"), not in a query ("Column ... not found in any table").
        in_table: bool,
    },
    /// A declared column named like a system column every table has; the declared
    /// column takes precedence.
    SystemColumnShadowed {
        /// The declared column.
        span: Span,
        /// The name.
        name: String,
        /// The declared column's kind.
        kind: Kind,
        /// The system column's type.
        system_type: String,
    },
    /// A column whose name or metadata key has the reserved system-column prefix but
    /// that is not a `METADATA VIRTUAL` column without `FROM`, so it is no system column.
    ReservedPrefix {
        /// The column.
        span: Span,
        /// Its name.
        name: String,
        /// Its kind.
        kind: Kind,
        /// The metadata key written with `FROM`, when that key has the prefix (info).
        aliased_key: Option<String>,
        /// The prefix.
        prefix: String,
    },
    /// A derived column named like an inherited column of a LIKE merge.
    LikeColumnClash {
        /// The derived column.
        span: Span,
        /// The name.
        name: String,
        /// The derived column's kind.
        derived_kind: Kind,
        /// The inherited column's kind.
        inherited_kind: Kind,
        /// The inherited column.
        inherited: Origin,
        /// The parent.
        parent_name: QualifiedName,
    },
    /// A PRIMARY KEY without NOT ENFORCED.
    PrimaryKeyEnforced {
        /// The constraint.
        span: Span,
        /// The `ENFORCED` keyword, when written (`None`: nothing is written, and Flink takes
        /// the key as ENFORCED).
        enforced: Option<Span>,
    },
    /// A UNIQUE constraint (Flink supports only primary keys).
    UniqueConstraint {
        /// The constraint.
        span: Span,
    },
    /// `ALTER TABLE ... RESET ()` of a table the session has: no key.
    EmptyTableReset {
        /// The empty key list.
        span: Span,
    },
    /// A primary key on an unknown or non-physical column.
    InvalidPrimaryKey {
        /// The key.
        span: Span,
        /// The column.
        column: String,
        /// Why.
        issue: PrimaryKeyIssue,
    },
    /// An invalid watermark column.
    InvalidWatermark {
        /// The watermark.
        span: Span,
        /// The column.
        column: String,
        /// Why.
        issue: WatermarkIssue,
        /// The inherited watermark, when it came from the LIKE parent.
        inherited: Option<Origin>,
    },
    /// A name in a computed column's or the watermark's expression that is not a column the
    /// expression may read (Flink: "Unknown identifier 'x'"). A computed column reads the
    /// table's physical and metadata columns; the watermark strategy reads every column.
    UnknownTableExpressionName {
        /// The name (its first part).
        span: Span,
        /// The name as written.
        name: String,
        /// What reads it: `computed column `c``, or `watermark for `ts``.
        within: String,
        /// The name is a computed column of the table (a computed column cannot read one).
        computed: bool,
        /// Columns close to the name, best first.
        similar: Vec<String>,
    },
    /// A nested field of a column, in a computed column or watermark, that the column's type
    /// does not have.
    UnknownTableExpressionField {
        /// The field.
        span: Span,
        /// The field as written.
        field: String,
        /// What reads it: `computed column `c``, or `watermark for `ts``.
        within: String,
        /// The fields the ROW type has.
        fields: Vec<String>,
        /// The column's type as Calcite names it, when it is not a ROW (`INTEGER`).
        scalar: Option<String>,
    },
    /// A watermark strategy expression whose type is not TIMESTAMP(p) / TIMESTAMP_LTZ(p) with
    /// p <= 3, or whose type root differs from the rowtime column's.
    InvalidWatermarkExpression {
        /// The strategy expression.
        span: Span,
        /// The rowtime column.
        column: String,
        /// The expression's type as Flink prints it (`asSummaryString`).
        found: String,
        /// When the type is a rowtime type but not the rowtime column's: the column's type.
        field: Option<String>,
    },
    /// A declared distribution Flink cannot resolve: a bucket key that is not a physical
    /// column, or `INTO 0 BUCKETS`.
    InvalidDistribution {
        /// The key, or the clause for the bucket count.
        span: Span,
        /// The key as written; `None` for a bucket count of 0.
        key: Option<String>,
        /// The table's physical columns (Flink lists them).
        physical: Vec<String>,
    },
    /// An invalid partition column.
    InvalidPartition {
        /// The partition key.
        span: Span,
        /// The column.
        column: String,
        /// Why.
        issue: PartitionIssue,
    },
    /// Two primary keys in one definition.
    DuplicatePrimaryKey {
        /// The second key.
        span: Span,
        /// The first.
        first: Span,
    },
    /// `ALTER MATERIALIZED TABLE ... AS` without a start mode.
    AlterWithoutStartMode {
        /// From `ALTER` to the `AS` keyword.
        span: Span,
        /// The table.
        name: QualifiedName,
        /// Its definition before the statement (for the CREATE OR ALTER rewrite).
        object: Arc<CatalogObject>,
        /// A `SET 'materialized-table.default-start-mode'` in effect, if any.
        session_default: Option<SessionSetting>,
        /// The `AS` keyword.
        as_span: Span,
        /// The table name as written.
        name_span: Span,
        /// The new query.
        query_span: Span,
    },
    /// CREATE OR ALTER of an existing materialized table without START_MODE.
    CreateOrAlterWithoutStartMode {
        /// From `CREATE` to the table name.
        span: Span,
        /// A `SET 'materialized-table.default-start-mode'` in effect, if any.
        session_default: Option<SessionSetting>,
        /// Where a START_MODE clause goes (before FRESHNESS / REFRESH_MODE / AS).
        insert_at: u32,
        /// The definition it evolves.
        previous: Origin,
    },
    /// A query evolution that is not append-only.
    NonAppendEvolution {
        /// The new query.
        span: Span,
        /// What changed.
        issue: EvolutionIssue,
        /// The old columns, rendered.
        old_columns: Vec<String>,
        /// The new columns, rendered.
        new_columns: Vec<String>,
        /// The definition it evolves.
        previous: Origin,
        /// `CREATE OR ALTER` or `ALTER ... AS`.
        via_alter: bool,
    },
    /// A CREATE OR ALTER clause change Flink ignores, rejects or applies surprisingly.
    IgnoredClauseChange {
        /// The new clause (or the statement's name when a clause was omitted).
        span: Span,
        /// Which clause.
        clause: IgnoredClause,
        /// The old value, rendered.
        old: Option<String>,
        /// The new value, rendered.
        new: Option<String>,
        /// Where the old value was declared.
        previous: Option<Origin>,
    },
    /// An ALTER column operation that clashes with the table's columns.
    AlterColumnClash {
        /// The column (or clause) in the statement.
        span: Span,
        /// What clashes.
        issue: AlterClash,
        /// ALTER MATERIALIZED TABLE rather than ALTER TABLE.
        materialized: bool,
        /// The table, as resolved (for Flink's message).
        table: QualifiedName,
        /// The existing element involved.
        related: Option<Origin>,
    },
    /// A materialized-table schema (CREATE column list or ALTER ADD/MODIFY/DROP) Flink
    /// rejects.
    InvalidSchema {
        /// The element in the statement.
        span: Span,
        /// Why.
        issue: SchemaIssue,
        /// ALTER MATERIALIZED TABLE rather than CREATE.
        alter: bool,
        /// The table, as resolved.
        table: QualifiedName,
        /// The existing element involved.
        related: Option<Origin>,
    },
    /// A regular table's ALTER TABLE schema change Flink rejects (Flink's
    /// `AlterSchemaConverter`): a primary key, watermark or distribution it already has or
    /// lacks, a watermark on an unknown or non-timestamp column.
    TableSchemaChange {
        /// The element in the statement.
        span: Span,
        /// Why.
        issue: SchemaIssue,
        /// The table, as resolved.
        table: QualifiedName,
    },
    /// A materialized-table statement on a regular table (or the reverse).
    NotMaterialized {
        /// The name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// The statement, e.g. "ALTER MATERIALIZED TABLE ... AS".
        action: &'static str,
        /// The object found.
        existing: Arc<CatalogObject>,
        /// Whether Flink's verdict is known (error) or only expected from the SQL gateway.
        verified: bool,
    },
    /// A materialized-table statement on a name the session cannot see.
    UnknownMaterialized {
        /// The name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// The statement.
        action: &'static str,
        /// Similar names.
        similar: Vec<QualifiedName>,
    },
    /// CREATE of a name that already exists in the session.
    AlreadyExists {
        /// The name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// The existing object.
        existing: Arc<CatalogObject>,
        /// What the statement creates ("table", "view", "materialized table").
        creating: &'static str,
    },
    /// Scripts that create the same permanent object with different definitions, and other
    /// scripts that use it without creating it (`catalog: auto`): which definition a using
    /// script sees depends on which creating script was deployed last. Found once per name;
    /// the using scripts see the object as unknown in its details (nothing that depends on its
    /// definition is checked).
    ConflictingDefinitions {
        /// The name where the first using script uses it.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// Each creating script's definition, in run order.
        definitions: Vec<Arc<CatalogObject>>,
        /// The first use in each using script, in run order (the first one is at `span`).
        uses: Vec<Origin>,
    },
    /// Scripts that each use an object that the next one creates, in a cycle
    /// (`catalog: persistent`): no deployment order creates every object before its use.
    DeploymentCycle {
        /// The name where the first script of the cycle uses an object of the next one.
        span: Span,
        /// The steps of the cycle, starting with the script at `span`.
        steps: Vec<CycleStep>,
    },
    /// A name in a query that Flink's validator does not resolve, or a grouping or aggregate
    /// Flink rejects ([`super::validate`]).
    Names(super::validate::NameProblem),
    /// A streaming problem Flink's planner finds in a pipeline's plan ([`super::plan`]):
    /// updates into an insert-only sink, a window over a column that is not a time attribute.
    Streaming(super::plan::StreamProblem),
    /// What Flink's planner finds on a pipeline after its changelog modes are inferred (an
    /// upsert key that differs from the sink's primary key, `ON CONFLICT`, non-deterministic
    /// updates), and state that grows without bound ([`super::plan::checks`]).
    Pipeline(super::plan::PipelineProblem),
    /// ALTER TABLE of a temporary table, ALTER VIEW of a temporary view: Flink's catalog
    /// manager alters permanent ones only.
    AlterTemporary {
        /// The name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// Where the temporary table or view is created.
        origin: Origin,
        /// An ALTER VIEW.
        view: bool,
    },
    /// ALTER TABLE / DROP / INSERT on a name the session cannot see.
    UnknownTable {
        /// The name in the statement.
        span: Span,
        /// As resolved.
        name: QualifiedName,
        /// Similar names the session sees.
        similar: Vec<QualifiedName>,
        /// What the statement does ("ALTER TABLE", "DROP TABLE", "INSERT INTO").
        action: &'static str,
    },
    /// A table's connector or format options that its factory rejects
    /// ([`super::options::check`]). With `used`, the statement reads or writes the table and
    /// Flink rejects it there; without, nothing in the run uses the table: Flink accepts its
    /// CREATE, but no statement can read or write it.
    ConnectorOption {
        /// What is wrong.
        issue: super::options::OptionIssue,
        /// The table, as resolved.
        table: QualifiedName,
        /// The statement's use of the table, when one uses it.
        used: Option<TableUse>,
    },
    /// A statement reads a table whose connector can only be written, or writes one whose
    /// connector can only be read (`FactoryUtil#createDynamicTableSource` / `...Sink`).
    ConnectorDirection {
        /// The table's name in the statement.
        span: Span,
        /// The table, as resolved.
        table: QualifiedName,
        /// The connector.
        connector: compact_str::CompactString,
        /// Where the `connector` option is declared.
        connector_origin: Origin,
        /// Whether the statement writes the table (else it reads it).
        write: bool,
    },
    /// A problem of an expression or set operation in a query (functions, argument counts and
    /// types, casts, conditions, `UNNEST`, set operation columns): see
    /// [`crate::semantic::functions::check`].
    Expression {
        /// Where.
        span: Span,
        /// What.
        issue: crate::semantic::functions::check::ExprIssue,
        /// Flink's message, when its words are known.
        flink: Option<String>,
    },
}

/// Where a statement reads or writes a table.
#[derive(Debug, Clone, Copy)]
pub struct TableUse {
    /// The table's name in the statement.
    pub span: Span,
    /// Whether the statement writes the table (else it reads it).
    pub write: bool,
}

impl Problem {
    /// Whether Flink rejects the statement because of this problem (so it creates nothing).
    /// Warnings and infos are not rejections; a missing LIKE source is one in Flink, but the
    /// parent may live in a catalog flinklint does not see.
    pub fn rejects(&self) -> bool {
        !matches!(
            self,
            Problem::LikeSourceNotFound { .. }
                | Problem::IneffectiveExcluding { .. }
                | Problem::OverridesOption { .. }
                | Problem::UnknownTable { .. }
                | Problem::ConflictingDefinitions { .. }
                | Problem::DeploymentCycle { .. }
                | Problem::RenamedQueryColumn { .. }
                | Problem::CollapsedColumnList { .. }
                | Problem::CaseOnlyClash { .. }
                | Problem::ConnectorReservedColumn { .. }
                | Problem::KafkaKeyFieldsInValue { .. }
                | Problem::SystemColumnShadowed { .. }
                | Problem::ReservedPrefix { .. }
                | Problem::AlterWithoutStartMode { .. }
                | Problem::CreateOrAlterWithoutStartMode { .. }
                | Problem::UnknownMaterialized { .. }
                | Problem::ConnectorOption { used: None, .. }
                | Problem::Pipeline(super::plan::PipelineProblem::UnboundedState { .. })
                | Problem::IgnoredClauseChange {
                    clause: IgnoredClause::Freshness
                        | IgnoredClause::Comment
                        | IgnoredClause::PartitionedBy
                        | IgnoredClause::Watermark
                        | IgnoredClause::DistributionDropped
                        | IgnoredClause::OptionsDropped,
                    ..
                }
                | Problem::NotMaterialized {
                    verified: false,
                    ..
                }
        )
    }

    /// Whether the problem is in the LIKE clause's own options (a feature named twice, or
    /// OVERWRITING for a feature that cannot be overwritten): Flink validates the options on
    /// the SQL node (`SqlTableLike`), before it looks up the parent, so these are found
    /// without it.
    pub fn in_like_options(&self) -> bool {
        matches!(
            self,
            Problem::DuplicateLikeOption { .. } | Problem::IllegalMergingStrategy { .. }
        )
    }

    /// Whether the problem is in the form of a constraint (an ENFORCED primary key, a UNIQUE
    /// constraint, a second primary key): Flink's SQL-node validation (`SqlConstraintValidator`,
    /// `SqlCreateTable`) rejects it before any column is resolved, so it is found without the
    /// LIKE parent or the query's schema.
    pub fn in_constraint_form(&self) -> bool {
        matches!(
            self,
            Problem::PrimaryKeyEnforced { .. }
                | Problem::UniqueConstraint { .. }
                | Problem::DuplicatePrimaryKey { .. }
        )
    }

    /// Whether the problem is found in the statement's own clauses, without the catalog: in
    /// the LIKE options ([`Problem::in_like_options`]) or in a constraint's form
    /// ([`Problem::in_constraint_form`]). These stay meaningful when the LIKE parent is
    /// unknown.
    pub fn without_catalog(&self) -> bool {
        self.in_like_options() || self.in_constraint_form()
    }
}

/// One step of a [`Problem::DeploymentCycle`]: a script uses an object another script creates.
#[derive(Debug, Clone)]
pub struct CycleStep {
    /// The object.
    pub name: QualifiedName,
    /// Where the using script uses it.
    pub used: Origin,
    /// Where the next script of the cycle creates it.
    pub created: Origin,
}

/// A `SET 'key' = 'value'` in effect in a session, and where it was written.
#[derive(Debug, Clone)]
pub struct SessionSetting {
    /// The value as written.
    pub value: String,
    /// The SET statement.
    pub origin: Origin,
}

/// A problem with the statement it was found in.
#[derive(Debug, Clone)]
pub struct Found {
    /// The file.
    pub file: FileId,
    /// The statement.
    pub statement: Span,
    /// The problem.
    pub problem: Problem,
    /// Lines of an expanded-definition diff that explain it (LIKE problems).
    pub diff: Vec<String>,
}
