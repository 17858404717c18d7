//! Keywords: case-insensitive lookup of Flink's keyword table and which words are reserved.
//!
//! The table ([`keywords_data`](super::keywords_data)) lists the 782 keywords of Flink 2.3.0's
//! parser as measured by running Flink (`flink-keywords.tsv`): a reserved keyword cannot be an
//! unquoted name; 18 reserved words are niladic functions that still parse bare in a select
//! list (`USER`, `CURRENT_DATE`, ...).

pub use super::keywords_data::Kw;
use super::keywords_data::{BARE_FUNCTION, KEYWORDS, RESERVED};

/// Longest keyword, in bytes.
const MAX_KEYWORD_LEN: usize = 32;

/// The keyword `word` spells (ASCII case-insensitive), or [`Kw::NONE`].
pub fn classify(word: &str) -> Kw {
    let bytes = word.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_KEYWORD_LEN || !bytes[0].is_ascii_alphabetic() {
        return Kw::NONE;
    }
    let mut buf = [0u8; MAX_KEYWORD_LEN];
    for (dst, src) in buf.iter_mut().zip(bytes) {
        *dst = src.to_ascii_uppercase();
    }
    let upper = &buf[..bytes.len()];
    match KEYWORDS.binary_search_by(|(name, _, _)| name.as_bytes().cmp(upper)) {
        Ok(i) => KEYWORDS[i].1,
        Err(_) => Kw::NONE,
    }
}

fn flags(kw: Kw) -> u8 {
    if kw == Kw::NONE {
        return 0;
    }
    // `Kw` discriminants follow the sorted table, offset by `NONE`.
    KEYWORDS[kw as usize - 1].2
}

impl Kw {
    /// Whether Flink 2.3.0 rejects this keyword as an unquoted name (table, column, alias).
    pub fn is_reserved(self) -> bool {
        flags(self) & RESERVED != 0
    }
    /// Whether this reserved keyword is a niladic function that parses bare as an expression.
    pub fn is_bare_function(self) -> bool {
        flags(self) & BARE_FUNCTION != 0
    }
    /// The keyword's canonical (upper-case) spelling; empty for `NONE`.
    pub fn as_str(self) -> &'static str {
        if self == Kw::NONE {
            ""
        } else {
            KEYWORDS[self as usize - 1].0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_aligned_with_the_enum() {
        for (i, (name, kw, _)) in KEYWORDS.iter().enumerate() {
            assert_eq!(*kw as usize, i + 1, "{name}");
            if i > 0 {
                assert!(KEYWORDS[i - 1].0 < *name);
            }
        }
    }

    #[test]
    fn classifies_case_insensitively() {
        assert_eq!(classify("select"), Kw::SELECT);
        assert_eq!(classify("Watermark"), Kw::WATERMARK);
        assert_eq!(classify("$rowtime"), Kw::NONE);
        assert_eq!(classify("orders"), Kw::NONE);
        assert!(Kw::TIMESTAMP.is_reserved());
        assert!(Kw::VALUE.is_reserved());
        assert!(!Kw::METADATA.is_reserved());
        assert!(Kw::USER.is_bare_function());
        assert_eq!(Kw::START_MODE.as_str(), "START_MODE");
    }
}

impl serde::Serialize for Kw {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
