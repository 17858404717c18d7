//! The one place that reads YAML (`serde_yaml` is archived upstream; swap it here).
//! Also compiled into `build.rs`, which reads `rules/*.yaml`.

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

/// Deserializes `T` from YAML text. An empty document (nothing but comments and blank lines)
/// deserializes as `None` for an `Option<T>`.
///
/// Errors: invalid YAML, or a value that does not fit `T` (the message names the key path,
/// the location points at the offending value).
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
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
