//! Loop points (rule Loop-Counting): alignments, iteration counts, candidate invariants.
//! This module plans which loops go together with which counts; `houdini` searches
//! each plan's invariant.
//!
//! Candidates are conjunctions of mined atoms, searched Houdini-style over the
//! implication lattice: atoms are added in priority order while the conjunction stays
//! initial (an atom that breaks initiation prunes every stronger candidate containing
//! it); atoms whose consecution fails are dropped; if the strongest remaining
//! conjunction does not force simultaneous termination, no weaker one does, and the
//! alignment is abandoned.
//!
//! When no alignment exits together, loops of different copies may run in lockstep (a
//! Barthe–Crespo–Kunz product): every body once per joint step while all their guards
//! hold, under an invariant that needs no simultaneous termination; the copies then
//! finish their loops at later loop points (`Lockstep`): a loop whose guard is false runs
//! no more, the others run alone or in a smaller lockstep.

use super::genpp::{Cfg, End, Fail, FailKind, Item, Prover, Res};
use super::state::{Acc, Scope};
use crate::ir::{Expr, Quantifier, Stmt, Tuple};
use itertools::Itertools;

/// One loop of an alignment: the copy, the loop statement, its iterations per step.
#[derive(Clone, Copy)]
pub struct Aligned<'t> {
    /// The copy's index in the tuple.
    pub copy: usize,
    pub stmt: &'t Stmt,
    pub count: u32,
    /// The repetitions after the first run only while the guard holds ("up to `count`"
    /// iterations per joint step, `genpp::Item::Maybe`), instead of requiring it.
    pub upto: bool,
}

impl<'t> Aligned<'t> {
    pub fn cond(&self) -> &'t Expr {
        match self.stmt {
            Stmt::While { cond, .. } => cond,
            _ => unreachable!("aligned statements are loops"),
        }
    }
    pub fn body(&self) -> &'t [Stmt] {
        match self.stmt {
            Stmt::While { body, .. } => body,
            _ => unreachable!("aligned statements are loops"),
        }
    }
}

/// Loops that last ran in lockstep, each perhaps with iterations left.
#[derive(Clone)]
pub struct Lockstep<'t> {
    /// The copies and their loop statements.
    pub loops: Vec<(usize, &'t Stmt)>,
    /// The lockstep's loop point in `Prover::proof`.
    pub record: usize,
}

impl<'t> Lockstep<'t> {
    pub(super) fn has(&self, copy: usize, w: &Stmt) -> bool {
        self.loops.iter().any(|(c, v)| *c == copy && std::ptr::eq(*v, w))
    }
}

impl<'t> Prover<'t> {
    pub fn loop_point(&mut self, cfg: Cfg<'t>, acc: Acc, scope: Scope, end: &End) -> Res<Acc> {
        // A held loop runs again first (loop fission, `replay`).
        if let Some(r) = self.replay_point(&cfg, &acc, scope, end) {
            return r;
        }
        let waiting: Vec<(usize, &'t Stmt)> = (0..cfg.conts.len())
            .filter_map(|i| match cfg.conts[i].front() {
                Some(Item::S(w @ Stmt::While { .. })) => Some((i, *w)),
                _ => None,
            })
            .collect();
        let forall: Vec<usize> = waiting
            .iter()
            .map(|w| w.0)
            .filter(|&i| self.quantifier(i) == Quantifier::Forall)
            .collect();
        let lockstep = cfg.lockstep.clone().filter(|ls| waiting.iter().any(|&(i, w)| ls.has(i, w)));
        if let Some(ls) = &lockstep {
            // A lockstep's loop whose guard is now false runs no more (exact, no invariant).
            for &(c, w) in waiting.iter().filter(|&&(i, w)| ls.has(i, w)) {
                let g = cfg.st.eval_bool(match w {
                    Stmt::While { cond, .. } => cond,
                    _ => unreachable!("waiting copies are at a loop"),
                });
                let mut a = acc.clone();
                let rec = crate::smt::record::mark();
                match self.oblige(&mut a, &cfg.st, &g.not(), scope, "a lockstep loop's exit") {
                    Ok(()) => {
                        let mut next = cfg.clone();
                        next.conts[c].pop_front();
                        next.st.pc.push_back(g.not());
                        let start = self.candidates;
                        let al = [Aligned { copy: c, stmt: w, count: 1, upto: false }];
                        let what = format!("{} runs no more", self.tuple.copies[c].name);
                        let inv = "the guard is false: no iterations left".to_string();
                        self.record_as(&al, inv, start, Some(what), Some(ls.record));
                        let mark = self.proof.len() - 1;
                        return self.run(next, a, scope, end).inspect_err(|_| {
                            self.proof.truncate(mark);
                            crate::smt::record::rewind(rec);
                        });
                    }
                    Err(f) if f.kind == FailKind::Stopped => return Err(f),
                    Err(_) => {}
                }
            }
            // Loops that return early stop where the data says: split on their guards.
            if let Some(r) = self.split_lockstep_exit(&cfg, &acc, scope, end, ls, &waiting) {
                return r;
            }
            // Lockstep, then a few iterations alone (an unrolled loop's remainder).
            if let Some(r) = self.run_leftover_iteration(&cfg, &acc, scope, end, ls, &waiting) {
                return r;
            }
        }
        if let Some(r) = self.skip_false_guards(&cfg, &acc, scope, end, &waiting) {
            return r;
        }
        if forall.is_empty() {
            return self.exists_only(cfg, acc, scope, end);
        }
        let bound = self.tuple.hints.align.unwrap_or(2).clamp(1, 4);
        let locs = waiting.iter().map(|(i, w)| self.loop_name(*i, w)).join(" and ");
        let tried_before = self.candidates;
        let outer_closest = self.closest.take();
        let mut last: Option<Fail> = None;
        // Loops a few iterations apart: the copy behind catches up first. Where that
        // fails, its closest candidate is the one the reason names.
        let offsets = self.offsets(&cfg, &waiting);
        let mut offset_closest = None;
        for &off in &offsets {
            match self.run_offset(&cfg, &acc, scope, end, off) {
                Ok(a) => {
                    self.closest = outer_closest;
                    return Ok(a);
                }
                Err(f) if f.kind == FailKind::Stopped => return Err(f),
                Err(f) => {
                    offset_closest = self.closest.clone().or(offset_closest);
                    last = Some(f);
                }
            }
        }
        // Larger alignments first: running loops together is what relational proofs need.
        let n = waiting.len();
        // With many copies, only all of them, pairs and single loops (the sizes between
        // multiply the alignments tried without being what relational proofs use).
        let sizes: Vec<usize> =
            (1..=n).rev().filter(|&k| n < MANY_COPIES || k == n || k <= 2).collect();
        let mut subsets: Vec<Vec<usize>> = sizes
            .into_iter()
            .flat_map(|k| (0..n).combinations(k))
            .filter(|s| s.iter().any(|&k| self.quantifier(waiting[k].0) == Quantifier::Forall))
            .collect();
        subsets.dedup();
        // A loop run alone: first the copy furthest behind (the most statements still to
        // run). Copies of one program then move through their sequential loops together,
        // so that later loops can still be aligned, instead of one copy running all of its
        // loops alone first.
        let behind = |s: &Vec<usize>| match s.as_slice() {
            [k] => std::cmp::Reverse(cfg.conts[waiting[*k].0].len()),
            _ => std::cmp::Reverse(usize::MAX),
        };
        subsets.sort_by_key(|s| (std::cmp::Reverse(s.len()), behind(s)));
        // ForEx `[traceBound] n`: at most n alignments are tried at this loop point.
        let mut budget = self.tuple.hints.trace_bound.map_or(usize::MAX, |b| b as usize);
        // Exact alignments of several loops, then single loops, then locksteps (each
        // strictly smaller than the lockstep whose leftovers these are, so that they end).
        let may_lockstep = |s: &[usize]| {
            s.len() > 1
                && lockstep.as_ref().is_none_or(|ls| {
                    s.len() < ls.loops.len()
                        && s.iter().all(|&k| ls.has(waiting[k].0, waiting[k].1))
                })
        };
        let mut plans: Vec<Plan> = Vec::new();
        let plan = |subset: &Vec<usize>, counts: Vec<u32>, lockstep: bool| Plan {
            subset: subset.clone(),
            counts,
            lockstep,
            upto: false,
            hold: None,
        };
        for s in subsets.iter().filter(|s| s.len() > 1) {
            let uneven = s.len() <= 3;
            for counts in count_vectors(s.len(), bound) {
                if uneven || counts.iter().all(|&c| c == 1) {
                    let mut p = plan(s, counts, false);
                    // Loop fission: the single loop is held for a second run against the
                    // other copy's second loop (which, where that fails, is no run: the
                    // copy is released and this is the plain 1:1 alignment).
                    if let ([i, j], [1, 1]) = (s.as_slice(), p.counts.as_slice()) {
                        let (a, b) = (waiting[*i], waiting[*j]);
                        p.hold = [(a, b), (b, a)]
                            .into_iter()
                            .find(|(c, d)| self.fission_shape(&cfg, c.0, c.1, d.0, d.1))
                            .map(|(c, _)| c.0);
                    }
                    plans.push(p);
                }
            }
            if let [i, j] = s.as_slice() {
                let (a, b) = (waiting[*i], waiting[*j]);
                if let Some(counts) = step_ratio(self.tuple, a.1, b.1, bound) {
                    plans.push(plan(s, counts, false));
                }
            }
        }
        for s in subsets.iter().filter(|s| s.len() == 1) {
            plans.push(plan(s, vec![1], false));
        }
        for s in subsets.iter().filter(|s| may_lockstep(s)) {
            plans.push(plan(s, vec![1; s.len()], true));
            // An unrolled loop against the original: k iterations of one per iteration of
            // the other while both guards hold, the remainder after (see `offset`).
            if let [i, j] = s.as_slice() {
                if let Some(counts) = counter_ratio(self.tuple, waiting[*i].1, waiting[*j].1) {
                    plans.push(plan(s, counts, true));
                }
            }
        }
        // A loop whose body runs the original body once or twice (an unrolled copy guarded
        // inside): per joint step the other copy runs up to 2 iterations, each only while
        // its guard holds.
        for s in subsets.iter().filter(|s| s.len() == 2) {
            for counts in [vec![2, 1], vec![1, 2]] {
                plans.push(Plan { upto: true, ..plan(s, counts, false) });
            }
        }
        // Copies whose loops all return early (comparators: the first differing element
        // decides) rarely exit together unless they mirror each other, and running one
        // alone loses the relation: the lockstep of them all comes right after their
        // exact 1:1 alignment.
        if n >= 2
            && waiting.iter().all(|&(c, w)| {
                self.quantifier(c) == Quantifier::Forall
                    && super::exits::returns_early(self.tuple, c, w)
            })
        {
            let all: Vec<usize> = (0..n).collect();
            if let Some(k) = plans.iter().position(|p| p.lockstep && p.subset == all) {
                let p = plans.remove(k);
                let after =
                    plans.iter().position(|p| !p.lockstep && p.subset == all).map_or(0, |k| k + 1);
                plans.insert(after, p);
            }
        }
        // Right after an offset's peeled iterations, only loops run 1:1 (else the plans
        // are tried where the offset was found, without it).
        if cfg.caught_up {
            plans.retain(|p| p.subset.len() > 1 && p.counts.iter().all(|&c| c == 1));
        }
        let mut cfg = cfg;
        cfg.caught_up = false;
        'alignments: for Plan { subset, counts, lockstep: in_lockstep, upto, hold } in plans {
            {
                if budget == 0 {
                    break 'alignments;
                }
                budget -= 1;
                let align: Vec<Aligned<'t>> = subset
                    .iter()
                    .zip(&counts)
                    .map(|(&k, &c)| Aligned {
                        copy: waiting[k].0,
                        stmt: waiting[k].1,
                        count: c,
                        upto: upto && c > 1,
                    })
                    .collect();
                let role = hold.map(super::replay::Role::Hold);
                match self.houdini(
                    &cfg,
                    &acc,
                    scope,
                    end,
                    &align,
                    tried_before,
                    in_lockstep,
                    role.as_ref(),
                ) {
                    Ok(a) => {
                        self.closest = outer_closest;
                        return Ok(a);
                    }
                    Err(f) => {
                        if f.kind == FailKind::Stopped {
                            return Err(f);
                        }
                        last = Some(f);
                    }
                }
            }
        }
        let tried = self.candidates - tried_before;
        if offset_closest.is_some() {
            self.closest = offset_closest;
        }
        let closest = match (&self.closest, last) {
            (Some((_, c)), _) => format!("; closest: {c}"),
            (None, Some(f)) => format!("; last failure: {}", f.msg),
            (None, None) => String::new(),
        };
        // The offset found, in the reason's first words.
        let (apart, them) = match offsets.first() {
            Some(o) => (
                format!(
                    "the loops at {locs} run {} apart ({} behind); ",
                    super::offset::iterations(o.steps),
                    self.tuple.copies[o.behind].name
                ),
                "them".to_string(),
            ),
            None => (String::new(), format!("the loops at {locs}")),
        };
        // The enclosing search keeps the more informative of its own and this one's.
        if let Some((rank, c)) = outer_closest {
            self.note_closest(rank, c);
        }
        Err(Fail {
            kind: if self.saw_unknown.is_some() {
                FailKind::Undecided
            } else {
                FailKind::NoInvariant
            },
            msg: format!(
                "{apart}no invariant among {tried} candidates for {them} ({} loop point(s) \
                 proved before it on this path){closest}",
                self.proof.len()
            ),
        })
    }

    pub(super) fn loop_name(&self, copy: usize, w: &Stmt) -> String {
        let loc = match w {
            Stmt::While { loc, .. } => *loc,
            _ => Default::default(),
        };
        format!("{}@{}:{}", self.tuple.copies[copy].name, self.tuple.copy_file(copy), loc)
    }
}

/// One alignment to try at a loop point: which of the waiting loops, their counts, and
/// how the copies run together (exactly; in lockstep with leftovers; up to the counts).
struct Plan {
    subset: Vec<usize>,
    counts: Vec<u32>,
    lockstep: bool,
    upto: bool,
    /// The copy whose loop is held after an exact alignment, to run again (`replay`).
    hold: Option<usize>,
}

/// From this many waiting loops on, alignments are all of them, pairs, or single loops.
const MANY_COPIES: usize = 5;

/// The largest iteration count `step_ratio` proposes.
const MAX_STEP_RATIO: u32 = 8;

/// Counts beyond `bound` for two loops whose guard counters step by constants in ratio
/// k (`i += 3` against `j++`: the second runs 3 times per iteration of the first), so
/// that their copies move in proportion; `None` when the ratio is within `bound` (the
/// count vectors have it) or not a whole number up to `MAX_STEP_RATIO`.
fn step_ratio(tuple: &Tuple, a: &Stmt, b: &Stmt, bound: u32) -> Option<Vec<u32>> {
    let guard_step = |s: &Stmt| {
        let Stmt::While { cond, body, .. } = s else { return None };
        let mut vars = Vec::new();
        cond.for_each_var(&mut |v| vars.push(v));
        super::mine::counters(tuple, body)
            .into_iter()
            .find(|(v, _)| vars.contains(v))
            .map(|(_, c)| c.unsigned_abs())
    };
    let (sa, sb) = (guard_step(a)?, guard_step(b)?);
    let (big, small) = (sa.max(sb), sa.min(sb));
    if small == 0 || big % small != 0 {
        return None;
    }
    let k = u32::try_from(big / small).ok().filter(|&k| k > bound && k <= MAX_STEP_RATIO)?;
    // The loop with the larger step runs once per k iterations of the other.
    Some(if sa > sb { vec![1, k] } else { vec![k, 1] })
}

/// Counts k:1 (k in 2..=`MAX_STEP_RATIO`) for two loops whose guard counters, or else
/// counters of one name, step by constants in ratio k: the loop with the smaller step
/// runs k iterations per iteration of the other (`i += 2` against `i++`; `c += 2`
/// against `c++` in `x /= 100` against `x /= 10`).
fn counter_ratio(tuple: &Tuple, a: &Stmt, b: &Stmt) -> Option<Vec<u32>> {
    let parts = |s: &Stmt| match s {
        Stmt::While { cond, body, .. } => {
            let mut vars = Vec::new();
            cond.for_each_var(&mut |v| vars.push(v));
            Some((vars, super::mine::counters(tuple, body)))
        }
        _ => None,
    };
    let ((ga, ca), (gb, cb)) = (parts(a)?, parts(b)?);
    let ratio = |sa: i64, sb: i64| {
        let (big, small) =
            (sa.unsigned_abs().max(sb.unsigned_abs()), sa.unsigned_abs().min(sb.unsigned_abs()));
        let k = u32::try_from(big / small.max(1)).ok()?;
        (small > 0 && big % small == 0 && (2..=MAX_STEP_RATIO).contains(&k)).then(|| {
            if sa.unsigned_abs() > sb.unsigned_abs() {
                vec![1, k]
            } else {
                vec![k, 1]
            }
        })
    };
    let guard_step = |g: &[crate::ir::VarId], c: &[(crate::ir::VarId, i64)]| {
        c.iter().find(|(v, _)| g.contains(v)).map(|(_, s)| *s)
    };
    if let (Some(sa), Some(sb)) = (guard_step(&ga, &ca), guard_step(&gb, &cb)) {
        return ratio(sa, sb);
    }
    ca.iter().find_map(|&(x, sx)| {
        let y = cb.iter().find(|&&(y, _)| tuple.var(y).name == tuple.var(x).name)?;
        ratio(sx, y.1)
    })
}

/// Iteration-count vectors with entries in 1..=bound, all-ones first, without common
/// factors (counts (2,2) repeat (1,1)).
fn count_vectors(n: usize, bound: u32) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = (0..n)
        .map(|_| 1..=bound)
        .multi_cartesian_product()
        .filter(|v| v.iter().copied().fold(0, num_integer::gcd) == 1 || n == 0)
        .collect();
    if n == 1 {
        out.truncate(1);
    }
    out.sort_by_key(|v| v.iter().sum::<u32>());
    out
}
