//! MATCH_RECOGNIZE as Flink's planner translates it to a CEP pattern: which clauses a
//! statement plans, and the first problem the planner finds on one (Flink 2.3:
//! `CommonPhysicalMatchRule`, then `StreamExecMatch` and its `PatternVisitor`, in
//! flink-table-planner).

mod navigation;

use crate::semantic::session::statement_query;
use crate::source::Span;
use crate::syntax::ast::*;
use navigation::physical_offset;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

/// A MATCH_RECOGNIZE clause of a statement.
pub(crate) struct MatchClause<'a> {
    /// The table it reads.
    pub input: &'a TableRef,
    /// Its MEASURES: expression and name.
    pub measures: &'a [(Expr, Ident)],
    /// Its PARTITION BY, rows per match, PATTERN and DEFINE.
    pub spec: &'a MatchSpec,
    /// Whether Flink's planner translates it.
    pub planning: Planning,
}

/// Whether Flink's planner translates a MATCH_RECOGNIZE clause. Flink's validator checks
/// every clause of every query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Planning {
    /// The statement is planned (INSERT, SELECT, CREATE TABLE AS, EXPLAIN, statement sets),
    /// and the planner's problems reject it.
    Planned,
    /// The query of a view or a materialized table: Flink stores it without planning it, and
    /// rejects the queries that read it.
    Stored,
    /// In a WITH item that the query never reads: never planned.
    Unread,
}

/// The MATCH_RECOGNIZE clauses of a script: in the FROM clauses of the statements' queries
/// (joins, subqueries of FROM, set operations) and of their WITH items. A MATCH_RECOGNIZE in
/// a subquery of an expression (`IN (SELECT ...)`) fails Flink's validation first ("Table 'A'
/// not found" on its first pattern variable), and is left out.
pub(crate) fn match_clauses(script: &Script) -> Vec<MatchClause<'_>> {
    let mut out = Vec::new();
    for statement in script.statements.iter() {
        statement.walk(&mut |s| {
            if s.has_error {
                return;
            }
            let planning = match s.kind {
                StatementKind::CreateView(_)
                | StatementKind::CreateMaterializedTable(_)
                | StatementKind::AlterMaterializedTable(_) => Planning::Stored,
                _ => Planning::Planned,
            };
            if let Some(query) = statement_query(&s.kind) {
                query_clauses(query, planning, &mut out);
            }
        });
    }
    out
}

/// The MATCH_RECOGNIZE clauses of `query`'s FROM clauses and of its WITH items.
fn query_clauses<'a>(query: &'a Query, planning: Planning, out: &mut Vec<MatchClause<'a>>) {
    enum Part<'q> {
        Query(&'q Query),
        Set(&'q SetExpr),
        Table(&'q TableRef),
    }
    // A stack, not recursion: queries may nest deep.
    let mut stack = vec![(Part::Query(query), planning)];
    while let Some((part, planning)) = stack.pop() {
        match part {
            Part::Query(q) => {
                stack.push((Part::Set(&q.body), planning));
                for (cte, read) in ctes_read(q) {
                    let planning = if read { planning } else { Planning::Unread };
                    stack.push((Part::Query(&cte.query), planning));
                }
            }
            Part::Set(SetExpr::Select(s)) => {
                stack.extend(s.from.iter().map(|t| (Part::Table(t), planning)))
            }
            Part::Set(SetExpr::Query(q)) => stack.push((Part::Query(q), planning)),
            Part::Set(SetExpr::SetOperation { left, right, .. }) => {
                stack.push((Part::Set(right), planning));
                stack.push((Part::Set(left), planning));
            }
            Part::Set(SetExpr::Values(_) | SetExpr::Table(_)) => {}
            Part::Table(TableRef::MatchRecognize {
                input,
                measures,
                spec,
                ..
            }) => {
                out.push(MatchClause {
                    input,
                    measures,
                    spec,
                    planning,
                });
                stack.push((Part::Table(input), planning));
            }
            Part::Table(TableRef::Subquery { query, .. }) => {
                stack.push((Part::Query(query), planning))
            }
            Part::Table(TableRef::Join { left, right, .. }) => {
                stack.push((Part::Table(right), planning));
                stack.push((Part::Table(left), planning));
            }
            Part::Table(TableRef::Nested { inner, .. }) => {
                stack.push((Part::Table(inner), planning))
            }
            Part::Table(
                TableRef::Named { .. } | TableRef::Function { .. } | TableRef::Unnest { .. },
            ) => {}
        }
    }
}

/// The WITH items of `q`, each with whether its body reads it, directly or through other
/// items it reads.
fn ctes_read(q: &Query) -> Vec<(&Cte, bool)> {
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
    q.with.iter().zip(read).collect()
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
    /// Something Flink's CEP translation does not support; the statement is rejected.
    Unsupported {
        /// What Flink points at: the clause, the pattern element, the call.
        span: Span,
        /// What it is.
        what: Unsupported,
        /// Flink's message.
        flink: String,
    },
    /// The last element of the pattern has a greedy quantifier (`StreamExecMatch`: the CEP
    /// pattern's quantifier has the `GREEDY` property).
    GreedyLast {
        /// The quantified element (`B+`).
        span: Span,
        /// Its quantifier.
        quantifier: Quantifier,
    },
}

/// The features of MATCH_RECOGNIZE that Flink 2.3's CEP translation rejects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unsupported {
    /// `ALL ROWS PER MATCH` (`CommonPhysicalMatchRule`, before the pattern is translated).
    AllRows,
    /// `A | B` (`PatternVisitor`: "Currently, CEP doesn't support branching patterns.").
    Alternation,
    /// `PERMUTE(A, B)`.
    Permute,
    /// `{- B -}`.
    Exclusion,
    /// A quantifier on a group (`(A B)+`): "Group patterns are not supported yet."
    GroupQuantifier,
    /// A pattern variable written twice: "Pattern variables must be unique."
    DuplicateVariable,
    /// `B??`: "Reluctant optional variables are not supported yet."
    ReluctantOptional,
    /// `A+ B*`: CEP's `Pattern.optional()` after a greedy element.
    OptionalAfterGreedy,
    /// `{,m}`, `{0}`, `{3,2}`: bounds CEP's `Times.of` refuses.
    Bounds,
    /// Optional elements only (`NFACompiler.canProduceEmptyMatches`).
    EmptyMatches,
    /// `PREV` / `NEXT` with an offset in a DEFINE condition (`MatchCodeGenerator`).
    PhysicalOffset,
}

/// The first problem of a clause as Flink's planner meets it, or `None` when it meets none
/// (or when its outcome depends on what is not modelled, such as counts beyond an `int`). A
/// MATCH_RECOGNIZE that Flink's validator rejects first (a pattern variable defined twice, a
/// qualifier that names no pattern variable) has none here.
pub(crate) fn first_problem(clause: &MatchClause<'_>) -> Option<CepProblem> {
    let spec = clause.spec;
    if duplicate_definition(spec).is_some() || unknown_qualifier(clause).is_some() {
        return None;
    }
    if let Some(span) = spec.all_rows {
        return Some(unsupported(
            span,
            Unsupported::AllRows,
            "All rows per match mode is not supported yet.",
        ));
    }
    let mut visitor = Visitor {
        conditions: spec
            .define
            .iter()
            .map(|d| (d.variable.text.as_str(), &d.condition))
            .collect(),
        variables: spec
            .pattern
            .variables()
            .into_iter()
            .map(|v| v.text.as_str())
            .collect(),
        names: HashSet::new(),
        elements: Vec::new(),
    };
    if let Err(stop) = visitor.visit(&spec.pattern) {
        return match stop {
            Stop::Problem(p) => Some(p),
            Stop::Unknown => None,
        };
    }
    // `NFACompiler.canProduceEmptyMatches`: a sequence matches no row when each of its
    // elements is optional.
    if visitor.elements.iter().all(|e| e.optional) {
        return Some(unsupported(
            spec.pattern.span,
            Unsupported::EmptyMatches,
            "Patterns that can produce empty matches are not supported. There must be at least one non-optional state.",
        ));
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

/// The second definition of a pattern variable that DEFINE defines twice (Calcite's
/// `SqlValidatorImpl.validateDefinitions`: "Pattern variable 'A' has already been defined").
pub(crate) fn duplicate_definition(
    spec: &MatchSpec,
) -> Option<(&PatternDefinition, &PatternDefinition)> {
    let mut seen: HashMap<&str, &PatternDefinition> = HashMap::new();
    spec.define
        .iter()
        .find_map(|d| match seen.entry(d.variable.text.as_str()) {
            Entry::Occupied(first) => Some((*first.get(), d)),
            Entry::Vacant(slot) => {
                slot.insert(d);
                None
            }
        })
}

/// A qualifier of MEASURES or DEFINE that names nothing Flink's validator knows there.
pub(crate) struct UnknownQualifier<'a> {
    /// The qualifier.
    pub name: &'a Ident,
    /// The input table's name when it differs only in case (Calcite's "did you mean").
    pub case_match: Option<&'a str>,
    /// A pattern variable that differs only in case.
    pub similar_variable: Option<&'a str>,
}

/// The first `X.col` of DEFINE, then of MEASURES, in written order, whose `X` is neither a
/// pattern variable (of PATTERN, DEFINE or SUBSET) nor the input table (its alias, or its
/// name without one): Calcite's `MatchRecognizeScope`, "Table 'X' not found". `None` when
/// DEFINE defines a variable twice (the validator reports that first), when the input has no
/// name known here (a subquery or a call without an alias), and for names of three parts or
/// more.
pub(crate) fn unknown_qualifier<'a>(clause: &MatchClause<'a>) -> Option<UnknownQualifier<'a>> {
    let spec = clause.spec;
    if duplicate_definition(spec).is_some() {
        return None;
    }
    let input: &str = match clause.input {
        TableRef::Named { alias: Some(a), .. }
        | TableRef::Subquery { alias: Some(a), .. }
        | TableRef::Function { alias: Some(a), .. }
        | TableRef::Nested { alias: Some(a), .. }
        | TableRef::Unnest { alias: Some(a), .. }
        | TableRef::MatchRecognize { alias: Some(a), .. } => &a.name.text,
        TableRef::Named { name, .. } => &name.parts.last()?.text,
        _ => return None,
    };
    let mut variables: HashSet<&str> = spec
        .pattern
        .variables()
        .iter()
        .map(|v| v.text.as_str())
        .collect();
    variables.extend(spec.define.iter().map(|d| d.variable.text.as_str()));
    variables.extend(spec.subsets.iter().map(|s| s.text.as_str()));
    let conditions = spec.define.iter().map(|d| &d.condition);
    let measures = clause.measures.iter().map(|(e, _)| e);
    for expr in conditions.chain(measures) {
        // In written order: children are pushed in reverse.
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            if let ExprKind::Identifier(n) = &e.kind {
                if let [qualifier, _] = n.parts.as_slice() {
                    let q = qualifier.text.as_str();
                    if q != input && !variables.contains(&q) {
                        return Some(UnknownQualifier {
                            name: qualifier,
                            case_match: input.eq_ignore_ascii_case(q).then_some(input),
                            similar_variable: variables
                                .iter()
                                .filter(|v| v.eq_ignore_ascii_case(q))
                                .min()
                                .copied(),
                        });
                    }
                }
                continue;
            }
            let mut children = Vec::new();
            e.for_each_child(&mut |c| children.push(c));
            stack.extend(children.into_iter().rev());
        }
    }
    None
}

fn unsupported(span: Span, what: Unsupported, flink: impl Into<String>) -> CepProblem {
    CepProblem::Unsupported {
        span,
        what,
        flink: flink.into(),
    }
}

/// Why the translation stopped.
pub(super) enum Stop {
    /// Flink reports this problem here.
    Problem(CepProblem),
    /// What Flink does here is not modelled.
    Unknown,
}

impl From<CepProblem> for Stop {
    fn from(p: CepProblem) -> Stop {
        Stop::Problem(p)
    }
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
struct Visitor<'a> {
    /// The DEFINE conditions by pattern variable (each defined once).
    conditions: HashMap<&'a str, &'a Expr>,
    /// The pattern variables of the pattern.
    variables: HashSet<&'a str>,
    /// The variables translated so far.
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
                    let inner = ungrouped(pattern);
                    let RowPatternKind::Variable(v) = &inner.kind else {
                        let rex = rex(inner).ok_or(Stop::Unknown)?;
                        return Err(unsupported(
                            p.span,
                            Unsupported::GroupQuantifier,
                            format!("Expression not supported: {rex} Group patterns are not supported yet."),
                        )
                        .into());
                    };
                    self.variable(v, Some(*quantifier), p.span)?;
                }
                RowPatternKind::Alternation(_) => {
                    let rex = rex(p).ok_or(Stop::Unknown)?;
                    return Err(unsupported(
                        p.span,
                        Unsupported::Alternation,
                        format!("Expression not supported: {rex}. Currently, CEP doesn't support branching patterns."),
                    )
                    .into());
                }
                RowPatternKind::Permute(_) => {
                    let rex = rex(p).ok_or(Stop::Unknown)?;
                    return Err(unsupported(
                        p.span,
                        Unsupported::Permute,
                        format!("Expression not supported: {rex}. Currently, CEP doesn't support PERMUTE patterns."),
                    )
                    .into());
                }
                RowPatternKind::Exclusion(_) => {
                    let rex = rex(p).ok_or(Stop::Unknown)?;
                    return Err(unsupported(
                        p.span,
                        Unsupported::Exclusion,
                        format!("Expression not supported: {rex}. Currently, CEP doesn't support '{{-' '-}}' patterns."),
                    )
                    .into());
                }
            }
        }
        Ok(())
    }

    /// `visitLiteral` (`translateSingleVariable`, then the DEFINE condition's code) and
    /// `applyQuantifier`.
    fn variable(
        &mut self,
        v: &'a Ident,
        quantifier: Option<Quantifier>,
        span: Span,
    ) -> Result<(), Stop> {
        if !self.names.insert(v.text.as_str()) {
            return Err(unsupported(
                v.span,
                Unsupported::DuplicateVariable,
                "Pattern variables must be unique. That might change in the future.",
            )
            .into());
        }
        if let Some(condition) = self.conditions.get(v.text.as_str()) {
            if let Some(call) = physical_offset(condition, &v.text, &self.variables)? {
                return Err(unsupported(
                    call,
                    Unsupported::PhysicalOffset,
                    "Flink does not support physical offsets within partition.",
                )
                .into());
            }
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
        let (start, end) = counts(&q).ok_or(Stop::Unknown)?;
        let greedy = !q.is_reluctant();
        let optional = start == 0 && end == 1;
        // `Pattern.optional()` (of `*` and `?`, not of `{0,m}`): "Optional pattern cannot be
        // preceded by greedy pattern".
        let calls_optional = (start == 0 && end == -1) || optional;
        if calls_optional && self.elements.last().is_some_and(|e| e.greedy) {
            return Err(unsupported(
                span,
                Unsupported::OptionalAfterGreedy,
                "Optional pattern cannot be preceded by greedy pattern",
            )
            .into());
        }
        if end != -1 && !optional {
            // `Pattern.times(from, to)`: a least of 0 makes it optional and counts from 1;
            // then `Times.of(from, to)`.
            let from = if start == 0 { 1 } else { start };
            let flink = if from <= 0 {
                "The from should be a positive number greater than 0.".to_string()
            } else if end < from {
                format!("The to should be a number greater than or equal to from: {from}.")
            } else {
                String::new()
            };
            if !flink.is_empty() {
                return Err(unsupported(q.span, Unsupported::Bounds, flink).into());
            }
        }
        if !greedy && optional {
            return Err(unsupported(
                span,
                Unsupported::ReluctantOptional,
                "Reluctant optional variables are not supported yet.",
            )
            .into());
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

/// The pattern inside any parentheses.
fn ungrouped(mut p: &RowPattern) -> &RowPattern {
    while let RowPatternKind::Group(g) = &p.kind {
        p = g;
    }
    p
}

/// A quantifier's least and most as Calcite passes them to Flink: -1 for an unbounded most
/// and for the least of `{,m}`; `None` beyond an `int` (`MathUtils.checkedDownCast`).
fn counts(q: &Quantifier) -> Option<(i64, i64)> {
    let int = |n: Option<u64>| match n {
        None => Some(-1),
        Some(n) if n <= i32::MAX as u64 => Some(n as i64),
        Some(_) => None,
    };
    Some((int(q.min)?, int(q.max)?))
}

/// The pattern as Flink prints Calcite's `RexNode` of it in its messages:
/// `|((_UTF-16LE'A', _UTF-16LE'B'), PATTERN_QUANTIFIER(_UTF-16LE'C', 1, -1, false))`
/// (sequences and alternations nest pairwise from the left; parentheses leave no node).
fn rex(p: &RowPattern) -> Option<String> {
    let mut out = String::new();
    rex_into(p, &mut out)?;
    Some(out)
}

/// [`rex`] into `out`, in time linear in the pattern's length.
fn rex_into(p: &RowPattern, out: &mut String) -> Option<()> {
    // `op(op(a, b), c)`: the opening calls first, then each item and its closing.
    let pairwise = |op: &str, items: &[RowPattern], out: &mut String| -> Option<()> {
        let (first, rest) = items.split_first()?;
        for _ in rest {
            out.push_str(op);
            out.push('(');
        }
        rex_into(first, out)?;
        for item in rest {
            out.push_str(", ");
            rex_into(item, out)?;
            out.push(')');
        }
        Some(())
    };
    match &p.kind {
        RowPatternKind::Variable(v) => {
            out.push_str("_UTF-16LE'");
            out.push_str(&v.text.replace('\'', "''"));
            out.push('\'');
        }
        RowPatternKind::Sequence(items) => pairwise("", items, out)?,
        RowPatternKind::Alternation(items) => pairwise("|", items, out)?,
        RowPatternKind::Group(inner) => rex_into(inner, out)?,
        RowPatternKind::Permute(items) => {
            out.push_str("PATTERN_PERMUTE(");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                rex_into(item, out)?;
            }
            out.push(')');
        }
        RowPatternKind::Exclusion(inner) => {
            out.push_str("PATTERN_EXCLUDE(");
            rex_into(inner, out)?;
            out.push(')');
        }
        RowPatternKind::Quantified {
            pattern,
            quantifier,
        } => {
            let (start, end) = counts(quantifier)?;
            out.push_str("PATTERN_QUANTIFIER(");
            rex_into(pattern, out)?;
            out.push_str(&format!(", {start}, {end}, {})", quantifier.is_reluctant()));
        }
    }
    Some(())
}

/// The diagnostic of a problem of `clause` at `span`: the rule's severity where Flink plans the
/// clause, a warning where it only stores it (a view, a materialized table: every query that
/// reads it is rejected).
pub(crate) fn clause_diagnostic(
    out: &crate::rules::Reporter<'_>,
    clause: &MatchClause<'_>,
    file: crate::source::FileId,
    span: Span,
    message: String,
) -> crate::diagnostics::Diagnostic {
    if clause.planning == Planning::Planned {
        out.diagnostic(file, span, message)
    } else {
        out.diagnostic_with(
            crate::diagnostics::Severity::Warning,
            file,
            span,
            format!("{message} (Flink rejects every query that reads this one)"),
        )
    }
}
