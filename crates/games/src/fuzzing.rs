//! Fuzzing entry points, shared by the cargo-fuzz targets in `fuzz/` and by smoke tests. Each
//! takes raw bytes, picks a game from the first byte, and checks invariants that must hold for
//! any input: nothing panics, accepted input round-trips, and random move sequences keep every
//! rule of the `Game` contract.

use crate::{AnyGame, GameKind};
use boardlab_core::{GameRecord, OptionValues, Options};

fn pick_game(data: &[u8]) -> Option<(GameKind, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let kinds = GameKind::all();
    Some((kinds[first as usize % kinds.len()], rest))
}

/// Options chosen by bytes: each option of the schema takes one byte that picks a value.
fn pick_options(kind: GameKind, bytes: &mut &[u8]) -> Options {
    let info = kind.info();
    let mut options = info.default_options();
    for spec in info.options {
        let Some((&b, rest)) = bytes.split_first() else {
            break;
        };
        *bytes = rest;
        let value = match spec.values {
            OptionValues::Choice { choices } => choices[b as usize % choices.len()].to_string(),
            OptionValues::Bool => (b % 2 == 0).to_string(),
            // Small values keep the games short.
            OptionValues::Int { min, max } | OptionValues::IntOr { min, max, .. } => {
                (min + i64::from(b % 16)).min(max).to_string()
            }
            OptionValues::Text { .. } => continue,
        };
        let _ = options.set(spec.name, &value);
    }
    options
}

/// Position text: never panics; an accepted text reads back to the same text.
pub fn position_text(data: &[u8]) {
    let Some((kind, mut bytes)) = pick_game(data) else {
        return;
    };
    let options = pick_options(kind, &mut bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(g) = AnyGame::from_position(kind, &options, text) {
        let canonical = g.position_text();
        let again = AnyGame::from_position(kind, &options, &canonical)
            .expect("a position's own text reads back");
        assert_eq!(again.position_text(), canonical);
        assert_eq!(g.hash(), g.hash_from_scratch());
    }
}

/// Move text: never panics; a parsed move formats to text that parses to the same move; a
/// refused move leaves the game unchanged.
pub fn move_text(data: &[u8]) {
    let Some((kind, mut bytes)) = pick_game(data) else {
        return;
    };
    let options = pick_options(kind, &mut bytes);
    let Ok(mut game) = AnyGame::new(kind, &options, 0) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    for part in text.split('\n') {
        if let Ok(canonical) = game.canonical(part) {
            assert_eq!(game.canonical(&canonical).as_ref(), Ok(&canonical));
        }
        let before = game.clone();
        if game.play_text(part).is_err() {
            assert_eq!(game, before, "a refused move changed the game");
        }
    }
}

/// Records: never panics; a record that replays writes out and replays again identically.
pub fn record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rec) = GameRecord::parse(text) else {
        return;
    };
    let Ok(kind) = rec.game.parse::<GameKind>() else {
        return;
    };
    if let Ok(game) = replay(kind, &rec) {
        for written in [rec.to_text(), rec.to_json()] {
            let back = GameRecord::parse(&written).expect("a written record reads back");
            let again = replay(kind, &back).expect("a written record replays");
            assert_eq!(again, game);
        }
    }
}

/// The game at the end of `record`.
fn replay(kind: GameKind, record: &GameRecord) -> Result<AnyGame, boardlab_core::RecordError> {
    kind.replay(record).map(|(game, _)| AnyGame::from_dyn(game))
}

/// Arbitrary move sequences: each byte picks one of the legal moves. Checks the `Game`
/// contract after every move.
pub fn move_sequence(data: &[u8]) {
    let Some((kind, mut bytes)) = pick_game(data) else {
        return;
    };
    let options = pick_options(kind, &mut bytes);
    let seed = bytes.first().copied().map_or(0, u64::from);
    let Ok(mut game) = AnyGame::new(kind, &options, seed) else {
        return;
    };
    for &b in bytes {
        let moves = game.legal_moves();
        assert_eq!(moves.is_empty(), game.outcome().is_some());
        if moves.is_empty() {
            break;
        }
        let text = &moves[b as usize % moves.len()];
        assert_eq!(game.canonical(text).as_ref(), Ok(text), "{text}");
        let played = game.play_text(text).expect("a listed move plays");
        assert_eq!(&played.notation, text);
        assert_eq!(game.hash(), game.hash_from_scratch());
        if kind.info().has_position_text {
            let back = AnyGame::from_position(kind, &options, &game.position_text())
                .expect("position text reads back");
            assert_eq!(back.position_text(), game.position_text());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::rand::{Rng, SeedableRng};

    /// A quick smoke run of every entry point on random bytes (the real fuzzing is
    /// `cargo fuzz run` in `fuzz/`).
    #[test]
    fn fuzz_entry_points_hold_on_random_inputs() {
        let mut rng = boardlab_core::rand::rngs::SmallRng::seed_from_u64(7);
        for i in 0..300 {
            let len = rng.random_range(0..200);
            let mut data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            move_sequence(&data);
            position_text(&data);
            move_text(&data);
            record(&data);
            // Printable variants reach the text parsers more often.
            for b in data.iter_mut().skip(8) {
                const ALPHABET: &[u8] = b" abcdefgh12345678/WBwb+-@xK>{}\n,:";
                *b = ALPHABET[*b as usize % ALPHABET.len()];
            }
            if let Some(first) = data.first_mut() {
                *first = i as u8;
            }
            position_text(&data);
            move_text(&data);
        }
        record(b"[Game \"sight-reduction\"]\n\n1. a1\n");
        record(b"{\"game\":\"sight-reduction\",\"moves\":[\"a1\"]}");
    }

    /// Inputs the fuzzer found that once broke an invariant.
    #[test]
    fn fuzz_regressions() {
        // An assideum position text whose canonical form did not read back.
        position_text(&[
            15, 47, 47, 47, 47, 47, 116, 111, 47, 46, 47, 47, 47, 55, 55, 55, 55, 55, 55, 55, 55,
            55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55,
            55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 55, 46, 10, 3, 47, 46, 32, 64,
        ]);
    }
}
