//! Syntax: pest parser for `.fe` and the ForEx format → span-carrying AST.
//!
//! [`parse`] runs a lexical pre-scan (nesting depth), pest, and the builders
//! (`fe` for `.fe` files with shorthand expansion, `forex` for ForEx files). It
//! reports the first syntax error, or every error the builders find.

pub mod ast;
pub mod build;
mod fe;
mod forex;
mod prescan;

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
        "forall" | "exists" | "pre" | "post" | "inv" | "asynchronous" | "maxC" | "minC"
    )
}

/// Parses `src` as `format`. `stem` names a ForEx file's one tuple. Returns the syntax
/// tree (possibly partial) and the errors found; the tree is `None` after a syntax error.
pub fn parse(src: &str, format: Format, stem: &str) -> (Option<ast::File>, Vec<Diagnostic>) {
    if let Some(d) = prescan::prescan(src) {
        return (None, vec![d]);
    }
    pest::set_error_detail(true);
    let rule = match format {
        Format::Fe => Rule::fe_file,
        Format::Forex => Rule::forex_file,
    };
    let pairs = match FeParser::parse(rule, src) {
        Ok(p) => p,
        Err(e) => return (None, vec![syntax_error(src, &e)]),
    };
    let Some(file) = pairs.into_iter().next() else {
        return (None, vec![Diagnostic::new("internal: empty parse", 0..0)]);
    };
    let mut b = build::Builder::new(src, format == Format::Forex);
    let ast = match format {
        Format::Fe => fe::file(&mut b, &file),
        Format::Forex => forex::file(&mut b, &file, stem),
    };
    (Some(ast), b.diags)
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
        skip_stmt | assume_stmt | if_stmt | while_stmt | havoc_stmt | store_stmt | assign_stmt => {
            "a statement"
        }
        else_if | else_block | kw_else => "`else`",
        kw_then => "`then`",
        kw_if => "`if`",
        kw_while => "`while`",
        program | kw_program => "`program`",
        tuple_def | shorthand | kw_tuple => "`tuple`",
        copy_line | quantifier => "`forall`/`exists`",
        pre_item | kw_pre => "`pre`",
        post_item | kw_post => "`post`",
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

fn syntax_error(src: &str, e: &pest::error::Error<Rule>) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
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
    match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            if let Some(attempts) = e.parse_attempts() {
                if attempts.max_position == pos {
                    // `ParsingToken` is not exported; its Display is the literal text
                    // (or `a..z` for ranges and BUILTIN_RULE, which we skip).
                    for t in attempts.expected_tokens() {
                        let token = t.to_string();
                        let chars: Vec<char> = token.chars().collect();
                        let range = chars.len() == 3 + 1 && chars[1] == '.' && chars[2] == '.';
                        let noise =
                            matches!(token.as_str(), "BUILTIN_RULE" | "//" | "/*" | "\u{feff}");
                        if !noise && !range && !token.trim().is_empty() {
                            push(&mut tokens, format!("`{token}`"));
                        }
                    }
                }
            }
            for r in positives {
                if let Some(d) = describe(*r) {
                    push(&mut rules, d.to_string());
                }
            }
        }
        ErrorVariant::CustomError { message } => {
            return Diagnostic::new(format!("cannot parse: {message}"), pos..pos)
                .with_label("here")
                .with_hint("simplify the input (it may be nested too deeply)")
        }
    }
    // A short list of literal tokens is precise; a long one (every operator) is noise:
    // keep the punctuation (`;`, `)`, …) and summarise the operators.
    let expected: Vec<String> = if tokens.len() <= 4 {
        tokens.into_iter().chain(rules).collect()
    } else {
        let expression = rules.iter().any(|r| r == "an expression");
        let (ops, punct): (Vec<String>, Vec<String>) =
            tokens.into_iter().partition(|t| OPERATOR_TOKENS.contains(&t.trim_matches('`')));
        // Where an expression may start, its first tokens are summarised by "an expression".
        let mut out: Vec<String> = punct
            .into_iter()
            .filter(|t| !(expression && EXPRESSION_START.contains(&t.trim_matches('`'))))
            .collect();
        let binary = ops.iter().any(|t| !matches!(t.trim_matches('`'), "-" | "*" | "[" | "{"));
        if binary && !rules.iter().any(|r| r == "an operator") {
            out.push("an operator".to_string());
        }
        out.extend(rules.into_iter().filter(|r| r != "`[`"));
        out
    };
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
    if found == "`=`" && src[..pos].ends_with('=') {
        d = d.with_hint("assignment is written `x = e;` (`==` compares)");
    }
    d
}

/// Tokens summarised as "an operator" in syntax errors (binary operators and postfixes).
const OPERATOR_TOKENS: [&str; 26] = [
    "<==>", "==>", "=>", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "&&", "||", "bv.&", "bv.|",
    "str.++", "&", "|", "^", "+", "-", "*", "/", "%", "[", "{",
];

/// Tokens that begin an expression (summarised as "an expression" in syntax errors).
const EXPRESSION_START: [&str; 15] = [
    "!", "\"", "#b", "#x", "(", "_", "bv.!", "exists", "false", "forall", "if", "str.", "true",
    "~", "-",
];

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
