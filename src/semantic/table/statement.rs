//! The checks of a CREATE statement before any merge: the LIKE option list and its effective
//! merging strategies (flink-spec §3.2-3.3), the constraints (§2.1), and the declared primary
//! key the merge reads in step E.

use super::{generated_pk_name, Declared};
use crate::semantic::problems::{Problem, Strategies};
use crate::source::Span;
use crate::syntax::ast::{
    self, ConstraintKind, Enforcement, FeatureOption, MergingStrategy, TableElement, TableElements,
};
use compact_str::CompactString;

/// The effective strategies of the statement's LIKE option list (`None` without LIKE) and its
/// problems: Flink's `SqlCreateTableLike` validation and `MergeTableLikeUtil
/// .computeMergingStrategies` (see [`strategies`]).
pub(super) fn like_options(declared: &Declared<'_>) -> (Option<Strategies>, Vec<Problem>) {
    match declared.like {
        Some(like) => {
            let (s, p) = strategies(&like.options);
            (Some(s), p)
        }
        None => (None, Vec::new()),
    }
}

/// Effective strategies of a like option list (flink-spec §3.2), and its problems (§3.3):
/// a feature named twice ([`Problem::DuplicateLikeOption`]), OVERWRITING on
/// ALL/CONSTRAINTS/DISTRIBUTION/PARTITIONS ([`Problem::IllegalMergingStrategy`]).
///
/// The problems are those of Flink's `SqlCreateTableLike` / `SqlTableLike` validation; the
/// strategies are `MergeTableLikeUtil.computeMergingStrategies`: the defaults, then ALL for
/// every feature, then each feature named on its own.
pub fn strategies(options: &[ast::LikeOption]) -> (Strategies, Vec<Problem>) {
    let mut problems = Vec::new();
    let mut firsts: std::collections::HashMap<FeatureOption, &ast::LikeOption> =
        std::collections::HashMap::new();
    for o in options {
        match firsts.get(&o.feature) {
            Some(first) => problems.push(Problem::DuplicateLikeOption {
                span: o.span,
                first: first.span,
                feature: o.feature,
            }),
            None => {
                firsts.insert(o.feature, o);
            }
        }
    }
    // Flink checks duplicates first and stops there.
    let duplicates = !problems.is_empty();
    for o in options.iter().filter(|_| !duplicates) {
        let illegal = matches!(
            o.feature,
            FeatureOption::All
                | FeatureOption::Constraints
                | FeatureOption::Distribution
                | FeatureOption::Partitions
        ) && o.strategy == MergingStrategy::Overwriting;
        if illegal {
            problems.push(Problem::IllegalMergingStrategy {
                span: o.span,
                feature: o.feature,
            });
        }
    }
    let mut s = Strategies::defaults();
    if let Some(all) = options.iter().find(|o| o.feature == FeatureOption::All) {
        let features: Vec<FeatureOption> = s.iter().map(|(f, _, _)| f).collect();
        for f in features {
            s.set(f, all.strategy, Some(all.span));
        }
    }
    for o in options.iter().filter(|o| o.feature != FeatureOption::All) {
        s.set(o.feature, o.strategy, Some(o.span));
    }
    (s, problems)
}

/// SQL-node validation of constraints (flink-spec §2.1): NOT ENFORCED required, UNIQUE
/// rejected, one primary key.
pub(super) fn constraint_checks(declared: &Declared<'_>, problems: &mut Vec<Problem>) {
    if let Some(elements) = declared.elements {
        constraint_problems(&elements.items, problems);
    }
}

/// The constraint-form problems of a list of table elements (a CREATE's or an ALTER ... ADD's):
/// an enforced primary key, a UNIQUE constraint, a second primary key.
pub(in crate::semantic) fn constraint_problems(
    items: &[TableElement],
    problems: &mut Vec<Problem>,
) {
    let mut first_pk: Option<Span> = None;
    for e in items {
        let (kind, enforcement, written, span) = match e {
            TableElement::Constraint(c) => (c.kind, c.enforcement, c.enforcement_span, c.span),
            TableElement::Column(col) => match &col.constraint {
                Some(c) => (c.kind, c.enforcement, c.enforcement_span, c.span),
                None => continue,
            },
            TableElement::Watermark(_) => continue,
        };
        if kind == ConstraintKind::Unique {
            problems.push(Problem::UniqueConstraint { span });
            continue;
        }
        if let Some(first) = first_pk {
            problems.push(Problem::DuplicatePrimaryKey { span, first });
        } else {
            first_pk = Some(span);
        }
        if enforcement != Enforcement::NotEnforced {
            problems.push(Problem::PrimaryKeyEnforced {
                span,
                enforced: written,
            });
        }
    }
}

/// A declared primary key: name and columns (the statement's identifiers).
pub(super) struct DeclaredKey<'a> {
    /// The constraint's name (written, or Flink's generated one).
    pub(super) name: CompactString,
    /// The key's columns as written.
    pub(super) columns: &'a [crate::syntax::ast::Ident],
}

/// The statement's primary key (column-level or table-level), if any.
pub(super) fn primary_key_of(elements: Option<&TableElements>) -> Option<(DeclaredKey<'_>, Span)> {
    let elements = elements?;
    for e in &elements.items {
        match e {
            TableElement::Constraint(c) if c.kind == ConstraintKind::PrimaryKey => {
                let columns = c.columns.names.as_slice();
                let name = c.name.as_ref().map_or_else(
                    || generated_pk_name(columns.iter().map(|n| n.as_str())),
                    |n| n.text.clone(),
                );
                return Some((DeclaredKey { name, columns }, c.span));
            }
            TableElement::Column(col) => {
                if let Some(cc) = &col.constraint {
                    if cc.kind == ConstraintKind::PrimaryKey {
                        let columns = std::slice::from_ref(&col.name);
                        let name = cc.name.as_ref().map_or_else(
                            || generated_pk_name([col.name.as_str()]),
                            |n| n.text.clone(),
                        );
                        return Some((DeclaredKey { name, columns }, cc.span));
                    }
                }
            }
            _ => {}
        }
    }
    None
}
