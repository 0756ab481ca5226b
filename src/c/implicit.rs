//! Standard functions called without a declaration (`abs(x)` with no `#include
//! <stdlib.h>`). C99 removed implicit declarations, but gcc still compiles such calls
//! (with a warning) and, for the standard library's functions, as the builtins they
//! name; files written for gcc have them. forex reads them as gcc does: when a call
//! names a standard function the file neither defines nor declares, the file is
//! preprocessed again with that function's header included first (`cc -include
//! stdlib.h`, which shifts no line of the user's file), so that the call means the
//! standard function with its usual semantics. Other undeclared names stay errors.

use crate::c::ast;

/// The header that declares each standard function forex reads.
const HEADERS: &[(&str, &[&str])] = &[
    (
        "stdlib.h",
        &["abs", "labs", "llabs", "rand", "srand", "malloc", "calloc", "free", "exit", "abort"],
    ),
    (
        "math.h",
        &[
            "fabs", "fabsf", "sqrt", "sqrtf", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
            "sinh", "cosh", "tanh", "exp", "exp2", "log", "log2", "log10", "pow", "floor", "ceil",
            "round", "trunc", "fmod", "fmin", "fmax", "fma", "copysign", "hypot", "cbrt", "floorf",
            "ceilf", "roundf", "truncf", "fminf", "fmaxf",
        ],
    ),
    (
        "string.h",
        &["memcmp", "memcpy", "memmove", "memset", "strlen", "strcmp", "strncmp", "strcpy"],
    ),
    ("assert.h", &["assert"]),
    ("stdio.h", &["printf", "puts", "putchar"]),
];

/// The headers to include first for the standard functions `file` calls without a
/// declaration.
pub fn missing_headers(file: &ast::File) -> Vec<&'static str> {
    let declared = |n: &str| {
        file.functions.iter().any(|f| f.name.name == n)
            || file.globals.iter().any(|g| g.name.name == n)
    };
    let mut called = Vec::new();
    for f in &file.functions {
        let Some(body) = &f.body else { continue };
        for e in ast::Stmt::exprs_of(body) {
            calls(e, &mut called);
        }
    }
    let mut headers = Vec::new();
    for name in called.iter().filter(|n| !declared(n)) {
        if let Some((h, _)) = HEADERS.iter().find(|(_, fs)| fs.contains(&name.as_str())) {
            if !headers.contains(h) {
                headers.push(*h);
            }
        }
    }
    headers
}

fn calls(e: &ast::Expr, out: &mut Vec<String>) {
    match &e.kind {
        ast::ExprKind::Call(f, _) => out.push(f.name.clone()),
        ast::ExprKind::StmtExpr(ss) => {
            ast::Stmt::exprs_of(ss).into_iter().for_each(|e| calls(e, out))
        }
        _ => {}
    }
    for c in e.children() {
        calls(c, out);
    }
}
