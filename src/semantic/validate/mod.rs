//! The query validator's scopes and names: every identifier of a query resolved as Flink's
//! validator (Calcite's `SqlValidatorImpl`, its scopes `SelectScope`, `JoinScope`,
//! `AggregatingSelectScope`, `OrderByScope`, and its `AggChecker`) resolves it, and the name,
//! grouping and aggregate errors Flink reports, found offline.
//!
//! # What is resolved
//!
//! Every query of a session goes through [`validate`]: SELECT statements, INSERT queries, the
//! queries of views, CTAS / RTAS and materialized tables, and the members of statement sets
//! (`Session::apply` runs it before the statement changes the catalog). A query builds one
//! scope per SELECT:
//!
//! - its FROM relations: tables and views of the session (a view's columns are those of its
//!   query), WITH queries (visible to the queries after them, not to themselves), FROM
//!   subqueries (renamed by `AS s (a, b)`), `UNNEST ... AS t (c)` (named columns, unknown
//!   types), window TVFs (`TUMBLE`, `HOP`, `CUMULATE`, `SESSION`: the input's columns plus
//!   `window_start`, `window_end`, `window_time`), joins (`USING` columns are one column when
//!   unqualified; Flink 2.3 reports the common columns of a `NATURAL JOIN` as ambiguous, so
//!   those stay two);
//! - relations whose columns are not knowable: tables the session cannot see, views over
//!   them, other table functions (`LATERAL TABLE(f(x))`), `MATCH_RECOGNIZE`. A name that may
//!   come from one of them is never reported;
//! - the enclosing SELECTs, for correlated subqueries (a `LATERAL` subquery also sees the
//!   relations left of it), and lambda parameters.
//!
//! Names compare exactly, as Flink configures Calcite (case-sensitive); a miss that differs
//! only in case gets Flink's "did you mean" (`SqlValidatorImpl`'s `columnNotFoundDidYouMean`).
//! `t.c` is the column `c` of the relation `t`; when no relation is called `t`, `t` is a
//! column of a ROW type and `c` its field (`r.f`, `t.r.f`).
//!
//! # Using the resolution
//!
//! [`validate`] returns a [`Validation`]: the first problem Flink would report (Flink stops
//! at the first), and [`Validation::columns`], every identifier expression of the query
//! resolved to its column (by the identifier's span). [`Validation::column`] gives one
//! identifier's column, and [`Validation::type_of`] the type of any expression of the query
//! where [`super::exprs::infer_type_in`] can derive it from the resolved columns' types: the
//! entry point for type checks of functions and operators.
//!
//! ```ignore
//! let v = validate::validate(query, &session);
//! if let Some(problem) = v.problem { /* report */ }
//! let t = v.type_of(expr, exprs::Aggregation::None); // Option<Type>
//! ```
//!
//! Besides names of columns, it checks what Calcite checks while it builds these scopes: one
//! name per relation of a FROM clause, alias lists as long as the subquery's columns, `USING`
//! columns on both sides, a window TVF's `DESCRIPTOR` column in its input, and `x.*` naming a
//! relation.
//!
//! # Grouping and aggregates
//!
//! In a SELECT with `GROUP BY`, `HAVING` or a built-in aggregate call, every column of the
//! select list and HAVING must be inside an aggregate call or a `GROUP BY` expression
//! (structurally equal, columns compared after resolution). A call of a function that is not
//! built in (a UDF, perhaps an aggregate) is not looked into. Aggregates are illegal in
//! WHERE, ON and GROUP BY, and cannot be nested; a `GROUP BY` or HAVING name that only a
//! select alias gives is not found (Flink's conformance allows neither GROUP BY nor HAVING
//! aliases; ORDER BY may name them).
//!
//! # Cost
//!
//! One walk of the query; a relation of more than a few columns is looked up by hash, so a
//! SELECT of 10,000 columns costs linear time. Recursion follows the syntax tree, whose
//! nesting the parser bounds.

mod resolve;

pub(crate) use resolve::names::similar as similar_names;

use super::exprs::{self, Aggregation};
use super::query::Scope;
use super::types::Type;
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, Query};
use compact_str::CompactString;
use std::borrow::Cow;

/// The validator's maps: keyed by spans and names, hashed with foldhash (much faster than
/// SipHash; the keys come from the statement being checked).
pub(crate) type HashMap<K, V> = foldhash::HashMap<K, V>;

/// A name, grouping or aggregate problem of a query, as Flink's validator reports it.
#[derive(Debug, Clone)]
pub enum NameProblem {
    /// A table, view or materialized table read by a name the script dropped or renamed
    /// earlier and did not create again (Calcite: "Object 'x' not found").
    DroppedTable {
        /// The name as written.
        span: Span,
        /// The object's own name (the last part), as written.
        name: String,
        /// For a qualified name, the catalog and database Flink looked in (`cat.db`).
        within: Option<String>,
    },
    /// A column no relation in scope has (Calcite: "Column 'x' not found in any table",
    /// "Column 'x' not found in table 't'").
    UnknownColumn {
        /// The identifier.
        span: Span,
        /// The span of the column's name part (what a fix replaces).
        name_span: Span,
        /// The column as written.
        name: String,
        /// The qualifier, when written (`t` in `t.x`).
        table: Option<String>,
        /// The column differing only in case, which Flink suggests.
        case_match: Option<String>,
        /// Columns in scope close to the name (edit distance), best first.
        similar: Vec<String>,
        /// The name is another platform's system column (Confluent's `$rowtime`).
        foreign_system: bool,
    },
    /// A qualifier that names no relation in scope and no ROW column (Calcite: "Table 'x' not
    /// found").
    UnknownQualifier {
        /// The qualifier.
        span: Span,
        /// The qualifier as written.
        name: String,
        /// The relation alias differing only in case, which Flink suggests.
        case_match: Option<String>,
        /// In `x.*` (Calcite: "Unknown identifier 'x'").
        star: bool,
    },
    /// A field a ROW column does not have (Calcite: "Column 'r.f' not found in table 't'").
    UnknownField {
        /// The identifier.
        span: Span,
        /// The span of the field's name.
        field_span: Span,
        /// The path after the relation, as Flink prints it (`addr.town`).
        path: String,
        /// The field.
        field: String,
        /// The relation (its alias, or the table's name).
        table: String,
        /// The fields of the ROW type.
        fields: Vec<String>,
        /// The field differing only in case, which Flink suggests.
        case_match: Option<String>,
    },
    /// An unqualified column more than one relation has (Calcite: "Column 'x' is ambiguous").
    AmbiguousColumn {
        /// The identifier.
        span: Span,
        /// The column.
        name: String,
        /// The relations that have it.
        tables: Vec<String>,
    },
    /// A column of an aggregate query outside any aggregate call and GROUP BY expression
    /// (Calcite: "Expression 'x' is not being grouped"), or in the ORDER BY of a `SELECT
    /// DISTINCT`, a column outside the select list ("Expression 'x' is not in the select
    /// clause").
    NotGrouped {
        /// The column reference.
        span: Span,
        /// The reference as Flink prints it.
        expr: String,
        /// `the select list`, `HAVING` or `ORDER BY`.
        clause: &'static str,
        /// In the ORDER BY of a `SELECT DISTINCT` that does not aggregate.
        distinct: bool,
    },
    /// An aggregate where Flink allows none (Calcite: "Aggregate expression is illegal in
    /// WHERE clause", "Windowed aggregate expression is illegal in WHERE clause"; in the ORDER
    /// BY of a SELECT that does not aggregate: "Aggregate expression is illegal in ORDER BY
    /// clause of non-aggregating SELECT").
    IllegalAggregate {
        /// The call.
        span: Span,
        /// `WHERE`, `ON`, `GROUP BY` or `ORDER BY`.
        clause: &'static str,
        /// An `OVER` aggregate.
        windowed: bool,
    },
    /// An ORDER BY ordinal below 1 or above the number of the query's columns (Calcite's
    /// `OrderExpressionExpander`: "Ordinal out of range").
    OrdinalOutOfRange {
        /// The ordinal.
        span: Span,
        /// The ordinal as written.
        ordinal: String,
        /// The number of the query's columns.
        columns: usize,
    },
    /// An aggregate call inside another (Calcite: "Aggregate expressions cannot be nested").
    NestedAggregate {
        /// The inner call.
        span: Span,
        /// The outer function.
        outer: String,
    },
    /// `GROUP BY` a name only a select alias gives (Calcite: "Column 'x' not found in any
    /// table": Flink's conformance has no GROUP BY aliases).
    GroupByAlias {
        /// The GROUP BY item (or the name in HAVING).
        span: Span,
        /// The alias.
        name: String,
        /// The select item that defines it.
        item: Span,
        /// In HAVING (Flink's conformance has no HAVING aliases either).
        in_having: bool,
    },
    /// Two relations of one FROM clause with the same name (Calcite: "Duplicate relation name
    /// 'o' in FROM clause").
    DuplicateAlias {
        /// The second relation's alias (or name).
        span: Span,
        /// The name.
        name: String,
        /// The first relation.
        first: Span,
    },
    /// A column alias list (`AS s (a, b)`) whose length differs from the relation's columns
    /// (Calcite: "List of column aliases must have same degree as table; ...").
    AliasListDegree {
        /// The alias clause.
        span: Span,
        /// The relation's columns.
        columns: Vec<String>,
        /// The number of aliases.
        aliases: usize,
    },
    /// The time column of a window TVF's `DESCRIPTOR` that the input does not have (Flink:
    /// "Unknown identifier 'x'").
    UnknownDescriptorColumn {
        /// The name in the descriptor.
        span: Span,
        /// The name.
        name: String,
        /// Input columns close to it.
        similar: Vec<String>,
    },
    /// A view whose query selects `LOCALTIME`, `LOCALTIMESTAMP`, `CURRENT_TIMESTAMP`, `CURRENT_DATE` or
    /// `CURRENT_TIME` without an alias: Flink stores the query as `SELECT LOCALTIME AS
    /// LOCALTIME` and cannot parse it back when a query reads the view ("Incorrect syntax near
    /// the keyword 'LOCALTIME' at line 1, column 21.").
    ViewKeywordColumn {
        /// The view's name in the reading query.
        span: Span,
        /// The view's name as written.
        view: String,
        /// The keyword.
        keyword: String,
        /// The keyword is the view's first select item (Flink's column is then known).
        first: bool,
    },
    /// An `OPTIONS` hint on a view (Flink: "View '`c`.`d`.`v`' cannot be enriched with new
    /// options. Hints can only be applied to tables.").
    ViewOptionsHint {
        /// The hint comment.
        span: Span,
        /// The view's name as written.
        name: String,
        /// The view's qualified name as Flink prints it (`` `c`.`d`.`v` ``).
        qualified: String,
    },
    /// `TABLE t PARTITION BY ...` passed to a built-in table function whose table argument has
    /// row semantics (`FROM_CHANGELOG`, `TO_CHANGELOG`; Calcite: "Only tables with set
    /// semantics may be partitioned. Invalid PARTITION BY clause in the 0-th operand of table
    /// function 'f'").
    PartitionedRowTable {
        /// The `PARTITION BY` clause.
        span: Span,
        /// The function as written.
        function: String,
        /// The position of the table argument among the call's operands (0-based).
        operand: usize,
    },
    /// A `USING` column that a side of the join does not have (Calcite: "Column 'x' not found
    /// in any table").
    UnknownUsingColumn {
        /// The name in the USING list.
        span: Span,
        /// The name.
        name: String,
    },
}

/// A resolved identifier: the relation and column it names, and the column's type when known.
#[derive(Debug, Clone)]
pub struct ResolvedColumn {
    /// The relation (its alias, or the table's own name); `None` for a lambda parameter.
    pub relation: Option<CompactString>,
    /// The table or view of the catalog that relation reads, when it is one (not a WITH
    /// query, a subquery or a table function): where the column is declared.
    pub table: Option<super::names::QualifiedName>,
    /// The column (for `r.f`, the field's path `r.f`).
    pub column: CompactString,
    /// Its type, when known.
    pub data_type: Option<Type>,
    /// The column belongs to an enclosing SELECT (a correlated reference).
    pub outer: bool,
}

/// What [`validate`] found in one query.
#[derive(Debug, Default)]
pub struct Validation {
    /// The first problem, in the order Flink's validator meets them.
    pub problem: Option<NameProblem>,
    /// Every identifier expression resolved to a column, by the identifier's span. An
    /// identifier that names no knowable column (one of a relation whose columns are
    /// unknown) is absent.
    pub columns: HashMap<Span, ResolvedColumn>,
    /// The output column types of every SELECT whose columns are knowable, by the SELECT's
    /// span (a type is `None` where it is not).
    pub outputs: HashMap<Span, Vec<Option<Type>>>,
}

/// The types of the identifiers of one expression by their written names (`c`, `t.c`,
/// `r.f`), as [`exprs::infer_type_in`] looks columns up. The first identifier of a name
/// gives its type. Borrowed from the [`Validation`] and the expression: building it clones
/// no type, and a one-part name (most of them) allocates nothing.
#[derive(Debug, Default)]
pub struct ColumnTypes<'v> {
    /// The names in the order first met, while there are few of them.
    few: Vec<(Cow<'v, str>, Option<&'v Type>)>,
    /// The names by hash, once there are more than [`ColumnTypes::FEW`].
    many: HashMap<Cow<'v, str>, Option<&'v Type>>,
}

impl<'v> ColumnTypes<'v> {
    /// How many names are looked up linearly.
    const FEW: usize = 8;

    /// The type of the identifier written `name`, when known.
    pub fn get(&self, name: &str) -> Option<Type> {
        let found = if self.many.is_empty() {
            self.few.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
        } else {
            self.many.get(name).copied()
        };
        found.flatten().cloned()
    }

    /// Records the type of `name` unless the name has one already.
    fn insert(&mut self, name: Cow<'v, str>, t: Option<&'v Type>) {
        if !self.many.is_empty() {
            self.many.entry(name).or_insert(t);
            return;
        }
        if self.few.iter().any(|(n, _)| *n == name) {
            return;
        }
        self.few.push((name, t));
        if self.few.len() > Self::FEW {
            for (n, t) in self.few.drain(..) {
                self.many.insert(n, t);
            }
        }
    }

    /// The identifiers of `expr` (outside subqueries) with the types `columns` resolved.
    pub(crate) fn of(columns: &'v HashMap<Span, ResolvedColumn>, expr: &'v Expr) -> Self {
        let mut names = ColumnTypes::default();
        exprs::walk(expr, &mut |e| {
            if let ExprKind::Identifier(n) = &e.kind {
                let written = match n.parts.as_slice() {
                    [one] => Cow::Borrowed(one.as_str()),
                    parts => Cow::Owned(
                        parts
                            .iter()
                            .map(|p| p.as_str())
                            .collect::<Vec<_>>()
                            .join("."),
                    ),
                };
                let t = columns.get(&e.span).and_then(|c| c.data_type.as_ref());
                names.insert(written, t);
            }
        });
        names
    }
}

impl Validation {
    /// The column an identifier expression (`ExprKind::Identifier`) resolves to.
    pub fn column(&self, identifier: &Expr) -> Option<&ResolvedColumn> {
        self.columns.get(&identifier.span)
    }

    /// The type of an expression of the validated query, where the resolved columns' types
    /// and [`exprs::infer_type_in`] can tell (`agg`: whether the expression is in the select
    /// list of an aggregate query).
    pub fn type_of(&self, expr: &Expr, agg: Aggregation) -> Option<Type> {
        if let ExprKind::Identifier(_) = &expr.kind {
            return self.column(expr).and_then(|c| c.data_type.clone());
        }
        let names = self.names(expr);
        exprs::infer_type_in(expr, &|n| names.get(n), agg)
    }

    /// The resolved types of `expr`'s identifiers by their written names: the column lookup
    /// of the expression checks ([`crate::semantic::functions`]). A name resolves the same
    /// way everywhere in one expression outside subqueries, which neither this nor the
    /// inference enters.
    pub fn names<'v>(&'v self, expr: &'v Expr) -> ColumnTypes<'v> {
        ColumnTypes::of(&self.columns, expr)
    }

    /// The output column types of a SELECT (by its span), when its columns are knowable.
    pub fn output(&self, select: Span) -> Option<&[Option<Type>]> {
        self.outputs.get(&select).map(Vec::as_slice)
    }
}

/// Validates the names of `query` against what `catalog` (the session) sees: see the module
/// documentation. `foreign`: other platforms' system columns the run does not have (a miss of
/// one of them is flagged as such).
pub fn validate(query: &Query, catalog: &dyn Scope, foreign: &[String]) -> Validation {
    let mut walker = resolve::Walker::new(catalog, foreign);
    walker.top(query);
    walker.finish()
}
