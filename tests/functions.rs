//! The built-in function catalog (`flinklint::semantic::functions`) against real Flink 2.3.
//!
//! `fixtures/functions/oracle-calls.jsonl` holds calls run through Flink
//! (`scripts/gen_function_cases.py`, one shared TableEnvironment) with Flink's verdicts:
//! - `count`: `f(args)` with the fewest arguments, one too few and one too many. Where Flink
//!   accepts, the catalog's argument count must accept; where Flink rejects for the count, it
//!   must not. Other rejections (argument types, an `OVER` clause needed) decide nothing here.
//! - `name`: a call as Flink's grammar wants it, for the functions with their own grammar,
//!   without parentheses, or of table kinds: Flink must know the name.
//! - `absent`: names the catalog does not have (Table API expressions that `SHOW FUNCTIONS`
//!   lists, misspellings): Flink must reject the call.
//!
//! `fixtures/functions/show-functions.txt` is Flink's `SHOW FUNCTIONS` (all of it, read as
//! `SHOW FUNCTIONS LIKE 'A%'`, ... per first letter).

use crate::common;
use flinklint::semantic::functions::{self, Origin, Syntax, FUNCTIONS};
use std::collections::BTreeSet;

#[derive(serde::Deserialize)]
struct Case {
    check: String,
    #[serde(default)]
    function: Option<String>,
    #[serde(default)]
    args: Option<usize>,
    sql: String,
    flink_ok: bool,
    #[serde(default)]
    flink_message: Option<String>,
}

fn cases() -> Vec<Case> {
    let path = common::root().join("fixtures/functions/oracle-calls.jsonl");
    let text = std::fs::read_to_string(&path).expect("read oracle-calls.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Flink's messages for a call whose argument count no signature of the function has: its
/// type-inference stack says "No match found for function signature", Calcite's operators
/// "Invalid number of arguments".
fn is_count_rejection(message: &str) -> bool {
    message.contains("Invalid number of arguments to function")
        || message.contains("No match found for function signature")
}

/// Flink's message for a name it does not know as a function.
fn is_unknown_function(message: &str) -> bool {
    message.contains("No match found for function signature")
}

/// `absent` names that Flink's grammar accepts, though not as functions: `SELECT distinct(1)`
/// is `SELECT DISTINCT (1)`, `row(1)` the row constructor.
const ABSENT_BUT_GRAMMAR: &[&str] = &["distinct", "row"];

#[test]
fn argument_counts_agree_with_flink() {
    let mut decided = 0;
    let mut undecided = Vec::new();
    let mut disagreements = Vec::new();
    for c in cases().iter().filter(|c| c.check == "count") {
        let name = c
            .function
            .as_deref()
            .expect("count case names its function");
        let n = c.args.expect("count case has an argument count");
        let f = functions::lookup(name).unwrap_or_else(|| panic!("{name} is not in the catalog"));
        assert_ne!(
            f.syntax,
            Syntax::Special,
            "{name}: special syntax has no comma count"
        );
        let message = c.flink_message.as_deref().unwrap_or("");
        let flink = if c.flink_ok {
            Some(true)
        } else if is_count_rejection(message) {
            Some(false)
        } else {
            None
        };
        match flink {
            Some(accepted) => {
                decided += 1;
                if accepted != f.accepts_arg_count(n) {
                    disagreements.push(format!("{}: Flink {accepted}, {message}", c.sql));
                }
            }
            None => undecided.push(format!("{name}/{n}: {message}")),
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {decided} calls disagree with Flink:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    // Enough calls where Flink's verdict is about the count, in both directions.
    assert!(
        decided >= 600,
        "only {decided} calls decided by the argument count"
    );
    assert!(
        undecided.len() <= 40,
        "{} undecided:\n{}",
        undecided.len(),
        undecided.join("\n")
    );
    println!(
        "{decided} calls agree with Flink on the argument count; {} rejected for other reasons",
        undecided.len()
    );
}

#[test]
fn every_catalog_function_is_known_to_flink() {
    let all = cases();
    let mut covered = BTreeSet::new();
    for c in &all {
        let Some(name) = c.function.as_deref() else {
            continue;
        };
        let message = c.flink_message.as_deref().unwrap_or("");
        match c.check.as_str() {
            "count" | "name" => {
                let f = functions::lookup(name).unwrap_or_else(|| panic!("{name} not in catalog"));
                // A count case with too many or too few arguments may be rejected as an
                // unknown signature; the name is known when a call within the count is not.
                if c.check == "name" || c.args.is_some_and(|n| f.accepts_arg_count(n)) {
                    assert!(
                        !is_unknown_function(message),
                        "Flink does not know {name}: {}: {message}",
                        c.sql
                    );
                    covered.insert(f.name);
                }
            }
            "absent" => {
                assert!(
                    functions::lookup(name).is_none(),
                    "{name} is in the catalog"
                );
                if !ABSENT_BUT_GRAMMAR.contains(&name) {
                    assert!(!c.flink_ok, "Flink accepts {}", c.sql);
                }
            }
            _ => {}
        }
    }
    let missing: Vec<&str> = FUNCTIONS
        .iter()
        .map(|f| f.name)
        .filter(|n| !covered.contains(n))
        .collect();
    assert!(missing.is_empty(), "not checked against Flink: {missing:?}");
}

/// `SHOW FUNCTIONS` lists the core module's definitions (BuiltInFunctionDefinitions), not the
/// planner's operator table. Upper-case names are the SQL ones; the lower-case and camelCase
/// names are the Table API's expressions, callable from SQL only where an operator of that
/// name exists (`abs`), which `absent` calls of the other ones check.
#[test]
fn show_functions_and_catalog_agree() {
    let path = common::root().join("fixtures/functions/show-functions.txt");
    let text = std::fs::read_to_string(&path).expect("read show-functions.txt");
    let show: BTreeSet<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let show_upper: BTreeSet<String> = show.iter().map(|n| n.to_ascii_uppercase()).collect();

    // In SHOW FUNCTIONS but not callable as a function: named-argument markers
    // (ASSIGNMENT, DEFAULT) and operators written with their own syntax (x IS JSON, x LIKE y).
    const SHOW_ONLY: &[&str] = &["ASSIGNMENT", "DEFAULT", "IS_JSON", "LIKE"];
    let mut unexpected = Vec::new();
    for name in show
        .iter()
        .filter(|n| n.chars().all(|c| !c.is_ascii_lowercase()))
    {
        if functions::lookup(name).is_none() && !SHOW_ONLY.contains(name) {
            unexpected.push(*name);
        }
    }
    assert!(
        unexpected.is_empty(),
        "SHOW FUNCTIONS names missing: {unexpected:?}"
    );
    for name in SHOW_ONLY {
        assert!(
            show.contains(name) && functions::lookup(name).is_none(),
            "{name}"
        );
    }

    // Every function of the core module is listed (TRANSLATE is the parser's spelling of
    // TRANSLATE3).
    let not_listed: Vec<&str> = FUNCTIONS
        .iter()
        .filter(|f| f.origin == Origin::BuiltInFunctionDefinitions)
        .map(|f| f.name)
        .filter(|n| !show.contains(n) && *n != "TRANSLATE")
        .collect();
    assert!(
        not_listed.is_empty(),
        "not in SHOW FUNCTIONS: {not_listed:?}"
    );

    let operator_table_only = FUNCTIONS
        .iter()
        .filter(|f| !show_upper.contains(f.name))
        .count();
    let table_api_only = show
        .iter()
        .filter(|n| functions::lookup(n).is_none() && !SHOW_ONLY.contains(n))
        .count();
    println!(
        "SHOW FUNCTIONS: {} names; catalog: {} functions; {} in the catalog only (the \
         planner's operator table), {} Table API names not callable from SQL",
        show.len(),
        FUNCTIONS.len(),
        operator_table_only,
        table_api_only
    );
}
