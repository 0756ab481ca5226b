//! The ∃ strategy of one obligation (see the parent module): candidate terms for each
//! parameter read off the obligation's equalities, checked by Z3 with the candidates
//! substituted, and a case split over them where no single candidate holds everywhere.

use super::{declarable, STRATEGY_BUDGET, STRATEGY_SPENT};
use crate::cancel::Cancel;
use crate::smt::session::Sat;
use std::collections::HashSet;
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic};

/// How long one strategy candidate may take to check.
const CANDIDATE_LIMIT: Duration = Duration::from_millis(500);
/// Candidate assignments checked per obligation.
const MAX_CANDIDATE_CHECKS: usize = 6;

/// Terms for every parameter (over the ∀ values only) under which `phi` is valid, as
/// Z3 confirms; `None` when the candidates read off `phi` do not make it valid.
/// `cases`: no innermost ∀ values, so a case split over the candidates may be tried.
pub(super) fn find_strategy(
    phi: &Bool,
    params: &[Dynamic],
    outer: &[Dynamic],
    cases: bool,
) -> Option<Vec<Dynamic>> {
    if STRATEGY_SPENT.with(|s| s.get()) >= STRATEGY_BUDGET {
        return None;
    }
    let start = std::time::Instant::now();
    let left = STRATEGY_BUDGET.saturating_sub(STRATEGY_SPENT.with(|s| s.get()));
    let found = search_strategy(phi, params, outer, cases, start + left);
    STRATEGY_SPENT.with(|s| s.set(s.get() + start.elapsed()));
    found
}

fn search_strategy(
    phi: &Bool,
    params: &[Dynamic],
    outer: &[Dynamic],
    cases: bool,
    deadline: std::time::Instant,
) -> Option<Vec<Dynamic>> {
    let param_set: HashSet<&Dynamic> = params.iter().collect();
    let outer_set: HashSet<&Dynamic> = outer.iter().collect();
    let mut candidates: Vec<Vec<Dynamic>> = vec![Vec::new(); params.len()];
    collect_candidates(phi, params, &mut candidates);
    for (i, p) in params.iter().enumerate() {
        if p.as_bool().is_some() {
            candidates[i].push(Dynamic::from_ast(&Bool::from_bool(true)));
            candidates[i].push(Dynamic::from_ast(&Bool::from_bool(false)));
        } else if let Some(x) = p.as_int() {
            // Last resorts, for a value only a case split tells (`mode := ite(…, 1, 0)`).
            for k in [0, 1] {
                let lit = Dynamic::from_ast(&z3::ast::Int::from_i64(k));
                if !candidates[i].contains(&lit) && x.get_sort() == lit.get_sort() {
                    candidates[i].push(lit);
                }
            }
        }
        if candidates[i].is_empty() {
            return None;
        }
    }
    // Which candidate each parameter tries; parameters are resolved in order, each
    // candidate may mention parameters resolved before it.
    let mut combos: Vec<Vec<Dynamic>> = Vec::new();
    let mut choice = vec![0usize; params.len()];
    while combos.len() < MAX_CASES {
        if let Some(terms) = resolve(params, &candidates, &choice, &param_set, &outer_set) {
            combos.push(terms);
        }
        // Next combination: advance the first parameter with alternatives left.
        let Some(next) = (0..params.len()).find(|&i| choice[i] + 1 < candidates[i].len()) else {
            break;
        };
        choice[next] += 1;
        for c in choice.iter_mut().take(next) {
            *c = 0;
        }
    }
    let instance = |terms: &[Dynamic]| {
        let subst: Vec<(&Dynamic, &Dynamic)> = params.iter().zip(terms).collect();
        phi.substitute(&subst)
    };
    for terms in combos.iter().take(MAX_CANDIDATE_CHECKS) {
        if std::time::Instant::now() >= deadline {
            return None;
        }
        if valid(&instance(terms)) {
            return Some(terms.clone());
        }
    }
    if !cases || combos.len() < 2 {
        return None;
    }
    case_split(&combos, &instance, params, deadline)
}

/// Whether `phi` is valid (Z3 within [`CANDIDATE_LIMIT`]).
fn valid(phi: &Bool) -> bool {
    let solver = crate::smt::session::solver();
    solver.assert(phi.not());
    crate::smt::session::check(&solver, &[], &Cancel::new(), Some(CANDIDATE_LIMIT)) == Sat::Unsat
}

/// Candidate combinations considered for one obligation's strategy.
const MAX_CASES: usize = 16;

/// No one candidate combination serves every ∀ value, but some serves each: the terms
/// `ite(W₁, t₁, ite(W₂, t₂, … tₖ))` where Wᵢ is the obligation with the i-th
/// combination substituted (a formula over the ∀ values: no innermost ∀ values), the
/// combinations taken in order until their Wᵢ cover every ∀ value. Two cases are then
/// told apart, where possible, by one comparison of W₁ instead of W₁ itself (what people
/// read in `--explain`). Every result is checked valid.
fn case_split(
    combos: &[Vec<Dynamic>],
    instance: &dyn Fn(&[Dynamic]) -> Bool,
    params: &[Dynamic],
    budget_end: std::time::Instant,
) -> Option<Vec<Dynamic>> {
    let deadline = budget_end.min(std::time::Instant::now() + CASE_SPLIT_BUDGET);
    let late = || std::time::Instant::now() > deadline;
    let mut cases: Vec<(Bool, &Vec<Dynamic>)> = Vec::new();
    for terms in combos {
        if late() {
            return None;
        }
        let w = instance(terms).simplify();
        if w.as_bool() == Some(false) {
            continue;
        }
        cases.push((w, terms));
        let some: Vec<Bool> = cases.iter().map(|(w, _)| w.clone()).collect();
        if valid(&Bool::or(&some)) {
            break;
        }
        if cases.len() == combos.len() {
            return None;
        }
    }
    let chain = |conds: &[Bool]| -> Vec<Dynamic> {
        (0..params.len())
            .map(|j| {
                let (_, last) = cases[cases.len() - 1];
                let mut t = last[j].clone();
                for k in (0..cases.len() - 1).rev() {
                    t = conds[k].ite(&cases[k].1[j], &t);
                }
                t
            })
            .collect()
    };
    if cases.len() == 2 {
        for atom in comparisons(&cases[0].0).into_iter().take(MAX_CASE_ATOMS) {
            if late() {
                break;
            }
            for c in [atom.clone(), atom.not()] {
                let terms = chain(&[c]);
                if valid(&instance(&terms)) {
                    return Some(terms);
                }
            }
        }
    }
    let conds: Vec<Bool> = cases.iter().map(|(w, _)| w.clone()).collect();
    let terms = chain(&conds[..conds.len() - 1]);
    valid(&instance(&terms)).then_some(terms)
}

/// Longest a case split may take for one obligation (printing proofs stays quick).
const CASE_SPLIT_BUDGET: Duration = Duration::from_secs(2);

/// Comparisons tried as a two-case strategy's condition.
const MAX_CASE_ATOMS: usize = 12;

/// The comparisons (`=`, `<=`, `<`, `>=`, `>` over non-Boolean terms) inside `w`,
/// smallest first.
fn comparisons(w: &Bool) -> Vec<Bool> {
    let mut out: Vec<Bool> = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![Dynamic::from_ast(w)];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) || d.kind() != z3::AstKind::App {
            continue;
        }
        let cmp = matches!(decl_name(&d).as_str(), "=" | "<=" | "<" | ">=" | ">")
            && d.num_children() == 2
            && d.nth_child(0).is_some_and(|k| k.as_bool().is_none());
        if cmp {
            if let Some(b) = d.as_bool() {
                out.push(b);
            }
        }
        stack.extend(d.children());
    }
    out.sort_by_key(|b| b.to_string().len());
    out
}

/// The chosen candidates with the other parameters' substituted; `None` when one still
/// mentions a parameter (a cycle) or an innermost ∀ value.
fn resolve(
    params: &[Dynamic],
    candidates: &[Vec<Dynamic>],
    choice: &[usize],
    param_set: &HashSet<&Dynamic>,
    outer: &HashSet<&Dynamic>,
) -> Option<Vec<Dynamic>> {
    let mut terms: Vec<Dynamic> = params
        .iter()
        .zip(choice)
        .enumerate()
        .map(|(i, (_, &c))| candidates[i][c].clone())
        .collect();
    for _ in 0..params.len() {
        let subst: Vec<(&Dynamic, &Dynamic)> = params.iter().zip(&terms).collect();
        let next: Vec<Dynamic> = terms.iter().map(|t| t.substitute(&subst).simplify()).collect();
        if next.iter().zip(&terms).all(|(a, b)| a == b) {
            break;
        }
        terms = next;
    }
    // A strategy may use the ∀ values (A) only: never the innermost ∀ values (B), which
    // are chosen after the parameters, nor a parameter left unresolved.
    let free = |t: &Dynamic| {
        constants_of(t).iter().all(|c| outer.contains(c) || !declarable(c))
            && constants_of(t).iter().all(|c| !param_set.contains(c))
    };
    terms.iter().all(free).then_some(terms)
}

/// The constants (0-ary applications) of a term, outside quantifiers.
fn constants_of(t: &Dynamic) -> Vec<Dynamic> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![t.clone()];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        if d.kind() == z3::AstKind::Quantifier {
            continue;
        }
        if d.is_const() {
            if d.kind() == z3::AstKind::App && d.num_children() == 0 {
                out.push(d);
            }
        } else if d.is_app() {
            stack.extend(d.children());
        }
    }
    out
}

pub(super) fn decl_name(d: &Dynamic) -> String {
    if d.is_app() {
        d.decl().name()
    } else {
        String::new()
    }
}

/// Candidate terms per parameter: the other side of every equality with the parameter
/// alone on one side, or with it as a summand (`p + s = t` gives `t - s`).
fn collect_candidates(phi: &Bool, params: &[Dynamic], out: &mut [Vec<Dynamic>]) {
    let mut seen = HashSet::new();
    let mut stack = vec![Dynamic::from_ast(phi)];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) || d.kind() != z3::AstKind::App {
            continue;
        }
        if decl_name(&d) == "=" && d.num_children() == 2 {
            let (l, r) = (d.nth_child(0).unwrap(), d.nth_child(1).unwrap());
            for (side, other) in [(&l, &r), (&r, &l)] {
                for (i, p) in params.iter().enumerate() {
                    if let Some(t) = solve_for(side, other, p) {
                        if !out[i].contains(&t) && out[i].len() < 8 && !mentions(&t, p) {
                            out[i].push(t);
                        }
                    }
                }
            }
        }
        stack.extend(d.children());
    }
}

fn mentions(t: &Dynamic, p: &Dynamic) -> bool {
    constants_of(t).contains(p)
}

/// `p` from `side = other` by inverting, along the one path to `p` in `side`, sums
/// (integer and bit-vector), bit-vector differences, exclusive or and negation.
fn solve_for(side: &Dynamic, other: &Dynamic, p: &Dynamic) -> Option<Dynamic> {
    solve_depth(side, other, p, 0)
}

fn solve_depth(side: &Dynamic, other: &Dynamic, p: &Dynamic, depth: usize) -> Option<Dynamic> {
    use z3::ast::Int;
    if side == p {
        return Some(other.simplify());
    }
    if depth > 8 || !side.is_app() {
        return None;
    }
    let kids = side.children();
    let holding: Vec<usize> = (0..kids.len()).filter(|&i| mentions(&kids[i], p)).collect();
    let [at] = holding[..] else { return None };
    let rest: Vec<&Dynamic> =
        kids.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, k)| k).collect();
    let next = match (decl_name(side).as_str(), kids.len()) {
        ("+", _) => {
            let rest: Vec<Int> = rest.iter().filter_map(|k| k.as_int()).collect();
            let refs: Vec<&Int> = rest.iter().collect();
            Dynamic::from_ast(&(other.as_int()? - Int::add(&refs)))
        }
        ("*", 2) if rest[0].to_string() == "(- 1)" => {
            Dynamic::from_ast(&other.as_int()?.unary_minus())
        }
        ("bvadd", _) => {
            let mut o = other.as_bv()?;
            for r in &rest {
                o = o.bvsub(&r.as_bv()?);
            }
            Dynamic::from_ast(&o)
        }
        ("bvxor", _) => {
            let mut o = other.as_bv()?;
            for r in &rest {
                o = o.bvxor(&r.as_bv()?);
            }
            Dynamic::from_ast(&o)
        }
        ("bvsub", 2) if at == 0 => Dynamic::from_ast(&other.as_bv()?.bvadd(&kids[1].as_bv()?)),
        ("bvsub", 2) => Dynamic::from_ast(&kids[0].as_bv()?.bvsub(&other.as_bv()?)),
        ("bvneg", 1) => Dynamic::from_ast(&other.as_bv()?.bvneg()),
        ("bvnot", 1) => Dynamic::from_ast(&other.as_bv()?.bvnot()),
        _ => return None,
    };
    solve_depth(&kids[at], &next, p, depth + 1)
}
