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
use std::collections::HashMap;
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

/// Names interned as numbers: the summaries of a large project share most of their names
/// (the tables of a domain, the words before `(`), so each is kept once.
#[derive(Debug, Default, Clone)]
pub struct Names {
    ids: foldhash::HashMap<CompactString, u32>,
    list: Vec<CompactString>,
}

impl Names {
    /// The number of `name`, given on its first sight.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.list.len() as u32;
        let name = CompactString::from(name);
        self.list.push(name.clone());
        self.ids.insert(name, id);
        id
    }
    /// The name numbered `id`.
    pub fn name(&self, id: u32) -> &str {
        self.list.get(id as usize).map_or("", |n| n.as_str())
    }
    /// How many names there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// A [`Summary`] with its names interned ([`Names`]): one allocation a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Compact {
    /// [`Summary::global`].
    pub global: bool,
    /// Where `ids` ends each list: defs, uses, fundefs (calls run to the end).
    ends: [u32; 3],
    /// The names of defs, uses, fundefs and calls, in that order.
    ids: Box<[u32]>,
}

impl Compact {
    /// Interns `summary`.
    pub fn new(summary: &Summary, names: &mut Names) -> Compact {
        let mut ids = Vec::with_capacity(
            summary.defs.len() + summary.uses.len() + summary.fundefs.len() + summary.calls.len(),
        );
        let mut ends = [0u32; 3];
        for (k, list) in [
            &summary.defs,
            &summary.uses,
            &summary.fundefs,
            &summary.calls,
        ]
        .into_iter()
        .enumerate()
        {
            ids.extend(list.iter().map(|n| names.intern(n)));
            if k < 3 {
                ends[k] = ids.len() as u32;
            }
        }
        Compact {
            global: summary.global,
            ends,
            ids: ids.into_boxed_slice(),
        }
    }
    /// Builds one from its lists of names, each interned.
    pub fn from_lists(
        global: bool,
        lists: [&mut dyn Iterator<Item = &str>; 4],
        names: &mut Names,
    ) -> Compact {
        let mut ids = Vec::new();
        let mut ends = [0u32; 3];
        for (k, list) in lists.into_iter().enumerate() {
            ids.extend(list.map(|n| names.intern(n)));
            if k < 3 {
                ends[k] = ids.len() as u32;
            }
        }
        Compact {
            global,
            ends,
            ids: ids.into_boxed_slice(),
        }
    }
    /// Builds one from its names' numbers (`ids`: defs, uses, fundefs and calls, in that
    /// order; `ends`: where the first three lists end).
    pub fn from_ids(global: bool, ends: [u32; 3], ids: &[u32]) -> Compact {
        let len = ids.len() as u32;
        let ends = ends.map(|e| e.min(len));
        Compact {
            global,
            ends,
            ids: ids.into(),
        }
    }
    fn part(&self, k: usize) -> &[u32] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        let end = if k < 3 {
            self.ends[k] as usize
        } else {
            self.ids.len()
        };
        self.ids.get(start..end).unwrap_or_default()
    }
    /// The tables, views and materialized tables the file creates.
    pub fn defs(&self) -> &[u32] {
        self.part(0)
    }
    /// The names it uses without creating them.
    pub fn uses(&self) -> &[u32] {
        self.part(1)
    }
    /// The functions it creates, changes or drops.
    pub fn fundefs(&self) -> &[u32] {
        self.part(2)
    }
    /// The words written before `(`.
    pub fn calls(&self) -> &[u32] {
        self.part(3)
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
    let mut names = Names::default();
    let compact: Vec<Compact> = summaries
        .iter()
        .map(|s| Compact::new(s, &mut names))
        .collect();
    let graph = Graph::new(&compact, history, names.len());
    let mut walk = graph.walker();
    let mut seeds: Vec<usize> = Vec::new();
    for (i, s) in compact.iter().enumerate() {
        if checked.get(i).copied().unwrap_or(false) || s.global {
            seeds.push(graph.unit_of[i]);
        }
    }
    let mut out = vec![false; compact.len()];
    for u in walk.closure(&seeds, usize::MAX).unwrap_or_default() {
        for &i in &graph.units[u] {
            out[i] = true;
        }
    }
    out
}

/// The units of a project (a script alone, a history whole) and what links them, as
/// [`needed`] follows it: built once, then walked from any units.
#[derive(Debug)]
pub struct Graph<'a> {
    summaries: &'a [Compact],
    /// The unit of each file.
    pub unit_of: Vec<usize>,
    /// The files of each unit, in order.
    pub units: Vec<Vec<usize>>,
    is_history: Vec<bool>,
    by_def: Vec<Vec<u32>>,
    by_fundef: Vec<Vec<u32>>,
    script_users: Vec<Vec<u32>>,
    history_names: Vec<Vec<u32>>,
    script_defs: Vec<u32>,
    /// The units of the files that every run needs ([`Summary::global`]).
    pub global: Vec<usize>,
}

impl<'a> Graph<'a> {
    /// The graph of `summaries` (names numbered below `names`); `history` as [`needed`] takes it.
    pub fn new(summaries: &'a [Compact], history: &[Option<u32>], names: usize) -> Graph<'a> {
        let n = summaries.len();
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
        let mut by_def = vec![Vec::new(); names];
        let mut by_fundef = vec![Vec::new(); names];
        let mut script_users = vec![Vec::new(); names];
        let mut history_names = vec![Vec::new(); names];
        // How many scripts create each name (a name two scripts create can be defined twice
        // differently: its users are told together).
        let mut script_defs = vec![0u32; names];
        let mut global = Vec::new();
        for (i, s) in summaries.iter().enumerate() {
            let u = unit_of[i] as u32;
            let history = is_history[u as usize];
            if s.global {
                global.push(u as usize);
            }
            for &d in s.defs() {
                by_def[d as usize].push(u);
                if history {
                    history_names[d as usize].push(u);
                } else {
                    script_defs[d as usize] += 1;
                }
            }
            for &f in s.fundefs() {
                by_fundef[f as usize].push(u);
            }
            for &x in s.uses() {
                if history {
                    history_names[x as usize].push(u);
                } else {
                    script_users[x as usize].push(u);
                }
            }
        }
        for list in [
            &mut by_def,
            &mut by_fundef,
            &mut script_users,
            &mut history_names,
        ] {
            for l in list.iter_mut() {
                l.dedup();
            }
        }
        global.dedup();
        Graph {
            summaries,
            unit_of,
            units,
            is_history,
            by_def,
            by_fundef,
            script_users,
            history_names,
            script_defs,
            global,
        }
    }

    /// Whether unit `u` is a history.
    pub fn is_history(&self, u: usize) -> bool {
        self.is_history[u]
    }

    /// The connected components of the graph, its links taken both ways: the component of
    /// each unit, numbered from 0 in the order of their first unit. A component holds every
    /// unit that [`Walker::closure`] reaches from any of its units. Linear in the summaries:
    /// each name's list of units is joined once.
    pub fn components(&self) -> Vec<u32> {
        let mut sets = UnionFind::new(self.units.len());
        // Bits per name: its users' targets, its definers' histories, its functions joined.
        let mut joined = vec![0u8; self.by_def.len()];
        let mut join = |sets: &mut UnionFind, u: u32, list: &[u32], name: usize, bit: u8| {
            let Some(&first) = list.first() else {
                return;
            };
            if joined[name] & bit == 0 {
                joined[name] |= bit;
                for &v in &list[1..] {
                    sets.union(first, v);
                }
            }
            sets.union(u, first);
        };
        for (i, s) in self.summaries.iter().enumerate() {
            let u = self.unit_of[i] as u32;
            for &x in s.uses() {
                let x = x as usize;
                join(&mut sets, u, &self.by_def[x], x, 1);
                join(&mut sets, u, &self.history_names[x], x, 2);
                if self.script_defs[x] > 1 {
                    join(&mut sets, u, &self.script_users[x], x, 4);
                }
            }
            for &d in s.defs() {
                join(&mut sets, u, &self.history_names[d as usize], d as usize, 2);
            }
            for &c in s.calls() {
                join(&mut sets, u, &self.by_fundef[c as usize], c as usize, 8);
            }
        }
        let mut number = vec![u32::MAX; self.units.len()];
        let mut next = 0u32;
        (0..self.units.len() as u32)
            .map(|u| {
                let root = sets.find(u) as usize;
                if number[root] == u32::MAX {
                    number[root] = next;
                    next += 1;
                }
                number[root]
            })
            .collect()
    }

    /// A walker of the graph (its marks reused from walk to walk).
    pub fn walker(&self) -> Walker<'_, 'a> {
        Walker {
            graph: self,
            stamp: 0,
            unit_seen: vec![0; self.units.len()],
            uses_seen: vec![0; self.by_def.len()],
            defs_seen: vec![0; self.by_def.len()],
            calls_seen: vec![0; self.by_def.len()],
        }
    }
}

/// Disjoint sets of units (path halving, no recursion).
struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }
    fn find(&mut self, mut a: u32) -> u32 {
        while self.parent[a as usize] != a {
            let grand = self.parent[self.parent[a as usize] as usize];
            self.parent[a as usize] = grand;
            a = grand;
        }
        a
    }
    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            // The smaller root under the larger: no long chains for lists joined in order.
            let (low, high) = if a < b { (a, b) } else { (b, a) };
            self.parent[low as usize] = high;
        }
    }
}

/// Walks a [`Graph`]: the units reached from some units.
#[derive(Debug)]
pub struct Walker<'g, 'a> {
    graph: &'g Graph<'a>,
    stamp: u32,
    unit_seen: Vec<u32>,
    uses_seen: Vec<u32>,
    defs_seen: Vec<u32>,
    calls_seen: Vec<u32>,
}

impl Walker<'_, '_> {
    /// The units reached from `from` (themselves included, in the order reached), or `None`
    /// when there are more than `limit`.
    pub fn closure(&mut self, from: &[usize], limit: usize) -> Option<Vec<usize>> {
        self.closure_known(from, limit, &[])
    }

    /// [`Walker::closure`], with the closures of some units known: `known[u]`, when there is
    /// one, is the closure of unit `u` alone (`None`: more than `limit` units), taken whole
    /// instead of walked again. Every link goes from one file to another, so the closure of
    /// some units is the union of their closures: a unit's closure reaches nothing outside it.
    pub fn closure_known(
        &mut self,
        from: &[usize],
        limit: usize,
        known: &[Option<Option<Vec<usize>>>],
    ) -> Option<Vec<usize>> {
        self.stamp += 1;
        let stamp = self.stamp;
        let g = self.graph;
        let mut out = Vec::new();
        let mut queue: Vec<usize> = from.to_vec();
        let mark = |seen: &mut Vec<u32>, at: u32| {
            let slot = &mut seen[at as usize];
            let fresh = *slot != stamp;
            *slot = stamp;
            fresh
        };
        while let Some(u) = queue.pop() {
            if !mark(&mut self.unit_seen, u as u32) {
                continue;
            }
            out.push(u);
            if out.len() > limit {
                return None;
            }
            if let Some(whole) = known.get(u).and_then(Option::as_ref) {
                for &v in whole.as_ref()? {
                    if mark(&mut self.unit_seen, v as u32) {
                        out.push(v);
                        if out.len() > limit {
                            return None;
                        }
                    }
                }
                continue;
            }
            for &i in &g.units[u] {
                let s = &g.summaries[i];
                for &x in s.uses() {
                    if mark(&mut self.uses_seen, x) {
                        let x = x as usize;
                        queue.extend(g.by_def[x].iter().map(|&u| u as usize));
                        queue.extend(g.history_names[x].iter().map(|&u| u as usize));
                        if g.script_defs[x] > 1 {
                            queue.extend(g.script_users[x].iter().map(|&u| u as usize));
                        }
                    }
                }
                for &d in s.defs() {
                    if mark(&mut self.defs_seen, d) {
                        queue.extend(g.history_names[d as usize].iter().map(|&u| u as usize));
                    }
                }
                for &c in s.calls() {
                    if mark(&mut self.calls_seen, c) {
                        queue.extend(g.by_fundef[c as usize].iter().map(|&u| u as usize));
                    }
                }
            }
        }
        Some(out)
    }
}
