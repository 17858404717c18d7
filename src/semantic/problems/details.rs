//! The details some problems carry: column kinds, why a watermark, primary key or partition
//! key is invalid, how an ALTER clashes, what an INSERT gets wrong, which materialized-table
//! clause change Flink ignores.

/// Which column kind, for clash messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Physical column.
    Physical,
    /// Computed column.
    Computed,
    /// Metadata column.
    Metadata,
}

impl Kind {
    /// "physical", "computed" or "metadata".
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Physical => "physical",
            Kind::Computed => "computed",
            Kind::Metadata => "metadata",
        }
    }
}

/// What an inherited element a derived table cannot resolve is used by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolvable {
    /// A derived computed column refers to an inherited computed or metadata column.
    ComputedReference {
        /// The derived computed column.
        column: String,
    },
    /// A derived watermark is declared on an inherited computed or metadata column; the
    /// fields Flink lists as available follow.
    WatermarkColumn {
        /// Parent physical columns and derived columns.
        available: Vec<String>,
    },
    /// A derived watermark's strategy reads an inherited computed or metadata column.
    WatermarkReference {
        /// The watermark's rowtime column.
        column: String,
    },
    /// A derived primary key includes an inherited nullable column.
    NullablePrimaryKey {
        /// The constraint name.
        constraint: String,
    },
    /// An inherited computed column refers to a column the like options excluded.
    ExcludedReference {
        /// The inherited computed column.
        column: String,
    },
}

/// Why a watermark is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatermarkIssue {
    /// The rowtime column does not exist; the available columns follow.
    UnknownColumn {
        /// Columns the schema has.
        available: Vec<String>,
        /// Whether the watermark was inherited from the LIKE parent.
        inherited: bool,
    },
    /// The rowtime column is a processing-time attribute (`PROCTIME()`).
    ProcessingTime,
    /// A nested rowtime (`row_col.field`): a missing field is reported with the row type;
    /// an existing one Flink still rejects at resolution.
    Nested {
        /// The missing field and the composite type as Flink prints it, if a field is missing.
        missing: Option<(String, String)>,
        /// The table's columns (for the message about an existing field).
        available: Vec<String>,
    },
    /// The rowtime column has another type than TIMESTAMP(p) / TIMESTAMP_LTZ(p), p <= 3.
    WrongType {
        /// Flink's summary of the type, e.g. `STRING`.
        found: String,
    },
}

/// Why a primary key is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrimaryKeyIssue {
    /// The key column does not exist.
    UnknownColumn,
    /// The key column is computed or metadata.
    NotPhysical,
    /// The key column comes from a CTAS query (not typed in the column list) and is nullable:
    /// Flink does not make it NOT NULL ("Invalid primary key 'PK_id'. Column 'id' is nullable.").
    NullableQueryColumn {
        /// The constraint name.
        constraint: String,
    },
}

/// Why a partition key is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartitionIssue {
    /// Not a column of the (merged) table.
    UnknownColumn {
        /// Columns the table has.
        available: Vec<String>,
    },
    /// A computed or metadata column.
    NotPhysical {
        /// The physical columns.
        physical: Vec<String>,
    },
}

/// Why an ALTER's column operation clashes with the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlterClash {
    /// ADD of a column that exists.
    AddExisting {
        /// The column.
        column: String,
    },
    /// The same new column twice in one ADD.
    AddDuplicate {
        /// The column.
        column: String,
    },
    /// `AFTER col` of a column that does not exist.
    AfterUnknown {
        /// The referenced column.
        column: String,
    },
    /// RENAME to a name that exists (the column's own name included).
    RenameToExisting {
        /// The new name.
        column: String,
    },
    /// RENAME / DROP / MODIFY of a column that does not exist.
    Missing {
        /// The column.
        column: String,
        /// "RENAME", "DROP" or "MODIFY".
        action: &'static str,
    },
    /// The same column twice in one DROP.
    DropDuplicate {
        /// The column.
        column: String,
    },
    /// DROP / RENAME of a column something depends on.
    Referenced {
        /// The column.
        column: String,
        /// What uses it.
        by: Dependency,
    },
}

/// What depends on a column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dependency {
    /// A computed column's expression.
    Computed(String),
    /// The watermark expression.
    Watermark,
    /// PARTITIONED BY.
    PartitionKey,
    /// The primary key.
    PrimaryKey,
    /// The distribution's bucket keys.
    DistributionKey,
}

/// Why a primary key an ALTER TABLE declares is invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyReason {
    /// The column does not exist.
    Missing,
    /// The column is computed or metadata.
    NotPhysical,
    /// The column is listed twice.
    Duplicate,
}

/// Why Flink rejects a materialized table's schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaIssue {
    /// An identifier column list whose length differs from the query's.
    ColumnCount,
    /// An identifier column list naming a column the query does not produce.
    NotInSource {
        /// The column.
        column: String,
    },
    /// A typed physical column the query does not produce.
    TypedNotInQuery {
        /// The column.
        column: String,
    },
    /// A typed column whose type the query's type cannot be cast to implicitly.
    IncompatibleType {
        /// The column.
        column: String,
        /// 1-based position in the DDL column list.
        position: usize,
        /// The query's type.
        source: String,
        /// The declared type.
        target: String,
    },
    /// A primary key on a nullable column.
    NullablePrimaryKey {
        /// The constraint name.
        constraint: String,
        /// The column.
        column: String,
    },
    /// A watermark on a column the schema does not have (CREATE).
    WatermarkUnknown {
        /// The column.
        column: String,
        /// The schema's columns.
        available: Vec<String>,
        /// ALTER ... ADD WATERMARK (Flink's message differs).
        alter: bool,
    },
    /// A watermark on a column that is not a TIMESTAMP(p) / TIMESTAMP_LTZ(p), p <= 3.
    WatermarkType {
        /// The column's type.
        found: String,
    },
    /// Two watermarks in one ALTER.
    MultipleWatermarks,
    /// A partition key the query does not produce.
    PartitionUnknown {
        /// The column.
        column: String,
        /// The query's columns.
        available: Vec<String>,
    },
    /// A persisted column (ADD) the query does not produce.
    PersistedNotInQuery {
        /// The column.
        column: String,
        /// A persisted metadata column rather than a physical one.
        metadata: bool,
    },
    /// DROP of columns the query produces.
    UsedInQuery {
        /// The columns.
        columns: Vec<String>,
    },
    /// MODIFY of a persisted column to a type it cannot be widened to.
    TypeChange {
        /// The column.
        column: String,
        /// Its type.
        from: String,
        /// The new type.
        to: String,
    },
    /// ADD PRIMARY KEY when one exists.
    PrimaryKeyExists {
        /// The existing key's columns.
        columns: Vec<String>,
    },
    /// ADD WATERMARK when one exists.
    WatermarkExists {
        /// The existing watermark, rendered.
        existing: String,
    },
    /// MODIFY / DROP WATERMARK when there is none.
    NoWatermark {
        /// MODIFY rather than DROP.
        modify: bool,
    },
    /// DROP PRIMARY KEY (or MODIFY, of a regular table) when there is none.
    NoPrimaryKey {
        /// MODIFY rather than DROP.
        modify: bool,
    },
    /// DROP CONSTRAINT of an unknown name.
    NoConstraint {
        /// The name.
        name: String,
        /// The existing constraint, if any.
        available: Option<String>,
    },
    /// ADD DISTRIBUTION when one exists.
    DistributionExists {
        /// The existing distribution, rendered.
        existing: String,
    },
    /// A watermark on a nested field (`r.t`), in an ALTER TABLE.
    NestedWatermark,
    /// A primary key an ALTER TABLE declares on a column that is missing or not physical, or
    /// on a column twice.
    InvalidKey {
        /// The constraint's name (given, or `PK_` and the columns).
        constraint: String,
        /// The column.
        column: String,
        /// Why: the column is missing, not physical, or listed twice.
        reason: KeyReason,
    },
    /// MODIFY / DROP DISTRIBUTION when there is none.
    NoDistribution {
        /// MODIFY rather than DROP.
        modify: bool,
    },
    /// A computed column referencing an unknown column.
    UnknownIdentifier {
        /// The identifier.
        name: String,
    },
}

/// Why a column cannot be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadOnly {
    /// A computed column.
    Computed,
    /// A `METADATA ... VIRTUAL` column.
    VirtualMetadata,
    /// A system column (implicit, or declared with the reserved prefix).
    System,
}

impl ReadOnly {
    /// "computed", "virtual metadata" or "system".
    pub fn as_str(self) -> &'static str {
        match self {
            ReadOnly::Computed => "computed",
            ReadOnly::VirtualMetadata => "virtual metadata",
            ReadOnly::System => "system",
        }
    }
}

/// Where an INSERT's columns do not fit its sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InsertIssue {
    /// The target column list names a column twice.
    AssignedTwice {
        /// The column.
        column: String,
    },
    /// The target column list names a column the sink does not have.
    UnknownTarget {
        /// The column.
        column: String,
        /// A sink column spelled the same in another letter case.
        other_case: Option<String>,
    },
    /// The target column list and the query have different lengths.
    ListLength {
        /// Names in the list.
        list: usize,
        /// The query's columns.
        query: usize,
    },
    /// The query's columns and the sink's writable columns differ in number.
    Count {
        /// The query's columns (static partition values included).
        query: usize,
        /// The sink's writable columns.
        sink: usize,
        /// Flink's `Query schema`, when every type is known (`id: INT NOT NULL`).
        query_schema: Option<Vec<String>>,
        /// Flink's `Sink schema`, when every type is known.
        sink_schema: Option<Vec<String>>,
        /// The sink's computed and virtual metadata columns (not part of its arity).
        read_only: Vec<String>,
        /// Static partition columns (filled by `PARTITION (...)`, not by the query).
        static_partitions: Vec<String>,
    },
}

/// A clause of CREATE OR ALTER MATERIALIZED TABLE whose change Flink does not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoredClause {
    /// FRESHNESS changed: ignored.
    Freshness,
    /// COMMENT changed: ignored.
    Comment,
    /// PARTITIONED BY changed: ignored.
    PartitionedBy,
    /// A watermark added: ignored.
    Watermark,
    /// REFRESH_MODE changed: rejected.
    RefreshMode,
    /// DISTRIBUTED BY omitted: the distribution is removed.
    DistributionDropped,
    /// WITH omitted: every stored option is removed.
    OptionsDropped,
}

/// Why a query evolution is not append-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvolutionIssue {
    /// Fewer columns than before.
    Dropped {
        /// Columns before.
        old: usize,
        /// Columns now.
        new: usize,
    },
    /// A different column at a position (1-based).
    Mismatch {
        /// 1-based position.
        position: usize,
        /// The old column, as Flink prints it (`` `c` INT ``).
        old: String,
        /// The new column.
        new: String,
    },
}
