//! The Houdini search at one loop point (see [`super::loops`] for the plans): candidate
//! conjunctions checked for initiation, simultaneous termination (or a ranking function
//! for ∃-only loops) and consecution, atoms dropped as they fail, the closest failure
//! kept for the reason, and each attempt logged for `--explain`.

use super::genpp::{Cfg, End, Fail, FailKind, Item, Prover, Res};
use super::loops::{Aligned, Lockstep};
use super::mine;
use super::replay::Role;
use super::state::{Acc, Kind, Scope, SymState};
use crate::ir::{Expr, Quantifier, VarId};
use crate::verdict::LoopPointProof;
use itertools::Itertools;
use z3::ast::Bool;

/// The candidate kinds besides conjunctions of atoms.
enum Cand {
    Atoms(Vec<Expr>),
    Unreachable,
}

enum Attempt {
    Init(Fail),
    Term(Fail),
    Cons(Fail),
    Later(Fail),
}

impl<'t> Prover<'t> {
    /// Searches invariants for one alignment and continues after the loops with the
    /// first that works. `start`: the candidate counter when the loop point was reached.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn houdini(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        align: &[Aligned<'t>],
        start: u64,
        lockstep: bool,
        role: Option<&Role>,
    ) -> Res<Acc> {
        // Ghost variables keep the values on entering the loops, for invariants that
        // relate the current state to the entry state.
        self.loop_instances += 1;
        let n = self.tuple.vars.len() as u32;
        let base = n * self.loop_instances;
        let ghost = move |v: VarId| VarId(base + v.0);
        let mut cfg = cfg.clone();
        for al in align {
            for v in crate::ir::modified_vars(al.body()) {
                let t = cfg.st.vars[&v].clone();
                cfg.st.vars.insert(ghost(v), t);
            }
        }
        let cfg = &cfg;
        let mut atoms = self.ranking_atoms(align);
        atoms.extend(mine::atoms(self.tuple, align, &ghost, lockstep));
        // Initiation filter in priority order: all atoms at once when they are jointly
        // initial (the usual case), otherwise greedily one by one.
        let mut atoms: Vec<Expr> = atoms.into_iter().fold(Vec::new(), |mut v, a| {
            if !v.contains(&a) {
                v.push(a);
            }
            v
        });
        if let Some(max) = self.tuple.hints.max_conjuncts {
            atoms.truncate(max as usize);
        }
        let mut set: Vec<Expr> = Vec::new();
        // The atoms found not preserved, named in the reason when the rest fails later.
        let mut dropped: Vec<Expr> = Vec::new();
        if atoms.len() > 1 && self.initial(cfg, acc, scope, &atoms) {
            set = atoms;
        } else {
            for a in atoms {
                let mut trial = set.clone();
                trial.push(a);
                if self.initial(cfg, acc, scope, &trial) {
                    set = trial;
                } else if self.cancel.is_cancelled() {
                    return Err(Fail::stopped());
                }
            }
        }
        // Without parameters so far, a stronger invariant makes every later obligation
        // easier (the path condition only grows), so once the strongest candidate of this
        // alignment fails after the loops, weaker ones would too: they are not tried. With
        // parameters, a weaker consecution may leave the parameters free for what follows.
        let params = self.syms.params_since(scope.floor);
        // The strongest initial conjunction that does not make the loops exit together
        // says that no weaker one does: the alignment is abandoned before any consecution.
        let rec = crate::smt::record::mark();
        let never_together = align.len() > 1
            && !lockstep
            && matches!(self.termination(cfg, align, &set), Err(f) if !f.is_unknown());
        crate::smt::record::rewind(rec);
        // A lockstep whose invariant relates no two copies proves nothing that running the
        // loops one after the other would not.
        if lockstep && !set.iter().any(|a| self.relates_copies(a)) {
            return Err(Fail::invalid("no relational invariant for a lockstep"));
        }
        let mut weaker = true;
        let mut last: Option<Fail>;
        let mut cands = Vec::new();
        // Attempts with one conjunct dropped, for this alignment.
        // Only ∃ bodies that choose let conjuncts pick different choices each.
        let chooses = align.iter().any(|al| {
            self.quantifier(al.copy) == Quantifier::Exists && super::genpp::has_choice(al.body())
        });
        let mut drop_budget = if chooses { DROP_ONE_BUDGET } else { 0 };
        let mut robust_tried = false;
        loop {
            // Drop the conjuncts that are not preserved on their own, until none fails.
            if set.len() > 1 && !never_together {
                let failed = self.probe(cfg, acc, scope, align, &set);
                if let Some(failed) = failed {
                    if failed.iter().any(|f| *f) {
                        dropped
                            .extend(set.iter().zip(&failed).filter(|p| *p.1).map(|p| p.0.clone()));
                        set = preserved(&set, &failed);
                        continue;
                    }
                }
            }
            self.dropped.clone_from(&dropped);
            let r = self.attempt(
                cfg,
                acc,
                scope,
                end,
                align,
                &Cand::Atoms(set.clone()),
                false,
                start,
                lockstep,
                role,
            );
            match r {
                Ok(a) => return Ok(a),
                Err(Attempt::Cons(f)) if !set.is_empty() => {
                    // Preserved one by one but not jointly (or the probe was inconclusive):
                    // with ∃ choices in the bodies each conjunct may pick its own, so one
                    // can exclude another. Try the sets with one conjunct less, latest
                    // first, before giving up on the last conjunct.
                    last = Some(f);
                    for k in (0..set.len().saturating_sub(1)).rev() {
                        if drop_budget == 0 || self.cancel.is_cancelled() {
                            break;
                        }
                        drop_budget -= 1;
                        let mut trial = set.clone();
                        trial.remove(k);
                        let cand = Cand::Atoms(trial);
                        match self.attempt(
                            cfg, acc, scope, end, align, &cand, false, start, lockstep, role,
                        ) {
                            Ok(a) => return Ok(a),
                            Err(
                                Attempt::Init(f)
                                | Attempt::Term(f)
                                | Attempt::Cons(f)
                                | Attempt::Later(f),
                            ) => last = Some(f),
                        }
                    }
                    dropped.extend(set.pop());
                    if self.cancel.is_cancelled() {
                        break;
                    }
                }
                Err(Attempt::Later(f)) => {
                    weaker = params || f.is_unknown();
                    last = Some(f);
                    // Each conjunct was preserved for some choice of the parameters, but
                    // the choices that make the loops preserve all of them may be the ones
                    // that never enter the loops (`i - s == old(i) - old(s)` holds of a
                    // loop that runs 0 times): keep what is preserved for every choice.
                    if params && !robust_tried && !self.cancel.is_cancelled() {
                        robust_tried = true;
                        let robust = self.robust_subset(cfg, acc, scope, align, &set);
                        if !robust.is_empty() && robust != set {
                            set = robust;
                            continue;
                        }
                    }
                    break;
                }
                Err(Attempt::Term(f)) => {
                    weaker = f.is_unknown();
                    last = Some(f);
                    break;
                }
                Err(Attempt::Init(f) | Attempt::Cons(f)) => {
                    last = Some(f);
                    break;
                }
            }
        }
        if !set.is_empty() && weaker {
            cands.push(Cand::Atoms(Vec::new()));
        }
        cands.push(Cand::Unreachable);
        for c in cands {
            match self.attempt(cfg, acc, scope, end, align, &c, true, start, lockstep, role) {
                Ok(a) => return Ok(a),
                Err(Attempt::Init(f) | Attempt::Term(f) | Attempt::Cons(f) | Attempt::Later(f)) => {
                    last = Some(f)
                }
            }
        }
        Err(last.unwrap_or_else(|| Fail::invalid("no candidate")))
    }

    /// One candidate attempt, logged for `--explain` (see `Prover::tried`).
    #[allow(clippy::too_many_arguments)]
    fn attempt(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        align: &[Aligned<'t>],
        cand: &Cand,
        count: bool,
        start: u64,
        lockstep: bool,
        role: Option<&Role>,
    ) -> Result<Acc, Attempt> {
        // A failed candidate's valid obligations are no part of the proof (`smt::record`).
        let rec = crate::smt::record::mark();
        let r = self.attempt_inner(cfg, acc, scope, end, align, cand, count, start, lockstep, role);
        if r.is_err() {
            crate::smt::record::rewind(rec);
        }
        if self.tried.len() < MAX_TRIED_LOGGED {
            let text = match cand {
                Cand::Atoms(atoms) => format!("`{}`", self.inv_text(atoms)),
                Cand::Unreachable => "unreachable".to_string(),
            };
            let outcome = match &r {
                Ok(_) => "proved".to_string(),
                Err(Attempt::Init(f)) if f.is_unknown() => {
                    format!("initiation undecided ({})", f.msg)
                }
                Err(Attempt::Init(_)) => "does not hold on reaching the loops".to_string(),
                Err(Attempt::Term(_)) => "does not make the loops exit together".to_string(),
                Err(Attempt::Cons(f)) if f.is_unknown() => {
                    format!("consecution undecided ({})", f.msg)
                }
                Err(Attempt::Cons(_)) => "is not preserved by the loops".to_string(),
                Err(Attempt::Later(f)) => format!("holds, but after the loops: {}", f.msg),
            };
            let kind = if lockstep { " in lockstep" } else { "" };
            let line = format!("{}{kind}: {text} {outcome}", self.alignment_text(align));
            self.tried.push(line);
        }
        r
    }

    /// `a@f:4:3 ×2, b@f:9:3 ×1`: the loops of an alignment with their counts.
    pub(super) fn alignment_text(&self, align: &[Aligned<'t>]) -> String {
        align
            .iter()
            .map(|al| {
                let upto = if al.upto { "1.." } else { "" };
                format!("{} ×{upto}{}", self.loop_name(al.copy, al.stmt), al.count)
            })
            .join(", ")
    }

    #[allow(clippy::too_many_arguments)]
    fn attempt_inner(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        end: &End,
        align: &[Aligned<'t>],
        cand: &Cand,
        count: bool,
        start: u64,
        lockstep: bool,
        role: Option<&Role>,
    ) -> Result<Acc, Attempt> {
        if count {
            self.candidates += 1;
        }
        let dropped = std::mem::take(&mut self.dropped);
        let mark = self.proof.len();
        let atoms = match cand {
            Cand::Atoms(a) => a.clone(),
            Cand::Unreachable => {
                // Φ is unsatisfiable for the chosen parameters: nothing after this point runs.
                let mut a = acc.clone();
                self.oblige(&mut a, &cfg.st, &Bool::from_bool(false), scope, "unreachability")
                    .map_err(Attempt::Init)?;
                self.record(cfg, align, "Unreachable".into(), start);
                return Ok(a);
            }
        };
        let mut a = acc.clone();
        let init = cfg.st.eval_all(&atoms);
        self.oblige(&mut a, &cfg.st, &init, scope, "initiation").map_err(Attempt::Init)?;
        let text = self.inv_text(&atoms);
        let locs = align.iter().map(|al| self.loop_name(al.copy, al.stmt)).join(" and ");
        let run = if align.len() > 1 {
            format!(" run {}", align.iter().map(|al| al.count.to_string()).join(":"))
        } else {
            String::new()
        };
        let loops = if align.len() == 1 { "loop" } else { "loops" };
        // A lockstep needs no joint exit: the copies finish their loops later.
        let joint = if lockstep { Ok(()) } else { self.termination(cfg, align, &atoms) };
        if let Err(f) = joint {
            if atoms.is_empty() {
                return Err(Attempt::Term(f));
            }
            let c =
                format!("candidate `{text}` does not make the loops at {locs}{run} exit together");
            self.note_closest(CLOSEST_TERM, c);
            return Err(Attempt::Term(f));
        }
        let a = self.consecution(cfg, &a, scope, align, &atoms, End::Inv(atoms.clone()));
        let a = a.map_err(|f| {
            let c = if f.is_unknown() {
                format!(
                    "candidate `{text}` could not be shown preserved by the {loops} at \
                     {locs}{run} ({})",
                    f.msg
                )
            } else {
                format!("candidate `{text}` is not preserved by the {loops} at {locs}{run}")
            };
            // A failure of loops run 1:1 reads more plainly than one of uneven counts.
            let even = align.iter().all(|al| al.count == 1);
            self.note_closest(if even { CLOSEST_CONS } else { CLOSEST_CONS_UNEVEN }, c);
            Attempt::Cons(f)
        })?;
        // Continue after the loops from I ∧ ¬guards, with fresh values for what they modify.
        let mut next = cfg.clone();
        // Where a lockstep stops depends on the ∃ loops' guards; when those depend on
        // choices (parameters of this query, or choices in the ∃ bodies), a ∀ copy's
        // values there are universal inside the query, so that no parameter is chosen
        // knowing them. Chosen knowing them, a parameter could pick the ∃ run under which
        // the ∀ values at the stop are impossible, and prove anything about them.
        let midway = lockstep
            && align.iter().any(|al| self.quantifier(al.copy) == Quantifier::Exists)
            && (self.syms.params_since(scope.floor)
                || align.iter().any(|al| {
                    self.quantifier(al.copy) == Quantifier::Exists
                        && super::genpp::has_choice(al.body())
                }));
        let mut exit = self.havoc(&cfg.st, scope, align, false, midway);
        // A loop run again ends where its first run ended (see `replay`).
        if let Some(Role::Rerun(r)) = role {
            for (v, t) in &r.exit {
                exit.vars.insert(*v, t.clone());
            }
        }
        next.st = exit;
        let inv = next.st.eval_all(&atoms);
        next.st.pc.push_back(inv);
        if lockstep {
            // Some guard is false; the loops stay, for the copies to finish them.
            let gs: Vec<Bool> = align.iter().map(|al| next.st.eval_bool(al.cond())).collect();
            next.st.pc.push_back(Bool::and(&gs).not());
            let loops = align.iter().map(|al| (al.copy, al.stmt)).collect();
            next.lockstep = Some(Lockstep { loops, record: self.proof.len() });
        } else {
            for al in align {
                let g = next.st.eval_bool(al.cond());
                next.st.pc.push_back(g.not());
                next.conts[al.copy].pop_front();
            }
            next.replay = match role {
                Some(Role::Hold(c)) => Some(self.hold(cfg, &mut next, align, *c)),
                Some(Role::Rerun(_)) => None,
                None => next.replay,
            };
        }
        let mut proved = text.clone();
        if let Some(r) = self.ranking_for(align) {
            proved =
                format!("{text} (ranking function {})", crate::pretty::tuple_expr(self.tuple, &r));
        }
        if lockstep {
            let what = "lockstep while every guard holds".to_string();
            self.record_as(align, proved, start, Some(what), None);
        } else if let Some(role) = role {
            let what = self.role_text(role);
            self.record_as(align, proved, start, Some(what), None);
        } else {
            self.record(cfg, align, proved, start);
        }
        match self.run(next, a, scope, end) {
            Ok(a) => Ok(a),
            Err(f) => {
                self.proof.truncate(mark);
                if f.kind == FailKind::Invalid && !atoms.is_empty() {
                    let it = if align.len() == 1 { "it" } else { "them" };
                    let mut c = format!(
                        "candidate `{text}` is an invariant of the {loops} at {locs}{run}, but \
                         after {it}: {} fails",
                        f.msg
                    );
                    // What the loops did not preserve is what the proof missed.
                    if !dropped.is_empty() {
                        let shown =
                            dropped.iter().take(3).map(|a| self.inv_text(std::slice::from_ref(a)));
                        let more = if dropped.len() > 3 { ", …" } else { "" };
                        c += &format!(
                            "; not preserved: `{}`{more}",
                            shown.collect::<Vec<_>>().join("`, `")
                        );
                    }
                    self.note_closest(CLOSEST_LATER, c);
                }
                Err(Attempt::Later(f))
            }
        }
    }

    /// Keeps `text` as the closest failure unless a more informative one is known.
    pub(super) fn note_closest(&mut self, rank: u8, text: String) {
        // Among failed consecutions the latest (the smallest set) is closest; among the
        // others the first (the strongest candidate).
        let replaces = |r: u8| r < rank || (r == rank && rank == CLOSEST_CONS);
        if self.closest.as_ref().is_none_or(|(r, _)| replaces(*r)) {
            self.closest = Some((rank, text));
        }
    }

    /// Whether `atom` mentions variables of two copies (ghosts count as their copy's).
    fn relates_copies(&self, atom: &Expr) -> bool {
        let n = self.tuple.vars.len() as u32;
        let mut copies = Vec::new();
        atom.for_each_var(&mut |v| {
            let c = self.tuple.var(VarId(v.0 % n)).copy;
            if !copies.contains(&c) {
                copies.push(c);
            }
        });
        copies.len() > 1
    }

    fn inv_text(&self, atoms: &[Expr]) -> String {
        let n = self.tuple.vars.len() as u32;
        let name = |v: VarId| {
            if v.0 < n {
                self.tuple.var_display(v)
            } else {
                format!("old({})", self.tuple.var_display(VarId(v.0 % n)))
            }
        };
        crate::pretty::conjunction_with(self.tuple, atoms, &name)
    }

    /// Records a proved loop point; one that runs leftovers of a lockstep says so.
    fn record(&mut self, cfg: &Cfg<'t>, align: &[Aligned<'t>], invariant: String, start: u64) {
        let of = cfg
            .lockstep
            .as_ref()
            .filter(|ls| align.iter().all(|al| ls.has(al.copy, al.stmt)))
            .map(|ls| ls.record);
        let what = of.map(|_| {
            let names = align.iter().map(|al| self.tuple.copies[al.copy].name.as_str()).join(", ");
            if align.len() == 1 {
                format!("{names} alone")
            } else {
                format!("{names} together")
            }
        });
        // Iterations run only while the guard holds are no fixed count: say so.
        let what = what.or_else(|| {
            let al = align.iter().find(|al| al.upto)?;
            let name = &self.tuple.copies[al.copy].name;
            Some(format!("{name} runs up to {} iterations per joint step", al.count))
        });
        self.record_as(align, invariant, start, what, of);
    }

    pub(super) fn record_as(
        &mut self,
        align: &[Aligned<'t>],
        invariant: String,
        start: u64,
        alignment: Option<String>,
        leftover_of: Option<usize>,
    ) {
        let alignment = match (alignment, leftover_of) {
            (Some(a), Some(k)) => Some(format!("leftover of loop point {}: {a}", k + 1)),
            (a, _) => a,
        };
        self.proof.push(LoopPointProof {
            loops: align.iter().map(|al| self.loop_name(al.copy, al.stmt)).collect(),
            counts: align.iter().map(|al| al.count).collect(),
            invariant,
            candidates_tried: self.candidates - start,
            alignment,
            leftover_of,
        });
    }

    /// Whether the conjunction of `atoms` holds on reaching the loops (one candidate).
    fn initial(&mut self, cfg: &Cfg<'t>, acc: &Acc, scope: Scope, atoms: &[Expr]) -> bool {
        self.candidates += 1;
        let goal = cfg.st.eval_all(atoms);
        let mut a = acc.clone();
        // A filter of the search: the chosen candidate's initiation is checked again.
        let rec = crate::smt::record::mark();
        let ok = self.oblige(&mut a, &cfg.st, &goal, scope, "initiation").is_ok();
        crate::smt::record::rewind(rec);
        ok
    }

    /// Which conjuncts of `set` consecution does not preserve on their own (from all of
    /// `set`); `None` when the body could not be run to its end.
    fn probe(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        align: &[Aligned<'t>],
        set: &[Expr],
    ) -> Option<Vec<bool>> {
        let saved = std::mem::replace(&mut self.probe_failed, vec![false; set.len()]);
        let rec = crate::smt::record::mark();
        let r = self.consecution(cfg, acc, scope, align, set, End::Probe(set.to_vec()));
        crate::smt::record::rewind(rec);
        let failed = std::mem::replace(&mut self.probe_failed, saved);
        r.ok().map(|_| failed)
    }

    /// The largest subset of `set` whose consecution holds for every value of the
    /// parameters chosen before the loops (Houdini with those parameters universal);
    /// empty when a probe could not run.
    fn robust_subset(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        align: &[Aligned<'t>],
        set: &[Expr],
    ) -> Vec<Expr> {
        let mut set = set.to_vec();
        let saved = std::mem::replace(&mut self.robust, true);
        while !set.is_empty() {
            let Some(failed) = self.probe(cfg, acc, scope, align, &set) else {
                set.clear();
                break;
            };
            if !failed.iter().any(|f| *f) {
                break;
            }
            set = preserved(&set, &failed);
        }
        self.robust = saved;
        set
    }

    /// The state with fresh symbols for every variable the aligned loops modify.
    /// `head`: loop-head values of a consecution check; otherwise values after the loops.
    /// `midway`: the loops stop in lockstep when the first guard fails, so a ∀ copy's
    /// values there are not its loop's final values but depend on the ∃ copies.
    fn havoc(
        &mut self,
        st: &SymState,
        scope: Scope,
        align: &[Aligned<'t>],
        head: bool,
        midway: bool,
    ) -> SymState {
        let mut out = st.clone();
        for al in align {
            let forall = self.quantifier(al.copy) == Quantifier::Forall;
            let kind = match (head, forall) {
                (true, _) => Kind::Head,
                (false, true) if midway => Kind::Midway,
                (false, true) => Kind::Univ,
                (false, false) => Kind::ExHavoc,
            };
            for v in crate::ir::modified_vars(al.body()) {
                let name = self.tuple.var_display(v);
                let ty = self.tuple.var(v).ty.clone();
                out.vars.insert(v, self.syms.fresh(scope, &name, &ty, kind));
            }
        }
        out
    }

    /// Under the invariant, all aligned guards agree (checked for all values).
    fn termination(&mut self, cfg: &Cfg<'t>, align: &[Aligned<'t>], atoms: &[Expr]) -> Res<()> {
        if align.len() < 2 {
            return Ok(());
        }
        let scope = Scope { floor: self.syms.next_id(), conj: false };
        let mut h = self.havoc(&cfg.st, scope, align, true, false);
        h.pc.push_back(h.eval_all(atoms));
        let g0 = h.eval_bool(align[0].cond());
        let same: Vec<Bool> = align[1..].iter().map(|al| h.eval_bool(al.cond()).iff(&g0)).collect();
        let mut acc = Acc::new();
        self.oblige(&mut acc, &h, &Bool::and(&same), scope, "simultaneous termination")
    }

    /// From the hypothesis and all guards, running each aligned body its count of times
    /// re-establishes `goal`.
    fn consecution(
        &mut self,
        cfg: &Cfg<'t>,
        acc: &Acc,
        scope: Scope,
        align: &[Aligned<'t>],
        hyp: &[Expr],
        goal: End,
    ) -> Res<Acc> {
        // Body choices of ∃ copies must be able to depend on the loop-head state: such
        // checks get a query of their own. Otherwise the check joins the enclosing query,
        // so that parameters chosen before the loop are the same ones.
        let separate = self.robust
            || align.iter().any(|al| {
                self.quantifier(al.copy) == Quantifier::Exists
                    && super::genpp::has_choice(al.body())
            });
        let sc = if separate {
            Scope { floor: self.syms.next_id(), conj: false }
        } else {
            Scope { floor: scope.floor, conj: true }
        };
        let mut h = self.havoc(&cfg.st, sc, align, true, false);
        h.pc.push_back(h.eval_all(hyp));
        let goal = self.with_ranking(&mut h, align, goal);
        for al in align {
            let g = h.eval_bool(al.cond());
            h.pc.push_back(g);
        }
        let mut conts = vec![im::Vector::new(); cfg.conts.len()];
        for al in align {
            let mut c = im::Vector::new();
            c.extend(al.body().iter().map(Item::S));
            for _ in 1..al.count {
                if al.upto {
                    c.push_back(Item::Maybe(al.stmt));
                } else {
                    c.push_back(Item::Guard(al.cond()));
                    c.extend(al.body().iter().map(Item::S));
                }
            }
            conts[al.copy] = c;
        }
        let sub = Cfg {
            conts,
            st: h,
            unrolled: cfg.unrolled,
            unrolling: None,
            lockstep: None,
            peeled: cfg.peeled,
            must_end: None,
            caught_up: false,
            split: cfg.split,
            replay: None,
        };
        let start = if separate { Acc::new() } else { acc.clone() };
        let mark = self.proof.len();
        let r = self.run(sub, start, sc, &goal);
        // Loop points inside the body are part of this loop point's proof, not separate.
        self.proof.truncate(mark);
        let r = r?;
        Ok(if separate { acc.clone() } else { r })
    }
}

/// The conjuncts of `set` that a probe did not mark as failed.
fn preserved(set: &[Expr], failed: &[bool]) -> Vec<Expr> {
    set.iter().zip(failed).filter(|(_, f)| !**f).map(|(a, _)| a.clone()).collect()
}

/// How informative a failed candidate is for the reason: not preserved (by loops run 1:1,
/// then by uneven counts) beats not ending the loops together, which beats an invariant
/// too weak for what follows the loops.
const CLOSEST_CONS: u8 = 4;
const CLOSEST_CONS_UNEVEN: u8 = 3;
const CLOSEST_TERM: u8 = 2;
const CLOSEST_LATER: u8 = 1;

/// At most this many attempts are logged for `--explain`.
const MAX_TRIED_LOGGED: usize = 200;

/// At most this many attempts per alignment drop one conjunct from a jointly failing set.
const DROP_ONE_BUDGET: usize = 8;
