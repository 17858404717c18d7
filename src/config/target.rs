//! Targets: which Flink the SQL is checked for.

use serde::Serialize;
use std::fmt;

/// A Flink version or platform. Syntax newer than the target is `SY005`; reserved words and
/// Flink's messages follow the target where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub enum Target {
    /// Apache Flink 1.20.
    Flink120,
    /// Apache Flink 2.0.
    Flink20,
    /// Apache Flink 2.1.
    Flink21,
    /// Apache Flink 2.2.
    Flink22,
    /// Apache Flink 2.3 (the default).
    #[default]
    Flink23,
    /// Flink 2.3 plus the seed FLIP-557 `ALTER MATERIALIZED TABLE ... [SET START_MODE = ...] AS`
    /// syntax and FLIP-348's reserved `$` system-column prefix.
    FlinkNext,
    /// Confluent Cloud for Apache Flink: 2.3's grammar plus the `$rowtime` system column.
    Confluent,
}

impl Target {
    /// Every target, oldest first.
    pub const ALL: [Target; 7] = [
        Target::Flink120,
        Target::Flink20,
        Target::Flink21,
        Target::Flink22,
        Target::Flink23,
        Target::FlinkNext,
        Target::Confluent,
    ];

    /// The name used in flags and config, e.g. `flink-2.3`.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Flink120 => "flink-1.20",
            Target::Flink20 => "flink-2.0",
            Target::Flink21 => "flink-2.1",
            Target::Flink22 => "flink-2.2",
            Target::Flink23 => "flink-2.3",
            Target::FlinkNext => "flink-next",
            Target::Confluent => "confluent",
        }
    }

    /// Parses a target name.
    pub fn parse(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The Apache Flink grammar version the target follows, as (major, minor).
    pub fn grammar_version(self) -> (u32, u32) {
        match self {
            Target::Flink120 => (1, 20),
            Target::Flink20 => (2, 0),
            Target::Flink21 => (2, 1),
            Target::Flink22 => (2, 2),
            Target::Flink23 | Target::FlinkNext | Target::Confluent => (2, 3),
        }
    }

    /// Whether the target's grammar is at least Flink `major.minor`.
    pub fn at_least(self, major: u32, minor: u32) -> bool {
        self.grammar_version() >= (major, minor)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
