//! The one place that reads YAML (`serde_yaml` is archived upstream; swap it here).
//! Also compiled into `build.rs`, which reads `rules/*.yaml`.

/// A YAML error with its 1-based line and column, when known.
#[derive(Debug)]
pub struct YamlError {
    /// What is wrong.
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

/// Deserializes `T` from YAML text.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| YamlError {
        message: e.to_string(),
        location: e.location().map(|l| (l.line(), l.column())),
    })
}
