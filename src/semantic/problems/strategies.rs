//! The effective merging strategies of a `CREATE TABLE ... LIKE` (flink-spec §3: OPTIONS
//! overwriting and every other feature including by default, ALL setting every feature, an
//! explicit feature overriding ALL whatever the order).

use crate::source::Span;
use crate::syntax::ast::{FeatureOption, MergingStrategy};

/// The effective merging strategy of each feature, and which like option set it.
#[derive(Debug, Clone)]
pub struct Strategies {
    /// One entry per feature (ALL excluded), in Flink's feature order.
    entries: [(FeatureOption, MergingStrategy, Option<Span>); 7],
}

impl Strategies {
    /// Flink's defaults: OPTIONS overwriting, every other feature including.
    pub fn defaults() -> Strategies {
        use FeatureOption::*;
        let entries = [
            Constraints,
            Distribution,
            Generated,
            Metadata,
            Options,
            Partitions,
            Watermarks,
        ]
        .map(|f| {
            (
                f,
                if f == Options {
                    MergingStrategy::Overwriting
                } else {
                    MergingStrategy::Including
                },
                None,
            )
        });
        Strategies { entries }
    }
    /// The strategy of `feature`.
    pub fn get(&self, feature: FeatureOption) -> MergingStrategy {
        self.entries
            .iter()
            .find(|e| e.0 == feature)
            .map_or(MergingStrategy::Including, |e| e.1)
    }
    /// The like option that set `feature`'s strategy (`None`: the default).
    pub fn source(&self, feature: FeatureOption) -> Option<Span> {
        self.entries
            .iter()
            .find(|e| e.0 == feature)
            .and_then(|e| e.2)
    }
    /// Sets a feature's strategy.
    pub fn set(&mut self, feature: FeatureOption, strategy: MergingStrategy, span: Option<Span>) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.0 == feature) {
            e.1 = strategy;
            e.2 = span;
        }
    }
    /// Every feature with its strategy, in Flink's feature order.
    pub fn iter(
        &self,
    ) -> impl Iterator<Item = (FeatureOption, MergingStrategy, Option<Span>)> + '_ {
        self.entries.iter().copied()
    }
}
