//! What one file needs from the rest of its project: the context index.
//!
//! A run on a few files of a large project (a pre-commit hook on the staged files, an editor's
//! save) reads the rest of the project only for what the checked files can see of it: the
//! objects other scripts create that they use ([`super`]'s deployment model), the histories
//! that build the persistent catalog, the functions other files create. Each file is summed up
//! by the names it creates and uses ([`Summary`], read from its syntax trees; small enough to
//! keep in a cache between runs), and [`needed`] picks, from the summaries alone, the files a
//! run must parse so that the checked files' findings are exactly those of a run over the whole
//! project. The summaries over-approximate (names compared by their last part, case
//! folded); a file whose statements reach beyond names (catalogs, databases, modules, other
//! dialects) is always needed.

use super::names::script_names;
use crate::dialect::{FileDialect, Reason};
use crate::files::FileEntry;
use crate::syntax::ast::{ObjectKind, OtherKind, Statement, StatementKind, UseStatement};
use crate::syntax::lexer::TokenKind;
use compact_str::CompactString;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What a file creates and uses, by name (lower case, the last part of each name), sorted and
/// without repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Whether every run over the project needs the file: it has statements whose effect is
    /// not told by names (catalogs, databases, modules), or statements of another dialect.
    pub global: bool,
    /// The tables, views and materialized tables it creates (`TEMPORARY` ones included).
    pub defs: Vec<CompactString>,
    /// The names it uses without creating or declaring them itself.
    pub uses: Vec<CompactString>,
    /// The functions it creates, changes or drops.
    pub fundefs: Vec<CompactString>,
    /// Every word written just before `(` (the functions it may call).
    pub calls: Vec<CompactString>,
}

/// Sums `file` up. Every statement counts, whatever its detected dialect: the dialect of a
/// script can depend on the project's other files.
pub fn summarize(file: &FileEntry) -> Summary {
    let mut out = Summary::default();
    if file.load_error.is_some() {
        return out;
    }
    let dialect = &file.dialect;
    if !dialect.statements.is_empty() || !dialect.stretches.is_empty() {
        out.global = true;
    }
    let all = FileEntry {
        id: file.id,
        source: file.source.clone(),
        parsed: file.parsed.clone(),
        dialect: Arc::new(FileDialect::flink(Reason::Detected)),
        load_error: None,
        report: file.report,
        base_of: file.base_of,
    };
    let names = script_names(&all);
    let key = |s: &str| CompactString::from(s.to_lowercase());
    out.defs = names
        .creates
        .iter()
        .chain(&names.temporary)
        .map(|n| key(&n.object))
        .collect();
    out.uses = names.uses.iter().map(|u| key(&u.name.object)).collect();
    for s in &file.parsed.script.statements {
        note(s, &mut out);
    }
    let tokens = &file.parsed.tokens;
    let mut last: Option<usize> = None;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            TokenKind::LineComment
            | TokenKind::BlockComment
            | TokenKind::UnterminatedComment
            | TokenKind::TypographicComment
            | TokenKind::HashComment => continue,
            TokenKind::LParen => {
                if let Some(w) = last {
                    let text = file.source.slice(tokens[w].span);
                    let text = match tokens[w].kind {
                        TokenKind::QuotedIdent => text
                            .get(1..text.len().saturating_sub(1))
                            .unwrap_or(text)
                            .replace("``", "`"),
                        _ => text.to_string(),
                    };
                    out.calls.push(key(&text));
                }
            }
            _ => {}
        }
        last = matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent).then_some(i);
    }
    for v in [
        &mut out.defs,
        &mut out.uses,
        &mut out.fundefs,
        &mut out.calls,
    ] {
        v.sort_unstable();
        v.dedup();
    }
    // A name the cache cannot write on one line is not summed up: the file is always read.
    if [&out.defs, &out.uses, &out.fundefs, &out.calls]
        .iter()
        .any(|v| {
            v.iter()
                .any(|n| n.is_empty() || n.contains(char::is_whitespace))
        })
    {
        out.global = true;
    }
    out
}

/// Notes the statements whose effect is not told by table names.
fn note(s: &Statement, out: &mut Summary) {
    match &s.kind {
        StatementKind::Other(o) => match (o.kind, &o.name) {
            (OtherKind::CreateFunction | OtherKind::AlterFunction, Some(n)) => {
                out.fundefs.push(n.last().text.to_lowercase());
            }
            (OtherKind::Show | OtherKind::Describe | OtherKind::ClientCommand, _) => {}
            _ => out.global = true,
        },
        StatementKind::Use(u) => match &**u {
            UseStatement::Database(_) => {}
            UseStatement::Catalog(_) | UseStatement::Modules(_) => out.global = true,
        },
        StatementKind::Drop(d) => match d.object {
            ObjectKind::Table | ObjectKind::View | ObjectKind::MaterializedTable => {}
            ObjectKind::Function => out.fundefs.push(d.name.last().text.to_lowercase()),
            _ => out.global = true,
        },
        StatementKind::StatementSet(set) => set.statements.iter().for_each(|s| note(s, out)),
        StatementKind::Wrapped(w) => note(&w.inner, out),
        _ => {}
    }
}

/// The files a run must read so that the findings of the `checked` files are those of a run
/// over all of them: by index into `summaries`. `history[i]` is the history (any number that
/// tells histories apart) file `i` belongs to, `None` for a script; a history is needed whole
/// or not at all. (Under `catalog: persistent` every script sees every earlier one: the
/// caller reads every file then.)
///
/// A file is needed when it is checked or [`Summary::global`], or when it belongs to a history
/// that is needed, or when (names of the needed files, growing as files are added):
/// - it creates a name a needed file uses, or a function whose name a needed file writes
///   before `(`;
/// - it is a history that creates or uses a name a needed file creates or uses;
/// - it is a script that uses a name a needed file uses and several scripts create (the users
///   of a name defined more than once are told together).
pub fn needed(summaries: &[&Summary], checked: &[bool], history: &[Option<u32>]) -> Vec<bool> {
    let n = summaries.len();
    let mut out = vec![false; n];
    // Units: a script alone, a history whole.
    let mut unit_of = vec![0usize; n];
    let mut units: Vec<Vec<usize>> = Vec::new();
    let mut is_history: Vec<bool> = Vec::new();
    let mut by_history: HashMap<u32, usize> = HashMap::new();
    for (i, unit) in unit_of.iter_mut().enumerate() {
        let u = match history.get(i).copied().flatten() {
            Some(h) => *by_history.entry(h).or_insert_with(|| {
                units.push(Vec::new());
                is_history.push(true);
                units.len() - 1
            }),
            None => {
                units.push(Vec::new());
                is_history.push(false);
                units.len() - 1
            }
        };
        units[u].push(i);
        *unit = u;
    }
    let mut by_def: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_fundef: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut script_users: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut history_names: HashMap<&str, Vec<usize>> = HashMap::new();
    // How many scripts create each name (a name two scripts create can be defined twice
    // differently: its users are told together).
    let mut script_defs: HashMap<&str, usize> = HashMap::new();
    for (i, s) in summaries.iter().enumerate() {
        let u = unit_of[i];
        for d in &s.defs {
            by_def.entry(d).or_default().push(u);
            if is_history[u] {
                history_names.entry(d).or_default().push(u);
            } else {
                *script_defs.entry(d).or_default() += 1;
            }
        }
        for f in &s.fundefs {
            by_fundef.entry(f).or_default().push(u);
        }
        for x in &s.uses {
            if is_history[u] {
                history_names.entry(x).or_default().push(u);
            } else {
                script_users.entry(x).or_default().push(u);
            }
        }
    }
    let mut included = vec![false; units.len()];
    let mut queue: Vec<usize> = Vec::new();
    for (i, s) in summaries.iter().enumerate() {
        if checked.get(i).copied().unwrap_or(false) || s.global {
            queue.push(unit_of[i]);
        }
    }
    let mut uses_seen: HashSet<&str> = HashSet::new();
    let mut defs_seen: HashSet<&str> = HashSet::new();
    let mut calls_seen: HashSet<&str> = HashSet::new();
    let none: Vec<usize> = Vec::new();
    while let Some(u) = queue.pop() {
        if std::mem::replace(&mut included[u], true) {
            continue;
        }
        for &i in &units[u] {
            let s = summaries[i];
            for x in &s.uses {
                if uses_seen.insert(x) {
                    queue.extend(by_def.get(x.as_str()).unwrap_or(&none));
                    queue.extend(history_names.get(x.as_str()).unwrap_or(&none));
                    if script_defs.get(x.as_str()).is_some_and(|&c| c > 1) {
                        queue.extend(script_users.get(x.as_str()).unwrap_or(&none));
                    }
                }
            }
            for d in &s.defs {
                if defs_seen.insert(d) {
                    queue.extend(history_names.get(d.as_str()).unwrap_or(&none));
                }
            }
            for c in &s.calls {
                if calls_seen.insert(c) {
                    queue.extend(by_fundef.get(c.as_str()).unwrap_or(&none));
                }
            }
        }
    }
    for (u, files) in units.iter().enumerate() {
        if included[u] {
            for &i in files {
                out[i] = true;
            }
        }
    }
    out
}
