//! The random tuple generator: its tuples are well-typed, in the oracle's fragment,
//! decided quickly, and a healthy mix of valid and invalid.

use crate::common::brute::{decide, Answer};
use crate::common::gen::{has_loops, sample, to_fe, tuples, GenConfig};
use forex::ir::{BinOp, Expr, ExprKind, Stmt, Tuple, Type, UnOp};

/// The type `e` must have, recomputed from its operands; panics on an ill-typed node.
fn check_expr(t: &Tuple, e: &Expr) -> Type {
    let ty = match &e.kind {
        ExprKind::Var(v) => t.var(*v).ty.clone(),
        ExprKind::Bool(_) => Type::Bool,
        ExprKind::Str(_) => Type::Str,
        ExprKind::Int(_) => Type::Int,
        ExprKind::Unary(UnOp::StrLen, a) => {
            assert_eq!(check_expr(t, a), Type::Str);
            Type::Int
        }
        ExprKind::Bv(v) => {
            let Type::Bv(w) = e.ty else { panic!("bv literal typed {}", e.ty) };
            assert!(*v < 1 << w, "literal {v} too wide for bv{w}");
            e.ty.clone()
        }
        ExprKind::Unary(op, a) => {
            let ta = check_expr(t, a);
            match op {
                UnOp::Not => assert_eq!(ta, Type::Bool),
                UnOp::BitNot | UnOp::Neg => assert!(matches!(ta, Type::Bv(_))),
                UnOp::Abs | UnOp::BvToInt | UnOp::StrLen => panic!("int-valued operator"),
                UnOp::SignExt(n) | UnOp::ZeroExt(n) => {
                    let Type::Bv(w) = ta else { panic!("extension of {ta}") };
                    return Type::Bv(w + n);
                }
                other => panic!("the generator makes no floats: {other:?}"),
            }
            ta
        }
        ExprKind::Binary(op, a, b) => {
            let (ta, tb) = (check_expr(t, a), check_expr(t, b));
            assert_eq!(ta, tb, "operands of {}", op.symbol());
            use BinOp::*;
            match op {
                And | Or | Implies | Iff => {
                    assert_eq!(ta, Type::Bool);
                    Type::Bool
                }
                Eq | Ne => Type::Bool,
                Lt | Le | Gt | Ge => {
                    assert!(matches!(ta, Type::Bv(_) | Type::Int));
                    Type::Bool
                }
                SLt | SLe | SGt | SGe => {
                    assert!(matches!(ta, Type::Bv(_)));
                    Type::Bool
                }
                Concat => {
                    assert_eq!(ta, Type::Str);
                    ta
                }
                Min | Max => panic!("min/max on bit-vectors"),
                _ => {
                    assert!(matches!(ta, Type::Bv(_)), "{} on {ta}", op.symbol());
                    ta
                }
            }
        }
        ExprKind::Ite(c, a, b) => {
            assert_eq!(check_expr(t, c), Type::Bool);
            let ta = check_expr(t, a);
            assert_eq!(ta, check_expr(t, b));
            ta
        }
        ExprKind::Extract { hi, lo, arg } => {
            let Type::Bv(w) = check_expr(t, arg) else { panic!("extract from a non-bv") };
            assert!(lo <= hi && *hi < w, "[{hi}:{lo}] of bv{w}");
            Type::Bv(hi - lo + 1)
        }
        other => panic!("unexpected expression {other:?}"),
    };
    assert_eq!(ty, e.ty, "annotated type");
    ty
}

fn check_block(t: &Tuple, copy: usize, b: &[Stmt], loops: &mut Vec<u32>) {
    let own = |v: &forex::ir::VarId| assert_eq!(t.var(*v).copy, copy, "foreign variable");
    for s in b {
        match s {
            Stmt::Assign { var, value, .. } => {
                own(var);
                assert_eq!(check_expr(t, value), t.var(*var).ty);
            }
            Stmt::Havoc { var, .. } => own(var),
            Stmt::Observe { .. } | Stmt::Cut { .. } => {}
            Stmt::Assume { cond, .. } => assert_eq!(check_expr(t, cond), Type::Bool),
            Stmt::If { cond, then_branch, else_branch, .. } => {
                assert_eq!(check_expr(t, cond), Type::Bool);
                check_block(t, copy, then_branch, loops);
                check_block(t, copy, else_branch, loops);
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                check_block(t, copy, then_branch, loops);
                check_block(t, copy, else_branch, loops);
            }
            Stmt::While { id, cond, body, .. } => {
                loops.push(id.0);
                assert_eq!(check_expr(t, cond), Type::Bool);
                check_block(t, copy, body, loops);
            }
            Stmt::Skip | Stmt::Store { .. } => {}
        }
    }
}

fn well_typed(t: &Tuple) {
    assert_eq!(check_expr(t, &t.pre), Type::Bool);
    assert_eq!(check_expr(t, &t.post), Type::Bool);
    assert!(t.copies[0].quantifier == forex::ir::Quantifier::Forall);
    for (c, copy) in t.copies.iter().enumerate() {
        let mut loops = Vec::new();
        check_block(t, c, &copy.body, &mut loops);
        let expected: Vec<u32> = (0..loops.len() as u32).collect();
        assert_eq!(loops, expected, "loops numbered in source order");
    }
}

fn survey(cfg: GenConfig, n: usize, seed: u8) -> (usize, usize) {
    let strategy = tuples(cfg);
    let (mut valid, mut invalid, mut with_loops) = (0, 0, 0);
    for t in sample(&strategy, n, seed) {
        well_typed(&t);
        with_loops += has_loops(&t) as usize;
        match decide(&t) {
            Some(Answer::Valid) => valid += 1,
            Some(Answer::Invalid(_)) => invalid += 1,
            None => panic!("oracle gave up on a generated tuple:\n{}", to_fe(&t)),
        }
    }
    println!(
        "loops={}: {valid} valid, {invalid} invalid, {with_loops} with loops (of {n})",
        cfg.loops
    );
    if cfg.loops {
        // Loops need a bit-vector counter, which string tuples have less often.
        let share = if cfg.strings { 10 } else { 5 };
        assert!(with_loops * share >= n, "too few loops: {with_loops} of {n}");
    } else {
        assert_eq!(with_loops, 0);
    }
    (valid, invalid)
}

#[test]
fn loop_free_tuples_are_well_typed_decidable_and_mixed() {
    let (valid, invalid) = survey(GenConfig::default(), 400, 1);
    assert!(valid * 5 >= 400 && invalid * 5 >= 400, "{valid} valid vs {invalid} invalid");
}

#[test]
fn looping_tuples_are_well_typed_decidable_and_mixed() {
    let (valid, invalid) = survey(GenConfig { loops: true, ..GenConfig::default() }, 400, 2);
    assert!(valid * 5 >= 400 && invalid * 5 >= 400, "{valid} valid vs {invalid} invalid");
}

#[test]
fn string_tuples_are_well_typed_decidable_and_mixed() {
    let strings = GenConfig { strings: true, ..GenConfig::default() };
    let (valid, invalid) = survey(strings, 300, 3);
    assert!(valid * 5 >= 300 && invalid * 5 >= 300, "{valid} valid vs {invalid} invalid");
    let (valid, invalid) = survey(GenConfig { loops: true, ..strings }, 200, 4);
    assert!(valid * 5 >= 200 && invalid * 5 >= 200, "{valid} valid vs {invalid} invalid");
}

#[test]
#[ignore = "prints sample tuples for inspection"]
fn print_samples() {
    let strings = std::env::var("STRINGS").is_ok();
    let cfg = GenConfig { loops: true, strings, ..GenConfig::default() };
    for (i, t) in sample(&tuples(cfg), 8, 3).iter().enumerate() {
        println!("// #{i}: {:?}\n{}", decide(t).map(|a| a.is_valid()), to_fe(t));
    }
}

#[test]
#[ignore = "prints the valid/invalid ratio per copy shape"]
fn print_ratio_by_shape() {
    use std::collections::BTreeMap;
    for loops in [false, true] {
        let mut by: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
        for t in sample(&tuples(GenConfig { loops, ..GenConfig::default() }), 2000, 5) {
            let shape = (t.forall_copies().count(), t.exists_copies().count());
            let e = by.entry(shape).or_default();
            if decide(&t).unwrap().is_valid() {
                e.0 += 1
            } else {
                e.1 += 1
            }
        }
        println!("loops={loops}: (forall, exists) -> (valid, invalid): {by:?}");
    }
}

#[test]
fn the_oracles_shortcuts_do_not_change_answers() {
    use crate::common::brute::{decide_with, Limits};
    let plain = Limits { shortcuts: false, ..Limits::default() };
    for (loops, strings) in [(false, false), (true, false), (false, true), (true, true)] {
        let cfg = GenConfig { loops, strings, max_bits: 12, ..GenConfig::default() };
        for t in sample(&tuples(cfg), 300, 7) {
            let fast = decide(&t).map(|a| a.is_valid());
            let slow = decide_with(&t, plain).map(|a| a.is_valid());
            assert_eq!(fast, slow, "shortcuts changed the answer on\n{}", to_fe(&t));
        }
    }
}
