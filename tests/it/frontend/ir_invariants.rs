//! Whatever the checker accepts satisfies the IR invariants the engines rely on:
//! every expression's type matches its operator and operands, variables exist with
//! the types recorded, copies mention only their own variables, loops are numbered
//! 0.. in order, and depth stays within `ir::MAX_DEPTH`.

use forex::frontend::{load_source, InputFormat};
use forex::ir::{BinOp, Block, Expr, ExprKind, Stmt, Type, UnOp, VarId, MAX_DEPTH};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Checks `e` against the typing rules; `var` gives a variable's type. Returns the depth.
fn validate(e: &Expr, var: &dyn Fn(VarId) -> Type, bound: &mut Vec<(u32, Type)>) -> usize {
    use BinOp::*;
    let num = |t: &Type| matches!(t, Type::Int | Type::Bv(_));
    let float = |t: &Type| matches!(t, Type::Float(_));
    let depth = match &e.kind {
        ExprKind::Var(v) => {
            assert_eq!(e.ty, var(*v));
            1
        }
        ExprKind::Bound(b) => {
            let t =
                &bound.iter().rev().find(|(id, _)| *id == b.0).expect("bound variable in scope").1;
            assert_eq!(&e.ty, t);
            1
        }
        ExprKind::Int(_) => {
            assert_eq!(e.ty, Type::Int);
            1
        }
        ExprKind::Bool(_) => {
            assert_eq!(e.ty, Type::Bool);
            1
        }
        ExprKind::Str(_) => {
            assert_eq!(e.ty, Type::Str);
            1
        }
        ExprKind::ConstArray(a) => {
            assert_eq!(e.ty, Type::Array(Box::new(a.ty.clone())));
            1 + validate(a, var, bound)
        }
        ExprKind::Bv(v) => {
            let Type::Bv(w) = e.ty else { panic!("bv literal typed {}", e.ty) };
            assert!(w == 128 || *v < (1u128 << w));
            1
        }
        ExprKind::Float(bits) => {
            let Type::Float(k) = e.ty else { panic!("float literal typed {}", e.ty) };
            assert_eq!(k.canonical(*bits), *bits, "float literals are canonical");
            1
        }
        ExprKind::Fma(a, b, c) => {
            let d =
                validate(a, var, bound).max(validate(b, var, bound)).max(validate(c, var, bound));
            assert!(float(&e.ty));
            assert_eq!((&a.ty, &b.ty, &c.ty), (&e.ty, &e.ty, &e.ty));
            d + 1
        }
        ExprKind::Unary(op, a) => {
            let d = validate(a, var, bound);
            match op {
                UnOp::Neg => assert!(num(&a.ty) || float(&a.ty)),
                UnOp::FAbs
                | UnOp::Sqrt
                | UnOp::RoundTo(_)
                | UnOp::FloatIs(_)
                | UnOp::FloatToInt(_)
                | UnOp::FloatFits(_)
                | UnOp::FloatBits => assert!(float(&a.ty)),
                UnOp::ToFloat { .. } => assert!(num(&a.ty) || float(&a.ty)),
                UnOp::Not => assert_eq!(a.ty, Type::Bool),
                UnOp::BitNot => assert!(matches!(a.ty, Type::Bv(_))),
                UnOp::Abs => assert_eq!(a.ty, Type::Int),
                UnOp::BvToInt => assert!(matches!(a.ty, Type::Bv(_))),
                UnOp::StrLen => assert_eq!(a.ty, Type::Str),
                UnOp::SignExt(_) | UnOp::ZeroExt(_) => assert!(matches!(a.ty, Type::Bv(_))),
            }
            let int_valued = matches!(op, UnOp::BvToInt | UnOp::StrLen);
            let result = match (op, &a.ty) {
                _ if int_valued => Type::Int,
                (UnOp::FloatIs(_) | UnOp::FloatFits(_), _) => Type::Bool,
                (UnOp::FloatToInt(t), _) => t.ty(),
                (UnOp::FloatBits, Type::Float(k)) => Type::Bv(k.width()),
                (UnOp::ToFloat { kind, .. }, _) => Type::Float(*kind),
                (UnOp::SignExt(n) | UnOp::ZeroExt(n), Type::Bv(w)) => Type::Bv(w + n),
                _ => a.ty.clone(),
            };
            assert_eq!(e.ty, result);
            d + 1
        }
        ExprKind::Binary(op, a, b) => {
            let d = validate(a, var, bound).max(validate(b, var, bound));
            assert_eq!(a.ty, b.ty, "operands of {op:?}");
            let result = match op {
                And | Or | Implies | Iff => {
                    assert_eq!(a.ty, Type::Bool);
                    Type::Bool
                }
                Lt | Le | Gt | Ge => {
                    assert!(num(&a.ty) || float(&a.ty));
                    Type::Bool
                }
                Eq | Ne => Type::Bool,
                Ident => {
                    assert!(float(&a.ty), "`===` on other types is `==`");
                    Type::Bool
                }
                Add | Sub | Mul | Div => {
                    assert!(num(&a.ty) || float(&a.ty));
                    a.ty.clone()
                }
                Mod => {
                    assert!(num(&a.ty));
                    a.ty.clone()
                }
                FMin | FMax | CopySign => {
                    assert!(float(&a.ty));
                    a.ty.clone()
                }
                BitAnd | BitOr | BitXor | Shl | Shr | SDiv | SRem | AShr => {
                    assert!(matches!(a.ty, Type::Bv(_)));
                    a.ty.clone()
                }
                SLt | SLe | SGt | SGe => {
                    assert!(matches!(a.ty, Type::Bv(_)));
                    Type::Bool
                }
                Min | Max => {
                    assert_eq!(a.ty, Type::Int);
                    Type::Int
                }
                Concat => {
                    assert_eq!(a.ty, Type::Str);
                    Type::Str
                }
            };
            assert_eq!(e.ty, result);
            d + 1
        }
        ExprKind::Ite(c, a, b) => {
            let d =
                validate(c, var, bound).max(validate(a, var, bound)).max(validate(b, var, bound));
            assert_eq!(c.ty, Type::Bool);
            assert_eq!((&a.ty, &b.ty), (&e.ty, &e.ty));
            d + 1
        }
        ExprKind::Select(a, i) => {
            let d = validate(a, var, bound).max(validate(i, var, bound));
            assert_eq!(a.ty, Type::Array(Box::new(e.ty.clone())));
            assert_eq!(i.ty, Type::Int);
            d + 1
        }
        ExprKind::Extract { hi, lo, arg } => {
            let d = validate(arg, var, bound);
            let Type::Bv(w) = arg.ty else { panic!("extract from {}", arg.ty) };
            assert!(lo <= hi && *hi < w);
            assert_eq!(e.ty, Type::Bv(hi - lo + 1));
            d + 1
        }
        ExprKind::Quant { var: b, var_ty, body, .. } => {
            bound.push((b.0, var_ty.clone()));
            let d = validate(body, var, bound);
            bound.pop();
            assert_eq!((&body.ty, &e.ty), (&Type::Bool, &Type::Bool));
            d + 1
        }
    };
    assert!(depth <= MAX_DEPTH + 1, "depth {depth}");
    depth
}

fn validate_block(b: &Block, var: &dyn Fn(VarId) -> Type, loops: &mut Vec<u32>) {
    let mut none = Vec::new();
    for s in b {
        match s {
            Stmt::Skip | Stmt::Observe { .. } | Stmt::Cut { .. } => {}
            Stmt::Assign { var: v, value, .. } => {
                validate(value, var, &mut none);
                assert_eq!(value.ty, var(*v));
            }
            Stmt::Store { array, index, value, .. } => {
                validate(index, var, &mut none);
                validate(value, var, &mut none);
                assert_eq!(var(*array), Type::Array(Box::new(value.ty.clone())));
            }
            Stmt::Havoc { var: v, .. } => {
                var(*v);
            }
            Stmt::Assume { cond, .. } => {
                validate(cond, var, &mut none);
                assert_eq!(cond.ty, Type::Bool);
            }
            Stmt::If { cond, then_branch, else_branch, .. } => {
                validate(cond, var, &mut none);
                assert_eq!(cond.ty, Type::Bool);
                validate_block(then_branch, var, loops);
                validate_block(else_branch, var, loops);
            }
            Stmt::IfStar { then_branch, else_branch, .. } => {
                validate_block(then_branch, var, loops);
                validate_block(else_branch, var, loops);
            }
            Stmt::While { id, cond, body, .. } => {
                loops.push(id.0);
                validate(cond, var, &mut none);
                assert_eq!(cond.ty, Type::Bool);
                validate_block(body, var, loops);
            }
        }
    }
}

fn validate_source(src: &str) -> bool {
    let Ok(m) = load_source("gen.fe", src.as_bytes(), InputFormat::Fe) else { return false };
    for p in &m.programs {
        let var = |v: VarId| p.vars[v.index()].ty.clone();
        let mut loops = Vec::new();
        validate_block(&p.body, &var, &mut loops);
        assert_eq!(loops, (0..loops.len() as u32).collect::<Vec<_>>(), "loops numbered in order");
    }
    for t in &m.tuples {
        for (k, c) in t.copies.iter().enumerate() {
            let var = |v: VarId| {
                assert_eq!(t.var(v).copy, k, "copy {k} mentions another copy's variable");
                t.var(v).ty.clone()
            };
            validate_block(&c.body, &var, &mut Vec::new());
        }
        let var = |v: VarId| t.var(v).ty.clone();
        for e in [&t.pre, &t.post].into_iter().chain(&t.hints.invariants) {
            validate(e, &var, &mut Vec::new());
            assert_eq!(e.ty, Type::Bool);
        }
    }
    true
}

/// A random expression of type `ty` ("int", "bool", "bv8", "bv4") over `x, y: int`,
/// `b: bool`, `k, m: bv8`, `n: bv4`, `a: int[]`, each name prefixed by `prefix`
/// (`c.` in formulas). With `typo` > 0, about one node in `typo` gets a wrong-typed
/// leaf, which the checker must reject.
fn gen(rng: &mut ChaCha8Rng, ty: &str, depth: u32, prefix: &str, typo: u32) -> String {
    let pick = |rng: &mut ChaCha8Rng, xs: &[&str]| xs[rng.gen_range(0..xs.len())].to_string();
    let v = |name: &str| format!("{prefix}{name}");
    if typo > 0 && rng.gen_range(0..typo) == 0 {
        return pick(rng, &[&v("x"), &v("b"), &v("k"), &v("n"), "1", "true", "#xff"]);
    }
    if depth == 0 || rng.gen_range(0..3) == 0 {
        return match ty {
            "int" => pick(rng, &[&v("x"), &v("y"), "0", "1", "-3", "7"]),
            "bool" => pick(rng, &[&v("b"), "true", "false"]),
            "bv8" => pick(rng, &[&v("k"), &v("m"), "#xff", "#x0f", "#b00000001"]),
            _ => pick(rng, &[&v("n"), "#xa", "#b0110"]),
        };
    }
    let d = depth - 1;
    let g = |rng: &mut ChaCha8Rng, t: &str| gen(rng, t, d, prefix, typo);
    match (ty, rng.gen_range(0..5)) {
        ("int", 0) => format!(
            "({} {} {})",
            g(rng, "int"),
            pick(rng, &["+", "-", "*", "/", "%"]),
            g(rng, "int")
        ),
        ("int", 1) => format!("{}a[{}]", prefix, g(rng, "int")),
        ("int", 2) => {
            format!("{}({}, {})", pick(rng, &["min", "max"]), g(rng, "int"), g(rng, "int"))
        }
        ("int", 3) => format!("-(abs({}))", g(rng, "int")),
        ("bool", 0) => format!(
            "({} {} {})",
            g(rng, "int"),
            pick(rng, &["<", "<=", ">", ">=", "==", "!="]),
            g(rng, "int")
        ),
        ("bool", 1) => {
            format!("({} {} {})", g(rng, "bv8"), pick(rng, &["<", ">=", "=="]), g(rng, "bv8"))
        }
        ("bool", 2) => format!(
            "({} {} {})",
            g(rng, "bool"),
            pick(rng, &["&&", "||", "==>", "<==>"]),
            g(rng, "bool")
        ),
        ("bool", 3) => format!("!({})", g(rng, "bool")),
        ("bv8", 0) => format!(
            "({} {} {})",
            g(rng, "bv8"),
            pick(rng, &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]),
            g(rng, "bv8")
        ),
        ("bv8", 1) => format!("{}({})", pick(rng, &["~", "-"]), g(rng, "bv8")),
        ("bv4", 0) => {
            let lo = rng.gen_range(0..5);
            format!("({})[{}:{lo}]", g(rng, "bv8"), lo + 3)
        }
        ("bv4", 1) => format!("({} + {})", g(rng, "bv4"), g(rng, "bv4")),
        (t, _) => format!("(if {} then {} else {})", g(rng, "bool"), g(rng, t), g(rng, t)),
    }
}

fn program(seed: u64, typo: u32) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let targets = [("x", "int"), ("b", "bool"), ("k", "bv8"), ("n", "bv4"), ("a[y]", "int")];
    let stmt = |rng: &mut ChaCha8Rng| {
        let (lhs, ty) = targets[rng.gen_range(0..targets.len())];
        format!("{lhs} = {};", gen(rng, ty, 4, "", typo))
    };
    let (s1, s2) = (stmt(&mut rng), stmt(&mut rng));
    let cond = gen(&mut rng, "bool", 3, "", typo);
    let pre = gen(&mut rng, "bool", 4, "c.", typo);
    let inv = gen(&mut rng, "bool", 3, "d.", typo);
    format!(
        "program p {{\n  int x, y;\n  bool b;\n  bv8 k, m;\n  bv4 n;\n  int[] a;\n  \
         {s1}\n  while ({cond}) {{ if (*) {{ {s2} }} while (b) {{ b = !b; }} }}\n}}\n\
         tuple t {{\n  forall c: p;\n  exists d: p;\n  pre {pre};\n  post forall i: int :: c.a[i] == d.a[i];\n  invariant {inv};\n}}\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200),
        ..ProptestConfig::default()
    })]

    #[test]
    fn well_typed_programs_are_accepted_and_satisfy_the_ir_invariants(seed in any::<u64>()) {
        let src = program(seed, 0);
        prop_assert!(validate_source(&src), "rejected:\n{src}");
    }

    #[test]
    fn programs_with_typos_are_rejected_or_valid(seed in any::<u64>()) {
        validate_source(&program(seed, 6));
    }
}

#[test]
fn the_validator_accepts_the_test_inputs() {
    for f in ["tests/inputs/gni.fe", "tests/inputs/features.fe"] {
        assert!(validate_source(&std::fs::read_to_string(f).unwrap()), "{f}");
    }
}
