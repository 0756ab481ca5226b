//! A tiny builder for hand-written IR tuples in tests (independent of the front end).

use forex::ir::{
    BinOp, Block, Expr, ExprKind, Hints, Loc, LoopId, Program, Quantifier, Stmt, Tuple, Type, UnOp,
    VarDecl, VarId,
};

pub fn bv(w: u32) -> Type {
    Type::Bv(w)
}

/// A program under construction: declarations first, then a body made of [`Stmt`]s.
pub struct Prog {
    pub program: Program,
}

impl Prog {
    pub fn new(name: &str, decls: &[(&str, Type)]) -> Prog {
        let vars = decls
            .iter()
            .map(|(n, ty)| VarDecl { name: n.to_string(), ty: ty.clone(), loc: Loc::default() })
            .collect();
        Prog { program: Program { name: name.into(), vars, body: Vec::new(), loc: Loc::default() } }
    }
    /// The variable `name` as an expression.
    pub fn v(&self, name: &str) -> Expr {
        let id = self.program.var_by_name(name).unwrap_or_else(|| panic!("no variable {name}"));
        Expr::var(id, self.program.vars[id.index()].ty.clone())
    }
    pub fn assign(&self, name: &str, e: Expr) -> Stmt {
        let id = self.program.var_by_name(name).unwrap();
        Stmt::Assign { var: id, value: e, loc: Loc::default() }
    }
    pub fn havoc(&self, name: &str) -> Stmt {
        Stmt::Havoc { var: self.program.var_by_name(name).unwrap(), loc: Loc::default() }
    }
    /// Sets the body, numbering loops in source order.
    pub fn body(mut self, mut body: Block) -> Program {
        number_loops(&mut body, &mut 0);
        self.program.body = body;
        self.program
    }
}

/// Numbers loops in source order from 0, as the checker does.
pub fn number_loops(block: &mut Block, next: &mut u32) {
    for s in block {
        match s {
            Stmt::If { then_branch, else_branch, .. }
            | Stmt::IfStar { then_branch, else_branch, .. } => {
                number_loops(then_branch, next);
                number_loops(else_branch, next);
            }
            Stmt::While { id, body, .. } => {
                *id = LoopId(*next);
                *next += 1;
                number_loops(body, next);
            }
            _ => {}
        }
    }
}

pub fn lit(v: u128, w: u32) -> Expr {
    Expr::bv(v, w)
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}
pub fn un(op: UnOp, a: Expr) -> Expr {
    Expr { ty: a.ty.clone(), kind: ExprKind::Unary(op, Box::new(a)) }
}
pub fn extract(hi: u32, lo: u32, a: Expr) -> Expr {
    Expr { ty: Type::Bv(hi - lo + 1), kind: ExprKind::Extract { hi, lo, arg: Box::new(a) } }
}
pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    Expr { ty: a.ty.clone(), kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)) }
}
pub fn assume(c: Expr) -> Stmt {
    Stmt::Assume { cond: c, loc: Loc::default() }
}
pub fn if_(c: Expr, t: Block, e: Block) -> Stmt {
    Stmt::If { cond: c, then_branch: t, else_branch: e, loc: Loc::default() }
}
pub fn if_star(t: Block, e: Block) -> Stmt {
    Stmt::IfStar { then_branch: t, else_branch: e, loc: Loc::default() }
}
pub fn while_(c: Expr, body: Block) -> Stmt {
    Stmt::While { id: LoopId(0), cond: c, body, loc: Loc::default() }
}

/// A tuple over `copies` (∀ copies must come first); `pre`/`post` built from the tuple
/// with [`tv`].
pub fn tuple(
    copies: &[(&str, &Program, Quantifier)],
    pre: impl Fn(&Tuple) -> Expr,
    post: impl Fn(&Tuple) -> Expr,
) -> Tuple {
    let mut t = Tuple {
        name: "t".into(),
        file: "built.fe".into(),
        loc: Loc::default(),
        copies: Vec::new(),
        vars: Vec::new(),
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
    t.pre = pre(&t);
    t.post = post(&t);
    t
}

/// `copy.var` of a tuple as an expression.
pub fn tv(t: &Tuple, copy: &str, var: &str) -> Expr {
    let c = t.copies.iter().position(|c| c.name == copy).unwrap();
    let id: VarId = t.copy_var(c, var).unwrap();
    Expr::var(id, t.var(id).ty.clone())
}

/// `a.v == b.v` for each variable name.
pub fn eqs(t: &Tuple, a: &str, b: &str, vars: &[&str]) -> Expr {
    Expr::and_all(vars.iter().map(|v| Expr::eq(tv(t, a, v), tv(t, b, v))))
}

pub fn and(a: Expr, b: Expr) -> Expr {
    bin(BinOp::And, a, b)
}
