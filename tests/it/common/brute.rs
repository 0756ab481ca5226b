//! A brute-force oracle for ∀∃ Hoare tuples over small finite state spaces.
//!
//! It decides validity exactly, independently of every engine (and of `forex::interp`):
//! it has its own evaluator that follows the semantics in the header of `src/ir.rs`.
//! Supported: variables of type `bool`, `bvN` with N ≤ 4 and `string`; expressions of type
//! bool, bvN (N ≤ 64) and string, with `int` only as `len(s)` arithmetic. Strings range over
//! infinitely many values, so a string input that matters must be bounded by a top-level
//! conjunct of `pre` of the form `v == "…" || v == "…"`, and `s = *` must be followed by
//! `assume` of that form: the enumeration then stays exact. Anything else (int variables,
//! arrays, quantifiers, unbounded strings) gives `None`.
//!
//! Method: enumerate all initial states of all copies that satisfy `pre` (pruning with
//! each top-level conjunct of `pre` as soon as its variables are assigned). For each copy
//! and initial state, the exact set of final states of terminating runs is the set of
//! end configurations reachable in the finite graph (program point × state); runs that
//! never terminate reach no end configuration and so contribute nothing — no unrolling
//! bound is involved. Then valid iff for every initial tuple and every combination of ∀
//! final states some combination of ∃ final states satisfies `post`.

mod eval;
mod float;

pub use eval::{eval, eval_in, Strings};
use eval::{expr_ok, literal_domain, mask, width};
use forex::ir::{BinOp, Block, Expr, ExprKind, Quantifier, Stmt, Tuple, Type, VarId};
use forex::value::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

/// The oracle's answer on a supported tuple.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Valid,
    Invalid(Witness),
}

impl Answer {
    pub fn is_valid(&self) -> bool {
        matches!(self, Answer::Valid)
    }
}

/// Why a tuple is invalid: initial states of all copies satisfying `pre`, and final states
/// of the ∀ copies for which no combination of ∃ final states satisfies `post`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Per copy (in tuple order): variable name → initial value.
    pub initial: Vec<BTreeMap<String, Value>>,
    /// Per ∀ copy (in tuple order): variable name → final value.
    pub forall_finals: Vec<BTreeMap<String, Value>>,
}

impl fmt::Display for Witness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |m: &BTreeMap<String, Value>| {
            m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
        };
        for (i, m) in self.initial.iter().enumerate() {
            writeln!(f, "copy {i} initial: {}", show(m))?;
        }
        for (i, m) in self.forall_finals.iter().enumerate() {
            writeln!(f, "forall copy {i} final: {}", show(m))?;
        }
        Ok(())
    }
}

/// Work bounds: beyond them the oracle answers `None` rather than running for long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest number of configurations explored plus initial tuples enumerated.
    pub max_work: u64,
    /// Skip initial values that cannot matter (dead at entry and not in pre) and take
    /// equalities of pre as assignments. Off only to cross-check these shortcuts.
    pub shortcuts: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_work: 20_000_000, shortcuts: true }
    }
}

/// Decides `tuple` exactly; `None` when it is outside the supported fragment or too big.
pub fn decide(tuple: &Tuple) -> Option<Answer> {
    decide_with(tuple, Limits::default())
}

pub fn decide_with(tuple: &Tuple, limits: Limits) -> Option<Answer> {
    if !supported(tuple) {
        return None;
    }
    Oracle::new(tuple, limits)?.run()
}

/// Whether the tuple is in the fragment this oracle decides.
pub fn supported(t: &Tuple) -> bool {
    t.vars.iter().all(|v| matches!(v.ty, Type::Bool | Type::Str) || matches!(v.ty, Type::Bv(w) if w <= 4))
        && expr_ok(&t.pre)
        && expr_ok(&t.post)
        && t.copies.iter().all(|c| block_ok(t, &c.body))
        // The evaluator relies on ∀ copies coming first (an IR invariant).
        && t.copies.windows(2).all(|w| {
            !(w[0].quantifier == Quantifier::Exists && w[1].quantifier == Quantifier::Forall)
        })
}

/// The finite set of values `s = *` can take for a string variable: the domain of the
/// `assume` right after it.
fn havoc_domain(var: VarId, next: Option<&Stmt>) -> Option<Vec<String>> {
    let Some(Stmt::Assume { cond, .. }) = next else { return None };
    literal_domain(cond).and_then(|(v, dom)| (v == var).then_some(dom))
}

fn block_ok(t: &Tuple, b: &Block) -> bool {
    b.iter().enumerate().all(|(i, s)| match s {
        Stmt::Skip => true,
        // The generator makes no cuts; the oracle has no meaning for them.
        Stmt::Cut { .. } => false,
        Stmt::Havoc { var, .. } => {
            t.var(*var).ty != Type::Str || havoc_domain(*var, b.get(i + 1)).is_some()
        }
        // Observations are not modelled yet: such tuples are left to other tests.
        Stmt::Store { .. } | Stmt::Observe { .. } => false,
        Stmt::Assign { value, .. } => expr_ok(value),
        Stmt::Assume { cond, .. } => expr_ok(cond),
        Stmt::If { cond, then_branch, else_branch, .. } => {
            expr_ok(cond) && block_ok(t, then_branch) && block_ok(t, else_branch)
        }
        Stmt::IfStar { then_branch, else_branch, .. } => {
            block_ok(t, then_branch) && block_ok(t, else_branch)
        }
        Stmt::While { cond, body, .. } => expr_ok(cond) && block_ok(t, body),
    })
}

/// One instruction of a copy's control-flow graph; program point `code.len()` is the end.
enum Ins<'a> {
    Assign(usize, &'a Expr),
    Havoc(usize),
    /// `s = *` on a string, among the values of the `assume` after it.
    HavocAmong(usize, Vec<u128>),
    /// Blocks the run when false.
    Assume(&'a Expr),
    /// Falls through when true, jumps to the target when false.
    Branch(&'a Expr, usize),
    /// Continues at the next instruction or at the target.
    Choice(usize),
    Jump(usize),
}

struct Compiler<'a, 'b> {
    local: &'b [usize],
    strings: &'b Strings,
    code: Vec<Ins<'a>>,
}

fn compile<'a>(block: &'a [Stmt], c: &mut Compiler<'a, '_>) {
    let local = c.local;
    for (at, s) in block.iter().enumerate() {
        match s {
            Stmt::Skip => {}
            Stmt::Cut { .. } => unreachable!("block_ok refuses cuts"),
            Stmt::Assign { var, value, .. } => c.code.push(Ins::Assign(local[var.index()], value)),
            Stmt::Havoc { var, .. } => {
                let ins = match havoc_domain(*var, block.get(at + 1)) {
                    Some(dom) => Ins::HavocAmong(
                        local[var.index()],
                        dom.iter().map(|s| c.strings.intern(s)).collect(),
                    ),
                    None => Ins::Havoc(local[var.index()]),
                };
                c.code.push(ins);
            }
            Stmt::Assume { cond, .. } => c.code.push(Ins::Assume(cond)),
            Stmt::Store { .. } | Stmt::Observe { .. } => {
                unreachable!("arrays and observations are rejected before compiling")
            }
            Stmt::If { cond, then_branch, else_branch, .. } => {
                let br = c.code.len();
                c.code.push(Ins::Jump(0));
                compile(then_branch, c);
                let jump_end = c.code.len();
                c.code.push(Ins::Jump(0));
                c.code[br] = Ins::Branch(cond, c.code.len());
                compile(else_branch, c);
                c.code[jump_end] = Ins::Jump(c.code.len());
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                let br = c.code.len();
                c.code.push(Ins::Jump(0));
                compile(then_branch, c);
                let jump_end = c.code.len();
                c.code.push(Ins::Jump(0));
                c.code[br] = Ins::Choice(c.code.len());
                compile(else_branch, c);
                c.code[jump_end] = Ins::Jump(c.code.len());
            }
            Stmt::While { cond, body, .. } => {
                let head = c.code.len();
                c.code.push(Ins::Jump(0));
                compile(body, c);
                c.code.push(Ins::Jump(head));
                c.code[head] = Ins::Branch(cond, c.code.len());
            }
        }
    }
}

/// A copy's state packed into a u64: variable i at bits offset[i] .. offset[i] + width[i].
struct Layout {
    offset: Vec<u32>,
    width: Vec<u32>,
}

impl Layout {
    fn get(&self, s: u64, i: usize) -> u128 {
        ((s >> self.offset[i]) as u128) & mask(self.width[i])
    }
    fn set(&self, s: u64, i: usize, v: u128) -> u64 {
        let m = (mask(self.width[i]) as u64) << self.offset[i];
        (s & !m) | (((v as u64) << self.offset[i]) & m)
    }
    fn bits(&self) -> u32 {
        self.width.iter().sum()
    }
}

struct CopyInfo<'a> {
    code: Vec<Ins<'a>>,
    layout: Layout,
    /// Bits of the variables `post` reads.
    post_mask: u64,
    /// Variables (bit i: local variable i) whose initial value can influence which runs
    /// exist or the `post`-relevant final values.
    live_at_entry: u64,
}

fn vars_of(e: &Expr, local: &[usize]) -> u64 {
    let mut m = 0u64;
    e.for_each_var(&mut |v| m |= 1 << local[v.index()]);
    m
}

/// Backward liveness over the control-flow graph; `at_end` is what `post` reads.
fn live_at_entry(code: &[Ins], local: &[usize], at_end: u64) -> u64 {
    let end = code.len();
    let mut live = vec![0u64; end + 1];
    live[end] = at_end;
    loop {
        let mut changed = false;
        for pc in (0..end).rev() {
            let (uses, defs, succs): (u64, u64, Vec<usize>) = match &code[pc] {
                Ins::Assign(i, e) => (vars_of(e, local), 1 << i, vec![pc + 1]),
                Ins::Havoc(i) | Ins::HavocAmong(i, _) => (0, 1 << i, vec![pc + 1]),
                Ins::Assume(e) => (vars_of(e, local), 0, vec![pc + 1]),
                Ins::Branch(e, t) => (vars_of(e, local), 0, vec![pc + 1, *t]),
                Ins::Choice(t) => (0, 0, vec![pc + 1, *t]),
                Ins::Jump(t) => (0, 0, vec![*t]),
            };
            let out = succs.iter().fold(0u64, |m, s| m | live[*s]);
            let new = uses | (out & !defs);
            if new != live[pc] {
                live[pc] = new;
                changed = true;
            }
        }
        if !changed {
            return live[0];
        }
    }
}

struct Oracle<'a> {
    t: &'a Tuple,
    copies: Vec<CopyInfo<'a>>,
    /// Tuple variable → (copy, index within the copy).
    place: Vec<(usize, usize)>,
    /// Tuple variable → index within its copy (usize::MAX for no copy).
    local: Vec<usize>,
    nforall: usize,
    work: u64,
    limits: Limits,
    /// (copy, packed initial state) → interned set of projected final states.
    final_ids: HashMap<(usize, u64), u32>,
    sets: Vec<Vec<u64>>,
    set_ids: HashMap<Vec<u64>, u32>,
    /// Interned sets per copy → does the post hold for all ∀ / some ∃ finals?
    memo: HashMap<Vec<u32>, Option<Vec<u64>>>,
    /// String values: packed states hold their indices.
    strings: Rc<Strings>,
}

impl<'a> Oracle<'a> {
    fn new(t: &'a Tuple, limits: Limits) -> Option<Oracle<'a>> {
        let mut place = vec![(usize::MAX, usize::MAX); t.vars.len()];
        let mut local = vec![usize::MAX; t.vars.len()];
        for (c, copy) in t.copies.iter().enumerate() {
            for (i, v) in copy.vars.iter().enumerate() {
                place[v.index()] = (c, i);
                local[v.index()] = i;
            }
        }
        let mut post_vars = Vec::new();
        t.post.for_each_var(&mut |v| post_vars.push(v));
        let mut copies = Vec::new();
        let strings = Rc::new(Strings::default());
        for (c, copy) in t.copies.iter().enumerate() {
            let width: Vec<u32> = copy.vars.iter().map(|v| width(&t.var(*v).ty)).collect();
            let offset = width
                .iter()
                .scan(0, |acc, w| {
                    let o = *acc;
                    *acc += w;
                    Some(o)
                })
                .collect();
            let layout = Layout { offset, width };
            if layout.bits() > 63 {
                return None;
            }
            let mut post_mask = 0u64;
            let mut post_locals = 0u64;
            for v in &post_vars {
                let (pc, i) = place[v.index()];
                if pc == c {
                    post_mask |= (mask(layout.width[i]) as u64) << layout.offset[i];
                    post_locals |= 1 << i;
                }
            }
            let mut compiler = Compiler { local: &local, strings: &strings, code: Vec::new() };
            compile(&copy.body, &mut compiler);
            let code = compiler.code;
            let live_at_entry = live_at_entry(&code, &local, post_locals);
            copies.push(CopyInfo { code, layout, post_mask, live_at_entry });
        }
        let nforall = t.copies.iter().filter(|c| c.quantifier == Quantifier::Forall).count();
        Some(Oracle {
            t,
            copies,
            place,
            local,
            nforall,
            work: 0,
            limits,
            final_ids: HashMap::new(),
            sets: Vec::new(),
            set_ids: HashMap::new(),
            memo: HashMap::new(),
            strings,
        })
    }

    fn tick(&mut self, n: u64) -> Option<()> {
        self.work += n;
        (self.work <= self.limits.max_work).then_some(())
    }

    /// All final states of terminating runs of copy `c` from `init` (sorted).
    fn finals(&mut self, c: usize, init: u64) -> Option<Vec<u64>> {
        let info = &self.copies[c];
        let end = info.code.len();
        let mut seen: HashSet<(usize, u64)> = HashSet::new();
        let mut stack = vec![(0usize, init)];
        let mut out = Vec::new();
        let mut steps = 0u64;
        while let Some((pc, s)) = stack.pop() {
            if !seen.insert((pc, s)) {
                continue;
            }
            steps += 1;
            // Strings can grow without bound in a loop: give up rather than wrap.
            if self.strings.overflowed() || steps > self.limits.max_work {
                return None;
            }
            if pc == end {
                out.push(s);
                continue;
            }
            let lay = &info.layout;
            let env = |v: VarId| lay.get(s, self.local[v.index()]);
            let eval = |e: &Expr| eval_in(e, &env, &self.strings);
            match &info.code[pc] {
                Ins::Assign(i, e) => stack.push((pc + 1, lay.set(s, *i, eval(e)))),
                Ins::Havoc(i) => {
                    for v in 0..=mask(lay.width[*i]) {
                        stack.push((pc + 1, lay.set(s, *i, v)));
                    }
                }
                Ins::HavocAmong(i, values) => {
                    for v in values {
                        stack.push((pc + 1, lay.set(s, *i, *v)));
                    }
                }
                Ins::Assume(e) => {
                    if eval(e) != 0 {
                        stack.push((pc + 1, s));
                    }
                }
                Ins::Branch(e, target) => {
                    let next = if eval(e) != 0 { pc + 1 } else { *target };
                    stack.push((next, s));
                }
                Ins::Choice(target) => {
                    stack.push((pc + 1, s));
                    stack.push((*target, s));
                }
                Ins::Jump(target) => stack.push((*target, s)),
            }
        }
        self.tick(steps)?;
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// The interned set of `post`-relevant final states of copy `c` from `init`.
    fn final_set(&mut self, c: usize, init: u64) -> Option<u32> {
        if let Some(id) = self.final_ids.get(&(c, init)) {
            return Some(*id);
        }
        let pm = self.copies[c].post_mask;
        let mut set: Vec<u64> = self.finals(c, init)?.into_iter().map(|s| s & pm).collect();
        set.sort_unstable();
        set.dedup();
        let id = match self.set_ids.get(&set) {
            Some(id) => *id,
            None => {
                let id = self.sets.len() as u32;
                self.sets.push(set.clone());
                self.set_ids.insert(set, id);
                id
            }
        };
        self.final_ids.insert((c, init), id);
        Some(id)
    }

    fn post_holds(&self, states: &[u64]) -> bool {
        let env = |v: VarId| {
            let (c, i) = self.place[v.index()];
            self.copies[c].layout.get(states[c], i)
        };
        eval_in(&self.t.post, &env, &self.strings) != 0
    }

    /// For the given per-copy final sets: `None` if for all ∀ finals some ∃ finals
    /// satisfy post, else the failing ∀ finals.
    fn check_sets(&mut self, ids: &[u32]) -> Option<Option<Vec<u64>>> {
        if let Some(r) = self.memo.get(ids) {
            return Some(r.clone());
        }
        let sets: Vec<&Vec<u64>> = ids.iter().map(|id| &self.sets[*id as usize]).collect();
        let n = sets.len();
        let k = self.nforall;
        let mut result = None;
        let mut work = 0u64;
        // Odometer over the ∀ sets; an empty ∀ set makes the product empty (vacuous).
        if sets[..k].iter().all(|s| !s.is_empty()) {
            let mut fa = vec![0usize; k];
            'forall: loop {
                let mut states: Vec<u64> =
                    (0..n).map(|c| if c < k { sets[c][fa[c]] } else { 0 }).collect();
                // Odometer over the ∃ sets; an empty ∃ set means no witness.
                let mut found = false;
                if sets[k..].iter().all(|s| !s.is_empty()) {
                    let mut ex = vec![0usize; n - k];
                    loop {
                        for j in 0..n - k {
                            states[k + j] = sets[k + j][ex[j]];
                        }
                        work += 1;
                        if self.post_holds(&states) {
                            found = true;
                            break;
                        }
                        if !advance(&mut ex, |j| sets[k + j].len()) {
                            break;
                        }
                    }
                }
                if !found {
                    result = Some(states[..k].to_vec());
                    break 'forall;
                }
                if !advance(&mut fa, |c| sets[c].len()) {
                    break;
                }
            }
        }
        self.tick(work)?;
        self.memo.insert(ids.to_vec(), result.clone());
        Some(result)
    }

    fn run(mut self) -> Option<Answer> {
        // Each top-level conjunct of pre is checked once its last variable is assigned.
        let nvars = self.t.vars.len();
        let mut checks: Vec<Vec<&Expr>> = vec![Vec::new(); nvars + 1];
        for conj in self.t.pre.conjuncts() {
            let mut last = None;
            conj.for_each_var(&mut |v| last = last.max(Some(v.index())));
            checks[last.map_or(0, |l| l + 1)].push(conj);
        }
        // Values to try per variable: a variable neither live at entry nor read by pre
        // cannot affect the answer, so 0 stands for all its values; the later side of an
        // equality `u == v` between variables is forced to the earlier side's value.
        let mut in_pre = vec![false; nvars];
        self.t.pre.for_each_var(&mut |v| in_pre[v.index()] = true);
        let mut forced: Vec<Option<usize>> = vec![None; nvars];
        for conj in self.t.pre.conjuncts() {
            if let ExprKind::Binary(BinOp::Eq, a, b) = &conj.kind {
                if let (ExprKind::Var(x), ExprKind::Var(y)) = (&a.kind, &b.kind) {
                    let (lo, hi) = (x.index().min(y.index()), x.index().max(y.index()));
                    if self.limits.shortcuts && lo != hi && forced[hi].is_none() {
                        forced[hi] = Some(lo);
                    }
                }
            }
        }
        let irrelevant: Vec<bool> = (0..nvars)
            .map(|v| {
                let (c, i) = self.place[v];
                self.limits.shortcuts && !in_pre[v] && self.copies[c].live_at_entry & (1 << i) == 0
            })
            .collect();
        // A string that matters takes its values from a domain conjunct of pre.
        let mut domain: Vec<Option<Vec<u128>>> = vec![None; nvars];
        for conj in self.t.pre.conjuncts() {
            if let Some((v, dom)) = literal_domain(conj) {
                let values = dom.iter().map(|s| self.strings.intern(s)).collect();
                domain[v.index()].get_or_insert(values);
            }
        }
        let unbounded = |v: usize| {
            self.t.vars[v].ty == Type::Str
                && !irrelevant[v]
                && forced[v].is_none()
                && domain[v].is_none()
        };
        if (0..nvars).any(unbounded) {
            return None;
        }
        let mut values = vec![0u128; nvars];
        // Depth-first enumeration with an explicit stack of "next value to try".
        let strings = Rc::clone(&self.strings);
        let pre_ok = |values: &[u128], level: usize| {
            checks[level].iter().all(|e| eval_in(e, &|v: VarId| values[v.index()], &strings) != 0)
        };
        if !pre_ok(&values, 0) {
            return Some(Answer::Valid);
        }
        let mut level = 0usize; // number of variables assigned
        let mut next = vec![0u128; nvars + 1];
        loop {
            if level == nvars {
                if let Some(w) = self.leaf(&values)? {
                    return Some(Answer::Invalid(w));
                }
                // Backtrack.
                if level == 0 {
                    return Some(Answer::Valid);
                }
                level -= 1;
                continue;
            }
            let top = if irrelevant[level] { 0 } else { mask(width(&self.t.vars[level].ty)) };
            let candidate = match (forced[level], &domain[level]) {
                // Only the forced value; `next` counts whether it was tried.
                (Some(src), _) => (next[level] == 0).then_some(values[src]),
                (None, Some(dom)) if !irrelevant[level] => dom.get(next[level] as usize).copied(),
                (None, _) => (next[level] <= top).then_some(next[level]),
            };
            let Some(value) = candidate else {
                next[level] = 0;
                if level == 0 {
                    return Some(Answer::Valid);
                }
                level -= 1;
                continue;
            };
            values[level] = value;
            next[level] += 1;
            self.tick(1)?;
            if pre_ok(&values, level + 1) {
                level += 1;
            }
        }
    }

    /// Checks one initial tuple; `Some(witness)` when it violates the tuple.
    fn leaf(&mut self, values: &[u128]) -> Option<Option<Witness>> {
        let n = self.copies.len();
        let mut inits = vec![0u64; n];
        for (v, val) in values.iter().enumerate() {
            let (c, i) = self.place[v];
            inits[c] = self.copies[c].layout.set(inits[c], i, *val);
        }
        let mut ids = Vec::with_capacity(n);
        for (c, init) in inits.iter().enumerate() {
            ids.push(self.final_set(c, *init)?);
        }
        let Some(bad) = self.check_sets(&ids)? else {
            return Some(None);
        };
        // Recover full final states of the ∀ copies matching the projected failure.
        let mut forall_finals = Vec::new();
        for (c, proj) in bad.iter().enumerate() {
            let pm = self.copies[c].post_mask;
            let full = self.finals(c, inits[c])?;
            let s = *full.iter().find(|s| *s & pm == *proj).expect("projection of a final");
            forall_finals.push(self.named(c, s));
        }
        let initial = (0..n).map(|c| self.named(c, inits[c])).collect();
        Some(Some(Witness { initial, forall_finals }))
    }

    fn named(&self, c: usize, s: u64) -> BTreeMap<String, Value> {
        let copy = &self.t.copies[c];
        copy.vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let tv = self.t.var(*v);
                let x = self.copies[c].layout.get(s, i);
                let val = match tv.ty {
                    Type::Bool => Value::bool(x != 0),
                    Type::Str => Value::Str { value: self.strings.get(x) },
                    _ => Value::bv(x, width(&tv.ty)),
                };
                (tv.name.clone(), val)
            })
            .collect()
    }
}

/// Advances an odometer; false when it wrapped around.
fn advance(digits: &mut [usize], len: impl Fn(usize) -> usize) -> bool {
    for (j, d) in digits.iter_mut().enumerate() {
        *d += 1;
        if *d < len(j) {
            return true;
        }
        *d = 0;
    }
    false
}

/// The exact set of final states of terminating runs of copy `copy` from the initial
/// state `init` (indexed by the tuple's variables; other copies' entries are ignored),
/// each as the copy's values in declaration order. `None` outside the fragment.
pub fn copy_finals(t: &Tuple, copy: usize, init: &[Value]) -> Option<Vec<Vec<Value>>> {
    if !supported(t) {
        return None;
    }
    let mut o = Oracle::new(t, Limits::default())?;
    let mut s = 0u64;
    for (i, v) in t.copies[copy].vars.iter().enumerate() {
        let x = match &init[v.index()] {
            Value::Bool { value } => *value as u128,
            Value::Bv { value, .. } => *value,
            Value::Str { value } => o.strings.intern(value),
            _ => return None,
        };
        s = o.copies[copy].layout.set(s, i, x);
    }
    let finals = o.finals(copy, s)?;
    Some(finals.into_iter().map(|f| o.named_vec(copy, f)).collect())
}

impl Oracle<'_> {
    fn named_vec(&self, c: usize, s: u64) -> Vec<Value> {
        let names = self.named(c, s);
        self.t.copies[c].vars.iter().map(|v| names[&self.t.var(*v).name].clone()).collect()
    }
}
