//! SQL embedded in documents: the ` ```sql ` fenced code blocks of Markdown and the
//! `.. code-block:: sql` directives of reStructuredText.
//!
//! A document is checked as one script: its SQL blocks in order, in one session, as the reader
//! of a tutorial runs them. [`extract`] makes the SQL text of a document: the document with
//! every byte outside the SQL blocks replaced by a space (line breaks kept), so that every byte
//! offset, line and column of the SQL text is the document's own, and a `;` on the first byte
//! of the line that ends each block (the closing fence), so that no statement runs from one
//! block into the next. The parser lexes each block on its own (see
//! `syntax::parse_embedded`): a string or comment left open ends with its block.
//!
//! Which text is a document is decided by the file name alone ([`Format::of`]): `.md`,
//! `.markdown` and `.mdx` are Markdown, `.rst` is reStructuredText, anything else is SQL. The scan is
//! line by line, linear in the text, and never fails: text that is not a block is prose.
//!
//! Markdown (CommonMark): a block opens with a line of at least three backticks or tildes,
//! indented by at most three spaces (a line indented by four or more is indented code, or the
//! continuation of a paragraph), counted from the content of the list item that holds it (`- `,
//! `1. `), so that blocks in list items and nested lists count, followed by an info string whose first word
//! is `sql`, `flinksql` or `flink-sql` (any case; `sql title="x"`, `{.sql}` are read too, but
//! not `mysql` or `postgresql`), and closes with a line of at least as many of the same
//! character and nothing else; a block never closed runs to the end of the document. Fences of
//! other languages are skipped whole. An HTML comment that starts a line is skipped whole (a
//! commented-out block is not checked); when its text starts with `flinklint:` it is a
//! suppression directive ([`Comment`]). Blocks inside block quotes (`> `) are not read.
//!
//! reStructuredText: a block is the indented body of a `.. code-block:: sql` directive (also
//! `.. code::` and `.. sourcecode::`, with the same languages), after its option lines
//! (`:caption: ...`); it ends at the first non-blank line indented no deeper than the directive.
//! A comment line `.. flinklint: ...` is a suppression directive.

use super::Span;
use std::path::Path;

/// What kind of text a file holds, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Flink SQL (every name that is not a document's).
    Sql,
    /// Markdown (`.md`, `.markdown`, and MDX's `.mdx`): the SQL is in fenced code blocks.
    Markdown,
    /// reStructuredText (`.rst`): the SQL is in `code-block` directives.
    Rst,
}

impl Format {
    /// The format of the file at `path`, by its extension (any case).
    pub fn of(path: &Path) -> Format {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            return Format::Sql;
        };
        if ["md", "markdown", "mdx"]
            .iter()
            .any(|e| ext.eq_ignore_ascii_case(e))
        {
            Format::Markdown
        } else if ext.eq_ignore_ascii_case("rst") {
            Format::Rst
        } else {
            Format::Sql
        }
    }

    /// Whether files of this format are documents with embedded SQL.
    pub fn is_document(self) -> bool {
        self != Format::Sql
    }
}

/// The extensions of documents, without the dot: Markdown's, then reStructuredText's.
pub const DOCUMENT_EXTENSIONS: &[&str] = &["md", "markdown", "mdx", "rst"];

/// One SQL block of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The SQL: from the start of the block's first line to the start of the line that ends it
    /// (the closing fence), or to the end of the document.
    pub content: Span,
    /// The offset of the `;` that ends the block in the SQL text: the first non-blank byte of
    /// the line that ends it. `None` when the block runs to the end of the document.
    pub separator: Option<u32>,
    /// Whether the block's language names Flink (`flinksql`, `flink-sql`), not only SQL.
    pub flink: bool,
}

impl Block {
    /// The block with the `;` that ends it: what a directive before the block silences.
    pub fn extent(&self) -> Span {
        match self.separator {
            Some(s) => Span {
                start: self.content.start,
                end: s + 1,
            },
            None => self.content,
        }
    }

    /// Whether an edit of `span` changes only the block's SQL: it lies in the content and does
    /// not touch the start of the line that ends the block (the closing fence).
    pub fn can_edit(&self, span: Span) -> bool {
        self.content.start <= span.start
            && (span.end < self.content.end
                || (span.end == self.content.end && self.separator.is_none()))
    }
}

/// A suppression directive written in the document's own comment syntax:
/// `<!-- flinklint: ignore CODE -->` (Markdown) or `.. flinklint: ignore CODE` (reStructured
/// text). `ignore` silences the whole next block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment {
    /// The whole comment (`<!--` to `-->`, or `..` to the end of the line).
    pub span: Span,
    /// Its text after the comment's opening (`<!--`, `..`) and before its closing (`-->`).
    pub body: Span,
    /// The lines the comment is on, line break included: what removing it may edit.
    pub lines: Span,
    /// The index (in [`Embedded::blocks`]) of the first block after the comment.
    pub next_block: Option<usize>,
}

/// Where a document's SQL is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embedded {
    /// The document's format.
    pub format: Format,
    /// The SQL blocks, in order.
    pub blocks: Vec<Block>,
    /// The directives in the document's comments, in order.
    pub comments: Vec<Comment>,
}

impl Embedded {
    /// The block whose [`Block::extent`] holds `offset` (a block that runs to the end of the
    /// document holds the end too).
    pub fn block_at(&self, offset: u32) -> Option<&Block> {
        let i = self.blocks.partition_point(|b| b.content.start <= offset);
        let b = self.blocks.get(i.checked_sub(1)?)?;
        let inside = match b.separator {
            Some(s) => offset <= s,
            None => offset <= b.content.end,
        };
        inside.then_some(b)
    }

    /// Whether an edit of `span` changes only the document's SQL (inside one block, leaving its
    /// fences alone) or removes a directive comment: fixes never touch other bytes.
    pub fn can_edit(&self, span: Span) -> bool {
        // The only block that can hold the span: the first that does not end before it.
        let i = self.blocks.partition_point(|b| b.content.end < span.start);
        self.blocks.get(i).is_some_and(|b| b.can_edit(span))
            || self.comments.iter().any(|c| c.lines.contains(span))
    }
}

/// The SQL text of a document and where its blocks are. `None` for [`Format::Sql`].
///
/// The SQL text has the document's length: the blocks' bytes as they are, a `;` at each
/// [`Block::separator`], and a space for every other byte but line breaks.
pub fn extract(format: Format, text: &str) -> Option<(String, Embedded)> {
    let (blocks, comments) = match format {
        Format::Sql => return None,
        Format::Markdown => markdown(text),
        Format::Rst => rst(text),
    };
    let mut sql = text.as_bytes().to_vec();
    let mut pos = 0usize;
    let blank = |from: usize, to: usize, sql: &mut Vec<u8>| {
        for b in &mut sql[from..to] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    };
    for block in &blocks {
        blank(pos, block.content.start as usize, &mut sql);
        pos = block.content.end as usize;
    }
    blank(pos, sql.len(), &mut sql);
    for block in &blocks {
        if let Some(s) = block.separator {
            sql[s as usize] = b';';
        }
    }
    // Blocks are whole lines, so the text is still UTF-8; never panic if it were not.
    let sql = String::from_utf8(sql).unwrap_or_else(|e| " ".repeat(e.as_bytes().len()));
    let comments = comments
        .into_iter()
        .map(|mut c| {
            c.next_block = Some(blocks.partition_point(|b| b.content.start < c.span.end))
                .filter(|&i| i < blocks.len());
            c
        })
        .collect();
    Some((
        sql,
        Embedded {
            format,
            blocks,
            comments,
        },
    ))
}

/// The lines of `text`: `(start, end without the line break, start of the next line)`.
fn lines(text: &str) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut start = 0usize;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let mut end = start;
        while end < bytes.len() && bytes[end] != b'\n' && bytes[end] != b'\r' {
            end += 1;
        }
        let mut next = end;
        if next < bytes.len() {
            next += if bytes[next] == b'\r' && bytes.get(next + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
        }
        let line = (start, end, next);
        start = next;
        Some(line)
    })
}

/// The number of bytes of leading spaces and tabs.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// A block's language (the first word of a Markdown info string, the argument of a
/// reStructuredText directive), when it is SQL: whether it names Flink (`flinksql`,
/// `flink-sql`) rather than SQL in general (`sql`).
fn sql_language(info: &str) -> Option<bool> {
    let info = info.trim_start().trim_start_matches(['{', '.']);
    let word = info
        .split(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | ',' | ';'))
        .next()
        .unwrap_or_default();
    if word.eq_ignore_ascii_case("sql") {
        Some(false)
    } else if word.eq_ignore_ascii_case("flinksql") || word.eq_ignore_ascii_case("flink-sql") {
        Some(true)
    } else {
        None
    }
}

/// The column of `line`'s first character that is not a space or a tab (a tab advances to
/// the next multiple of four, as CommonMark counts), and that character's byte offset.
fn columns(line: &str) -> (usize, usize) {
    let mut col = 0;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b' ' => col += 1,
            b'\t' => col += 4 - col % 4,
            _ => return (col, i),
        }
    }
    (col, line.len())
}

/// The width of a list item's marker at the start of `text` with the spaces after it (1 to 4),
/// when `text` starts a list item: `-`, `+` or `*`, or one to nine digits with `.` or `)`.
fn list_marker(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let marker = match b.first()? {
        b'-' | b'+' | b'*' => 1,
        _ if (1..=9).contains(&digits) && matches!(b.get(digits), Some(b'.' | b')')) => digits + 1,
        _ => return None,
    };
    let spaces = b[marker..].iter().take_while(|&&c| c == b' ').count();
    match spaces {
        0 if marker < b.len() => None,
        0 => Some(marker + 1),
        1..=4 => Some(marker + spaces),
        // Five or more: the item's content starts after one space (indented code).
        _ => Some(marker + 1),
    }
}

/// A Markdown fence line: its character, its length and its info string.
fn fence(trimmed: &str) -> Option<(u8, usize, &str)> {
    let c = *trimmed.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = trimmed.bytes().take_while(|&b| b == c).count();
    if n < 3 {
        return None;
    }
    let info = &trimmed[n..];
    // A backtick fence's info string has no backtick (else it is inline code).
    if c == b'`' && info.contains('`') {
        return None;
    }
    Some((c, n, info))
}

/// The SQL blocks and directive comments of a Markdown text.
fn markdown(text: &str) -> (Vec<Block>, Vec<Comment>) {
    let mut blocks = Vec::new();
    let mut comments = Vec::new();
    // The open fence: character, length, its SQL language if any, where its content starts,
    // the column its container's content starts at.
    let mut open: Option<(u8, usize, Option<bool>, usize, usize)> = None;
    // The content columns of the open list items, innermost last.
    let mut items: Vec<usize> = Vec::new();
    // While inside an HTML comment: the offset of its `-->`'s end.
    let mut skip_to = 0usize;
    for (start, end, next) in lines(text) {
        if start < skip_to {
            continue;
        }
        let line = &text[start..end];
        let ind = indent(line);
        let trimmed = &line[ind..];
        let (col, _) = columns(line);
        if let Some((c, n, sql, content, base)) = open {
            // A closing fence too is indented by at most three spaces.
            let closes = col <= base + 3
                && trimmed.len() >= n
                && trimmed.as_bytes()[..n].iter().all(|&b| b == c)
                && trimmed[n..]
                    .trim_start_matches(c as char)
                    .trim_matches([' ', '\t'])
                    .is_empty();
            if closes {
                if let Some(flink) = sql {
                    blocks.push(Block {
                        content: Span::new(content, start),
                        separator: Some((start + ind) as u32),
                        flink,
                    });
                }
                open = None;
            }
            continue;
        }
        if trimmed.trim_end_matches(['\r', '\n']).is_empty() {
            continue;
        }
        // The list items this line is not indented into are closed.
        while items.last().is_some_and(|&content| col < content) {
            items.pop();
        }
        let base = items.last().copied().unwrap_or(0);
        if col > base + 3 {
            // Indented code, or a paragraph's continuation: no fence, no list item.
            continue;
        }
        let mut rest = trimmed;
        let mut at = col;
        // A list item's marker, maybe several (`- 1. `): its content may start with a fence.
        while let Some(width) = list_marker(rest.trim_end_matches(['\r', '\n'])) {
            at += width;
            items.push(at);
            rest = &rest[width.min(rest.len())..];
            let more = rest.len() - rest.trim_start_matches(' ').len();
            if more > 0 {
                // Spaces beyond the marker's own (five or more after it): indented code.
                break;
            }
        }
        if let Some((c, n, info)) = fence(rest) {
            open = Some((
                c,
                n,
                sql_language(info),
                next,
                items.last().copied().unwrap_or(0),
            ));
            continue;
        }
        if trimmed.starts_with("<!--") {
            let from = start + ind;
            let close = text[from + 4..].find("-->").map(|i| from + 4 + i);
            let Some(close) = close else {
                // A comment never closed hides the rest of the document.
                break;
            };
            let body = Span::new(from + 4, close);
            if text[body.range()].trim_start().starts_with("flinklint:") {
                comments.push(Comment {
                    span: Span::new(from, close + 3),
                    body,
                    lines: Span::new(start, line_end(text, close + 3)),
                    next_block: None,
                });
            }
            skip_to = close + 3;
            // The rest of the comment's last line is prose.
        }
    }
    if let Some((_, _, Some(flink), content, _)) = open {
        blocks.push(Block {
            content: Span::new(content.min(text.len()), text.len()),
            separator: None,
            flink,
        });
    }
    (blocks, comments)
}

/// The end of the line holding `offset`, after its line break.
fn line_end(text: &str, offset: usize) -> usize {
    let rest = &text[offset..];
    match rest.find(['\n', '\r']) {
        Some(i) if rest[i..].starts_with("\r\n") => offset + i + 2,
        Some(i) => offset + i + 1,
        None => text.len(),
    }
}

/// The SQL blocks and directive comments of a reStructuredText text.
fn rst(text: &str) -> (Vec<Block>, Vec<Comment>) {
    let mut blocks = Vec::new();
    let mut comments = Vec::new();
    // The open directive: its indentation, whether SQL, whether still in its options, where
    // its content starts.
    let mut open: Option<(usize, Option<bool>, bool, usize)> = None;
    for (start, end, next) in lines(text) {
        let line = &text[start..end];
        let ind = indent(line);
        let trimmed = &line[ind..];
        if let Some((dir_ind, sql, options, content)) = open {
            if trimmed.is_empty() {
                if options {
                    open = Some((dir_ind, sql, false, next));
                }
                continue;
            }
            if ind > dir_ind {
                if options && trimmed.starts_with(':') {
                    open = Some((dir_ind, sql, true, next));
                } else if options {
                    // Content right after the directive, without a blank line.
                    open = Some((dir_ind, sql, false, content));
                }
                continue;
            }
            if let Some(flink) = sql.filter(|_| content < start) {
                blocks.push(Block {
                    content: Span::new(content, start),
                    separator: Some((start + ind) as u32),
                    flink,
                });
            }
            open = None;
        }
        let Some(rest) = trimmed.strip_prefix("..") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let rest = rest.trim_start();
        let directive = ["code-block::", "sourcecode::", "code::"]
            .iter()
            .find_map(|d| rest.strip_prefix(d));
        if let Some(arg) = directive {
            open = Some((ind, sql_language(arg), true, next));
        } else if rest.starts_with("flinklint:") {
            let body_start = end - rest.len();
            comments.push(Comment {
                span: Span::new(start + ind, end),
                body: Span::new(body_start, end),
                lines: Span::new(start, next),
                next_block: None,
            });
        }
    }
    if let Some((_, Some(flink), _, content)) = open {
        if content < text.len() {
            blocks.push(Block {
                content: Span::new(content, text.len()),
                separator: None,
                flink,
            });
        }
    }
    (blocks, comments)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(text: &str) -> (String, Embedded) {
        extract(Format::Markdown, text).unwrap()
    }

    #[test]
    fn formats_by_extension() {
        assert_eq!(Format::of(Path::new("a/README.md")), Format::Markdown);
        assert_eq!(Format::of(Path::new("x.MarkDown")), Format::Markdown);
        assert_eq!(Format::of(Path::new("docs/x.mdx")), Format::Markdown);
        assert_eq!(Format::of(Path::new("x.rst")), Format::Rst);
        assert_eq!(Format::of(Path::new("x.sql")), Format::Sql);
        assert_eq!(Format::of(Path::new("<stdin>")), Format::Sql);
        assert!(extract(Format::Sql, "SELECT 1").is_none());
    }

    #[test]
    fn sql_blocks_keep_their_offsets_and_prose_becomes_spaces() {
        let text = "# Título\n\n```sql\nSELECT 1;\n```\n\ntext ```sql\n\n~~~~ SQL title=\"x\"\nSELECT 2\n~~~~\n";
        let (sql, e) = md(text);
        assert_eq!(sql.len(), text.len());
        assert_eq!(e.blocks.len(), 2);
        assert_eq!(&text[e.blocks[0].content.range()], "SELECT 1;\n");
        assert_eq!(&text[e.blocks[1].content.range()], "SELECT 2\n");
        assert_eq!(&sql[e.blocks[1].content.range()], "SELECT 2\n");
        assert!(!e.blocks[1].flink);
        // Each closing fence is a `;`, everything else a space or a line break.
        let rest: String = sql.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(rest, "SELECT1;;SELECT2;");
        assert_eq!(sql.lines().count(), text.lines().count());
    }

    #[test]
    fn other_languages_and_commented_out_blocks_are_prose() {
        let text = "```mysql\nSELECT 1;\n```\n```postgresql\nx\n```\n````\n```sql\nnot a fence\n```\n````\n<!--\n```sql\nold\n```\n-->\n```flinksql\nSELECT 3;\n```\n";
        let (_, e) = md(text);
        assert_eq!(e.blocks.len(), 1, "{:?}", e.blocks);
        assert_eq!(&text[e.blocks[0].content.range()], "SELECT 3;\n");
        assert!(e.blocks[0].flink);
    }

    #[test]
    fn languages() {
        for yes in [
            "sql",
            "SQL",
            " sql title=\"a b\"",
            "{.sql}",
            "flinksql",
            "Flink-SQL",
            "sql{1,3}",
        ] {
            assert!(sql_language(yes).is_some(), "{yes}");
        }
        for no in [
            "mysql",
            "postgresql",
            "sqlite",
            "plsql",
            "",
            "text",
            "sql-server",
            "tsql",
        ] {
            assert!(sql_language(no).is_none(), "{no}");
        }
    }

    #[test]
    fn indented_crlf_and_unclosed_blocks() {
        let text = "1. step\r\n   ```sql\r\n   SELECT 1\r\n   ```\r\n```sql\r\nSELECT 2";
        let (sql, e) = md(text);
        assert_eq!(e.blocks.len(), 2);
        assert_eq!(&text[e.blocks[0].content.range()], "   SELECT 1\r\n");
        assert_eq!(
            e.blocks[0].separator,
            Some(text.find("   ```\r\n```").unwrap() as u32 + 3)
        );
        assert_eq!(&sql[e.blocks[0].separator.unwrap() as usize..][..1], ";");
        assert_eq!(e.blocks[1].separator, None);
        assert_eq!(&text[e.blocks[1].content.range()], "SELECT 2");
        assert!(sql.contains("\r\n"));
    }

    #[test]
    fn directive_comments_name_the_next_block() {
        let text = "<!-- flinklint: ignore SY001 -->\ntext\n```sql\nSELECT 1;\n```\n<!-- a note -->\n<!--\n  flinklint: ignore-file TB001\n-->\n";
        let (_, e) = md(text);
        assert_eq!(e.comments.len(), 2);
        let c = e.comments[0];
        assert_eq!(&text[c.span.range()], "<!-- flinklint: ignore SY001 -->");
        assert_eq!(&text[c.body.range()], " flinklint: ignore SY001 ");
        assert_eq!(&text[c.lines.range()], "<!-- flinklint: ignore SY001 -->\n");
        assert_eq!(c.next_block, Some(0));
        assert_eq!(e.comments[1].next_block, None);
        assert!(e.can_edit(c.span));
        assert!(!e.can_edit(Span::new(0, 40)));
    }

    #[test]
    fn edits_stay_inside_blocks() {
        let text = "```sql\nSELECT 1\n```\n```sql\nSELECT 2";
        let (_, e) = md(text);
        let b0 = e.blocks[0].content;
        assert!(e.can_edit(Span::new(b0.start as usize + 8, b0.start as usize + 8)));
        assert!(e.can_edit(Span::new(b0.start as usize, b0.end as usize - 1)));
        // Inserting at the start of the closing fence, or deleting into it, would break it.
        assert!(!e.can_edit(Span::empty(b0.end)));
        assert!(!e.can_edit(Span::new(b0.start as usize, b0.end as usize + 1)));
        assert!(!e.can_edit(Span::new(0, 1)));
        // The last block runs to the end: appending there is fine.
        assert!(e.can_edit(Span::empty(text.len() as u32)));
        assert_eq!(e.block_at(b0.start).map(|b| b.content), Some(b0));
        assert_eq!(e.block_at(b0.end).map(|b| b.content), Some(b0));
        assert_eq!(e.block_at(0), None);
    }

    #[test]
    fn rst_code_blocks() {
        let text = ".. flinklint: ignore SY001\n\n.. code-block:: sql\n   :caption: x\n\n   SELECT 1;\n\n   SELECT 2;\nAfter.\n\n.. code:: python\n\n   x = 1\n\n.. sourcecode:: SQL\n\n    SELECT 3;\n";
        let (sql, e) = extract(Format::Rst, text).unwrap();
        assert_eq!(e.blocks.len(), 2, "{:?}", e.blocks);
        assert_eq!(
            &text[e.blocks[0].content.range()],
            "   SELECT 1;\n\n   SELECT 2;\n"
        );
        assert_eq!(&sql[e.blocks[0].separator.unwrap() as usize..][..2], "; ");
        assert_eq!(&text[e.blocks[1].content.range()], "    SELECT 3;\n");
        assert_eq!(e.comments.len(), 1);
        assert_eq!(&text[e.comments[0].body.range()], "flinklint: ignore SY001");
        assert_eq!(e.comments[0].next_block, Some(0));
    }

    #[test]
    fn hostile_texts_do_not_panic() {
        for text in [
            "```",
            "```sql",
            "```sql\n",
            "<!--",
            "<!-- flinklint:",
            "\r\r```sql\r",
            "é```sql\n```",
            ".. code-block:: sql",
            ".. code-block:: sql\n",
            "..",
            "<!-- -->```sql\nx",
        ] {
            for f in [Format::Markdown, Format::Rst] {
                let (sql, e) = extract(f, text).unwrap();
                assert_eq!(sql.len(), text.len());
                for b in &e.blocks {
                    assert!(
                        b.content.start <= b.content.end && b.content.end as usize <= text.len()
                    );
                }
            }
        }
    }
}
