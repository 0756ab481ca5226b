//! The reactive front end (issue 11): `observe;`, `repeat`, `while (*)`, `always`,
//! `observations`: parsing, desugaring, diagnostics with positions, and `always φ` over
//! programs without `observe;` deciding exactly like `post φ`.

use forex::cancel::Cancel;
use forex::frontend::{load_source, InputFormat};
use forex::ir::{self, Module, PropertyKind, Stmt};
use forex::portfolio::{decide, DecideOptions};

fn load(src: &str) -> Module {
    load_source("t.fe", src.as_bytes(), InputFormat::Auto)
        .unwrap_or_else(|d| panic!("does not check: {:?}", d.messages))
}

/// The `line:col: message` lines of the errors `src` gives.
fn errors(src: &str) -> Vec<String> {
    match load_source("t.fe", src.as_bytes(), InputFormat::Auto) {
        Ok(_) => panic!("expected errors"),
        Err(d) => d.messages,
    }
}

const COUNTER: &str = "
program counter {
  int x, y;
  x = *; y = 0;
  repeat {
    observe;
    if (*) { y = y + 1; } else { y = y + x; }
  }
}
tuple od {
  forall a: counter, b: counter;
  exists c: counter;
  pre    a.x == c.x;
  always a.y == c.y || b.y == c.y;
  observations 8;
}
";

#[test]
fn reactive_tuple_reads_into_the_ir() {
    let m = load(COUNTER);
    let t = &m.tuples[0];
    assert_eq!(t.kind, PropertyKind::Always);
    assert_eq!(t.observations, Some(8));
    assert!(t.is_reactive());
    // `repeat` is `while (true)`, with `observe;` inside.
    let body = &m.programs[0].body;
    let Some(Stmt::While { cond, body: inner, .. }) = body.last() else {
        panic!("repeat did not become a loop: {body:?}")
    };
    assert_eq!(*cond, ir::Expr::bool(true));
    assert!(matches!(inner[0], Stmt::Observe { .. }));
}

#[test]
fn while_star_is_a_fresh_choice_loop() {
    let m = load(
        "program p { int x; while (*) { x = x + 1; } while * { observe; } }
         tuple t { forall a: p; always a.x == a.x; }",
    );
    let p = &m.programs[0];
    // Two fresh bool variables, named after their loops, after the declared ones.
    let names: Vec<&str> = p.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["x", "while*@1:20", "while*@1:45"]);
    assert!(p.vars[1..].iter().all(|v| v.ty == ir::Type::Bool));
    // `c = *; while (c) { B; c = *; }`
    let [Stmt::Havoc { var: c, .. }, Stmt::While { cond, body, .. }, ..] = p.body.as_slice() else {
        panic!("unexpected desugaring: {:?}", p.body)
    };
    assert_eq!(*cond, ir::Expr::var(*c, ir::Type::Bool));
    assert!(matches!(body.last(), Some(Stmt::Havoc { var, .. }) if var == c));
    assert_eq!(p.body.len(), 4);
}

#[test]
fn reactive_words_are_not_reserved() {
    let m = load(
        "program p { int observe, repeat, always, observations; observe = 1; repeat = observe; }
         tuple t { forall a: p; post a.repeat == 1; }",
    );
    assert!(!ir::has_observe(&m.programs[0].body));
}

#[test]
fn misuse_is_reported_with_positions() {
    let src = "program p { int x; observe; }
tuple t1 { forall a: p; post a.x == 0; always a.x == 0; }
tuple t2 { forall a: p; observations 0; always true; }
tuple t3 { forall a: p; always true; always false; observations 2; observations 3; }
tuple t4 { forall a: p; observations 3; post true; }
tuple t5 { forall a: p; }
tuple t6 { forall a: p; always a.x; }
";
    assert_eq!(
        errors(src),
        [
            "2:40: tuple `t1` has both `post` and `always`",
            "3:38: `observations 0` bounds nothing",
            "4:38: this tuple has two `always` clauses",
            "4:68: this tuple has two `observations` clauses",
            "5:25: `observations` bounds `always` tuples only",
            "6:7: tuple `t5` has no `post`",
            "7:32: an `always` formula must be bool, found int",
        ]
    );
}

#[test]
fn reactive_statements_are_not_forex_format() {
    let errs = errors("[forall]\nint x;\nobserve;\n[post]\nx_0 == x_0\n");
    assert_eq!(errs, ["3:1: `observe` is not part of the ForEx format"]);
    let errs = errors("[forall]\nint x;\nwhile (*) { x = 1; }\n[post]\nx_0 == x_0\n");
    assert_eq!(errs, ["3:1: `while (*)` is not part of the ForEx format"]);
}

#[test]
fn observe_needs_a_semicolon() {
    let errs = errors("program p { int x; observe }\ntuple t { forall a: p; always true; }");
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with("1:28:"), "{errs:?}");
}

/// Without `observe;`, `always φ` is `post φ`: the same verdicts from every engine.
#[test]
fn always_without_observe_decides_like_post() {
    let programs = "
program leak { int h, l, o; if (h > 0) { o = l + 1; } else { o = l + 1; } }
program bad  { int h, l, o; o = h; }
program spin { int n, i; i = 0; while (*) { i = i + 1; } }
";
    let cases = [
        ("forall a: leak, b: leak;", "pre a.l == b.l;", "a.o == b.o", "verified"),
        ("forall a: bad, b: bad;", "pre a.l == b.l;", "a.o == b.o", "violated"),
        ("forall a: spin; exists b: spin;", "pre a.n == b.n;", "a.i == b.i", "verified"),
        ("forall a: spin;", "", "a.i < 3", "violated"),
    ];
    for (copies, pre, phi, want) in cases {
        let src = format!(
            "{programs}tuple p {{ {copies} {pre} post {phi}; }}\n\
             tuple q {{ {copies} {pre} always {phi}; }}\n"
        );
        let m = load(&src);
        assert_eq!(m.tuples[1].kind, PropertyKind::Always);
        assert!(!m.tuples[1].is_reactive());
        let verdicts: Vec<String> = m
            .tuples
            .iter()
            .map(|t| {
                decide(t, &DecideOptions::default(), &Cancel::new()).verdict.name().to_string()
            })
            .collect();
        assert_eq!(verdicts, [want, want], "{copies} {phi}");
    }
}

#[test]
fn run_prints_observations_up_to_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("srv.fe");
    std::fs::write(
        &file,
        "program counter {\n  int x, y;\n  y = 0;\n  repeat {\n    observe;\n    \
         if (*) { y = y + 1; } else { y = y + x; }\n  }\n}\n",
    )
    .unwrap();
    let out = assert_cmd::Command::cargo_bin("forex")
        .unwrap()
        .args(["run", file.to_str().unwrap(), "--set", "x=5", "--choices", "true,false"])
        .args(["--observations", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "observation 1: x = 5, y = 0\nobservation 2: x = 5, y = 1\nobservation 3: x = 5, y = 6\n"
        ),
        "{text}"
    );
    let out = assert_cmd::Command::cargo_bin("forex")
        .unwrap()
        .args(["run", file.to_str().unwrap(), "--observations", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}

// ---------------------------------------------------------------- hyena0 files

fn hyena(src: &str) -> Result<Module, Vec<String>> {
    load_source("q", src.as_bytes(), InputFormat::Auto).map_err(|d| d.messages)
}

#[test]
fn every_hyena0_benchmark_file_reads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/hyena0");
    if !dir.exists() {
        eprintln!("skipped: {} is not there", dir.display());
        return;
    }
    let files = forex::batch::collect_files(&[dir], InputFormat::Auto);
    assert!(files.len() >= 60, "only {} hyena0 files found", files.len());
    let mut tuples = 0;
    for f in &files {
        let m = forex::frontend::load_file(&f.path, f.format)
            .unwrap_or_else(|d| panic!("{}: {:?}", f.path.display(), d.messages));
        tuples += m.tuples.len();
        // Every query of these files states its expected outcome.
        for t in &m.tuples {
            assert!(m.expected_of(&t.name).is_some(), "{}: {}", f.path.display(), t.name);
            assert_eq!(t.kind, PropertyKind::Always);
        }
    }
    assert!(tuples >= 80, "{tuples} queries");
}

#[test]
fn hyena0_queries_map_to_always_tuples() {
    let m = hyena(
        "; comment
(define-program esc
  (let x int 0)
  (let y int)
  (repeat
    (observe)
    (if (divided-by x 2) (then (set y (+ y 1))) (else (set y (+ y x))))
    (set x (+ x (nondet (min 1) (max 2))))))
(strategy (observations (max 7)))
(find-counterexample
  (forall (traces esc a b)
    (exists (traces esc)
      (and (= (trace-value a y) (trace-value esc y)) (<= (trace-value b x) 10)))))
(expect (outcome counterexample))
(print-stats)
(find-counterexample (forall (traces esc) (>= x 0)))
(expect (outcome no-counterexample))
",
    )
    .unwrap();
    assert_eq!(m.tuples.len(), 2);
    let t = &m.tuples[0];
    assert_eq!(t.name, "q_1");
    assert_eq!(t.observations, Some(7));
    assert!(t.is_reactive());
    let names: Vec<&str> = t.copies.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "esc"]);
    assert_eq!(m.tuples[1].name, "q_2");
    assert_eq!(m.expected_of("q_1"), Some(ir::ExpectedOutcome::Counterexample));
    assert_eq!(m.expected_of("q_2"), Some(ir::ExpectedOutcome::NoCounterexample));
    // The nested `nondet` is a fresh bounded choice.
    let p = &m.programs[0];
    assert!(p.vars.iter().any(|v| v.name == "nondet@8:17"), "{:?}", p.vars);
}

#[test]
fn malformed_hyena0_input_is_reported_with_positions() {
    let cases = [
        ("(define-program p\n  (observe)", "1:1: this `(` is never closed"),
        ("(define-program p (observe)))", "1:29: unexpected `)`"),
        ("(define-program p (set x 1))", "1:24: unknown variable `x`"),
        ("(define-program p (let x int y))", "1:30: unknown variable `y`"),
        ("(define-program p (jump 3))", "1:19: unknown statement `jump`"),
        ("(strategy (observations 1))\n(frobnicate)", "2:1: unknown form `frobnicate`"),
        (
            "(define-program p (let x int 0))\n(find-counterexample (forall (traces p) (= z 1)))",
            "2:44: unknown variable `z`",
        ),
        (
            "(define-program p (let x int 0))\n(find-counterexample (forall (traces p a) (= (trace-value b x) 1)))",
            "2:59: unknown trace `b`",
        ),
    ];
    for (src, want) in cases {
        let errs = hyena(src).err().unwrap_or_else(|| panic!("no error for {src}"));
        assert_eq!(errs[0], want, "{src}");
    }
}
