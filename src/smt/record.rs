//! The opt-in obligation log behind certificates (`forex prove --certificate`): while a
//! [`RecordScope`] lives on a thread, every validity query that [`super::query::QueryEngine`]
//! answers `Valid` on that thread is written down as a standalone SMT-LIB 2.6 script
//! (the negated obligation, expected `unsat`), with the proof step the prover named and
//! the ∃ strategy found for its parameters.
//!
//! Why here: every obligation of a proof goes through the query engine, so one hook there
//! collects them all without touching the prover's search. Terms never leave the thread:
//! what is kept is text.
//!
//! Strategy terms: for `∀A. ∃P. ∀B. φ`, candidate definitions `p = t` (t over A only) are
//! read off φ's equalities (`p = t`, `p + s = t`, Boolean parameters `true`/`false`) and
//! checked by Z3 with the candidates substituted (`∀A∀B. φ[P:=t]` valid). When every
//! parameter gets a term that way, the script defines them (`define-fun`) and is
//! quantifier-free; otherwise it keeps the quantified form `∀P. ∃B. ¬φ`.

mod strategy;

use strategy::{decl_name, find_strategy};

use super::query::{all_constants, free_constants, Class};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic};

/// One recorded obligation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The proof step that sent it (the prover's name for it: `initiation`, …).
    pub step: String,
    /// The standalone SMT-LIB script; `unsat` means the obligation holds.
    pub script: String,
    /// The ∃ parameters' terms used by the script (empty: no parameters, or kept quantified).
    pub strategy: Vec<StrategyTerm>,
    /// The script has quantifiers (parameters without a term, or a quantified pre/post).
    pub quantified: bool,
}

/// One ∃ parameter's chosen value as a term over the ∀ values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyTerm {
    /// The parameter as people read it (`c.r`: the ∃ choice assigned to `c.r`).
    pub param: String,
    /// The term in infix notation (`a.h + a.r - b.h`).
    pub term: String,
    /// The SMT-LIB `define-fun` line of the script that carries it.
    pub smt: String,
}

struct Log {
    /// Every valid obligation gets its script (certificates); otherwise only those
    /// with ∃ parameters, whose strategy terms are wanted.
    scripts: bool,
    step: String,
    items: Vec<Recorded>,
    /// Per item, the obligation it records (to forget it again on [`rewind`]).
    keys: Vec<Bool>,
    seen: HashSet<Bool>,
}

thread_local! {
    static LOG: RefCell<Option<Log>> = const { RefCell::new(None) };
    /// Time this thread's recording scope spent searching ∃ strategies.
    static STRATEGY_SPENT: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::ZERO) };
}

/// Longest all strategy searches of one recording scope may take together: a strategy
/// is for people and certificates, and must not eat the proof's own time limit (each
/// obligation may try several candidates and a case split; a proof has hundreds).
const STRATEGY_BUDGET: Duration = Duration::from_secs(1);

/// While alive, this thread's valid obligations are recorded; [`take`] reads them.
pub struct RecordScope {
    previous: Option<Option<Log>>,
    _not_send: PhantomData<*const ()>,
}

/// Starts recording on this thread (`on == false`: a scope that changes nothing).
pub fn scope(on: bool) -> RecordScope {
    scope_with(on, true)
}

/// [`scope`]; `scripts == false` records only obligations with ∃ parameters (for their
/// strategy terms): printing every obligation costs more than a large proof itself.
pub fn scope_with(on: bool, scripts: bool) -> RecordScope {
    let previous = on.then(|| {
        STRATEGY_SPENT.with(|s| s.set(Duration::ZERO));
        LOG.with(|l| {
            l.replace(Some(Log {
                scripts,
                step: String::new(),
                items: Vec::new(),
                keys: Vec::new(),
                seen: HashSet::new(),
            }))
        })
    });
    RecordScope { previous, _not_send: PhantomData }
}

impl Drop for RecordScope {
    fn drop(&mut self) {
        if let Some(previous) = self.previous.take() {
            LOG.with(|l| *l.borrow_mut() = previous);
        }
    }
}

/// Whether this thread records.
pub fn is_on() -> bool {
    LOG.with(|l| l.borrow().is_some())
}

/// Names the proof step of the next queries (the prover's hook).
pub fn note_step(step: &str) {
    LOG.with(|l| {
        if let Some(log) = l.borrow_mut().as_mut() {
            if log.step != step {
                log.step = step.to_string();
            }
        }
    });
}

/// Forgets what was recorded so far (a proof attempt that is abandoned as a whole).
pub fn clear() {
    rewind(0);
}

/// Where this thread's log is now, for [`rewind`].
pub fn mark() -> usize {
    LOG.with(|l| l.borrow().as_ref().map_or(0, |log| log.items.len()))
}

/// Forgets what was recorded since `mark`: the obligations of a candidate or branch the
/// search abandoned are no part of the proof, so neither its certificate nor its ∃
/// strategy lists them (a later check of the same obligation records it again).
pub fn rewind(mark: usize) {
    LOG.with(|l| {
        if let Some(log) = l.borrow_mut().as_mut() {
            if mark >= log.items.len() {
                return;
            }
            log.items.truncate(mark);
            for k in log.keys.drain(mark..) {
                log.seen.remove(&k);
            }
        }
    });
}

/// The obligations recorded so far on this thread (the log stays on, empty).
pub fn take() -> Vec<Recorded> {
    LOG.with(|l| match l.borrow_mut().as_mut() {
        Some(log) => {
            log.seen.clear();
            log.keys.clear();
            std::mem::take(&mut log.items)
        }
        None => Vec::new(),
    })
}

/// The recorded obligations as the proof carries them: the scripts, and the strategy
/// terms once each (a parameter keeps its first term; a later obligation of the same
/// step that chose another term for it is listed too).
pub fn into_proof(items: Vec<Recorded>) -> crate::verdict::Recorded {
    use crate::verdict::{RecordedObligation, StrategyEntry};
    let mut strategy: Vec<StrategyEntry> = Vec::new();
    let mut obligations = Vec::new();
    for r in items {
        for t in &r.strategy {
            let e = StrategyEntry {
                param: t.param.clone(),
                term: t.term.clone(),
                step: r.step.clone(),
            };
            if !strategy.contains(&e) {
                strategy.push(e);
            }
        }
        obligations.push(RecordedObligation {
            step: r.step,
            script: r.script,
            quantified: r.quantified,
        });
    }
    crate::verdict::Recorded { strategy, obligations, on: true, float_encoding: None }
}

/// Records the valid obligation `∀A. ∃P. ∀B. phi` (the query engine's hook; `class` and
/// `known` as given to `QueryEngine::valid`).
pub fn obligation(phi: &Bool, class: &dyn Fn(&Dynamic) -> Class, known: &[Dynamic]) {
    if !is_on() {
        return;
    }
    // Unsimplified: the second solver does the simplifier's work too.
    if phi.as_bool() == Some(true) {
        return;
    }
    let phi = phi.clone();
    let fresh =
        LOG.with(|l| l.borrow_mut().as_mut().is_some_and(|log| log.seen.insert(phi.clone())));
    if !fresh {
        return;
    }
    let scripts = LOG.with(|l| l.borrow().as_ref().is_some_and(|log| log.scripts));
    if !scripts && !free_constants(&phi).0.iter().any(|c| matches!(class(c), Class::P)) {
        return;
    }
    let step = LOG.with(|l| l.borrow().as_ref().map(|log| log.step.clone()).unwrap_or_default());
    // Z3 prints shared subterms once per occurrence: a branch chain's merged state is a
    // small DAG whose text is exponential (and printing cannot be interrupted). Such an
    // obligation is listed with a script that asks nothing, so a certificate of the
    // proof is at most partly certified, never complete without it.
    if expanded_size(&phi, MAX_PRINTED_NODES) > MAX_PRINTED_NODES {
        let script = format!(
            "; forex obligation: {step}\n; expected: unsat\n; not written: more than \
             {MAX_PRINTED_NODES} nodes once shared subterms are expanded\n(set-logic ALL)\n(exit)\n"
        );
        LOG.with(|l| {
            if let Some(log) = l.borrow_mut().as_mut() {
                log.items.push(Recorded { step, script, strategy: Vec::new(), quantified: true });
                log.keys.push(phi.clone());
            }
        });
        return;
    }
    let (mut consts, quantified) = free_constants(&phi);
    if quantified {
        let inside = all_constants(&phi);
        for k in known {
            if !consts.contains(k) && inside.contains(k) {
                consts.push(k.clone());
            }
        }
    }
    let key = phi.clone();
    // Z3 prints an empty conjunction as the bare symbol `and`, which no other solver reads.
    let phi = without_empty_connectives(&phi, &consts);
    let (mut outer, mut params, mut inner) = (Vec::new(), Vec::new(), Vec::new());
    for c in consts.into_iter().filter(declarable) {
        match class(&c) {
            Class::A => outer.push(c),
            Class::P => params.push(c),
            Class::B => inner.push(c),
        }
    }
    let recorded = script(&step, &phi, &outer, &params, &inner, quantified);
    LOG.with(|l| {
        if let Some(log) = l.borrow_mut().as_mut() {
            log.items.push(recorded);
            log.keys.push(key);
        }
    });
}

/// The script of the obligation `∀A. ∃P. phi` for callers outside the prover (the
/// refuter's exhaustive searches, `certificate::exhaustive`): P are the constants of
/// `params` that occur in `phi`, A every other free constant (`known`: constants that may
/// occur inside quantifiers only). The ∃ strategy is defined when one is found (checked
/// by Z3); otherwise the script keeps P quantified. Whether the script is `unsat` is the
/// caller's to check.
pub fn standalone(step: &str, phi: &Bool, params: &[Dynamic], known: &[Dynamic]) -> Recorded {
    let (mut consts, quantified) = free_constants(phi);
    if quantified {
        let inside = all_constants(phi);
        for k in known {
            if !consts.contains(k) && inside.contains(k) {
                consts.push(k.clone());
            }
        }
    }
    let phi = without_empty_connectives(phi, &consts);
    let (mut outer, mut ps) = (Vec::new(), Vec::new());
    for c in consts.into_iter().filter(declarable) {
        if params.contains(&c) {
            ps.push(c);
        } else {
            outer.push(c);
        }
    }
    script(step, &phi, &outer, &ps, &[], quantified)
}

/// Largest obligation (counted with its shared subterms expanded) written as a script.
pub const MAX_PRINTED_NODES: u64 = 200_000;

/// Whether `phi` can be written as a script: Z3 prints shared subterms once per
/// occurrence, so a small DAG (an unfolded recursion's merged state) can print to an
/// exponential text, and printing cannot be interrupted.
pub fn printable(phi: &Bool) -> bool {
    expanded_size(phi, MAX_PRINTED_NODES) <= MAX_PRINTED_NODES
}

/// The number of nodes of `t` with shared subterms counted once per occurrence (what its
/// printed text grows with), saturating just above `cap`. A memoised DAG walk.
fn expanded_size(t: &Bool, cap: u64) -> u64 {
    let mut size: HashMap<Dynamic, u64> = HashMap::new();
    let mut stack: Vec<(Dynamic, bool)> = vec![(Dynamic::from_ast(t), false)];
    while let Some((d, children_done)) = stack.pop() {
        if size.contains_key(&d) {
            continue;
        }
        let children = if d.is_app() { d.children() } else { Vec::new() };
        if children_done {
            let total = children
                .iter()
                .map(|c| size.get(c).copied().unwrap_or(1))
                .fold(1u64, |a, b| a.saturating_add(b))
                .min(cap + 1);
            size.insert(d, total);
        } else {
            stack.push((d.clone(), true));
            for c in children {
                if !size.contains_key(&c) {
                    stack.push((c, false));
                }
            }
        }
    }
    size.get(&Dynamic::from_ast(t)).copied().unwrap_or(1)
}

/// Whether a nullary application is a constant to declare: not an empty application of
/// an associative theory operator (`(and)`, `(+)`), which the structural walk also sees.
pub fn declarable(c: &Dynamic) -> bool {
    let name = c.decl().name();
    let theory = [
        "and", "or", "xor", "+", "*", "bvor", "bvand", "bvxor", "bvadd", "bvmul", "concat",
        "str.++", "distinct", "true", "false",
    ];
    !theory.contains(&name.as_str()) && !is_float_literal(c)
}

/// Whether a nullary application is one of the FloatingPoint theory's literals (`(fp …)`,
/// `(_ NaN 11 53)`, `(_ +oo …)`, `(_ -zero …)`, rounding modes): Z3 calls them constants.
pub fn is_float_literal(c: &Dynamic) -> bool {
    if c.kind() == z3::AstKind::Numeral {
        return true;
    }
    matches!(c.get_sort().kind(), z3::SortKind::FloatingPoint | z3::SortKind::RoundingMode)
        && matches!(
            c.decl().name().as_str(),
            "fp.numeral" | "fp" | "NaN" | "+oo" | "-oo" | "+zero" | "-zero"
        )
}

/// The declarations the floats' abstraction needs in a script (`smt::encode`'s
/// `FloatMode::Abstract`): its sorts and its functions (`ufp.add.double`), found in `phi`
/// and inside its quantifiers. Its constants are declared with the others.
fn abstraction_declarations(phi: &Bool) -> String {
    let prefix = crate::smt::encode::FLOAT_ABSTRACT_PREFIX;
    let ctx = z3::Context::thread_local();
    let raw = ctx.get_z3_context();
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut sorts: std::collections::BTreeSet<String> = Default::default();
    let mut funs: std::collections::BTreeMap<String, String> = Default::default();
    let mut stack: Vec<Dynamic> = vec![Dynamic::from_ast(phi)];
    while let Some(d) = stack.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        let sort = d.get_sort().to_string();
        if sort.starts_with(prefix) {
            sorts.insert(sort.clone());
        }
        if d.kind() == z3::AstKind::Quantifier {
            // SAFETY: as in `query::all_constants`: a live quantifier of this thread.
            if let Some(body) = unsafe { z3_sys::Z3_get_quantifier_body(raw, d.get_z3_ast()) } {
                stack.push(unsafe { Dynamic::wrap(&ctx, body) });
            }
            continue;
        }
        if !d.is_app() || d.num_children() == 0 {
            continue;
        }
        let kids = d.children();
        let name = d.decl().name();
        if name.starts_with(prefix) {
            let domain: Vec<String> = kids.iter().map(|k| k.get_sort().to_string()).collect();
            funs.entry(name.clone())
                .or_insert_with(|| format!("(declare-fun {name} ({}) {sort})", domain.join(" ")));
        }
        stack.extend(kids);
    }
    let mut text = String::new();
    for s in sorts {
        text.push_str(&format!("(declare-sort {s} 0)\n"));
    }
    for f in funs.values() {
        text.push_str(f);
        text.push('\n');
    }
    text
}

/// `phi` with empty `(and)` / `(or)` (among `consts`) replaced by `true` / `false`.
pub fn without_empty_connectives(phi: &Bool, consts: &[Dynamic]) -> Bool {
    let (t, f) =
        (Dynamic::from_ast(&Bool::from_bool(true)), Dynamic::from_ast(&Bool::from_bool(false)));
    let mut subst: Vec<(&Dynamic, &Dynamic)> = Vec::new();
    for c in consts {
        match c.decl().name().as_str() {
            "and" => subst.push((c, &t)),
            "or" => subst.push((c, &f)),
            _ => {}
        }
    }
    if subst.is_empty() {
        phi.clone()
    } else {
        phi.substitute(&subst)
    }
}

fn script(
    step: &str,
    phi: &Bool,
    outer: &[Dynamic],
    params: &[Dynamic],
    inner: &[Dynamic],
    quantified: bool,
) -> Recorded {
    let mut text = String::new();
    text.push_str(&format!("; forex obligation: {step}\n; expected: unsat\n"));
    text.push_str("(set-logic ALL)\n");
    text.push_str(&abstraction_declarations(phi));
    let declare = |text: &mut String, cs: &[Dynamic]| {
        for c in cs {
            text.push_str(&format!("(declare-fun {} () {})\n", c, c.get_sort()));
        }
    };
    declare(&mut text, outer);
    let mut strategy = Vec::new();
    let mut has_quantifier = quantified;
    if params.is_empty() {
        declare(&mut text, inner);
        text.push_str(&format!("(assert (not {}))\n", smt_text(phi)));
    } else if let Some(terms) = find_strategy(phi, params, outer, inner.is_empty()) {
        // Defined before the ∀B values are declared: a term may only use ∀ values.
        for (p, t) in params.iter().zip(&terms) {
            let line = format!("(define-fun {} () {} {})", p, p.get_sort(), smt_text(t));
            text.push_str(&line);
            text.push('\n');
            strategy.push(StrategyTerm { param: readable_name(p), term: infix(t), smt: line });
        }
        declare(&mut text, inner);
        text.push_str(&format!("(assert (not {}))\n", smt_text(phi)));
    } else {
        has_quantifier = true;
        let binders = |cs: &[Dynamic]| {
            cs.iter().map(|c| format!("({} {})", c, c.get_sort())).collect::<Vec<_>>().join(" ")
        };
        let body = if inner.is_empty() {
            format!("(not {})", smt_text(phi))
        } else {
            format!("(exists ({}) (not {}))", binders(inner), smt_text(phi))
        };
        text.push_str(&format!("(assert (forall ({}) {}))\n", binders(params), body));
    }
    text.push_str("(check-sat)\n");
    Recorded { step: step.to_string(), script: text, strategy, quantified: has_quantifier }
}

/// `t` as SMT-LIB text without Z3-only syntax.
pub fn smt_text(t: &(impl Ast + std::fmt::Display)) -> String {
    standardise(&t.to_string())
}

/// Rewrites the few Z3-only spellings Z3's printer uses into SMT-LIB 2.6 / cvc5 ones.
pub fn standardise(s: &str) -> String {
    s.replace("(bv2int ", "(bv2nat ")
}

/// A parameter's name as people read it: `c.r#12` → `c.r`.
pub fn readable_name(c: &Dynamic) -> String {
    let s = c.to_string();
    let s = s.trim_matches('|');
    match s.rfind('#') {
        Some(i) if s[i + 1..].chars().all(|c| c.is_ascii_digit()) => s[..i].to_string(),
        _ => s.to_string(),
    }
}

/// A term in infix notation for people (`--explain`): arithmetic, comparisons and
/// Boolean connectives; other operators keep their SMT-LIB form.
pub fn infix(t: &Dynamic) -> String {
    infix_at(t, 0)
}

fn infix_at(t: &Dynamic, depth: usize) -> String {
    if depth > 40 {
        return "…".into();
    }
    if t.kind() == z3::AstKind::Numeral {
        return t.to_string().replace("(- ", "-").replace(')', "");
    }
    if t.is_const() {
        if let Some(b) = t.as_bool().and_then(|b| b.as_bool()) {
            return b.to_string();
        }
        return readable_name(t);
    }
    if !t.is_app() {
        return smt_text(t);
    }
    let kids = t.children();
    let sub = |k: &Dynamic| {
        let s = infix_at(k, depth + 1);
        if k.is_app() && k.num_children() > 0 {
            format!("({s})")
        } else {
            s
        }
    };
    let name = match decl_name(t).as_str() {
        "if" => "ite".to_string(),
        "bvadd" => "+".to_string(),
        "bvsub" => "-".to_string(),
        "bvmul" => "*".to_string(),
        "bvudiv" => "div".to_string(),
        "bvurem" => "mod".to_string(),
        "bvand" => "&".to_string(),
        "bvor" => "|".to_string(),
        "bvxor" => "^".to_string(),
        "bvule" => "<=".to_string(),
        "bvult" => "<".to_string(),
        "bvuge" => ">=".to_string(),
        "bvugt" => ">".to_string(),
        n => n.to_string(),
    };
    let join = |op: &str| kids.iter().map(sub).collect::<Vec<_>>().join(op);
    match (name.as_str(), kids.len()) {
        ("+", _) => {
            // `a + (-1)·b` reads `a - b`.
            let mut s = String::new();
            for (i, k) in kids.iter().enumerate() {
                let negated = decl_name(k) == "*"
                    && k.num_children() == 2
                    && k.nth_child(0).is_some_and(|c| c.to_string() == "(- 1)");
                if negated {
                    s.push_str(if i == 0 { "-" } else { " - " });
                    s.push_str(&sub(&k.nth_child(1).unwrap()));
                } else {
                    if i > 0 {
                        s.push_str(" + ");
                    }
                    s.push_str(&sub(k));
                }
            }
            s
        }
        ("*", 2) if kids[0].to_string() == "(- 1)" => format!("-{}", sub(&kids[1])),
        ("-", 1) => format!("-{}", sub(&kids[0])),
        (
            "-" | "*" | "div" | "mod" | "<=" | "<" | ">=" | ">" | "and" | "or" | "=>" | "&" | "|"
            | "^",
            _,
        ) => {
            let op = match name.as_str() {
                "&" => " & ",
                "|" => " | ",
                "^" => " ^ ",
                "div" => " / ",
                "mod" => " % ",
                "and" => " && ",
                "or" => " || ",
                "=>" => " ==> ",
                "-" => " - ",
                "*" => " * ",
                "<=" => " <= ",
                "<" => " < ",
                ">=" => " >= ",
                _ => " > ",
            };
            join(op)
        }
        ("=", 2) => join(" == "),
        ("not", 1) => format!("!{}", sub(&kids[0])),
        ("ite", 3) => {
            format!("{} ? {} : {}", sub(&kids[0]), sub(&kids[1]), sub(&kids[2]))
        }
        _ => smt_text(t),
    }
}
