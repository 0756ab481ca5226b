//! Random small C functions in LANGUAGE.md's subset (proptest strategies), for comparing
//! forex's C front end and interpreter with the compiled code (`oracle/c_native.rs`).
//!
//! A program is one function `f` over parameters `p0..p2` and locals `v0..v2` (each
//! initialised: an uninitialised local is the counterexample's value in forex but garbage
//! in C), with `+ - *`, `/` and `%` whose divisors are never zero (a non-zero literal
//! other than -1, or `e * e + 1`, which is odd… never 0 mod 2^N nor -1 in two's
//! complement), comparisons, `&& || ! ?:`, casts, `if`/`else`, `for` loops with a literal
//! bound whose counter is written only by the header, early `return`, compound
//! assignments and, when asked, `__VERIFIER_nondet_int()`. The machine model adds the
//! unsigned and narrow types, `& | ^ ~` and shifts by 0..7; the math model keeps to
//! `int`, `long` and `bool`, multiplies only by literals and draws small inputs, so that
//! the compiled code's fixed widths rarely overflow (when they do, `-ftrapv` says so and
//! the case is skipped).

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::BoxedStrategy;

/// Which integer model the program is meant for (LANGUAGE.md "C programs").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Math,
    Machine,
}

/// A generated function and the annotation that makes it a tuple of one ∀ copy.
#[derive(Clone, Debug)]
pub struct CProgram {
    pub model: Model,
    /// The function's definition.
    pub function: String,
}

impl CProgram {
    /// The whole `.c` file: the function and an annotation whose default integer model
    /// is the program's (`@forex`: machine, `@ELAENIA`: math).
    pub fn file(&self) -> String {
        let header = match self.model {
            Model::Machine => {
                "/*@forex tuple t { forall a: f; pre true; post true; } */\n".to_string()
            }
            Model::Math => "/* @ELAENIA\n * pre: forall.p0 == forall.p0;\n * forall: f;\n * \
                            exists: f;\n * post: forall.p0 == forall.p0;\n * aspecs:\n * \
                            especs:\n */\n"
                .to_string(),
        };
        format!("{header}#include <stdbool.h>\n\n{}", self.function)
    }
}

const VARS: [&str; 6] = ["p0", "p1", "p2", "v0", "v1", "v2"];

fn types(model: Model) -> Vec<&'static str> {
    match model {
        Model::Math => vec!["int", "long", "bool"],
        Model::Machine => {
            vec![
                "int",
                "unsigned",
                "long",
                "unsigned long",
                "char",
                "unsigned char",
                "short",
                "bool",
            ]
        }
    }
}

fn literal(model: Model) -> BoxedStrategy<String> {
    let special = match model {
        Model::Math => vec!["100", "1000", "0x7f", "'a'", "12L"],
        Model::Machine => {
            vec!["100", "1000", "2147483647", "4294967295u", "0x7f", "'a'", "-128", "65535L"]
        }
    };
    prop_oneof![3 => (-9i32..10).prop_map(|n| n.to_string()), 1 => select(special).prop_map(str::to_string)]
        .boxed()
}

/// Expressions of integer type (C converts between all of them).
pub fn expr(model: Model) -> BoxedStrategy<String> {
    let leaf =
        prop_oneof![3 => select(VARS.to_vec()).prop_map(str::to_string), 2 => literal(model)];
    leaf.prop_recursive(3, 24, 3, move |e| {
        let cmp = select(vec!["<", "<=", ">", ">=", "==", "!="]);
        let mut arith = vec!["+", "-"];
        if model == Model::Machine {
            arith.extend(["*", "&", "|", "^"]);
        }
        let casts = match model {
            Model::Math => vec!["long", "int"],
            Model::Machine => vec!["char", "unsigned", "long", "unsigned char", "short", "bool"],
        };
        let divisor = prop_oneof![
            select(vec!["2", "3", "-3", "7", "10"]).prop_map(str::to_string),
            e.clone().prop_map(|d| format!("(({d}) * ({d}) + 1)")),
        ];
        let mut options: Vec<BoxedStrategy<String>> = vec![
            (e.clone(), select(arith), e.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                .boxed(),
            (e.clone(), cmp, e.clone()).prop_map(|(a, op, b)| format!("({a} {op} {b})")).boxed(),
            (e.clone(), select(vec!["&&", "||"]), e.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                .boxed(),
            (e.clone(), select(vec!["/", "%"]), divisor)
                .prop_map(|(a, op, d)| format!("({a} {op} {d})"))
                .boxed(),
            (e.clone(), e.clone(), e.clone())
                .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})"))
                .boxed(),
            (select(vec!["-", "!"]), e.clone()).prop_map(|(op, a)| format!("({op}({a}))")).boxed(),
            (select(casts), e.clone()).prop_map(|(t, a)| format!("(({t})({a}))")).boxed(),
            (e.clone(), -5i32..6).prop_map(|(a, k)| format!("({a} * {k})")).boxed(),
        ];
        if model == Model::Machine {
            options.push(
                (e.clone(), select(vec!["<<", ">>"]), 0u32..8)
                    .prop_map(|(a, op, k)| format!("({a} {op} {k})"))
                    .boxed(),
            );
            options.push(e.clone().prop_map(|a| format!("(~{a})")).boxed());
        }
        proptest::strategy::Union::new(options).boxed()
    })
    .boxed()
}

/// A statement list at nesting `depth` (loop counters are `i<depth>`).
fn stmts(model: Model, nondet: bool, depth: u32) -> BoxedStrategy<Vec<String>> {
    let target = select(VARS.to_vec());
    let mut simple: Vec<BoxedStrategy<String>> = vec![
        (target.clone(), expr(model)).prop_map(|(v, e)| format!("{v} = {e};")).boxed(),
        (target.clone(), select(vec!["+=", "-="]), expr(model))
            .prop_map(|(v, op, e)| format!("{v} {op} {e};"))
            .boxed(),
        (target.clone(), select(vec!["++", "--"])).prop_map(|(v, op)| format!("{v}{op};")).boxed(),
        (expr(model), expr(model)).prop_map(|(c, e)| format!("if ({c}) return {e};")).boxed(),
    ];
    if nondet {
        simple.push(target.prop_map(|v| format!("{v} = __VERIFIER_nondet_int();")).boxed());
    }
    let simple = proptest::strategy::Union::new(simple).boxed();
    nest(simple, expr(model), depth, move || stmts(model, nondet, depth + 1))
}

/// Statement lists of `simple` statements at nesting `depth`, below 2 also an `if` on
/// `cond` or a counted `for` (counter `i<depth>`) around `inner` lists. Shared by the
/// integer and the float generators.
pub fn nest(
    simple: BoxedStrategy<String>,
    cond: BoxedStrategy<String>,
    depth: u32,
    inner: impl Fn() -> BoxedStrategy<Vec<String>>,
) -> BoxedStrategy<Vec<String>> {
    if depth >= 2 {
        return proptest::collection::vec(simple, 1..4).boxed();
    }
    let compound = prop_oneof![
        (cond, inner(), inner()).prop_map(|(c, a, b)| format!(
            "if ({c}) {{\n{}\n}} else {{\n{}\n}}",
            a.join("\n"),
            b.join("\n")
        )),
        (0u32..5, inner()).prop_map(move |(n, body)| format!(
            "for (int i{depth} = 0; i{depth} < {n}; i{depth}++) {{\n{}\n}}",
            body.join("\n")
        )),
    ];
    proptest::collection::vec(prop_oneof![3 => simple, 1 => compound], 1..5).boxed()
}

/// Random functions `f` for `model`, with `__VERIFIER_nondet_int()` when `nondet`.
pub fn c_programs(model: Model, nondet: bool) -> BoxedStrategy<CProgram> {
    let ty = move || select(types(model));
    let ret = match model {
        Model::Math => select(vec!["int", "long"]),
        Model::Machine => select(vec!["int", "unsigned", "long", "char"]),
    };
    (
        ret,
        proptest::collection::vec(ty(), 3),
        proptest::collection::vec((ty(), expr(model)), 3),
        stmts(model, nondet, 0),
        expr(model),
    )
        .prop_map(move |(ret, params, locals, body, result)| {
            let params: Vec<String> =
                params.iter().enumerate().map(|(i, t)| format!("{t} p{i}")).collect();
            let mut f = format!("{ret} f({}) {{\n", params.join(", "));
            // Each local's initialiser reads only parameters and earlier locals' names
            // after they exist: initialise to literals first, then assign.
            for (i, (t, _)) in locals.iter().enumerate() {
                f.push_str(&format!("  {t} v{i} = {i};\n"));
            }
            for (i, (_, e)) in locals.iter().enumerate() {
                f.push_str(&format!("  v{i} = {e};\n"));
            }
            for s in body {
                for line in s.lines() {
                    f.push_str("  ");
                    f.push_str(line);
                    f.push('\n');
                }
            }
            f.push_str(&format!("  return {result};\n}}\n"));
            CProgram { model, function: f }
        })
        .boxed()
}

/// `n` programs drawn with a fixed seed (no shrinking).
pub fn sample_programs(model: Model, nondet: bool, n: usize, seed: u8) -> Vec<CProgram> {
    use proptest::strategy::{Strategy, ValueTree};
    let strategy = c_programs(model, nondet);
    let mut r = super::gen::runner(1, seed);
    (0..n).map(|_| strategy.new_tree(&mut r).expect("generator").current()).collect()
}
