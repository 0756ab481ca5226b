//! Candidate atoms for loops that `return` early (a C comparator's
//! `if (x[i] < y[i]) return -1;`): the C lowering turns `return` inside a loop into the
//! copy's `$return` flag, set after `ret`, with `!$return` a conjunct of the loop's guard
//! (`c::lower::flow`). Once a copy's flag is set its `ret` is final, so the
//! postcondition can be checked on the copies that returned, for every value the others
//! may still return: for each nonempty set R of the aligned copies with a flag,
//!
//! `(∧ r.$return for r in R) && (∧ !s.$return for the others) ==> ∀ future values. post`
//!
//! The ∀ is eliminated when each value still to come (a variable of a copy outside R
//! that its program writes) occurs in `post` only compared with literals: its
//! comparisons then take only the values of the literals and their neighbours (`-1`,
//! `0`, `1` around `0`, as the signs comparators return). An atom whose ∀ cannot be
//! eliminated is not mined. For R = {a} alone the atom mostly says "a never returns
//! alone"; for R = {a, b} it is the postcondition under both flags.
//!
//! Antisymmetry (`a.ret > 0 <==> b.ret < 0`, inputs swapped) gets
//! `a.$return && b.$return ==> post` with the mined `a.$return == b.$return` (the exits
//! mirror each other); transitivity over three copies in lockstep gets
//! `a.$return && c.$return && !b.$return ==> (a.ret > 0 ==> c.ret > 0)` and the sets that
//! cannot happen. These are candidates only: Houdini checks each, so a wrong guess costs
//! a query, never soundness.

use super::genpp::{Cfg, End, Fail, Prover, Res};
use super::loops::{Aligned, Lockstep};
use super::state::{Acc, Scope};
use crate::ir::{BinOp, Expr, ExprKind, Quantifier, Stmt, Tuple, Type, UnOp, VarId};

/// At most this many copies with a flag (2^n - 1 atoms).
const MAX_FLAGGED: usize = 4;
/// At most this many substitutions per atom (the product of the values per variable).
const MAX_CASES: usize = 81;

/// The atoms described in the module doc, for `align`'s loops (nothing when fewer than
/// two of them have a `$return` flag, or for `always` tuples).
pub fn returned_sets(tuple: &Tuple, align: &[Aligned<'_>]) -> Vec<Expr> {
    if align.len() < 2 || tuple.is_reactive() {
        return Vec::new();
    }
    let flagged: Vec<(usize, VarId)> =
        align.iter().filter_map(|al| return_flag(tuple, al).map(|f| (al.copy, f))).collect();
    if flagged.len() < 2
        || flagged.len() > MAX_FLAGGED
        || flagged.iter().any(|(c, _)| tuple.copies[*c].quantifier != Quantifier::Forall)
    {
        return Vec::new();
    }
    // The variables of `post` that a copy's program writes: values still to come while
    // the copy has not returned.
    let mut post_vars = Vec::new();
    tuple.post.for_each_var(&mut |v| {
        if !post_vars.contains(&v) {
            post_vars.push(v)
        }
    });
    let written: Vec<Vec<VarId>> = tuple
        .copies
        .iter()
        .map(|c| {
            let m = crate::ir::modified_vars(&c.body);
            post_vars.iter().copied().filter(|v| m.contains(v)).collect()
        })
        .collect();
    let mut out = Vec::new();
    for mask in 1u32..(1 << flagged.len()) {
        let returned = |k: usize| mask & (1 << k) != 0;
        // Copies still running: every copy without a set flag (the unaligned ones too).
        let mut open: Vec<VarId> = Vec::new();
        for (c, vs) in written.iter().enumerate() {
            let done = flagged.iter().enumerate().any(|(k, (fc, _))| *fc == c && returned(k));
            if !done {
                open.extend(vs);
            }
        }
        let Some(body) = for_all_values(&tuple.post, &open, tuple) else { continue };
        let body = fold(&body);
        let flags = flagged.iter().enumerate().map(|(k, (_, f))| {
            let f = Expr::var(*f, Type::Bool);
            if returned(k) {
                f
            } else {
                Expr::negate(f)
            }
        });
        out.push(Expr::binary(BinOp::Implies, Expr::and_all(flags), body));
    }
    out
}

/// The loop's `$return` flag: a conjunct `!$return` of its guard over the copy's own
/// (outermost function's) flag, which its body sets.
fn return_flag(tuple: &Tuple, al: &Aligned<'_>) -> Option<VarId> {
    al.cond().conjuncts().into_iter().find_map(|c| match &c.kind {
        ExprKind::Unary(UnOp::Not, f) => match f.kind {
            ExprKind::Var(v)
                if tuple.var(v).name == "$return"
                    && tuple.var(v).ty == Type::Bool
                    && crate::ir::modified_vars(al.body()).contains(&v) =>
            {
                Some(v)
            }
            _ => None,
        },
        _ => None,
    })
}

/// `∀ vars. e` without a quantifier: the conjunction of `e` over every combination of
/// the values that decide each variable's comparisons with literals; `None` when one
/// occurs otherwise (or the combinations are too many).
fn for_all_values(e: &Expr, vars: &[VarId], tuple: &Tuple) -> Option<Expr> {
    let mut cases: Vec<Expr> = vec![e.clone()];
    for &v in vars {
        let values = deciding_values(e, v, &tuple.var(v).ty)?;
        if cases.len() * values.len() > MAX_CASES {
            return None;
        }
        cases =
            cases.iter().flat_map(|c| values.iter().map(move |k| c.replace_var(v, k))).collect();
    }
    Some(Expr::and_all(cases))
}

/// The values that decide every comparison of `v` with a literal in `e` (each literal
/// and its neighbours), or `None` when `v` occurs elsewhere than in such a comparison.
fn deciding_values(e: &Expr, v: VarId, ty: &Type) -> Option<Vec<Expr>> {
    let mut literals: Vec<i64> = Vec::new();
    if !collect_literals(e, v, &mut literals) {
        return None;
    }
    if literals.is_empty() {
        // `v` does not occur: any value decides nothing.
        return Some(vec![Expr::number(ty, 0)?]);
    }
    let mut ks: Vec<i64> = literals
        .iter()
        .flat_map(|&k| [k.checked_sub(1), Some(k), k.checked_add(1)])
        .collect::<Option<Vec<i64>>>()?;
    ks.sort_unstable();
    ks.dedup();
    ks.into_iter().map(|k| Expr::number(ty, k)).collect()
}

/// Adds the literals `v` is compared with; false when `v` occurs anywhere else.
fn collect_literals(e: &Expr, v: VarId, out: &mut Vec<i64>) -> bool {
    use BinOp::*;
    if let ExprKind::Binary(Lt | Le | Gt | Ge | Eq | Ne | SLt | SLe | SGt | SGe, a, b) = &e.kind {
        let side =
            |x: &Expr, y: &Expr| matches!(x.kind, ExprKind::Var(w) if w == v).then(|| literal(y));
        if let Some(k) = side(a, b).or_else(|| side(b, a)) {
            return match k {
                Some(k) => {
                    out.push(k);
                    true
                }
                None => false,
            };
        }
    }
    match &e.kind {
        ExprKind::Var(w) => *w != v,
        _ => {
            let mut ok = true;
            for c in e.children() {
                ok &= collect_literals(c, v, out);
            }
            ok
        }
    }
}

/// A literal's value read as a signed number (bit-vectors as two's complement).
fn literal(e: &Expr) -> Option<i64> {
    match (&e.kind, &e.ty) {
        (ExprKind::Int(n), _) => i64::try_from(n).ok(),
        (ExprKind::Bv(x), Type::Bv(w)) if *w <= 64 && *w > 0 => {
            let shift = 128 - w;
            Some(((*x as i128) << shift >> shift) as i64)
        }
        _ => None,
    }
}

/// Whether `w` is a loop that the copy's own `return` leaves (a `$return` flag in its
/// guard, set by its body).
pub fn returns_early(tuple: &Tuple, copy: usize, w: &Stmt) -> bool {
    let al = Aligned { copy, stmt: w, count: 1, upto: false };
    matches!(w, Stmt::While { .. }) && return_flag(tuple, &al).is_some()
}

impl<'t> Prover<'t> {
    /// Where a lockstep of ∀ loops that return early stopped, which copy's guard failed
    /// depends on the data (the first differing element): the path is split on the
    /// first guard not known to hold. Where it is false, that copy's loop runs no more;
    /// where it holds, the lockstep stopped for another copy, split in turn. Each side
    /// is proved (a ∀ case split, as `genpp::split` does for a ∀ copy's `if`).
    /// `None` when the lockstep has other loops or a guard is already known false.
    pub(super) fn split_lockstep_exit(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        ls: &Lockstep<'t>,
        waiting: &[(usize, &'t Stmt)],
    ) -> Option<Res<Acc>> {
        let in_lockstep: Vec<(usize, &'t Stmt)> =
            waiting.iter().filter(|&&(i, w)| ls.has(i, w)).copied().collect();
        if in_lockstep.is_empty()
            || ls.loops.len() < 2
            || in_lockstep.iter().any(|&(c, w)| {
                self.quantifier(c) != Quantifier::Forall || !returns_early(self.tuple, c, w)
            })
        {
            return None;
        }
        for &(c, w) in &in_lockstep {
            let Stmt::While { cond, .. } = w else { continue };
            let g = cfg.st.eval_bool(cond);
            if self.holds(&cfg.st, &g) {
                continue;
            }
            if self.cancel.is_cancelled() {
                return Some(Err(Fail::stopped()));
            }
            // As in `genpp::split`: separate queries may choose earlier parameters each
            // their own way only when the condition is over outermost ∀ values.
            let late = !self.outer_only(&g, scope) && self.syms.params_since(scope.floor);
            let mut stopped = cfg.clone();
            stopped.conts[c].pop_front();
            stopped.st.pc.push_back(g.not());
            let mut going = cfg.clone();
            going.st.pc.push_back(g);
            let start = self.candidates;
            let al = [Aligned { copy: c, stmt: w, count: 1, upto: false }];
            let what = format!("where its guard fails, {} runs no more", self.tuple.copies[c].name);
            let inv = "the guard is false: it returned or its loop ended".to_string();
            self.record_as(&al, inv, start, Some(what), Some(ls.record));
            let mark = self.proof.len() - 1;
            let rec = crate::smt::record::mark();
            let r = if scope.conj || late {
                self.run(stopped, acc.clone(), scope, end)
                    .and_then(|a| self.run(going, a, scope, end))
            } else {
                self.run(stopped, acc.clone(), scope, end)
                    .and_then(|_| self.run(going, acc.clone(), scope, end))
                    .map(|_| acc.clone())
            };
            return Some(r.inspect_err(|_| {
                self.proof.truncate(mark);
                crate::smt::record::rewind(rec);
            }));
        }
        None
    }
}

/// In a lockstep of loops that return early, a copy that returned stops moving (its
/// counter stays while the others' advance), so relations like `a.i == b.i` are not
/// preserved; but a lockstep step starts only where every guard holds, so they are
/// needed only while no copy has returned: each relational atom is added again under
/// `!a.$return && !b.$return && …` (after the atoms as mined).
pub fn while_running(tuple: &Tuple, align: &[Aligned<'_>], mut atoms: Vec<Expr>) -> Vec<Expr> {
    let flags: Vec<VarId> = align.iter().filter_map(|al| return_flag(tuple, al)).collect();
    if flags.len() < 2 || flags.len() != align.len() {
        return atoms;
    }
    let n = tuple.vars.len() as u32;
    let running = Expr::and_all(flags.iter().map(|f| Expr::negate(Expr::var(*f, Type::Bool))));
    let guarded: Vec<Expr> = atoms
        .iter()
        .filter(|a| {
            let mut copies: Vec<usize> = Vec::new();
            let mut flagged = false;
            a.for_each_var(&mut |v| {
                flagged |= flags.contains(&v);
                let c = tuple.var(VarId(v.0 % n)).copy;
                if !copies.contains(&c) {
                    copies.push(c);
                }
            });
            copies.len() > 1 && !flagged
        })
        .map(|a| Expr::binary(BinOp::Implies, running.clone(), a.clone()))
        .collect();
    for g in guarded {
        if !atoms.contains(&g) {
            atoms.push(g);
        }
    }
    atoms
}

/// `e` with comparisons of literals and connectives over `true`/`false` folded (the
/// substituted postconditions are mostly constants).
fn fold(e: &Expr) -> Expr {
    use BinOp::*;
    let e = e.map_children(&fold);
    let b = |x: &Expr| match x.kind {
        ExprKind::Bool(v) => Some(v),
        _ => None,
    };
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => match b(a) {
            Some(v) => Expr::bool(!v),
            None => e.clone(),
        },
        ExprKind::Binary(op @ (And | Or | Implies | Iff), x, y) => {
            let (p, q) = (b(x), b(y));
            let (x, y) = ((**x).clone(), (**y).clone());
            match (op, p, q) {
                (And, Some(false), _) | (And, _, Some(false)) => Expr::bool(false),
                (And, Some(true), _) => y,
                (And, _, Some(true)) => x,
                (Or, Some(true), _) | (Or, _, Some(true)) => Expr::bool(true),
                (Or, Some(false), _) => y,
                (Or, _, Some(false)) => x,
                (Implies, Some(false), _) | (Implies, _, Some(true)) => Expr::bool(true),
                (Implies, Some(true), _) => y,
                (Implies, _, Some(false)) => Expr::negate(x),
                (Iff, Some(true), _) => y,
                (Iff, _, Some(true)) => x,
                (Iff, Some(false), _) => Expr::negate(y),
                (Iff, _, Some(false)) => Expr::negate(x),
                _ => e.clone(),
            }
        }
        ExprKind::Binary(op @ (Lt | Le | Gt | Ge | Eq | Ne | SLt | SLe | SGt | SGe), x, y) => {
            let signed = matches!(x.ty, Type::Int) || matches!(op, SLt | SLe | SGt | SGe);
            let value = |l: &Expr| match (&l.kind, &l.ty) {
                (ExprKind::Int(n), _) => i128::try_from(n).ok(),
                (ExprKind::Bv(v), Type::Bv(w)) if *w <= 64 => {
                    if signed {
                        literal(l).map(i128::from)
                    } else {
                        Some(*v as i128)
                    }
                }
                _ => None,
            };
            match (value(x), value(y)) {
                (Some(p), Some(q)) => Expr::bool(match op {
                    Lt | SLt => p < q,
                    Le | SLe => p <= q,
                    Gt | SGt => p > q,
                    Ge | SGe => p >= q,
                    Eq => p == q,
                    _ => p != q,
                }),
                _ => e.clone(),
            }
        }
        _ => e.clone(),
    }
}

/// Copies of one program whose inputs `pre` permutes (`a.x == b.y`: the comparator's
/// arguments swapped) compute the same values under other names: what one copy
/// computes from `x` (`ca`, counting `x`'s positives) the other computes from `y`
/// (`cb`). Equalities `a.v == b.w` between differently named variables that the aligned
/// loops write are the candidates; the ones the permutation does not make true fail
/// consecution. Only with such a permutation in `pre` (else they only cost queries).
pub fn permuted(tuple: &Tuple, align: &[Aligned<'_>]) -> Vec<Expr> {
    let program = |c: usize| &tuple.copies[c].program;
    let swapped = tuple.pre.conjuncts().into_iter().any(|c| match &c.kind {
        ExprKind::Binary(BinOp::Eq, x, y) => match (&x.kind, &y.kind) {
            (ExprKind::Var(p), ExprKind::Var(q)) => {
                let (p, q) = (tuple.var(*p), tuple.var(*q));
                p.copy != q.copy && p.name != q.name && program(p.copy) == program(q.copy)
            }
            _ => false,
        },
        _ => false,
    });
    let mut out = Vec::new();
    if !swapped {
        return out;
    }
    let plain = |v: VarId| !tuple.var(v).name.contains('$');
    for (i, a) in align.iter().enumerate() {
        for b in &align[i + 1..] {
            if a.copy == b.copy || program(a.copy) != program(b.copy) {
                continue;
            }
            let (ma, mb) = (crate::ir::modified_vars(a.body()), crate::ir::modified_vars(b.body()));
            for &x in ma.iter().filter(|&&x| plain(x)) {
                for &y in mb.iter().filter(|&&y| plain(y)) {
                    let (vx, vy) = (tuple.var(x), tuple.var(y));
                    if vx.name != vy.name && vx.ty == vy.ty {
                        let e = Expr::eq(Expr::var(x, vx.ty.clone()), Expr::var(y, vy.ty.clone()));
                        if !out.contains(&e) {
                            out.push(e);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Counts (`if (x[i] > 0) ca++;`) in aligned loops whose guard counter i steps by 1:
/// `ca >= old(ca)` and `ca - old(ca) <= i - old(i)`, with the guard's closure `i <= n`
/// (signed on bit-vectors). A comparator's `return ca - cb;` then cannot overflow in
/// the machine model: both counts lie between 0 and n. Exact alignments get no unary
/// atoms otherwise (`mine`), so these are mined for them too.
pub fn counts(tuple: &Tuple, align: &[Aligned<'_>], ghost: &dyn Fn(VarId) -> VarId) -> Vec<Expr> {
    let mut out = Vec::new();
    if align.len() < 2 {
        return out;
    }
    for al in align {
        let mut guard_vars = Vec::new();
        al.cond().for_each_var(&mut |v| guard_vars.push(v));
        let Some(i) = crate::ir::steps::counters(tuple, al.body())
            .into_iter()
            .find(|&(v, c)| c == 1 && guard_vars.contains(&v))
            .map(|(v, _)| v)
        else {
            continue;
        };
        let ty = tuple.var(i).ty.clone();
        let bv = matches!(ty, Type::Bv(_));
        let (ge, le) = if bv { (BinOp::SGe, BinOp::SLe) } else { (BinOp::Ge, BinOp::Le) };
        let var = |v: VarId| Expr::var(v, ty.clone());
        let moved = |v: VarId| Expr::binary(BinOp::Sub, var(v), var(ghost(v)));
        let counted: Vec<VarId> = crate::ir::steps::counted(tuple, al.body())
            .into_iter()
            .filter(|&y| y != i && tuple.var(y).ty == ty)
            .collect();
        if counted.is_empty() {
            continue;
        }
        for c in al.cond().conjuncts() {
            if let ExprKind::Binary(op @ (BinOp::Lt | BinOp::SLt), x, n) = &c.kind {
                if matches!(x.kind, ExprKind::Var(v) if v == i) && (*op == BinOp::SLt) == bv {
                    out.push(Expr::binary(le, (**x).clone(), (**n).clone()));
                }
            }
        }
        for y in counted {
            out.push(Expr::binary(ge, var(y), var(ghost(y))));
            out.push(Expr::binary(le, moved(y), moved(i)));
        }
    }
    out
}
