//! The clauses of `MATCH_RECOGNIZE` that Flink translates to a CEP pattern: PARTITION BY, the
//! rows per match, the row pattern and its DEFINE conditions (Calcite's `SqlMatchRecognize`).

use super::{Expr, Ident};
use crate::source::Span;
use serde::Serialize;

/// What a `MATCH_RECOGNIZE` matches, besides its ORDER BY and MEASURES.
#[derive(Debug, Clone, Serialize)]
pub struct MatchSpec {
    /// `PARTITION BY` expressions.
    pub partition_by: Vec<Expr>,
    /// `ALL ROWS PER MATCH [...]` as written (the default is `ONE ROW PER MATCH`).
    pub all_rows: Option<Span>,
    /// `PATTERN ( ... )`: the row pattern inside the parentheses, anchors left out.
    pub pattern: RowPattern,
    /// The names `SUBSET name = (...)` declares.
    pub subsets: Vec<Ident>,
    /// `DEFINE variable AS condition, ...`, in written order.
    pub define: Vec<PatternDefinition>,
}

/// `variable AS condition` of DEFINE.
#[derive(Debug, Clone, Serialize)]
pub struct PatternDefinition {
    /// The pattern variable.
    pub variable: Ident,
    /// The condition a row must meet to be mapped to it.
    pub condition: Expr,
    /// The whole definition.
    pub span: Span,
}

/// A row pattern: Calcite's `PatternExpression` as written, groups kept.
#[derive(Debug, Clone, Serialize)]
pub struct RowPattern {
    /// What the pattern is.
    pub kind: RowPatternKind,
    /// From its first token to its last (a quantifier included).
    pub span: Span,
}

/// The forms of a row pattern.
#[derive(Debug, Clone, Serialize)]
pub enum RowPatternKind {
    /// A pattern variable (`A`, `` `price up` ``).
    Variable(Ident),
    /// Patterns one after the other (`A B C`): Calcite's `PATTERN_CONCAT`.
    Sequence(Vec<RowPattern>),
    /// `A | B`: Calcite's `PATTERN_ALTER`.
    Alternation(Vec<RowPattern>),
    /// `( pattern )`.
    Group(Box<RowPattern>),
    /// `PERMUTE(A, B, ...)`.
    Permute(Vec<RowPattern>),
    /// `{- pattern -}`: rows matched but left out of the output.
    Exclusion(Box<RowPattern>),
    /// A pattern with a quantifier (`B+`, `(A B)*`, `C{2,}?`).
    Quantified {
        /// What is repeated.
        pattern: Box<RowPattern>,
        /// How often.
        quantifier: Quantifier,
    },
}

/// A quantifier: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` or `{,m}`, each optionally followed by
/// `?` (reluctant).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Quantifier {
    /// The least number of rows: 0 for `*` and `?`, 1 for `+`, `n` for `{n...}`; `None` for
    /// `{,m}` (Calcite's -1). Numbers beyond `u64` saturate.
    pub min: Option<u64>,
    /// The most: 1 for `?`, `m` for `{...m}`, `n` for `{n}`; `None` when unbounded.
    pub max: Option<u64>,
    /// A `?` was written after it.
    pub reluctant_mark: bool,
    /// The quantifier, its `?` included.
    pub span: Span,
}

impl Quantifier {
    /// Whether Calcite keeps the quantifier reluctant: a `?` after it, on a quantifier whose
    /// least and most differ (Calcite's `PatternFactor` drops the `?` of `{n}?`).
    pub fn is_reluctant(&self) -> bool {
        self.reluctant_mark && self.min != self.max
    }
}

impl RowPattern {
    /// The pattern variables in written order (those of every branch and group).
    pub fn variables(&self) -> Vec<&Ident> {
        let mut out = Vec::new();
        // A stack, not recursion: patterns may nest deep.
        let mut stack = vec![self];
        while let Some(p) = stack.pop() {
            match &p.kind {
                RowPatternKind::Variable(v) => out.push(v),
                RowPatternKind::Sequence(items)
                | RowPatternKind::Alternation(items)
                | RowPatternKind::Permute(items) => stack.extend(items.iter().rev()),
                RowPatternKind::Group(inner)
                | RowPatternKind::Exclusion(inner)
                | RowPatternKind::Quantified { pattern: inner, .. } => stack.push(inner),
            }
        }
        out
    }
}
