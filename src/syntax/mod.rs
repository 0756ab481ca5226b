//! Syntax: pest parser for `.fe` and the ForEx format → span-carrying AST.
//!
//! [`parse`] runs a lexical pre-scan (nesting depth), pest, and the builders
//! (`fe` for `.fe` files with shorthand expansion, `forex` for ForEx files). It
//! reports the first syntax error, or every error the builders find.

pub mod ast;
pub mod build;
mod expr;
mod fe;
mod forex;
pub mod hyena;
pub(crate) mod prescan;
pub mod recover;

use crate::diag::Diagnostic;
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar.pest"]
pub struct FeParser;

/// Which grammar to parse with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Fe,
    Forex,
}

/// Does `src` look like a ForEx file (its first non-blank text is a `[section]` header)?
pub fn looks_like_forex(src: &str) -> bool {
    let mut rest = src.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    // Skip leading `//` comments, which the ForEx tool's files do not have but users may add.
    while let Some(r) = rest.strip_prefix("//") {
        rest = r.split_once('\n').map(|(_, r)| r).unwrap_or("");
        rest = rest.trim_start();
    }
    let Some(r) = rest.strip_prefix('[') else { return false };
    let name: String = r.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    matches!(
        name.as_str(),
        "forall"
            | "exists"
            | "pre"
            | "post"
            | "inv"
            | "asynchronous"
            | "maxC"
            | "minC"
            | "traceBound"
            | "onlyHints"
            | "z3"
            | "cvc5"
            | "comment"
    )
}

/// Parses `src` as `format`. `stem` names a ForEx file's one tuple. Returns the syntax
/// tree (possibly partial) and the errors found; the tree is `None` after a syntax error.
pub fn parse(src: &str, format: Format, stem: &str) -> (Option<ast::File>, Vec<Diagnostic>) {
    if let Some(d) = prescan::prescan(src) {
        return (None, vec![d]);
    }
    let rule = match format {
        Format::Fe => Rule::fe_file,
        Format::Forex => Rule::forex_file,
    };
    // Unknown ForEx sections are reported and blanked out (header and text, offsets
    // kept), so they never become part of a formula and the rest is still checked.
    let (blanked, mut early) = match format {
        Format::Forex => forex::unknown_sections(src),
        Format::Fe => (None, Vec::new()),
    };
    let src = blanked.as_deref().unwrap_or(src);
    let pairs = match FeParser::parse(rule, src) {
        Ok(p) => p,
        Err(first) => {
            // Tracking the expected tokens halves parsing speed, so it is only switched on
            // (process-wide, and never off again: parallel parses must not race on it) to
            // explain an error. The parse result itself does not depend on it.
            pest::set_error_detail(true);
            let e = FeParser::parse(rule, src).err().unwrap_or(first);
            early.push(syntax_error(src, &e));
            return (None, early);
        }
    };
    let Some(file) = pairs.into_iter().next() else {
        return (None, vec![Diagnostic::new("internal: empty parse", 0..0)]);
    };
    let mut b = build::Builder::new(src, format == Format::Forex);
    let ast = match format {
        Format::Fe => fe::file(&mut b, &file),
        Format::Forex => forex::file(&mut b, &file, stem),
    };
    early.append(&mut b.diags);
    (Some(ast), early)
}

/// A friendly name for what a rule would have matched.
fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        expr | binexpr | unary | postfix_expr | quant | ite | paren | var | call | copy_var
        | bool_lit | bv_lit | str_lit | str_op | cond | star | prefix => "an expression",
        int_lit => "a number",
        ident | keyword => "a name",
        binop => "an operator",
        ty | base_ty => "a type",
        decl => "a declaration",
        block => "`{`",
        skip_stmt | assume_stmt | if_stmt | while_stmt | havoc_stmt | store_stmt | assign_stmt
        | observe_stmt | repeat_stmt | while_star_stmt | kw_observe | kw_repeat => "a statement",
        else_if | else_block | kw_else => "`else`",
        kw_then => "`then`",
        kw_if => "`if`",
        kw_while => "`while`",
        program | kw_program => "`program`",
        tuple_def | shorthand | kw_tuple => "`tuple`",
        copy_line | quantifier => "`forall`/`exists`",
        pre_item | kw_pre => "`pre`",
        post_item | kw_post => "`post`",
        always_item | kw_always => "`always`",
        observations_item | kw_observations => "`observations`",
        inv_item | kw_invariant => "`invariant`",
        align_item | kw_align => "`align`",
        conj_item | kw_conjuncts => "`conjuncts`",
        copy_decl => "a copy `name: program`",
        named_list => "a list `name: [x, y]`",
        sec_forall | sec_exists | sec_pre | sec_post | sec_inv | sec_async | sec_maxc
        | sec_minc | sec_unknown => "a section header such as `[pre]`",
        extract | forex_extract | index => "`[`",
        EOI => "end of file",
        _ => return None,
    })
}

/// The text at `pos` as the user sees it: a word, one character, or end of file.
fn found_at(src: &str, pos: usize) -> String {
    let rest = &src[pos.min(src.len())..];
    let Some(c) = rest.chars().next() else { return "end of file".to_string() };
    if c.is_alphanumeric() || c == '_' {
        let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        format!("`{word}`")
    } else if c == '\n' {
        "end of line".to_string()
    } else {
        format!("`{c}`")
    }
}

pub(crate) fn syntax_error(src: &str, e: &pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let mut pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let mut tokens: Vec<String> = Vec::new();
    let mut rules: Vec<String> = Vec::new();
    let push = |v: &mut Vec<String>, s: String| {
        if !v.contains(&s) {
            v.push(s);
        }
    };
    let positives = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { message } => {
            return Diagnostic::new(format!("cannot parse: {message}"), pos..pos)
                .with_label("here")
                .with_hint("simplify the input (it may be nested too deeply)")
        }
    };
    // pest places the error where a *rule* failed furthest; literal tokens (`:` in
    // `a: p`, `=` in `x = 1`) may have been tried further on, which is the better place.
    let rule_pos = pos;
    let attempts = e.parse_attempts().filter(|a| {
        // Moving past a lone word would only follow a keyword look-ahead (`int then;`).
        let (lo, hi) = (pos, a.max_position);
        hi >= lo
            && hi <= src.len()
            && src.is_char_boundary(hi)
            && (hi == lo || !src[lo..hi].chars().all(|c| c.is_alphanumeric() || c == '_'))
    });
    if let Some(a) = &attempts {
        pos = a.max_position;
        // `ParsingToken` is not exported; its Display is the literal text (or `a..z` for
        // ranges and BUILTIN_RULE, which we skip).
        for t in a.expected_tokens() {
            let token = t.to_string();
            let chars: Vec<char> = token.chars().collect();
            let range = chars.len() == 3 + 1 && chars[1] == '.' && chars[2] == '.';
            let noise = matches!(token.as_str(), "BUILTIN_RULE" | "//" | "/*" | "\u{feff}");
            // `x = e` is the statement people mean; `+=`, `++`… would only crowd the list.
            let compound = matches!(token.as_str(), "+=" | "-=" | "*=" | "++" | "--");
            if !noise && !range && !compound && !token.trim().is_empty() {
                push(&mut tokens, format!("`{token}`"));
            }
        }
    }
    if tokens.is_empty() {
        // Only ranges (`0..1`) were expected further on: explain at the rule's position.
        pos = rule_pos;
    }
    if pos == rule_pos {
        for r in positives {
            if let Some(d) = describe(*r) {
                push(&mut rules, d.to_string());
            }
        }
    }
    // Where a statement may start, `if`, `while` and names read better as "a statement".
    if rules.iter().any(|r| r == "`if`") && rules.iter().any(|r| r == "`while`") {
        rules.retain(|r| !matches!(r.as_str(), "`if`" | "`while`" | "a name"));
        rules.insert(0, "a statement".to_string());
    }
    // A short list of literal tokens is precise; a long one (every operator) is noise:
    // keep the punctuation (`;`, `)`, …) and summarise the operators.
    let mut expected: Vec<String> = Vec::new();
    if tokens.len() <= 4 {
        for t in tokens.into_iter().chain(rules) {
            push(&mut expected, t);
        }
    } else {
        let expression = rules.iter().any(|r| r == "an expression");
        let (ops, punct): (Vec<String>, Vec<String>) =
            tokens.into_iter().partition(|t| OPERATOR_TOKENS.contains(&t.trim_matches('`')));
        // Where an expression may start, its first tokens are summarised by "an expression".
        // Keywords and `_` that start a statement, type or name are summarised by the
        // rules' descriptions ("a statement", "a type", "a name").
        let words = !rules.is_empty();
        for t in punct {
            let bare = t.trim_matches('`');
            let is_word = bare.chars().all(|c| c.is_alphanumeric() || c == '_');
            let summarised = (expression && EXPRESSION_START.contains(&bare)) || (words && is_word);
            if !summarised {
                push(&mut expected, t);
            }
        }
        let binary = ops.iter().any(|t| !matches!(t.trim_matches('`'), "-" | "*" | "[" | "{"));
        if binary {
            push(&mut expected, "an operator".to_string());
        }
        for r in rules.into_iter().filter(|r| r != "`[`") {
            push(&mut expected, r);
        }
    }
    // "end of file" reads best last.
    if let Some(i) = expected.iter().position(|x| x == "end of file") {
        let eof = expected.remove(i);
        expected.push(eof);
    }
    let found = found_at(src, pos);
    let end = if found.starts_with('`') { pos + found.len() - 2 } else { pos };
    let message = if expected.is_empty() {
        format!("unexpected {found}")
    } else {
        format!("expected {}, found {found}", join_or(&expected))
    };
    let label = if expected.is_empty() {
        "unexpected".to_string()
    } else {
        format!("expected {}", join_or(&expected))
    };
    let mut d = Diagnostic::new(message, pos..end.min(src.len())).with_label(label);
    let word = found.trim_matches('`');
    if found == "`=`" && src[..pos].ends_with('=') {
        d = d.with_hint("assignment is written `x = e;` (`==` compares)");
    } else if found == "`=`" && expected.iter().any(|x| x == "an operator") {
        d = d.with_hint("comparison is written `==`");
    } else if KEYWORDS.contains(&word) && expected.iter().any(|x| x == "a name") {
        d = d.with_hint(format!("`{word}` is a reserved word; choose another name"));
    } else if word == "return" || src[..pos].trim_end().ends_with("return") {
        d = d.with_hint(
            "`return e;` may only end a function's body: `int f(int a) { … return e; }`",
        );
    } else if word.starts_with('#') {
        d = d.with_hint("bit-vector literals are written `#b0101` (binary) or `#xff` (hex)");
    } else if found == "end of file" && expected.iter().any(|x| x == "`}`") {
        d = d.with_hint("the file ends early: is a `}` missing?");
        if let Some(open) = unclosed_brace(src) {
            d = d.with_related(open..open + 1, "this `{` is never closed");
        }
    } else if expected.iter().any(|x| x == "`{`")
        && word != "{"
        && src[..pos].trim_end().ends_with(')')
    {
        d = d.with_hint("blocks need braces: `if (c) { … }`, `while (c) { … }`");
    }
    d
}

/// The innermost `{` left open at the end of `src` (comments and strings skipped).
fn unclosed_brace(src: &str) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut open = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = src[i + 2..].find("*/").map_or(bytes.len(), |e| i + 2 + e + 1);
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => open.push(i),
            b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.pop()
}

/// Reserved words (also in `keyword` in grammar.pest).
const KEYWORDS: [&str; 15] = [
    "if", "else", "while", "assume", "skip", "true", "false", "then", "forall", "exists", "int",
    "bool", "string", "program", "tuple",
];

/// Tokens summarised as "an operator" in syntax errors (binary operators and postfixes).
const OPERATOR_TOKENS: [&str; 27] = [
    "<==>", "==>", "=>", "===", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "&&", "||", "bv.&",
    "bv.|", "str.++", "&", "|", "^", "+", "-", "*", "/", "%", "[", "{",
];

/// Tokens that begin an expression (summarised as "an expression" in syntax errors).
const EXPRESSION_START: [&str; 16] = [
    "!", "\"", "#b", "#x", "(", "_", "bv.!", "exists", "false", "forall", "if", "str.", "str.len",
    "true", "~", "-",
];

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
