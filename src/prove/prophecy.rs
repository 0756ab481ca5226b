//! Prophecy by rewriting: an ∃ copy that picks a loop's iteration count up front.
//!
//! `k = *; …; while (i < k) { …; i = i + 1; … }` must guess in its first statement how
//! often a ∀ loop that runs beside it will go round, which no parameter chosen there can
//! know when that loop's count is itself chosen as it runs (`while (c) { …; c = *; }`).
//! When k serves nothing but that guard, the copy is rewritten to decide at each head
//! instead, `more = *; while (more) { …; more = *; }`, and to set `k = i` after the loop.
//!
//! Sound because the rewritten copy's runs are runs of the original (an ∃ copy may be
//! replaced by one with fewer runs): a run that goes round n times from `i == i0` is
//! the original's run that chose `k = i0 + n`, since the body steps i by exactly 1 and
//! neither the body nor anything between the choice and the loop reads or writes k. The
//! original's `assume`s on k move after the loop (with `k = i` there), which is the same
//! condition because nothing between reads k or writes their other variables.
//!
//! The count-down form `k = *; …; while (k > 0) { …; k = k - 1; … }`, k read by nothing
//! but the guard and its decrement, is rewritten the same way with k counting the
//! iterations up from 0: a run of n iterations is the original's run that chose `k = n`,
//! the moved `assume`s see that n, and k is 0 afterwards as in the original.

use super::mine::counters;
use crate::ir::{BinOp, Expr, ExprKind, Quantifier, Stmt, Tuple, TupleVar, Type, VarId};

/// The tuple with every ∃ copy's count-guessing loops rewritten, if any copy has one.
pub fn rewrite(tuple: &Tuple) -> Option<Tuple> {
    let mut out = tuple.clone();
    let mut changed = false;
    for j in 0..tuple.copies.len() {
        if tuple.copies[j].quantifier != Quantifier::Exists
            || crate::ir::has_observe(&tuple.copies[j].body)
        {
            continue;
        }
        while let Some(body) = rewrite_once(&mut out, j) {
            out.copies[j].body = body;
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The first count-guessing loop of copy j's top level rewritten (a new Boolean variable
/// of the copy in `tuple`), or `None` when there is none left.
fn rewrite_once(tuple: &mut Tuple, j: usize) -> Option<Vec<Stmt>> {
    let body = tuple.copies[j].body.clone();
    for (h, s) in body.iter().enumerate() {
        let Stmt::Havoc { var: k, loc } = s else { continue };
        if tuple.var(*k).ty != Type::Int {
            continue;
        }
        let Some((w, guess)) = guessed_loop(tuple, &body, h, *k) else { continue };
        let between = &body[h + 1..w];
        // Variables written from the choice to the loop's end: an assume moved past them
        // must not read them.
        let written = crate::ir::modified_vars(&body[h + 1..=w]);
        let mut moved = Vec::new();
        let mut kept = Vec::new();
        for s in between {
            match s {
                Stmt::Assume { cond, .. } if mentions(cond, *k) => {
                    let mut reads_written = false;
                    cond.for_each_var(&mut |v| reads_written |= v != *k && written.contains(&v));
                    if reads_written {
                        return None;
                    }
                    moved.push(s.clone());
                }
                s if stmt_mentions(s, *k) => return None,
                s => kept.push(s.clone()),
            }
        }
        let Stmt::While { id, body: loop_body, loc: wloc, .. } = &body[w] else {
            unreachable!("guessed_loop returns a loop")
        };
        let more = VarId(tuple.vars.len() as u32);
        let name = format!("more_{}", tuple.var(*k).name);
        tuple.vars.push(TupleVar { copy: j, name, ty: Type::Bool });
        tuple.copies[j].vars.push(more);
        let int = |n: i64| Expr::int(n);
        let k_expr = Expr::var(*k, Type::Int);
        let mut new_body: Vec<Stmt> = loop_body.clone();
        if guess == Guess::CountDown {
            // k counts the iterations up instead (nothing else in the body reads it).
            for st in &mut new_body {
                if let Stmt::Assign { var, value, .. } = st {
                    if var == k {
                        *value = Expr::binary(BinOp::Add, k_expr.clone(), int(1));
                    }
                }
            }
        }
        new_body.push(Stmt::Havoc { var: more, loc: *wloc });
        let mut out: Vec<Stmt> = body[..h].to_vec();
        out.extend(kept);
        if guess == Guess::CountDown {
            out.push(Stmt::Assign { var: *k, value: int(0), loc: *loc });
        }
        out.push(Stmt::Havoc { var: more, loc: *loc });
        out.push(Stmt::While {
            id: *id,
            cond: Expr::var(more, Type::Bool),
            body: new_body,
            loc: *wloc,
        });
        // k as the original chose it: the count up to which i went, or the number of
        // iterations counted down; then what the original's loop left in it.
        if let Guess::UpTo(i) = guess {
            out.push(Stmt::Assign { var: *k, value: Expr::var(i, Type::Int), loc: *loc });
        }
        out.extend(moved);
        if guess == Guess::CountDown {
            out.push(Stmt::Assign { var: *k, value: int(0), loc: *loc });
        }
        out.extend(body[w + 1..].iter().cloned());
        return Some(out);
    }
    None
}

/// How a loop's count depends on the chosen k.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Guess {
    /// `while (i < k)`, the body stepping i by 1: k is where i ends.
    UpTo(VarId),
    /// `while (k > 0)` (or `0 < k`, `k >= 1`, `k != 0`), the body stepping k by -1: k is
    /// the number of iterations, and 0 after them.
    CountDown,
}

/// The first top-level loop after the choice of k at `h`, if its count is all that k
/// decides: its index and how. The body must step its counter by exactly 1 in one
/// top-level assignment and not otherwise mention k.
fn guessed_loop(tuple: &Tuple, body: &[Stmt], h: usize, k: VarId) -> Option<(usize, Guess)> {
    for (w, s) in body.iter().enumerate().skip(h + 1) {
        let Stmt::While { cond, body: lb, .. } = s else {
            if matches!(s, Stmt::Havoc { var, .. } if *var == k) {
                return None;
            }
            continue;
        };
        let zero = |e: &Expr| matches!(&e.kind, ExprKind::Int(n) if *n == 0.into());
        let one = |e: &Expr| matches!(&e.kind, ExprKind::Int(n) if *n == 1.into());
        let guess = match &cond.kind {
            ExprKind::Binary(BinOp::Lt, a, b) if is_var(b, k) && !zero(a) => {
                Guess::UpTo(as_var(a)?)
            }
            ExprKind::Binary(BinOp::Gt, a, b) if is_var(a, k) && !zero(b) => {
                Guess::UpTo(as_var(b)?)
            }
            ExprKind::Binary(BinOp::Gt | BinOp::Ne, a, b) if is_var(a, k) && zero(b) => {
                Guess::CountDown
            }
            ExprKind::Binary(BinOp::Lt, a, b) if is_var(b, k) && zero(a) => Guess::CountDown,
            ExprKind::Binary(BinOp::Ge, a, b) if is_var(a, k) && one(b) => Guess::CountDown,
            _ => return None,
        };
        let steps = counters(tuple, lb);
        let ok = match guess {
            Guess::UpTo(i) => {
                i != k
                    && tuple.var(i).ty == Type::Int
                    && steps.contains(&(i, 1))
                    && !lb.iter().any(|s| stmt_mentions(s, k))
            }
            // The decrement is the one statement of the body that mentions k.
            Guess::CountDown => {
                steps.contains(&(k, -1)) && lb.iter().filter(|s| stmt_mentions(s, k)).count() == 1
            }
        };
        return ok.then_some((w, guess));
    }
    None
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(e.kind, ExprKind::Var(x) if x == v)
}

fn as_var(e: &Expr) -> Option<VarId> {
    match e.kind {
        ExprKind::Var(x) => Some(x),
        _ => None,
    }
}

fn mentions(e: &Expr, v: VarId) -> bool {
    let mut hit = false;
    e.for_each_var(&mut |x| hit |= x == v);
    hit
}

/// Whether a statement (or anything nested in it) reads or writes v.
fn stmt_mentions(s: &Stmt, v: VarId) -> bool {
    let block = |b: &[Stmt]| b.iter().any(|s| stmt_mentions(s, v));
    match s {
        Stmt::Skip | Stmt::Observe { .. } | Stmt::Cut { .. } => false,
        Stmt::Assign { var, value, .. } => *var == v || mentions(value, v),
        Stmt::Store { array, index, value, .. } => {
            *array == v || mentions(index, v) || mentions(value, v)
        }
        Stmt::Havoc { var, .. } => *var == v,
        Stmt::Assume { cond, .. } => mentions(cond, v),
        Stmt::If { cond, then_branch, else_branch, .. } => {
            mentions(cond, v) || block(then_branch) || block(else_branch)
        }
        Stmt::IfStar { then_branch, else_branch, .. } => block(then_branch) || block(else_branch),
        Stmt::While { cond, body, .. } => mentions(cond, v) || block(body),
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::{load_source, InputFormat};
    use crate::ir::{ExprKind, Stmt, Type};

    /// The ∃ copy's top-level statements after the rewrite, as kinds: `H` havoc, `W`
    /// loop (`W?` guarded by a fresh Boolean), `=` assignment, `A` assume.
    fn rewritten(exists_body: &str) -> Option<String> {
        let src = format!(
            "program f {{ int s, i, k, x; while (s < 3) {{ s = s + 1; }} }}
             program e {{ int s, i, k, x; {exists_body} }}
             tuple t {{ forall a: f; exists b: e; pre true; post a.s == b.s; }}"
        );
        let m = load_source("t.fe", src.as_bytes(), InputFormat::Fe).expect("loads");
        let t = super::rewrite(&m.tuples[0])?;
        let kinds = t.copies[1].body.iter().map(|s| match s {
            Stmt::Havoc { .. } => "H",
            Stmt::While { cond, .. } if matches!(cond.kind, ExprKind::Var(_)) => {
                assert_eq!(cond.ty, Type::Bool);
                "W?"
            }
            Stmt::While { .. } => "W",
            Stmt::Assign { .. } => "=",
            Stmt::Assume { .. } => "A",
            _ => "_",
        });
        Some(kinds.collect::<Vec<_>>().join(" "))
    }

    #[test]
    fn a_count_read_only_by_its_guard_and_assumes_is_decided_at_each_head() {
        let out = rewritten("k = *; assume k >= 2; i = 0; while (i < k) { i = i + 1; s = s + 2; }");
        // i = 0; more = *; while (more) …; k = i; assume k >= 2;
        assert_eq!(out.as_deref(), Some("= H W? = A"));
        let out = rewritten("k = *; i = 0; while (k > i) { s = s + 2; i = i + 1; } x = k;");
        assert_eq!(out.as_deref(), Some("= H W? = ="));
        // Counting down: k = 0; more = *; while (more) …; assume k >= 2; k = 0;
        let out = rewritten("k = *; assume k >= 2; while (k > 0) { s = s + 2; k = k - 1; }");
        assert_eq!(out.as_deref(), Some("= H W? A ="));
    }

    #[test]
    fn a_count_read_elsewhere_before_the_loops_end_is_left_alone() {
        // The body reads k.
        assert_eq!(rewritten("k = *; i = 0; while (i < k) { i = i + 1; s = s + k; }"), None);
        // Read between the choice and the loop.
        assert_eq!(rewritten("k = *; x = k; i = 0; while (i < k) { i = i + 1; }"), None);
        // An assume on k that reads a variable written before the loop ends.
        assert_eq!(rewritten("k = *; assume k >= i; i = 0; while (i < k) { i = i + 1; }"), None);
        // The counter steps by 2, or is written twice.
        assert_eq!(rewritten("k = *; i = 0; while (i < k) { i = i + 2; }"), None);
        assert_eq!(rewritten("k = *; i = 0; while (i < k) { i = i + 1; i = i + 1; }"), None);
        // Not `i < k`.
        assert_eq!(rewritten("k = *; i = 0; while (i <= k) { i = i + 1; }"), None);
        // Counting down, the body reads k, or steps it by 2.
        assert_eq!(rewritten("k = *; while (k > 0) { s = s + k; k = k - 1; }"), None);
        assert_eq!(rewritten("k = *; while (k > 0) { k = k - 2; }"), None);
    }
}
