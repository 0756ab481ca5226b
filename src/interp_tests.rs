//! Interpreter tests on IR built by hand (independent of the front end).

use super::*;
use crate::ir::{Block, Quantifier, VarDecl};
use crate::smt::encode;
use z3::ast::Ast;

fn loc(line: u32) -> Loc {
    Loc { line, col: 1 }
}

fn program(vars: &[(&str, Type)], body: Block) -> Program {
    Program {
        name: "p".into(),
        vars: vars
            .iter()
            .map(|(n, t)| VarDecl { name: n.to_string(), ty: t.clone(), loc: loc(1) })
            .collect(),
        body,
        loc: loc(1),
    }
}

fn v(i: u32, ty: Type) -> Expr {
    Expr::var(VarId(i), ty)
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

fn assign(i: u32, e: Expr) -> Stmt {
    Stmt::Assign { var: VarId(i), value: e, loc: loc(2) }
}

fn int_of(v: &Value) -> i64 {
    i64::try_from(v.as_int().unwrap()).unwrap()
}

#[test]
fn loop_sums_and_terminates() {
    // i = 0; s = 0; while (i < n) { s = s + i; i = i + 1; }
    let p = program(
        &[("n", Type::Int), ("i", Type::Int), ("s", Type::Int)],
        vec![
            assign(1, Expr::int(0)),
            assign(2, Expr::int(0)),
            Stmt::While {
                id: crate::ir::LoopId(0),
                cond: bin(BinOp::Lt, v(1, Type::Int), v(0, Type::Int)),
                body: vec![
                    assign(2, bin(BinOp::Add, v(2, Type::Int), v(1, Type::Int))),
                    assign(1, bin(BinOp::Add, v(1, Type::Int), Expr::int(1))),
                ],
                loc: loc(3),
            },
        ],
    );
    let mut state = vec![Value::int(10), Value::int(0), Value::int(0)];
    let run = run_program(&p, &mut state, &mut Replay::new(vec![]), 1000).unwrap();
    assert_eq!(run.end, RunEnd::Finished);
    assert_eq!(int_of(&state[2]), 45);
    // 2 assignments, 11 guard evaluations, 20 body statements.
    assert_eq!(run.steps, 33);

    let mut state = vec![Value::int(1000), Value::int(0), Value::int(0)];
    let run = run_program(&p, &mut state, &mut Replay::new(vec![]), 100).unwrap();
    assert_eq!(run.end, RunEnd::StepLimit { steps: 100 });
    assert_eq!(run.end.to_string(), "did not terminate within 100 steps");
}

#[test]
fn infinite_loop_hits_step_limit() {
    let p = program(
        &[("x", Type::Int)],
        vec![Stmt::While {
            id: crate::ir::LoopId(0),
            cond: Expr::bool(true),
            body: vec![],
            loc: loc(1),
        }],
    );
    let mut state = vec![Value::int(0)];
    let run = run_program(&p, &mut state, &mut Replay::new(vec![]), 50).unwrap();
    assert_eq!(run.end, RunEnd::StepLimit { steps: 50 });
}

#[test]
fn choices_assume_and_if_star() {
    // x = *; assume x > 0; if (*) { y = x; } else { y = -x; }
    let p = program(
        &[("x", Type::Int), ("y", Type::Int)],
        vec![
            Stmt::Havoc { var: VarId(0), loc: loc(1) },
            Stmt::Assume { cond: bin(BinOp::Gt, v(0, Type::Int), Expr::int(0)), loc: loc(2) },
            Stmt::IfStar {
                then_branch: vec![assign(1, v(0, Type::Int))],
                else_branch: vec![assign(
                    1,
                    Expr {
                        kind: ExprKind::Unary(UnOp::Neg, Box::new(v(0, Type::Int))),
                        ty: Type::Int,
                    },
                )],
                loc: loc(3),
            },
        ],
    );
    let fresh = || vec![Value::int(0), Value::int(0)];
    let mut s = fresh();
    let run =
        run_program(&p, &mut s, &mut Replay::new(vec![Value::int(5), Value::bool(false)]), 100)
            .unwrap();
    assert_eq!(run.end, RunEnd::Finished);
    assert_eq!(run.choices, vec![Value::int(5), Value::bool(false)]);
    assert_eq!(int_of(&s[1]), -5);

    let mut s = fresh();
    let run = run_program(&p, &mut s, &mut Replay::new(vec![Value::int(-1)]), 100).unwrap();
    assert_eq!(run.end, RunEnd::Blocked { at: loc(2) });

    let mut s = fresh();
    let run = run_program(&p, &mut s, &mut Replay::new(vec![Value::int(3)]), 100).unwrap();
    assert_eq!(run.end, RunEnd::OutOfChoices { at: loc(3) });

    let mut s = fresh();
    let err = run_program(&p, &mut s, &mut Replay::new(vec![Value::bool(true)]), 100).unwrap_err();
    assert_eq!(
        err,
        InterpError::BadChoice { value: Value::bool(true), expected: Type::Int, at: loc(1) }
    );
}

#[test]
fn arrays_store_and_select() {
    let arr_ty = Type::Array(Box::new(Type::Int));
    let p = program(
        &[("a", arr_ty.clone()), ("r", Type::Int)],
        vec![
            Stmt::Store { array: VarId(0), index: Expr::int(3), value: Expr::int(7), loc: loc(1) },
            assign(
                1,
                Expr {
                    kind: ExprKind::Select(Box::new(v(0, arr_ty.clone())), Box::new(Expr::int(3))),
                    ty: Type::Int,
                },
            ),
            Stmt::Store { array: VarId(0), index: Expr::int(3), value: Expr::int(0), loc: loc(2) },
        ],
    );
    let mut s = vec![Value::default_of(&arr_ty), Value::int(0)];
    run_program(&p, &mut s, &mut Replay::new(vec![]), 100).unwrap();
    assert_eq!(int_of(&s[1]), 7);
    // Storing the default again normalises back to the empty array.
    assert_eq!(s[0], Value::default_of(&arr_ty));
}

#[test]
fn integer_division_is_euclidean_and_total() {
    let cases = [(7, 2, 3, 1), (-7, 2, -4, 1), (7, -2, -3, 1), (-7, -2, 4, 1), (5, 0, 0, 5)];
    for (a, b, q, r) in cases {
        let (gq, gr) = euclid_div_mod(&BigInt::from(a), &BigInt::from(b));
        assert_eq!((gq, gr), (BigInt::from(q), BigInt::from(r)), "{a} div/mod {b}");
    }
}

fn bv_op(op: BinOp, a: u128, b: u128, w: u32) -> Value {
    eval_expr(&bin(op, Expr::bv(a, w), Expr::bv(b, w)), &[]).unwrap()
}

#[test]
fn bit_vector_corner_cases() {
    assert_eq!(bv_op(BinOp::Add, 0xff, 1, 8), Value::bv(0, 8));
    assert_eq!(bv_op(BinOp::Sub, 0, 1, 8), Value::bv(0xff, 8));
    assert_eq!(bv_op(BinOp::Mul, 0x80, 2, 8), Value::bv(0, 8));
    assert_eq!(bv_op(BinOp::Div, 9, 0, 4), Value::bv(0xf, 4));
    assert_eq!(bv_op(BinOp::Mod, 9, 0, 4), Value::bv(9, 4));
    assert_eq!(bv_op(BinOp::Lt, 0x1, 0xf, 4), Value::bool(true)); // unsigned
    assert_eq!(bv_op(BinOp::Shl, 1, 8, 8), Value::bv(0, 8));
    assert_eq!(bv_op(BinOp::Shr, 0x80, 7, 8), Value::bv(1, 8));
    assert_eq!(bv_op(BinOp::Shr, 0x80, 200, 8), Value::bv(0, 8));
    assert_eq!(bv_op(BinOp::Mul, u128::MAX, u128::MAX, 128), Value::bv(1, 128));
    let neg = Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(Expr::bv(1, 4))), ty: Type::Bv(4) };
    assert_eq!(eval_expr(&neg, &[]).unwrap(), Value::bv(0xf, 4));
    let ext = Expr {
        kind: ExprKind::Extract { hi: 5, lo: 2, arg: Box::new(Expr::bv(0b1011_0100, 8)) },
        ty: Type::Bv(4),
    };
    assert_eq!(eval_expr(&ext, &[]).unwrap(), Value::bv(0b1101, 4));
}

#[test]
fn quantifiers_are_an_error_not_a_panic() {
    let q = Expr {
        kind: ExprKind::Quant {
            quantifier: Quantifier::Forall,
            var: crate::ir::BoundId(0),
            name: "i".into(),
            var_ty: Type::Int,
            body: Box::new(Expr::bool(true)),
        },
        ty: Type::Bool,
    };
    assert_eq!(eval_expr(&q, &[]), Err(InterpError::Quantifier));
}

#[test]
fn ill_typed_ir_is_an_error_not_a_panic() {
    let e = bin(BinOp::Add, Expr::int(1), Expr::bool(true));
    assert!(matches!(eval_expr(&e, &[]), Err(InterpError::Malformed(_))));
    let p = program(&[("x", Type::Int)], vec![assign(0, Expr::int(1))]);
    assert!(matches!(
        run_program(&p, &mut [], &mut Replay::new(vec![]), 10),
        Err(InterpError::Malformed(_))
    ));
}

/// The interpreter and the SMT encoding agree on every binary operator over small
/// operands, including the division-by-zero and over-wide shift cases.
#[test]
fn interpreter_agrees_with_smt_encoding() {
    let nothing = |_: VarId| -> z3::ast::Dynamic { unreachable!() };
    let ints = [-5i64, -2, -1, 0, 1, 3, 7];
    use BinOp::*;
    for op in [Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, Min, Max] {
        for a in ints {
            for b in ints {
                let e = bin(op, Expr::int(a), Expr::int(b));
                let concrete = eval_expr(&e, &[]).unwrap();
                let symbolic = encode::encode(&e, &nothing).simplify();
                let ty = e.ty.clone();
                assert_eq!(encode::term_value(&symbolic, &ty), Some(concrete), "{a} {op:?} {b}");
            }
        }
    }
    for op in [Add, Sub, Mul, Div, Mod, Lt, Le, BitAnd, BitOr, BitXor, Shl, Shr] {
        for a in [0u128, 1, 5, 8, 15] {
            for b in [0u128, 1, 3, 4, 9, 15] {
                let e = bin(op, Expr::bv(a, 4), Expr::bv(b, 4));
                let concrete = eval_expr(&e, &[]).unwrap();
                let symbolic = encode::encode(&e, &nothing).simplify();
                let ty = e.ty.clone();
                assert_eq!(encode::term_value(&symbolic, &ty), Some(concrete), "{a} {op:?} {b}");
            }
        }
    }
}

#[test]
fn observations_are_recorded_and_bound_the_run() {
    // x = 0; while (true) { observe; x = x + 1; }
    let p = program(
        &[("x", Type::Int)],
        vec![
            assign(0, Expr::int(0)),
            Stmt::While {
                id: crate::ir::LoopId(0),
                cond: Expr::bool(true),
                body: vec![
                    Stmt::Observe { loc: loc(3) },
                    assign(0, bin(BinOp::Add, v(0, Type::Int), Expr::int(1))),
                ],
                loc: loc(2),
            },
        ],
    );
    let limits = Limits { max_steps: 1000, max_observations: Some(4) };
    let mut state = vec![Value::int(7)];
    let run = run_program_observing(&p, &mut state, &mut Replay::new(vec![]), limits).unwrap();
    assert_eq!(run.end, RunEnd::ObservationLimit { count: 4 });
    let seen: Vec<i64> = run.observations.iter().map(|o| int_of(&o[0])).collect();
    assert_eq!(seen, [0, 1, 2, 3]);
    // The run stops right at the 4th observation: the increment after it has not run.
    assert_eq!(int_of(&state[0]), 3);
    // Without an observation bound the step limit stops it, observations kept.
    let mut state = vec![Value::int(0)];
    let run = run_program(&p, &mut state, &mut Replay::new(vec![]), 20).unwrap();
    assert_eq!(run.end, RunEnd::StepLimit { steps: 20 });
    assert!(!run.observations.is_empty());
}

#[test]
fn a_copy_observes_only_its_own_variables() {
    let p = program(
        &[("x", Type::Int), ("b", Type::Bool)],
        vec![Stmt::Observe { loc: loc(2) }, assign(0, Expr::int(5)), Stmt::Observe { loc: loc(3) }],
    );
    let mut t = Tuple {
        name: "t".into(),
        file: "t.fe".into(),
        loc: loc(1),
        copies: vec![],
        vars: vec![],
        pre: Expr::bool(true),
        post: Expr::bool(true),
        kind: crate::ir::PropertyKind::Always,
        observations: None,
        hints: Default::default(),
        c_view: None,
    };
    t.add_copy("a", &p, Quantifier::Forall);
    t.add_copy("b", &p, Quantifier::Forall);
    let mut state = vec![Value::int(1), Value::bool(true), Value::int(2), Value::bool(false)];
    let limits = Limits { max_steps: 100, max_observations: None };
    let run =
        run_copy_observing(&t, 1, &mut state, &mut Replay::new(vec![]), limits, &mut NoObserver)
            .unwrap();
    assert_eq!(run.end, RunEnd::Finished);
    assert_eq!(
        run.observations,
        [vec![Value::int(2), Value::bool(false)], vec![Value::int(5), Value::bool(false)]]
    );
}
