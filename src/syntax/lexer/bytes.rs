//! The byte loop's readers: whitespace, words, quoted text and the punctuation of one or two
//! ASCII characters, eight bytes at a time where they can be.

use super::TokenKind;

/// The end of the run of ASCII whitespace from `from` (a whitespace byte, the run's second,
/// which the caller has read):
/// a line break and its indentation, read eight bytes at a time, spaces counted with one
/// compare. Out of line, so that the byte loop does not hold its constants in registers.
#[inline(never)]
pub(super) fn space_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        // `bytes[i]` is whitespace (the caller read `bytes[from]`).
        if i + 8 <= bytes.len() {
            // The spaces from `i` (none when `bytes[i]` is another whitespace byte).
            let other = nonzero_bytes(load8(bytes, i) ^ (ONES * u64::from(b' ')));
            let spaces = if other == 0 {
                8
            } else {
                (other.trailing_zeros() / 8) as usize
            };
            i += spaces.max(1);
        } else {
            i += 1;
        }
        match bytes.get(i) {
            Some(&b) if CLASS[b as usize] & SPACE != 0 => {}
            _ => return i,
        }
    }
}

/// Bit 7 of every byte of `x` that is not zero, exactly (no borrow between bytes).
#[inline]
fn nonzero_bytes(x: u64) -> u64 {
    (((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// Words and quoted names of the byte loop at most this many bytes long never have a lexical
/// error: a name is too long past 256 characters (Calcite `identifierMaxLength`); an empty
/// quoted name is reported, and the byte loop reads none.
pub(super) const MAX_PLAIN_TOKEN: usize = 256;

/// Every byte 0x01.
const ONES: u64 = 0x0101_0101_0101_0101;
/// Every byte 0x80.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `at` (which has eight bytes after it), little-endian.
#[inline]
fn load8(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The end of the run of ASCII word characters (letters, digits, `_`, `$`) from `from`:
/// eight bytes at a time while eight are left (one bounds check for eight look-ups), then a
/// byte at a time.
#[inline]
pub(super) fn word_end(bytes: &[u8], from: usize) -> usize {
    let mut end = from;
    while let Some(chunk) = bytes.get(end..end + 8) {
        for (k, &b) in chunk.iter().enumerate() {
            if CLASS[b as usize] & WORD == 0 {
                return end + k;
            }
        }
        end += 8;
    }
    while end < bytes.len() && CLASS[bytes[end] as usize] & WORD != 0 {
        end += 1;
    }
    end
}

/// The first byte at or after `from` that is `a` or `b`, eight bytes at a time.
#[inline]
pub(crate) fn find_either(bytes: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    let mut i = from;
    while i + 8 <= bytes.len() {
        let x = load8(bytes, i);
        let found = zero_bytes(x ^ (ONES * u64::from(a))) | zero_bytes(x ^ (ONES * u64::from(b)));
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes[i..]
        .iter()
        .position(|&c| c == a || c == b)
        .map(|k| i + k)
}

/// Bit 7 of the lowest zero byte of `x` set (and possibly bits above it, never below): the
/// lowest set bit marks the first zero byte.
#[inline]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// [`CLASS`] bit: ASCII whitespace the lexer skips (` `, tab, line feed, carriage return,
/// form feed).
pub(super) const SPACE: u8 = 1;
/// [`CLASS`] bit: an ASCII character that continues a word (letter, digit, `_`, `$`).
const WORD: u8 = 2;
/// [`CLASS`] bit: an ASCII character that starts a word the byte loop reads (letter, `$`).
pub(super) const WORD_START: u8 = 4;
/// [`CLASS`] bit: a byte after a word that may make it another token (`'`, `&`: `X'..'`,
/// `U&'..'`) or continue it (non-ASCII): one test of the byte after every word.
const WORD_STOP: u8 = 8;

/// The class bits of each byte value, for the byte loop of [`lex`](super::lex).
pub(super) static CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0c) {
            class[b] = SPACE;
        } else if c.is_ascii_alphabetic() || c == b'$' {
            class[b] = WORD | WORD_START;
        } else if c.is_ascii_digit() || c == b'_' {
            class[b] = WORD;
        } else if c >= 0x80 || c == b'\'' || c == b'&' {
            class[b] = WORD_STOP;
        }
        b += 1;
    }
    class
};

/// The end of the word at `pos` (which starts with an ASCII letter or `$`) if the byte loop
/// reads it: `None` when `logos` could match a longer token there (the word is followed by a
/// non-ASCII character, which may continue it, or is one letter followed by `'` or `&`: `X'..'`,
/// `N'..'`, `E'..'`, `U&'..'` literals).
#[inline(always)]
pub(super) fn word_at(bytes: &[u8], pos: usize) -> Option<usize> {
    let end = word_end(bytes, pos + 1);
    match bytes.get(end) {
        Some(&n) if CLASS[n as usize] & WORD_STOP != 0 => {
            if n >= 0x80 || end == pos + 1 {
                None
            } else {
                Some(end)
            }
        }
        _ => Some(end),
    }
}

/// The punctuation of each byte that is a token of one character whatever follows it (`(`,
/// `)`, `,`, `;`, ...), `None` for every other byte: the byte loop reads these with one
/// look-up and a predictable branch, ahead of the `match` of [`fast_token`] (whose jump table
/// is an indirect branch, often mispredicted).
pub(super) static SINGLE: [Option<TokenKind>; 256] = {
    let mut single = [None; 256];
    single[b'(' as usize] = Some(TokenKind::LParen);
    single[b')' as usize] = Some(TokenKind::RParen);
    single[b',' as usize] = Some(TokenKind::Comma);
    single[b';' as usize] = Some(TokenKind::Semicolon);
    single[b'[' as usize] = Some(TokenKind::LBracket);
    single[b']' as usize] = Some(TokenKind::RBracket);
    single[b'}' as usize] = Some(TokenKind::RBrace);
    single[b'+' as usize] = Some(TokenKind::Plus);
    single[b'*' as usize] = Some(TokenKind::Star);
    single[b'%' as usize] = Some(TokenKind::Percent);
    single[b'^' as usize] = Some(TokenKind::Caret);
    single[b'?' as usize] = Some(TokenKind::Question);
    single[b'&' as usize] = Some(TokenKind::Ampersand);
    single
};

/// The token at `pos`, not a word (words are read by [`word_at`]), if it is one the byte loop
/// of [`lex`](super::lex) reads (its kind and end), `None` for input left to `logos`. The
/// token is the one `logos` would match there: a word starting with `_` may be a
/// `_charset'..'` literal; an integer is not followed by `.`, `e` or `E` (a decimal); a `.`
/// is not followed by a digit (`.5`); a string or a quoted name is closed (an unterminated
/// one, an empty name and a name with a carriage return are left to `logos`); `-` is not
/// followed by `}`, `>` or a non-ASCII character (`-}`, `->`, a typographic-dash comment);
/// `/*` (a comment or hint) and every other character (`"`, `#`, `!`, non-ASCII text, and
/// letters, should they come here) are left to `logos`.
#[inline]
pub(super) fn fast_token(bytes: &[u8], pos: usize) -> Option<(TokenKind, usize, bool)> {
    let b = bytes[pos];
    // Read only by the arms of characters that may start a token of two (not ahead of the
    // match: words, the most frequent tokens, do not need it).
    let next = || bytes.get(pos + 1).copied();
    let single = |kind| Some((kind, pos + 1, false));
    let pair = |kind| Some((kind, pos + 2, false));
    match b {
        b'0'..=b'9' => {
            let mut end = pos + 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            match bytes.get(end) {
                Some(b'.' | b'e' | b'E') => None,
                _ => Some((TokenKind::Integer, end, false)),
            }
        }
        b'\'' => {
            // To the closing quote, `''` being a quote inside; an unterminated string is left
            // to `logos`. Whether a `''` was passed is the token's `doubled`.
            let mut from = pos + 1;
            let mut doubled = false;
            loop {
                let at = find_either(bytes, from, b'\'', b'\'')?;
                if bytes.get(at + 1) == Some(&b'\'') {
                    from = at + 2;
                    doubled = true;
                    continue;
                }
                return Some((TokenKind::String, at + 1, doubled));
            }
        }
        b'`' => {
            // To the closing backtick on the same line, `` `` `` being one inside; an
            // unterminated or empty name is left to `logos` and the lexical pass.
            let mut from = pos + 1;
            let mut doubled = false;
            loop {
                let at = find_either(bytes, from, b'`', b'\n')?;
                match (bytes[at], bytes.get(at + 1)) {
                    (b'`', Some(b'`')) => {
                        from = at + 2;
                        doubled = true;
                    }
                    (b'`', _) if at > pos + 1 && !bytes[pos + 1..at].contains(&b'\r') => {
                        return Some((TokenKind::QuotedIdent, at + 1, doubled))
                    }
                    _ => return None,
                }
            }
        }
        b'-' => match next() {
            Some(b'-') => {
                let end = find_either(bytes, pos + 2, b'\n', b'\r').unwrap_or(bytes.len());
                Some((TokenKind::LineComment, end, false))
            }
            // `-}`, `->`, and a typographic dash after `-` (a comment) are left to `logos`.
            Some(b'}' | b'>') => None,
            Some(n) if n >= 0x80 => None,
            _ => single(TokenKind::Minus),
        },
        b'/' => match next() {
            Some(b'/') => {
                let end = find_either(bytes, pos + 2, b'\n', b'\r').unwrap_or(bytes.len());
                Some((TokenKind::LineComment, end, false))
            }
            Some(b'*') => None,
            _ => single(TokenKind::Slash),
        },
        b'=' => match next() {
            Some(b'>') => pair(TokenKind::FatArrow),
            _ => single(TokenKind::Eq),
        },
        b'<' => match next() {
            Some(b'=') => pair(TokenKind::LtEq),
            Some(b'>') => pair(TokenKind::NotEq),
            _ => single(TokenKind::Lt),
        },
        b'>' => match next() {
            Some(b'=') => pair(TokenKind::GtEq),
            _ => single(TokenKind::Gt),
        },
        b':' => match next() {
            Some(b':') => pair(TokenKind::DoubleColon),
            _ => single(TokenKind::Colon),
        },
        b'|' => match next() {
            Some(b'|') => pair(TokenKind::Concat),
            _ => single(TokenKind::Pipe),
        },
        b'.' => match next() {
            Some(b'0'..=b'9') => None,
            _ => single(TokenKind::Dot),
        },
        b'{' => match next() {
            Some(b'-') => pair(TokenKind::LBraceMinus),
            _ => single(TokenKind::LBrace),
        },
        _ => SINGLE[usize::from(b)].and_then(single),
    }
}
