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

/// Slots of the keyword hash table (a power of two, about 2.6 times the keyword count).
const TABLE_SIZE: usize = 2048;

/// FNV-1a over the ASCII-upper-cased bytes (the dialect stage's word table).
pub(crate) fn hash_upper(bytes: &[u8]) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= u32::from(b.to_ascii_uppercase());
        h = h.wrapping_mul(0x0100_0193);
    }
    h as usize
}

/// Every byte with bit 5 set: ASCII letters of both cases become one (lower case); digits and
/// `_` stay distinct.
const FOLD: u64 = 0x2020_2020_2020_2020;

/// The first `n` (at most 8) bytes of `bytes`, little-endian.
#[inline]
fn load(bytes: &[u8], n: usize) -> u64 {
    if n >= 8 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[..8]);
        return u64::from_le_bytes(word);
    }
    let mut value = 0u64;
    for (i, &b) in bytes[..n].iter().enumerate() {
        value |= u64::from(b) << (8 * i);
    }
    value
}

/// The hash of the keyword table: case-insensitive for ASCII letters, read eight bytes at a
/// time (the first eight and the last eight bytes, and the length), so that a word costs a
/// few instructions whatever its length. Words that differ only in the case of ASCII letters
/// hash alike; the look-up then compares the spellings.
#[inline]
fn keyword_hash(bytes: &[u8]) -> usize {
    let len = bytes.len();
    let head = load(bytes, len) | FOLD;
    let tail = if len > 8 {
        load(&bytes[len - 8..], 8) | FOLD
    } else {
        0
    };
    let h = (head ^ tail.rotate_left(29) ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 40) as usize
}

/// Open-addressing table from keyword hash to index into `KEYWORDS` (+1; 0 = empty).
fn table() -> &'static [u16; TABLE_SIZE] {
    static TABLE: std::sync::OnceLock<Box<[u16; TABLE_SIZE]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u16; TABLE_SIZE]);
        for (i, (name, _, _)) in KEYWORDS.iter().enumerate() {
            let mut slot = keyword_hash(name.as_bytes()) & (TABLE_SIZE - 1);
            while table[slot] != 0 {
                slot = (slot + 1) & (TABLE_SIZE - 1);
            }
            table[slot] = i as u16 + 1;
        }
        table
    })
}

/// The keyword `word` spells (ASCII case-insensitive), or [`Kw::NONE`].
pub fn classify(word: &str) -> Kw {
    let bytes = word.as_bytes();
    let len = bytes.len();
    if len == 0 || len > MAX_KEYWORD_LEN || !bytes[0].is_ascii_alphabetic() {
        return Kw::NONE;
    }
    let table = table();
    let mut slot = keyword_hash(bytes) & (TABLE_SIZE - 1);
    loop {
        let entry = table[slot];
        if entry == 0 {
            return Kw::NONE;
        }
        let (name, kw, _) = KEYWORDS[entry as usize - 1];
        if name.len() == len && name.as_bytes().eq_ignore_ascii_case(bytes) {
            return kw;
        }
        slot = (slot + 1) & (TABLE_SIZE - 1);
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

impl serde::Serialize for Kw {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
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
    fn every_keyword_is_found_in_any_case() {
        for (name, kw, _) in KEYWORDS.iter() {
            assert_eq!(classify(name), *kw, "{name}");
            assert_eq!(classify(&name.to_ascii_lowercase()), *kw, "{name}");
            let mixed: String = name
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    }
                })
                .collect();
            assert_eq!(classify(&mixed), *kw, "{name}");
            // One byte more or less, or `_` for a letter, is another word.
            let longer = format!("{name}X");
            assert_eq!(classify(&longer), classify_slow(&longer), "{name}");
            assert_eq!(
                classify(&name[..name.len() - 1]),
                classify_slow(&name[..name.len() - 1])
            );
        }
        for word in [
            "a_b",
            "A\u{e9}",
            "SELECT\u{e9}",
            "SELEC_",
            "_SELECT",
            "SELECT$",
            "A1",
        ] {
            assert_eq!(classify(word), classify_slow(word), "{word}");
        }
    }

    /// The keyword a word spells, by a scan of the table.
    fn classify_slow(word: &str) -> Kw {
        KEYWORDS
            .iter()
            .find(|(name, _, _)| name.eq_ignore_ascii_case(word))
            .map_or(Kw::NONE, |(_, kw, _)| *kw)
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
