//! The streaming problems Flink's planner reports on a pipeline, their messages as Flink
//! words them, and the phase of the planner that finds each.

use crate::source::Span;

/// A streaming problem of a pipeline, as Flink's planner reports it.
#[derive(Debug, Clone)]
pub enum StreamProblem {
    /// A sink that accepts only inserts fed updates or deletes
    /// (`FlinkChangelogModeInferenceProgram`: "Table sink '...' doesn't support consuming
    /// update changes which is produced by node ...").
    UpdatesIntoInsertOnlySink {
        /// The clause of the node that produces them.
        span: Span,
        /// The sink as written (INSERT INTO's table, CTAS's name).
        sink_span: Span,
        /// The sink's full name, as Flink prints it (`cat.db.t`, no quotes).
        sink: String,
        /// The sink's connector.
        connector: String,
        /// `update`, `delete` or `update and delete`.
        changes: String,
        /// The producing node's name (`GroupAggregate`).
        node: &'static str,
        /// The node as Flink describes it (`GroupAggregate(groupBy=[id], select=[...])`).
        description: String,
        /// Whether the description is Flink's exact rendering.
        exact: bool,
    },
    /// A window table function over a column that is not a time attribute
    /// (`StreamPhysicalWindowTableFunctionRule`).
    WindowOnNonTimeAttribute {
        /// The column in the DESCRIPTOR.
        span: Span,
        /// The window function (`TUMBLE`).
        function: String,
        /// The column.
        column: String,
        /// Its type, as Flink prints it (`TIMESTAMP(3)`).
        type_text: String,
        /// Why it is not one: never declared one, or lost (through what).
        lost: Option<&'static str>,
        /// Which of Flink's checks rejects it.
        stage: WindowCheck,
    },
    /// An operator that consumes only inserts (an OVER aggregate, an interval join,
    /// MATCH_RECOGNIZE) fed updates or deletes (`FlinkChangelogModeInferenceProgram`:
    /// "StreamPhysicalOverAggregate doesn't support consuming update changes which is produced
    /// by node ...").
    UpdatesIntoInsertOnlyOperator {
        /// The clause of the node that produces them.
        span: Span,
        /// The consuming clause (the OVER call, the join, the MATCH_RECOGNIZE).
        consumer_span: Span,
        /// The consumer as Flink names it (`StreamPhysicalOverAggregate`, `Match Recognize`).
        requester: &'static str,
        /// `update`, `delete` or `update and delete`.
        changes: String,
        /// The producing node's name (`GroupAggregate`).
        node: &'static str,
        /// The node as Flink describes it.
        description: String,
    },
    /// An event-time or processing-time temporal join (`FOR SYSTEM_TIME AS OF`) whose versioned
    /// table misses what Flink requires (`TemporalJoinRewriteWithUniqueKeyRule`,
    /// `LogicalCorrelateToJoinFromTemporalTableRule`).
    TemporalJoinRequirement {
        /// The versioned table's reference.
        span: Span,
        /// The versioned table as written.
        table: String,
        /// What is missing.
        missing: TemporalMissing,
    },
    /// `FOR SYSTEM_TIME AS OF` a column of the probe side that is not a time attribute
    /// (`LogicalCorrelateToJoinFromTemporalTableRule`).
    TemporalJoinProbeNotTimeAttribute {
        /// The period expression.
        span: Span,
        /// The column.
        column: String,
    },
    /// A processing-time temporal join on a table that is not a lookup source
    /// (`StreamExecTemporalJoin`: "Processing-time temporal join is not supported yet.").
    ProcessingTimeTemporalJoin {
        /// The versioned table's reference.
        span: Span,
        /// The versioned table as written.
        table: String,
        /// Its connector.
        connector: String,
    },
    /// A bounded OVER window (`ROWS`/`RANGE` with a `n PRECEDING` lower bound) ordered by a
    /// column that is not a time attribute (`StreamExecOverAggregate`'s planning rule:
    /// "Non-time attribute sort is not supported for bounded OVER window.").
    OverNonTimeSort {
        /// The ORDER BY item.
        span: Span,
        /// The column or expression, as written.
        column: String,
    },
    /// Two or more rowtime attributes written into one sink (`StreamExecSink`: "The query
    /// contains more than one rowtime attribute column [...] for writing into table '...'.").
    MultipleRowtimeIntoSink {
        /// The query's select list (or the sink when not known).
        span: Span,
        /// The sink as written.
        sink_span: Span,
        /// The sink's full name (`cat.db.t`).
        sink: String,
        /// The rowtime columns, named as Flink's plan names them (`ts`, `ts0`).
        columns: Vec<String>,
    },
    /// A window aggregate over HOP whose size is not an integral multiple of its slide, or a
    /// CUMULATE whose max size is not one of its step (`SliceAssigners`: "HOP table function
    /// based aggregate requires size must be an integral multiple of slide, ...").
    WindowSizeNotMultiple {
        /// The size argument.
        span: Span,
        /// `HOP` or `CUMULATE`.
        function: &'static str,
        /// The size (HOP) or max size (CUMULATE), in milliseconds.
        size_ms: u64,
        /// The slide (HOP) or step (CUMULATE), in milliseconds.
        step_ms: u64,
    },
    /// An interval join, or an event-time temporal join, whose two rowtime attributes differ in
    /// type (`TIMESTAMP(3)` and `TIMESTAMP_LTZ(3)`): Flink's interval join and temporal join
    /// rules.
    RowtimeTypesDiffer {
        /// The join's condition (interval join) or the period (temporal join).
        span: Span,
        /// An event-time temporal join (else an interval join).
        temporal: bool,
        /// The left rowtime's type, as Flink prints it (`TIMESTAMP(3) *ROWTIME*`).
        left: String,
        /// The right (versioned) rowtime's type.
        right: String,
    },
    /// OVER aggregates of one SELECT over different windows (`StreamPhysicalOverAggregateRule`:
    /// "Over Agg: Unsupported use of OVER windows. ...").
    OverWindowsDiffer {
        /// The window that differs from the first.
        span: Span,
        /// The first window.
        first: Span,
    },
    /// An OVER window ordered descending ("The window can only be ordered in ASCENDING
    /// mode.").
    OverDescending {
        /// The ORDER BY item.
        span: Span,
    },
    /// An OVER window ordered by more than one key (`StreamExecOverAggregate`: "The window
    /// can only be ordered by a single time column.").
    OverOrderKeys {
        /// The second ORDER BY item.
        span: Span,
    },
    /// An OVER window whose frame does not end at the current row, or starts at it
    /// (`StreamExecOverAggregate`: "OVER RANGE FOLLOWING windows are not supported yet.").
    OverFollowing {
        /// The frame.
        span: Span,
    },
    /// An OVER window without ORDER BY (`StreamExecOverAggregate`: "The window can only be
    /// ordered by a single time column.").
    OverUnordered {
        /// The window.
        span: Span,
    },
    /// An OFFSET without FETCH or LIMIT (`StreamExecLimit`, `StreamExecSortLimit`: "FETCH is
    /// missed, which on streaming table is not supported currently.").
    OffsetWithoutFetch {
        /// The OFFSET's value.
        span: Span,
    },
    /// A window of a year-month interval (`WindowUtil`, `StreamLogicalWindowAggregateRule`:
    /// "Window aggregate only support SECOND, MINUTE, HOUR, DAY as the time unit. MONTH and
    /// YEAR time unit are not supported yet.").
    WindowUnitUnsupported {
        /// The interval.
        span: Span,
    },
    /// LEAD over a stream (`AggFunctionFactory`: "LEAD Function is not supported in stream
    /// mode.").
    LeadInStream {
        /// The call.
        span: Span,
    },
    /// A streaming ORDER BY (without LIMIT) whose first key is not an ascending time attribute
    /// (`StreamPhysicalTemporalSortRule`: "Sort on a non-time-attribute field is not
    /// supported."), or a MATCH_RECOGNIZE's ORDER BY whose first key is not one
    /// (`StreamExecMatch`, when the plan is translated: after changelog inference).
    SortNotOnTime {
        /// The first ORDER BY item.
        span: Span,
        /// The key, as written (empty for an expression).
        column: String,
        /// It is a time attribute, ordered descending.
        descending: bool,
        /// The ORDER BY of a MATCH_RECOGNIZE.
        match_recognize: bool,
    },
}

/// Which of Flink's checks rejects a window over a column that is not a time attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowCheck {
    /// A window table function over a TIMESTAMP or TIMESTAMP_LTZ column, when the query is
    /// planned (`StreamPhysicalWindowTableFunctionRule`).
    Planner,
    /// A window table function over a column of another type, when the query is validated
    /// (`SqlWindowTableFunction`'s operand check; `type_text` is Calcite's name of the type).
    Validator,
    /// A legacy group window (`GROUP BY TUMBLE(ts, ...)`, `HOP`, `SESSION`), when its
    /// aggregate is planned (`StreamLogicalWindowAggregateRule`).
    GroupWindow,
}

/// What the versioned table of a temporal join misses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemporalMissing {
    /// No equality between the two sides ("Currently the join key in Temporal Table Join can
    /// not be empty.").
    JoinKey,
    /// No primary key, or one the join's equalities do not cover.
    PrimaryKey,
    /// An event-time temporal join on a table without a rowtime (no WATERMARK).
    Rowtime,
    /// Written as a RIGHT JOIN (`SqlToRelConverter`: "Unknown join type RIGHT").
    RightJoin,
    /// Written as a FULL JOIN ("Unknown join type FULL").
    FullJoin,
}

/// When Flink's planner finds a problem: a problem of an earlier phase is reported even when
/// one of a later phase sits lower in the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// Validation (a window table function's operand types).
    Validate,
    /// The query's conversion into relational algebra (a temporal join's join type).
    Convert,
    /// Logical rewrites (temporal joins, legacy group windows).
    Rewrite,
    /// Physical rules (window table functions, OVER).
    Physical,
    /// Changelog mode inference.
    Changelog,
    /// Translation into execution nodes (sinks' rowtime).
    Exec,
}

impl StreamProblem {
    /// Flink's message.
    pub fn flink_message(&self) -> String {
        match self {
            StreamProblem::UpdatesIntoInsertOnlySink {
                sink,
                changes,
                description,
                ..
            } => format!(
                "Table sink '{sink}' doesn't support consuming {changes} changes which is produced by node {description}"
            ),
            StreamProblem::WindowOnNonTimeAttribute {
                type_text,
                stage,
                function,
                ..
            } => match stage {
                WindowCheck::Planner => format!(
                    "The window function requires the timecol is a time attribute type, but is {type_text}."
                ),
                WindowCheck::Validator => {
                    let signature = match function.as_str() {
                        "TUMBLE" => "TUMBLE(TABLE table_name, DESCRIPTOR(timecol), datetime interval[, datetime interval])",
                        "HOP" => "HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])",
                        "CUMULATE" => "CUMULATE(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])",
                        _ => "SESSION(TABLE table_name [PARTITION BY (keycols, ...)], DESCRIPTOR(timecol), datetime interval)",
                    };
                    format!("The window function {signature} requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is {type_text}.")
                }
                WindowCheck::GroupWindow => format!(
                    "Window aggregate can only be defined over a time attribute column, but {type_text} encountered."
                ),
            },
            StreamProblem::UpdatesIntoInsertOnlyOperator {
                requester,
                changes,
                description,
                ..
            } => format!(
                "{requester} doesn't support consuming {changes} changes which is produced by node {description}"
            ),
            StreamProblem::TemporalJoinRequirement { missing, .. } => match missing {
                TemporalMissing::JoinKey => {
                    "Currently the join key in Temporal Table Join can not be empty.".to_string()
                }
                TemporalMissing::PrimaryKey => "Temporal Table Join requires primary key in versioned table, but no primary key can be found. The physical plan is:".to_string(),
                TemporalMissing::Rowtime => "Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found.".to_string(),
                TemporalMissing::RightJoin => "Unknown join type RIGHT".to_string(),
                TemporalMissing::FullJoin => "Unknown join type FULL".to_string(),
            },
            StreamProblem::TemporalJoinProbeNotTimeAttribute { .. } => "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field".to_string(),
            StreamProblem::ProcessingTimeTemporalJoin { .. } => {
                "Processing-time temporal join is not supported yet.".to_string()
            }
            StreamProblem::OverNonTimeSort { .. } => {
                "Non-time attribute sort is not supported for bounded OVER window.".to_string()
            }
            StreamProblem::WindowSizeNotMultiple {
                function,
                size_ms,
                step_ms,
                ..
            } => match *function {
                "CUMULATE" => format!(
                    "CUMULATE table function based aggregate requires maxSize must be an integral multiple of step, but got maxSize {size_ms} ms and step {step_ms} ms."
                ),
                _ => format!(
                    "HOP table function based aggregate requires size must be an integral multiple of slide, but got size {size_ms} ms and slide {step_ms} ms"
                ),
            },
            StreamProblem::RowtimeTypesDiffer {
                temporal,
                left,
                right,
                ..
            } => {
                if *temporal {
                    format!("Event-Time Temporal Table Join requires same rowtime type in left table and versioned table, but the rowtime types are {left} and {right}.")
                } else {
                    format!("Interval join with rowtime attribute requires same rowtime types, but the types are {left} and {right}.")
                }
            }
            StreamProblem::OverWindowsDiffer { .. } => "Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window. please re-check the over window statement.".to_string(),
            StreamProblem::OverDescending { .. } => {
                "The window can only be ordered in ASCENDING mode.".to_string()
            }
            StreamProblem::OverOrderKeys { .. } => {
                "The window can only be ordered by a single time column.".to_string()
            }
            StreamProblem::OverUnordered { .. } => {
                "The window can only be ordered by a single time column.".to_string()
            }
            StreamProblem::OffsetWithoutFetch { .. } => {
                "FETCH is missed, which on streaming table is not supported currently.".to_string()
            }
            StreamProblem::WindowUnitUnsupported { .. } => "Window aggregate only support SECOND, MINUTE, HOUR, DAY as the time unit. MONTH and YEAR time unit are not supported yet.".to_string(),
            StreamProblem::LeadInStream { .. } => {
                "LEAD Function is not supported in stream mode.".to_string()
            }
            StreamProblem::OverFollowing { .. } => {
                "OVER RANGE FOLLOWING windows are not supported yet.".to_string()
            }
            StreamProblem::SortNotOnTime {
                descending,
                match_recognize,
                ..
            } => match (*match_recognize, *descending) {
                (false, _) => "Sort on a non-time-attribute field is not supported.".to_string(),
                (true, false) => "You must specify either rowtime or proctime for order by as the first one.".to_string(),
                (true, true) => "Primary sort order of a streaming table must be ascending on time.".to_string(),
            },
            StreamProblem::MultipleRowtimeIntoSink { sink, columns, .. } => format!(
                "The query contains more than one rowtime attribute column [{}] for writing into table '{sink}'.",
                columns.join(", ")
            ),
        }
    }
    /// The phase of Flink's planner that finds it.
    pub fn phase(&self) -> Phase {
        match self {
            // `StreamExecMatch` checks the ordering when it is translated, after changelog
            // inference (an updating input is reported first).
            StreamProblem::SortNotOnTime {
                match_recognize: true,
                ..
            } => Phase::Exec,
            StreamProblem::TemporalJoinRequirement {
                missing: TemporalMissing::RightJoin | TemporalMissing::FullJoin,
                ..
            } => Phase::Convert,
            StreamProblem::WindowOnNonTimeAttribute {
                stage: WindowCheck::Validator,
                ..
            } => Phase::Validate,
            StreamProblem::TemporalJoinRequirement { .. }
            | StreamProblem::TemporalJoinProbeNotTimeAttribute { .. }
            | StreamProblem::WindowOnNonTimeAttribute {
                stage: WindowCheck::GroupWindow,
                ..
            } => Phase::Rewrite,
            StreamProblem::WindowOnNonTimeAttribute { .. }
            | StreamProblem::OverNonTimeSort { .. }
            | StreamProblem::RowtimeTypesDiffer { .. }
            | StreamProblem::OverWindowsDiffer { .. }
            | StreamProblem::SortNotOnTime { .. } => Phase::Physical,
            // `StreamExecOverAggregate` checks its window when it is translated, after
            // changelog inference (an updating input is reported first).
            StreamProblem::OverDescending { .. }
            | StreamProblem::OverOrderKeys { .. }
            | StreamProblem::OverFollowing { .. }
            | StreamProblem::OverUnordered { .. }
            | StreamProblem::OffsetWithoutFetch { .. } => Phase::Exec,
            // LEAD is refused before the input's changelog is inferred.
            StreamProblem::WindowUnitUnsupported { .. } | StreamProblem::LeadInStream { .. } => {
                Phase::Physical
            }
            StreamProblem::WindowSizeNotMultiple { .. } => Phase::Exec,
            StreamProblem::UpdatesIntoInsertOnlySink { .. }
            | StreamProblem::UpdatesIntoInsertOnlyOperator { .. } => Phase::Changelog,
            StreamProblem::ProcessingTimeTemporalJoin { .. }
            | StreamProblem::MultipleRowtimeIntoSink { .. } => Phase::Exec,
        }
    }
    /// The problem's primary span.
    pub fn span(&self) -> Span {
        match self {
            StreamProblem::UpdatesIntoInsertOnlySink { span, .. }
            | StreamProblem::WindowOnNonTimeAttribute { span, .. }
            | StreamProblem::UpdatesIntoInsertOnlyOperator { span, .. }
            | StreamProblem::TemporalJoinRequirement { span, .. }
            | StreamProblem::TemporalJoinProbeNotTimeAttribute { span, .. }
            | StreamProblem::ProcessingTimeTemporalJoin { span, .. }
            | StreamProblem::OverNonTimeSort { span, .. }
            | StreamProblem::MultipleRowtimeIntoSink { span, .. }
            | StreamProblem::WindowSizeNotMultiple { span, .. }
            | StreamProblem::RowtimeTypesDiffer { span, .. }
            | StreamProblem::OverWindowsDiffer { span, .. }
            | StreamProblem::OverDescending { span }
            | StreamProblem::OverOrderKeys { span }
            | StreamProblem::OverFollowing { span }
            | StreamProblem::OverUnordered { span }
            | StreamProblem::OffsetWithoutFetch { span }
            | StreamProblem::WindowUnitUnsupported { span }
            | StreamProblem::LeadInStream { span }
            | StreamProblem::SortNotOnTime { span, .. } => *span,
        }
    }
}
