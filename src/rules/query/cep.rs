//! MATCH_RECOGNIZE as Flink's planner translates it to a CEP pattern: which clauses a
//! statement plans, and the first problem the planner finds on one (Flink 2.3:
//! `CommonPhysicalMatchRule`, then `StreamExecMatch` and its `PatternVisitor`, in
//! flink-table-planner).

use crate::semantic::session::statement_query;
use crate::source::Span;
use crate::syntax::ast::*;
use std::collections::HashSet;

/// A MATCH_RECOGNIZE clause of a statement.
pub(crate) struct MatchClause<'a> {
    /// Its PARTITION BY, rows per match, PATTERN and DEFINE.
    pub spec: &'a MatchSpec,
    /// Whether Flink plans the statement (INSERT, SELECT, CREATE TABLE AS, EXPLAIN, statement
    /// sets), where the planner's problems reject it; a view or a materialized table stores
    /// its query, and Flink rejects the queries that read it.
    pub planned: bool,
}

/// The MATCH_RECOGNIZE clauses of a script that Flink's planner translates: in the FROM
/// clauses of the statements' queries (joins, subqueries of FROM, set operations) and of the
/// WITH items the query reads. A WITH item that nothing reads is never planned; a
/// MATCH_RECOGNIZE in a subquery of an expression (`IN (SELECT ...)`) fails Flink's
/// validation first, and is left out.
pub(crate) fn match_clauses(script: &Script) -> Vec<MatchClause<'_>> {
    let mut out = Vec::new();
    for statement in script.statements.iter() {
        statement.walk(&mut |s| {
            if s.has_error {
                return;
            }
            let planned = !matches!(
                s.kind,
                StatementKind::CreateView(_)
                    | StatementKind::CreateMaterializedTable(_)
                    | StatementKind::AlterMaterializedTable(_)
            );
            if let Some(query) = statement_query(&s.kind) {
                let mut specs = Vec::new();
                query_specs(query, &mut specs);
                out.extend(specs.into_iter().map(|spec| MatchClause { spec, planned }));
            }
        });
    }
    out
}

/// The MATCH_RECOGNIZE specs of `query`'s FROM clauses and of the WITH items it reads.
fn query_specs<'a>(query: &'a Query, out: &mut Vec<&'a MatchSpec>) {
    enum Part<'q> {
        Query(&'q Query),
        Set(&'q SetExpr),
        Table(&'q TableRef),
    }
    // A stack, not recursion: queries may nest deep.
    let mut stack = vec![Part::Query(query)];
    while let Some(part) = stack.pop() {
        match part {
            Part::Query(q) => {
                stack.push(Part::Set(&q.body));
                for cte in read_ctes(q) {
                    stack.push(Part::Query(&cte.query));
                }
            }
            Part::Set(SetExpr::Select(s)) => stack.extend(s.from.iter().map(Part::Table)),
            Part::Set(SetExpr::Query(q)) => stack.push(Part::Query(q)),
            Part::Set(SetExpr::SetOperation { left, right, .. }) => {
                stack.push(Part::Set(right));
                stack.push(Part::Set(left));
            }
            Part::Set(SetExpr::Values(_) | SetExpr::Table(_)) => {}
            Part::Table(TableRef::MatchRecognize { input, spec, .. }) => {
                out.push(spec);
                stack.push(Part::Table(input));
            }
            Part::Table(TableRef::Subquery { query, .. }) => stack.push(Part::Query(query)),
            Part::Table(TableRef::Join { left, right, .. }) => {
                stack.push(Part::Table(right));
                stack.push(Part::Table(left));
            }
            Part::Table(TableRef::Nested { inner, .. }) => stack.push(Part::Table(inner)),
            Part::Table(
                TableRef::Named { .. } | TableRef::Function { .. } | TableRef::Unnest { .. },
            ) => {}
        }
    }
}

/// The WITH items of `q` that its body reads, directly or through other items it reads.
fn read_ctes(q: &Query) -> Vec<&Cte> {
    if q.with.is_empty() {
        return Vec::new();
    }
    let mut names = HashSet::new();
    body_names(&q.body, &mut names);
    let mut read = vec![false; q.with.len()];
    loop {
        let mut grew = false;
        for (i, cte) in q.with.iter().enumerate() {
            if !read[i] && names.contains(cte.name.text.as_str()) {
                read[i] = true;
                grew = true;
                let mut more = HashSet::new();
                query_names(&cte.query, &mut more);
                names.extend(more);
            }
        }
        if !grew {
            break;
        }
    }
    q.with
        .iter()
        .zip(read)
        .filter_map(|(c, r)| r.then_some(c))
        .collect()
}

/// The one-part table names the FROM clauses of `query` read (nested queries included).
fn query_names<'a>(query: &'a Query, out: &mut HashSet<&'a str>) {
    for cte in &query.with {
        query_names(&cte.query, out);
    }
    body_names(&query.body, out);
}

fn body_names<'a>(body: &'a SetExpr, out: &mut HashSet<&'a str>) {
    let mut tables: Vec<&TableRef> = Vec::new();
    let mut sets = vec![body];
    while let Some(set) = sets.pop() {
        match set {
            SetExpr::Select(s) => tables.extend(s.from.iter()),
            SetExpr::Query(q) => query_names(q, out),
            SetExpr::SetOperation { left, right, .. } => {
                sets.push(left);
                sets.push(right);
            }
            SetExpr::Table(name) => {
                if let [only] = name.parts.as_slice() {
                    out.insert(only.text.as_str());
                }
            }
            SetExpr::Values(_) => {}
        }
    }
    while let Some(t) = tables.pop() {
        match t {
            TableRef::Named { name, .. } => {
                if let [only] = name.parts.as_slice() {
                    out.insert(only.text.as_str());
                }
            }
            TableRef::Subquery { query, .. } => query_names(query, out),
            TableRef::Join { left, right, .. } => {
                tables.push(left);
                tables.push(right);
            }
            TableRef::MatchRecognize { input: inner, .. } | TableRef::Nested { inner, .. } => {
                tables.push(inner)
            }
            TableRef::Function { .. } | TableRef::Unnest { .. } => {}
        }
    }
}

/// The first problem Flink's planner finds translating a MATCH_RECOGNIZE to CEP, in its order
/// of checks.
#[derive(Debug, Clone)]
pub(crate) enum CepProblem {
    /// `ALL ROWS PER MATCH` (`CommonPhysicalMatchRule`, before the pattern is translated).
    AllRows,
    /// Another problem of the pattern's translation, met before the end of the pattern
    /// (alternation, PERMUTE, exclusion, a quantified group, a variable used twice, a
    /// reluctant optional, an optional element after a greedy one, bad bounds): no rule here
    /// reports it yet, and it is Flink's message, not the greedy one.
    Other,
    /// Every element of the pattern is optional (`NFACompiler.canProduceEmptyMatches`).
    EmptyMatches,
    /// The last element of the pattern has a greedy quantifier (`StreamExecMatch`: the CEP
    /// pattern's quantifier has the `GREEDY` property).
    GreedyLast {
        /// The quantified element (`B+`).
        span: Span,
        /// Its quantifier.
        quantifier: Quantifier,
    },
}

/// The first problem of `spec` as Flink's planner meets it, or `None` when it meets none
/// (or when its outcome depends on what is not modelled, such as counts beyond an `int`).
pub(crate) fn first_problem(spec: &MatchSpec) -> Option<CepProblem> {
    if spec.all_rows.is_some() {
        return Some(CepProblem::AllRows);
    }
    let mut visitor = Visitor::default();
    if let Err(stop) = visitor.visit(&spec.pattern) {
        return match stop {
            Stop::Problem => Some(CepProblem::Other),
            Stop::Unknown => None,
        };
    }
    // `NFACompiler.canProduceEmptyMatches`: a sequence matches no row when each of its
    // elements is optional.
    if visitor.elements.iter().all(|e| e.optional) {
        return Some(CepProblem::EmptyMatches);
    }
    let last = visitor.elements.last()?;
    match last.quantifier {
        Some(q) if last.greedy => Some(CepProblem::GreedyLast {
            span: last.span,
            quantifier: q,
        }),
        _ => None,
    }
}

/// Why the translation stopped.
enum Stop {
    /// Flink reports a problem here.
    Problem,
    /// What Flink does here is not modelled.
    Unknown,
}

/// One element of the CEP pattern: a pattern variable and its quantifier.
struct Element {
    quantifier: Option<Quantifier>,
    /// The element as written, quantifier included.
    span: Span,
    /// Whether it may match no row.
    optional: bool,
    /// Whether its CEP quantifier is greedy.
    greedy: bool,
}

/// `StreamExecMatch.PatternVisitor`: the pattern from left to right, as CEP elements.
#[derive(Default)]
struct Visitor<'a> {
    names: HashSet<&'a str>,
    elements: Vec<Element>,
}

impl<'a> Visitor<'a> {
    fn visit(&mut self, pattern: &'a RowPattern) -> Result<(), Stop> {
        // A stack, not recursion: patterns may nest deep. Sequences push their items in
        // reverse, so that they pop in written order.
        let mut stack = vec![pattern];
        while let Some(p) = stack.pop() {
            match &p.kind {
                RowPatternKind::Variable(v) => self.variable(v, None, p.span)?,
                RowPatternKind::Sequence(items) => stack.extend(items.iter().rev()),
                RowPatternKind::Group(inner) => stack.push(inner),
                RowPatternKind::Quantified {
                    pattern,
                    quantifier,
                } => {
                    // `(B)+` is `B+`: Calcite keeps no node for parentheses.
                    let mut inner = &**pattern;
                    while let RowPatternKind::Group(g) = &inner.kind {
                        inner = g;
                    }
                    let RowPatternKind::Variable(v) = &inner.kind else {
                        // "Group patterns are not supported yet."
                        return Err(Stop::Problem);
                    };
                    self.variable(v, Some(*quantifier), p.span)?;
                }
                // Branching, PERMUTE and `{- -}` patterns: "Currently, CEP doesn't support".
                RowPatternKind::Alternation(_)
                | RowPatternKind::Permute(_)
                | RowPatternKind::Exclusion(_) => return Err(Stop::Problem),
            }
        }
        Ok(())
    }

    /// `translateSingleVariable` and `applyQuantifier`.
    fn variable(
        &mut self,
        v: &'a Ident,
        quantifier: Option<Quantifier>,
        span: Span,
    ) -> Result<(), Stop> {
        // "Pattern variables must be unique. That might change in the future."
        if !self.names.insert(v.text.as_str()) {
            return Err(Stop::Problem);
        }
        let Some(q) = quantifier else {
            self.elements.push(Element {
                quantifier: None,
                span,
                optional: false,
                greedy: false,
            });
            return Ok(());
        };
        // Calcite's numbers: -1 for an unbounded most and for the least of `{,m}`; Flink
        // casts them to `int` (`MathUtils.checkedDownCast`).
        let int = |n: Option<u64>| -> Result<i64, Stop> {
            match n {
                None => Ok(-1),
                Some(n) if n <= i32::MAX as u64 => Ok(n as i64),
                Some(_) => Err(Stop::Unknown),
            }
        };
        let (start, end) = (int(q.min)?, int(q.max)?);
        let greedy = !q.is_reluctant();
        let optional = start == 0 && end == 1;
        if end != -1 && !optional && !(start == 1 && end == -1) {
            // `Pattern.times(from, to)`: a least of 0 makes it optional and counts from 1;
            // `Times.of` checks "The from should be a positive number greater than 0." and
            // "The to should be a number greater than or equal to from: ...".
            let from = if start == 0 { 1 } else { start };
            if from <= 0 || end < from {
                return Err(Stop::Problem);
            }
        }
        // `Pattern.optional()` (of `*` and `?`, not of `{0,m}`): "Optional pattern cannot be
        // preceded by greedy pattern".
        let calls_optional = (start == 0 && end == -1) || optional;
        if calls_optional && self.elements.last().is_some_and(|e| e.greedy) {
            return Err(Stop::Problem);
        }
        if !greedy && optional {
            // "Reluctant optional variables are not supported yet."
            return Err(Stop::Problem);
        }
        self.elements.push(Element {
            quantifier: Some(q),
            span,
            optional: start == 0,
            greedy: greedy && !optional && start != end,
        });
        Ok(())
    }
}
