//! The argument checks of built-ins whose forms are not one family per argument: `IF`,
//! `COALESCE`, and the keyword forms `POSITION(a IN b [FROM n])`, `OVERLAY(s PLACING r FROM n
//! [FOR m])`, `EXTRACT(unit FROM x)` and the unit functions (`YEAR(x)`, `HOUR(x)`, ...) that
//! Flink rewrites to it.

use super::*;

/// Whether a value of kind `k` is an integer, where Calcite's INTEGER family is wanted (`None`:
/// not certain either way).
fn integer_family(k: &Kind) -> Option<bool> {
    match k {
        Kind::TinyInt | Kind::SmallInt | Kind::Int | Kind::BigInt => Some(true),
        k => match Family::of(k) {
            Some(Family::Character | Family::Boolean) => Some(false),
            Some(f) if f.datetime() => Some(false),
            _ => None,
        },
    }
}

/// The unit a unit function extracts, as Flink's message names it (`YEAR(x)` is
/// `EXTRACT(YEAR FROM x)`).
fn unit_function(name: &str) -> Option<&'static str> {
    Some(match name {
        "YEAR" => "YEAR",
        "QUARTER" => "QUARTER",
        "MONTH" => "MONTH",
        "WEEK" => "WEEK",
        "DAYOFYEAR" => "DOY",
        "DAYOFMONTH" => "DAY",
        "DAYOFWEEK" => "DOW",
        "HOUR" => "HOUR",
        "MINUTE" => "MINUTE",
        "SECOND" => "SECOND",
        _ => return None,
    })
}

const EXTRACT_FORMS: &str = "'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME_INTERVAL>)'\n'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME>)'";

impl Checker<'_> {
    /// Checks the built-ins this module knows; `true` when `name` is one of them (its call
    /// checked, whatever the verdict).
    pub(super) fn special_form(
        &mut self,
        e: &Expr,
        name: &str,
        call: &FunctionCall,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) -> bool {
        let keywords: Vec<Option<&str>> = call.args.iter().map(|a| a.keyword.as_deref()).collect();
        match name {
            "IF" if keywords == [None, None, None] => self.if_types(e, call, column, agg),
            "COALESCE" if keywords.iter().all(Option::is_none) => {
                self.coalesce_types(e, call, column, agg)
            }
            "POSITION" if keywords == [None, Some("IN")] || keywords == [None, Some("IN"), Some("FROM")] => {
                self.keyword_form(
                    e,
                    "POSITION",
                    call,
                    &[false, false, true],
                    "'POSITION(<STRING> IN <STRING>)'\n'POSITION(<STRING> IN <STRING> FROM <INTEGER>)'\nINSTR(<STRING>, <STRING>, <INTEGER>, <INTEGER>)",
                    column,
                    agg,
                )
            }
            "OVERLAY"
                if keywords == [None, Some("PLACING"), Some("FROM")]
                    || keywords == [None, Some("PLACING"), Some("FROM"), Some("FOR")] =>
            {
                self.keyword_form(
                    e,
                    "OVERLAY",
                    call,
                    &[false, false, true, true],
                    "'OVERLAY(<STRING> PLACING <STRING> FROM <INTEGER>)'\n'OVERLAY(<STRING> PLACING <STRING> FROM <INTEGER> FOR <INTEGER>)'",
                    column,
                    agg,
                )
            }
            "EXTRACT" if keywords == [None, Some("FROM")] => {
                if let ExprKind::TimeUnit(unit) = &call.args[0].value.kind {
                    let unit = unit.to_ascii_uppercase();
                    if matches!(
                        unit.as_str(),
                        "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "DAY" | "HOUR" | "MINUTE" | "SECOND"
                    ) {
                        self.extract(e, &unit, &call.args[1].value, column, agg);
                    }
                }
            }
            "TIMESTAMPADD" | "TIMESTAMPDIFF" if keywords == [None, None, None] => {
                if let ExprKind::TimeUnit(unit) = &call.args[0].value.kind {
                    let unit = unit.to_ascii_uppercase();
                    if matches!(
                        unit.as_str(),
                        "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "DAY" | "HOUR" | "MINUTE" | "SECOND"
                    ) {
                        self.timestamp_arithmetic(e, name, &unit, call, column, agg);
                    }
                }
            }
            _ => match unit_function(name) {
                Some(unit) if keywords == [None] => {
                    self.extract(e, unit, &call.args[0].value, column, agg)
                }
                _ => return false,
            },
        }
        true
    }

    /// `EXTRACT(unit FROM x)` of a value that is neither a date-time nor an interval.
    fn extract(
        &mut self,
        e: &Expr,
        unit: &str,
        operand: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let Some(t) = infer_type_in(operand, column, agg) else {
            return;
        };
        if !matches!(
            Family::of(&t.kind),
            Some(Family::Number | Family::Character | Family::Boolean)
        ) {
            return;
        }
        let flink = casts::calcite_name(&t).map(|n| {
            format!(
                "Cannot apply 'EXTRACT' to arguments of type 'EXTRACT(<INTERVAL {unit}> FROM <{n}>)'. Supported form(s): {EXTRACT_FORMS}"
            )
        });
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: format!("EXTRACT({unit} FROM ...)"),
                given: t.summary(),
                expected: "a DATE, TIME, TIMESTAMP or interval".to_string(),
            },
            flink,
            false,
        );
    }

    /// `TIMESTAMPADD(unit, n, datetime)` and `TIMESTAMPDIFF(unit, datetime, datetime)` of
    /// arguments of other families.
    fn timestamp_arithmetic(
        &mut self,
        e: &Expr,
        name: &str,
        unit: &str,
        call: &FunctionCall,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let add = name == "TIMESTAMPADD";
        let mut types = Vec::with_capacity(2);
        let mut rejected = false;
        for (i, a) in call.args.iter().enumerate().skip(1) {
            let Some(t) = infer_type_in(&a.value, column, agg) else {
                return;
            };
            let verdict = if add && i == 1 {
                integer_family(&t.kind)
            } else {
                Family::of(&t.kind).map(Family::datetime)
            };
            match verdict {
                Some(true) => {}
                Some(false) => rejected = true,
                None => return,
            }
            types.push(t);
        }
        if !rejected {
            return;
        }
        let form = if add {
            "TIMESTAMPADD(<ANY>, <INTEGER>, <DATETIME>)"
        } else {
            "TIMESTAMPDIFF(<ANY>, <DATETIME>, <DATETIME>)"
        };
        let flink = match (casts::calcite_name(&types[0]), casts::calcite_name(&types[1])) {
            (Some(a), Some(b)) => Some(format!(
                "Cannot apply '{name}' to arguments of type '{name}(<INTERVAL {unit}>, <{a}>, <{b}>)'. Supported form(s): '{form}'"
            )),
            _ => None,
        };
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: name.to_string(),
                given: format!("{unit}, {}, {}", types[0].summary(), types[1].summary()),
                expected: form.to_string(),
            },
            flink,
            false,
        );
    }

    /// A call written with keywords between its arguments: each argument a string (character or
    /// binary), or an integer where `integer` says so.
    #[allow(clippy::too_many_arguments)]
    fn keyword_form(
        &mut self,
        e: &Expr,
        name: &str,
        call: &FunctionCall,
        integer: &[bool],
        forms: &str,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let mut types = Vec::with_capacity(call.args.len());
        let mut rejected = false;
        for (a, wants_integer) in call.args.iter().zip(integer) {
            let Some(t) = infer_type_in(&a.value, column, agg) else {
                return;
            };
            let verdict = if *wants_integer {
                integer_family(&t.kind)
            } else {
                Family::of(&t.kind).map(|f| matches!(f, Family::Character | Family::Binary))
            };
            match verdict {
                Some(true) => {}
                Some(false) => rejected = true,
                None => return,
            }
            types.push(t);
        }
        if !rejected {
            return;
        }
        let names: Option<Vec<String>> = call
            .args
            .iter()
            .zip(&types)
            .map(|(a, t)| {
                let n = casts::calcite_name(t)?;
                Some(match &a.keyword {
                    Some(k) => format!(" {k} <{n}>"),
                    None => format!("<{n}>"),
                })
            })
            .collect();
        let flink = names.map(|n| {
            format!(
                "Cannot apply '{name}' to arguments of type '{name}({})'. Supported form(s): {forms}",
                n.concat()
            )
        });
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: name.to_string(),
                given: types
                    .iter()
                    .map(|t| t.summary())
                    .collect::<Vec<_>>()
                    .join(", "),
                expected: forms
                    .replace("'\n'", " or ")
                    .replace('\n', " or ")
                    .replace('\'', ""),
            },
            flink,
            false,
        );
    }

    /// `COALESCE` of values of two scalar families among number, character string, binary
    /// string and boolean (Flink's type inference finds no common type: "Invalid input
    /// arguments."). A date-time beside a number fails with another message and is not judged.
    fn coalesce_types(
        &mut self,
        e: &Expr,
        call: &FunctionCall,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let mut families = Vec::new();
        let mut types: Vec<String> = Vec::new();
        for a in &call.args {
            if is_null_literal(&a.value) {
                return;
            }
            let Some(t) = infer_type_in(&a.value, column, agg) else {
                return;
            };
            match Family::of(&t.kind) {
                None => return,
                Some(f) if f.datetime() => return,
                Some(f) => {
                    if !families.contains(&f) {
                        families.push(f);
                        types.push(t.summary());
                    }
                }
            }
        }
        if families.len() < 2 {
            return;
        }
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: "COALESCE".to_string(),
                given: types.join(", "),
                expected:
                    "values of one family (numbers, character strings, binary strings or booleans)"
                        .to_string(),
            },
            Some("Invalid input arguments.".to_string()),
            false,
        );
    }

    /// `IF(condition, a, b)`: a boolean condition (a string is refused too), and two numbers, two character strings or
    /// two booleans (Flink's `IF` operand checker); a date, time, timestamp or binary string
    /// beside one of those is refused too. Other pairs are not judged.
    fn if_types(
        &mut self,
        e: &Expr,
        call: &FunctionCall,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let mut types = Vec::with_capacity(3);
        for a in &call.args {
            let Some(t) = infer_type_in(&a.value, column, agg) else {
                return;
            };
            types.push(t);
        }
        #[derive(PartialEq)]
        enum F {
            Number,
            Character,
            Boolean,
            Other,
        }
        let family = |k: &Kind| {
            Some(if numeric(k) {
                F::Number
            } else if character(k) {
                F::Character
            } else if *k == Kind::Boolean {
                F::Boolean
            } else if datetime(k) || binary_string(k) {
                F::Other
            } else {
                return None;
            })
        };
        let (Some(c), Some(a), Some(b)) = (
            family(&types[0].kind),
            family(&types[1].kind),
            family(&types[2].kind),
        ) else {
            return;
        };
        let condition = c != F::Boolean;
        let results = a != b && (a != F::Other || b != F::Other);
        if !(condition || results) {
            return;
        }
        let names: Option<Vec<String>> = types
            .iter()
            .map(|t| casts::calcite_name(t).map(|n| format!("<{n}>")))
            .collect();
        let forms = "'IF(<ANY_TYPE>, <NUMERIC_TYPE>, <NUMERIC_TYPE>)'\n'IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)'\n'IF(<BOOLEAN>, <BOOLEAN>, <BOOLEAN>)'\n'IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)'\n'IF(<BOOLEAN>, <BINARY>, <BINARY>)'\n'IF(<BOOLEAN>, <DATE>, <DATE>)'\n'IF(<BOOLEAN>, <TIMESTAMP>, <TIMESTAMP>)'\n'IF(<BOOLEAN>, <TIME>, <TIME>)'";
        let flink = names.map(|n| {
            format!(
                "Cannot apply 'IF' to arguments of type 'IF({})'. Supported form(s): {forms}",
                n.join(", ")
            )
        });
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: "IF".to_string(),
                given: types
                    .iter()
                    .map(|t| t.summary())
                    .collect::<Vec<_>>()
                    .join(", "),
                expected:
                    "IF(<BOOLEAN>, a, b) with two numbers, two character strings or two booleans"
                        .to_string(),
            },
            flink,
            false,
        );
    }
}
