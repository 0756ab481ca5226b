//! Which functions become programs: the call graph and the inlined size of each
//! function, so that a call chain costs O(n), not O(n²).

use super::ast::{ExprKind, Function, Stmt, StmtKind};
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
    let mut exprs: Vec<&ast::Expr> = Vec::new();
    match &s.kind {
        StmtKind::Decl(ds) => {
            for d in ds {
                if let Some(i) = &d.init {
                    init_exprs(i, &mut exprs);
                }
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => exprs.push(e),
        StmtKind::If(c, a, b) => {
            exprs.push(c);
            stmt_calls(a, out);
            if let Some(b) = b {
                stmt_calls(b, out);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
            exprs.push(c);
            stmt_calls(b, out);
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                stmt_calls(i, out);
            }
            exprs.extend(cond.iter().chain(step));
            stmt_calls(body, out);
        }
        StmtKind::Block(ss) => ss.iter().for_each(|s| stmt_calls(s, out)),
        StmtKind::Case(_, _, b) | StmtKind::Default(b) | StmtKind::Label(_, b) => {
            stmt_calls(b, out)
        }
        StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(None)
        | StmtKind::Empty
        | StmtKind::Goto(_)
        | StmtKind::Other(_) => {}
    }
    // Expressions without recursion (operator chains may be long).
    while let Some(e) = exprs.pop() {
        match &e.kind {
            ExprKind::Call(f, args) => {
                *out.entry(f.name.clone()).or_default() += 1;
                exprs.extend(args);
            }
            ExprKind::CallPtr(f, args) => {
                exprs.push(f);
                exprs.extend(args);
            }
            ExprKind::Unary(_, a)
            | ExprKind::Cast(_, a)
            | ExprKind::SizeofExpr(a)
            | ExprKind::Member { base: a, .. }
            | ExprKind::IncDec { arg: a, .. } => exprs.push(a),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Comma(a, b) => {
                exprs.push(a);
                exprs.push(b);
            }
            ExprKind::Cond(a, b, c) => {
                exprs.push(a);
                exprs.push(b);
                exprs.push(c);
            }
            ExprKind::Quant { body, .. } => exprs.push(body),
            _ => {}
        }
    }
}

fn init_exprs<'a>(i: &'a ast::Init, out: &mut Vec<&'a ast::Expr>) {
    match i {
        ast::Init::Expr(e) => out.push(e),
        ast::Init::List(items, _) => items.iter().for_each(|it| init_exprs(&it.init, out)),
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
