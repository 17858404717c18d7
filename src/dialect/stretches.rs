//! The maximal runs of statements of a file that are not Flink SQL, and their names (see the
//! dialect stage's documentation: "Naming a stretch").

use super::*;

/// Whether a signal is a tell that several databases share (see the module documentation):
/// a `NUMBER` column (Oracle, Snowflake), a `::` cast (PostgreSQL, Snowflake and others),
/// `TIMESTAMP_NTZ` (Spark, Snowflake).
fn shared_tell(s: &Signal) -> bool {
    matches!(
        (s.dialect, s.what),
        (Dialect::Oracle, scan::NUMBER_COLUMN)
            | (Dialect::Postgres, "a `::` cast")
            | (Dialect::Spark, "TIMESTAMP_NTZ")
    )
}

/// Names a stretch whose dialects stand on tells several databases share (see the module
/// documentation): with a Snowflake tell, Snowflake alone for those; without a tell of one
/// database, "another database's SQL" rather than two databases it is not.
fn name_shared_tells(
    file: &FileDialect,
    statements: std::ops::Range<usize>,
    points: &[u32; Dialect::COUNT],
    dialects: &mut Vec<Dialect>,
) {
    // The dialects whose every signal in the stretch is a shared tell.
    let only_shared = |d: Dialect| {
        let mut any = false;
        for k in statements.clone() {
            for s in file.signals_of(k).iter().filter(|s| s.dialect == d) {
                if !shared_tell(s) {
                    return false;
                }
                any = true;
            }
        }
        any
    };
    let shared: Vec<Dialect> = dialects
        .iter()
        .copied()
        .filter(|d| {
            matches!(d, Dialect::Oracle | Dialect::Postgres | Dialect::Spark) && only_shared(*d)
        })
        .collect();
    if shared.is_empty() {
        return;
    }
    if points[Dialect::Snowflake.index()] > 0 {
        dialects.retain(|d| !shared.contains(d));
        if !dialects.contains(&Dialect::Snowflake) {
            dialects.insert(0, Dialect::Snowflake);
        }
    } else if dialects.len() > 1
        && dialects
            .iter()
            .all(|d| shared.contains(d) || *d == Dialect::OtherDatabase)
    {
        *dialects = vec![Dialect::OtherDatabase];
    }
}

/// The maximal runs of statements that are not Flink SQL.
pub(super) fn stretches(
    text: &str,
    parsed: &Parsed,
    file: &FileDialect,
    tallies: &[scan::Tally],
) -> Vec<Stretch> {
    let statements = &parsed.script.statements;
    let verdicts = &file.statements;
    let n = verdicts.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if verdicts[i].dialect == Dialect::Flink {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && verdicts[i].dialect != Dialect::Flink {
            i += 1;
        }
        let from = if start == 0 {
            0
        } else {
            statements[start - 1].span.end
        };
        let to = if i == n {
            text.len() as u32
        } else {
            statements[i].span.start
        };
        // Dialects by points (each statement's own dialect counts too).
        let mut points = [0u32; Dialect::COUNT];
        for k in start..i {
            points[verdicts[k].dialect.index()] += 1;
            for d in Dialect::OTHERS {
                points[d.index()] = points[d.index()].saturating_add(tallies[k].other[d.index()]);
            }
        }
        let mut dialects: Vec<Dialect> = Dialect::OTHERS
            .into_iter()
            .filter(|d| (start..i).any(|k| verdicts[k].dialect == *d))
            .collect();
        dialects.sort_by_key(|d| std::cmp::Reverse(points[d.index()]));
        name_shared_tells(file, start..i, &points, &mut dialects);
        // "Another database's SQL" says less than the dialects named beside it.
        if dialects.iter().any(|d| *d != Dialect::OtherDatabase) {
            dialects.retain(|d| *d != Dialect::OtherDatabase);
        }
        let mut signals: Vec<Signal> = Vec::new();
        for k in start..i {
            for s in file.signals_of(k) {
                if s.dialect != Dialect::Flink && !signals.iter().any(|o| o.what == s.what) {
                    signals.push(s.clone());
                }
            }
        }
        signals.sort_by_key(|s| std::cmp::Reverse(s.strength));
        signals.truncate(4);
        let hive_switch = match verdicts[start].how {
            How::HiveDialect { set } => Some(set),
            _ => None,
        };
        out.push(Stretch {
            statements: start..i,
            span: Span {
                start: from,
                end: to.max(from),
            },
            at: first_token(parsed, &statements[start]),
            statements_span: statements[start].span.cover(statements[i - 1].span),
            dialects,
            signals,
            hive_switch,
        });
    }
    out
}
