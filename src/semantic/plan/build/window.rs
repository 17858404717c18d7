//! Window table functions (TUMBLE, HOP, CUMULATE, SESSION).

use super::super::keys::KeyInfo;
use super::super::{Node, Op, PlanColumn, StreamProblem, TimeAttr, WindowCheck, WindowProp};
use super::helpers::{column, timestamp3};
use super::Builder;
use crate::semantic::exprs::call_name;
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, Literal};
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
        let mut subquery = None;
        let mut descriptor = None;
        let mut partition = None;
        for arg in &f.args {
            match &arg.value.kind {
                // `TUMBLE((SELECT ...), ...)`: a subquery passed without TABLE.
                ExprKind::Subquery(q) if table.is_none() && subquery.is_none() => {
                    subquery = Some(q);
                    partition = Some(Some(Vec::new()));
                }
                ExprKind::TableArg(t, _, keys) if table.is_none() && subquery.is_none() => {
                    table = Some(&**t);
                    partition = Some(
                        keys.as_deref()
                            .map_or_else(|| Some(Vec::new()), partition_names),
                    );
                }
                ExprKind::Descriptor(cols) if descriptor.is_none() => descriptor = Some(cols),
                _ => {}
            }
        }
        let Some(descriptor) = descriptor else {
            return self.unknown(span);
        };
        let [timecol] = descriptor.as_slice() else {
            return self.unknown(span);
        };
        let input = match (table, subquery) {
            (Some(table), _) => self.named(table, None, table.span),
            (None, Some(q)) => self.query(q),
            (None, None) => return self.unknown(span),
        };
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
            let ty = col.data_type.as_ref();
            // A timestamp that is not a time attribute fails in the planner; any other type
            // fails `SqlWindowTableFunction`'s operand check, when the query is validated.
            let found = match ty.and_then(super::super::summary_type) {
                Some(t) => Some((t, WindowCheck::Planner)),
                None => ty
                    .filter(|t| !t.is_timestamp())
                    .and_then(crate::semantic::casts::calcite_name)
                    .map(|t| (t, WindowCheck::Validator)),
            };
            if let Some((type_text, stage)) = found {
                self.found(StreamProblem::WindowOnNonTimeAttribute {
                    span: self.at(timecol.span),
                    function: name.to_string(),
                    column: timecol.text.to_string(),
                    type_text,
                    lost: None,
                    stage,
                });
            }
        }
        // `WindowUtil`: a window's intervals are day-time intervals (a planned window table
        // function, whatever reads it).
        if let Some(arg) = f.args.iter().find(|a| year_month(&a.value)) {
            self.found(StreamProblem::WindowUnitUnsupported {
                span: self.at(arg.value.span),
            });
        }
        // `SliceAssigners`: a HOP's size must be a multiple of its slide (checked when a
        // window aggregate slices it), a CUMULATE's max size a multiple of its step.
        let id = self.windows;
        self.windows = self.windows.saturating_add(1);
        // The window's spec, for a UNION of two equal windows (`FlinkRelMdWindowProperties`
        // keeps their columns): the function, the time attribute and the intervals.
        let intervals: Option<Vec<u64>> = f
            .args
            .iter()
            .filter(|a| {
                !matches!(
                    a.value.kind,
                    ExprKind::TableArg(..) | ExprKind::Descriptor(_) | ExprKind::Subquery(_)
                )
            })
            .map(|a| interval_ms(&a.value))
            .collect();
        let named = f.args.iter().any(|a| a.name.is_some());
        if let (Some(intervals), false, true) = (intervals, named, name != "SESSION") {
            self.window_specs
                .push((id, format!("{name}/{:?}/{intervals:?}", col.time)));
        }
        if name == "SESSION" {
            self.session_windows.push(id);
        }
        if matches!(name.as_str(), "HOP" | "CUMULATE") && !self.unknown_inputs {
            if let Some(problem) = size_not_multiple(&name, &f.args) {
                if name == "CUMULATE" {
                    self.found(problem);
                } else {
                    self.hop_sizes.push((id, problem));
                }
            }
        }
        let mut columns = input.columns.clone();
        // Only the new window's columns are a window's (`FlinkRelMdWindowProperties` of a
        // window table function).
        for c in &mut columns {
            c.window = WindowProp::None;
        }
        let wt = Type {
            kind: col
                .data_type
                .as_ref()
                .map_or(Kind::Timestamp(3), |t| t.kind.clone()),
            nullable: false,
        };
        for (name, time, data_type, window) in [
            (
                "window_start",
                TimeAttr::None,
                timestamp3(),
                WindowProp::Start(id),
            ),
            (
                "window_end",
                TimeAttr::None,
                timestamp3(),
                WindowProp::End(id),
            ),
            ("window_time", col.time, Some(wt), WindowProp::Time(id)),
        ] {
            columns.push(PlanColumn {
                window,
                ..column(name, time, data_type)
            });
        }
        Node {
            op: Op::WindowTableFunction,
            detail: cat!("window=[", name, "(time_col=[", col.name, "])]"),
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

/// A HOP whose size is not an integral multiple of its slide, or a CUMULATE whose max size is
/// not one of its step (`HOP(data, timecol, slide, size [, offset])`,
/// `CUMULATE(data, timecol, step, size [, offset])`, or by name).
fn size_not_multiple(
    function: &str,
    args: &[crate::syntax::ast::FunctionArg],
) -> Option<StreamProblem> {
    let (function, step_name): (&'static str, &str) = match function {
        "HOP" => ("HOP", "SLIDE"),
        "CUMULATE" => ("CUMULATE", "STEP"),
        _ => return None,
    };
    let positional = [step_name, "SIZE", "OFFSET"];
    let mut step = None;
    let mut size = None;
    let mut position = 0;
    for arg in args {
        if matches!(
            arg.value.kind,
            ExprKind::TableArg(..) | ExprKind::Descriptor(_)
        ) {
            continue;
        }
        let name = match &arg.name {
            Some(n) => n.text.to_ascii_uppercase().to_string(),
            None => {
                let n = positional.get(position)?.to_string();
                position += 1;
                n
            }
        };
        if name == step_name {
            step = Some(&arg.value);
        } else if name == "SIZE" {
            size = Some(&arg.value);
        }
    }
    let (step, size) = (step?, size?);
    let (step_ms, size_ms) = (interval_ms(step)?, interval_ms(size)?);
    if step_ms == 0 || size_ms % step_ms == 0 {
        return None;
    }
    Some(StreamProblem::WindowSizeNotMultiple {
        span: size.span,
        function,
        size_ms,
        step_ms,
    })
}

/// The milliseconds of a day-time interval literal (`INTERVAL '10' MINUTE`, `INTERVAL '1.5'
/// SECOND`, `INTERVAL '1:30' MINUTE TO SECOND`); `None` for other forms.
/// Whether `e` is an interval literal of the year-month family (`INTERVAL '1' MONTH`,
/// `INTERVAL '1-2' YEAR TO MONTH`), which Flink's windows do not take.
pub(super) fn year_month(e: &Expr) -> bool {
    let ExprKind::Literal(Literal::Interval { qualifier, .. }) = &super::helpers::strip(e).kind
    else {
        return false;
    };
    ["YEAR", "QUARTER", "MONTH"]
        .iter()
        .any(|u| qualifier.start.eq_ignore_ascii_case(u))
}

pub(super) fn interval_ms(e: &Expr) -> Option<u64> {
    let ExprKind::Literal(Literal::Interval {
        negative: false,
        value,
        qualifier,
    }) = &super::helpers::strip(e).kind
    else {
        return None;
    };
    let unit_ms = |u: &str| -> Option<u64> {
        Some(match u {
            "DAY" => 86_400_000,
            "HOUR" => 3_600_000,
            "MINUTE" => 60_000,
            "SECOND" => 1_000,
            _ => return None,
        })
    };
    let units: Vec<&str> = match qualifier.end.as_deref() {
        None => vec![qualifier.start.as_str()],
        Some(end) => {
            let all = ["DAY", "HOUR", "MINUTE", "SECOND"];
            let from = all.iter().position(|u| *u == qualifier.start)?;
            let to = all.iter().position(|u| *u == end)?;
            if to <= from {
                return None;
            }
            all[from..=to].to_vec()
        }
    };
    let text = value.value.trim();
    let parts: Vec<&str> = text.split([' ', ':']).collect();
    if parts.len() != units.len() {
        return None;
    }
    let mut total: u64 = 0;
    for (part, unit) in parts.iter().zip(&units) {
        let ms = unit_ms(unit)?;
        let value = if *unit == "SECOND" {
            // Seconds may carry up to three decimals.
            let (whole, frac) = part.split_once('.').unwrap_or((part, ""));
            if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let whole: u64 = whole.parse().ok()?;
            let frac_ms: u64 = if frac.is_empty() {
                0
            } else {
                format!("{frac:0<3}").parse().ok()?
            };
            whole.checked_mul(ms)?.checked_add(frac_ms)?
        } else {
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            part.parse::<u64>().ok()?.checked_mul(ms)?
        };
        total = total.checked_add(value)?;
    }
    Some(total)
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

/// What a join of `l` and `r` is, seen from their windows' columns.
pub(super) enum WindowJoin {
    /// Neither input has a window's column, or the condition does not use them: a regular
    /// join (Flink's `WindowJoinUtil.satisfyWindowJoin` is false).
    No,
    /// The condition equates both sides' window starts and window ends: Flink plans a
    /// `WindowJoin`, insert-only whatever the join type.
    Yes,
    /// Not known (an outer join whose WHERE may complete the window equalities, a condition on
    /// the window columns that is neither): not modelled.
    Unsure,
}

/// Flink's `WindowJoinUtil.satisfyWindowJoin` on a join of `l` and `r`, as far as flinklint can
/// tell.
pub(super) fn window_join(
    l: &Node,
    r: &Node,
    kind: crate::syntax::ast::JoinKind,
    on: Option<&Expr>,
) -> WindowJoin {
    use super::helpers::Columns;
    use super::join::{equi_pair, split_and, Equi};
    let windowed = |n: &Node| n.columns.iter().any(|c| c.window != WindowProp::None);
    // A window join needs both sides' windows.
    if !windowed(l) || !windowed(r) {
        return WindowJoin::No;
    }
    let (left, right) = (Columns::new(&l.columns), Columns::new(&r.columns));
    let mut conjuncts = Vec::new();
    if let Some(on) = on {
        split_and(on, &mut conjuncts);
    }
    let (mut starts, mut ends, mut touched) = (false, false, false);
    for c in &conjuncts {
        match equi_pair(c, &left, &right) {
            Equi::Pair(a, b) => match (l.columns[a].window, r.columns[b].window) {
                (WindowProp::Start(_), WindowProp::Start(_)) => starts = true,
                (WindowProp::End(_), WindowProp::End(_)) => ends = true,
                (WindowProp::None, WindowProp::None) => {}
                _ => touched = true,
            },
            Equi::Unknown => touched = true,
            Equi::Other => {
                let mut uses = false;
                crate::semantic::exprs::walk(c, &mut |x| {
                    if let ExprKind::Identifier(n) = &x.kind {
                        uses |= [&left, &right].iter().any(|cols| {
                            cols.lookup(n).is_some_and(|c| c.window != WindowProp::None)
                        });
                    }
                });
                touched |= uses;
            }
        }
    }
    let inner = matches!(
        kind,
        crate::syntax::ast::JoinKind::Inner
            | crate::syntax::ast::JoinKind::Comma
            | crate::syntax::ast::JoinKind::Cross
    );
    if starts && ends {
        WindowJoin::Yes
    } else if starts || ends || touched || !inner {
        WindowJoin::Unsure
    } else {
        WindowJoin::No
    }
}
