//! The fixer: the safe fixes, then all fixes (safe and unsafe), of an input's findings, applied
//! as `--fix` and `--fix --unsafe-fixes` apply them (fix, re-check, repeat). Neither may panic,
//! both must converge (a second run changes nothing) and no fix may add a syntax error. Lines
//! `-- file: PATH` split the input into files, as for the `check` target.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/common/exercise.rs"]
mod exercise;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let files = exercise::split_files(&text);
    let target = exercise::target_for(data);
    let outcome = flinklint::check_texts(&files, &exercise::settings(target));
    exercise::assert_outcome(&outcome);
    exercise::fix_both(outcome, target);
});
