//! SELECT blocks: projections and filters (`Calc`), OVER aggregates, DISTINCT.

use super::super::{Kinds, Node, Op, PlanColumn};
use super::helpers::{
    aggregate_kinds, column, contains_agg, contains_over, expr_time, expr_type, has_unknown_call,
    ident_name, lose_time, strip, unknown, Columns,
};
use super::Builder;
use crate::semantic::exprs::call_name;
use crate::syntax::ast::{Select, SelectItem};
use compact_str::{format_compact, CompactString};

impl Builder<'_> {
    pub(super) fn select(&mut self, s: &Select) -> Node {
        // Top-N and deduplication: a filter on a ROW_NUMBER of the subquery below.
        if let Some(node) = self.rank(s) {
            return node;
        }
        let input = match &s.from {
            Some(t) => self.table_ref(t),
            None => Node {
                op: Op::Values,
                detail: String::new(),
                exact: false,
                columns: Vec::new(),
                kinds: Some(Kinds::INSERT_ONLY),
                before: false,
                unique_keys: Vec::new(),
                inputs: Vec::new(),
                span: self.at(s.span),
            },
        };
        let exprs_of = || {
            s.items
                .iter()
                .filter_map(|i| match i {
                    SelectItem::Expr { expr, .. } => Some(expr),
                    _ => None,
                })
                .chain(s.selection.iter())
                .chain(s.having.iter())
                .chain(s.group_by.iter())
                .chain(s.qualify.iter())
        };
        if exprs_of().any(has_unknown_call) {
            self.unknown_inputs = true;
            let mut n = unknown(self.at(s.span));
            n.inputs = vec![input];
            return n;
        }
        if s.qualify.is_some() {
            return self.unknown(s.span);
        }
        let aggregating = !s.group_by.is_empty()
            || s.having.is_some()
            || s.items
                .iter()
                .any(|i| matches!(i, SelectItem::Expr { expr, .. } if contains_agg(expr)));
        let over = s
            .items
            .iter()
            .any(|i| matches!(i, SelectItem::Expr { expr, .. } if contains_over(expr)));
        let mut node = if aggregating {
            self.aggregate(s, input)
        } else if over {
            if s.items.iter().any(|i| {
                matches!(i, SelectItem::Expr { expr, .. } if call_name(strip(expr)).as_deref() == Some("ROW_NUMBER"))
            }) {
                // A ROW_NUMBER without a rank filter above it: not modelled.
                let mut n = unknown(self.at(s.span));
                n.inputs = vec![input];
                return n;
            }
            let columns = self.project(s, &input.columns);
            Node {
                op: Op::OverAggregate,
                detail: String::new(),
                exact: false,
                columns,
                kinds: input.kinds.filter(|k| k.insert_only()),
                before: false,
                unique_keys: Vec::new(),
                inputs: vec![input],
                span: self.at(s.span),
            }
        } else {
            let columns = self.project(s, &input.columns);
            let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
            Node {
                op: Op::Calc,
                detail: format!("select=[{}]", names.join(", ")),
                exact: false,
                kinds: input.kinds,
                columns,
                before: false,
                unique_keys: Vec::new(),
                inputs: vec![input],
                span: self.at(s.span),
            }
        };
        if s.distinct {
            let mut columns = node.columns.clone();
            lose_time(&mut columns);
            let names: Vec<CompactString> = columns.iter().map(|c| c.name.clone()).collect();
            node = Node {
                op: Op::GroupAggregate,
                detail: format!(
                    "groupBy=[{}], select=[{}]",
                    names.join(", "),
                    names.join(", ")
                ),
                exact: true,
                kinds: aggregate_kinds(node.kinds),
                columns,
                before: false,
                unique_keys: vec![names],
                inputs: vec![node],
                span: self.at(s.span),
            };
        }
        node
    }

    /// The columns of a non-aggregating select list over `input`.
    pub(super) fn project(&self, s: &Select, input: &[PlanColumn]) -> Vec<PlanColumn> {
        let mut out = Vec::new();
        let by_name = Columns::new(input);
        for (i, item) in s.items.iter().enumerate() {
            match item {
                SelectItem::Expr { expr, alias, .. } => {
                    let name = alias
                        .as_ref()
                        .map(|a| a.text.clone())
                        .or_else(|| ident_name(expr))
                        .unwrap_or_else(|| format_compact!("EXPR${i}"));
                    let time = expr_time(expr, &by_name);
                    out.push(column(&name, time, expr_type(expr, &by_name)));
                }
                SelectItem::Wildcard { qualifier, .. } => {
                    for c in input {
                        let keep = match qualifier {
                            Some(q) => c.relation.as_deref() == Some(q.last().text.as_str()),
                            None => true,
                        };
                        if keep {
                            let mut c = c.clone();
                            c.relation = None;
                            out.push(c);
                        }
                    }
                }
            }
        }
        out
    }
}
