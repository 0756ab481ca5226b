//! Which functions become programs: the call graph and the inlined size of each
//! function, so that a call chain costs O(n), not O(n²).

use super::ast::{ExprKind, Function, Stmt};
use std::collections::{HashMap, HashSet};

use super::ast;

/// Which functions each defined function calls by name, and at how many places.
type CallGraph = HashMap<String, HashMap<String, usize>>;

pub(super) fn call_graph(file: &ast::File) -> CallGraph {
    let mut out = HashMap::new();
    for f in &file.functions {
        let Some(body) = &f.body else { continue };
        let mut calls = HashMap::new();
        for s in body {
            stmt_calls(s, &mut calls);
        }
        out.insert(f.name.name.clone(), calls);
    }
    out
}

/// The functions of the user's file that become programs of the module: those no other
/// function calls and those tuples name, always; the others (each is inlined where it is
/// called anyway) while the sizes they add once inlined stay within a budget linear in
/// the file's size, so that a chain of calls `f0 → f1 → … → fN` costs O(N), not O(N²).
pub(super) fn programs<'f>(
    file: &'f ast::File,
    graph: &CallGraph,
    sizes: &HashMap<String, usize>,
) -> Vec<&'f Function> {
    let called: HashSet<&str> = graph.values().flat_map(|c| c.keys().map(String::as_str)).collect();
    let named: HashSet<&str> =
        file.tuples.iter().flat_map(|t| t.copies.iter().map(|c| c.1.name.as_str())).collect();
    let total: usize = sizes.values().sum();
    let mut budget = total.saturating_mul(4).saturating_add(100_000);
    let mut memo: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for f in &file.functions {
        if f.body.is_none() || f.in_header {
            continue;
        }
        let name = f.name.name.as_str();
        if called.contains(name) && !named.contains(name) {
            let size = inlined_size(name, graph, sizes, &mut memo, &mut HashSet::new());
            if size > budget {
                continue;
            }
            budget -= size;
        }
        out.push(f);
    }
    out
}

/// The size of `f` with its calls inlined (saturating; a recursive call adds nothing).
fn inlined_size<'g>(
    f: &'g str,
    graph: &'g CallGraph,
    sizes: &HashMap<String, usize>,
    memo: &mut HashMap<&'g str, usize>,
    active: &mut HashSet<&'g str>,
) -> usize {
    if let Some(n) = memo.get(f) {
        return *n;
    }
    if !active.insert(f) {
        return 0;
    }
    let mut n = sizes.get(f).copied().unwrap_or(0);
    if let Some(calls) = graph.get(f) {
        for (g, sites) in calls {
            let m = inlined_size(g, graph, sizes, memo, active);
            n = n.saturating_add(m.saturating_mul(*sites));
        }
    }
    active.remove(f);
    memo.insert(f, n);
    n
}

fn stmt_calls(s: &Stmt, out: &mut HashMap<String, usize>) {
    // Expressions without recursion (operator chains may be long).
    let mut exprs = Stmt::exprs_of([s]);
    while let Some(e) = exprs.pop() {
        match &e.kind {
            ExprKind::Call(f, _) => *out.entry(f.name.clone()).or_default() += 1,
            ExprKind::StmtExpr(ss) => exprs.extend(Stmt::exprs_of(ss)),
            _ => {}
        }
        exprs.extend(e.children());
    }
}

/// Per function of the user's file that is recursive: its summary lowering for mutual
/// summaries (`lower::summary`), or why it has none (mutual recursion stays unfolded).
pub(super) fn summaries(
    file: &ast::File,
    graph: &CallGraph,
    cx: &super::lower::Context,
) -> std::collections::BTreeMap<String, Result<crate::ir::c::Summary, String>> {
    let mut out = std::collections::BTreeMap::new();
    for f in &file.functions {
        let name = f.name.name.as_str();
        if f.body.is_none() || f.in_header || cx.broken.contains(name) {
            continue;
        }
        let direct = graph.get(name).is_some_and(|c| c.contains_key(name));
        let summary = match (mutual_cycle(name, graph), direct) {
            (Some(path), _) => Err(format!(
                "`{name}` is mutually recursive ({}): its calls stay unfolded",
                path.join(" → ")
            )),
            (None, true) => super::lower::summary(cx, f),
            (None, false) => continue,
        };
        out.insert(name.to_string(), summary);
    }
    out
}

/// A chain of calls `f → g → … → f` through another function, if `f` is on one.
fn mutual_cycle(f: &str, graph: &CallGraph) -> Option<Vec<String>> {
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut queue: std::collections::VecDeque<&str> = std::collections::VecDeque::new();
    for g in graph.get(f)?.keys().filter(|g| *g != f && graph.contains_key(*g)) {
        parent.insert(g, f);
        queue.push_back(g);
    }
    while let Some(g) = queue.pop_front() {
        for h in graph.get(g).into_iter().flat_map(|c| c.keys()) {
            if h == f {
                let mut back = Vec::new();
                let mut at = g;
                while at != f {
                    back.push(at.to_string());
                    at = parent[at];
                }
                back.reverse();
                let mut path = vec![f.to_string()];
                path.extend(back);
                path.push(f.to_string());
                return Some(path);
            }
            if graph.contains_key(h.as_str()) && !parent.contains_key(h.as_str()) {
                parent.insert(h, g);
                queue.push_back(h);
            }
        }
    }
    None
}
