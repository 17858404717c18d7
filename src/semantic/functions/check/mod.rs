//! Checks of expressions against Flink 2.3's validator: function names and argument counts,
//! argument types where they are certain, untyped `NULL`, conditions that are not boolean,
//! impossible `CAST`s, comparisons Flink cannot convert, and `UNNEST` of a value that is not a
//! collection (verified in `fixtures/oracle/qv-types/`).
//!
//! The checks take the type of a column reference from a callback (`column`, as
//! [`crate::semantic::exprs::infer_type`] does), so they work with whatever resolves names;
//! [`super::query_check`] walks a query and supplies the column types the query validator
//! resolved ([`crate::semantic::validate::Validation::names`]). The function environment is in
//! `env.rs`, the checks of a call in `calls.rs`.
//!
//! What flinklint cannot know it does not guess: functions the run creates (`CREATE
//! FUNCTION`) or declares (`functions:` in `.flinklint.yaml`, checked by their declared
//! argument count), catalog-qualified calls, and every call once a statement may bring
//! functions of its own (`LOAD MODULE`, `USE MODULES`, `USE CATALOG` of another catalog).

use super::{closest, lookup, FunctionKind, Origin, Syntax};
use crate::semantic::casts::{self, CastVerdict};
use crate::semantic::exprs::{infer_type_in, Aggregation};
use crate::semantic::types::{Kind, Type};
use crate::source::Span;
use crate::syntax::ast::*;

mod calls;
mod env;
mod operators;
mod predicates;
mod special;

pub use env::{declared_functions, DeclaredFunction, FunctionEnv};

/// What is wrong with an expression, in Flink's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprIssue {
    /// A function name no module or catalog knows.
    UnknownFunction {
        /// The name as written.
        name: String,
        /// Built-in names close to it.
        similar: Vec<&'static str>,
    },
    /// A call with an argument count the function does not take.
    ArgumentCount {
        /// The function's name.
        name: String,
        /// How many arguments the call passes.
        given: usize,
        /// What the function takes ("1", "2 to 3", "at least 1").
        expected: String,
        /// Whether the function is a UDF declared in the configuration.
        declared: bool,
    },
    /// A call or operator whose argument types its signature does not accept.
    ArgumentTypes {
        /// The function or operator.
        name: String,
        /// The argument types as Flink prints them.
        given: String,
        /// The accepted form.
        expected: String,
    },
    /// A CASE whose results are of type families Calcite finds no common type for.
    MixedBranches {
        /// The results' types, in order (untyped NULLs left out).
        types: Vec<String>,
    },
    /// An untyped `NULL` where Flink cannot infer its type.
    IllegalNull,
    /// A WHERE / HAVING / ON clause that is not a condition.
    NotCondition {
        /// `WHERE`, `HAVING` or `ON`.
        clause: &'static str,
        /// The clause's type.
        found: String,
    },
    /// A CAST Flink cannot make.
    ImpossibleCast {
        /// The operand's type.
        from: String,
        /// The target type.
        to: String,
    },
    /// A comparison between types Flink does not compare.
    Comparison {
        /// The operator.
        op: &'static str,
        /// The left operand's type.
        left: String,
        /// The right operand's type.
        right: String,
    },
    /// `UNNEST` of a value that is not an ARRAY, MAP or MULTISET.
    UnnestNotCollection {
        /// The value's type.
        found: String,
    },
    /// A set operation whose inputs have different column counts.
    SetColumnCount {
        /// `UNION`, `UNION ALL`, `INTERSECT`, ...
        op: String,
        /// The left input's column count.
        left: usize,
        /// The right input's column count.
        right: usize,
    },
    /// A set operation whose inputs have a column of types without a common type.
    SetColumnTypes {
        /// `UNION`, `UNION ALL`, `INTERSECT`, ...
        op: String,
        /// The column (1-based).
        column: usize,
        /// The left input's type.
        left: String,
        /// The right input's type.
        right: String,
    },
}

/// One finding of the checks.
#[derive(Debug, Clone)]
pub struct ExprFinding {
    /// Where.
    pub span: Span,
    /// What.
    pub issue: ExprIssue,
    /// Flink's message, when its words are known.
    pub flink: Option<String>,
    /// Whether Flink rejects it only while planning (after every validator check).
    pub planning: bool,
}

/// The deepest expression nesting checked (deeper parts are left alone).
const MAX_DEPTH: usize = 400;

/// The expression checks of one statement: findings in Flink's validation order.
pub struct Checker<'a> {
    env: &'a FunctionEnv,
    /// The findings so far.
    pub found: Vec<ExprFinding>,
}

/// Flink's name for the type family of an argument in "No match found for function signature"
/// (Calcite's `RelDataType.getFamily()`); `None` where its spelling is not known.
pub fn family_name(t: &Type) -> Option<String> {
    Some(match &t.kind {
        Kind::TinyInt
        | Kind::SmallInt
        | Kind::Int
        | Kind::BigInt
        | Kind::Float
        | Kind::Double
        | Kind::Decimal(..) => "NUMERIC".into(),
        Kind::Char(_) | Kind::VarChar(_) => "CHARACTER".into(),
        Kind::Boolean => "BOOLEAN".into(),
        Kind::Binary(_) | Kind::VarBinary(_) => "BINARY".into(),
        Kind::Date => "DATE".into(),
        Kind::Time(_) => "TIME".into(),
        Kind::Timestamp(_) | Kind::TimestampLtz(_) => "TIMESTAMP".into(),
        Kind::Interval(q) => {
            let q = q.to_ascii_uppercase();
            if q.starts_with("YEAR") || q.starts_with("MONTH") {
                "INTERVAL_YEAR_MONTH".into()
            } else {
                "INTERVAL_DAY_TIME".into()
            }
        }
        Kind::Array(_) => casts::calcite_name(t)?,
        _ => return None,
    })
}

fn is_null_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Literal(Literal::Null) => true,
        ExprKind::Nested(inner) => is_null_literal(inner),
        _ => false,
    }
}

/// `CAST(NULL AS t)`, in parentheses or not.
fn is_null_cast(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast { expr, .. } => is_null_literal(expr),
        ExprKind::Nested(inner) => is_null_cast(inner),
        _ => false,
    }
}

fn numeric(k: &Kind) -> bool {
    matches!(
        k,
        Kind::TinyInt
            | Kind::SmallInt
            | Kind::Int
            | Kind::BigInt
            | Kind::Float
            | Kind::Double
            | Kind::Decimal(..)
    )
}

fn binary_string(k: &Kind) -> bool {
    matches!(k, Kind::Binary(_) | Kind::VarBinary(_))
}

fn character(k: &Kind) -> bool {
    matches!(k, Kind::Char(_) | Kind::VarChar(_))
}

/// The scalar type families Calcite's operand checks and its common-type search tell apart
/// (a date, a time and a timestamp are three).
#[derive(Debug, PartialEq, Clone, Copy)]
enum Family {
    Number,
    Character,
    Binary,
    Boolean,
    Date,
    Time,
    Timestamp,
}

impl Family {
    /// The family of a scalar type; `None` for the others (collections, rows, intervals,
    /// types flinklint does not know).
    fn of(k: &Kind) -> Option<Family> {
        Some(match k {
            k if numeric(k) => Family::Number,
            k if character(k) => Family::Character,
            k if binary_string(k) => Family::Binary,
            Kind::Boolean => Family::Boolean,
            Kind::Date => Family::Date,
            Kind::Time(_) => Family::Time,
            Kind::Timestamp(_) | Kind::TimestampLtz(_) => Family::Timestamp,
            _ => return None,
        })
    }

    fn datetime(self) -> bool {
        matches!(self, Family::Date | Family::Time | Family::Timestamp)
    }
}

/// Whether two of `families` have no common type (Calcite's `leastRestrictive`: "Illegal
/// mixing of types in CASE", "Values in expression list must have compatible types"); a
/// number beside a date-time is not counted (it fails later, with other messages). Quadratic
/// in the distinct families, of which there are at most seven.
fn without_common_type(families: &[Family]) -> bool {
    families.iter().enumerate().any(|(i, a)| {
        families[..i].iter().any(|b| {
            a != b
                && !((*a == Family::Number && b.datetime())
                    || (*b == Family::Number && a.datetime()))
        })
    })
}

fn datetime(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Date | Kind::Time(_) | Kind::Timestamp(_) | Kind::TimestampLtz(_)
    )
}

impl<'a> Checker<'a> {
    /// A checker over the run's functions.
    pub fn new(env: &'a FunctionEnv) -> Checker<'a> {
        Checker {
            env,
            found: Vec::new(),
        }
    }

    fn push(&mut self, span: Span, issue: ExprIssue, flink: Option<String>, planning: bool) {
        self.found.push(ExprFinding {
            span,
            issue,
            flink,
            planning,
        });
    }

    /// An untyped `NULL` where Calcite must infer a type ("Illegal use of 'NULL'").
    fn illegal_null(&mut self, span: Span) {
        self.push(
            span,
            ExprIssue::IllegalNull,
            Some("Illegal use of 'NULL'".into()),
            false,
        );
    }

    /// Checks `expr` (not the subqueries inside it), with column types from `column`.
    pub fn expr(&mut self, expr: &Expr, column: &dyn Fn(&str) -> Option<Type>, agg: Aggregation) {
        self.visit(expr, column, agg, 0);
    }

    /// Checks a select item: a bare `NULL` is illegal.
    pub fn select_item(
        &mut self,
        expr: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        if is_null_literal(expr) {
            self.illegal_null(expr.span);
            return;
        }
        self.expr(expr, column, agg);
    }

    /// Checks a WHERE / HAVING / ON clause: its expression, then that it is a condition.
    pub fn condition(
        &mut self,
        clause: &'static str,
        expr: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        let before = self.found.len();
        self.expr(expr, column, agg);
        if self.found.len() > before {
            return;
        }
        let Some(t) = infer_type_in(expr, column, agg) else {
            return;
        };
        if matches!(
            t.kind,
            Kind::Boolean | Kind::Null | Kind::Unsupported(_) | Kind::Raw
        ) {
            return;
        }
        self.push(
            expr.span,
            ExprIssue::NotCondition {
                clause,
                found: t.summary(),
            },
            Some(format!("{clause} clause must be a condition")),
            false,
        );
    }

    /// Checks the argument of `UNNEST` (`t` its type, when known).
    pub fn unnest(&mut self, expr: &Expr, column: &dyn Fn(&str) -> Option<Type>) {
        let before = self.found.len();
        self.expr(expr, column, Aggregation::None);
        if self.found.len() > before {
            return;
        }
        let Some(t) = infer_type_in(expr, column, Aggregation::None) else {
            return;
        };
        let collection = matches!(t.kind, Kind::Array(_) | Kind::Map(..) | Kind::Multiset(_));
        let scalar = numeric(&t.kind)
            || character(&t.kind)
            || datetime(&t.kind)
            || matches!(t.kind, Kind::Boolean | Kind::Binary(_) | Kind::VarBinary(_));
        if collection || !scalar {
            return;
        }
        let flink = casts::calcite_name(&t).map(|n| {
            format!(
                "Cannot apply 'UNNEST' to arguments of type 'UNNEST(<{n}>)'. Supported form(s): 'UNNEST(<MULTISET>)'"
            )
        });
        self.push(
            expr.span,
            ExprIssue::UnnestNotCollection { found: t.summary() },
            flink,
            false,
        );
    }

    fn visit(
        &mut self,
        e: &Expr,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let infer = |x: &Expr| infer_type_in(x, column, agg);
        match &e.kind {
            ExprKind::Function(call) => {
                // An aggregate's argument is evaluated per row.
                let inner = match lookup(call.name.last().text.as_str()) {
                    Some(f) if f.kind == FunctionKind::Aggregate => Aggregation::None,
                    _ => agg,
                };
                for a in &call.args {
                    self.visit(&a.value, column, inner, depth + 1);
                }
                if let Some(f) = &call.filter {
                    self.visit(f, column, agg, depth + 1);
                }
                self.call(e, call, column, inner);
            }
            ExprKind::Cast {
                expr,
                data_type,
                try_cast,
            } => {
                self.visit(expr, column, agg, depth + 1);
                let Some(from) = infer(expr) else { return };
                let to = Type::from_ast(data_type);
                if let CastVerdict::Rejected { flink, planning } = casts::explicit_cast(&from, &to)
                {
                    if *try_cast && planning {
                        return;
                    }
                    self.push(
                        e.span,
                        ExprIssue::ImpossibleCast {
                            from: from.summary(),
                            to: to.summary(),
                        },
                        flink,
                        planning,
                    );
                }
            }
            ExprKind::Binary { op, left, right } => {
                self.visit(left, column, agg, depth + 1);
                self.visit(right, column, agg, depth + 1);
                self.binary(e, *op, left, right, column, agg);
            }
            ExprKind::Unary { op, expr } => {
                self.visit(expr, column, agg, depth + 1);
                self.unary(e, *op, expr, column, agg);
            }
            ExprKind::Is {
                expr,
                negated,
                test,
            } => {
                self.visit(expr, column, agg, depth + 1);
                self.is_test(e, expr, *negated, test, column, agg);
            }
            ExprKind::Nested(expr) | ExprKind::Field { expr, .. } => {
                self.visit(expr, column, agg, depth + 1)
            }
            ExprKind::DatetimeInterval { expr, .. } => {
                // `(ts2 - ts1) SECOND`: the difference of two datetimes, which a bare `-`
                // does not take; its operands are checked.
                let mut inner: &Expr = expr;
                while let ExprKind::Nested(x) = &inner.kind {
                    inner = x;
                }
                match &inner.kind {
                    ExprKind::Binary {
                        op: BinaryOp::Minus,
                        left,
                        right,
                    } => {
                        self.visit(left, column, agg, depth + 1);
                        self.visit(right, column, agg, depth + 1);
                    }
                    _ => self.visit(expr, column, agg, depth + 1),
                }
            }
            ExprKind::IsDistinctFrom { left, right, .. } => {
                self.visit(left, column, agg, depth + 1);
                self.visit(right, column, agg, depth + 1);
            }
            ExprKind::Between {
                expr,
                negated,
                symmetric,
                low,
                high,
            } => {
                self.visit(expr, column, agg, depth + 1);
                self.visit(low, column, agg, depth + 1);
                self.visit(high, column, agg, depth + 1);
                self.between(e, *negated, *symmetric, [expr, low, high], column, agg);
            }
            ExprKind::InList {
                expr,
                negated,
                list,
            } => {
                self.visit(expr, column, agg, depth + 1);
                for x in list {
                    self.visit(x, column, agg, depth + 1);
                }
                self.in_list(e, expr, *negated, list, column, agg);
            }
            ExprKind::InSubquery { expr, .. } => self.visit(expr, column, agg, depth + 1),
            ExprKind::Like {
                expr,
                negated,
                operator,
                pattern,
                escape,
            } => {
                self.visit(expr, column, agg, depth + 1);
                self.visit(pattern, column, agg, depth + 1);
                if let Some(x) = escape {
                    self.visit(x, column, agg, depth + 1);
                }
                let mut operands = vec![&**expr, &**pattern];
                operands.extend(escape.as_deref());
                self.like(e, operator, *negated, &operands, column, agg);
            }
            ExprKind::Case {
                operand,
                whens,
                else_result,
            } => {
                if let Some(o) = operand {
                    self.visit(o, column, agg, depth + 1);
                }
                for (c, r) in whens {
                    self.visit(c, column, agg, depth + 1);
                    self.visit(r, column, agg, depth + 1);
                }
                if let Some(x) = else_result {
                    self.visit(x, column, agg, depth + 1);
                }
                let results = whens.iter().map(|(_, r)| r).chain(else_result.as_deref());
                self.case_results(e, results, column, agg);
            }
            ExprKind::Row(items)
            | ExprKind::Array(items)
            | ExprKind::Map(items)
            | ExprKind::Multiset(items) => {
                for x in items {
                    self.visit(x, column, agg, depth + 1);
                }
            }
            ExprKind::Item { expr, index } => {
                self.visit(expr, column, agg, depth + 1);
                self.visit(index, column, agg, depth + 1);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_select_expr(sql: &str) -> Expr {
        let parsed = crate::syntax::parse(sql);
        let s = &parsed.script.statements[0];
        let StatementKind::Query(q) = &s.kind else {
            panic!("a query")
        };
        let SetExpr::Select(sel) = &q.body else {
            panic!("a select")
        };
        match &sel.items[0] {
            SelectItem::Expr { expr, .. } => expr.clone(),
            _ => panic!("an expression"),
        }
    }

    fn issues(sql: &str, env: &FunctionEnv) -> Vec<ExprFinding> {
        let e = first_select_expr(sql);
        let mut c = Checker::new(env);
        let column = |n: &str| match n {
            "i" => Some(Type::nullable(Kind::Int)),
            "s" => Some(Type::nullable(Kind::VarChar(
                crate::semantic::types::MAX_LENGTH,
            ))),
            _ => None,
        };
        c.select_item(&e, &column, Aggregation::None);
        c.found
    }

    #[test]
    fn unknown_function_with_flinks_signature() {
        let env = FunctionEnv::default();
        let f = issues("SELECT uper(s) FROM t", &env);
        assert_eq!(
            f[0].flink.as_deref(),
            Some("No match found for function signature uper(<CHARACTER>)")
        );
        assert!(
            matches!(&f[0].issue, ExprIssue::UnknownFunction { similar, .. } if similar.contains(&"UPPER"))
        );
        assert!(issues("SELECT upper(s) FROM t", &env).is_empty());
    }

    #[test]
    fn names_close_to_no_built_in_are_reported_only_when_functions_are_declared() {
        let mut env = FunctionEnv::default();
        assert!(issues("SELECT parse_event(s) FROM t", &env).is_empty());
        env.declared.insert(
            "OTHER_UDF".into(),
            DeclaredFunction {
                args: None,
                returns: None,
            },
        );
        assert!(matches!(
            issues("SELECT parse_event(s) FROM t", &env)[0].issue,
            ExprIssue::UnknownFunction { .. }
        ));
    }

    #[test]
    fn created_and_declared_functions() {
        let mut env = FunctionEnv::default();
        env.created.insert("MY_UDF".into());
        assert!(issues("SELECT my_udf(s) FROM t", &env).is_empty());
        env.declared.insert(
            "PARSE_IT".into(),
            DeclaredFunction {
                args: Some(vec![Type::nullable(Kind::Int)]),
                returns: None,
            },
        );
        assert!(issues("SELECT parse_it(i) FROM t", &env).is_empty());
        assert!(matches!(
            issues("SELECT parse_it(i, i) FROM t", &env)[0].issue,
            ExprIssue::ArgumentCount { declared: true, .. }
        ));
        env.opaque = true;
        assert!(issues("SELECT nope(s) FROM t", &env).is_empty());
    }

    #[test]
    fn argument_count_and_types() {
        let env = FunctionEnv::default();
        let f = issues("SELECT UPPER(s, s) FROM t", &env);
        assert_eq!(
            f[0].flink.as_deref(),
            Some("Invalid number of arguments to function 'UPPER'. Was expecting 1 arguments")
        );
        let f = issues("SELECT UPPER(i) FROM t", &env);
        assert_eq!(
            f[0].flink.as_deref(),
            Some("Cannot apply 'UPPER' to arguments of type 'UPPER(<INTEGER>)'. Supported form(s): 'UPPER(<CHARACTER>)'")
        );
        assert!(issues("SELECT CONCAT(s, s, s, s) FROM t", &env).is_empty());
        let f = issues("SELECT i + NULL FROM t", &env);
        assert_eq!(f[0].issue, ExprIssue::IllegalNull);
        let f = issues("SELECT CAST(i AS DATE) FROM t", &env);
        assert!(matches!(f[0].issue, ExprIssue::ImpossibleCast { .. }));
        assert!(issues("SELECT CAST('1' AS INT) FROM t", &env).is_empty());
    }
}
