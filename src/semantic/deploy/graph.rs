//! The graph of a project's scripts for `catalog: auto` and `catalog: persistent`: which
//! scripts need which through the names they create and use, its strongly connected
//! components (Tarjan's algorithm, without recursion), the deployment order, and the problem
//! of a cycle.

use super::names::ScriptNames;
use crate::semantic::catalog::{Catalog, CatalogObject, Origin};
use crate::semantic::names::QualifiedName;
use crate::semantic::problems::{CycleStep, Found, Problem};
use crate::source::FileId;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// A name that some scripts create and other scripts use.
pub(super) struct Exported {
    /// The scripts that create it (indices into the plan's scripts, in order).
    pub(super) creators: Vec<u32>,
    /// Whether the creators are only those of one folder, the nearest to the users (then the
    /// users see the definition in a view of their own, [`Shared::nearer`]).
    pub(super) nearest: bool,
    /// The scripts that use it, with the index of the use in their [`ScriptNames::uses`].
    pub(super) users: Vec<(u32, usize)>,
}

/// Which scripts need which, through the names they share: node `i < scripts` is the plan's
/// script `i`, node `scripts + k` the exported name `k`. A script needs the names it uses that
/// other scripts create (`deps[i]`), a name needs the scripts that create it. Going through
/// the names keeps the graph as large as the uses and creations, however many scripts create
/// or use one name.
pub(super) struct Graph {
    pub(super) scripts: usize,
    pub(super) deps: Vec<Vec<u32>>,
    /// The names that some scripts create and others use, in order of their first use.
    pub(super) exported: Vec<(QualifiedName, Exported)>,
}

impl Graph {
    /// The graph of the scripts' names; names of the persistent catalog are the histories'
    /// (a script that creates one again gets "already exists"), not edges.
    pub(super) fn new(names: &[ScriptNames], folders: &[&Path], persistent: &Catalog) -> Graph {
        let scripts = names.len();
        let mut creators: foldhash::HashMap<&QualifiedName, Vec<u32>> = Default::default();
        // The creators of each name by the folder that holds them.
        let mut by_folder: foldhash::HashMap<(&QualifiedName, &Path), Vec<u32>> =
            Default::default();
        for (i, n) in names.iter().enumerate() {
            for name in &n.creates {
                if persistent.get(name).is_none() {
                    creators.entry(name).or_default().push(i as u32);
                    by_folder
                        .entry((name, folders[i]))
                        .or_default()
                        .push(i as u32);
                }
            }
        }
        let mut deps: Vec<Vec<u32>> = vec![Vec::new(); scripts];
        let mut exported: Vec<(QualifiedName, Exported)> = Vec::new();
        if creators.is_empty() {
            return Graph {
                scripts,
                deps,
                exported,
            };
        }
        let mut at: foldhash::HashMap<(&QualifiedName, Option<&Path>), usize> = Default::default();
        for (i, n) in names.iter().enumerate() {
            for (k, u) in n.uses.iter().enumerate() {
                let Some(all) = creators.get(&u.name) else {
                    continue;
                };
                // The creators nearest to the script: those of the deepest folder, among its
                // own and its ancestors, that holds any; else all of them.
                let nearest = folders[i]
                    .ancestors()
                    .find_map(|f| by_folder.get(&(&u.name, f)).map(|by| (f, by)));
                let (folder, by) = match nearest {
                    Some((f, by)) if by.len() < all.len() => (Some(f), by),
                    _ => (None, all),
                };
                let slot = *at.entry((&u.name, folder)).or_insert_with(|| {
                    exported.push((
                        u.name.clone(),
                        Exported {
                            creators: by.clone(),
                            nearest: folder.is_some(),
                            users: Vec::new(),
                        },
                    ));
                    exported.len() - 1
                });
                exported[slot].1.users.push((i as u32, k));
                // A script uses each name once (`uses` holds first uses).
                deps[i].push((scripts + slot) as u32);
            }
        }
        deps.extend(exported.iter().map(|(_, e)| e.creators.clone()));
        Graph {
            scripts,
            deps,
            exported,
        }
    }

    /// The definitions script `i` sees from the creators nearest to it (`near`, by exported
    /// name), sorted by name.
    pub(super) fn nearer(
        &self,
        i: u32,
        near: &[Option<Arc<CatalogObject>>],
    ) -> Vec<Arc<CatalogObject>> {
        let mut out: Vec<Arc<CatalogObject>> = self.deps[i as usize]
            .iter()
            .filter_map(|&v| near.get(v as usize - self.scripts).cloned().flatten())
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// For each script, the names it exports (creates and another script uses), in the
    /// order of [`Graph::exported`], with their index there.
    pub(super) fn exports(&self, scripts: usize) -> Vec<Vec<(usize, QualifiedName)>> {
        let mut out: Vec<Vec<(usize, QualifiedName)>> = vec![Vec::new(); scripts];
        for (k, (name, e)) in self.exported.iter().enumerate() {
            for &c in &e.creators {
                out[c as usize].push((k, name.clone()));
            }
        }
        out
    }
}

/// The strongly connected components of `deps`, each sorted, every component after the
/// components it needs (Tarjan's algorithm with an explicit stack: no recursion, however
/// long a chain of scripts).
pub(super) fn components(deps: &[Vec<u32>]) -> Vec<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    let n = deps.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut calls: Vec<(u32, usize)> = Vec::new();
    let mut out: Vec<Vec<u32>> = Vec::new();
    let mut next = 0u32;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        calls.push((root as u32, 0));
        while let Some(&(v, edge)) = calls.last() {
            let v = v as usize;
            if let Some(&w) = deps[v].get(edge) {
                if let Some(top) = calls.last_mut() {
                    top.1 += 1;
                }
                let w = w as usize;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    calls.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                let parent = parent as usize;
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    component.push(w);
                    if w as usize == v {
                        break;
                    }
                }
                component.sort_unstable();
                out.push(component);
            }
        }
    }
    out
}

/// The scripts (the nodes below `scripts`) in deployment order: a component after the
/// components it needs; among those ready, names first (they only pass on that their creators
/// ran), then the component with the first script in file order; within a component, file
/// order.
pub(super) fn deployment_order(
    deps: &[Vec<u32>],
    components: &[Vec<u32>],
    scripts: usize,
) -> Vec<u32> {
    let mut component_of = vec![0usize; deps.len()];
    for (k, c) in components.iter().enumerate() {
        for &v in c {
            component_of[v as usize] = k;
        }
    }
    let mut waiting = vec![0usize; components.len()];
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); components.len()];
    for (k, c) in components.iter().enumerate() {
        let mut needs: Vec<usize> = c
            .iter()
            .flat_map(|&v| deps[v as usize].iter().map(|&w| component_of[w as usize]))
            .filter(|&other| other != k)
            .collect();
        needs.sort_unstable();
        needs.dedup();
        waiting[k] = needs.len();
        for other in needs {
            dependents[other].push(k);
        }
    }
    // Members are sorted: a component holds a script when its first member is one.
    let key = |k: usize| match components[k].first() {
        Some(&v) if (v as usize) < scripts => v + 1,
        _ => 0,
    };
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<(u32, usize)>> = (0..components
        .len())
        .filter(|&k| waiting[k] == 0)
        .map(|k| std::cmp::Reverse((key(k), k)))
        .collect();
    let mut order = Vec::with_capacity(scripts);
    while let Some(std::cmp::Reverse((_, k))) = ready.pop() {
        order.extend(components[k].iter().filter(|&&v| (v as usize) < scripts));
        for &d in &dependents[k] {
            waiting[d] -= 1;
            if waiting[d] == 0 {
                ready.push(std::cmp::Reverse((key(d), d)));
            }
        }
    }
    order
}

/// The problem of a cycle: from the component's first script, a shortest path of uses back to
/// it (breadth first, inside the component).
pub(super) fn cycle(
    scripts: &[FileId],
    names: &[ScriptNames],
    graph: &Graph,
    component: &[u32],
) -> Found {
    let n = graph.scripts as u32;
    let start = component[0];
    let inside = |v: u32| component.binary_search(&v).is_ok();
    // The scripts a script needs inside the component, through which name.
    let next = |v: u32| {
        graph.deps[v as usize]
            .iter()
            .copied()
            .filter(move |&x| inside(x))
            .flat_map(move |x| {
                graph.deps[x as usize]
                    .iter()
                    .copied()
                    .filter(move |&w| inside(w))
                    .map(move |w| (w, x - n))
            })
    };
    let mut parent: HashMap<u32, (u32, u32)> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut last = (start, 0);
    'search: while let Some(v) = queue.pop_front() {
        for (w, name) in next(v) {
            if w == start {
                last = (v, name);
                break 'search;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                e.insert((v, name));
                queue.push_back(w);
            }
        }
    }
    // The path back from `last`: (user, the name it uses, the script that creates it).
    let mut hops = vec![(last.0, last.1, start)];
    let mut at = last.0;
    while let Some(&(p, name)) = parent.get(&at) {
        hops.push((p, name, at));
        at = p;
    }
    hops.reverse();
    let mut steps = Vec::with_capacity(hops.len());
    let mut statement = None;
    for (user, name, creator) in hops {
        let qualified = &graph.exported[name as usize].0;
        let (u, c) = (&names[user as usize], &names[creator as usize]);
        let Some(used) = u.uses.iter().find(|x| x.name == *qualified) else {
            continue;
        };
        statement.get_or_insert(used.statement);
        let at = c.creates.binary_search(qualified).unwrap_or(0);
        steps.push(CycleStep {
            name: qualified.clone(),
            used: Origin {
                file: scripts[user as usize],
                span: used.span,
            },
            created: Origin {
                file: scripts[creator as usize],
                span: c.created_at.get(at).copied().unwrap_or(used.span),
            },
        });
    }
    let statement = statement.unwrap_or_default();
    let first = steps.first().map(|s| s.used);
    Found {
        file: first.map_or(scripts[start as usize], |o| o.file),
        statement,
        problem: Problem::DeploymentCycle {
            span: first.map_or(statement, |o| o.span),
            steps,
        },
        diff: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::deploy::names;
    use std::path::PathBuf;

    #[test]
    fn components_come_after_what_they_need() {
        // 0 needs 1; 1 and 2 need each other; 3 needs 0.
        let deps = vec![vec![1], vec![2], vec![1], vec![0]];
        let c = components(&deps);
        assert_eq!(c, vec![vec![1, 2], vec![0], vec![3]]);
        assert_eq!(deployment_order(&deps, &c, 4), vec![1, 2, 0, 3]);
    }

    #[test]
    fn independent_scripts_keep_file_order() {
        let deps = vec![vec![], vec![3], vec![], vec![]];
        let c = components(&deps);
        assert_eq!(deployment_order(&deps, &c, 4), vec![0, 2, 3, 1]);
    }

    #[test]
    fn names_pass_on_that_their_creators_ran() {
        // Script 0 uses name 3, which script 1 creates; script 2 needs nothing.
        let deps = vec![vec![3], vec![], vec![], vec![1]];
        let c = components(&deps);
        assert_eq!(deployment_order(&deps, &c, 3), vec![1, 0, 2]);
    }

    /// A script that creates `c.d.t` and one that uses it.
    fn creator_and_user() -> (ScriptNames, ScriptNames) {
        let name = QualifiedName::new("c", "d", "t");
        let creator = ScriptNames {
            creates: vec![name.clone()],
            created_at: vec![Default::default()],
            uses: Vec::new(),
            temporary: Vec::new(),
        };
        let user = ScriptNames {
            creates: Vec::new(),
            created_at: Vec::new(),
            uses: vec![names::Use {
                name,
                span: Default::default(),
                statement: Default::default(),
            }],
            temporary: Vec::new(),
        };
        (creator, user)
    }

    #[test]
    fn one_name_of_many_creators_and_users_keeps_the_graph_linear() {
        let (creator, user) = creator_and_user();
        let n = 20_000;
        let scripts: Vec<ScriptNames> = (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    creator.clone()
                } else {
                    user.clone()
                }
            })
            .collect();
        let graph = Graph::new(
            &scripts,
            &vec![Path::new(""); scripts.len()],
            &Catalog::default(),
        );
        let edges: usize = graph.deps.iter().map(Vec::len).sum();
        assert_eq!(graph.deps.len(), n + 1);
        assert_eq!(edges, n);
        let order = deployment_order(&graph.deps, &components(&graph.deps), n);
        assert_eq!(order.len(), n);
        assert!(order[..n / 2].iter().all(|v| v % 2 == 0), "creators first");
    }

    #[test]
    fn users_see_the_creators_of_their_nearest_folder_and_the_graph_stays_linear() {
        let (creator, user) = creator_and_user();
        // Demo folders d0..d999, each with a creator and a user in a subfolder, and one user
        // at the root, which has no creator in its folder or its ancestors.
        let demos = 1000;
        let paths: Vec<PathBuf> = (0..demos)
            .flat_map(|d| [format!("d{d}"), format!("d{d}/jobs")])
            .chain(["root".to_string()])
            .map(PathBuf::from)
            .collect();
        let folders: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let scripts: Vec<ScriptNames> = (0..folders.len())
            .map(|i| {
                if i % 2 == 0 && i < 2 * demos {
                    creator.clone()
                } else {
                    user.clone()
                }
            })
            .collect();
        let graph = Graph::new(&scripts, &folders, &Catalog::default());
        assert_eq!(graph.exported.len(), demos + 1);
        for (d, (_, e)) in graph.exported[..demos].iter().enumerate() {
            assert!(e.nearest);
            assert_eq!(e.creators, vec![2 * d as u32]);
            assert_eq!(e.users.len(), 1);
            assert_eq!(e.users[0].0, 2 * d as u32 + 1);
        }
        let (_, all) = &graph.exported[demos];
        assert!(!all.nearest);
        assert_eq!(all.creators.len(), demos);
        let edges: usize = graph.deps.iter().map(Vec::len).sum();
        assert_eq!(edges, (demos + 1) + demos + demos);
    }

    #[test]
    fn a_long_chain_does_not_recurse() {
        let n = 200_000u32;
        let deps: Vec<Vec<u32>> = (0..n)
            .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
            .collect();
        let c = components(&deps);
        assert_eq!(c.len(), n as usize);
        assert_eq!(deployment_order(&deps, &c, n as usize)[..3], [0, 1, 2]);
    }
}
