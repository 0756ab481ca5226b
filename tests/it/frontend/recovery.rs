//! Per-tuple recovery: an error in one program or tuple of a `.fe` file breaks exactly the
//! tuples it concerns, with its diagnostic; the rest of the file is still checked.

use forex::frontend::{load_file_recovering, InputFormat, Recovered};
use forex::ir::Loc;

const PARTIAL: &str = "\
program good {
  int h, l, o;
  o = l;
}
program bad {
  int x;
  x = y + 1;
}
program syn {
  int x;
  x = = 2;
}
tuple ok { forall a: good, b: good; pre a.l == b.l; post a.o == b.o; }
tuple uses_bad { forall a: bad, b: bad; post a.x == b.x; }
tuple uses_syn = deterministic(syn, in: [], out: [x]);
tuple own_error { forall a: good, b: good; post a.o == b.q; }
tuple broken syntax { }
tuple leak { forall a: good, b: good; post a.o == b.o; }
";

fn recover(src: &str) -> Recovered {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("partial.fe");
    std::fs::write(&path, src).unwrap();
    load_file_recovering(&path, InputFormat::Auto).unwrap_or_else(|d| {
        panic!("the whole file failed:\n{}", d.render(forex::diag::DiagStyle::Short))
    })
}

#[test]
fn a_broken_tuple_or_program_breaks_exactly_the_tuples_concerned() {
    let r = recover(PARTIAL);
    let good: Vec<&str> = r.module.tuples.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(good, ["ok", "leak"]);
    let broken: Vec<(&str, Loc, Vec<String>)> =
        r.broken.iter().map(|b| (b.name.as_str(), b.loc, b.diagnostics.messages.clone())).collect();
    let at = |line, col| Loc { line, col };
    assert_eq!(
        broken,
        [
            ("uses_bad", at(14, 1), vec!["7:7: unknown variable `y`".to_string()]),
            ("uses_syn", at(15, 1), vec!["11:7: expected an expression, found `=`".to_string()]),
            (
                "own_error",
                at(16, 1),
                vec!["16:58: copy `b` (program `good`) has no variable `q`".to_string()]
            ),
            ("broken", at(17, 1), vec!["17:14: expected `=` or `{`, found `syntax`".to_string()]),
        ]
    );
}

#[test]
fn a_file_without_errors_has_no_broken_tuples_and_function_errors_fail_the_file() {
    let r = recover("program p { int x; x = 1; }\ntuple t { forall a: p; post a.x == 1; }\n");
    assert!(r.broken.is_empty() && r.unused.is_none());
    assert_eq!(r.module.tuples.len(), 1);
    // A broken program no tuple uses breaks nothing, but stays an input error.
    let r = recover("program p { int x; x = z; }\nprogram q { int x; x = 1; }\ntuple t { forall a: q; post a.x == 1; }\n");
    assert!(r.broken.is_empty());
    assert_eq!(r.module.tuples.len(), 1);
    let unused = r.unused.expect("the broken program's error");
    assert_eq!(unused.messages, ["1:24: unknown variable `z`"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.fe");
    let src = "int f(int a) { return b; }\nprogram p { int x; x = f(1); }\ntuple t { forall a: p; post a.x == 1; }\n";
    std::fs::write(&path, src).unwrap();
    let err = load_file_recovering(&path, InputFormat::Auto).expect_err("a broken function");
    assert_eq!(err.messages.len(), 1, "{:?}", err.messages);
    assert!(err.messages[0].starts_with("1:23:"), "{:?}", err.messages);
}
