//! Upsert keys: the columns that identify the row an update or delete of a node's output
//! replaces, derived bottom-up as Flink's `FlinkRelMdUpsertKeys` does, where flinklint can
//! follow them.
//!
//! - a scan: its table's primary key (`FlinkRelMdUniqueKeys.getTableUniqueKeys`), none
//!   (`null` in Flink) without one; a projection over it has the empty set;
//! - a projection (`Calc`): a key survives when each of its columns is passed through
//!   unchanged; a key whose column is dropped is lost (an empty set of keys when every key
//!   is lost);
//! - a group aggregate: its grouping columns, projected the same way; a global aggregate
//!   (no GROUP BY) has the empty key (one row);
//! - a Top-1 by `ROW_NUMBER` (deduplication): its partition columns; another Top-N
//!   (`getRankUniqueKeys` over the input's keys that contain the partition key): the
//!   partition columns and the rank number when `ROW_NUMBER`'s number is written, and the
//!   input's keys;
//! - a regular join (`getJoinUpsertKeys`, `FlinkRelMdUniqueKeys.getJoinUniqueKeys`): each
//!   side's keys that contain its equi-join columns (the hash distribution before the join);
//!   every left key with every right key; a side's keys alone when the other side is unique
//!   on its join columns and the join does not generate nulls on that side;
//! - `UNION ALL`: no key (`getUniqueKeys(SetOp)` answers the empty set).
//!
//! Everything else (window aggregates, a key column used in an expression, a join whose
//! condition equates expressions) is not known: nothing that depends on it is checked.

use super::{Node, Op, PlanColumn};

/// Where a column of a node comes from, relative to its first input's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// Not recorded.
    #[default]
    Unknown,
    /// The input column at this index, passed through unchanged.
    Ref(usize),
    /// The result of an aggregate call.
    Aggregate,
    /// Any other expression (a literal, a function call, a CAST).
    Expr,
    /// A rowtime moved by interval arithmetic (`ts + INTERVAL '1' SECOND`): an expression.
    Shifted,
    /// The rank number a Top-N writes (`ROW_NUMBER()`, `RANK()`, `DENSE_RANK()`).
    RankNumber,
}

/// What a node's keys need beyond its columns: a join's equi-join columns, a Top-N's
/// partition, a SESSION window's partition keys.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum KeyInfo {
    /// Nothing (or not known).
    #[default]
    None,
    /// A regular join whose columns are its left input's, then its right input's.
    Join {
        /// Which side generates nulls.
        join_type: JoinType,
        /// The equi-join columns: (index into the left input, index into the right input).
        pairs: Vec<(usize, usize)>,
    },
    /// A Top-N (`Rank`) whose columns' origins refer to its input's columns.
    Rank {
        /// The partition columns, indexes into the input's columns.
        partition: Vec<usize>,
        /// `ROW_NUMBER` (not `RANK` or `DENSE_RANK`).
        row_number: bool,
        /// The rank range is `[1, 1]`.
        top1: bool,
    },
    /// A SESSION window table function: its `PARTITION BY` columns (`None`: not plain
    /// columns). A window aggregate over it must group by exactly these
    /// (`WindowUtil.validGroupKeyPartitionKey`).
    Session {
        /// The partition columns' names.
        partition: Option<Vec<compact_str::CompactString>>,
    },
}

/// A regular join's type, as far as keys are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinType {
    /// INNER.
    Inner,
    /// LEFT OUTER: nulls on the right.
    Left,
    /// RIGHT OUTER: nulls on the left.
    Right,
    /// FULL OUTER: nulls on both sides.
    Full,
}

impl JoinType {
    fn nulls_on_left(self) -> bool {
        matches!(self, JoinType::Right | JoinType::Full)
    }
    fn nulls_on_right(self) -> bool {
        matches!(self, JoinType::Left | JoinType::Full)
    }
}

/// At most this many keys are derived for one node (joins multiply them).
const MAX_KEYS: usize = 128;

/// A key as a sorted set of column indexes.
fn normalized(mut key: Vec<usize>) -> Vec<usize> {
    key.sort_unstable();
    key.dedup();
    key
}

/// Adds `key` to `keys` unless it is there (or the cap is reached).
fn add_key(keys: &mut Vec<Vec<usize>>, key: Vec<usize>) {
    let key = normalized(key);
    if keys.len() < MAX_KEYS && !keys.contains(&key) {
        keys.push(key);
    }
}

/// Flink's `filterKeys`: the keys that contain every column of `distribution`.
fn filter_keys(keys: Vec<Vec<usize>>, distribution: &[usize]) -> Vec<Vec<usize>> {
    keys.into_iter()
        .filter(|k| distribution.iter().all(|d| k.contains(d)))
        .collect()
}

/// Flink's `isSideUnique`: some key lies within the join columns.
fn side_unique(keys: Option<&Vec<Vec<usize>>>, join_columns: &[usize]) -> bool {
    keys.is_some_and(|ks| {
        ks.iter()
            .any(|k| k.iter().all(|c| join_columns.contains(c)))
    })
}

/// The upsert keys of a node's output, as column indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpsertKeys {
    /// Flink's `null`: no key information at all (a scan of a table without a primary key).
    Null,
    /// These keys (possibly none, or the empty key of a single-row result).
    Keys(Vec<Vec<usize>>),
}

/// Makes every column of `columns` a plain reference to the column at its own position (a
/// node whose columns are exactly its input's: DISTINCT, UNION).
pub(crate) fn identity(columns: &mut [PlanColumn]) {
    for (i, c) in columns.iter_mut().enumerate() {
        c.origin = Origin::Ref(i);
    }
}

/// Rewrites the origins of `columns`, which refer to the columns of `through`, to refer to
/// what those columns refer to (a projection merged into the node below it).
pub(crate) fn compose(columns: &mut [PlanColumn], through: &[PlanColumn]) {
    for c in columns {
        c.origin = match c.origin {
            Origin::Ref(i) => through.get(i).map_or(Origin::Unknown, |t| t.origin),
            other => other,
        };
    }
}

/// Whether `columns` pass through every one of `n` input columns, in order.
fn identity_of(columns: &[PlanColumn], n: usize) -> bool {
    columns.len() == n
        && columns
            .iter()
            .enumerate()
            .all(|(i, c)| c.origin == Origin::Ref(i))
}

/// The index of the one column named `name`; `None` when none or several.
fn index_of(columns: &[PlanColumn], name: &str) -> Option<usize> {
    let mut found = None;
    for (i, c) in columns.iter().enumerate() {
        if c.name == name {
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
    }
    found
}

/// Maps `keys` (indexes into the input's columns) through a projection whose columns have
/// `columns`' origins; `None` when a lost key might survive in a way not followed (a key
/// column used in an expression).
fn project(keys: &[Vec<usize>], columns: &[PlanColumn]) -> Option<Vec<Vec<usize>>> {
    let opaque = columns
        .iter()
        .any(|c| matches!(c.origin, Origin::Unknown | Origin::Expr | Origin::Shifted));
    let mut out = Vec::new();
    for key in keys {
        let mapped: Option<Vec<usize>> = key
            .iter()
            .map(|k| columns.iter().position(|c| c.origin == Origin::Ref(*k)))
            .collect();
        match mapped {
            Some(m) => out.push(m),
            None if opaque => return None,
            None => {}
        }
    }
    Some(out)
}

/// The upsert keys of `node`'s output; `None` when not known.
pub fn upsert_keys(node: &Node) -> Option<UpsertKeys> {
    upsert_keys_at(node, 0)
}

fn upsert_keys_at(node: &Node, depth: usize) -> Option<UpsertKeys> {
    if depth > 256 {
        return None;
    }
    match node.op {
        Op::Scan => {
            if node.unique_keys.is_empty() {
                return Some(UpsertKeys::Null);
            }
            let keys: Option<Vec<Vec<usize>>> = node
                .unique_keys
                .iter()
                .map(|k| k.iter().map(|c| index_of(&node.columns, c)).collect())
                .collect();
            keys.map(UpsertKeys::Keys)
        }
        Op::Calc => {
            let [input] = node.inputs.as_slice() else {
                return None;
            };
            match upsert_keys_at(input, depth + 1)? {
                // `FlinkRelMdUniqueKeys.getProjectUniqueKeys` answers an empty set over an
                // input without keys; a projection of every column in order is removed (a
                // filter keeps it: the caller knows).
                UpsertKeys::Null if identity_of(&node.columns, input.columns.len()) => {
                    Some(UpsertKeys::Null)
                }
                UpsertKeys::Null => Some(UpsertKeys::Keys(Vec::new())),
                UpsertKeys::Keys(keys) => project(&keys, &node.columns).map(UpsertKeys::Keys),
            }
        }
        Op::GroupAggregate => {
            let [input] = node.inputs.as_slice() else {
                return None;
            };
            let [group] = node.unique_keys.as_slice() else {
                // A global aggregate: one row, the empty key.
                return node
                    .detail
                    .starts_with("select=")
                    .then(|| UpsertKeys::Keys(vec![Vec::new()]));
            };
            let key: Option<Vec<usize>> =
                group.iter().map(|g| index_of(&input.columns, g)).collect();
            project(&[key?], &node.columns).map(UpsertKeys::Keys)
        }
        Op::Union => Some(UpsertKeys::Keys(Vec::new())),
        Op::Join => join_keys(node, depth),
        Op::Rank if node.key_info != KeyInfo::None => rank_keys(node, depth),
        Op::Rank => {
            let [partition] = node.unique_keys.as_slice() else {
                return None;
            };
            let key: Option<Vec<usize>> = partition
                .iter()
                .map(|p| index_of(&node.columns, p))
                .collect();
            key.map(|k| UpsertKeys::Keys(vec![k]))
        }
        _ => None,
    }
}

/// The upsert keys of a regular join (`FlinkRelMdUpsertKeys.getJoinUpsertKeys`, Flink 2.3:
/// without the enrichment by equivalent columns of later versions).
fn join_keys(node: &Node, depth: usize) -> Option<UpsertKeys> {
    let KeyInfo::Join { join_type, pairs } = &node.key_info else {
        return None;
    };
    let [left, right] = node.inputs.as_slice() else {
        return None;
    };
    let nl = left.columns.len();
    if node.columns.len() != nl + right.columns.len() {
        return None;
    }
    let left_set: Vec<usize> = pairs.iter().map(|p| p.0).collect();
    let right_set: Vec<usize> = pairs.iter().map(|p| p.1).collect();
    let side = |n: &Node, set: &[usize]| -> Option<Option<Vec<Vec<usize>>>> {
        Some(match upsert_keys_at(n, depth + 1)? {
            UpsertKeys::Null => None,
            UpsertKeys::Keys(ks) => Some(filter_keys(ks, set)),
        })
    };
    let lk = side(left, &left_set)?;
    let rk = side(right, &right_set)?;
    let left_unique = side_unique(lk.as_ref(), &left_set);
    let right_unique = side_unique(rk.as_ref(), &right_set);
    let right_shifted: Option<Vec<Vec<usize>>> = rk.map(|ks| {
        ks.into_iter()
            .map(|k| k.into_iter().map(|c| c + nl).collect())
            .collect()
    });
    let mut out = Vec::new();
    if let (Some(rs), Some(ls)) = (&right_shifted, &lk) {
        for r in rs {
            for l in ls {
                add_key(&mut out, l.iter().chain(r.iter()).copied().collect());
            }
        }
    }
    if right_unique && !join_type.nulls_on_left() {
        for l in lk.iter().flatten() {
            add_key(&mut out, l.clone());
        }
    }
    if left_unique && !join_type.nulls_on_right() {
        for r in right_shifted.iter().flatten() {
            add_key(&mut out, r.clone());
        }
    }
    Some(UpsertKeys::Keys(out))
}

/// The upsert keys of a Top-N (`FlinkRelMdUpsertKeys.getUpsertKeys(Rank)` and
/// `FlinkRelMdUniqueKeys.getRankUniqueKeys`), projected through its select list.
fn rank_keys(node: &Node, depth: usize) -> Option<UpsertKeys> {
    let KeyInfo::Rank {
        partition,
        row_number,
        top1,
    } = &node.key_info
    else {
        return None;
    };
    let [input] = node.inputs.as_slice() else {
        return None;
    };
    let rank_index = input.columns.len();
    let mut keys: Vec<Vec<usize>> = Vec::new();
    if *row_number && *top1 {
        add_key(&mut keys, partition.clone());
    } else {
        // Flink reads the Rank's input through a projection: an input without keys has the
        // empty set.
        let input_keys = match upsert_keys_at(input, depth + 1)? {
            UpsertKeys::Null => Vec::new(),
            UpsertKeys::Keys(ks) => filter_keys(ks, partition),
        };
        let rank_written = node.columns.iter().any(|c| c.origin == Origin::RankNumber);
        if *row_number && rank_written {
            let mut k = partition.clone();
            k.push(rank_index);
            add_key(&mut keys, k);
        }
        for k in input_keys {
            add_key(&mut keys, k);
        }
    }
    let columns: Vec<PlanColumn> = node
        .columns
        .iter()
        .map(|c| {
            let mut c = c.clone();
            if c.origin == Origin::RankNumber {
                c.origin = Origin::Ref(rank_index);
            }
            c
        })
        .collect();
    project(&keys, &columns).map(UpsertKeys::Keys)
}
