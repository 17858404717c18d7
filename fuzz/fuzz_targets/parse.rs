//! The lexer and the parser on any text: `flinklint::syntax::parse` (a script) and
//! `parse_data_type` (a column's type on its own). Neither may panic, and every span they
//! return lies inside the text, on character boundaries; tokens do not overlap.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/common/exercise.rs"]
mod exercise;

fuzz_target!(|data: &[u8]| {
    // The command line reports a file that is not UTF-8 (SY000) and parses nothing of it; any
    // text the parser can be given is reached through the lossy conversion.
    let text = String::from_utf8_lossy(data);
    exercise::parse(&text);
});
