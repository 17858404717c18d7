//! Expressions as Flink 2.3's `SHOW CREATE TABLE` prints computed columns and watermarks
//! (`flink-expressions.tsv`): identifiers backticked, keywords and standard functions
//! upper-cased, Flink-catalog functions backticked, `CAST(x AS INT)` as `CAST(`x` AS INTEGER)`,
//! simple CASE and `NULLIF` as searched CASE, `BETWEEN ASYMMETRIC`, `TRIM(BOTH ' ' FROM ...)`,
//! and only the parentheses precedence needs.
//!
//! Known gap: Flink fully qualifies user-defined catalog functions and backticks the names of
//! its newer built-in functions; flinklint backticks only the ones verified
//! ([`BACKTICKED_FUNCTIONS`]) and prints other unknown functions upper-cased.

use super::names::quote;
use crate::syntax::ast::*;

/// Built-in functions that Flink 2.3 prints as catalog functions, in backticks (verified:
/// `flink-expressions.tsv`).
pub const BACKTICKED_FUNCTIONS: &[&str] = &["TO_TIMESTAMP_LTZ", "SOURCE_WATERMARK"];

/// Binding strength used to decide parentheses (higher binds tighter).
fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary { op, .. } => op.precedence() * 2,
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => 5,
        ExprKind::Is { .. }
        | ExprKind::IsDistinctFrom { .. }
        | ExprKind::Between { .. }
        | ExprKind::InList { .. }
        | ExprKind::InSubquery { .. }
        | ExprKind::Like { .. } => 8,
        ExprKind::Unary { .. } => 18,
        ExprKind::Nested(inner) => precedence(inner),
        _ => 20,
    }
}

/// Renders an expression as Flink prints it.
pub fn render(e: &Expr) -> String {
    let mut out = String::new();
    write(e, &mut out);
    out
}

fn child(e: &Expr, min: u8, out: &mut String) {
    let e = strip(e);
    if precedence(e) < min {
        out.push('(');
        write(e, out);
        out.push(')');
    } else {
        write(e, out);
    }
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Nested(inner) => strip(inner),
        _ => e,
    }
}

fn write(e: &Expr, out: &mut String) {
    match &e.kind {
        ExprKind::Identifier(name) => {
            let parts: Vec<String> = name.parts.iter().map(|p| quote(&p.text)).collect();
            out.push_str(&parts.join("."));
        }
        ExprKind::Literal(lit) => literal(lit, out),
        ExprKind::Nested(inner) => write(inner, out),
        ExprKind::DatetimeInterval { expr, qualifier } => {
            out.push('(');
            write(expr, out);
            out.push_str(") ");
            out.push_str(&qualifier.render());
        }
        ExprKind::Unary { op, expr } => {
            out.push_str(match op {
                UnaryOp::Not => "NOT ",
                UnaryOp::Minus => "- ",
                UnaryOp::Plus => "+ ",
            });
            child(expr, precedence(e), out);
        }
        ExprKind::Binary { op, left, right } => {
            let p = precedence(e);
            child(left, p, out);
            out.push(' ');
            out.push_str(op.as_str());
            out.push(' ');
            // Left-associative: a right child of the same precedence needs parentheses.
            child(right, p + 1, out);
        }
        ExprKind::Is {
            expr,
            negated,
            test,
        } => {
            child(expr, 9, out);
            out.push_str(if *negated { " IS NOT " } else { " IS " });
            out.push_str(test);
        }
        ExprKind::IsDistinctFrom {
            left,
            right,
            negated,
        } => {
            child(left, 9, out);
            out.push_str(if *negated {
                " IS NOT DISTINCT FROM "
            } else {
                " IS DISTINCT FROM "
            });
            child(right, 9, out);
        }
        ExprKind::Between {
            expr,
            negated,
            symmetric,
            low,
            high,
        } => {
            child(expr, 9, out);
            out.push_str(if *negated {
                " NOT BETWEEN "
            } else {
                " BETWEEN "
            });
            out.push_str(if *symmetric {
                "SYMMETRIC "
            } else {
                "ASYMMETRIC "
            });
            child(low, 9, out);
            out.push_str(" AND ");
            child(high, 9, out);
        }
        ExprKind::InList {
            expr,
            negated,
            list,
        } => {
            child(expr, 9, out);
            out.push_str(if *negated { " NOT IN (" } else { " IN (" });
            comma(list, out);
            out.push(')');
        }
        ExprKind::Like {
            expr,
            negated,
            operator,
            pattern,
            escape,
        } => {
            child(expr, 9, out);
            out.push(' ');
            if *negated {
                out.push_str("NOT ");
            }
            out.push_str(operator);
            out.push(' ');
            child(pattern, 9, out);
            if let Some(esc) = escape {
                out.push_str(" ESCAPE ");
                child(esc, 9, out);
            }
        }
        ExprKind::Case {
            operand,
            whens,
            else_result,
        } => {
            out.push_str("CASE");
            for (cond, result) in whens {
                out.push_str(" WHEN ");
                match operand {
                    Some(op) => {
                        child(op, 9, out);
                        out.push_str(" = ");
                        child(cond, 9, out);
                    }
                    None => write(strip(cond), out),
                }
                out.push_str(" THEN ");
                write(strip(result), out);
            }
            out.push_str(" ELSE ");
            match else_result {
                Some(r) => write(strip(r), out),
                None => out.push_str("NULL"),
            }
            out.push_str(" END");
        }
        ExprKind::Cast {
            expr,
            data_type,
            try_cast,
        } => {
            out.push_str(if *try_cast { "TRY_CAST(" } else { "CAST(" });
            write(strip(expr), out);
            out.push_str(" AS ");
            out.push_str(&cast_type(data_type));
            out.push(')');
        }
        ExprKind::Function(call) => function(call, out),
        ExprKind::NiladicFunction(name) => out.push_str(name),
        ExprKind::Row(items) => {
            out.push_str("ROW(");
            comma(items, out);
            out.push(')');
        }
        ExprKind::Array(items) => {
            out.push_str("ARRAY[");
            comma(items, out);
            out.push(']');
        }
        ExprKind::Map(items) => {
            out.push_str("MAP[");
            comma(items, out);
            out.push(']');
        }
        ExprKind::Item { expr, index } => {
            child(expr, 20, out);
            out.push('[');
            write(strip(index), out);
            out.push(']');
        }
        ExprKind::Field { expr, field } => {
            child(expr, 20, out);
            out.push('.');
            out.push_str(&quote(&field.text));
        }
        ExprKind::TimeUnit(unit) | ExprKind::Keyword(unit) => out.push_str(unit),
        ExprKind::Star => out.push('*'),
        _ => out.push_str("..."),
    }
}

fn comma(items: &[Expr], out: &mut String) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write(strip(item), out);
    }
}

fn literal(lit: &Literal, out: &mut String) {
    match lit {
        Literal::Number(n) => out.push_str(&n.to_ascii_uppercase()),
        Literal::String(s) => string(&s.value, out),
        Literal::Binary(s) => {
            out.push('X');
            string(&binary_digits(&s.value), out);
        }
        Literal::Boolean(b) => out.push_str(if *b { "TRUE" } else { "FALSE" }),
        Literal::Null => out.push_str("NULL"),
        Literal::Unknown => out.push_str("UNKNOWN"),
        Literal::Typed { type_name, value } => {
            out.push_str(type_name);
            out.push(' ');
            string(&value.value, out);
        }
        Literal::Interval {
            negative,
            value,
            qualifier,
        } => {
            out.push_str("INTERVAL ");
            if *negative {
                out.push('-');
            }
            string(&value.value, out);
            out.push(' ');
            out.push_str(&qualifier.render());
        }
    }
}

/// The hexadecimal digits of a binary literal as Calcite prints them (upper case, no spaces).
fn binary_digits(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn string(value: &str, out: &mut String) {
    out.push('\'');
    out.push_str(&value.replace('\'', "''"));
    out.push('\'');
}

/// A type inside CAST, as Calcite unparses it: `INT` becomes `INTEGER`, other spellings kept.
fn cast_type(t: &DataType) -> String {
    let base = match &t.kind {
        TypeKind::Int => "INTEGER".to_string(),
        TypeKind::String => "STRING".to_string(),
        TypeKind::Bytes => "BYTES".to_string(),
        TypeKind::Timestamp(p, TimeZoneKind::Local) => match p {
            Some(p) => format!("TIMESTAMP_LTZ({p})"),
            None => "TIMESTAMP_LTZ".to_string(),
        },
        TypeKind::VarChar(Some(n)) => format!("VARCHAR({n})"),
        TypeKind::Char(Some(n)) => format!("CHAR({n})"),
        TypeKind::Decimal(Some(p), Some(s)) => format!("DECIMAL({p}, {s})"),
        TypeKind::Decimal(Some(p), None) => format!("DECIMAL({p})"),
        TypeKind::Timestamp(Some(p), _) => format!("TIMESTAMP({p})"),
        TypeKind::Time(Some(p)) => format!("TIME({p})"),
        _ => super::types::Type::from_ast(t).with_nullable(true).render(),
    };
    base
}

fn function(call: &FunctionCall, out: &mut String) {
    let upper = call.name.last().text.to_ascii_uppercase();
    let unqualified = call.name.parts.len() == 1;
    if unqualified && upper == "NULLIF" && call.args.len() == 2 {
        out.push_str("CASE WHEN ");
        child(&call.args[0].value, 9, out);
        out.push_str(" = ");
        child(&call.args[1].value, 9, out);
        out.push_str(" THEN NULL ELSE ");
        write(strip(&call.args[0].value), out);
        out.push_str(" END");
        return;
    }
    // Calcite's date-part functions expand to EXTRACT (`YEAR(dt)` is shown as
    // `EXTRACT(YEAR FROM `dt`)` by Flink 2.3).
    if unqualified
        && call.args.len() == 1
        && call.args[0].keyword.is_none()
        && matches!(
            upper.as_str(),
            "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "HOUR" | "MINUTE" | "SECOND"
        )
    {
        out.push_str("EXTRACT(");
        out.push_str(&upper);
        out.push_str(" FROM ");
        write(strip(&call.args[0].value), out);
        out.push(')');
        return;
    }
    if unqualified && upper == "TRIM" {
        let mut side = "BOTH";
        let mut chars: Option<&Expr> = None;
        let mut source: Option<&Expr> = None;
        for a in &call.args {
            match &a.value.kind {
                ExprKind::Keyword(k) if matches!(k.as_str(), "BOTH" | "LEADING" | "TRAILING") => {
                    side = if k == "BOTH" {
                        "BOTH"
                    } else if k == "LEADING" {
                        "LEADING"
                    } else {
                        "TRAILING"
                    }
                }
                _ if a.keyword.as_deref() == Some("FROM") => source = Some(&a.value),
                _ => {
                    if chars.is_none() && source.is_none() {
                        chars = Some(&a.value);
                    }
                }
            }
        }
        if source.is_none() {
            source = chars.take();
        }
        out.push_str("TRIM(");
        out.push_str(side);
        out.push(' ');
        match chars {
            Some(c) => write(strip(c), out),
            None => out.push_str("' '"),
        }
        out.push_str(" FROM ");
        if let Some(s) = source {
            write(strip(s), out);
        }
        out.push(')');
        return;
    }
    if unqualified && BACKTICKED_FUNCTIONS.contains(&upper.as_str()) {
        out.push_str(&quote(&upper));
    } else if unqualified {
        out.push_str(&upper);
    } else {
        let parts: Vec<String> = call.name.parts.iter().map(|p| quote(&p.text)).collect();
        out.push_str(&parts.join("."));
    }
    out.push('(');
    if call.distinct {
        out.push_str("DISTINCT ");
    }
    if call.star {
        out.push('*');
    }
    let special = matches!(
        upper.as_str(),
        "EXTRACT" | "FLOOR" | "CEIL" | "POSITION" | "OVERLAY"
    );
    for (i, a) in call.args.iter().enumerate() {
        match a.keyword.as_deref() {
            Some(k) if special && i > 0 => {
                out.push(' ');
                out.push_str(k);
                out.push(' ');
            }
            _ if i > 0 => out.push_str(", "),
            _ => {}
        }
        write(strip(&a.value), out);
    }
    out.push(')');
}
