#![no_main]
//! Fuzz target: see `boardlab_games::fuzzing::move_sequence`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    boardlab_games::fuzzing::move_sequence(data);
});
