//! The whole check of an input with every rule, for one of the targets (picked by the input's
//! bytes): findings' spans inside their files, every output format rendered (the JSON ones
//! parse as JSON, none is larger than a bound linear in the input), and `expand` of each object
//! the input defines. Lines `-- file: PATH` split the input into files, so that histories and
//! the scripts that read them meet (see `exercise::split_files`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/common/exercise.rs"]
mod exercise;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let files = exercise::split_files(&text);
    exercise::check_and_render(&files, exercise::target_for(data));
});
