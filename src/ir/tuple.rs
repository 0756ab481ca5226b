//! Programs, tuples (copies, hints, property kinds, expectations) and modules: what the
//! checker builds from the expression and statement types of the parent module.

use super::{has_observe, Block, Expr, Loc, Quantifier, Type, VarId};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    pub name: String,
    pub ty: Type,
    pub loc: Loc,
}

/// A checked program. `VarId`s in `body` index `vars`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub name: String,
    pub vars: Vec<VarDecl>,
    pub body: Block,
    pub loc: Loc,
}

impl Program {
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name).map(|i| VarId(i as u32))
    }
}

/// One quantified copy of a program inside a tuple.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    /// The copy's name as used in `pre`/`post` (`a` in `a.x`).
    pub name: String,
    /// The program it instantiates.
    pub program: String,
    pub quantifier: Quantifier,
    /// The program's body with variables renumbered into the tuple's table.
    pub body: Block,
    /// This copy's variables in the tuple's table, in the program's declaration order.
    pub vars: Vec<VarId>,
    /// The file the program comes from, when it is not the tuple's own (`forex equiv`
    /// pairs programs of two files); messages name loops by it.
    pub file: Option<String>,
}

/// A variable of a tuple: variable `name` of copy number `copy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TupleVar {
    pub copy: usize,
    pub name: String,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hints {
    /// Candidate conjuncts for relational loop invariants (`invariant e;`, ForEx `[inv]`).
    pub invariants: Vec<Expr>,
    /// Largest per-copy iteration count for asynchronous alignments (`align n;`, `[asynchronous]`).
    pub align: Option<u32>,
    /// Bounds on the number of conjuncts in an invariant guess (`conjuncts a..b;`, `[minC]`/`[maxC]`).
    pub min_conjuncts: Option<u32>,
    pub max_conjuncts: Option<u32>,
    /// At most this many loop alignments are tried at each loop point (ForEx `[traceBound]`).
    pub trace_bound: Option<u32>,
    /// Invariant candidates come from `invariants` only, none are mined (ForEx `[onlyHints]`).
    pub only_hints: bool,
}

/// How a tuple's property (`Tuple::post`) judges the copies' runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PropertyKind {
    /// `post φ`: φ relates the final states of terminating runs.
    #[default]
    Post,
    /// `always φ`: φ relates the copies' i-th observations, at every index i (finite-prefix
    /// semantics, LANGUAGE.md). Over programs without `observe;` this is exactly `post φ`:
    /// such a program observes once, when it terminates.
    Always,
}

/// A checked Forall-Exists Hoare tuple.
///
/// Copies are ordered: all `forall` copies first, then all `exists` copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tuple {
    pub name: String,
    /// The source file, as the user named it (for reports).
    pub file: String,
    pub loc: Loc,
    pub copies: Vec<Copy>,
    pub vars: Vec<TupleVar>,
    pub pre: Expr,
    /// The property: `post φ` or `always φ`, as `kind` says.
    pub post: Expr,
    pub kind: PropertyKind,
    /// `observations N;`: the bound on the observation index for the searching engines
    /// (refutation, testing) on `always` tuples; `None` deepens until the time limit.
    pub observations: Option<u32>,
    pub hints: Hints,
    /// For a tuple read from C: how its counterexamples speak C (`CView`).
    pub c_view: Option<std::sync::Arc<super::c::CView>>,
}

impl Tuple {
    /// A tuple with no copies yet, `pre` and `post` true, a `post` property and no hints:
    /// what the front ends and `equiv` fill in.
    pub fn empty(name: String, file: String, loc: Loc) -> Tuple {
        Tuple {
            name,
            file,
            loc,
            copies: Vec::new(),
            vars: Vec::new(),
            pre: Expr::bool(true),
            post: Expr::bool(true),
            kind: PropertyKind::Post,
            observations: None,
            hints: Hints::default(),
            c_view: None,
        }
    }
    pub fn var(&self, v: VarId) -> &TupleVar {
        &self.vars[v.index()]
    }
    /// `copy.name`, as written in `pre`/`post`.
    pub fn var_display(&self, v: VarId) -> String {
        let tv = self.var(v);
        format!("{}.{}", self.copies[tv.copy].name, tv.name)
    }
    pub fn forall_copies(&self) -> impl Iterator<Item = (usize, &Copy)> {
        self.copies.iter().enumerate().filter(|(_, c)| c.quantifier == Quantifier::Forall)
    }
    pub fn exists_copies(&self) -> impl Iterator<Item = (usize, &Copy)> {
        self.copies.iter().enumerate().filter(|(_, c)| c.quantifier == Quantifier::Exists)
    }
    /// An `always` tuple over at least one program with `observe;`: judged at observation
    /// points, not by final states. (Without `observe;`, `always φ` means `post φ`.)
    pub fn is_reactive(&self) -> bool {
        self.kind == PropertyKind::Always && self.copies.iter().any(|c| has_observe(&c.body))
    }
    pub fn is_k_safety(&self) -> bool {
        self.copies.iter().all(|c| c.quantifier == Quantifier::Forall)
    }
    /// Appends a copy of `program` with fresh tuple variables; returns the copy's index.
    pub fn add_copy(&mut self, name: &str, program: &Program, quantifier: Quantifier) -> usize {
        let copy = self.copies.len();
        let offset = self.vars.len() as u32;
        for decl in &program.vars {
            self.vars.push(TupleVar { copy, name: decl.name.clone(), ty: decl.ty.clone() });
        }
        let rename = |v: VarId| VarId(v.0 + offset);
        self.copies.push(Copy {
            name: name.to_string(),
            program: program.name.clone(),
            quantifier,
            body: program.body.iter().map(|s| s.map_vars(&rename)).collect(),
            vars: (0..program.vars.len() as u32).map(|i| VarId(i + offset)).collect(),
            file: None,
        });
        copy
    }
    /// Whether floats occur anywhere: a variable's type, or an expression of `pre`, `post`,
    /// the hints or a body (`int(1.5)`). Such tuples are proved first with floats
    /// abstracted (`smt::encode::FloatMode`).
    pub fn has_float(&self) -> bool {
        fn block(b: &[super::Stmt]) -> bool {
            use super::Stmt;
            b.iter().any(|s| match s {
                Stmt::Skip | Stmt::Havoc { .. } | Stmt::Observe { .. } | Stmt::Cut { .. } => false,
                Stmt::Assign { value, .. } => value.mentions_float(),
                Stmt::Store { index, value, .. } => {
                    index.mentions_float() || value.mentions_float()
                }
                Stmt::Assume { cond, .. } => cond.mentions_float(),
                Stmt::If { cond, then_branch, else_branch, .. } => {
                    cond.mentions_float() || block(then_branch) || block(else_branch)
                }
                Stmt::IfStar { then_branch, else_branch, .. } => {
                    block(then_branch) || block(else_branch)
                }
                Stmt::While { cond, body, .. } => cond.mentions_float() || block(body),
            })
        }
        self.vars.iter().any(|v| v.ty.has_float())
            || self.pre.mentions_float()
            || self.post.mentions_float()
            || self.hints.invariants.iter().any(Expr::mentions_float)
            || self.copies.iter().any(|c| block(&c.body))
    }

    /// The file copy `copy`'s program comes from (the tuple's own unless it says).
    pub fn copy_file(&self, copy: usize) -> &str {
        self.copies[copy].file.as_deref().unwrap_or(&self.file)
    }
    /// The variable `name` of copy `copy`, if it exists.
    pub fn copy_var(&self, copy: usize, name: &str) -> Option<VarId> {
        self.copies[copy].vars.iter().copied().find(|v| self.var(*v).name == name)
    }
}

/// What an input file says a tuple's verdict should be (hyena0's `(expect (outcome …))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExpectedOutcome {
    /// `counterexample`: expected `violated`.
    Counterexample,
    /// `no-counterexample`: none within the observation bound, so never `violated`.
    NoCounterexample,
}

impl ExpectedOutcome {
    /// The file's word for it (`counterexample`, `no-counterexample`).
    pub fn name(self) -> &'static str {
        match self {
            ExpectedOutcome::Counterexample => "counterexample",
            ExpectedOutcome::NoCounterexample => "no-counterexample",
        }
    }
    /// Whether the verdict named `verdict` (`verified`, `violated`, …) contradicts it.
    /// `unknown` contradicts nothing; `verified` contradicts `counterexample`; `violated`
    /// contradicts `no-counterexample`.
    pub fn contradicted_by(self, verdict: &str) -> bool {
        matches!(
            (self, verdict),
            (ExpectedOutcome::Counterexample, "verified")
                | (ExpectedOutcome::NoCounterexample, "violated")
        )
    }
}

/// Everything one source file defines, after checking.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub programs: Vec<Program>,
    pub tuples: Vec<Tuple>,
    /// Expected outcomes the file states, by tuple name (hyena0 files).
    pub expected: Vec<(String, ExpectedOutcome)>,
    /// For a module read from a `.c` file: the C types and library functions.
    pub c: Option<super::c::CInfo>,
}

impl Module {
    /// The outcome the file expects of tuple `name`, if it says.
    pub fn expected_of(&self, name: &str) -> Option<ExpectedOutcome> {
        self.expected.iter().find(|(t, _)| t == name).map(|e| e.1)
    }
    pub fn program(&self, name: &str) -> Option<&Program> {
        self.programs.iter().find(|p| p.name == name)
    }
}
