//! Light quantifier elimination before a ∀∃ query goes to Z3's solvers.
//!
//! Most ∃ parameters of ORHLE-style tuples are fixed by an equality with ∀ values (an ∃
//! copy's input equal to a ∀ copy's, a choice solving `a + d == 21`), and Z3's `qe-light`
//! tactic (destructive equality resolution, linear equations solved for bound variables)
//! then leaves a quantifier-free query, answered in a fraction of a millisecond where
//! model-based instantiation or full elimination take 1–3 ms. The tactic needs the
//! equalities where it can see them: [`factor_antecedents`] first turns the prover's
//! conjunction of per-path obligations into one implication.

use itertools::Itertools;
use std::collections::HashSet;
use z3::ast::{Ast, Bool, Dynamic};

/// `assertion` after Z3's light quantifier elimination (`qe-light`), an equivalent
/// formula over the same free constants; `None` when the tactic failed (interrupted) or
/// split the goal.
pub fn eliminate_light(assertion: &Bool) -> Option<Bool> {
    let goal = z3::Goal::new(false, false, false);
    goal.assert(assertion);
    let result = z3::Tactic::new("qe-light").apply(&goal, None).ok()?;
    let mut subgoals = result.list_subgoals();
    let only = subgoals.next()?;
    if subgoals.next().is_some() {
        return None;
    }
    Some(Bool::and(&only.get_formulas()))
}

/// `assertion` with its equalities solved (Z3's `solve-eqs`: a variable equal to a term
/// it does not occur in is replaced by that term), an equisatisfiable formula; `None`
/// when the tactic failed (interrupted) or split the goal. Relational queries are full of
/// `old.x == new.x`, and Z3's SMT core, which forex's solvers are, does not substitute
/// them itself: both copies' `a[lo + (hi - lo) / 2]`, whose indices go through
/// `bv2int`, stayed two terms, and a binary search compared with itself kept the
/// solver past its 10-s limit where, the copies' indices made one term, it answers at once.
pub fn solve_equalities(assertion: &Bool) -> Option<Bool> {
    let goal = z3::Goal::new(false, false, false);
    goal.assert(assertion);
    let result = z3::Tactic::new("solve-eqs").apply(&goal, None).ok()?;
    let mut subgoals = result.list_subgoals();
    let only = subgoals.next()?;
    if subgoals.next().is_some() {
        return None;
    }
    Some(Bool::and(&only.get_formulas()))
}

/// The negated validity query `assertion` (`∀P. ∃B. ¬φ`) with as few quantifiers as the
/// light elimination leaves. The positive form `∃P. ∀B. φ` is tried first, with φ's
/// obligations factored ([`factor_antecedents`]): it is then `¬pc ∨ (assumes ∧ post)`,
/// a disjunction the elimination splits, where it cannot split the negation's
/// conjunction of clauses.
pub fn lighten(phi: &Bool, params: &[Dynamic], inner: &[Dynamic], assertion: &Bool) -> Bool {
    let phi = factor_antecedents(phi).unwrap_or_else(|| phi.clone());
    let positive = if inner.is_empty() {
        exists_free(params, &phi)
    } else {
        let bs: Vec<&dyn Ast> = inner.iter().map(|c| c as &dyn Ast).collect();
        exists_light(&params.iter().collect::<Vec<_>>(), &z3::ast::forall_const(&bs, &[], &phi))
    };
    if let Some(light) = positive {
        return light.not();
    }
    eliminate_light(assertion).unwrap_or_else(|| assertion.clone())
}

/// A quantifier-free equivalent of `∃vars. body`, if the light elimination gets there.
///
/// Boolean variables (the ∃ copies' `if (*)` choices), up to [`MAX_BOOL_FLAGS`] of them,
/// are expanded first: `∃b. φ` is `φ[b := true] ∨ φ[b := false]`, an equivalence the
/// elimination does not find by itself.
pub fn exists_free(vars: &[Dynamic], body: &Bool) -> Option<Bool> {
    let (body, abstracted) = abstract_quantifiers(body, vars);
    let (flags, others): (Vec<&Dynamic>, Vec<&Dynamic>) =
        vars.iter().partition(|p| p.as_bool().is_some());
    let (body, others) = if !flags.is_empty() && flags.len() <= MAX_BOOL_FLAGS {
        (expand_flags(&body, &flags), others)
    } else {
        (body, vars.iter().collect())
    };
    let (body, others) = expand_finite_domains(&body, others);
    let light = exists_light(&others, &body)?;
    if abstracted.is_empty() {
        return Some(light);
    }
    let pairs: Vec<(&Bool, &Bool)> = abstracted.iter().map(|(b, q)| (b, q)).collect();
    Some(light.substitute(&pairs))
}

/// `body` with each quantified subformula that mentions none of `vars` replaced by a
/// fresh Boolean constant, and the replacements (`(constant, subformula)`). The
/// quantifiers of a loop invariant (`forall j :: a[j] == b[j]`) are closed formulas over
/// the state, not over the ∃ parameters: abstracted, they let the light elimination
/// remove the parameters from an otherwise quantifier-free body, and substituting them
/// back gives an equivalent formula (the constants are free, never bound).
fn abstract_quantifiers(body: &Bool, vars: &[Dynamic]) -> (Bool, Vec<(Bool, Bool)>) {
    let found: Vec<Bool> = outermost_quantifiers(&Dynamic::from_ast(body))
        .iter()
        .filter_map(|q| q.as_bool())
        .collect();
    if found.is_empty() {
        return (body.clone(), Vec::new());
    }
    let bound: HashSet<&Dynamic> = vars.iter().collect();
    let closed: Vec<(Bool, Bool)> = found
        .into_iter()
        .filter(|q| crate::smt::query::all_constants(q).iter().all(|c| !bound.contains(c)))
        .map(|q| (Bool::fresh_const("quantified"), q))
        .collect();
    let pairs: Vec<(&Bool, &Bool)> = closed.iter().map(|(b, q)| (q, b)).collect();
    (body.substitute(&pairs), closed)
}

/// Most values an integer parameter's finite domain may have to be expanded.
const MAX_DOMAIN: usize = 8;

/// `∃vars. body` with the integer variables that `body` confines to a few values
/// (`n == 9 || n == 10 || n == 11`, an ∃ copy's `choiceVars` under its spec's `pre`)
/// expanded: `∃n. φ` is `⋁ₖ φ[n := k]` over that domain. The light elimination finds
/// no such witness by itself, and the query left quantified sends Z3's instantiation
/// after it (measured: 13 s and no answer, for Elaenia's `code-sinking`). Returns the
/// body and the variables still to eliminate.
fn expand_finite_domains<'a>(body: &Bool, vars: Vec<&'a Dynamic>) -> (Bool, Vec<&'a Dynamic>) {
    let mut body = body.clone();
    let mut rest = Vec::with_capacity(vars.len());
    let mut cases = 1usize;
    for v in vars {
        let domain = v.as_int().and_then(|n| Some((finite_domain(&body, &n)?, n)));
        match domain {
            Some((values, n)) if cases * values.len() <= MAX_DNF * 4 => {
                cases *= values.len();
                let disjuncts: Vec<Bool> = values
                    .iter()
                    .map(|k| body.substitute(&[(&n, &z3::ast::Int::from_i64(*k))]).simplify())
                    .collect();
                body = Bool::or(&disjuncts);
            }
            _ => rest.push(v),
        }
    }
    (body, rest)
}

/// A finite set `S` of values with `∃n. φ` equivalent to `⋁_{k ∈ S} φ[n := k]`, read
/// from literals `n == k` (`k` a numeral) and the connectives around them
/// ([`Confined`]). `None` when `n` is not confined that way or the domain is empty or
/// larger than [`MAX_DOMAIN`].
fn finite_domain(phi: &Bool, n: &z3::ast::Int) -> Option<Vec<i64>> {
    let mut values = confine(phi, &Dynamic::from_ast(n))?.values;
    values.sort_unstable();
    values.dedup();
    (!values.is_empty() && values.len() <= MAX_DOMAIN).then_some(values)
}

/// How a formula φ confines a variable `n` to a set `S` of values: for every `n`,
/// `φ[n]` implies `n ∈ S` or `∀k. φ[k]`. Both conjunctions and disjunctions keep this
/// with `S` the union of their parts' sets (in a conjunction, if `n` is in neither
/// part's set, both parts hold for every `k`), and with a nonempty `S` it gives the
/// expansion (`φ[n]` implies `φ[k]` for `k = n ∈ S`, or for any `k ∈ S`). A formula
/// without `n` confines it to the empty set; a literal `n == k` to `{k}`.
struct Confined {
    values: Vec<i64>,
    /// `φ[n]` implies `n ∈ S` outright: such a conjunct alone confines a conjunction,
    /// whatever its other conjuncts say about `n`.
    strict: bool,
}

/// [`finite_domain`]'s walk; `None` when φ mentions `n` unconfined.
fn confine(phi: &Bool, n: &Dynamic) -> Option<Confined> {
    let free = || Confined { values: Vec::new(), strict: false };
    match op(phi) {
        Some("and") => {
            let parts: Vec<Option<Confined>> = bools(phi).iter().map(|c| confine(c, n)).collect();
            let strictest = parts
                .iter()
                .flatten()
                .filter(|c| c.strict)
                .min_by_key(|c| c.values.len())
                .map(|c| c.values.clone());
            if let Some(values) = strictest {
                return Some(Confined { values, strict: true });
            }
            let parts: Vec<Confined> = parts.into_iter().collect::<Option<_>>()?;
            Some(Confined { values: union(parts.iter())?, strict: false })
        }
        Some("or") => {
            let parts: Vec<Confined> =
                bools(phi).iter().map(|d| confine(d, n)).collect::<Option<_>>()?;
            let strict = !parts.is_empty() && parts.iter().all(|c| c.strict);
            Some(Confined { values: union(parts.iter())?, strict })
        }
        Some("=>") => {
            let [a, b] = bools(phi).try_into().ok()?;
            if mentions(&a, n) {
                return None;
            }
            Some(Confined { values: confine(&b, n)?.values, strict: false })
        }
        _ if !mentions(phi, n) => Some(free()),
        _ => equated_numeral(phi, n).map(|k| Confined { values: vec![k], strict: true }),
    }
}

/// The union of the parts' sets; `None` past a bound that no expansion would take.
fn union<'a>(parts: impl Iterator<Item = &'a Confined>) -> Option<Vec<i64>> {
    let mut all: Vec<i64> = parts.flat_map(|c| c.values.iter().copied()).collect();
    all.sort_unstable();
    all.dedup();
    (all.len() <= MAX_DOMAIN).then_some(all)
}

/// `k` when `b` is `n == k` or `k == n` with `k` an integer numeral.
fn equated_numeral(b: &Bool, n: &Dynamic) -> Option<i64> {
    if b.kind() != z3::AstKind::App || b.safe_decl().ok()?.name() != "=" {
        return None;
    }
    let [l, r] = b.children().try_into().ok()?;
    let numeral = |d: &Dynamic| d.as_int()?.as_i64();
    if l == *n {
        numeral(&r)
    } else if r == *n {
        numeral(&l)
    } else {
        None
    }
}

/// Whether the constant `n` occurs in `t` (quantifier bodies included).
fn mentions(t: &dyn Ast, n: &Dynamic) -> bool {
    crate::smt::query::all_constants(t).contains(n)
}

/// `∃params. body` without quantifiers, if the light elimination gets there: on the
/// whole, else on its disjunctive normal form when that is small (the elimination does
/// not distribute ∃ over a disjunction nested in a conjunction).
fn exists_light(params: &[&Dynamic], body: &Bool) -> Option<Bool> {
    if params.is_empty() {
        return Some(body.clone());
    }
    let ps: Vec<&dyn Ast> = params.iter().map(|c| *c as &dyn Ast).collect();
    let owned: Vec<Dynamic> = params.iter().map(|p| (*p).clone()).collect();
    let quantifier_free = |b: &Bool| {
        let light = eliminate_light(&z3::ast::exists_const(&ps, &[], b))?;
        (!binds_any(&light, &owned)).then_some(light)
    };
    if let Some(light) = quantifier_free(body) {
        return Some(light);
    }
    let cases = dnf(body, MAX_DNF)?;
    if cases.len() < 2 {
        return None;
    }
    quantifier_free(&Bool::or(&cases))
}

/// Largest disjunctive normal form [`exists_light`] builds.
const MAX_DNF: usize = 16;

/// The disjuncts of `b` with its top-level conjunctions distributed over its top-level
/// disjunctions (other connectives are literals here), if there are at most `limit`.
fn dnf(b: &Bool, limit: usize) -> Option<Vec<Bool>> {
    match op(b) {
        Some("or") => {
            let mut out = Vec::new();
            for d in bools(b) {
                out.extend(dnf(&d, limit)?);
                if out.len() > limit {
                    return None;
                }
            }
            Some(out)
        }
        Some("and") => {
            let parts: Vec<Vec<Bool>> =
                bools(b).iter().map(|c| dnf(c, limit)).collect::<Option<_>>()?;
            let size = parts.iter().try_fold(1usize, |n, p| n.checked_mul(p.len()));
            if parts.is_empty() || size.is_none_or(|n| n > limit) {
                return (parts.is_empty()).then(|| vec![b.clone()]);
            }
            Some(parts.into_iter().multi_cartesian_product().map(|c| Bool::and(&c)).collect())
        }
        _ => Some(vec![b.clone()]),
    }
}

/// Most Boolean parameters expanded by [`lighten`] (2⁴ = 16 cases).
const MAX_BOOL_FLAGS: usize = 4;

/// `∃flags. φ` without the quantifier: the disjunction of φ under every assignment.
fn expand_flags(phi: &Bool, flags: &[&Dynamic]) -> Bool {
    let vars: Vec<Bool> = flags.iter().filter_map(|f| f.as_bool()).collect();
    let cases: Vec<Bool> = (0..1u32 << vars.len())
        .map(|bits| {
            let values: Vec<Bool> =
                (0..vars.len()).map(|i| Bool::from_bool(bits >> i & 1 == 1)).collect();
            let pairs: Vec<(&Bool, &Bool)> = vars.iter().zip(values.iter()).collect();
            phi.substitute(&pairs).simplify()
        })
        .collect();
    Bool::or(&cases)
}

/// One conjunct of φ read as an implication: `¬(∧ ante) ∨ (∨ cons)`.
struct Clause {
    ante: Vec<Bool>,
    cons: Vec<Bool>,
}

impl Clause {
    fn read(c: &Bool) -> Clause {
        match op(c) {
            Some("=>") => {
                let [a, b] = bools(c).try_into().unwrap_or_else(|_| unreachable!("binary"));
                Clause { ante: conjuncts(&a), cons: vec![b] }
            }
            Some("or") => {
                let mut clause = Clause { ante: Vec::new(), cons: Vec::new() };
                for d in bools(c) {
                    match op(&d) {
                        Some("not") => clause.ante.extend(conjuncts(&bools(&d)[0])),
                        _ => clause.cons.push(d),
                    }
                }
                clause
            }
            Some("not") => Clause { ante: conjuncts(&bools(c)[0]), cons: Vec::new() },
            _ => Clause { ante: Vec::new(), cons: vec![c.clone()] },
        }
    }

    fn build(&self) -> Bool {
        let mut parts: Vec<Bool> = Vec::with_capacity(self.cons.len() + 1);
        if !self.ante.is_empty() {
            parts.push(Bool::and(&self.ante).not());
        }
        parts.extend(self.cons.iter().cloned());
        match parts.len() {
            1 => parts.pop().expect("one part"),
            _ => Bool::or(&parts),
        }
    }

    /// The literals a unit clause makes true (`None`: not a unit).
    fn unit(&self) -> Option<Vec<Bool>> {
        match (self.ante.is_empty(), self.cons.as_slice()) {
            (true, [c]) => Some(conjuncts(c)),
            _ => None,
        }
    }
}

/// φ = ∧ᵢ (L ∧ Xᵢ → Cᵢ) rewritten as `¬L ∨ ∧ᵢ (Xᵢ → Cᵢ)`, with L the antecedent
/// literals common to all conjuncts, and then the literals of unit conjuncts dropped from
/// the other antecedents (`U ∧ (U ∧ X → C)` is `U ∧ (X → C)`). Both steps are
/// equivalences. The prover's obligations for a loop-free ∃ path, `pc → a₁`,
/// `pc ∧ a₁ → a₂`, …, `pc ∧ a₁ ∧ … → post`, become `¬pc ∨ (a₁ ∧ a₂ ∧ … ∧ post)`.
/// `None` when neither step applies.
pub fn factor_antecedents(phi: &Bool) -> Option<Bool> {
    let mut clauses: Vec<Clause> = conjuncts(phi).iter().map(Clause::read).collect();
    if clauses.len() < 2 {
        return None;
    }
    let mut common: Vec<Bool> = clauses[0].ante.clone();
    for c in &clauses[1..] {
        let here: HashSet<&Bool> = c.ante.iter().collect();
        common.retain(|l| here.contains(l));
    }
    let mut changed = !common.is_empty();
    if changed {
        let drop: HashSet<&Bool> = common.iter().collect();
        for c in &mut clauses {
            c.ante.retain(|l| !drop.contains(l));
        }
    }
    // Unit propagation into antecedents, to a fixpoint (each round makes a unit or ends).
    let mut known: HashSet<Bool> = HashSet::new();
    loop {
        let before = known.len();
        for c in &clauses {
            if let Some(lits) = c.unit() {
                known.extend(lits);
            }
        }
        let mut dropped = false;
        for c in &mut clauses {
            let n = c.ante.len();
            c.ante.retain(|l| !known.contains(l));
            dropped |= c.ante.len() < n;
        }
        changed |= dropped;
        if !dropped && known.len() == before {
            break;
        }
    }
    if !changed {
        return None;
    }
    let rest = Bool::and(&clauses.iter().map(Clause::build).collect::<Vec<_>>());
    Some(if common.is_empty() { rest } else { Bool::or(&[Bool::and(&common).not(), rest]) })
}

/// Whether `t` contains a quantifier (a DAG walk, linear in the term).
pub fn has_quantifier(t: &Bool) -> bool {
    !outermost_quantifiers(&Dynamic::from_ast(t)).is_empty()
}

/// The quantified subterms of `t` not inside another quantifier (a DAG walk, linear in
/// the term).
fn outermost_quantifiers(t: &Dynamic) -> Vec<Dynamic> {
    let mut out = Vec::new();
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut stack = vec![t.clone()];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        match d.kind() {
            z3::AstKind::Quantifier => out.push(d),
            z3::AstKind::App => stack.extend(d.children()),
            _ => {}
        }
    }
    out
}

fn names_of(params: &[Dynamic]) -> HashSet<String> {
    params.iter().filter_map(|p| p.safe_decl().ok()).map(|d| d.name()).collect()
}

/// The terms `p` is equated with somewhere in `phi` (`p == t` or `t == p`, outside
/// quantifiers, `t` free of `p`), numerals and other parameters alike, in the order
/// found; at most [`MAX_EQUATED`] of them (more: the empty list).
pub fn equated_terms(phi: &Bool, p: &Dynamic) -> Vec<Dynamic> {
    let mut out: Vec<Dynamic> = Vec::new();
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut stack = vec![Dynamic::from_ast(phi)];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) || d.kind() != z3::AstKind::App {
            continue;
        }
        let children = d.children();
        let is_eq = d.safe_decl().is_ok_and(|f| f.name() == "=");
        if let (true, [l, r]) = (is_eq, children.as_slice()) {
            let other = if l == p {
                Some(r)
            } else if r == p {
                Some(l)
            } else {
                None
            };
            if let Some(t) = other {
                if !mentions(t, p) && !out.contains(t) {
                    out.push(t.clone());
                    if out.len() > MAX_EQUATED {
                        return Vec::new();
                    }
                }
            }
        }
        // Only through Boolean structure: an equality inside a term (an `ite`'s
        // condition) is a place the parameter is compared, not where it is fixed.
        if d.as_bool().is_some() {
            stack.extend(children.into_iter().filter(|c| c.as_bool().is_some()));
        }
    }
    out
}

/// Most terms [`equated_terms`] gives.
const MAX_EQUATED: usize = 6;

/// Whether a quantifier in `t` binds a variable named as one of `params`: the elimination left
/// one of the parameters quantified. (Quantifiers over other variables, a loop
/// invariant's `forall j`, may stay: they were in the body before.)
pub fn binds_any(t: &Bool, params: &[Dynamic]) -> bool {
    let names = names_of(params);
    let ctx = z3::Context::thread_local();
    let raw = ctx.get_z3_context();
    let mut pending = outermost_quantifiers(&Dynamic::from_ast(t));
    while let Some(q) = pending.pop() {
        // SAFETY: `q` is a live quantifier of this thread's context; each symbol's text
        // is copied before the next call, and the body is wrapped (and so
        // reference-counted) at once.
        let bound = unsafe { z3_sys::Z3_get_quantifier_num_bound(raw, q.get_z3_ast()) };
        for i in 0..bound {
            let symbol = unsafe { z3_sys::Z3_get_quantifier_bound_name(raw, q.get_z3_ast(), i) };
            let Some(symbol) = symbol else { return true };
            let name =
                unsafe { std::ffi::CStr::from_ptr(z3_sys::Z3_get_symbol_string(raw, symbol)) };
            if names.contains(name.to_string_lossy().as_ref()) {
                return true;
            }
        }
        if let Some(body) = unsafe { z3_sys::Z3_get_quantifier_body(raw, q.get_z3_ast()) } {
            pending.extend(outermost_quantifiers(&unsafe { Dynamic::wrap(&ctx, body) }));
        }
    }
    false
}

/// The name of a Boolean connective at the root of `b` (`and`, `or`, `not`, `=>`). By
/// name: the z3 crate's `DeclKind` numbering is newer than Z3 4.8.12's.
fn op(b: &Bool) -> Option<&'static str> {
    if b.kind() != z3::AstKind::App {
        return None;
    }
    let name = b.safe_decl().ok()?.name();
    ["and", "or", "not", "=>"].into_iter().find(|o| *o == name)
}

fn bools(b: &Bool) -> Vec<Bool> {
    b.children().iter().filter_map(|c| c.as_bool()).collect()
}

/// The conjuncts of `b`, nested conjunctions flattened.
fn conjuncts(b: &Bool) -> Vec<Bool> {
    if op(b) != Some("and") {
        return vec![b.clone()];
    }
    bools(b).iter().flat_map(conjuncts).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;
    use z3::{SatResult, Solver};

    fn equivalent(a: &Bool, b: &Bool) -> bool {
        let s = Solver::new();
        s.assert(a.eq(b).not());
        s.check() == SatResult::Unsat
    }

    #[test]
    fn a_chain_of_path_obligations_becomes_one_implication() {
        let s = Int::new_const("s");
        let p = Int::new_const("p");
        let d = Int::new_const("d");
        let pc = Bool::and(&[s.ge(2), s.le(20)]);
        let a1 = Bool::and(&[p.ge(2), p.le(20)]);
        let a2 = Bool::and(&[d.ge(1), d.le(10)]);
        let post = Bool::and(&[s.eq(&p), (&p + &d).eq(21)]);
        let phi = Bool::and(&[
            pc.implies(&a1),
            Bool::and(&[pc.clone(), a1.clone()]).implies(&a2),
            Bool::and(&[pc.clone(), a1.clone(), a2.clone()]).implies(&post),
        ]);
        let factored = factor_antecedents(&phi).expect("it applies");
        assert!(equivalent(&phi, &factored));
        let expected = Bool::or(&[pc.not(), Bool::and(&[a1, a2, post])]);
        assert!(equivalent(&factored, &expected));
        // And the light elimination then removes both parameters.
        let bound: Vec<&dyn Ast> = vec![&p, &d];
        let light = eliminate_light(&z3::ast::exists_const(&bound, &[], &factored)).unwrap();
        assert!(!has_quantifier(&light), "{light}");
    }

    /// The negated query `∀P. ∃B. ¬φ` that `lighten` starts from.
    fn negated(phi: &Bool, params: &[Dynamic], inner: &[Dynamic]) -> Bool {
        let mut body = phi.not();
        if !inner.is_empty() {
            let bs: Vec<&dyn Ast> = inner.iter().map(|c| c as &dyn Ast).collect();
            body = z3::ast::exists_const(&bs, &[], &body);
        }
        let ps: Vec<&dyn Ast> = params.iter().map(|c| c as &dyn Ast).collect();
        z3::ast::forall_const(&ps, &[], &body)
    }

    #[test]
    fn flags_and_disjunctions_are_expanded_into_a_quantifier_free_equivalent() {
        // ∃b, o. (b → o = x + 1) ∧ (¬b → o = x - 1) ∧ (o = y ∨ o = z): needs both the
        // Boolean expansion and the disjunctive normal form.
        let (x, y, z, o) =
            (Int::new_const("x"), Int::new_const("y"), Int::new_const("z"), Int::new_const("o"));
        let b = Bool::new_const("b");
        let phi = Bool::and(&[
            b.implies((&x + 1).eq(&o)),
            b.not().implies((&x - 1).eq(&o)),
            Bool::or(&[o.eq(&y), o.eq(&z)]),
        ]);
        let params = [Dynamic::from_ast(&b), Dynamic::from_ast(&o)];
        let assertion = negated(&phi, &params, &[]);
        let light = lighten(&phi, &params, &[], &assertion);
        assert!(!has_quantifier(&light), "{light}");
        assert!(equivalent(&light, &assertion));
    }

    #[test]
    fn flags_before_an_inner_universal_are_not_expanded() {
        // ∃b. ∀y. (b → y ≥ 0) ∧ (¬b → y < 0) is false, while ∀y. (φ[b:=⊤] ∨ φ[b:=⊥]) holds.
        let y = Int::new_const("y");
        let b = Bool::new_const("b");
        let phi = Bool::and(&[b.implies(y.ge(0)), b.not().implies(y.lt(0))]);
        let params = [Dynamic::from_ast(&b)];
        let inner = [Dynamic::from_ast(&y)];
        let assertion = negated(&phi, &params, &inner);
        let light = lighten(&phi, &params, &inner, &assertion);
        assert!(equivalent(&light, &assertion));
        // The negation holds: the query is not valid.
        let s = Solver::new();
        s.assert(&light);
        assert_eq!(s.check(), SatResult::Sat);
    }

    #[test]
    fn a_choice_confined_on_the_path_that_calls_is_expanded() {
        // ∃n. (c → n ∈ {9, 10, 11}) ∧ (¬c ∨ x < y ∨ n == 11) ∧ ∀j. a[j] ≥ 0: `n` is
        // confined where the call is made and free elsewhere; the closed quantifier
        // stays. The result binds no parameter and is equivalent.
        let (x, y, n) = (Int::new_const("x"), Int::new_const("y"), Int::new_const("n"));
        let c = Bool::new_const("c");
        let a = z3::ast::Array::new_const("a", &z3::Sort::int(), &z3::Sort::int());
        let j = Int::new_const("j");
        let closed = z3::ast::forall_const(&[&j], &[], &a.select(&j).as_int().unwrap().ge(0));
        let phi = Bool::and(&[
            c.implies(Bool::or(&[n.eq(9), n.eq(10), n.eq(11)])),
            Bool::or(&[c.not(), x.lt(&y), n.eq(11)]),
            closed,
        ]);
        assert_eq!(finite_domain(&phi, &n), Some(vec![9, 10, 11]));
        let params = [Dynamic::from_ast(&n)];
        let light = exists_free(&params, &phi).expect("eliminated");
        assert!(!binds_any(&light, &params), "{light}");
        assert!(equivalent(&light, &z3::ast::exists_const(&[&n], &[], &phi)));
        // Equated with another parameter (`r == n` where `c` holds), `n` is not confined:
        // that is the query engine's witness guess.
        let r = Int::new_const("r");
        assert!(finite_domain(&Bool::and(&[phi.clone(), c.implies(r.eq(&n))]), &n).is_none());
    }

    #[test]
    fn a_value_outside_the_literals_is_not_lost() {
        // ∃n. (n == 1 ∨ p) ∧ n ≠ 1 ∧ n ≠ 2: true when p holds (n = 3), and `n` is
        // equated only with 1; not confined, so not expanded, and still equivalent.
        let n = Int::new_const("n");
        let p = Bool::new_const("p");
        let phi = Bool::and(&[Bool::or(&[n.eq(1), p.clone()]), n.eq(1).not(), n.eq(2).not()]);
        assert!(finite_domain(&phi, &n).is_none());
        // With `n == 1 ∨ n == 2` as a conjunct it is confined, and the expansion is exact.
        let confined = Bool::and(&[Bool::or(&[n.eq(1), n.eq(2)]), Bool::or(&[n.eq(1), p])]);
        assert_eq!(finite_domain(&confined, &n), Some(vec![1, 2]));
        let params = [Dynamic::from_ast(&n)];
        let light = exists_free(&params, &confined).expect("eliminated");
        assert!(equivalent(&light, &z3::ast::exists_const(&[&n], &[], &confined)));
    }

    #[test]
    fn equated_terms_are_read_from_the_boolean_structure_only() {
        let (n, r, x) = (Int::new_const("n"), Int::new_const("r"), Int::new_const("x"));
        let c = Bool::new_const("c");
        let phi = Bool::and(&[
            c.implies(r.eq(&n)),
            Bool::or(&[n.eq(9), n.eq(10)]),
            // Inside a term: a comparison, not a definition.
            x.eq(c.ite(&Int::from_i64(1), &Int::from_i64(0))).ite(&r.eq(7), &r.eq(8)),
        ]);
        let terms = |v: &Int| equated_terms(&phi, &Dynamic::from_ast(v));
        assert_eq!(terms(&n).len(), 3, "r, 9, 10");
        assert_eq!(terms(&r).len(), 3, "n, 7, 8");
    }

    #[test]
    fn unrelated_conjuncts_are_left_alone() {
        let x = Int::new_const("x");
        let y = Int::new_const("y");
        let phi = Bool::and(&[x.ge(0).implies(y.ge(0)), y.le(5).implies(x.le(5))]);
        assert!(factor_antecedents(&phi).is_none());
        assert!(factor_antecedents(&x.ge(0)).is_none());
    }

    #[test]
    fn a_unit_is_not_dropped_from_its_own_clause() {
        // a ∧ (a → b): the unit a stays, only the other antecedent loses it.
        let x = Int::new_const("x");
        let a = x.ge(0);
        let b = x.le(3);
        let phi = Bool::and(&[a.clone(), a.implies(&b)]);
        let factored = factor_antecedents(&phi).unwrap();
        assert!(equivalent(&phi, &factored));
    }
}
