//! The server's standard input and output: JSON-RPC messages framed by `Content-Length`
//! headers (LSP 3.17, "Base Protocol"). Unlike `lsp_server::Connection::stdio`, a malformed
//! message does not end the connection: a body that is not JSON-RPC gets a JSON-RPC "Parse
//! error" (-32700) response with a null id, a bad header line is skipped, and a body larger
//! than [`MESSAGE_LIMIT`] is read past and answered the same way.

use crossbeam_channel::{bounded, unbounded, Sender};
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};

/// The largest message read (bytes): a file of [`crate::files::SQL_LIMIT`] bytes sent as JSON,
/// every byte escaped, fits.
pub const MESSAGE_LIMIT: usize = crate::files::SQL_LIMIT as usize * 7;

/// The longest header line kept (bytes); longer lines are skipped.
const HEADER_LIMIT: usize = 4096;

/// The two threads of a stdio connection; join them after the server's loop returns.
pub struct IoThreads {
    reader: std::thread::JoinHandle<()>,
    writer: std::thread::JoinHandle<()>,
}

impl IoThreads {
    /// Waits for the writer to flush what is left. The reader is left to end with standard
    /// input (it may be blocked reading it).
    pub fn join(self) {
        let _ = self.writer.join();
        drop(self.reader);
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, IoThreads) {
    let out = Arc::new(Mutex::new(io::stdout()));
    let (writer_sender, writer_receiver) = unbounded::<Message>();
    let writer_out = out.clone();
    let writer = std::thread::Builder::new()
        .name("flinklint-lsp-writer".into())
        .spawn(move || {
            for message in writer_receiver {
                let Ok(text) = serde_json::to_string(&Framed {
                    jsonrpc: "2.0",
                    message: &message,
                }) else {
                    continue;
                };
                let Ok(mut out) = writer_out.lock() else {
                    return;
                };
                if write_frame(&mut *out, &text).is_err() {
                    return;
                }
            }
        })
        .expect("a thread for the language server's output");
    let (reader_sender, reader_receiver) = bounded::<Message>(0);
    let reader = std::thread::Builder::new()
        .name("flinklint-lsp-reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            read_loop(&mut input, &reader_sender, &out);
        })
        .expect("a thread for the language server's input");
    (
        Connection {
            sender: writer_sender,
            receiver: reader_receiver,
        },
        IoThreads { reader, writer },
    )
}

#[derive(serde::Serialize)]
struct Framed<'a> {
    jsonrpc: &'static str,
    #[serde(flatten)]
    message: &'a Message,
}

fn write_frame(out: &mut impl Write, text: &str) -> io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n", text.len())?;
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Reads messages until the input ends or the server stops listening.
pub fn read_loop<W: Write>(
    input: &mut impl BufRead,
    sender: &Sender<Message>,
    out: &Arc<Mutex<W>>,
) {
    loop {
        let frame = match read_frame(input) {
            Ok(Some(frame)) => frame,
            Ok(None) | Err(_) => return,
        };
        let error = match frame {
            Frame::Body(bytes) => match serde_json::from_slice::<Message>(&bytes) {
                Ok(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if sender.send(message).is_err() || exit {
                        return;
                    }
                    continue;
                }
                Err(e) => format!("not a JSON-RPC message: {e}"),
            },
            Frame::TooLarge(size) => {
                format!("message of {size} bytes is larger than the limit of {MESSAGE_LIMIT}")
            }
        };
        let response = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": -32700, "message": error },
        });
        let Ok(mut out) = out.lock() else {
            return;
        };
        if write_frame(&mut *out, &response.to_string()).is_err() {
            return;
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    TooLarge(usize),
}

/// One framed message: headers up to an empty line, then `Content-Length` bytes. Header lines
/// that are not `Name: value` are skipped; a frame without a valid `Content-Length` is skipped
/// whole, and a header line that ends in `Content-Length: N` starts the next frame (so a
/// wrong length costs the client one message, not the connection).
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    loop {
        let mut length: Option<usize> = None;
        let mut any = false;
        loop {
            let mut line = Vec::new();
            let n = input
                .by_ref()
                .take(HEADER_LIMIT as u64)
                .read_until(b'\n', &mut line)?;
            if n == 0 {
                return Ok(None);
            }
            if !line.ends_with(b"\n") {
                // An over-long line: skip the rest of it.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    let m = input
                        .by_ref()
                        .take(HEADER_LIMIT as u64)
                        .read_until(b'\n', &mut rest)?;
                    if m == 0 {
                        return Ok(None);
                    }
                    if rest.ends_with(b"\n") {
                        break;
                    }
                }
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                if any {
                    break;
                }
                continue;
            }
            any = true;
            // A header after the rest of a body shorter than its length said, or after a
            // frame skipped for want of a length (`..."}Content-Length: 52`): the stream finds
            // its frames again at the header rather than waiting for a line end that a JSON
            // body never has. (ASCII lower case keeps the byte offsets.)
            const NAME: &str = "content-length:";
            if let Some(at) = text.to_ascii_lowercase().rfind(NAME) {
                length = text[at + NAME.len()..].trim().parse().ok();
            }
        }
        let Some(length) = length else {
            continue;
        };
        if length > MESSAGE_LIMIT {
            io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
            return Ok(Some(Frame::TooLarge(length)));
        }
        let mut body = vec![0; length];
        input.read_exact(&mut body)?;
        return Ok(Some(Frame::Body(body)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_frames_are_answered_and_skipped() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = format!(
            "garbage line\r\n\r\nContent-Length: 5\r\n\r\n{{oops\
             Content-Length: {}\r\n\r\n{good}",
            good.len()
        );
        let (sender, receiver) = unbounded();
        let out = Arc::new(Mutex::new(Vec::<u8>::new()));
        read_loop(&mut io::BufReader::new(input.as_bytes()), &sender, &out);
        let written = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert!(written.contains("\"code\":-32700"), "{written}");
        assert!(written.contains("\"id\":null"), "{written}");
        let got: Vec<Message> = receiver.try_iter().collect();
        assert!(
            matches!(&got[..], [Message::Notification(n)] if n.method == "initialized"),
            "{got:?}"
        );
    }

    #[test]
    fn a_wrong_or_unreadable_length_costs_one_message_not_the_connection() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        for header in ["Content-Length: 5", "Content-Length: abc"] {
            let input = format!(
                "{header}\r\n\r\n{body}Content-Length: {}\r\n\r\n{good}",
                good.len()
            );
            let (sender, receiver) = unbounded();
            let out = Arc::new(Mutex::new(Vec::<u8>::new()));
            read_loop(&mut io::BufReader::new(input.as_bytes()), &sender, &out);
            let got: Vec<Message> = receiver.try_iter().collect();
            assert!(
                matches!(&got[..], [Message::Notification(n)] if n.method == "initialized"),
                "{header}: {got:?}"
            );
        }
    }
}
