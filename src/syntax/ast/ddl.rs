//! DDL and DML nodes: tables, materialized tables, views, ALTERs, INSERT.

use super::{
    ColumnList, DataType, Expr, Ident, KeyList, ObjectName, PropertyList, Query, StringLit,
};
use crate::source::Span;
use serde::Serialize;
use std::sync::Arc;

/// `CREATE [OR REPLACE] [TEMPORARY] TABLE [IF NOT EXISTS] name [(elements)] [COMMENT]
/// [DISTRIBUTED ...] [PARTITIONED BY (...)] [WITH (...)] [LIKE src (...) | AS query]`
/// (also `REPLACE TABLE ... AS`).
#[derive(Debug, Clone, Serialize)]
pub struct CreateTable {
    /// `CREATE OR REPLACE` or `REPLACE` was written (RTAS).
    pub or_replace: bool,
    /// The statement starts with `REPLACE` (RTAS without CREATE).
    pub replace_only: bool,
    /// `TEMPORARY` was written.
    pub temporary: bool,
    /// `IF NOT EXISTS` was written.
    pub if_not_exists: bool,
    /// The table name (1-3 parts).
    pub name: ObjectName,
    /// The parenthesized element list, if written.
    pub elements: Option<TableElements>,
    /// Table `COMMENT`.
    pub comment: Option<StringLit>,
    /// `DISTRIBUTED BY ... / INTO n BUCKETS`.
    pub distribution: Option<Distribution>,
    /// `PARTITIONED BY (...)`.
    pub partitioned_by: Option<ColumnList>,
    /// `WITH (...)`.
    pub with: Option<PropertyList>,
    /// `LIKE source (options)`.
    pub like: Option<LikeClause>,
    /// `AS query` (CTAS / RTAS).
    pub query: Option<Arc<Query>>,
}

/// The parenthesized list of columns, constraints and watermarks of a table definition.
#[derive(Debug, Clone, Serialize)]
pub struct TableElements {
    /// Elements in written order.
    pub items: Vec<TableElement>,
    /// From `(` to `)`.
    pub span: Span,
}

impl TableElements {
    /// The column definitions, in order.
    pub fn columns(&self) -> impl Iterator<Item = &ColumnDef> {
        self.items.iter().filter_map(|e| match e {
            TableElement::Column(c) => Some(c),
            _ => None,
        })
    }
    /// Table-level constraints, in order.
    pub fn constraints(&self) -> impl Iterator<Item = &TableConstraint> {
        self.items.iter().filter_map(|e| match e {
            TableElement::Constraint(c) => Some(c),
            _ => None,
        })
    }
    /// Watermark clauses, in order.
    pub fn watermarks(&self) -> impl Iterator<Item = &Watermark> {
        self.items.iter().filter_map(|e| match e {
            TableElement::Watermark(w) => Some(w),
            _ => None,
        })
    }
}

/// One element of a table definition.
#[derive(Debug, Clone, Serialize)]
pub enum TableElement {
    /// A column.
    Column(ColumnDef),
    /// `[CONSTRAINT n] PRIMARY KEY (...) | UNIQUE (...)`.
    Constraint(TableConstraint),
    /// `WATERMARK FOR col AS expr`.
    Watermark(Watermark),
}

/// A column definition.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnDef {
    /// Enclosing ROW columns of a nested column in ALTER ... ADD/MODIFY (`row_col.f0`); empty
    /// (no allocation) for most columns, and 16 bytes in the definition rather than 24.
    pub parents: Box<[Ident]>,
    /// Column name.
    pub name: Ident,
    /// Physical, computed, metadata, or a bare name (CTAS column lists).
    pub kind: ColumnKind,
    /// Column-level `[CONSTRAINT n] PRIMARY KEY [NOT] ENFORCED` or `UNIQUE`.
    pub constraint: Option<Box<ColumnConstraint>>,
    /// Column `COMMENT` (boxed: most columns have none, and every element of a table's
    /// list is as large as the largest).
    pub comment: Option<Box<StringLit>>,
    /// `FIRST` / `AFTER col` (ALTER ... ADD/MODIFY only).
    pub position: Option<Box<ColumnPosition>>,
    /// The whole definition.
    pub span: Span,
}

/// The kind of a column (Flink: physical, computed, metadata).
#[derive(Debug, Clone, Serialize)]
pub enum ColumnKind {
    /// `name type`.
    Physical {
        /// Declared type.
        data_type: DataType,
    },
    /// `name AS expr`.
    Computed {
        /// The expression (shared with the catalog's columns, which keep it).
        expr: std::sync::Arc<Expr>,
    },
    /// `name type METADATA [FROM 'key'] [VIRTUAL]`.
    Metadata {
        /// Declared type.
        data_type: DataType,
        /// `FROM 'key'` (absent: the key is the column name; boxed, as rare).
        key: Option<Box<StringLit>>,
        /// Span of `VIRTUAL` if written: read-only, not part of the sink schema.
        virtual_span: Option<Span>,
    },
    /// A bare name in an identifiers-only list (CTAS/RTAS, materialized tables).
    NameOnly,
}

impl ColumnKind {
    /// `METADATA ... VIRTUAL`.
    pub fn is_virtual_metadata(&self) -> bool {
        matches!(
            self,
            ColumnKind::Metadata {
                virtual_span: Some(_),
                ..
            }
        )
    }
    /// The declared type, for physical and metadata columns.
    pub fn data_type(&self) -> Option<&DataType> {
        match self {
            ColumnKind::Physical { data_type } | ColumnKind::Metadata { data_type, .. } => {
                Some(data_type)
            }
            _ => None,
        }
    }
}

/// `FIRST` or `AFTER col` in ALTER ... ADD/MODIFY.
#[derive(Debug, Clone, Serialize)]
pub enum ColumnPosition {
    /// `FIRST`.
    First(Span),
    /// `AFTER col` (may be a nested path).
    After(ObjectName),
}

/// PRIMARY KEY or UNIQUE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ConstraintKind {
    /// `PRIMARY KEY`.
    PrimaryKey,
    /// `UNIQUE` (Flink rejects it).
    Unique,
}

/// Whether `[NOT] ENFORCED` was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Enforcement {
    /// Nothing written: Flink treats it as ENFORCED and rejects it.
    Unspecified,
    /// `ENFORCED`.
    Enforced,
    /// `NOT ENFORCED`.
    NotEnforced,
}

/// A constraint written on a column.
#[derive(Debug, Clone, Serialize)]
pub struct ColumnConstraint {
    /// `CONSTRAINT name`.
    pub name: Option<Ident>,
    /// PRIMARY KEY or UNIQUE.
    pub kind: ConstraintKind,
    /// `[NOT] ENFORCED`.
    pub enforcement: Enforcement,
    /// The words `ENFORCED` or `NOT ENFORCED`, when written.
    pub enforcement_span: Option<Span>,
    /// The whole constraint.
    pub span: Span,
}

/// A table-level constraint.
#[derive(Debug, Clone, Serialize)]
pub struct TableConstraint {
    /// `CONSTRAINT name`.
    pub name: Option<Ident>,
    /// PRIMARY KEY or UNIQUE.
    pub kind: ConstraintKind,
    /// The key columns.
    pub columns: ColumnList,
    /// `[NOT] ENFORCED`.
    pub enforcement: Enforcement,
    /// The words `ENFORCED` or `NOT ENFORCED`, when written.
    pub enforcement_span: Option<Span>,
    /// The whole constraint.
    pub span: Span,
}

/// `WATERMARK FOR col AS expr`.
#[derive(Debug, Clone, Serialize)]
pub struct Watermark {
    /// The rowtime column (may be a nested path).
    pub column: ObjectName,
    /// The watermark strategy expression (shared with the catalog's watermark, which keeps
    /// it).
    pub expr: std::sync::Arc<Expr>,
    /// The whole clause.
    pub span: Span,
}

/// HASH or RANGE in `DISTRIBUTED BY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DistributionKind {
    /// `HASH`.
    Hash,
    /// `RANGE`.
    Range,
}

/// `DISTRIBUTED BY [HASH|RANGE] (cols) [INTO n BUCKETS]` or `DISTRIBUTED INTO n BUCKETS`
/// (FLIP-376).
#[derive(Debug, Clone, Serialize)]
pub struct Distribution {
    /// HASH / RANGE, if written.
    pub kind: Option<DistributionKind>,
    /// The distribution keys, if `BY` was written.
    pub columns: Option<ColumnList>,
    /// `INTO n BUCKETS`.
    pub buckets: Option<u64>,
    /// The whole clause.
    pub span: Span,
}

/// A LIKE merging strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum MergingStrategy {
    /// `INCLUDING`.
    Including,
    /// `EXCLUDING`.
    Excluding,
    /// `OVERWRITING`.
    Overwriting,
}

impl MergingStrategy {
    /// Upper-case keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            MergingStrategy::Including => "INCLUDING",
            MergingStrategy::Excluding => "EXCLUDING",
            MergingStrategy::Overwriting => "OVERWRITING",
        }
    }
}

/// A LIKE feature option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum FeatureOption {
    /// `ALL`: sets every other feature.
    All,
    /// `CONSTRAINTS`: the primary key.
    Constraints,
    /// `DISTRIBUTION`: `DISTRIBUTED BY/INTO`.
    Distribution,
    /// `GENERATED`: computed columns.
    Generated,
    /// `METADATA`: metadata columns.
    Metadata,
    /// `OPTIONS`: WITH options.
    Options,
    /// `PARTITIONS`: PARTITIONED BY.
    Partitions,
    /// `WATERMARKS`: the watermark.
    Watermarks,
}

impl FeatureOption {
    /// Upper-case keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            FeatureOption::All => "ALL",
            FeatureOption::Constraints => "CONSTRAINTS",
            FeatureOption::Distribution => "DISTRIBUTION",
            FeatureOption::Generated => "GENERATED",
            FeatureOption::Metadata => "METADATA",
            FeatureOption::Options => "OPTIONS",
            FeatureOption::Partitions => "PARTITIONS",
            FeatureOption::Watermarks => "WATERMARKS",
        }
    }
}

/// One like option, e.g. `EXCLUDING OPTIONS`.
#[derive(Debug, Clone, Serialize)]
pub struct LikeOption {
    /// INCLUDING / EXCLUDING / OVERWRITING.
    pub strategy: MergingStrategy,
    /// The feature.
    pub feature: FeatureOption,
    /// Both words.
    pub span: Span,
}

/// `LIKE source [(options)]` (FLIP-110).
#[derive(Debug, Clone, Serialize)]
pub struct LikeClause {
    /// The source (parent) table.
    pub source: ObjectName,
    /// Like options in written order.
    pub options: Vec<LikeOption>,
    /// From `LIKE` to the end of the options.
    pub span: Span,
}

/// `CREATE [OR ALTER] MATERIALIZED TABLE` (FLIP-435, FLIP-546, FLIP-550, FLIP-557).
#[derive(Debug, Clone, Serialize)]
pub struct CreateMaterializedTable {
    /// Span of `OR ALTER`, if written (Flink 2.2+).
    pub or_alter: Option<Span>,
    /// Span of `OR REPLACE`, if written (no Flink version has it; SY005 reports it).
    pub or_replace: Option<Span>,
    /// Span of `TEMPORARY`, if written (no Flink version has it; SY005 reports it).
    pub temporary: Option<Span>,
    /// Span of `IF NOT EXISTS`, if written (no Flink version has it; SY005 reports it).
    pub if_not_exists: Option<Span>,
    /// The table name.
    pub name: ObjectName,
    /// Column list / constraints / watermark (Flink 2.3+; bare names earlier).
    pub elements: Option<TableElements>,
    /// Table `COMMENT`.
    pub comment: Option<StringLit>,
    /// `DISTRIBUTED ...` (Flink 2.2+).
    pub distribution: Option<Distribution>,
    /// `PARTITIONED BY (...)`.
    pub partitioned_by: Option<ColumnList>,
    /// `WITH (...)`.
    pub with: Option<PropertyList>,
    /// `START_MODE = ...` (Flink 2.3+).
    pub start_mode: Option<StartModeClause>,
    /// `FRESHNESS = INTERVAL ...`.
    pub freshness: Option<Freshness>,
    /// `REFRESH_MODE = FULL | CONTINUOUS`.
    pub refresh_mode: Option<RefreshModeClause>,
    /// Span of the `AS` keyword before the query (where a START_MODE fix may go before).
    pub as_span: Option<Span>,
    /// The defining query.
    pub query: Option<Arc<Query>>,
}

/// The six start modes of FLIP-557.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum StartModeKind {
    /// Reprocess all source history.
    FromBeginning,
    /// Start at the latest record, or now minus an interval.
    FromNow,
    /// Start at an absolute instant.
    FromTimestamp,
    /// Resume from the previous job's offsets, else from the beginning.
    ResumeOrFromBeginning,
    /// Resume, else from now.
    ResumeOrFromNow,
    /// Resume, else from a timestamp.
    ResumeOrFromTimestamp,
}

impl StartModeKind {
    /// The keyword, e.g. `FROM_BEGINNING`.
    pub fn as_str(self) -> &'static str {
        match self {
            StartModeKind::FromBeginning => "FROM_BEGINNING",
            StartModeKind::FromNow => "FROM_NOW",
            StartModeKind::FromTimestamp => "FROM_TIMESTAMP",
            StartModeKind::ResumeOrFromBeginning => "RESUME_OR_FROM_BEGINNING",
            StartModeKind::ResumeOrFromNow => "RESUME_OR_FROM_NOW",
            StartModeKind::ResumeOrFromTimestamp => "RESUME_OR_FROM_TIMESTAMP",
        }
    }
    /// Parses the keyword (case-insensitive).
    pub fn parse(s: &str) -> Option<StartModeKind> {
        Some(match s.to_ascii_uppercase().as_str() {
            "FROM_BEGINNING" => StartModeKind::FromBeginning,
            "FROM_NOW" => StartModeKind::FromNow,
            "FROM_TIMESTAMP" => StartModeKind::FromTimestamp,
            "RESUME_OR_FROM_BEGINNING" => StartModeKind::ResumeOrFromBeginning,
            "RESUME_OR_FROM_NOW" => StartModeKind::ResumeOrFromNow,
            "RESUME_OR_FROM_TIMESTAMP" => StartModeKind::ResumeOrFromTimestamp,
            _ => return None,
        })
    }
    /// RESUME_OR_* kinds.
    pub fn is_resume(self) -> bool {
        matches!(
            self,
            StartModeKind::ResumeOrFromBeginning
                | StartModeKind::ResumeOrFromNow
                | StartModeKind::ResumeOrFromTimestamp
        )
    }
}

/// The argument of a start mode.
#[derive(Debug, Clone, Serialize)]
pub enum StartModeArg {
    /// `(INTERVAL '1' HOUR)`.
    Interval(Expr),
    /// `(TIMESTAMP '...')` or `(TIMESTAMP WITH LOCAL TIME ZONE '...')`.
    Timestamp(Expr),
    /// Anything else in the parentheses (Flink rejects it; MT004 explains).
    Invalid(Expr),
}

/// `[SET] START_MODE = kind[(arg)]`.
#[derive(Debug, Clone, Serialize)]
pub struct StartModeClause {
    /// Span of a leading `SET` (the seed FLIP's ALTER form).
    pub set_keyword: Option<Span>,
    /// The mode.
    pub kind: StartModeKind,
    /// Where the mode keyword is.
    pub kind_span: Span,
    /// The argument in parentheses.
    pub arg: Option<StartModeArg>,
    /// The whole clause.
    pub span: Span,
}

/// `FRESHNESS = INTERVAL ...`.
#[derive(Debug, Clone, Serialize)]
pub struct Freshness {
    /// The value (an interval literal when valid).
    pub interval: Expr,
    /// The whole clause.
    pub span: Span,
}

/// FULL or CONTINUOUS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RefreshMode {
    /// `FULL`: periodic batch refresh.
    Full,
    /// `CONTINUOUS`: streaming refresh.
    Continuous,
}

impl RefreshMode {
    /// Upper-case keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            RefreshMode::Full => "FULL",
            RefreshMode::Continuous => "CONTINUOUS",
        }
    }
}

/// `REFRESH_MODE = ...`.
#[derive(Debug, Clone, Serialize)]
pub struct RefreshModeClause {
    /// The mode.
    pub mode: RefreshMode,
    /// The whole clause.
    pub span: Span,
}

/// `ALTER MATERIALIZED TABLE name action`.
#[derive(Debug, Clone, Serialize)]
pub struct AlterMaterializedTable {
    /// Span of `IF EXISTS`, if written (no Flink version has it; SY005 reports it).
    pub if_exists: Option<Span>,
    /// The table.
    pub name: ObjectName,
    /// What is changed.
    pub action: AlterMaterializedTableAction,
}

/// The forms of `ALTER MATERIALIZED TABLE`.
#[derive(Debug, Clone, Serialize)]
pub enum AlterMaterializedTableAction {
    /// `SUSPEND`.
    Suspend,
    /// `RESUME [WITH (...)]`.
    Resume(Option<PropertyList>),
    /// `REFRESH [PARTITION (...)]`.
    Refresh(Option<PartitionSpec>),
    /// `SET FRESHNESS = ...` (parsed; 2.3 rejects it).
    SetFreshness(Freshness),
    /// `SET REFRESH_MODE = ...` (parsed; 2.3 rejects it).
    SetRefreshMode(RefreshModeClause),
    /// `SET (...)` (parsed; 2.3 rejects it).
    SetOptions(PropertyList),
    /// `RESET (...)` (parsed; 2.3 rejects it).
    ResetOptions(KeyList),
    /// `SET START_MODE = ...` without a query (not Flink grammar; reported by rules).
    SetStartMode(StartModeClause),
    /// `RENAME TO name` (not in the 2.3 grammar; reported by rules).
    RenameTo(ObjectName),
    /// `RENAME col TO new_col` (not in the 2.3 grammar; reported by rules).
    RenameColumn {
        /// The column (may be nested).
        from: ObjectName,
        /// Its new name.
        to: ObjectName,
    },
    /// `[WITH (...)] [[SET] START_MODE = ...] AS query`; Flink 2.0+ accepts only `AS query`.
    AsQuery(Box<AlterAsQuery>),
    /// ADD / MODIFY / DROP of columns, constraints, watermark, distribution (2.3).
    Schema(SchemaChange),
}

/// The `... AS query` form of ALTER MATERIALIZED TABLE.
#[derive(Debug, Clone, Serialize)]
pub struct AlterAsQuery {
    /// `WITH (...)` before AS (seed FLIP only).
    pub with: Option<PropertyList>,
    /// `[SET] START_MODE = ...` before AS (seed FLIP only).
    pub start_mode: Option<StartModeClause>,
    /// The `AS` keyword.
    pub as_span: Span,
    /// The new query.
    pub query: Arc<Query>,
}

/// `ALTER TABLE [IF EXISTS] name action` (FLIP-273).
#[derive(Debug, Clone, Serialize)]
pub struct AlterTable {
    /// `IF EXISTS` was written.
    pub if_exists: bool,
    /// The table.
    pub name: ObjectName,
    /// What is changed.
    pub action: AlterTableAction,
}

/// The forms of `ALTER TABLE`.
#[derive(Debug, Clone, Serialize)]
pub enum AlterTableAction {
    /// `RENAME TO new_name`.
    RenameTo(ObjectName),
    /// `RENAME col TO new_col`.
    RenameColumn {
        /// The column (may be nested).
        from: ObjectName,
        /// Its new name (a nested path keeps its parents).
        to: ObjectName,
    },
    /// `SET (...)`.
    SetOptions(PropertyList),
    /// `RESET (...)`.
    ResetOptions(KeyList),
    /// `ADD [IF NOT EXISTS] PARTITION (...) [WITH (...)] ...`.
    AddPartitions(Vec<PartitionSpec>),
    /// `DROP [IF EXISTS] PARTITION (...), ...`.
    DropPartitions(Vec<PartitionSpec>),
    /// `[PARTITION (...)] COMPACT` (1.x managed tables).
    Compact,
    /// ADD / MODIFY / DROP of columns, constraints, watermark, distribution.
    Schema(SchemaChange),
}

/// ADD / MODIFY / DROP of schema parts, shared by ALTER TABLE and ALTER MATERIALIZED TABLE.
#[derive(Debug, Clone, Serialize)]
pub enum SchemaChange {
    /// `ADD item` or `ADD (item, ...)`.
    Add(Vec<TableElement>),
    /// `MODIFY item` or `MODIFY (item, ...)`.
    Modify(Vec<TableElement>),
    /// `ADD DISTRIBUTION ...`.
    AddDistribution(Distribution),
    /// `MODIFY DISTRIBUTION ...`.
    ModifyDistribution(Distribution),
    /// `DROP col` or `DROP (col, ...)`.
    DropColumns(Vec<ObjectName>),
    /// `DROP PRIMARY KEY`.
    DropPrimaryKey(Span),
    /// `DROP CONSTRAINT name`.
    DropConstraint(Ident),
    /// `DROP DISTRIBUTION`.
    DropDistribution(Span),
    /// `DROP WATERMARK`.
    DropWatermark(Span),
}

/// `PARTITION (k = v, ...)`.
#[derive(Debug, Clone, Serialize)]
pub struct PartitionSpec {
    /// The keys and their values.
    pub items: Vec<(Ident, Option<Expr>)>,
    /// From `PARTITION` to `)`.
    pub span: Span,
}

/// `CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)] [COMMENT] AS query`.
#[derive(Debug, Clone, Serialize)]
pub struct CreateView {
    /// `OR REPLACE` was written.
    pub or_replace: bool,
    /// `TEMPORARY` was written.
    pub temporary: bool,
    /// `IF NOT EXISTS` was written.
    pub if_not_exists: bool,
    /// The view name.
    pub name: ObjectName,
    /// Explicit column names.
    pub columns: Option<ColumnList>,
    /// `COMMENT`.
    pub comment: Option<StringLit>,
    /// The query.
    pub query: Option<Arc<Query>>,
}

/// `ALTER VIEW name (RENAME TO new | AS query)`.
#[derive(Debug, Clone, Serialize)]
pub struct AlterView {
    /// The view.
    pub name: ObjectName,
    /// New name, for RENAME TO.
    pub rename_to: Option<ObjectName>,
    /// New query, for AS.
    pub query: Option<Arc<Query>>,
}

/// `INSERT INTO | INSERT OVERWRITE | UPSERT INTO table [PARTITION (...)] [(cols)] query
/// [ON CONFLICT DO ...]`.
#[derive(Debug, Clone, Serialize)]
pub struct Insert {
    /// `INSERT OVERWRITE`.
    pub overwrite: bool,
    /// `UPSERT INTO` (parsed; Flink rejects it).
    pub upsert: bool,
    /// The sink table.
    pub table: ObjectName,
    /// Static partition.
    pub partition: Option<PartitionSpec>,
    /// Target column list.
    pub columns: Option<ColumnList>,
    /// The query producing the rows.
    pub query: Arc<Query>,
    /// `ON CONFLICT DO ERROR | NOTHING | DEDUPLICATE` (Flink 2.3, `InsertConflictStrategy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_conflict: Option<OnConflict>,
}

/// `ON CONFLICT DO ...` of an INSERT into an upsert sink (Flink 2.3's
/// `InsertConflictStrategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OnConflict {
    /// What to do on a conflict.
    pub behavior: ConflictBehavior,
    /// From `ON` to the behavior's keyword.
    pub span: Span,
}

/// The behaviors of `ON CONFLICT DO` (`InsertConflictStrategy.ConflictBehavior`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ConflictBehavior {
    /// `DO ERROR`: fail on a conflict.
    Error,
    /// `DO NOTHING`: keep the first record.
    Nothing,
    /// `DO DEDUPLICATE`: keep the latest record.
    Deduplicate,
}
