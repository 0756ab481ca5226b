//! Generated tuples printed as `.fe` text (what differential tests show on failure) parse
//! back through the front end to tuples the oracle decides the same way. This checks the
//! printer, so that a reported failing case reproduces with `forex prove`, and exercises
//! the front end on many random programs.

use crate::common::brute::decide;
use crate::common::gen::{sample, to_fe, tuples, GenConfig};
use forex::frontend::{load_source, InputFormat};
use forex::ir::{Block, Loc, Stmt};

/// The block with every position reset, to compare structure only.
fn strip(b: &Block) -> Block {
    let loc = Loc::default();
    b.iter()
        .map(|s| match s.clone() {
            Stmt::Skip => Stmt::Skip,
            Stmt::Observe { .. } => Stmt::Observe { loc },
            Stmt::Cut { .. } => Stmt::Cut { loc },
            Stmt::Assign { var, value, .. } => Stmt::Assign { var, value, loc },
            Stmt::Store { array, index, value, .. } => Stmt::Store { array, index, value, loc },
            Stmt::Havoc { var, .. } => Stmt::Havoc { var, loc },
            Stmt::Assume { cond, .. } => Stmt::Assume { cond, loc },
            Stmt::If { cond, then_branch, else_branch, .. } => Stmt::If {
                cond,
                then_branch: strip(&then_branch),
                else_branch: strip(&else_branch),
                loc,
            },
            Stmt::IfStar { then_branch, else_branch, .. } => Stmt::IfStar {
                then_branch: strip(&then_branch),
                else_branch: strip(&else_branch),
                loc,
            },
            Stmt::While { id, cond, body, .. } => Stmt::While { id, cond, body: strip(&body), loc },
        })
        .collect()
}

#[test]
fn printed_generated_tuples_reparse_to_the_same_answer() {
    for (loops, strings) in [(false, false), (true, false), (true, true)] {
        for t in sample(&tuples(GenConfig { loops, strings, ..GenConfig::default() }), 300, 9) {
            let text = to_fe(&t);
            let module = load_source("generated.fe", text.as_bytes(), InputFormat::Fe)
                .unwrap_or_else(|d| panic!("does not parse:\n{text}\n{d:?}"));
            assert_eq!(module.tuples.len(), 1);
            let back = &module.tuples[0];
            assert_eq!(back.copies.len(), t.copies.len());
            // Expressions carry no positions, so pre and post come back identical.
            assert_eq!(back.pre, t.pre, "pre changed:\n{text}");
            assert_eq!(back.post, t.post, "post changed:\n{text}");
            for (c, (b, o)) in back.copies.iter().zip(&t.copies).enumerate() {
                assert_eq!(strip(&b.body), strip(&o.body), "copy {c} changed:\n{text}");
            }
            assert_eq!(
                decide(back).map(|a| a.is_valid()),
                decide(&t).map(|a| a.is_valid()),
                "different answers after reparsing:\n{text}"
            );
        }
    }
}
