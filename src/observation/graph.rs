//! The observation graph of one copy, for the temporal prover (issue 23, item 1).
//!
//! A copy's *observation points* are its `observe;` statements, wherever they are (in
//! branches, in loops, several per iteration). Between two observations a copy runs a
//! *silent segment*. Because programs are structured, what a run does after a given
//! `observe;` is fixed by where that statement is: the rest of its block, then the rest
//! of each enclosing block, with every enclosing loop entered again. So each point has
//! one continuation, and its segment is that continuation run up to the next
//! `observe;` reached on each path.
//!
//! This module writes each segment as loop-free-at-the-observing-level IR that genpp can
//! run: branches and loops that contain an `observe;` are unfolded (`while (g) B` as
//! `if (g) { B; <the loop again> } else { <rest> }`), each path stops at the first
//! `observe;` it reaches and records which point that is in the copy's point variable
//! (a ghost; only for copies with several points), and a path that reaches the end of
//! the program ends in `assume false` (it has no next observation: for a ∀ copy nothing
//! is left to check, for an ∃ copy it is no witness, so the ∃ choices must avoid it).
//! Silent loops (no `observe;` inside) stay loops and go through genpp's loop rules.
//!
//! Unfolding is exact: every path of the segment is a path of the program from the point
//! to its next observation and back.
//!
//! **Silent iterations.** A loop that contains an `observe;` but can go round once
//! without reaching one (`repeat { if (*) { o = o + 1; } else { observe; } }`) would
//! unfold forever. Where such a loop is unfolded, its stretch up to the next observation
//! is written as "some number (≥ 0) of silent iterations, then one iteration that
//! observes or leaves the loop":
//! ```text
//! c = *; while (g && c) { B′; c = *; }      // the silent iterations (a silent loop)
//! if (g) { B, unfolded; back at the head: assume false } else { <rest> }
//! ```
//! where `B′` is the body with every `observe;` replaced by `assume false` (the
//! iterations that complete without observing) and `c` a fresh choice variable of the
//! copy (`silent@LINE:COL`, named with `@` like `while (*)`'s). Every run from the point
//! to its next observation splits in exactly one way into k silent iterations and the
//! rest, so the rewriting is exact again: for a ∀ copy the loop's invariant must hold
//! for every k (genpp's loop rules), for an ∃ copy k is its choice (∃-only loops:
//! unrolling or a ranking function), and the `assume false`s cut only paths that another
//! k covers (for an ∃ copy they are obligations its choices avoid).

use crate::ir::{has_observe, BinOp, Expr, ExprKind, Loc, Stmt, Type, VarId};
use std::collections::{BTreeSet, HashSet};

/// Most statements written for one copy's segments (branches copy what follows them).
const MAX_STATEMENTS: usize = 4000;

/// One copy's observation points and the silent segments between them.
pub(crate) struct CopyGraph {
    /// Where each point's `observe;` is; point k (1-based in texts and in the point
    /// variable) is `points[k - 1]`.
    pub(crate) points: Vec<Loc>,
    /// From the program's start to its first observation.
    pub(crate) first: Vec<Stmt>,
    /// Per point, from it to the next observation.
    pub(crate) from: Vec<Vec<Stmt>>,
    /// The points the first segment can reach (1-based).
    pub(crate) first_next: BTreeSet<usize>,
    /// Per point, the points its segment can reach, and whether it can come back to
    /// itself without writing anything (a stutter: the same observation again).
    pub(crate) next: Vec<BTreeSet<usize>>,
    pub(crate) stutters: Vec<bool>,
}

/// Builds the graph of a copy with body `body`; `at` is its point variable, written only
/// when the copy has several points; `choice` tells the variables that only hold a
/// choice of the program (`while (*)`'s, named with `@`, which φ cannot mention), whose
/// havocs do not count as writes for stutters; `silent_choice` gives the choice variable
/// of the silent iterations of the observing loop at a place (module comment; the same
/// variable for the same place). `Err` says why the copy is refused.
pub(crate) fn build(
    body: &[Stmt],
    at: Option<VarId>,
    choice: &dyn Fn(VarId) -> bool,
    silent_choice: &mut dyn FnMut(Loc) -> VarId,
) -> Result<CopyGraph, String> {
    let mut w = Walker {
        at,
        choice,
        silent_choice,
        summarised: HashSet::new(),
        points: Vec::new(),
        written: 0,
    };
    let start: Vec<&Stmt> = body.iter().collect();
    let mut first_next = BTreeSet::new();
    let first = w.walk(&start, &[], &mut first_next, &mut Vec::new())?;
    let mut from = Vec::new();
    let mut next = Vec::new();
    let mut stutters = Vec::new();
    let mut k = 0;
    while k < w.points.len() {
        let cont = w.points[k].cont.clone();
        let mut reached = BTreeSet::new();
        let mut silent_self = Vec::new();
        let seg = w.walk(&cont, &[], &mut reached, &mut silent_self)?;
        stutters.push(silent_self.contains(&(k + 1)));
        from.push(seg);
        next.push(reached);
        k += 1;
    }
    let points = w.points.iter().map(|p| p.loc).collect();
    Ok(CopyGraph { points, first, from, first_next, next, stutters })
}

struct Point<'a> {
    stmt: *const Stmt,
    loc: Loc,
    /// What runs after this `observe;`.
    cont: Vec<&'a Stmt>,
}

struct Walker<'a, 'c> {
    at: Option<VarId>,
    choice: &'a dyn Fn(VarId) -> bool,
    silent_choice: &'c mut dyn FnMut(Loc) -> VarId,
    /// The observing loops whose silent iterations were written as a silent loop.
    summarised: HashSet<*const Stmt>,
    points: Vec<Point<'a>>,
    written: usize,
}

impl<'a> Walker<'a, '_> {
    /// The 1-based number of the point at `s`, made on first sight.
    fn point(&mut self, s: &'a Stmt, loc: Loc, rest: &[&'a Stmt]) -> usize {
        let key = s as *const Stmt;
        if let Some(k) = self.points.iter().position(|p| p.stmt == key) {
            return k + 1;
        }
        self.points.push(Point { stmt: key, loc, cont: rest.to_vec() });
        self.points.len()
    }

    fn count(&mut self, n: usize) -> Result<(), String> {
        self.written += n;
        if self.written > MAX_STATEMENTS {
            return Err(format!(
                "its silent segments unfold to more than {MAX_STATEMENTS} statements"
            ));
        }
        Ok(())
    }

    /// The segment that runs `cont` up to the next `observe;` on each path. `entered`:
    /// the observing loops unfolded on this path since the segment began. `reached`
    /// collects the points reached; `quiet` those reached without any write on the way.
    fn walk(
        &mut self,
        cont: &[&'a Stmt],
        entered: &[*const Stmt],
        reached: &mut BTreeSet<usize>,
        quiet: &mut Vec<usize>,
    ) -> Result<Vec<Stmt>, String> {
        self.walk_from(cont, entered, reached, quiet, true)
    }

    fn walk_from(
        &mut self,
        cont: &[&'a Stmt],
        entered: &[*const Stmt],
        reached: &mut BTreeSet<usize>,
        quiet: &mut Vec<usize>,
        mut silent: bool,
    ) -> Result<Vec<Stmt>, String> {
        let mut out = Vec::new();
        for (i, &s) in cont.iter().enumerate() {
            if !has_observe(std::slice::from_ref(s)) {
                self.count(1)?;
                silent &= match s {
                    Stmt::Skip | Stmt::Assume { .. } => true,
                    Stmt::Havoc { var, .. } => (self.choice)(*var),
                    _ => false,
                };
                out.push(s.clone());
                continue;
            }
            let rest = &cont[i + 1..];
            match s {
                Stmt::Observe { loc } => {
                    let k = self.point(s, *loc, rest);
                    reached.insert(k);
                    if silent {
                        quiet.push(k);
                    }
                    if let Some(v) = self.at {
                        self.count(1)?;
                        out.push(Stmt::Assign { var: v, value: Expr::int(k), loc: *loc });
                    }
                }
                Stmt::If { then_branch, else_branch, .. }
                | Stmt::IfStar { then_branch, else_branch, .. } => {
                    let mut go = |branch: &'a [Stmt], w: &mut Self| {
                        let c: Vec<&'a Stmt> = branch.iter().chain(rest.iter().copied()).collect();
                        w.walk_from(&c, entered, reached, quiet, silent)
                    };
                    let t = go(then_branch, self)?;
                    let e = go(else_branch, self)?;
                    self.count(1)?;
                    match s {
                        Stmt::If { cond, loc, .. } => out.extend(branch(cond, t, e, *loc)),
                        Stmt::IfStar { loc, .. } => {
                            out.push(Stmt::IfStar { then_branch: t, else_branch: e, loc: *loc })
                        }
                        _ => unreachable!("a branch"),
                    }
                }
                Stmt::While { id, cond, body, loc } => {
                    let key = s as *const Stmt;
                    if entered.contains(&key) {
                        // Back at the head without observing: a silent iteration, which
                        // the silent loop written where the loop was unfolded runs.
                        if !self.summarised.contains(&key) {
                            return Err(format!(
                                "its loop at {loc} contains `observe;` but can run an \
                                 iteration without reaching one"
                            ));
                        }
                        self.count(1)?;
                        out.push(Stmt::Assume { cond: Expr::bool(false), loc: *loc });
                        return Ok(out);
                    }
                    if completes_silently(body) {
                        let c = (self.silent_choice)(*loc);
                        let prefix = silent_loop(*id, cond, body, c, *loc);
                        self.count(statements(&prefix))?;
                        out.extend(prefix);
                        self.summarised.insert(key);
                        // The silent loop may write: no stutter through it.
                        silent = false;
                    }
                    let mut inner: Vec<*const Stmt> = entered.to_vec();
                    inner.push(key);
                    let again: Vec<&'a Stmt> =
                        body.iter().chain([s]).chain(rest.iter().copied()).collect();
                    let t = self.walk_from(&again, &inner, reached, quiet, silent)?;
                    if cond.kind == crate::ir::ExprKind::Bool(true) {
                        out.extend(t);
                    } else {
                        let e = self.walk_from(rest, entered, reached, quiet, silent)?;
                        self.count(1)?;
                        out.extend(branch(cond, t, e, *loc));
                    }
                }
                _ => unreachable!("only observations, branches and loops contain `observe;`"),
            }
            return Ok(out);
        }
        // The end of the program: no next observation on this path.
        self.count(1)?;
        out.push(Stmt::Assume { cond: Expr::bool(false), loc: Loc::default() });
        Ok(out)
    }
}

/// Whether some path through `body` reaches its end without an `observe;` (mirrors the
/// walk: a loop that observes can still be left at its head unless its guard is `true`).
fn completes_silently(body: &[Stmt]) -> bool {
    body.iter().all(|s| match s {
        Stmt::Observe { .. } => false,
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            completes_silently(then_branch) || completes_silently(else_branch)
        }
        Stmt::While { cond, body, .. } if has_observe(body) => cond.kind != ExprKind::Bool(true),
        _ => true,
    })
}

/// `c = *; while (g && c) { B′; c = *; }` (module comment, "Silent iterations").
fn silent_loop(id: crate::ir::LoopId, cond: &Expr, body: &[Stmt], c: VarId, loc: Loc) -> Vec<Stmt> {
    let flag = Expr::var(c, Type::Bool);
    let guard = if cond.kind == ExprKind::Bool(true) {
        flag
    } else {
        Expr::binary(BinOp::And, cond.clone(), flag)
    };
    let mut silent_body = without_observations(body);
    silent_body.push(Stmt::Havoc { var: c, loc });
    vec![Stmt::Havoc { var: c, loc }, Stmt::While { id, cond: guard, body: silent_body, loc }]
}

/// `block` with every `observe;` replaced by `assume false`: its runs that do not observe.
fn without_observations(block: &[Stmt]) -> Vec<Stmt> {
    block
        .iter()
        .map(|s| match s {
            Stmt::Observe { loc } => Stmt::Assume { cond: Expr::bool(false), loc: *loc },
            Stmt::If { cond, then_branch, else_branch, loc } => Stmt::If {
                cond: cond.clone(),
                then_branch: without_observations(then_branch),
                else_branch: without_observations(else_branch),
                loc: *loc,
            },
            Stmt::IfStar { then_branch, else_branch, loc } => Stmt::IfStar {
                then_branch: without_observations(then_branch),
                else_branch: without_observations(else_branch),
                loc: *loc,
            },
            Stmt::While { id, cond, body, loc } => Stmt::While {
                id: *id,
                cond: cond.clone(),
                body: without_observations(body),
                loc: *loc,
            },
            other => other.clone(),
        })
        .collect()
}

/// Statements in `block`, nested ones included (for the size limit).
fn statements(block: &[Stmt]) -> usize {
    block
        .iter()
        .map(|s| {
            1 + match s {
                Stmt::If { then_branch, else_branch, .. }
                | Stmt::IfStar { then_branch, else_branch, .. } => {
                    statements(then_branch) + statements(else_branch)
                }
                Stmt::While { body, .. } => statements(body),
                _ => 0,
            }
        })
        .sum()
}

/// `if (cond) { t } else { e }`, or `assume cond; t` when `e` only ends the program
/// (likewise for `t`): the shape a loop guard had before observation graphs, `assume g`.
fn branch(cond: &Expr, t: Vec<Stmt>, e: Vec<Stmt>, loc: Loc) -> Vec<Stmt> {
    let dead = |b: &[Stmt]| matches!(b, [Stmt::Assume { cond, .. }] if cond.kind == crate::ir::ExprKind::Bool(false));
    let assume = |c: Expr| Stmt::Assume { cond: c, loc };
    if dead(&e) {
        std::iter::once(assume(cond.clone())).chain(t).collect()
    } else if dead(&t) {
        std::iter::once(assume(Expr::negate(cond.clone()))).chain(e).collect()
    } else {
        vec![Stmt::If { cond: cond.clone(), then_branch: t, else_branch: e, loc }]
    }
}

/// The point variable's type.
pub(crate) fn point_type() -> Type {
    Type::Int
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(src: &str) -> Vec<Stmt> {
        let text = format!("program p {{ int x; {src} }}\ntuple t {{ forall a: p; always true; }}");
        let fe = crate::frontend::InputFormat::Fe;
        let m = crate::frontend::load_inline("t.fe", text.as_bytes(), fe).expect("parses");
        m.tuples[0].copies[0].body.clone()
    }

    #[test]
    fn observations_in_branches_are_two_points() {
        let b = body("x = 0; repeat { if (x > 0) { observe; } else { x = 1; observe; } }");
        let g = build(&b, Some(VarId(1)), &|_| false, &mut |_| VarId(9)).expect("supported");
        assert_eq!(g.points.len(), 2);
        assert_eq!(g.first_next, BTreeSet::from([1, 2]));
        assert_eq!(g.next, vec![BTreeSet::from([1, 2]), BTreeSet::from([1, 2])]);
        // Point 1 comes back to itself with nothing written while `x > 0`: a stutter.
        assert_eq!(g.stutters, vec![true, false]);
    }

    #[test]
    fn an_observing_star_loop_stutters() {
        let b = body("repeat { while (*) { observe; } x = x + 1; observe; }");
        // VarId(1) is `while (*)`'s choice variable.
        let g = build(&b, None, &|v| v == VarId(1), &mut |_| VarId(9)).expect("supported");
        assert_eq!(g.points.len(), 2);
        assert_eq!(g.stutters, vec![true, false]);
    }

    #[test]
    fn the_end_of_the_program_is_no_next_point() {
        let b = body("observe; observe;");
        let g = build(&b, None, &|_| false, &mut |_| VarId(9)).expect("supported");
        assert_eq!(g.next, vec![BTreeSet::from([2]), BTreeSet::new()]);
        assert!(matches!(g.from[1][..], [Stmt::Assume { .. }]));
    }

    #[test]
    fn silent_iterations_of_an_observing_loop_are_a_silent_loop() {
        let b = body("repeat { if (*) { observe; } }");
        let g = build(&b, None, &|_| false, &mut |_| VarId(9)).expect("supported");
        // From the point: `c = *; while (c) { if (*) { assume false } else { } c = *; }`,
        // then the observing iteration, whose silent way back is cut.
        let [Stmt::Havoc { var, .. }, Stmt::While { cond, body: inner, .. }, Stmt::IfStar { then_branch, else_branch, .. }] =
            &g.from[0][..]
        else {
            panic!("{:#?}", g.from[0]);
        };
        assert_eq!(*var, VarId(9));
        assert_eq!(cond.kind, crate::ir::ExprKind::Var(VarId(9)));
        assert!(matches!(&inner[..], [Stmt::IfStar { then_branch, .. }, Stmt::Havoc { .. }]
            if matches!(then_branch[..], [Stmt::Assume { .. }])));
        assert!(then_branch.is_empty());
        assert!(matches!(else_branch[..], [Stmt::Assume { .. }]));
        assert_eq!(g.next, vec![BTreeSet::from([1])]);
        // A loop whose every iteration observes gets no silent loop.
        let b = body("repeat { x = x + 1; observe; }");
        let g = build(&b, None, &|_| false, &mut |_| panic!("no silent loop")).expect("supported");
        assert!(!g.from[0].iter().any(|s| matches!(s, Stmt::While { .. })));
    }
}
