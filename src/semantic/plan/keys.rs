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
//! - a Top-1 (deduplication): its partition columns.
//!
//! Everything else (joins, unions, window aggregates, a key column used in an expression)
//! is not known: nothing that depends on it is checked.

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

/// The origin of a plain reference to `found`, a column of `columns` (as a name lookup
/// found it).
pub(crate) fn reference(columns: &[PlanColumn], found: Option<&PlanColumn>) -> Origin {
    let (Some(found), Some(first)) = (found, columns.first()) else {
        return Origin::Unknown;
    };
    let size = std::mem::size_of::<PlanColumn>().max(1);
    let offset =
        (found as *const PlanColumn as usize).wrapping_sub(first as *const PlanColumn as usize);
    let index = offset / size;
    if offset % size == 0 && index < columns.len() {
        Origin::Ref(index)
    } else {
        Origin::Unknown
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
        .any(|c| matches!(c.origin, Origin::Unknown | Origin::Expr));
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
