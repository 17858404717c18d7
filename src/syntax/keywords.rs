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

/// The first `bytes.len()` (at most 8) bytes of `bytes`, little-endian, zero-padded: two
/// overlapping loads of four (or two) bytes instead of a byte loop.
#[inline]
fn load_short(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 8 {
        return load8(bytes);
    }
    if n >= 4 {
        let lo = u64::from(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        let hi = u64::from(u32::from_le_bytes([
            bytes[n - 4],
            bytes[n - 3],
            bytes[n - 2],
            bytes[n - 1],
        ]));
        return lo | (hi << (8 * (n - 4)));
    }
    if n >= 2 {
        let lo = u64::from(u16::from_le_bytes([bytes[0], bytes[1]]));
        let hi = u64::from(u16::from_le_bytes([bytes[n - 2], bytes[n - 1]]));
        return lo | (hi << (8 * (n - 2)));
    }
    bytes.first().map_or(0, |&b| u64::from(b))
}

/// The first eight bytes of `bytes` (at least eight long), little-endian.
#[inline]
fn load8(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

/// The hash of the keyword table from a word's first eight bytes (`head`, zero-padded), its
/// last eight bytes (`tail`, 0 when it is not longer than eight) and its length, case-folded
/// for ASCII letters: a few instructions whatever the word's length. Words that differ only in
/// the case of ASCII letters hash alike.
#[inline]
const fn keyword_hash(head: u64, tail: u64, len: usize) -> usize {
    let h = ((head | FOLD) ^ (tail | FOLD).rotate_left(29) ^ len as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 40) as usize
}

/// The first and last eight bytes of `bytes` as [`keyword_hash`] and the comparison read them
/// (the last is 0 for a word of at most eight bytes).
#[inline]
fn head_tail(bytes: &[u8]) -> (u64, u64) {
    let len = bytes.len();
    if len > 8 {
        (load8(bytes), load8(&bytes[len - 8..]))
    } else {
        (load_short(bytes), 0)
    }
}

/// [`head_tail`] at compile time, for the table.
const fn head_tail_const(bytes: &[u8]) -> (u64, u64) {
    const fn load(bytes: &[u8], from: usize, n: usize) -> u64 {
        let mut value = 0u64;
        let mut i = 0;
        while i < n {
            value |= (bytes[from + i] as u64) << (8 * i);
            i += 1;
        }
        value
    }
    let len = bytes.len();
    if len > 8 {
        (load(bytes, 0, 8), load(bytes, len - 8, 8))
    } else {
        (load(bytes, 0, len), 0)
    }
}

/// One slot of the keyword table: the keyword's first and last eight bytes upper-cased, each
/// with a mask that clears the case bit of its letters (and keeps every bit of digits, `_` and
/// the zero padding), so that a word matches when `word & mask == keyword`, one compare per
/// eight bytes.
#[derive(Clone, Copy)]
struct Slot {
    head: u64,
    head_mask: u64,
    tail: u64,
    tail_mask: u64,
    /// The spelling, for the bytes between the first and last eight of a longer keyword.
    name: &'static [u8],
    /// The keyword's length; 0 for an empty slot.
    len: u8,
    kw: Kw,
}

const EMPTY: Slot = Slot {
    head: 0,
    head_mask: 0,
    tail: 0,
    tail_mask: 0,
    name: b"",
    len: 0,
    kw: Kw::NONE,
};

/// The mask of [`Slot`] for the eight bytes `word`: `0xDF` for an ASCII letter, `0xFF` for
/// any other byte.
const fn case_mask(word: u64) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < 8 {
        let b = (word >> (8 * i)) as u8;
        let m: u64 = if b.is_ascii_alphabetic() { 0xDF } else { 0xFF };
        mask |= m << (8 * i);
        i += 1;
    }
    mask
}

/// Open-addressing table of keywords by [`keyword_hash`], the comparison data in the slot;
/// built at compile time.
static TABLE: [Slot; TABLE_SIZE] = {
    let mut table = [EMPTY; TABLE_SIZE];
    let mut i = 0;
    while i < KEYWORDS.len() {
        let (name, kw, _) = KEYWORDS[i];
        let bytes = name.as_bytes();
        let (head, tail) = head_tail_const(bytes);
        let mut slot = keyword_hash(head, tail, bytes.len()) & (TABLE_SIZE - 1);
        while table[slot].len != 0 {
            slot = (slot + 1) & (TABLE_SIZE - 1);
        }
        table[slot] = Slot {
            head,
            head_mask: case_mask(head),
            tail,
            tail_mask: case_mask(tail),
            name: bytes,
            len: bytes.len() as u8,
            kw,
        };
        i += 1;
    }
    table
};

/// The keyword `word` spells (ASCII case-insensitive), or [`Kw::NONE`].
pub fn classify(word: &str) -> Kw {
    classify_bytes(word.as_bytes())
}

/// [`classify`] of a word's bytes.
#[inline]
fn classify_bytes(bytes: &[u8]) -> Kw {
    let len = bytes.len();
    if len == 0 || len > MAX_KEYWORD_LEN || !bytes[0].is_ascii_alphabetic() {
        return Kw::NONE;
    }
    let (head, tail) = head_tail(bytes);
    probe(head, tail, len, |name| middle_equal(name, bytes))
}

/// The keyword of the table whose length, first and last eight bytes are those of a word
/// (`head`, `tail`: [`head_tail`]), the bytes between them compared by `middle` for a word
/// longer than sixteen bytes; [`Kw::NONE`] when there is none.
#[inline(always)]
fn probe(head: u64, tail: u64, len: usize, middle: impl Fn(&[u8]) -> bool) -> Kw {
    let mut slot = keyword_hash(head, tail, len) & (TABLE_SIZE - 1);
    loop {
        let entry = &TABLE[slot];
        if entry.len == 0 {
            return Kw::NONE;
        }
        if usize::from(entry.len) == len
            && head & entry.head_mask == entry.head
            && tail & entry.tail_mask == entry.tail
            && (len <= 16 || middle(entry.name))
        {
            return entry.kw;
        }
        slot = (slot + 1) & (TABLE_SIZE - 1);
    }
}

/// [`classify_bytes`] of the word `text[start..end]` (ASCII word characters starting with a
/// letter or `$`), for the lexer's loop: its first eight bytes are read from `text` in one
/// load and masked to the word's length (no branches on the length) when `text` has eight
/// bytes from `start`, as it has for all but its last words. `$` starts no keyword, and the
/// table's compare tells it apart as it does any other byte.
#[inline(always)]
pub(crate) fn classify_at(text: &[u8], start: usize, end: usize) -> Kw {
    let len = end - start;
    if len > MAX_KEYWORD_LEN {
        return Kw::NONE;
    }
    let head = match text.get(start..start + 8) {
        // `len` is at least one: the shift is at most 56.
        Some(eight) => load8(eight) & (u64::MAX >> (8 * (8 - len.min(8)))),
        None => load_short(&text[start..end]),
    };
    let tail = if len > 8 { load8(&text[end - 8..]) } else { 0 };
    probe(head, tail, len, |name| {
        middle_equal_at(name, text, start, end)
    })
}

/// [`middle_equal`] of the word `text[start..end]`: the word sliced out of line (the bounds
/// checks of the slice are not paid by every word of the lexer's loop).
#[inline(never)]
fn middle_equal_at(name: &[u8], text: &[u8], start: usize, end: usize) -> bool {
    text.get(start..end)
        .is_some_and(|bytes| middle_equal(name, bytes))
}

/// Whether the bytes of a word longer than sixteen bytes between its first and last eight
/// (already compared) spell those of `name` (of the same length), ASCII case-insensitive.
/// Out of line: few words are that long, and the lexer's loop keeps its registers.
#[inline(never)]
fn middle_equal(name: &[u8], bytes: &[u8]) -> bool {
    let end = bytes.len() - 8;
    name.get(8..end)
        .zip(bytes.get(8..end))
        .is_some_and(|(a, b)| a.iter().zip(b).all(|(x, y)| x.eq_ignore_ascii_case(y)))
}

#[inline]
fn flags(kw: Kw) -> u8 {
    if kw == Kw::NONE {
        return 0;
    }
    // `Kw` discriminants follow the sorted table, offset by `NONE`.
    KEYWORDS[kw as usize - 1].2
}

impl Kw {
    /// Whether Flink 2.3.0 rejects this keyword as an unquoted name (table, column, alias).
    #[inline]
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
    fn classify_at_agrees_with_classify_in_any_context() {
        let mut words: Vec<String> = KEYWORDS.iter().map(|(n, _, _)| n.to_string()).collect();
        words.extend(KEYWORDS.iter().map(|(n, _, _)| n.to_ascii_lowercase()));
        words.extend(KEYWORDS.iter().map(|(n, _, _)| format!("{n}X")));
        words.extend(
            KEYWORDS
                .iter()
                .map(|(n, _, _)| n[..n.len() - 1].to_string()),
        );
        words.extend(
            ["$a", "$", "SELECT$", "a1", "x", "select_", &"A".repeat(40)].map(String::from),
        );
        for word in &words {
            for (before, after) in [
                ("", ""),
                ("", " a, b"),
                ("x ", ""),
                ("(", ")\n  longer tail"),
            ] {
                let text = format!("{before}{word}{after}");
                let start = before.len();
                assert_eq!(
                    classify_at(text.as_bytes(), start, start + word.len()),
                    classify(word),
                    "{text:?}"
                );
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
