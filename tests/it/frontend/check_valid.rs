//! The checker on valid inputs: copies, variable tables, shorthand expansions, loop
//! numbering, locations, hints and the ForEx format's naming.

use forex::frontend::{load_source, InputFormat};
use forex::ir::{BinOp, ExprKind, Loc, LoopId, Module, Quantifier, Stmt, Type, UnOp};
use forex::pretty::tuple_expr;

fn load(src: &str) -> Module {
    match load_source("test.fe", src.as_bytes(), InputFormat::Auto) {
        Ok(m) => m,
        Err(d) => panic!("unexpected errors:\n{}", d.render(forex::diag::DiagStyle::Short)),
    }
}

const LEAK: &str = "program leak {\n  int h, l, o;\n  bool b;\n  o = l;\n}\n";

#[test]
fn copies_have_distinct_variables_and_forall_comes_first() {
    // The `exists` line is written first; the ∃ copy must still come last.
    let m = load(&format!(
        "{LEAK}tuple t {{\n  exists c: leak;\n  forall a: leak, b: leak;\n  post a.o == c.o;\n}}\n"
    ));
    let t = &m.tuples[0];
    let names: Vec<_> = t.copies.iter().map(|c| (c.name.as_str(), c.quantifier)).collect();
    assert_eq!(
        names,
        [("a", Quantifier::Forall), ("b", Quantifier::Forall), ("c", Quantifier::Exists)]
    );
    assert_eq!(t.vars.len(), 12);
    let mut all: Vec<_> = t.copies.iter().flat_map(|c| c.vars.clone()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 12, "every copy has its own variables");
    // Each copy's body mentions only its own variables.
    for (k, c) in t.copies.iter().enumerate() {
        let Stmt::Assign { var, value, .. } = &c.body[0] else { panic!("assignment expected") };
        assert_eq!(t.var(*var).copy, k);
        assert_eq!(t.var(*var).name, "o");
        value.for_each_var(&mut |v| assert_eq!(t.var(v).copy, k));
    }
    assert_eq!(tuple_expr(t, &t.post), "a.o == c.o");
    assert_eq!(t.pre, forex::ir::Expr::bool(true), "pre defaults to true");
    assert_eq!(t.file, "test.fe");
    assert_eq!(t.var(t.copy_var(1, "b").unwrap()).ty, Type::Bool);
}

#[test]
fn shorthands_expand_to_the_documented_tuples() {
    let m = load(&format!(
        "{LEAK}program spec {{ int h, l, o; o = l; }}\n\
         tuple t1 = ni(leak, low: [l], high: [h], out: [o]);\n\
         tuple t2 = gni(leak, low: [l], high: [h], out: [o]);\n\
         tuple t3 = refines(leak, spec, in: [h, l], out: [o]);\n\
         tuple t4 = deterministic(leak, in: [l], out: [o, b]);\n"
    ));
    let shape = |i: usize| {
        let t = &m.tuples[i];
        let copies: Vec<String> = t
            .copies
            .iter()
            .map(|c| {
                let q = if c.quantifier == Quantifier::Forall { "forall" } else { "exists" };
                format!("{q} {}: {}", c.name, c.program)
            })
            .collect();
        (copies.join("; "), tuple_expr(t, &t.pre), tuple_expr(t, &t.post))
    };
    assert_eq!(
        shape(0),
        ("forall a: leak; forall b: leak".into(), "a.l == b.l".into(), "a.o == b.o".into())
    );
    assert_eq!(
        shape(1),
        (
            "forall a: leak; forall b: leak; exists c: leak".into(),
            "(a.l == c.l) && (b.h == c.h)".into(),
            "a.o == c.o".into()
        )
    );
    assert_eq!(
        shape(2),
        (
            "forall a: leak; exists b: spec".into(),
            "(a.h == b.h) && (a.l == b.l)".into(),
            "a.o == b.o".into()
        )
    );
    assert_eq!(
        shape(3),
        (
            "forall a: leak; forall b: leak".into(),
            "a.l == b.l".into(),
            "(a.o == b.o) && (a.b == b.b)".into()
        )
    );
    assert!(m.tuples[0].is_k_safety());
    assert!(!m.tuples[1].is_k_safety());
}

#[test]
fn loops_are_numbered_per_program_in_source_order_with_locations() {
    let m = load(
        "program p {\n  int x, y;\n  while (x > 0) {\n    while (y > 0) { y = y - 1; }\n    x = x - 1;\n  }\n  while (y < 3) { y = y + 1; }\n}\n\
         program q {\n  int z;\n  while (z > 0) { z = z - 1; }\n}\n",
    );
    let p = &m.programs[0];
    let Stmt::While { id, body, loc, .. } = &p.body[0] else { panic!() };
    assert_eq!((*id, *loc), (LoopId(0), Loc { line: 3, col: 3 }));
    let Stmt::While { id, loc, .. } = &body[0] else { panic!() };
    assert_eq!((*id, *loc), (LoopId(1), Loc { line: 4, col: 5 }));
    let Stmt::While { id, .. } = &p.body[1] else { panic!() };
    assert_eq!(*id, LoopId(2));
    let Stmt::While { id, .. } = &m.programs[1].body[0] else { panic!() };
    assert_eq!(*id, LoopId(0), "numbering restarts per program");
    assert_eq!(p.vars[1].loc, Loc { line: 2, col: 10 });
}

#[test]
fn hints_and_quantifiers_are_checked() {
    let m = load(
        "program p { int x; int[] a; x = a[x]; }\n\
         tuple t {\n  forall a: p, b: p;\n\
           pre forall i: int :: a.a[i] == b.a[i];\n  post a.x == b.x;\n\
           invariant a.x <= b.x;\n  invariant exists j: int :: a.a[j] == j;\n\
           align 3;\n  conjuncts 1..4;\n}\n",
    );
    let t = &m.tuples[0];
    assert_eq!(t.hints.invariants.len(), 2);
    assert_eq!(t.hints.align, Some(3));
    assert_eq!((t.hints.min_conjuncts, t.hints.max_conjuncts), (Some(1), Some(4)));
    let ExprKind::Quant { quantifier, var_ty, body, .. } = &t.pre.kind else { panic!() };
    assert_eq!((*quantifier, var_ty), (Quantifier::Forall, &Type::Int));
    assert!(matches!(body.kind, ExprKind::Binary(BinOp::Eq, _, _)));
    // Bound ids are unique within the tuple.
    let ExprKind::Quant { var: v2, .. } = &t.hints.invariants[1].kind else { panic!() };
    let ExprKind::Quant { var: v1, .. } = &t.pre.kind else { panic!() };
    assert_ne!(v1, v2);
}

#[test]
fn bit_vectors_literals_and_operators_are_typed() {
    let m = load(
        "program p {\n  bv8 k;\n  bv4 n;\n  bool b;\n  int x;\n\
           k = #xf0 | ~k;\n  n = k[7:4];\n  b = k < #b00000001;\n  x = -5;\n  x = x / 0 % 3;\n}\n",
    );
    let body = &m.programs[0].body;
    let Stmt::Assign { value, .. } = &body[0] else { panic!() };
    assert_eq!(value.ty, Type::Bv(8));
    let ExprKind::Binary(BinOp::BitOr, lit, not) = &value.kind else { panic!("{value:?}") };
    assert_eq!(lit.kind, ExprKind::Bv(0xf0));
    assert!(matches!(not.kind, ExprKind::Unary(UnOp::BitNot, _)));
    let Stmt::Assign { value, .. } = &body[1] else { panic!() };
    assert!(matches!(value.kind, ExprKind::Extract { hi: 7, lo: 4, .. }));
    assert_eq!(value.ty, Type::Bv(4));
    let Stmt::Assign { value, .. } = &body[3] else { panic!() };
    assert_eq!(value.kind, ExprKind::Int((-5).into()), "negative literals fold");
}

#[test]
fn precedence_follows_the_language_table() {
    let m = load(
        "program p { int x, y; bool b, c, d; bv8 k;\n\
           b = c || d && x + y * 2 < 3;\n  b = c ==> d ==> c;\n  k = k + k & k;\n\
           x = 1 + if b then 2 else 3 + 4;\n}\n",
    );
    let names = |v: forex::ir::VarId| m.programs[0].vars[v.index()].name.clone();
    let text = |i: usize| {
        let Stmt::Assign { value, .. } = &m.programs[0].body[i] else { panic!() };
        forex::pretty::expr_with(value, &names)
    };
    assert_eq!(text(0), "c || (d && ((x + (y * 2)) < 3))");
    assert_eq!(text(1), "c ==> (d ==> c)", "==> is right-associative");
    assert_eq!(text(2), "k + (k & k)", "bit operators bind tighter than +");
    assert_eq!(text(3), "1 + (if b then 2 else (3 + 4))", "`if` as an operand extends right");
}

const FOREX: &str = "[exists]\nint o;\nint h;\n\nif * { o = 1; } else { o = 2; }\n\n\
[forall]\nbv_4 o;\nbv_4 h;\n\no = (bv.! o) bv.& (h bv.| bv.! h);\nassume h{1,3} == #b101;
while(h != #b0000) { h = #b0000; }\n\n\
[forall]\nint o;\n\no = if (o <= 3) then 3 else o;\n\n\
[pre]\nh_0 == #b1010 && o_2 == o_1\n\n[post]\n(o_2 == 1) => (o_0 == #b0001)\n\n\
[inv]\no_1 >= o_2\n\n[inv]\ntrue\n\n[asynchronous]\n2\n\n[maxC]\n3\n\n[minC]\n1\n";

#[test]
fn forex_format_names_copies_by_index_forall_first() {
    let m = match load_source("dir/my_bench.txt", FOREX.as_bytes(), InputFormat::Auto) {
        Ok(m) => m,
        Err(d) => panic!("{}", d.render(forex::diag::DiagStyle::Short)),
    };
    assert_eq!(m.tuples.len(), 1);
    let t = &m.tuples[0];
    assert_eq!(t.name, "my_bench");
    let copies: Vec<_> =
        t.copies.iter().map(|c| (c.name.as_str(), c.program.as_str(), c.quantifier)).collect();
    // Both [forall] sections (file order) take indices 0 and 1, then the [exists].
    assert_eq!(
        copies,
        [
            ("c0", "p0", Quantifier::Forall),
            ("c1", "p1", Quantifier::Forall),
            ("c2", "p2", Quantifier::Exists)
        ]
    );
    assert_eq!(m.programs.len(), 3);
    assert_eq!(t.var(t.copy_var(0, "o").unwrap()).ty, Type::Bv(4));
    assert_eq!(tuple_expr(t, &t.pre), "(c0.h == #xa) && (c2.o == c1.o)");
    assert_eq!(tuple_expr(t, &t.post), "(c2.o == 1) ==> (c0.o == #x1)");
    assert_eq!(t.hints.invariants.len(), 2);
    assert_eq!(t.hints.align, Some(2));
    assert_eq!((t.hints.min_conjuncts, t.hints.max_conjuncts), (Some(1), Some(3)));
    let body = &t.copies[0].body;
    // `bv.|` is bitwise or (the documented meaning), `bv.&` and, `bv.!` not.
    let Stmt::Assign { value, .. } = &body[0] else { panic!() };
    let ExprKind::Binary(BinOp::BitAnd, l, r) = &value.kind else { panic!("{value:?}") };
    assert!(matches!(l.kind, ExprKind::Unary(UnOp::BitNot, _)));
    assert!(matches!(r.kind, ExprKind::Binary(BinOp::BitOr, _, _)));
    // `h{1,3}`: bits 1..3 from the least significant bit.
    let Stmt::Assume { cond, .. } = &body[1] else { panic!() };
    let ExprKind::Binary(BinOp::Eq, value, _) = &cond.kind else { panic!() };
    assert!(matches!(value.kind, ExprKind::Extract { hi: 3, lo: 1, .. }), "{value:?}");
    assert_eq!(value.ty, Type::Bv(3));
    assert!(matches!(body[2], Stmt::While { id: LoopId(0), .. }));
    assert!(matches!(t.copies[2].body[0], Stmt::IfStar { .. }));
    assert!(matches!(
        &t.copies[1].body[0],
        Stmt::Assign { value: forex::ir::Expr { kind: ExprKind::Ite(..), .. }, .. }
    ));
}

#[test]
fn format_detection_and_explicit_format() {
    assert!(load_source("x.txt", FOREX.as_bytes(), InputFormat::Forex).is_ok());
    // Forcing .fe on a ForEx file is a syntax error, not a crash.
    let err = load_source("x.txt", FOREX.as_bytes(), InputFormat::Fe).unwrap_err();
    assert_eq!(err.len(), 1);
    assert!(err.items[0].hint.as_deref().unwrap().contains("input format `forex`"));
    let err = load_source("x.fe", LEAK.as_bytes(), InputFormat::Forex).unwrap_err();
    assert!(err.items[0].hint.as_deref().unwrap().contains("input format `fe`"));
    // A .fe file is not mistaken for ForEx, even with a leading comment.
    assert!(load_source("x.fe", format!("// c\n{LEAK}").as_bytes(), InputFormat::Auto).is_ok());
    let commented = format!("// a ForEx file\n{FOREX}");
    assert!(load_source("x.txt", commented.as_bytes(), InputFormat::Auto).is_ok());
}

#[test]
fn else_if_chains_nest_in_the_else_branch() {
    let m = load(
        "program p {\n  int x;\n  if (x == 0) { x = 1; }\n  else if (x == 1) { x = 2; }\n  else { x = 3; }\n}\n",
    );
    let Stmt::If { else_branch, loc, .. } = &m.programs[0].body[0] else { panic!() };
    assert_eq!(*loc, Loc { line: 3, col: 3 });
    let [Stmt::If { else_branch: inner_else, loc, .. }] = else_branch.as_slice() else { panic!() };
    assert_eq!(*loc, Loc { line: 4, col: 8 }, "the nested `if` starts at its keyword");
    assert!(matches!(inner_else.as_slice(), [Stmt::Assign { .. }]));
}

#[test]
fn suggestions_are_close_names_only() {
    use forex::check::suggest;
    let names = ["high", "low", "h", "out"];
    assert_eq!(suggest("hihg", names.into_iter()), Some("high"));
    assert_eq!(suggest("H", names.into_iter()), Some("h"));
    assert_eq!(suggest("lo", names.into_iter()), Some("low"));
    assert_eq!(suggest("x", names.into_iter()), None);
    assert_eq!(suggest("banana", names.into_iter()), None);
}

/// Nesting just under the limit is accepted, and even parses on a main-thread-sized stack
/// without the large-stack thread of `load_source`.
#[test]
fn nesting_below_the_limit_is_accepted_on_a_small_stack() {
    let n = forex::ir::MAX_DEPTH - 10;
    let src = format!(
        "program p {{\n  int x;\n  bool b;\n  x = {}x{};\n  b = {}b;\n  {}skip;{}\n}}\n",
        "(".repeat(n),
        ")".repeat(n),
        "!".repeat(n),
        "if (x > 0) { ".repeat(n),
        " }".repeat(n)
    );
    let result = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            forex::frontend::load_inline("deep.fe", src.as_bytes(), InputFormat::Fe).is_ok()
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(result);
}
