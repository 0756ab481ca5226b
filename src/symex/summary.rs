//! ∃ loops past the unrolling bound, in [`super`]: a summary of their further
//! iterations (fresh values under the guard, constrained by the interval facts proved
//! inductive), which over-approximates the ∃ side.

use super::*;

/// Continues `path` past the ∃ loop `stmt` (at its head) through a summary of all its
/// further iterations, then runs `rest`. The summary: the loop's modified variables
/// become fresh ∃ constants constrained by the interval facts proved inductive
/// ([`inductive_facts`]) and by the guard, the body runs once more from there (the last
/// iteration), and the guard is false after it. Every terminating run of the loop
/// from here ends in such a state, so the resulting paths over-approximate the real
/// ones; they are marked [`Path::approximate`].
pub(super) fn through_summary<'a>(
    ctx: &mut Ctx,
    tuple: &'a Tuple,
    stmt: &'a Stmt,
    copy: usize,
    rest: Vec<Work<'a>>,
    path: &Path,
    on_end: &mut dyn FnMut(&mut Ctx, &Path, End) -> Flow,
) -> Flow {
    let Stmt::While { cond, body, .. } = stmt else { unreachable!() };
    let mut changed = BTreeSet::new();
    modified_vars(body, &mut changed);
    let mut after = path.clone();
    after.approximate = true;
    for &v in &changed {
        let ty = tuple.var(v).ty.clone();
        let f = fresh(&format!("{}~", tuple.var_display(v)), &ty);
        after.exists_fresh.push(f.clone());
        after.env.insert(v, f);
    }
    let mut facts = inductive_facts(ctx, tuple, stmt, copy, &path.env, &after.env, &changed);
    if ctx.stopped() {
        return Flow::Stop;
    }
    // The last iteration starts where the guard holds and ends where it fails: one
    // body run from the fresh state (so that what one iteration can add is bounded, e.g.
    // `s <= 100` before `s = s + r` with r <= 9 leaves s <= 109).
    facts.push(encode_bool(cond, &lookup(&after.env)));
    let facts = and_all(&facts).simplify();
    branch(ctx, &after, &facts, |ctx, p| {
        let mut body_work = Vec::new();
        push_block(&mut body_work, body, copy);
        let p = p.clone();
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            run(ctx, tuple, body_work, p, &mut |ctx, q, end| match end {
                End::Finished => {
                    let exit = encode_bool(cond, &lookup(&q.env)).not();
                    let rest = rest.clone();
                    branch(ctx, q, &exit, |ctx, r| run(ctx, tuple, rest, r.clone(), on_end))
                }
                other => on_end(ctx, q, other),
            })
        })
    })
}

/// Interval facts `x >= x₀`, `x <= x₀` (x₀: x's value at the loop head now) for the
/// integer variables the loop changes, and `(x - x₀) % g == 0` for those it steps by
/// multiples of g (`x = x + 2`: an ∃ copy that must reach an odd target cannot), kept
/// when inductive: Houdini over the body's
/// paths, under the solver's current assertions (which only speak of values fixed
/// before the loop). Any undecided check drops the fact. Bodies with inner loops get no
/// facts (their paths are not finite).
fn inductive_facts(
    ctx: &mut Ctx,
    tuple: &Tuple,
    stmt: &Stmt,
    copy: usize,
    entry: &Env,
    head: &Env,
    changed: &BTreeSet<VarId>,
) -> Vec<Bool> {
    let Stmt::While { cond, body, .. } = stmt else { unreachable!() };
    if crate::ir::has_loop(body) {
        return Vec::new();
    }
    // 0: x >= x₀, -1: x <= x₀, g >= 2: (x - x₀) % g == 0.
    let fact = |env: &Env, v: VarId, kind: i64| -> Option<Bool> {
        let x = env[&v].as_int()?;
        let x0 = entry[&v].as_int()?;
        Some(match kind {
            0 => x.ge(&x0),
            -1 => x.le(&x0),
            g => (x - x0).modulo(z3::ast::Int::from_i64(g)).eq(z3::ast::Int::from_i64(0)),
        })
    };
    let ints = |v: &VarId| tuple.var(*v).ty == Type::Int && changed.contains(v);
    let mut candidates: Vec<(VarId, i64)> = changed
        .iter()
        .filter(|v| ints(v))
        .flat_map(|&v| [(v, 0), (v, -1)])
        .chain(
            crate::ir::steps::stepped_by_multiples(tuple, body)
                .into_iter()
                .filter(|(v, _)| ints(v)),
        )
        .collect();
    while !candidates.is_empty() {
        let assumed: Vec<Bool> = candidates
            .iter()
            .filter_map(|&(v, kind)| fact(head, v, kind))
            .chain(std::iter::once(encode_bool(cond, &lookup(head))))
            .collect();
        let mut failing = vec![false; candidates.len()];
        ctx.solver.push();
        ctx.solver.assert(and_all(&assumed));
        let mut work = Vec::new();
        push_block(&mut work, body, copy);
        let start = Path { env: head.clone(), ..Path::default() };
        let flow = run(ctx, tuple, work, start, &mut |ctx, p, _| {
            for (i, &(v, kind)) in candidates.iter().enumerate() {
                if failing[i] {
                    continue;
                }
                let keeps = fact(&p.env, v, kind)
                    .is_some_and(|f| ctx.check(&[f.not()]) == SatResult::Unsat);
                failing[i] = !keeps;
            }
            Flow::Continue
        });
        ctx.solver.pop(1);
        if flow == Flow::Stop || ctx.stopped() {
            return Vec::new();
        }
        if !failing.contains(&true) {
            break;
        }
        let mut i = 0;
        candidates.retain(|_| {
            i += 1;
            !failing[i - 1]
        });
    }
    candidates.iter().filter_map(|&(v, kind)| fact(head, v, kind)).collect()
}
