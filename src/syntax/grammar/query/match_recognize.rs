//! `MATCH_RECOGNIZE ( ... )` after a table reference, and its row pattern.

use crate::syntax::ast::*;
use crate::syntax::keywords::Kw;
use crate::syntax::lexer::TokenKind;
use crate::syntax::parser::{PResult, Parser};

impl Parser<'_> {
    /// `input MATCH_RECOGNIZE ( ... ) [alias]`.
    pub(super) fn match_recognize(&mut self, input: TableRef, start: u32) -> PResult<TableRef> {
        self.expect(Kw::MATCH_RECOGNIZE)?;
        self.expect_kind(TokenKind::LParen, "`(`")?;
        let mut measures = Vec::new();
        let mut partition_by = Vec::new();
        if self.at(Kw::PARTITION) {
            self.bump();
            self.expect(Kw::BY)?;
            partition_by = self.expr_list(TokenKind::RParen)?;
        }
        let mut order_by = Vec::new();
        if self.at(Kw::ORDER) {
            self.bump();
            self.expect(Kw::BY)?;
            order_by = self.order_items()?;
        }
        if self.eat(Kw::MEASURES).is_some() {
            loop {
                let expr = self.expr()?;
                self.expect(Kw::AS)?;
                let name = self.ident("a measure name")?;
                measures.push((expr, name));
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        let mut all_rows = None;
        if self.eat(Kw::ONE).is_some() {
            self.expect(Kw::ROW)?;
            self.expect(Kw::PER)?;
            self.expect(Kw::MATCH)?;
        } else if self.at(Kw::ALL) {
            let all = self.start();
            self.bump();
            self.expect(Kw::ROWS)?;
            self.expect(Kw::PER)?;
            self.expect(Kw::MATCH)?;
            // Calcite's `SHOW EMPTY MATCHES`, `OMIT EMPTY MATCHES` and `WITH UNMATCHED ROWS`
            // are not in Flink's grammar.
            all_rows = Some(self.finish(all));
        }
        if self.eat(Kw::AFTER).is_some() {
            self.expect(Kw::MATCH)?;
            self.expect(Kw::SKIP)?;
            if self.eat(Kw::PAST).is_some() {
                self.expect(Kw::LAST)?;
                self.expect(Kw::ROW)?;
            } else {
                self.expect(Kw::TO)?;
                if self.eat(Kw::NEXT).is_some() {
                    self.expect(Kw::ROW)?;
                } else {
                    if matches!(self.kw(), Kw::FIRST | Kw::LAST) {
                        self.bump();
                    }
                    self.ident("a pattern variable")?;
                }
            }
        }
        self.expect(Kw::PATTERN)?;
        let pattern = self.pattern()?;
        if self.eat(Kw::WITHIN).is_some() {
            self.expr()?;
        }
        let mut subsets = Vec::new();
        if self.eat(Kw::SUBSET).is_some() {
            loop {
                subsets.push(self.ident("a subset name")?);
                self.expect_kind(TokenKind::Eq, "`=`")?;
                self.column_list()?;
                if self.eat_kind(TokenKind::Comma).is_none() {
                    break;
                }
            }
        }
        self.expect(Kw::DEFINE)?;
        let mut define = Vec::new();
        loop {
            let from = self.start();
            let variable = self.ident("a pattern variable")?;
            self.expect(Kw::AS)?;
            let condition = self.expr()?;
            define.push(PatternDefinition {
                variable,
                condition,
                span: self.finish(from),
            });
            if self.eat_kind(TokenKind::Comma).is_none() {
                break;
            }
        }
        self.expect_kind(TokenKind::RParen, "`)` to close MATCH_RECOGNIZE")?;
        let alias = self.opt_table_alias()?;
        Ok(TableRef::MatchRecognize {
            input: Box::new(input),
            order_by,
            measures,
            spec: Box::new(MatchSpec {
                partition_by,
                all_rows,
                pattern,
                subsets,
                define,
            }),
            alias,
            span: self.finish(start),
        })
    }

    /// `PATTERN ( [^] pattern [$] )` (Calcite's `MatchRecognize`: `^` and `$` anchor the
    /// match at the partition's start and end; a `$` is a token of its own only apart from
    /// a name, `B$` being a variable).
    fn pattern(&mut self) -> PResult<RowPattern> {
        self.expect_kind(TokenKind::LParen, "`(`")?;
        self.eat_kind(TokenKind::Caret);
        let pattern = self.pattern_alternation()?;
        if self.at_word("$") {
            self.bump();
        }
        self.expect_kind(TokenKind::RParen, "`)` to close PATTERN")?;
        Ok(pattern)
    }

    /// `term | term ...` (Calcite's `PatternExpression`), one nesting level.
    fn pattern_alternation(&mut self) -> PResult<RowPattern> {
        self.enter()?;
        let result = self.pattern_alternation_inner();
        self.exit();
        result
    }

    fn pattern_alternation_inner(&mut self) -> PResult<RowPattern> {
        let start = self.start();
        let first = self.pattern_sequence()?;
        if !self.at_kind(TokenKind::Pipe) {
            return Ok(first);
        }
        let mut branches = vec![first];
        while self.eat_kind(TokenKind::Pipe).is_some() {
            branches.push(self.pattern_sequence()?);
        }
        Ok(RowPattern {
            kind: RowPatternKind::Alternation(branches),
            span: self.finish(start),
        })
    }

    /// `factor factor ...` (Calcite's `PatternTerm`).
    fn pattern_sequence(&mut self) -> PResult<RowPattern> {
        let start = self.start();
        let mut items = vec![self.pattern_factor()?];
        while self.at_pattern_primary() {
            items.push(self.pattern_factor()?);
        }
        if items.len() == 1 {
            if let Some(only) = items.pop() {
                return Ok(only);
            }
        }
        Ok(RowPattern {
            kind: RowPatternKind::Sequence(items),
            span: self.finish(start),
        })
    }

    /// Whether a pattern primary starts here: a name (not a lone `$`), `(`, `{-` or PERMUTE.
    fn at_pattern_primary(&mut self) -> bool {
        let (tok, next) = self.current_and_next();
        match tok.kind {
            TokenKind::LParen | TokenKind::LBraceMinus => true,
            TokenKind::LBrace => next.kind == TokenKind::Minus,
            TokenKind::Word if self.text_of(tok) == "$" => false,
            _ => self.at_name(),
        }
    }

    /// `primary [quantifier]` (Calcite's `PatternFactor`).
    fn pattern_factor(&mut self) -> PResult<RowPattern> {
        let start = self.start();
        let primary = self.pattern_primary()?;
        let Some(quantifier) = self.pattern_quantifier()? else {
            return Ok(primary);
        };
        Ok(RowPattern {
            kind: RowPatternKind::Quantified {
                pattern: Box::new(primary),
                quantifier,
            },
            span: self.finish(start),
        })
    }

    /// A variable, `( pattern )`, `{- pattern -}` or `PERMUTE(pattern, ...)`.
    fn pattern_primary(&mut self) -> PResult<RowPattern> {
        let start = self.start();
        let (tok, next) = self.current_and_next();
        let kind = match tok.kind {
            TokenKind::LParen => {
                self.bump();
                let inner = self.pattern_alternation()?;
                self.expect_kind(TokenKind::RParen, "`)`")?;
                RowPatternKind::Group(Box::new(inner))
            }
            TokenKind::LBraceMinus => {
                self.bump();
                RowPatternKind::Exclusion(Box::new(self.pattern_exclusion_rest()?))
            }
            TokenKind::LBrace if next.kind == TokenKind::Minus => {
                self.bump();
                self.bump();
                RowPatternKind::Exclusion(Box::new(self.pattern_exclusion_rest()?))
            }
            TokenKind::Word if tok.kw == Kw::PERMUTE && next.kind == TokenKind::LParen => {
                self.bump();
                self.bump();
                let mut items = Vec::new();
                loop {
                    items.push(self.pattern_alternation()?);
                    if self.eat_kind(TokenKind::Comma).is_none() {
                        break;
                    }
                }
                self.expect_kind(TokenKind::RParen, "`)` to close PERMUTE")?;
                RowPatternKind::Permute(items)
            }
            TokenKind::Word if self.text_of(tok) == "$" => {
                return Err(self.expected("a pattern variable"));
            }
            _ => RowPatternKind::Variable(self.ident("a pattern variable")?),
        };
        Ok(RowPattern {
            kind,
            span: self.finish(start),
        })
    }

    /// The pattern of `{- pattern -}` after `{-`, and its closing `-}` (or `-` `}`).
    fn pattern_exclusion_rest(&mut self) -> PResult<RowPattern> {
        let inner = self.pattern_alternation()?;
        if self.eat_kind(TokenKind::MinusRBrace).is_none() {
            self.expect_kind(TokenKind::Minus, "`-}`")?;
            self.expect_kind(TokenKind::RBrace, "`}`")?;
        }
        Ok(inner)
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` or `{,m}`, each with an optional reluctant `?`.
    fn pattern_quantifier(&mut self) -> PResult<Option<Quantifier>> {
        let start = self.start();
        let (tok, next) = self.current_and_next();
        let (min, max) = match tok.kind {
            TokenKind::Star => {
                self.bump();
                (Some(0), None)
            }
            TokenKind::Plus => {
                self.bump();
                (Some(1), None)
            }
            TokenKind::Question => {
                self.bump();
                (Some(0), Some(1))
            }
            TokenKind::LBrace if next.kind != TokenKind::Minus => {
                self.bump();
                let bounds = if self.eat_kind(TokenKind::Comma).is_some() {
                    (None, Some(self.pattern_count()?))
                } else {
                    let n = self.pattern_count()?;
                    if self.eat_kind(TokenKind::Comma).is_none() {
                        (Some(n), Some(n))
                    } else if self.at_kind(TokenKind::RBrace) {
                        (Some(n), None)
                    } else {
                        (Some(n), Some(self.pattern_count()?))
                    }
                };
                self.expect_kind(TokenKind::RBrace, "`}`")?;
                bounds
            }
            _ => return Ok(None),
        };
        let reluctant_mark = self.eat_kind(TokenKind::Question).is_some();
        Ok(Some(Quantifier {
            min,
            max,
            reluctant_mark,
            span: self.finish(start),
        }))
    }

    /// A count of a `{...}` quantifier: an unsigned number (Calcite's `UnsignedNumericLiteral`);
    /// one with a fraction, or beyond `u64`, is `u64::MAX`.
    fn pattern_count(&mut self) -> PResult<u64> {
        let tok = self.current();
        match tok.kind {
            TokenKind::Integer => {
                self.bump();
                Ok(self.text_of(tok).parse().unwrap_or(u64::MAX))
            }
            TokenKind::Decimal => {
                self.bump();
                Ok(u64::MAX)
            }
            _ => Err(self.expected("a number")),
        }
    }
}
