//! The one place that reads YAML (`serde_yaml` is archived upstream; swap it here).
//! Also compiled into `build.rs`, which reads `rules/*.yaml`.
//!
//! Before `serde_yaml` sees a text, [`check_limits`] bounds what would make it slow: libyaml's
//! scanner (under `serde_yaml`) walks its whole stack of possible simple keys, one entry per
//! open `[` or `{`, for every token it reads, so a text of nested flow collections costs the
//! square of its length (200 KB of `[` took 97 s before its error). Aliases are bounded too,
//! though `serde_yaml` already limits how often they are replayed.

/// A YAML error with its 1-based line and column, when known.
#[derive(Debug)]
pub struct YamlError {
    /// What is wrong (without the position; a path such as `overrides[0]: ` may lead it).
    pub message: String,
    /// 1-based line and column of the problem.
    pub location: Option<(usize, usize)>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.location {
            Some((line, column)) => write!(f, "{} (line {line}, column {column})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Deserializes `T` from YAML text, within the limits of [`check_limits`]. An empty document (nothing but comments and blank lines)
/// deserializes as `None` for an `Option<T>`.
///
/// Errors: invalid YAML, or a value that does not fit `T` (the message names the key path,
/// the location points at the offending value).
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    check_limits(text)?;
    serde_yaml::from_str(text).map_err(|e| {
        let location = e.location().map(|l| (l.line(), l.column()));
        let mut message = e.to_string();
        if let Some((line, column)) = location {
            // The position is reported apart; drop it from the text (serde_yaml puts it at the
            // end, or before the context of a syntax error).
            message = message.replacen(&format!(" at line {line} column {column}"), "", 1);
        }
        YamlError { message, location }
    })
}

/// How deep flow collections (`[...]`, `{...}`) may nest. `.flinklint.yaml` needs three levels
/// (`overrides: [{paths: [...]}]`).
pub const MAX_FLOW_DEPTH: usize = 32;

/// How many `[` and `{` characters a text may hold, wherever they are (in strings and comments
/// too): libyaml's cost per token grows with the open collections, and no open collection
/// can exist without its character, so this bounds the cost whatever the text.
pub const MAX_FLOW_OPENERS: usize = 1024;

/// How many aliases (`*name`) a text may use.
pub const MAX_ALIASES: usize = 100;

/// Checks `text` against [`MAX_FLOW_OPENERS`], [`MAX_FLOW_DEPTH`] and [`MAX_ALIASES`], in
/// time linear in its length, without parsing it: a scan that follows YAML's quoted and plain
/// scalars, comments and block scalars to tell a flow collection's `[` from one inside a string.
///
/// Errors: the first limit exceeded, located at the character that exceeds it.
pub fn check_limits(text: &str) -> Result<(), YamlError> {
    let b = text.as_bytes();
    if let Some((at, _)) = b
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, b'[' | b'{'))
        .nth(MAX_FLOW_OPENERS)
    {
        return Err(limit_error(
            text,
            at,
            format!(
                "more than {MAX_FLOW_OPENERS} `[` and `{{`; write long lists one item per line (`- item`)"
            ),
        ));
    }
    let mut depth = 0usize;
    let mut aliases = 0usize;
    let mut i = 0;
    while i < b.len() {
        let flow = depth > 0;
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => i = line_end(b, i),
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Err(limit_error(
                        text,
                        i,
                        format!("`[` and `{{` nested more than {MAX_FLOW_DEPTH} levels deep"),
                    ));
                }
                i += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b',' => i += 1,
            b'\'' => i = single_quoted_end(b, i + 1),
            b'"' => i = double_quoted_end(b, i + 1),
            b'*' | b'&' | b'!' => {
                if b[i] == b'*' {
                    aliases += 1;
                    if aliases > MAX_ALIASES {
                        return Err(limit_error(
                            text,
                            i,
                            format!("more than {MAX_ALIASES} aliases (`*name`)"),
                        ));
                    }
                }
                i = name_end(b, i + 1, flow);
            }
            b'-' | b'?' | b':' if ends_indicator(b, i + 1, flow) => i += 1,
            b'|' | b'>' if !flow => i = block_scalar_end(b, i),
            b'%' if i == 0 || b[i - 1] == b'\n' => i = line_end(b, i),
            _ => i = plain_end(b, i, flow),
        }
    }
    Ok(())
}

/// Whether the character at `i` ends an indicator (`-`, `?`, `:`): a blank, a line break, the
/// end, or in a flow collection a flow indicator.
fn ends_indicator(b: &[u8], i: usize, flow: bool) -> bool {
    match b.get(i) {
        None | Some(b' ' | b'\t' | b'\r' | b'\n') => true,
        Some(b',' | b'[' | b']' | b'{' | b'}') => flow,
        Some(_) => false,
    }
}

fn line_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| i + p)
}

/// The end of a single-quoted scalar whose text starts at `i` (`''` is a quote).
fn single_quoted_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if b[i] == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    b.len()
}

/// The end of a double-quoted scalar whose text starts at `i` (`\` escapes).
fn double_quoted_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The end of an anchor, alias or tag name starting at `i`.
fn name_end(b: &[u8], mut i: usize, flow: bool) -> usize {
    while i < b.len() && !ends_indicator(b, i, flow) {
        i += 1;
    }
    i
}

/// The end of a plain scalar starting at `i`: in a flow collection at a flow indicator, at
/// `: ` or at ` #` (line breaks continue it); outside, also at the end of the line.
fn plain_end(b: &[u8], mut i: usize, flow: bool) -> usize {
    while i < b.len() {
        match b[i] {
            b'\n' if !flow => return i,
            b',' | b'[' | b']' | b'{' | b'}' if flow => return i,
            b':' if ends_indicator(b, i + 1, flow) => return i,
            b' ' | b'\t' | b'\r' | b'\n' if b.get(i + 1) == Some(&b'#') => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The end of a block scalar (`|` or `>`) whose header is at `i`: the lines after it that are
/// blank or indented deeper than the header's line.
fn block_scalar_end(b: &[u8], i: usize) -> usize {
    let line_start = b[..i]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let indent = b[line_start..].iter().take_while(|&&c| c == b' ').count();
    let mut at = line_end(b, i);
    while at < b.len() {
        // `at` is a line break: look at the next line.
        let next = at + 1;
        let spaces = b[next..].iter().take_while(|&&c| c == b' ').count();
        let end = line_end(b, next);
        let blank = b[next + spaces..end].iter().all(|&c| c == b'\r');
        if !blank && spaces <= indent {
            return next;
        }
        at = end;
    }
    b.len()
}

/// A limit error at byte `at` of `text`.
fn limit_error(text: &str, at: usize, message: String) -> YamlError {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    YamlError {
        message,
        location: Some((line, column)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_is_refused_where_it_exceeds_the_limit() {
        let text = format!("target: {}", "[".repeat(200_000));
        let e = check_limits(&text).unwrap_err();
        assert!(e.message.contains("more than 1024"), "{}", e.message);
        assert_eq!(e.location, Some((1, 9 + MAX_FLOW_OPENERS)));
        let text = format!("a:\n  b: {}", "{x: ".repeat(40));
        let e = check_limits(&text).unwrap_err();
        assert!(e.message.contains("nested more than 32"), "{}", e.message);
        assert_eq!(e.location, Some((2, 6 + 4 * MAX_FLOW_DEPTH)));
    }

    #[test]
    fn brackets_in_strings_comments_and_block_scalars_do_not_nest() {
        let deep = "[".repeat(40);
        for text in [
            format!("a: '{deep}'\n"),
            format!("a: \"{deep}\\\"\"\n"),
            format!("a: x{deep}\n"),
            format!("# {deep}\na: 1\n"),
            format!("a: |\n  {deep}\n  {deep}\nb: [1]\n"),
            format!("a: [x {deep}"),
        ] {
            if text.starts_with("a: [x") {
                // In a flow collection, `[` ends a plain scalar and opens another.
                assert!(check_limits(&text).is_err(), "{text}");
            } else {
                assert!(check_limits(&text).is_ok(), "{text}");
            }
        }
    }

    #[test]
    fn ordinary_configurations_pass() {
        let text = "target: flink-2.3\nexclude: [\"a/[ab]*.sql\", 'it''s']\noverrides:\n  - {paths: [x], rules: {SY003: off}}\n  - paths:\n      - y\n    rules: &r {LK: warning}\n  - {paths: [z], rules: *r}\n";
        assert!(check_limits(text).is_ok());
    }

    #[test]
    fn aliases_are_counted() {
        let text = format!("a: &a x\nb: [{}]\n", "*a, ".repeat(MAX_ALIASES + 1));
        let e = check_limits(&text).unwrap_err();
        assert!(e.message.contains("aliases"), "{}", e.message);
    }
}
