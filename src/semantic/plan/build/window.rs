//! Window table functions (TUMBLE, HOP, CUMULATE, SESSION).

use super::super::keys::KeyInfo;
use super::super::{Node, Op, StreamProblem, TimeAttr};
use super::helpers::{column, timestamp3};
use super::Builder;
use crate::semantic::exprs::call_name;
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind};
use compact_str::CompactString;

impl Builder<'_> {
    /// TUMBLE / HOP / CUMULATE / SESSION over a table: the input's columns and
    /// `window_start`, `window_end`, `window_time`.
    pub(super) fn window_tvf(&mut self, call: &Expr, span: Span) -> Node {
        let ExprKind::Function(f) = &call.kind else {
            return self.unknown(span);
        };
        let name = call_name(call).unwrap_or_default();
        if !matches!(name.as_str(), "TUMBLE" | "HOP" | "CUMULATE" | "SESSION") {
            return self.unknown(span);
        }
        let mut table = None;
        let mut descriptor = None;
        let mut partition = None;
        for arg in &f.args {
            match &arg.value.kind {
                ExprKind::TableArg(t, _, keys) if table.is_none() => {
                    table = Some(t);
                    partition = Some(
                        keys.as_deref()
                            .map_or_else(|| Some(Vec::new()), partition_names),
                    );
                }
                ExprKind::Descriptor(cols) if descriptor.is_none() => descriptor = Some(cols),
                _ => {}
            }
        }
        let (Some(table), Some(descriptor)) = (table, descriptor) else {
            return self.unknown(span);
        };
        let [timecol] = descriptor.as_slice() else {
            return self.unknown(span);
        };
        let input = self.named(table, None, table.span);
        if input.op == Op::Unknown && input.columns.is_empty() {
            return input;
        }
        let Some(col) = input
            .columns
            .iter()
            .find(|c| c.name == timecol.text)
            .cloned()
        else {
            return self.unknown(span);
        };
        if col.time == TimeAttr::None && !self.unknown_inputs {
            if let Some(type_text) = col.data_type.as_ref().and_then(super::super::summary_type) {
                self.found(StreamProblem::WindowOnNonTimeAttribute {
                    span: self.at(timecol.span),
                    function: name.clone(),
                    column: timecol.text.to_string(),
                    type_text,
                    lost: None,
                });
            }
        }
        let mut columns = input.columns.clone();
        let wt = Type {
            kind: col
                .data_type
                .as_ref()
                .map_or(Kind::Timestamp(3), |t| t.kind.clone()),
            nullable: false,
        };
        columns.push(column("window_start", TimeAttr::None, timestamp3()));
        columns.push(column("window_end", TimeAttr::None, timestamp3()));
        columns.push(column("window_time", col.time, Some(wt)));
        Node {
            op: Op::WindowTableFunction,
            detail: format!("window=[{name}(time_col=[{}])]", col.name),
            exact: false,
            columns,
            kinds: input.kinds,
            before: false,
            unique_keys: Vec::new(),
            key_info: if name == "SESSION" {
                KeyInfo::Session {
                    partition: partition.flatten(),
                }
            } else {
                KeyInfo::None
            },
            inputs: vec![input],
            span: self.at(span),
        }
    }
}

/// The column names of `PARTITION BY k` or `PARTITION BY (k1, k2)`; `None` when a key is not a
/// plain column.
fn partition_names(keys: &Expr) -> Option<Vec<CompactString>> {
    let name = |e: &Expr| match &e.kind {
        ExprKind::Identifier(n) => Some(n.last().text.clone()),
        _ => None,
    };
    match &keys.kind {
        ExprKind::Nested(inner) => partition_names(inner),
        ExprKind::Row(items) => items.iter().map(name).collect(),
        _ => name(keys).map(|n| vec![n]),
    }
}
