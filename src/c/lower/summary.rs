//! Mutual summaries (Godlin–Strichman) for `forex equiv`: a second lowering of a directly
//! self-recursive function `f` in which each recursive call of `f`'s body is not unfolded
//! but reads an uninterpreted table `T` indexed by the call's arguments, as a library
//! function's table is (`call.rs`). Each call site k also sets ghost variables: `hit_k`
//! (false at the start) and the arguments it passed.
//!
//! `forex equiv` pairs two such lowerings of `f` (old and new) in a proof-only tuple:
//! `pre`: equal inputs and `old.T == new.T`; `post`: equal outputs and, for each call site
//! j of new, `new.hit_j ⇒ ∨_i (old.hit_i ∧ args_i(old) == args_j(new))` (call matching).
//!
//! Why a proof of that tuple proves the pair equivalent (the tuple `forall old, new`:
//! terminating runs from equal inputs end with equal outputs). Lowering refuses what the
//! argument does not cover: both summaries are deterministic (no nondeterministic value,
//! no library call under a spec; library tables are fixed inputs, equal in both), use no
//! globals or static locals (which the calls would share), take integer scalars (an
//! argument is its own table key) and return a scalar. Take terminating runs of old and
//! new from `x` and argue by induction on the depth of new's run (the nesting of its
//! recursive calls). Let `T(y)` be old's result from `y` where old's run from `y`
//! terminates, else new's result from `y` where new's terminates, else anything: both
//! versions are deterministic, so `T` is a function. Each call `y` of new's run is a
//! terminating run of new from `y` of smaller depth; where old's run from `y` terminates
//! too, the induction hypothesis says it has new's result, so new's call returns `T(y)`
//! either way. Each call `y` of old's run terminates and returns old's result, `T(y)`.
//! So both runs are their summaries' runs under this `T` (equal in both, as `pre` has
//! it), and the tuple's `post` says their outputs are equal.
//!
//! That is the partial-equivalence rule, and it needs no matching. Matching asks more:
//! every call new makes, old makes too (with equal arguments), so that the recursion of
//! new goes nowhere old's does not; without it new calling `f(n + 1) * 0`, which never
//! returns, would be proved equal to old's `0` (equal on every run where both terminate).
//! Each call site runs at most once per run (no call inside a loop, no `goto`; self tail
//! calls, which the ordinary lowering turns into a loop, are calls here too), so its
//! ghosts are the call's.
//!
//! Old's summary may also unfold its body's calls once (`Summary::unfolded`): each is a
//! call site as above, then `f`'s body inlined at the call's arguments (its own calls read
//! the table, as sites too) and `assume T[args] == result`. With `T` as above old's real run
//! still is a run of it (an inlined call computes old's result from its arguments, given
//! that its calls return theirs), so the argument is unchanged; new's calls may now be
//! matched by calls old makes one level down, which pairs base cases that differ by one
//! call (`n <= 1 ? n : …` against `n <= 0 ? 0 : …`).
//!
//! Undefined behaviour: an inner call's undefined behaviour is invisible in the summary
//! (its result is just `T(args)`), so a function with undefined-behaviour sites has no
//! summary unless `--no-ub` makes the sites `assume`s (a run through one is no run, in the
//! summary as in the unfolding). Mutual recursion (`f` calls `g` calls `f`) has no
//! summary: it stays unfolded.

use super::call::Arg;
use super::place::CV;
use super::{Lowerer, Span, VarTy};
use crate::c::ast::{self, Function};
use crate::c::types::Val;
use crate::ir::c::{CScalar, Summary, SummarySite};
use crate::ir::{Expr, Loc, Quantifier, Stmt, VarId};

/// The summary being lowered: the function, its table (made at the first call) and the
/// call sites so far; `spoiled`: why the lowering cannot be a summary.
#[derive(Clone, Debug, Default)]
pub struct SummaryState {
    func: String,
    /// The body's own calls are inlined once (their inner calls read the table) and
    /// `assume` that the table holds their result.
    unfold: bool,
    table: Option<VarId>,
    sites: Vec<(VarId, Vec<VarId>, Loc)>,
    spoiled: Option<String>,
}

/// `f`'s summary lowering (`cx.functions` holds `f`), or why it has none; with the
/// lowering that unfolds the body's calls once (`Summary::unfolded`).
pub fn summary(cx: &super::Context, f: &Function) -> Result<Summary, String> {
    let mut s = lowered(cx, f, false)?;
    s.unfolded = lowered(cx, f, true).ok().map(Box::new);
    Ok(s)
}

fn lowered(cx: &super::Context, f: &Function, unfold: bool) -> Result<Summary, String> {
    let name = f.name.name.as_str();
    for p in &f.params {
        match cx.var_ty(&p.ty) {
            Ok(VarTy::Scalar(s)) if !s.is_float() => {}
            _ => {
                return Err(format!(
                    "`{name}`'s parameter `{}` is not of an integer type",
                    p.name.name
                ))
            }
        }
    }
    if !matches!(cx.var_ty(&f.ret), Ok(VarTy::Scalar(_))) {
        return Err(format!("`{name}` does not return a scalar"));
    }
    if f.params.is_empty() {
        return Err(format!("`{name}` takes no parameters"));
    }
    if f.body.as_deref().is_some_and(super::flow::has_goto) {
        return Err(format!("`{name}` has a `goto`"));
    }
    let mut lw = Lowerer::new(cx, Quantifier::Forall);
    lw.summary = Some(SummaryState { func: name.to_string(), unfold, ..SummaryState::default() });
    let l = match lw.program(f) {
        Ok(l) => l,
        Err(super::Failure::Limit(hit)) => return Err(hit.to_string()),
        Err(super::Failure::Errors(_)) => return Err(format!("`{name}` does not lower")),
    };
    let Some(state) = &l.summary else { return Err("internal: no summary state".into()) };
    if let Some(why) = &state.spoiled {
        return Err(why.clone());
    }
    let (Some(table), false) = (state.table, state.sites.is_empty()) else {
        return Err(format!("`{name}` makes no recursive call of its own"));
    };
    if !l.globals.is_empty() {
        let gs: Vec<String> = l.globals.iter().map(|(g, _)| format!("`{g}`")).collect();
        return Err(format!(
            "`{name}` uses {} (globals and static locals are shared by its recursive calls)",
            gs.join(", ")
        ));
    }
    if !l.ub.is_empty() {
        return Err(format!(
            "`{name}` may have undefined behaviour ({} at line {}), which a summary of its \
             calls would hide (--no-ub assumes it away)",
            l.ub[0].kind, l.ub[0].line
        ));
    }
    let body = &l.program.body;
    if nondeterministic(body) {
        return Err(format!(
            "`{name}` is nondeterministic (a `__VERIFIER_nondet_*` value or a library call \
             under a spec)"
        ));
    }
    let hits: Vec<VarId> = state.sites.iter().map(|s| s.0).collect();
    if hit_in_loop(body, &hits, false) {
        return Err(format!("`{name}` calls itself inside a loop"));
    }
    let var_name = |v: VarId| l.program.vars[v.index()].name.clone();
    Ok(Summary {
        program: (*l.program).clone(),
        table: var_name(table),
        sites: state
            .sites
            .iter()
            .map(|(hit, args, loc)| SummarySite {
                hit: var_name(*hit),
                args: args.iter().map(|a| var_name(*a)).collect(),
                line: loc.line,
                col: loc.col,
            })
            .collect(),
        unfolded: None,
    })
}

/// Whether a lowered body chooses: a `havoc` or a nondeterministic branch.
fn nondeterministic(b: &[Stmt]) -> bool {
    b.iter().any(|s| match s {
        Stmt::Havoc { .. } | Stmt::IfStar { .. } => true,
        Stmt::If { then_branch, else_branch, .. } => {
            nondeterministic(then_branch) || nondeterministic(else_branch)
        }
        Stmt::While { body, .. } => nondeterministic(body),
        _ => false,
    })
}

/// Whether one of the `hits` flags is set inside a loop (a call made more than once per
/// run, whose ghosts would keep only the last).
fn hit_in_loop(b: &[Stmt], hits: &[VarId], in_loop: bool) -> bool {
    b.iter().any(|s| match s {
        Stmt::Assign { var, .. } => in_loop && hits.contains(var),
        Stmt::If { then_branch, else_branch, .. }
        | Stmt::IfStar { then_branch, else_branch, .. } => {
            hit_in_loop(then_branch, hits, in_loop) || hit_in_loop(else_branch, hits, in_loop)
        }
        Stmt::While { body, .. } => hit_in_loop(body, hits, true),
        _ => false,
    })
}

impl Lowerer<'_, '_> {
    /// Whether a call of `name` is a recursive call of the summary being lowered.
    pub(super) fn summarised(&self, name: &str) -> bool {
        self.summary.as_ref().is_some_and(|s| s.func == name)
    }

    /// A recursive call in a summary: the arguments (each into its ghost), the site's
    /// flag set, and the table read at the arguments.
    pub(super) fn summary_call(
        &mut self,
        f: &Function,
        args: &[ast::Expr],
        sp: &Span,
        out: &mut Vec<Stmt>,
    ) -> Option<CV> {
        let loc = self.loc(sp);
        let vals = self.arguments(f, args, sp, out)?;
        let k = self.summary.as_ref().map_or(0, |s| s.sites.len()) + 1;
        let mut ghosts = Vec::new();
        let mut keys = Vec::new();
        for (p, v) in f.params.iter().zip(vals) {
            let Arg::Val(CV::S(val)) = v else {
                self.spoil(format!(
                    "`{}`'s parameter `{}` is not a scalar",
                    f.name.name, p.name.name
                ));
                return None;
            };
            let g = self.var(&format!("$rec{k}.{}", p.name.name), VarTy::Scalar(val.ty), sp);
            out.push(Stmt::Assign { var: g, value: val.e, loc });
            keys.push(self.m().as_int(&self.val_of(g)));
            ghosts.push(g);
        }
        let hit = self.var(&format!("$rec{k}.hit"), VarTy::Scalar(CScalar::Bool), sp);
        out.push(Stmt::Assign { var: hit, value: Expr::bool(true), loc });
        // False at the program's start, as jump flags are.
        self.inline_flags.push(hit);
        let ret = match self.result_type(f, sp)? {
            Some(super::CTy::Scalar(s)) => s,
            _ => {
                self.spoil(format!("`{}` does not return a scalar", f.name.name));
                return None;
            }
        };
        let table = match self.summary.as_ref().and_then(|s| s.table) {
            Some(t) => t,
            None => {
                let ty = VarTy::Array(ret, f.params.len() as u32);
                let t = self.var(&format!("$rec.{}", f.name.name), ty, &f.name.span);
                if let Some(s) = self.summary.as_mut() {
                    s.table = Some(t);
                }
                t
            }
        };
        let Val { e: entry, .. } = self.select(table, &keys, ret);
        let unfold = self.summary.as_ref().is_some_and(|s| s.unfold) && self.frames.len() == 1;
        if let Some(s) = self.summary.as_mut() {
            s.sites.push((hit, ghosts.clone(), loc));
        }
        if unfold {
            // A call of the body: `f` inlined once at the arguments' values (its own calls
            // read the table), and the table holds its result (`T` is old's function).
            let given = ghosts.iter().map(|g| Arg::Val(CV::S(self.val_of(*g)))).collect();
            let CV::S(v) = self.inline(f, &[], sp, out, false, Some(given))? else {
                self.spoil(format!("`{}` does not return a scalar", f.name.name));
                return None;
            };
            out.push(Stmt::Assume { cond: Expr::same(entry, v.e.clone()), loc });
            return Some(CV::S(v));
        }
        let r = self.fresh(&format!("{}.call", f.name.name), VarTy::Scalar(ret), sp);
        out.push(Stmt::Assign { var: r, value: entry, loc });
        Some(CV::S(self.val_of(r)))
    }

    fn spoil(&mut self, why: String) {
        if let Some(s) = self.summary.as_mut() {
            s.spoiled.get_or_insert(why);
        }
    }
}
