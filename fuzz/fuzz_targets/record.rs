#![no_main]
//! Fuzz target: see `boardlab_games::fuzzing::record`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    boardlab_games::fuzzing::record(data);
});
