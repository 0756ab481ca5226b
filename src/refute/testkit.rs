//! Hand-built IR for refuter tests (independent of the front end).

use crate::ir::*;

pub fn loc(line: u32) -> Loc {
    Loc { line, col: 1 }
}

/// Builds programs whose variables are looked up by name.
pub struct P {
    pub program: Program,
}

impl P {
    pub fn new(name: &str, vars: &[(&str, Type)]) -> P {
        P {
            program: Program {
                name: name.into(),
                vars: vars
                    .iter()
                    .map(|(n, t)| VarDecl { name: n.to_string(), ty: t.clone(), loc: loc(1) })
                    .collect(),
                body: vec![],
                loc: loc(1),
            },
        }
    }
    pub fn v(&self, name: &str) -> Expr {
        let id = self.program.var_by_name(name).expect("declared");
        Expr::var(id, self.program.vars[id.index()].ty.clone())
    }
    pub fn id(&self, name: &str) -> VarId {
        self.program.var_by_name(name).expect("declared")
    }
    pub fn assign(&self, x: &str, e: Expr) -> Stmt {
        Stmt::Assign { var: self.id(x), value: e, loc: loc(2) }
    }
    pub fn havoc(&self, x: &str) -> Stmt {
        Stmt::Havoc { var: self.id(x), loc: loc(3) }
    }
    pub fn body(mut self, body: Block) -> Program {
        self.program.body = body;
        self.program
    }
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}
pub fn ite_stmt(cond: Expr, then_branch: Block, else_branch: Block) -> Stmt {
    Stmt::If { cond, then_branch, else_branch, loc: loc(4) }
}
pub fn star(then_branch: Block, else_branch: Block) -> Stmt {
    Stmt::IfStar { then_branch, else_branch, loc: loc(5) }
}
pub fn assume(cond: Expr) -> Stmt {
    Stmt::Assume { cond, loc: loc(6) }
}
pub fn while_(cond: Expr, body: Block) -> Stmt {
    Stmt::While { id: LoopId(0), cond, body, loc: loc(7) }
}

/// A tuple over `copies` (name, program, quantifier); `pre`/`post` are built from a
/// lookup of `copy.var`.
pub fn tuple(
    copies: &[(&str, &Program, Quantifier)],
    pre: impl Fn(&dyn Fn(&str, &str) -> Expr) -> Expr,
    post: impl Fn(&dyn Fn(&str, &str) -> Expr) -> Expr,
) -> Tuple {
    let mut t = Tuple {
        name: "t".into(),
        file: "test.fe".into(),
        loc: loc(1),
        copies: vec![],
        vars: vec![],
        pre: Expr::bool(true),
        post: Expr::bool(true),
        kind: Default::default(),
        observations: None,
        hints: Hints::default(),
        c_view: None,
    };
    for (name, p, q) in copies {
        t.add_copy(name, p, *q);
    }
    let lookup = |c: &str, x: &str| {
        let ci = t.copies.iter().position(|cp| cp.name == c).expect("copy");
        let v = t.copy_var(ci, x).expect("var");
        Expr::var(v, t.var(v).ty.clone())
    };
    let pre = pre(&lookup);
    let post = post(&lookup);
    t.pre = pre;
    t.post = post;
    t
}

pub fn eq(a: Expr, b: Expr) -> Expr {
    Expr::eq(a, b)
}
