//! The checks of a function call: unknown names, argument counts, the argument types of the
//! built-in forms flinklint knows, and untyped `NULL` arguments.

use super::*;

/// A built-in Calcite function whose one accepted form flinklint checks: the form Flink
/// prints, and whether an argument type is accepted (`None`: not certain either way).
struct Form {
    names: &'static [&'static str],
    form: &'static str,
    accepts: fn(usize, &Kind) -> Option<bool>,
}

/// Built-in functions whose untyped `NULL` arguments Flink rejects ("Illegal use of 'NULL'":
/// their operand type checkers infer no type for them).
const NULL_ILLEGAL: &[&str] = &[
    "UPPER",
    "LOWER",
    "INITCAP",
    "CHAR_LENGTH",
    "CHARACTER_LENGTH",
    "ABS",
    "IF",
    "CONCAT",
];

fn accepts_character(_: usize, k: &Kind) -> Option<bool> {
    if character(k) {
        Some(true)
    } else if numeric(k) || datetime(k) || *k == Kind::Boolean || binary_string(k) {
        Some(false)
    } else {
        None
    }
}

/// Calcite's STRING family: character and binary strings.
fn accepts_string(_: usize, k: &Kind) -> Option<bool> {
    if character(k) || binary_string(k) {
        Some(true)
    } else if numeric(k) || datetime(k) || *k == Kind::Boolean {
        Some(false)
    } else {
        None
    }
}

/// Calcite's INTEGER family (TINYINT to BIGINT).
fn accepts_integer(_: usize, k: &Kind) -> Option<bool> {
    if matches!(k, Kind::TinyInt | Kind::SmallInt | Kind::Int | Kind::BigInt) {
        Some(true)
    } else if character(k) || *k == Kind::Boolean || datetime(k) || binary_string(k) {
        Some(false)
    } else {
        None
    }
}

/// A number first, then integers (`ROUND(x, 2)`, `TRUNCATE(x, 2)`).
fn accepts_numeric_then_integer(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 => accepts_numeric(i, k),
        _ => accepts_integer(i, k),
    }
}

/// An exact number (`MOD`): an approximate one is not judged.
fn accepts_exact_numeric(i: usize, k: &Kind) -> Option<bool> {
    match k {
        Kind::Float | Kind::Double => None,
        _ => accepts_numeric(i, k),
    }
}

/// `LPAD(s, n, pad)`.
fn accepts_pad(i: usize, k: &Kind) -> Option<bool> {
    match i {
        1 => accepts_integer(i, k),
        _ => accepts_character(i, k),
    }
}

/// `FROM_UNIXTIME(seconds[, format])`.
fn accepts_from_unixtime(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 => accepts_integer(i, k),
        _ => accepts_character(i, k),
    }
}

/// `DATE_FORMAT(timestamp or string, format)`: a number or boolean is neither.
fn accepts_date_format(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 if numeric(k) || *k == Kind::Boolean => Some(false),
        0 if character(k) || matches!(k, Kind::Timestamp(_) | Kind::TimestampLtz(_)) => Some(true),
        0 => None,
        _ => accepts_character(i, k),
    }
}

/// `FLOOR(x)` / `CEIL(x)` of one argument: a number or an interval (a datetime takes
/// `TO unit`, not judged here).
fn accepts_floor(_: usize, k: &Kind) -> Option<bool> {
    if character(k) || *k == Kind::Boolean {
        Some(false)
    } else if numeric(k) {
        Some(true)
    } else {
        None
    }
}

fn accepts_numeric(_: usize, k: &Kind) -> Option<bool> {
    if numeric(k) {
        Some(true)
    } else if character(k) || datetime(k) || *k == Kind::Boolean {
        Some(false)
    } else {
        None
    }
}

fn accepts_substring(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 => accepts_character(i, k),
        _ => {
            if matches!(k, Kind::TinyInt | Kind::SmallInt | Kind::Int | Kind::BigInt) {
                Some(true)
            } else if character(k) || *k == Kind::Boolean || datetime(k) {
                Some(false)
            } else {
                None
            }
        }
    }
}

/// Two character strings, then integers (`LOCATE(a, s, 2)`, `REGEXP_EXTRACT(s, re, 1)`,
/// `INSTR(s, a, 1, 2)`).
fn accepts_two_characters_then_integers(i: usize, k: &Kind) -> Option<bool> {
    if i < 2 {
        accepts_character(i, k)
    } else {
        accepts_integer(i, k)
    }
}

/// `LEFT(s, n)` / `RIGHT(s, n)`: a DECIMAL or DOUBLE length is refused too.
fn accepts_left(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 => accepts_character(i, k),
        _ => accepts_integer(i, k).or(if numeric(k) { Some(false) } else { None }),
    }
}

/// `SPLIT_INDEX(s, separator, n)`: the separator a character string or an integer.
fn accepts_split_index(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 => accepts_character(i, k),
        1 if matches!(k, Kind::TinyInt | Kind::SmallInt | Kind::Int | Kind::BigInt) => Some(true),
        1 => accepts_character(i, k),
        _ => accepts_integer(i, k),
    }
}

/// `HEX(x)`: an integer or a character string.
fn accepts_hex(i: usize, k: &Kind) -> Option<bool> {
    if character(k) {
        Some(true)
    } else {
        accepts_integer(i, k).or(if numeric(k) { Some(false) } else { None })
    }
}

/// `BIN(x)`: an integer (a DECIMAL or DOUBLE too is refused).
fn accepts_bin(i: usize, k: &Kind) -> Option<bool> {
    accepts_integer(i, k).or(if numeric(k) { Some(false) } else { None })
}

/// `SHA2(s, bits)`.
fn accepts_sha2(i: usize, k: &Kind) -> Option<bool> {
    match i {
        0 => accepts_string(i, k),
        _ => accepts_integer(i, k),
    }
}

/// `CARDINALITY(x)`: a collection; a scalar is refused.
fn accepts_collection(_: usize, k: &Kind) -> Option<bool> {
    if matches!(k, Kind::Array(_) | Kind::Map(..) | Kind::Multiset(_)) {
        Some(true)
    } else if numeric(k) || character(k) || datetime(k) || binary_string(k) || *k == Kind::Boolean {
        Some(false)
    } else {
        None
    }
}

/// The forms checked, each verified against Flink 2.3's message.
const FORMS: &[Form] = &[
    Form {
        names: &[
            "UPPER",
            "LOWER",
            "CHAR_LENGTH",
            "CHARACTER_LENGTH",
            "INITCAP",
        ],
        form: "(<CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["CONCAT"],
        form: "(<CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["SUM", "AVG"],
        form: "(<NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["ABS"],
        form: "(<NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["SUBSTRING"],
        form: "(<CHARACTER>, <INTEGER>)",
        accepts: accepts_substring,
    },
    Form {
        names: &["SUBSTR"],
        form: "(<CHARACTER>, <INTEGER>)'\n'SUBSTR(<CHARACTER>, <INTEGER>, <INTEGER>)",
        accepts: accepts_substring,
    },
    Form {
        names: &["REPEAT"],
        form: "(<CHARACTER>, <INTEGER>)",
        accepts: accepts_substring,
    },
    Form {
        names: &["REPLACE", "REGEXP_REPLACE"],
        form: "(<CHARACTER>, <CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["REGEXP"],
        form: "(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["REVERSE", "ASCII", "CONCAT_WS"],
        form: "(<CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["LTRIM"],
        form: "(<CHARACTER>)'\n'LTRIM(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["TO_DATE"],
        form: "(<CHARACTER>)'\n'TO_DATE(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["TO_TIMESTAMP"],
        form: "(<CHARACTER>)'\n'TO_TIMESTAMP(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["UNIX_TIMESTAMP"],
        form: "()'\n'UNIX_TIMESTAMP(<CHARACTER>)'\n'UNIX_TIMESTAMP(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["LPAD"],
        form: "(<CHARACTER>, <INTEGER>, <CHARACTER>)",
        accepts: accepts_pad,
    },
    Form {
        names: &["FROM_UNIXTIME"],
        form: "(<INTEGER>)'\n'FROM_UNIXTIME(<INTEGER>, <CHARACTER>)",
        accepts: accepts_from_unixtime,
    },
    Form {
        names: &["CHR"],
        form: "(<INTEGER>)",
        accepts: accepts_integer,
    },
    Form {
        names: &["DATE_FORMAT"],
        form: "(<TIMESTAMP>, <CHARACTER>)'\n'DATE_FORMAT(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_date_format,
    },
    Form {
        names: &["MD5"],
        form: "(<STRING>)",
        accepts: accepts_string,
    },
    Form {
        names: &["POWER"],
        form: "(<NUMERIC>, <NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["LN", "SQRT", "EXP", "LOG10", "SIN", "SIGN"],
        form: "(<NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["MOD"],
        form: "(<EXACT_NUMERIC>, <EXACT_NUMERIC>)",
        accepts: accepts_exact_numeric,
    },
    Form {
        names: &["ROUND"],
        form: "(<NUMERIC>, <INTEGER>)'\n'ROUND(<NUMERIC>)",
        accepts: accepts_numeric_then_integer,
    },
    Form {
        names: &["TRUNCATE"],
        form: "(<NUMERIC>, <INTEGER>)'\n'TRUNCATE(<NUMERIC>)",
        accepts: accepts_numeric_then_integer,
    },
    Form {
        names: &["FLOOR"],
        form: "(<NUMERIC>)'\n'FLOOR(<DATETIME_INTERVAL>)'\n'FLOOR(<DATE> TO <TIME_UNIT>)",
        accepts: accepts_floor,
    },
    Form {
        names: &["RTRIM"],
        form: "(<CHARACTER>)'\n'RTRIM(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["LOCATE"],
        form: "(<CHARACTER>, <CHARACTER>)'\n'LOCATE(<CHARACTER>, <CHARACTER>, <INTEGER>)",
        accepts: accepts_two_characters_then_integers,
    },
    Form {
        names: &["INSTR"],
        form: "(<CHARACTER>, <CHARACTER>)'\n'INSTR(<CHARACTER>, <CHARACTER>, <INTEGER>)'\n'INSTR(<CHARACTER>, <CHARACTER>, <INTEGER>, <INTEGER>)",
        accepts: accepts_two_characters_then_integers,
    },
    Form {
        names: &["LEFT", "RIGHT"],
        form: "(<CHARACTER>, <INTEGER>)",
        accepts: accepts_left,
    },
    Form {
        names: &["RPAD"],
        form: "(<CHARACTER>, <INTEGER>, <CHARACTER>)",
        accepts: accepts_pad,
    },
    Form {
        names: &["SPLIT_INDEX"],
        form: "(<CHARACTER>, <INTEGER>, <INTEGER>)'\n'SPLIT_INDEX(<CHARACTER>, <CHARACTER>, <INTEGER>)",
        accepts: accepts_split_index,
    },
    Form {
        names: &["REGEXP_EXTRACT"],
        form: "(<CHARACTER>, <CHARACTER>, <INTEGER>)'\n'REGEXP_EXTRACT(<CHARACTER>, <CHARACTER>)",
        accepts: accepts_two_characters_then_integers,
    },
    Form {
        names: &["PARSE_URL"],
        form: "(<CHARACTER>, <CHARACTER>)'\n'PARSE_URL(<CHARACTER>, <CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["CONVERT_TZ"],
        form: "(<CHARACTER>, <CHARACTER>, <CHARACTER>)",
        accepts: accepts_character,
    },
    Form {
        names: &["HEX"],
        form: "(<INTEGER>)'\n'HEX(<CHARACTER>)",
        accepts: accepts_hex,
    },
    Form {
        names: &["BIN"],
        form: "(<INTEGER>)",
        accepts: accepts_bin,
    },
    Form {
        names: &[
            "SHA1",
            "SHA224",
            "SHA256",
            "SHA384",
            "SHA512",
            "TO_BASE64",
            "FROM_BASE64",
        ],
        form: "(<STRING>)",
        accepts: accepts_string,
    },
    Form {
        names: &["SHA2"],
        form: "(<STRING>, <INTEGER>)",
        accepts: accepts_sha2,
    },
    Form {
        names: &["LOG"],
        form: "(<NUMERIC>)'\n'LOG(<NUMERIC>, <NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["ATAN2"],
        form: "(<NUMERIC>, <NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &[
            "LOG2", "COS", "TAN", "ACOS", "ASIN", "ATAN", "COT", "SINH", "COSH", "TANH", "DEGREES",
            "RADIANS",
        ],
        form: "(<NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "STDDEV", "VARIANCE"],
        form: "(<NUMERIC>)",
        accepts: accepts_numeric,
    },
    Form {
        names: &["CARDINALITY"],
        form: "(<MULTISET>)'\n'CARDINALITY(<ARRAY>)'\n'CARDINALITY(<MAP>)",
        accepts: accepts_collection,
    },
    Form {
        names: &["CEIL"],
        form: "(<NUMERIC>)'\n'CEIL(<DATETIME_INTERVAL>)'\n'CEIL(<DATE> TO <TIME_UNIT>)",
        accepts: accepts_floor,
    },
];

impl Checker<'_> {
    pub(super) fn call(
        &mut self,
        e: &Expr,
        call: &FunctionCall,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) {
        if call.name.parts.len() != 1 || self.env.opaque {
            return;
        }
        let written = call.name.last().text.as_str();
        let upper = written.to_ascii_uppercase();
        if self.env.created.contains(&upper) {
            return;
        }
        let named = call.args.iter().any(|a| a.name.is_some());
        let given = call.args.len().max(usize::from(call.star));
        if let Some(d) = self.env.declared.get(&upper) {
            if let Some(args) = &d.args {
                if !named && args.len() != given {
                    self.push(
                        e.span,
                        ExprIssue::ArgumentCount {
                            name: written.to_string(),
                            given,
                            expected: args.len().to_string(),
                            declared: true,
                        },
                        None,
                        false,
                    );
                }
            }
            return;
        }
        let Some(f) = lookup(&upper) else {
            if matches!(
                upper.as_str(),
                "TABLE"
                    | "DESCRIPTOR"
                    | "ROW"
                    | "ARRAY"
                    | "MAP"
                    | "MULTISET"
                    | "CAST"
                    | "ROLLUP"
                    | "CUBE"
                    | "GROUPING SETS"
                    | "GROUPING_SETS"
            ) {
                return;
            }
            // Calcite types the arguments before it looks the name up.
            if call.args.iter().any(|a| is_null_literal(&a.value)) {
                self.illegal_null(e.span);
                return;
            }
            // A name close to no built-in is most likely a function the deployment registers
            // itself (in code, from a jar, in a catalog): nothing is said unless the project
            // declares its functions (`functions:` in the configuration).
            let similar = closest(written);
            if similar.is_empty() && self.env.declared.is_empty() {
                return;
            }
            let flink = if call.star || call.distinct {
                None
            } else {
                self.signature(written, call, column, agg)
                    .map(|s| format!("No match found for function signature {s}"))
            };
            self.push(
                call.name.span,
                ExprIssue::UnknownFunction {
                    name: written.to_string(),
                    similar,
                },
                flink,
                false,
            );
            return;
        };
        // The group window functions of GROUP BY (`TUMBLE(ts, INTERVAL '1' HOUR)`) share their
        // names with the window table functions, which take other arguments.
        if named || matches!(f.name, "TUMBLE" | "HOP" | "SESSION" | "CUMULATE") {
            return;
        }
        if NULL_ILLEGAL.contains(&f.name) && call.args.iter().any(|a| is_null_literal(&a.value)) {
            self.illegal_null(e.span);
            return;
        }
        if f.syntax != Syntax::Special && !f.accepts_arg_count(given) {
            let expected = match f.max_args {
                Some(m) if m == f.min_args => m.to_string(),
                Some(m) => format!("{} to {m}", f.min_args),
                None => format!("at least {}", f.min_args),
            };
            let calcite = f.origin == Origin::FlinkSqlOperatorTable && f.syntax != Syntax::NoParens;
            let flink = if calcite {
                Some(format!(
                    "Invalid number of arguments to function '{}'. Was expecting {} arguments",
                    f.name, f.min_args
                ))
            } else {
                // Flink's type inference (and Calcite for the niladic functions) finds no
                // signature: its message lists the argument families.
                let name = if f.origin == Origin::BuiltInFunctionDefinitions {
                    written
                } else {
                    f.name
                };
                self.signature(name, call, column, agg).map(|s| {
                    if f.name == "PI" {
                        format!("No match found for function signature {s}")
                    } else {
                        format!("No match found for function signature {s}.")
                    }
                })
            };
            self.push(
                e.span,
                ExprIssue::ArgumentCount {
                    name: f.name.to_string(),
                    given,
                    expected,
                    declared: false,
                },
                flink,
                false,
            );
            return;
        }
        if self.special_form(e, f.name, call, column, agg) {
            return;
        }
        let Some(form) = FORMS.iter().find(|x| x.names.contains(&f.name)) else {
            return;
        };
        if call.args.iter().any(|a| a.keyword.is_some()) {
            return;
        }
        let mut types = Vec::with_capacity(call.args.len());
        for a in &call.args {
            let Some(t) = infer_type_in(&a.value, column, agg) else {
                return;
            };
            types.push(t);
        }
        let mut rejected = false;
        for (i, t) in types.iter().enumerate() {
            match (form.accepts)(i, &t.kind) {
                Some(true) => {}
                Some(false) => rejected = true,
                None => return,
            }
        }
        if !rejected {
            return;
        }
        let names: Option<Vec<String>> = types.iter().map(casts::calcite_name).collect();
        let flink = names.map(|n| {
            let given: Vec<String> = n.iter().map(|x| format!("<{x}>")).collect();
            format!(
                "Cannot apply '{0}' to arguments of type '{0}({1})'. Supported form(s): '{0}{2}'",
                f.name,
                given.join(", "),
                form.form
            )
        });
        self.push(
            e.span,
            ExprIssue::ArgumentTypes {
                name: f.name.to_string(),
                given: types
                    .iter()
                    .map(|t| t.summary())
                    .collect::<Vec<_>>()
                    .join(", "),
                // One form per line in Flink's message; "or" between them here.
                expected: format!("{}{}", f.name, form.form).replace("'\n'", " or "),
            },
            flink,
            false,
        );
    }

    /// `name(<FAMILY>, ...)` as Calcite prints a call it cannot resolve; `None` when an
    /// argument's family is not known.
    pub(super) fn signature(
        &self,
        name: &str,
        call: &FunctionCall,
        column: &dyn Fn(&str) -> Option<Type>,
        agg: Aggregation,
    ) -> Option<String> {
        let mut parts = Vec::with_capacity(call.args.len());
        for a in &call.args {
            if a.keyword.is_some() {
                return None;
            }
            let t = infer_type_in(&a.value, column, agg)?;
            let family = family_name(&t)?;
            parts.push(match &a.name {
                Some(n) => format!("{} => <{family}>", n.text),
                None => format!("<{family}>"),
            });
        }
        Some(format!("{name}({})", parts.join(", ")))
    }
}
