//! Joins: regular, interval, temporal and lookup.

use super::super::{Kinds, Node, Op, TimeAttr};
use super::helpers::{kinds_of, lose_time, Columns};
use super::Builder;
use crate::semantic::exprs::{self};
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, JoinKind, TableRef};

impl Builder<'_> {
    pub(super) fn join(
        &mut self,
        left: &TableRef,
        right: &TableRef,
        kind: JoinKind,
        on: Option<&Expr>,
        span: Span,
    ) -> Node {
        let l = self.table_ref(left);
        // `FOR SYSTEM_TIME AS OF`: a temporal or lookup join.
        if let TableRef::Named {
            name,
            alias,
            span: rspan,
            system_time: Some(_),
            ..
        } = right
        {
            let mut r = self.named(name, alias.as_ref(), *rspan);
            lose_time(&mut r.columns);
            let mut columns = l.columns.clone();
            columns.extend(r.columns.iter().cloned());
            return Node {
                op: Op::TemporalJoin,
                detail: String::new(),
                exact: false,
                columns,
                kinds: None,
                before: false,
                unique_keys: Vec::new(),
                inputs: vec![l, r],
                span: self.at(span),
            };
        }
        let r = self.table_ref(right);
        let mut columns = l.columns.clone();
        columns.extend(r.columns.iter().cloned());
        let inner = matches!(kind, JoinKind::Inner | JoinKind::Comma | JoinKind::Cross);
        // An interval join: an inner join whose condition bounds one side's time attribute by
        // the other's.
        let (left, right) = (Columns::new(&l.columns), Columns::new(&r.columns));
        let interval = inner
            && on.is_some_and(|e| {
                let mut sides = (false, false);
                exprs::walk(e, &mut |x| {
                    if let ExprKind::Identifier(n) = &x.kind {
                        let is_time = |cols: &Columns<'_>| {
                            cols.lookup(n).is_some_and(|c| {
                                matches!(c.time, TimeAttr::Rowtime | TimeAttr::Proctime)
                            })
                        };
                        sides.0 |= is_time(&left);
                        sides.1 |= is_time(&right);
                    }
                });
                sides.0 && sides.1
            });
        let kinds = kinds_of(&[&l, &r]);
        let (op, kinds) = if interval {
            for c in &mut columns {
                c.time = TimeAttr::Unknown;
            }
            (Op::IntervalJoin, kinds.filter(|k| k.insert_only()))
        } else {
            lose_time(&mut columns);
            let out = if inner {
                kinds
            } else {
                kinds.map(|_| Kinds::ALL)
            };
            (Op::Join, out)
        };
        let join_type = match kind {
            JoinKind::Inner | JoinKind::Comma | JoinKind::Cross => "InnerJoin",
            JoinKind::Left => "LeftOuterJoin",
            JoinKind::Right => "RightOuterJoin",
            JoinKind::Full => "FullOuterJoin",
        };
        Node {
            op,
            detail: format!("joinType=[{join_type}]"),
            exact: false,
            columns,
            kinds,
            before: false,
            unique_keys: Vec::new(),
            inputs: vec![l, r],
            span: self.at(span),
        }
    }
}
