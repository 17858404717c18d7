//! Steps F-H of the merge (flink-spec §3.5): the table's properties outside its schema, i.e.
//! partition keys, options and distribution. Flink merges each with its own function of
//! `MergeTableLikeUtil` (`mergePartitions`, `mergeOptions`, `mergeDistribution`), called by
//! the CREATE TABLE converter (`AbstractCreateTableConverter`) around the schema merge: the
//! partition keys before it (their conflict comes first) and checked after it, then the
//! options, then the distribution.

use super::Merge;
use crate::semantic::catalog::{Column, DistributionDef, OptionDef, Origin, PartitionDef};
use crate::semantic::problems::{PartitionIssue, Problem};
use crate::semantic::show_create;
use crate::syntax::ast::{self, FeatureOption, MergingStrategy};
use compact_str::CompactString;
use std::collections::HashMap;

impl Merge<'_> {
    /// Step G, first part: derived partition keys beside the parent's are a conflict unless
    /// EXCLUDING PARTITIONS ([`Problem::PartitionConflict`]; Flink's `mergePartitions`, which
    /// runs before the schema merge).
    pub(super) fn partitions_conflict(&mut self) {
        if let (Some(d), Some(pp)) = (self.declared.partitioned_by, &self.parent.partitions) {
            if self.strategies.get(FeatureOption::Partitions) != MergingStrategy::Excluding
                && self.has_parent
            {
                self.problems.push(Problem::PartitionConflict {
                    span: d.span,
                    parent: pp.origin,
                });
            }
        }
    }

    /// Step G, second part: the partition keys. Derived keys must name columns of the merged
    /// schema (else [`Problem::InvalidPartition`]; the converter's
    /// `verifyPartitioningColumnsExist`) that are physical (likewise;
    /// `CatalogManager.resolveCatalogTable`). Without derived keys the parent's are inherited
    /// whatever the strategy: EXCLUDING PARTITIONS then has no effect
    /// ([`Problem::IneffectiveExcluding`]).
    pub(super) fn partition_keys(&mut self) -> Option<PartitionDef> {
        let p = self.parent;
        let s = &self.strategies;
        let columns = &self.columns;
        let positions = &self.positions;
        match self.declared.partitioned_by {
            Some(d) => {
                for key in &d.names {
                    match positions.get(columns, key.as_str()).map(|i| &columns[i]) {
                        None if self.query_unknown => {}
                        None => self.problems.push(Problem::InvalidPartition {
                            span: key.span,
                            column: key.text.to_string(),
                            issue: PartitionIssue::UnknownColumn {
                                available: columns.iter().map(|c| c.name.to_string()).collect(),
                            },
                        }),
                        Some(c) if !c.kind.is_physical() => {
                            self.problems.push(Problem::InvalidPartition {
                                span: key.span,
                                column: key.text.to_string(),
                                issue: PartitionIssue::NotPhysical {
                                    physical: columns
                                        .iter()
                                        .filter(|c| c.kind.is_physical())
                                        .map(|c| c.name.to_string())
                                        .collect(),
                                },
                            })
                        }
                        Some(_) => {}
                    }
                }
                Some(PartitionDef {
                    columns: d.names.iter().map(|n| n.text.clone()).collect(),
                    origin: Origin {
                        file: self.declared.file,
                        span: d.span,
                    },
                })
            }
            None => {
                if let (Some(pp), true) = (
                    &p.partitions,
                    s.get(FeatureOption::Partitions) == MergingStrategy::Excluding,
                ) {
                    if let Some(span) = s.source(FeatureOption::Partitions) {
                        self.problems.push(Problem::IneffectiveExcluding {
                            span,
                            feature: FeatureOption::Partitions,
                            parent: pp.origin,
                            inherited: show_create::partitions(pp),
                        });
                    }
                }
                p.partitions.clone()
            }
        }
    }

    /// Step H: the options (Flink's `mergeOptions`). The parent's options are kept unless
    /// EXCLUDING OPTIONS; a derived option the parent also sets is a conflict unless
    /// OVERWRITING OPTIONS ([`Problem::OptionKeyConflict`]), and under OVERWRITING a changed
    /// value is reported ([`Problem::OverridesOption`]).
    /// The derived value replaces the parent's in place.
    pub(super) fn options(&mut self) -> Vec<OptionDef> {
        let declared = self.declared;
        let p = self.parent;
        let s = &self.strategies;
        let mut options: Vec<OptionDef> =
            Vec::with_capacity(p.options.len() + declared.with.map_or(0, |w| w.items.len()));
        if s.get(FeatureOption::Options) != MergingStrategy::Excluding {
            options.extend(p.options.iter().cloned());
        }
        let options_strategy = s.get(FeatureOption::Options);
        let Some(with) = declared.with else {
            return options;
        };
        // Many options: their positions by key (the parent's, then the merged list's), so
        // each declared option is looked up once instead of scanning the lists.
        let indexed = p.options.len() + with.items.len() >= super::INDEXED_FROM;
        let parent_index: Option<HashMap<&str, usize>> = indexed.then(|| {
            p.options
                .iter()
                .enumerate()
                .map(|(i, o)| (o.key.as_str(), i))
                .collect()
        });
        let mut index: Option<HashMap<CompactString, usize>> = indexed.then(|| {
            let mut map = HashMap::with_capacity(options.len() + with.items.len());
            for (i, o) in options.iter().enumerate() {
                map.entry(o.key.clone()).or_insert(i);
            }
            map
        });
        for prop in &with.items {
            let origin = Origin {
                file: declared.file,
                span: prop.span,
            };
            let new = OptionDef {
                key: prop.key.value.clone(),
                value: prop.value.value.clone(),
                origin,
            };
            let parent_option = match &parent_index {
                Some(map) => map.get(new.key.as_str()).map(|&i| &p.options[i]),
                None => p.option(&new.key),
            }
            .filter(|_| options_strategy != MergingStrategy::Excluding);
            match parent_option {
                Some(old) if options_strategy != MergingStrategy::Overwriting => {
                    self.problems.push(Problem::OptionKeyConflict {
                        span: prop.span,
                        key: new.key.to_string(),
                        parent_value: old.value.to_string(),
                        parent: old.origin,
                        parent_name: self.parent_name_or_empty(),
                        via_all: s.source(FeatureOption::Options).is_some_and(|src| {
                            declared.like.is_some_and(|l| {
                                l.options
                                    .iter()
                                    .any(|o| o.span == src && o.feature == FeatureOption::All)
                            })
                        }),
                    });
                }
                Some(old) if old.value != new.value => {
                    self.problems.push(Problem::OverridesOption {
                        span: prop.span,
                        key: new.key.to_string(),
                        old: old.value.to_string(),
                        new: new.value.to_string(),
                        parent: old.origin,
                    });
                }
                _ => {}
            }
            let at = match &mut index {
                Some(map) => match map.get(new.key.as_str()) {
                    Some(&i) => Some(i),
                    None => {
                        map.insert(new.key.clone(), options.len());
                        None
                    }
                },
                None => options.iter().position(|o| o.key == new.key),
            };
            match at {
                Some(i) => options[i] = new,
                None => options.push(new),
            }
        }
        options
    }

    /// Step F: the distribution (Flink's `mergeDistribution`). A derived distribution beside
    /// the parent's is a conflict unless EXCLUDING DISTRIBUTION
    /// ([`Problem::DistributionConflict`]). Without a derived one the parent's is inherited
    /// whatever the strategy: EXCLUDING DISTRIBUTION then has no effect
    /// ([`Problem::IneffectiveExcluding`]).
    pub(super) fn distribution(&mut self) -> Option<DistributionDef> {
        let p = self.parent;
        let s = &self.strategies;
        match self.declared.distribution {
            Some(d) => {
                if let Some(pd) = &p.distribution {
                    if s.get(FeatureOption::Distribution) != MergingStrategy::Excluding {
                        self.problems.push(Problem::DistributionConflict {
                            span: d.span,
                            parent: pd.origin,
                        });
                    }
                }
                self.check_distribution(d);
                Some(DistributionDef {
                    kind: d.kind,
                    columns: d
                        .columns
                        .as_ref()
                        .map(|c| c.names.iter().map(|n| n.text.clone()).collect())
                        .unwrap_or_default(),
                    buckets: d.buckets,
                    origin: Origin {
                        file: self.declared.file,
                        span: d.span,
                    },
                })
            }
            None => {
                if let (Some(pd), true) = (
                    &p.distribution,
                    s.get(FeatureOption::Distribution) == MergingStrategy::Excluding,
                ) {
                    if let Some(span) = s.source(FeatureOption::Distribution) {
                        self.problems.push(Problem::IneffectiveExcluding {
                            span,
                            feature: FeatureOption::Distribution,
                            parent: pd.origin,
                            inherited: show_create::distribution(pd),
                        });
                    }
                }
                p.distribution.clone()
            }
        }
    }

    /// [`distribution_problem`] of the declared distribution, over the merged columns.
    fn check_distribution(&mut self, d: &ast::Distribution) {
        if self.query_unknown {
            return;
        }
        let positions = &self.positions;
        let columns = &self.columns;
        if let Some(p) = distribution_problem(d, columns, |k| positions.get(columns, k)) {
            self.problems.push(p);
        }
    }
}

/// A distribution's keys are physical columns of the table and its bucket count is at least 1
/// (else [`Problem::InvalidDistribution`]; Flink checks them when it resolves the table,
/// FLIP-376). `position` finds a column of `columns` by name.
pub(in crate::semantic) fn distribution_problem(
    d: &ast::Distribution,
    columns: &[Column],
    position: impl Fn(&str) -> Option<usize>,
) -> Option<Problem> {
    if d.buckets == Some(0) {
        return Some(Problem::InvalidDistribution {
            span: d.span,
            key: None,
            physical: Vec::new(),
        });
    }
    let keys = d.columns.as_ref()?;
    let bad = keys
        .names
        .iter()
        .find(|k| position(k.as_str()).is_none_or(|i| !columns[i].kind.is_physical()))?;
    let physical = columns
        .iter()
        .filter(|c| c.kind.is_physical())
        .map(|c| c.name.to_string())
        .collect();
    Some(Problem::InvalidDistribution {
        span: bad.span,
        key: Some(bad.text.to_string()),
        physical,
    })
}
