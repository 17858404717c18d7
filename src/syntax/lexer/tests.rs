//! The byte loop of [`lex`](super::lex) against the `logos` state machine alone.

use super::*;

/// Every token from the `logos` state machine alone: what [`lex`] must equal.
fn lex_logos_only(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut lexer = TokenKind::lexer(text);
    while let Some(result) = lexer.next() {
        push_merging_unknown(&mut tokens, logos_token(text, &mut lexer, result));
    }
    tokens
}

#[test]
fn byte_loop_matches_logos() {
    let cases = [
        "SELECT a, b FROM t WHERE x = 1;",
        "x'0A' X'0a' n'a' N'b' e'c' E'd' u&'\\0041' U&'x' _utf8'x' _latin1.x'y' _a 'b'",
        "x 'a' xy'b' u &'c' u& 'd' a&b ab&'c' $a $ $1 a$b a_b _ __ _9",
        "1 12 1.5 1. .5 1e3 1E-3 1e 1ex 12e+ 1_000 123abc 1..2 9.e2",
        "caf\u{e9} \u{e9}t\u{e9} a\u{e9}' x\u{e9}'a' n\u{301}'a' a\u{2013}b 1\u{e9}",
        "( ) , ; [ ] { } {- -} + * % ^ ? & | || :: : = => -> <> != < <= > >= / // -- c\n/* c */ /*+ h */",
        "a\u{FEFF}b \u{FEFF}\u{FEFF} \u{2018}q\u{2019} \u{201C}q\u{201D} \"d\" #h\n`a``b` `x",
        "-- c\r\n--\u{2013} c\n\u{2013}\u{2013} c\n- - -\u{2014}x\n'unterminated",
        "/* open",
        "\u{0}\u{7f}\u{1}~@\\ \x0c\x0b",
        "",
        "a",
        "9",
        "x",
        "u&",
        "e'",
    ];
    for case in cases {
        assert_eq!(lex(case), lex_logos_only(case), "{case:?}");
    }
    // Every short string over an alphabet of the characters that decide a match.
    let alphabet: Vec<char> = "aeuxN_$9.'&e-\u{2013}\u{e9} /*+\n{".chars().collect();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..20_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 9) as usize;
        let mut s = String::new();
        let mut r = seed;
        for _ in 0..len {
            s.push(alphabet[(r % alphabet.len() as u64) as usize]);
            r /= alphabet.len() as u64;
        }
        assert_eq!(lex(&s), lex_logos_only(&s), "{s:?}");
    }
}

#[test]
fn byte_loop_matches_logos_on_operators_strings_and_names() {
    let cases = [
        "a = 'x' AND b <> 'it''s' OR c >= 1 || 'a''' <= d :: e : f | g ^ h ? & => ->",
        "`a` `a``b` `` ``` `x\ny` `x\ry` `x\r\n` 'a\nb' '' '''' 'open",
        "-- c\r-- d\n// e\r\n//\n--\u{2013} -\u{2013} -}{- {x} .5 .x a.b 1.e 1.2.3",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b$$$$$$$$$$$$$$$$_9 abcdefgh\u{e9} abcdefg\u{e9} ABCDEFGHIJ'",
        "        x           'y'        \t\t        \n",
        "x_______________________________________________@ y0123456789012345678901234567[",
    ];
    for case in cases {
        assert_eq!(lex(case), lex_logos_only(case), "{case:?}");
    }
    // Every short string over the characters of the operators, strings, quoted names,
    // comments and words the byte loop reads eight bytes at a time.
    let alphabet: Vec<char> = "ab_$Z9 '`=<>:|.-/*{}\n\r\u{e9}\u{2013}!\"#@["
        .chars()
        .collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..40_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 23) as usize;
        let mut s = String::new();
        let mut r = seed;
        for i in 0..len {
            if r == 0 {
                r = seed.rotate_left(i as u32 * 7) | 1;
            }
            s.push(alphabet[(r % alphabet.len() as u64) as usize]);
            r /= alphabet.len() as u64;
        }
        assert_eq!(lex(&s), lex_logos_only(&s), "{s:?}");
    }
}

#[test]
fn byte_loop_matches_logos_on_the_fixtures() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![root];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "sql") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    assert_eq!(lex(&text), lex_logos_only(&text), "{}", path.display());
                    files += 1;
                }
            }
        }
    }
    assert!(files > 0);
}

#[test]
fn a_run_of_unknown_characters_is_one_token() {
    // A file of one MiB of NUL bytes (or of any character the lexer does not know) is one
    // token and one error: not a token, and an error, a byte.
    for c in ['\0', '\u{1}', '~', '@'] {
        let text = c.to_string().repeat(1 << 20);
        let tokens = lex(&text);
        assert_eq!(tokens.len(), 1, "{c:?}");
        assert_eq!(tokens[0].kind, TokenKind::Unknown);
        assert_eq!(tokens[0].span, Span::new(0, 1 << 20));
        let parsed = crate::syntax::parse(&text);
        let lexical: Vec<_> = parsed
            .errors
            .iter()
            .filter(|e| e.message.starts_with("unexpected character"))
            .collect();
        assert_eq!(lexical.len(), 1, "{c:?}");
        assert!(
            lexical[0].message.ends_with("1048576 in a row"),
            "{}",
            lexical[0].message
        );
    }
    // Runs end at whitespace and at any token; a mixed run is named by its characters.
    let kinds = |text: &str| {
        lex(text)
            .iter()
            .map(|t| (t.kind, t.span))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds("a\0\u{1}~ @b"),
        vec![
            (TokenKind::Word, Span::new(0, 1)),
            (TokenKind::Unknown, Span::new(1, 4)),
            (TokenKind::Unknown, Span::new(5, 6)),
            (TokenKind::Word, Span::new(6, 7)),
        ]
    );
    let parsed = crate::syntax::parse("SELECT @~\\ 1");
    assert!(
        parsed
            .errors
            .iter()
            .any(|e| e.message == "unexpected characters `@~\\\\` (3 in a row, the first U+0040)"),
        "{:?}",
        parsed.errors
    );
}
