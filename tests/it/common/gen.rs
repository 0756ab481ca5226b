//! Random well-typed ∀∃ tuples for differential tests (proptest strategies).
//!
//! Every expression strategy is indexed by the type it produces, so generated and shrunk
//! tuples are well-typed by construction. Programs share one declaration list (variables
//! `x`, `y`, `z` of type bv3, bv4 or bool, and with `strings` also `string`), so
//! `pre`/`post` can relate copies variable by variable. Strings are kept finite for the
//! oracle: literals over the alphabet {a, b} of length ≤ 2, each string input bounded by a
//! conjunct `c.x == "…" || …` of `pre`, and `x = *` followed by such an `assume`. Loops are `while (c != 0)` or `while (c > k)` with `c = c - 1` at the end of
//! the body and `c` written nowhere else in it, so every loop terminates.

use super::build::number_loops;
use forex::ir::{
    BinOp, Block, Expr, ExprKind, Hints, Loc, LoopId, Program, Quantifier, Stmt, Tuple, Type, UnOp,
    VarDecl, VarId,
};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};
use std::collections::HashMap;
use std::fmt::Write;

#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    /// Generate (terminating) loops.
    pub loops: bool,
    /// Upper bound on the bits of all copies' variables together (the oracle enumerates
    /// up to 2^max_bits initial tuples).
    pub max_bits: u32,
    pub max_copies: usize,
    /// Make the first variable a `string` (and let the others be strings too).
    pub strings: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig { loops: false, max_bits: 16, max_copies: 3, strings: false }
    }
}

/// The string literals generated programs use.
const STRINGS: [&str; 5] = ["", "a", "b", "ab", "ba"];

const NAMES: [&str; 3] = ["x", "y", "z"];
const COPY_NAMES: [&str; 3] = ["a", "b", "c"];

fn bits(ty: &Type) -> u32 {
    match ty {
        Type::Bv(w) => *w,
        // A string input ranges over at most 3 literals.
        Type::Str => 2,
        _ => 1,
    }
}

/// Narrows the widest variables until `copies` copies fit in `max_bits`.
fn fit(types: &mut [Type], copies: usize, max_bits: u32) {
    while types.iter().map(bits).sum::<u32>() * copies as u32 > max_bits {
        let (i, _) = types.iter().enumerate().max_by_key(|(_, t)| bits(t)).unwrap();
        types[i] = match types[i] {
            Type::Bv(w) if w > 3 => Type::Bv(w - 1),
            _ => Type::Bool,
        };
        if types.iter().all(|t| *t == Type::Bool) {
            break;
        }
    }
}

/// Expression strategies over one variable environment, per (type, depth), built once.
struct ExprGen {
    env: Vec<Type>,
    cache: HashMap<(Type, u32), BoxedStrategy<Expr>>,
}

impl ExprGen {
    fn new(env: Vec<Type>) -> ExprGen {
        ExprGen { env, cache: HashMap::new() }
    }

    fn vars_of(&self, ty: &Type) -> Vec<VarId> {
        (0..self.env.len()).filter(|i| self.env[*i] == *ty).map(|i| VarId(i as u32)).collect()
    }

    fn widths(&self) -> Vec<u32> {
        let mut ws: Vec<u32> = self
            .env
            .iter()
            .filter_map(|t| if let Type::Bv(w) = t { Some(*w) } else { None })
            .collect();
        ws.sort_unstable();
        ws.dedup();
        ws
    }

    fn leaf(&self, ty: &Type) -> BoxedStrategy<Expr> {
        let lit = match ty {
            Type::Bool => any::<bool>().prop_map(Expr::bool).boxed(),
            Type::Str => select(STRINGS.to_vec()).prop_map(str_lit).boxed(),
            Type::Bv(w) => {
                let w = *w;
                (0..(1u128 << w)).prop_map(move |v| Expr::bv(v, w)).boxed()
            }
            _ => unreachable!(),
        };
        let vars = self.vars_of(ty);
        if vars.is_empty() {
            return lit;
        }
        let ty2 = ty.clone();
        Union::new_weighted(vec![
            (3, select(vars).prop_map(move |v| Expr::var(v, ty2.clone())).boxed()),
            (1, lit),
        ])
        .boxed()
    }

    fn expr(&mut self, ty: &Type, depth: u32) -> BoxedStrategy<Expr> {
        if let Some(s) = self.cache.get(&(ty.clone(), depth)) {
            return s.clone();
        }
        let s = if depth == 0 {
            self.leaf(ty)
        } else if *ty == Type::Bool {
            self.bool_expr(depth)
        } else if let Type::Bv(w) = ty {
            self.bv_expr(*w, depth)
        } else if *ty == Type::Str {
            self.str_expr(depth)
        } else {
            unreachable!()
        };
        self.cache.insert((ty.clone(), depth), s.clone());
        s
    }

    fn bv_expr(&mut self, w: u32, depth: u32) -> BoxedStrategy<Expr> {
        let ty = Type::Bv(w);
        let sub = self.expr(&ty, depth - 1);
        let cond = self.expr(&Type::Bool, depth - 1);
        use BinOp::*;
        let mut options = vec![
            (4, self.leaf(&ty)),
            (
                3,
                (select(vec![Add, Sub, Mul, BitAnd, BitOr, BitXor]), sub.clone(), sub.clone())
                    .prop_map(|(op, a, b)| Expr::binary(op, a, b))
                    .boxed(),
            ),
            // Rarer operators with edge cases (division by zero, large shift amounts).
            (
                1,
                (select(vec![Div, Mod, Shl, Shr]), sub.clone(), sub.clone())
                    .prop_map(|(op, a, b)| Expr::binary(op, a, b))
                    .boxed(),
            ),
            (
                1,
                (select(vec![UnOp::BitNot, UnOp::Neg]), sub.clone())
                    .prop_map(move |(op, a)| Expr {
                        ty: a.ty.clone(),
                        kind: ExprKind::Unary(op, Box::new(a)),
                    })
                    .boxed(),
            ),
            (
                1,
                (cond, sub.clone(), sub)
                    .prop_map(|(c, a, b)| Expr {
                        ty: a.ty.clone(),
                        kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
                    })
                    .boxed(),
            ),
        ];
        // Extraction from a wider bit-vector.
        for w2 in self.widths().into_iter().filter(|w2| *w2 > w) {
            let wide = self.expr(&Type::Bv(w2), depth - 1);
            options.push((
                1,
                (wide, 0..=(w2 - w))
                    .prop_map(move |(a, lo)| Expr {
                        ty: Type::Bv(w),
                        kind: ExprKind::Extract { hi: lo + w - 1, lo, arg: Box::new(a) },
                    })
                    .boxed(),
            ));
        }
        Union::new_weighted(options).boxed()
    }

    fn str_expr(&mut self, depth: u32) -> BoxedStrategy<Expr> {
        let sub = self.expr(&Type::Str, depth - 1);
        let cond = self.expr(&Type::Bool, depth - 1);
        Union::new_weighted(vec![
            (3, self.leaf(&Type::Str)),
            (
                3,
                (sub.clone(), sub.clone())
                    .prop_map(|(a, b)| Expr::binary(BinOp::Concat, a, b))
                    .boxed(),
            ),
            (
                1,
                (cond, sub.clone(), sub)
                    .prop_map(|(c, a, b)| Expr {
                        ty: Type::Str,
                        kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
                    })
                    .boxed(),
            ),
        ])
        .boxed()
    }

    /// Boolean atoms over strings: (in)equality and comparisons of lengths.
    fn string_atoms(&mut self, depth: u32) -> Vec<(u32, BoxedStrategy<Expr>)> {
        if !self.env.contains(&Type::Str) {
            return Vec::new();
        }
        use BinOp::*;
        let s = self.expr(&Type::Str, depth - 1);
        let len = s
            .clone()
            .prop_map(|a| Expr { ty: Type::Int, kind: ExprKind::Unary(UnOp::StrLen, Box::new(a)) });
        let int = prop_oneof![len.clone(), (0..=3i64).prop_map(Expr::int)];
        vec![
            (
                3,
                (select(vec![Eq, Ne]), s.clone(), s)
                    .prop_map(|(op, a, b)| Expr::binary(op, a, b))
                    .boxed(),
            ),
            (
                2,
                (select(vec![Eq, Ne, Lt, Le, Gt, Ge]), len, int)
                    .prop_map(|(op, a, b)| Expr::binary(op, a, b))
                    .boxed(),
            ),
        ]
    }

    fn bool_expr(&mut self, depth: u32) -> BoxedStrategy<Expr> {
        let sub = self.expr(&Type::Bool, depth - 1);
        use BinOp::*;
        let mut options = vec![
            (3, self.leaf(&Type::Bool)),
            (
                2,
                (select(vec![And, Or, Eq, Ne, Implies, Iff]), sub.clone(), sub.clone())
                    .prop_map(|(op, a, b)| Expr::binary(op, a, b))
                    .boxed(),
            ),
            (1, sub.prop_map(Expr::negate).boxed()),
        ];
        options.extend(self.string_atoms(depth));
        for w in self.widths() {
            let bv = self.expr(&Type::Bv(w), depth - 1);
            options.push((
                3,
                (select(vec![Eq, Ne, Lt, Le, Gt, Ge]), bv.clone(), bv.clone())
                    .prop_map(|(op, a, b)| Expr::binary(op, a, b))
                    .boxed(),
            ));
            // A single bit: `e[k:k] == #b1`.
            options.push((
                1,
                (bv, 0..w)
                    .prop_map(|(a, k)| {
                        let bit = Expr {
                            ty: Type::Bv(1),
                            kind: ExprKind::Extract { hi: k, lo: k, arg: Box::new(a) },
                        };
                        Expr::eq(bit, Expr::bv(1, 1))
                    })
                    .boxed(),
            ));
        }
        Union::new_weighted(options).boxed()
    }
}

fn assign_to(g: &mut ExprGen, var: usize, depth: u32) -> BoxedStrategy<Stmt> {
    let ty = g.env[var].clone();
    g.expr(&ty, depth)
        .prop_map(move |value| Stmt::Assign { var: VarId(var as u32), value, loc: Loc::default() })
        .boxed()
}

fn str_lit(s: &str) -> Expr {
    Expr { kind: ExprKind::Str(s.to_string()), ty: Type::Str }
}

/// `v == "…" || …` over 1–3 distinct literals: a finite domain for a string variable.
fn string_domain(v: VarId) -> BoxedStrategy<Expr> {
    proptest::sample::subsequence(STRINGS.to_vec(), 1..=3)
        .prop_map(move |lits| {
            lits.into_iter()
                .map(|l| Expr::eq(Expr::var(v, Type::Str), str_lit(l)))
                .reduce(|a, b| Expr::binary(BinOp::Or, a, b))
                .expect("at least one literal")
        })
        .boxed()
}

/// `v = *`, followed for a string by `assume` of a finite domain (see the module doc).
fn havoc(g: &ExprGen, v: usize) -> BoxedStrategy<Vec<Stmt>> {
    let loc = Loc::default();
    let var = VarId(v as u32);
    if g.env[v] != Type::Str {
        return Just(vec![Stmt::Havoc { var, loc }]).boxed();
    }
    string_domain(var)
        .prop_map(move |cond| vec![Stmt::Havoc { var, loc }, Stmt::Assume { cond, loc }])
        .boxed()
}

/// One statement writing only `writable` variables (two for a string's `x = *`); `depth`
/// bounds nesting.
fn stmt(g: &mut ExprGen, writable: &[usize], depth: u32, loops: bool) -> BoxedStrategy<Vec<Stmt>> {
    let loc = Loc::default();
    // One statement as a chunk (mapping keeps the random stream of the bit-vector
    // configurations as it was before chunks).
    fn one(s: BoxedStrategy<Stmt>) -> BoxedStrategy<Vec<Stmt>> {
        s.prop_map(|s| vec![s]).boxed()
    }
    let mut options: Vec<(u32, BoxedStrategy<Vec<Stmt>>)> = Vec::new();
    for &v in writable {
        options.push((4, one(assign_to(g, v, 2))));
        options.push((1, havoc(g, v)));
    }
    options.push((
        1,
        one(g.expr(&Type::Bool, 1).prop_map(move |cond| Stmt::Assume { cond, loc }).boxed()),
    ));
    if depth > 0 {
        let inner = block(g, writable, depth - 1, loops, 1..=2);
        let cond = g.expr(&Type::Bool, 2);
        options.push((
            2,
            one((cond, inner.clone(), inner.clone())
                .prop_map(move |(cond, t, e)| Stmt::If {
                    cond,
                    then_branch: t,
                    else_branch: e,
                    loc,
                })
                .boxed()),
        ));
        let else_opt = prop_oneof![Just(Vec::new()), inner.clone()];
        options.push((
            1,
            one((inner, else_opt)
                .prop_map(move |(t, e)| Stmt::IfStar { then_branch: t, else_branch: e, loc })
                .boxed()),
        ));
        if loops {
            for &c in writable {
                let Type::Bv(w) = g.env[c] else { continue };
                let rest: Vec<usize> = writable.iter().copied().filter(|v| *v != c).collect();
                let body = block(g, &rest, depth - 1, loops, 0..=2);
                let counter = Expr::var(VarId(c as u32), Type::Bv(w));
                options.push((
                    1,
                    one((body, prop_oneof![Just(None), (0..(1u128 << w)).prop_map(Some)])
                        .prop_map(move |(mut body, bound)| {
                            let cond = match bound {
                                None => Expr::binary(BinOp::Ne, counter.clone(), Expr::bv(0, w)),
                                Some(k) => Expr::binary(BinOp::Gt, counter.clone(), Expr::bv(k, w)),
                            };
                            body.push(Stmt::Assign {
                                var: VarId(c as u32),
                                value: Expr::binary(BinOp::Sub, counter.clone(), Expr::bv(1, w)),
                                loc,
                            });
                            Stmt::While { id: LoopId(0), cond, body, loc }
                        })
                        .boxed()),
                ));
            }
        }
    }
    Union::new_weighted(options).boxed()
}

fn block(
    g: &mut ExprGen,
    writable: &[usize],
    depth: u32,
    loops: bool,
    len: std::ops::RangeInclusive<usize>,
) -> BoxedStrategy<Block> {
    proptest::collection::vec(stmt(g, writable, depth, loops), len)
        .prop_map(|chunks| chunks.into_iter().flatten().collect())
        .boxed()
}

/// A relational atom over the tuple's variables: mostly `ci.v == cj.v` for two distinct
/// copies (when there are two), sometimes any small boolean expression.
fn relation(tg: &mut ExprGen, copies: usize, nvars: usize, tenv: &[Type]) -> BoxedStrategy<Expr> {
    let general = vec![(1, tg.expr(&Type::Bool, 1)), (1, tg.expr(&Type::Bool, 2))];
    if copies < 2 {
        return Union::new_weighted(general).boxed();
    }
    let tenv = tenv.to_vec();
    let same_var = (0..copies, 1..copies, 0..nvars)
        .prop_map(move |(c1, d, i)| {
            let c2 = (c1 + d) % copies;
            let (a, b) = (c1 * nvars + i, c2 * nvars + i);
            let ty = tenv[a].clone();
            Expr::eq(Expr::var(VarId(a as u32), ty.clone()), Expr::var(VarId(b as u32), ty))
        })
        .boxed();
    let mut options = vec![(5, same_var)];
    options.extend(general);
    Union::new_weighted(options).boxed()
}

/// Random expressions of type `ty` over variables `VarId(i)` of type `env[i]`.
pub fn exprs(env: Vec<Type>, ty: Type, depth: u32) -> BoxedStrategy<Expr> {
    ExprGen::new(env).expr(&ty, depth)
}

/// Random tuples: 1–`max_copies` copies (at least one ∀, ∀ copies first), 2–3 variables.
pub fn tuples(cfg: GenConfig) -> BoxedStrategy<Tuple> {
    let types = if cfg.strings {
        select(vec![Type::Bv(3), Type::Bv(3), Type::Str, Type::Bool])
    } else {
        select(vec![Type::Bv(3), Type::Bv(4), Type::Bool])
    };
    // Relational tuples (2–3 copies) are the interesting ones; single copies stay a minority.
    let ncopies = Union::new_weighted(vec![(1, Just(1usize)), (2, Just(2)), (2, Just(3))])
        .prop_map(move |n| n.min(cfg.max_copies));
    (ncopies, 0usize..3, proptest::collection::vec(types, 2..=3), any::<bool>())
        .prop_flat_map(move |(ncopies, nf, mut types, two_programs)| {
            let nforall = 1 + nf % ncopies;
            if cfg.strings {
                types[0] = Type::Str;
            }
            fit(&mut types, ncopies, cfg.max_bits);
            let nvars = types.len();
            let mut g = ExprGen::new(types.clone());
            let all: Vec<usize> = (0..nvars).collect();
            let nprogs = if two_programs && ncopies > 1 { 2 } else { 1 };
            let bodies =
                proptest::collection::vec(block(&mut g, &all, 2, cfg.loops, 1..=4), nprogs);
            let which = proptest::collection::vec(0..nprogs, ncopies);
            let tenv: Vec<Type> = (0..ncopies).flat_map(|_| types.clone()).collect();
            let mut tg = ExprGen::new(tenv.clone());
            let rel = relation(&mut tg, ncopies, nvars, &tenv);
            // Every string input gets a finite domain, first in pre.
            let domains: Vec<BoxedStrategy<Expr>> = (0..tenv.len())
                .filter(|v| tenv[*v] == Type::Str)
                .map(|v| string_domain(VarId(v as u32)))
                .collect();
            let pre = (domains, proptest::collection::vec(rel.clone(), 0..=3)).prop_map(
                |(mut domains, rels)| {
                    domains.extend(rels);
                    domains
                },
            );
            let post = proptest::collection::vec(rel, 1..=2);
            (bodies, which, pre, post).prop_map(move |(bodies, which, pre, post)| {
                build(&types, bodies, &which, nforall, pre, post)
            })
        })
        .boxed()
}

fn build(
    types: &[Type],
    bodies: Vec<Block>,
    which: &[usize],
    nforall: usize,
    pre: Vec<Expr>,
    post: Vec<Expr>,
) -> Tuple {
    let vars: Vec<VarDecl> = types
        .iter()
        .enumerate()
        .map(|(i, ty)| VarDecl { name: NAMES[i].into(), ty: ty.clone(), loc: Loc::default() })
        .collect();
    let programs: Vec<Program> = bodies
        .into_iter()
        .enumerate()
        .map(|(i, mut body)| {
            number_loops(&mut body, &mut 0);
            Program { name: ["p", "q"][i].into(), vars: vars.clone(), body, loc: Loc::default() }
        })
        .collect();
    let mut t = Tuple {
        name: "generated".into(),
        file: "generated.fe".into(),
        loc: Loc::default(),
        copies: Vec::new(),
        vars: Vec::new(),
        pre: Expr::bool(true),
        post: Expr::bool(true),
        kind: Default::default(),
        observations: None,
        hints: Hints::default(),
        c_view: None,
    };
    for (c, p) in which.iter().enumerate() {
        let q = if c < nforall { Quantifier::Forall } else { Quantifier::Exists };
        t.add_copy(COPY_NAMES[c], &programs[*p], q);
    }
    t.pre = Expr::and_all(pre);
    t.post = Expr::and_all(post);
    t
}

/// The tuple as `.fe` source (programs and the tuple), to reproduce a failing case.
pub fn to_fe(t: &Tuple) -> String {
    let mut out = String::new();
    let mut done: Vec<&str> = Vec::new();
    for copy in &t.copies {
        if done.contains(&copy.program.as_str()) {
            continue;
        }
        done.push(&copy.program);
        let name = |v: VarId| t.var(v).name.clone();
        let _ = writeln!(out, "program {} {{", copy.program);
        for v in &copy.vars {
            let tv = t.var(*v);
            let _ = writeln!(out, "  {} {};", tv.ty, tv.name);
        }
        write_block(&mut out, &copy.body, 1, &name);
        out.push_str("}\n");
    }
    let _ = writeln!(out, "tuple {} {{", t.name);
    for q in [Quantifier::Forall, Quantifier::Exists] {
        let cs: Vec<String> = t
            .copies
            .iter()
            .filter(|c| c.quantifier == q)
            .map(|c| format!("{}: {}", c.name, c.program))
            .collect();
        if !cs.is_empty() {
            let kw = if q == Quantifier::Forall { "forall" } else { "exists" };
            let _ = writeln!(out, "  {kw} {};", cs.join(", "));
        }
    }
    let _ = writeln!(out, "  pre {};", forex::pretty::tuple_expr(t, &t.pre));
    let _ = writeln!(out, "  post {};", forex::pretty::tuple_expr(t, &t.post));
    out.push_str("}\n");
    out
}

fn write_block(out: &mut String, b: &[Stmt], ind: usize, name: &dyn Fn(VarId) -> String) {
    let pad = "  ".repeat(ind);
    let ex = |e: &Expr| forex::pretty::expr_with(e, name);
    for s in b {
        match s {
            Stmt::Skip => {
                let _ = writeln!(out, "{pad}skip;");
            }
            Stmt::Observe { .. } => {
                let _ = writeln!(out, "{pad}observe;");
            }
            Stmt::Cut { .. } => unreachable!("the generator makes no cuts (.fe has no syntax)"),
            Stmt::Assign { var, value, .. } => {
                let _ = writeln!(out, "{pad}{} = {};", name(*var), ex(value));
            }
            Stmt::Store { array, index, value, .. } => {
                let _ = writeln!(out, "{pad}{}[{}] = {};", name(*array), ex(index), ex(value));
            }
            Stmt::Havoc { var, .. } => {
                let _ = writeln!(out, "{pad}{} = *;", name(*var));
            }
            Stmt::Assume { cond, .. } => {
                let _ = writeln!(out, "{pad}assume {};", ex(cond));
            }
            Stmt::If { cond, then_branch, else_branch, .. } => {
                let _ = writeln!(out, "{pad}if ({}) {{", ex(cond));
                write_block(out, then_branch, ind + 1, name);
                let _ = writeln!(out, "{pad}}} else {{");
                write_block(out, else_branch, ind + 1, name);
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                let _ = writeln!(out, "{pad}if (*) {{");
                write_block(out, then_branch, ind + 1, name);
                let _ = writeln!(out, "{pad}}} else {{");
                write_block(out, else_branch, ind + 1, name);
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::While { cond, body, .. } => {
                let _ = writeln!(out, "{pad}while ({}) {{", ex(cond));
                write_block(out, body, ind + 1, name);
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}

/// Whether any copy of `t` contains a loop.
pub fn has_loops(t: &Tuple) -> bool {
    fn any(b: &[Stmt]) -> bool {
        b.iter().any(|s| match s {
            Stmt::While { .. } => true,
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => any(then_branch) || any(else_branch),
            _ => false,
        })
    }
    t.copies.iter().any(|c| any(&c.body))
}

/// A deterministic proptest runner: fixed seed, no failure files, `cases` cases.
pub fn runner(cases: u32, seed: u8) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let config =
        Config { cases, failure_persistence: None, max_shrink_iters: 2000, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]))
}

/// `n` tuples drawn from `strategy` with a fixed seed (no shrinking).
pub fn sample(strategy: &BoxedStrategy<Tuple>, n: usize, seed: u8) -> Vec<Tuple> {
    use proptest::strategy::ValueTree;
    let mut r = runner(1, seed);
    (0..n).map(|_| strategy.new_tree(&mut r).expect("generator").current()).collect()
}

/// Issue 12 (refuting side): one ∀ and one ∃ copy over `x: bv4, y: bv3, z: bool`, whose
/// loops need more than 8 iterations and whose ∃ copy loops. The ∀ program counts `x`
/// down to 0 from its input or from a constant 9–15 (forced iterations); the ∃ program
/// does the same or runs `while (cond) { … }` with any guard and body, which may never
/// terminate (the oracle's exact final-state sets say so).
pub fn deep_loop_tuples() -> BoxedStrategy<Tuple> {
    let types = vec![Type::Bv(4), Type::Bv(3), Type::Bool];
    let mut g = ExprGen::new(types.clone());
    let (all, rest) = (vec![0, 1, 2], vec![1, 2]);
    let counter = Expr::var(VarId(0), Type::Bv(4));
    let count_down = {
        let counter = counter.clone();
        (prop_oneof![Just(None), (9u128..16).prop_map(Some)], block(&mut g, &rest, 1, false, 1..=2))
            .prop_map(move |(start, mut body)| {
                let loc = Loc::default();
                let mut out = Vec::new();
                if let Some(k) = start {
                    out.push(Stmt::Assign { var: VarId(0), value: Expr::bv(k, 4), loc });
                }
                let step = Expr::binary(BinOp::Sub, counter.clone(), Expr::bv(1, 4));
                body.push(Stmt::Assign { var: VarId(0), value: step, loc });
                let cond = Expr::binary(BinOp::Ne, counter.clone(), Expr::bv(0, 4));
                out.push(Stmt::While { id: LoopId(0), cond, body, loc });
                out
            })
            .boxed()
    };
    let free_loop = (g.expr(&Type::Bool, 2), block(&mut g, &all, 1, false, 1..=2))
        .prop_map(|(cond, body)| {
            vec![Stmt::While { id: LoopId(0), cond, body, loc: Loc::default() }]
        })
        .boxed();
    let exists_loop = prop_oneof![count_down.clone(), free_loop].boxed();
    // Straight-line code before and after the loop (not writing the counter).
    let around = block(&mut g, &rest, 1, false, 0..=1);
    let program = |middle: BoxedStrategy<Block>| {
        (around.clone(), middle, around.clone()).prop_map(|(mut a, m, b)| {
            a.extend(m);
            a.extend(b);
            a
        })
    };
    let tenv: Vec<Type> = (0..2).flat_map(|_| types.clone()).collect();
    let rel = relation(&mut ExprGen::new(tenv.clone()), 2, 3, &tenv);
    let pre = proptest::collection::vec(rel.clone(), 0..=2);
    let post = proptest::collection::vec(rel, 1..=2);
    (program(count_down), program(exists_loop), pre, post)
        .prop_map(move |(f, e, pre, post)| build(&types, vec![f, e], &[0, 1], 1, pre, post))
        .boxed()
}

/// A random reactive program over `x`, `y` (bv2) that observes in branches, several
/// times per iteration, or in a `while (*)` loop (the ∃ side can then repeat an
/// observation), as `.fe` text for the temporal oracle. Every loop iteration observes,
/// so a brute force enumerating runs up to a number of observations ends.
pub fn observing_program(rng: &mut impl rand::Rng, name: &str) -> String {
    fn silent(rng: &mut impl rand::Rng, out: &mut String) {
        for _ in 0..rng.gen_range(0..=2) {
            out.push_str(match rng.gen_range(0..5) {
                0 => "x = *; ",
                1 => "y = y + x; ",
                2 => "y = y + #b01; ",
                3 => "x = y; ",
                _ => "assume x != #b11; ",
            });
        }
    }
    fn observing(rng: &mut impl rand::Rng, out: &mut String) {
        match rng.gen_range(0..5) {
            0 => {
                out.push_str("if (*) { ");
                silent(rng, out);
                out.push_str("observe; } else { ");
                silent(rng, out);
                out.push_str("observe; ");
                silent(rng, out);
                out.push_str("observe; } ");
            }
            1 => {
                out.push_str("if (x == y) { observe; } else { ");
                silent(rng, out);
                out.push_str("observe; } ");
            }
            2 => {
                out.push_str("while (*) { observe; ");
                silent(rng, out);
                out.push_str("} ");
                silent(rng, out);
                out.push_str("observe; ");
            }
            3 => {
                out.push_str("observe; ");
                silent(rng, out);
                out.push_str("observe; ");
            }
            _ => out.push_str("observe; "),
        }
    }
    let mut body = String::new();
    silent(rng, &mut body);
    let mut iteration = String::new();
    silent(rng, &mut iteration);
    observing(rng, &mut iteration);
    silent(rng, &mut iteration);
    if rng.gen_bool(0.7) {
        format!("program {name} {{ bv2 x, y; y = #b00; {body}repeat {{ {iteration}}} }}")
    } else {
        format!("program {name} {{ bv2 x, y; y = #b00; {body}{iteration}{iteration}}}")
    }
}
