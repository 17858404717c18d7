//! The project's pass of the dialect stage: files of rows written or read whose tables only
//! another dialect's statements of the project create take that dialect ([`across_files`]).

use super::*;

/// One file of a project, as [`across_files`] reads it.
pub struct ProjectFile<'a> {
    /// Its text (a document keeps its own: the offsets of its SQL are the document's).
    pub text: &'a str,
    /// Its parse.
    pub parsed: &'a Parsed,
    /// What [`detect`] (or the configuration) made of it.
    pub dialect: &'a FileDialect,
}

/// Files that hold nothing but rows written or read (`INSERT ... VALUES`, `DELETE FROM`), with
/// no signal of any dialect, whose tables only another dialect's statements of the project
/// create (a PostgreSQL `02_insert_data.sql` beside the `01_create_schema.sql` that creates
/// its tables): they are that dialect's, decided by [`How::Names`]. A file that creates
/// anything, or uses a name a Flink statement creates, keeps its verdict. Returns the new
/// verdicts by index into `files`. Linear in the tokens of the project's statements' heads
/// and of the candidate files.
pub fn across_files(files: &[ProjectFile<'_>]) -> Vec<(usize, FileDialect)> {
    let bounds: Vec<Vec<(usize, usize)>> =
        files.iter().map(|f| statement_bounds(f.parsed)).collect();
    let candidate = |f: &ProjectFile<'_>, b: &[(usize, usize)]| {
        f.dialect.reason == Reason::Detected
            && f.dialect.statements.is_empty()
            && f.dialect.signals.is_empty()
            && !b.is_empty()
            && b.iter().all(|&(lo, hi)| {
                scan::is_dml(f.text, &f.parsed.tokens, lo, hi)
                    && scan::created_name(f.text, &f.parsed.tokens, lo, hi).is_none()
            })
    };
    let candidates: Vec<usize> = (0..files.len())
        .filter(|&i| candidate(&files[i], &bounds[i]))
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    // Who creates each name: a Flink statement (`None`), or the first other dialect's.
    let mut created: std::collections::HashMap<String, Option<Dialect>> =
        std::collections::HashMap::new();
    for (f, b) in files.iter().zip(&bounds) {
        for (k, &(lo, hi)) in b.iter().enumerate() {
            if let Some(span) = scan::created_name(f.text, &f.parsed.tokens, lo, hi) {
                let d = f.dialect.dialect_of(k);
                let entry = created
                    .entry(scan::name_key(f.text, span))
                    .or_insert((d != Dialect::Flink).then_some(d));
                if d == Dialect::Flink {
                    *entry = None;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut used = Vec::new();
    'files: for i in candidates {
        let f = &files[i];
        let mut found: Option<(Dialect, Span)> = None;
        for &(lo, hi) in &bounds[i] {
            used.clear();
            scan::used_names(f.text, &f.parsed.tokens, lo, hi, &mut used);
            for span in &used {
                match created.get(&scan::name_key(f.text, *span)) {
                    Some(None) => continue 'files,
                    Some(Some(d)) => {
                        found = found.or(Some((*d, *span)));
                    }
                    None => {}
                }
            }
        }
        let Some((d, span)) = found else { continue };
        let statements = &f.parsed.script.statements;
        let (Some(first), Some(last)) = (statements.first(), statements.last()) else {
            continue;
        };
        let signal = Signal {
            dialect: d,
            strength: Strength::Medium,
            what: "a table created only by that dialect's statements in other files",
            span,
        };
        out.push((
            i,
            FileDialect {
                statements: statements
                    .iter()
                    .map(|s| StatementDialect {
                        span: s.span,
                        dialect: d,
                        how: How::Names,
                        signals: 0..0,
                    })
                    .collect(),
                signals: vec![signal.clone()],
                stretches: vec![Stretch {
                    statements: 0..statements.len(),
                    span: Span::new(0, f.text.len()),
                    at: first_token(f.parsed, first),
                    statements_span: first.span.cover(last.span),
                    dialects: vec![d],
                    signals: vec![signal],
                    hive_switch: None,
                }],
                reason: Reason::Detected,
            },
        ));
    }
    out
}
