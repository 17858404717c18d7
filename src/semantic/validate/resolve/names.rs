//! Name resolution: an identifier resolved in the scopes of its SELECT and the enclosing ones,
//! qualified names, ROW fields, and the did-you-mean candidates of a miss.

use super::{Col, Lookup, Rel, SelectScope, Walker};
use crate::semantic::functions;
use crate::semantic::types::Kind;
use crate::semantic::validate::{NameProblem, ResolvedColumn};
use crate::source::Span;
use crate::syntax::ast::*;
use compact_str::CompactString;

impl Walker<'_> {
    pub(super) fn identifier(
        &mut self,
        e: &Expr,
        name: &ObjectName,
        scope: &SelectScope,
        outer: &[&SelectScope],
    ) {
        let parts = &name.parts;
        let first = parts[0].as_str();
        if parts.len() == 1 && self.lambda.iter().any(|p| p == first) {
            return;
        }
        // This SELECT's scope, then the enclosing ones, innermost first.
        let scopes = || std::iter::once(scope).chain(outer.iter().rev().copied());
        // A qualified name whose qualifier is a relation: its column, then fields.
        if parts.len() >= 2 {
            for (depth, s) in scopes().enumerate() {
                let Some(r) = s.relation(first) else {
                    continue;
                };
                let rel = &s.rels[r];
                let Some(cols) = &rel.columns else {
                    return;
                };
                let col_name = parts[1].as_str();
                match rel.find(col_name).flatten() {
                    Some(c) => {
                        self.column_path(e, rel, &cols[c], &parts[1..], depth > 0);
                    }
                    None => {
                        let case_match = cols
                            .iter()
                            .find(|c| c.name.eq_ignore_ascii_case(col_name))
                            .map(|c| c.name.to_string());
                        let similar = similar(col_name, cols.iter().map(|c| c.name.as_str()));
                        self.fail(NameProblem::UnknownColumn {
                            span: e.span,
                            name_span: parts[1].span,
                            name: col_name.to_string(),
                            table: Some(first.to_string()),
                            case_match,
                            similar,
                            foreign_system: self.foreign.iter().any(|f| f == col_name),
                        });
                    }
                }
                return;
            }
        }
        // An unqualified column (or a ROW column with fields).
        for (depth, s) in scopes().enumerate() {
            match s.lookup(first) {
                Lookup::Found(r, c) => {
                    let rel = &s.rels[r];
                    // Found only among known columns.
                    let Some(col) = rel.columns.as_ref().and_then(|cols| cols.get(c)) else {
                        return;
                    };
                    if parts.len() >= 2
                        && !matches!(col.ty.as_ref().map(|t| &t.kind), Some(Kind::Row(_)))
                    {
                        // `c.x` with a column `c` that is no ROW: Calcite takes `c` for a
                        // table. Only said when the column's type is known.
                        if col.ty.is_some() && parts.len() == 2 {
                            self.unknown_qualifier(parts[0].span, first, scope, outer);
                        }
                        return;
                    }
                    self.column_path(e, rel, col, parts, depth > 0);
                    return;
                }
                Lookup::Ambiguous(rels) => {
                    self.fail(NameProblem::AmbiguousColumn {
                        span: e.span,
                        name: first.to_string(),
                        tables: rels
                            .iter()
                            .filter_map(|r| s.rels[*r].alias.as_ref().map(|a| a.to_string()))
                            .collect(),
                    });
                    return;
                }
                Lookup::Unknown => return,
                Lookup::Missing => {}
            }
        }
        // Nowhere: a qualified name names an unknown table, a plain one an unknown column.
        if parts.len() >= 3 {
            // `db.t.c` and the like: catalog paths are not modelled.
            return;
        }
        if parts.len() == 2 {
            self.unknown_qualifier(parts[0].span, first, scope, outer);
            return;
        }
        // A function called without parentheses (`CURRENT_CATALOG`, `USER`): Calcite tries
        // such names after columns.
        if functions::lookup(first).is_some_and(|f| f.syntax == functions::Syntax::NoParens) {
            return;
        }
        let all = scopes()
            .flat_map(|s| s.rels.iter())
            .filter_map(|r| r.columns.as_ref())
            .flat_map(|c| c.iter().map(|c| c.name.as_str()));
        let case_match = all
            .clone()
            .find(|c| c.eq_ignore_ascii_case(first))
            .map(str::to_string);
        let similar = similar(first, all);
        self.fail(NameProblem::UnknownColumn {
            span: e.span,
            name_span: parts[0].span,
            name: first.to_string(),
            table: None,
            case_match,
            similar,
            foreign_system: self.foreign.iter().any(|f| f == first),
        });
    }

    fn unknown_qualifier(
        &mut self,
        span: Span,
        name: &str,
        scope: &SelectScope,
        outer: &[&SelectScope],
    ) {
        let case_match = std::iter::once(scope)
            .chain(outer.iter().rev().copied())
            .flat_map(|s| s.rels.iter())
            .filter_map(|r| r.alias.as_deref())
            .find(|a| a.eq_ignore_ascii_case(name))
            .map(str::to_string);
        self.fail(NameProblem::UnknownQualifier {
            span,
            name: name.to_string(),
            case_match,
            star: false,
        });
    }

    /// Records a column and follows the fields of `path` (the column's name first).
    fn column_path(&mut self, e: &Expr, rel: &Rel, col: &Col, path: &[Ident], outer: bool) {
        let mut ty = col.ty.clone();
        let mut written = CompactString::from(col.name.as_str());
        for field in &path[1..] {
            let Some(t) = &ty else {
                return;
            };
            let Kind::Row(fields) = &t.kind else {
                // A field of a non-ROW type: not modelled.
                return;
            };
            let nullable = t.nullable;
            match fields.iter().find(|(n, _)| n == field.as_str()) {
                Some((_, ft)) => {
                    ty = Some(ft.clone().with_nullable(ft.nullable || nullable));
                    written.push('.');
                    written.push_str(field.as_str());
                }
                None => {
                    self.fail(NameProblem::UnknownField {
                        span: e.span,
                        field_span: field.span,
                        path: format!("{written}.{}", field.as_str()),
                        field: field.text.to_string(),
                        table: rel.alias.as_deref().unwrap_or("").to_string(),
                        fields: fields.iter().map(|(n, _)| n.clone()).collect(),
                        case_match: fields
                            .iter()
                            .find(|(n, _)| n.eq_ignore_ascii_case(field.as_str()))
                            .map(|(n, _)| n.clone()),
                    });
                    return;
                }
            }
        }
        self.columns.insert(
            e.span,
            ResolvedColumn {
                relation: rel.alias.clone(),
                table: rel.table.clone(),
                column: written,
                data_type: ty,
                outer,
            },
        );
    }
}

/// Columns close to `name` (edit distance up to 2 for names longer than 3, or equal ignoring
/// case), best first, at most 3.
pub(crate) fn similar<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Vec<String> {
    if name.len() > crate::syntax::MAX_IDENTIFIER_LEN {
        return Vec::new();
    }
    let lower = name.to_lowercase();
    let mut out: Vec<(usize, &str)> = Vec::new();
    for c in candidates {
        if c == name || c.len().abs_diff(name.len()) > 2 {
            continue;
        }
        let d = strsim::levenshtein(&c.to_lowercase(), &lower);
        let d = if d == 0 { 0 } else { d + 1 };
        if (d == 0 || (name.chars().count() > 3 && d <= 3)) && !out.iter().any(|(_, o)| *o == c) {
            out.push((d, c));
        }
    }
    out.sort();
    out.into_iter()
        .take(3)
        .map(|(_, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::similar;

    #[test]
    fn a_name_longer_than_flink_accepts_gets_no_suggestion_and_no_comparison() {
        assert_eq!(
            similar("amount", ["amout", "id"].into_iter()),
            vec!["amout"]
        );
        // Over-long names are compared with nothing (the distance's cost is the product of the
        // lengths): no suggestion, even for a candidate one edit away.
        let long = "a".repeat(crate::syntax::MAX_IDENTIFIER_LEN + 1);
        let near = format!("{long}b");
        assert!(similar(&long, [near.as_str()].into_iter()).is_empty());
    }
}
