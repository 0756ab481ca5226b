//! Random small C functions over `float` and `double` (proptest strategies), for comparing
//! forex's float semantics (front end and interpreter) with the compiled code
//! (`oracle/c_native_floats.rs`), as `cgen` does for integers.
//!
//! A program is one function `double f(double p0, double p1, float p2, int p3)` with
//! initialised locals `double v0`, `float v1`, `int v2`, whose body assigns, branches, loops
//! a literal number of times and returns early. Float expressions mix both formats (C's
//! usual arithmetic conversions), literals written exactly as hex floats or as decimals
//! that round (`0.1`), the specials (NaN, ±infinity, ±0, subnormals, the largest finite),
//! `+ - * /` (division by zero is IEEE's: an infinity or NaN), negation, conversions
//! float ↔ double ↔ int, `?:`, and the `math.h` functions forex models exactly: `fabs`,
//! `sqrt`, `fmin`, `fmax`, `floor`, `ceil`, `trunc`, `round`, `copysign`, `fma` (and some
//! `f`-suffixed forms). Integer expressions are comparisons (NaN unordered), `isnan`,
//! `isinf`, and float-to-int conversions guarded by a range test (an out-of-range
//! conversion has no run in forex and is undefined in C): `(fabs(e) < 1e9 ? (int)(e) : -1)`.
//!
//! `copysign`'s sign argument is never a NaN the program computed: x86-64 makes the NaN of
//! `0.0 / 0.0` negative, while forex has one NaN, whose sign it reads as positive
//! (SMT-LIB's NaN has none); see the report of issue 34's native check.

use super::cgen::Model;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};

/// Float variables (parameters and locals) and integer ones.
const FVARS: [&str; 5] = ["p0", "p1", "p2", "v0", "v1"];
const IVARS: [&str; 2] = ["p3", "v2"];

/// Literals: exact hex floats, decimals that round, the specials, both formats.
const LITERALS: [&str; 24] = [
    "0.0",
    "-0.0",
    "1.0",
    "0.1",
    "0.5",
    "2.0",
    "-3.25",
    "10.0",
    "1e308",
    "0x1p-1074",
    "0x1p-1022",
    "0x1.fffffffffffffp+1023",
    "0x1.8p+1",
    "1e-45f",
    "0x1p-149f",
    "3.4028235e38f",
    "0.1f",
    "16777217.0f",
    "__builtin_inf()",
    "(-__builtin_inf())",
    "__builtin_nan(\"\")",
    "NAN",
    "INFINITY",
    "9007199254740993.0",
];

/// Expressions of type `double` or `float`.
pub fn fexpr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        3 => select(FVARS.to_vec()).prop_map(str::to_string),
        2 => select(LITERALS.to_vec()).prop_map(str::to_string),
        1 => select(IVARS.to_vec()).prop_map(|v| format!("((double){v})")),
    ];
    leaf.prop_recursive(3, 20, 3, |e| {
        let unary = select(vec![
            "-", "fabs", "sqrt", "floor", "ceil", "trunc", "round", "(float)", "(double)", "sqrtf",
            "fabsf", "floorf",
        ]);
        let binary = select(vec!["fmin", "fmax", "fminf"]);
        Union::new(vec![
            (e.clone(), select(vec!["+", "-", "*", "/"]), e.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                .boxed(),
            (e.clone(), select(vec!["+", "-", "*", "/"]), e.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
                .boxed(),
            (unary, e.clone()).prop_map(|(f, a)| format!("{f}({a})")).boxed(),
            (binary, e.clone(), e.clone()).prop_map(|(f, a, b)| format!("{f}({a}, {b})")).boxed(),
            // The sign comes from a variable or literal that is a NaN only as an input.
            (
                e.clone(),
                select(FVARS.iter().chain(LITERALS[..9].iter()).copied().collect::<Vec<&str>>()),
            )
                .prop_map(|(a, s)| format!("copysign({a}, {s})"))
                .boxed(),
            (e.clone(), e.clone(), e.clone())
                .prop_map(|(a, b, c)| format!("fma({a}, {b}, {c})"))
                .boxed(),
            (comparison(e.clone()), e.clone(), e.clone())
                .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})"))
                .boxed(),
            iexpr_of(e.clone()).prop_map(|i| format!("((float)({i}))")).boxed(),
        ])
        .boxed()
    })
    .boxed()
}

/// `a < b` and the other comparisons of two float expressions.
fn comparison(e: BoxedStrategy<String>) -> BoxedStrategy<String> {
    (e.clone(), select(vec!["<", "<=", ">", ">=", "==", "!="]), e)
        .prop_map(|(a, op, b)| format!("({a} {op} {b})"))
        .boxed()
}

/// Integer expressions over the float expressions `e`.
fn iexpr_of(e: BoxedStrategy<String>) -> BoxedStrategy<String> {
    Union::new(vec![
        select(IVARS.to_vec()).prop_map(str::to_string).boxed(),
        (-3i32..4).prop_map(|n| n.to_string()).boxed(),
        comparison(e.clone()),
        (select(vec!["isnan", "isinf"]), e.clone()).prop_map(|(f, a)| format!("{f}({a})")).boxed(),
        (e.clone(), select(vec!["int", "long", "short"]))
            .prop_map(|(a, t)| format!("(fabs({a}) < 30000.0 ? ({t})({a}) : -1)"))
            .boxed(),
        (e, select(vec!["unsigned", "unsigned char"]))
            .prop_map(|(a, t)| format!("(({a}) >= 0.0 && ({a}) < 200.0 ? ({t})({a}) : 7)"))
            .boxed(),
    ])
    .boxed()
}

pub fn iexpr() -> BoxedStrategy<String> {
    iexpr_of(fexpr())
}

/// A statement list at nesting `depth` (loop counters are `i<depth>`).
fn stmts(depth: u32) -> BoxedStrategy<Vec<String>> {
    let simple = Union::new(vec![
        (select(FVARS.to_vec()), fexpr()).prop_map(|(v, e)| format!("{v} = {e};")).boxed(),
        (select(FVARS.to_vec()), select(vec!["+=", "-=", "*="]), fexpr())
            .prop_map(|(v, op, e)| format!("{v} {op} {e};"))
            .boxed(),
        (select(IVARS.to_vec()), iexpr()).prop_map(|(v, e)| format!("{v} = {e};")).boxed(),
        (comparison(fexpr()), fexpr()).prop_map(|(c, e)| format!("if ({c}) return {e};")).boxed(),
    ])
    .boxed();
    super::cgen::nest(simple, comparison(fexpr()), depth, move || stmts(depth + 1))
}

/// A generated float function in a file whose one tuple has `copies` ∀ copies of it (each
/// copy one random input: one native compilation replays them all; the math model's
/// `@ELAENIA` header has one).
#[derive(Clone, Debug)]
pub struct FProgram {
    pub model: Model,
    pub copies: usize,
    pub function: String,
}

impl FProgram {
    pub fn file(&self) -> String {
        let names: Vec<String> = (0..self.copies).map(|k| format!("c{k}: f")).collect();
        let header = match self.model {
            Model::Machine => format!(
                "/*@forex tuple t {{ forall {}; pre true; post true; }} */\n",
                names.join(", ")
            ),
            // An `@ELAENIA` header makes the math model the default (one ∀ copy).
            Model::Math => "/* @ELAENIA\n * pre: forall.p3 == forall.p3;\n * forall: f;\n * \
                            exists: f;\n * post: forall.p3 == forall.p3;\n * aspecs:\n * \
                            especs:\n */\n"
                .to_string(),
        };
        format!("{header}#include <math.h>\n\n{}", self.function)
    }
}

pub fn f_programs(model: Model, copies: usize) -> BoxedStrategy<FProgram> {
    (stmts(0), fexpr())
        .prop_map(move |(body, result)| {
            let mut f = String::from(
                "double f(double p0, double p1, float p2, int p3) {\n  double v0 = 0.0;\n  \
                 float v1 = 1.0f;\n  int v2 = 0;\n",
            );
            for s in body {
                for line in s.lines() {
                    f.push_str("  ");
                    f.push_str(line);
                    f.push('\n');
                }
            }
            f.push_str(&format!("  return {result};\n}}\n"));
            FProgram { model, copies, function: f }
        })
        .boxed()
}

/// `n` programs drawn with a fixed seed (no shrinking).
pub fn sample_f_programs(model: Model, copies: usize, n: usize, seed: u8) -> Vec<FProgram> {
    use proptest::strategy::{Strategy, ValueTree};
    let strategy = f_programs(model, copies);
    let mut r = super::gen::runner(1, seed);
    (0..n).map(|_| strategy.new_tree(&mut r).expect("generator").current()).collect()
}
