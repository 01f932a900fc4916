//! The conformance suite every game's tests run (feature `testkit`).
//!
//! [`conformance`] plays seeded random games under each option set and checks, in every
//! position reached:
//! - legal moves have no duplicates (as values or as text) and come in the same order twice;
//! - each legal move's text parses back to the same move (also in upper case), and plays;
//! - `play` agrees with `play_unchecked`, and the hash kept by `play` equals the hash computed
//!   from scratch;
//! - moves legal elsewhere but not here are rejected by `play`, which leaves the game unchanged;
//! - a game has no legal moves exactly when it has an outcome, and a finished game rejects moves;
//! - the position text reads back to the same text;
//! - the record of the game survives JSON and text round trips and replays to the same end;
//! - the same seed gives the same game.
//!
//! [`compare_with_reference`] checks a fast engine against a plain reference engine.

use crate::game::Game;
use crate::options::Options;
use crate::player::Outcome;
use crate::record::GameRecord;
use rand::Rng;
use std::collections::HashSet;

/// Runs the conformance checks: `games` seeded random games for each option set, at most
/// `max_plies` moves each.
///
/// # Panics
/// On the first violation, with a message naming the game, options, seed and position.
pub fn conformance<G: Game>(option_sets: &[Options], games: u64, max_plies: u32) {
    for options in option_sets {
        let mut pool: Vec<G::Move> = Vec::new();
        for seed in 0..games {
            let a = checked_playout::<G>(options, seed, max_plies, &mut pool);
            let b = checked_playout::<G>(options, seed, max_plies, &mut Vec::new());
            assert_eq!(
                a, b,
                "{options:?} seed {seed}: the same seed gave different games"
            );
        }
    }
}

fn checked_playout<G: Game>(
    options: &Options,
    seed: u64,
    max_plies: u32,
    pool: &mut Vec<G::Move>,
) -> Vec<String> {
    let mut game = G::new(options, seed).expect("the options make a game");
    let mut rng = crate::rng(seed ^ 0x5EED);
    let mut record = GameRecord::new(&game, seed, None);
    let start = game.clone();
    let ctx = |g: &G| {
        format!(
            "{options:?} seed {seed} ply {} position {}",
            g.ply(),
            g.position_text()
        )
    };
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        check_position(&game, pool, &ctx(&game));
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        record.moves.push(game.format_move(mv));
        game.play(mv).expect("a generated move plays");
    }
    check_position(&game, pool, &ctx(&game));
    record.set_outcome(game.outcome());

    // Records: both forms round-trip and replay to the same game.
    for text in [record.to_json(), record.to_text()] {
        let back = GameRecord::parse(&text).expect("a written record reads back");
        assert_eq!(back, record, "{}: record round trip", ctx(&game));
        let (replayed, played) = back.replay::<G>().expect("a written record replays");
        assert_eq!(replayed, game, "{}: replayed record differs", ctx(&game));
        assert_eq!(played.len(), record.moves.len());
    }
    // Replaying from the start gives the same game again.
    let mut again = start;
    for m in &record.moves {
        again.play_text(m).expect("a recorded move replays");
    }
    assert_eq!(again, game, "{}: replay differs", ctx(&game));
    record.moves
}

/// Checks one position; `pool` collects moves seen in other positions to test rejection.
///
/// # Panics
/// On the first violation.
pub fn check_position<G: Game>(game: &G, pool: &mut Vec<G::Move>, ctx: &str) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut again = Vec::new();
    game.legal_moves(&mut again);
    assert_eq!(moves, again, "{ctx}: move order is not stable");
    assert_eq!(game.hash(), game.hash_from_scratch(), "{ctx}: stale hash");

    let outcome = game.outcome();
    assert_eq!(
        moves.is_empty(),
        outcome.is_some(),
        "{ctx}: a game must have no legal moves exactly when it is over (outcome {outcome:?})"
    );

    let mut seen = HashSet::new();
    let mut texts = HashSet::new();
    for &mv in &moves {
        assert!(seen.insert(mv), "{ctx}: duplicate move {mv:?}");
        let text = game.format_move(mv);
        assert!(
            texts.insert(text.clone()),
            "{ctx}: duplicate move text {text}"
        );
        assert_eq!(
            text,
            text.to_lowercase(),
            "{ctx}: canonical text is lower case"
        );
        assert_eq!(
            game.parse_move(&text),
            Ok(mv),
            "{ctx}: '{text}' does not parse back"
        );
        assert_eq!(
            game.parse_move(&text.to_uppercase()),
            Ok(mv),
            "{ctx}: '{text}' in upper case does not parse"
        );
        assert!(game.is_legal(mv), "{ctx}: is_legal({text}) is false");
        let mut a = game.clone();
        a.play(mv)
            .unwrap_or_else(|e| panic!("{ctx}: legal move rejected: {e}"));
        let mut b = game.clone();
        b.play_unchecked(mv);
        assert_eq!(a, b, "{ctx}: play and play_unchecked differ after {text}");
        assert_eq!(
            a.hash(),
            a.hash_from_scratch(),
            "{ctx}: hash after {text} is stale"
        );
        assert_eq!(a.ply(), game.ply() + 1, "{ctx}: ply after {text}");
    }

    // Moves legal elsewhere must be rejected here, leaving the game unchanged.
    for &mv in pool.iter() {
        if seen.contains(&mv) {
            continue;
        }
        let mut g = game.clone();
        let err = g.play(mv);
        assert!(
            err.is_err(),
            "{ctx}: play accepted {} which is not among the legal moves",
            game.format_move(mv)
        );
        assert_eq!(&g, game, "{ctx}: a rejected move changed the game");
        assert!(!game.is_legal(mv));
    }
    for &mv in moves.iter().take(8) {
        if pool.len() < 4096 && !pool.contains(&mv) {
            pool.push(mv);
        }
    }

    if G::info().has_position_text {
        let text = game.position_text();
        let back = G::from_position(&game.options(), &text)
            .unwrap_or_else(|e| panic!("{ctx}: position text does not read back: {e}"));
        assert_eq!(
            back.position_text(),
            text,
            "{ctx}: position text round trip"
        );
        assert_eq!(
            back.to_move(),
            game.to_move(),
            "{ctx}: side to move after round trip"
        );
    }
    let _ = game.diagram();
}

/// A plain engine written directly from the rules, to check a fast engine against. It speaks
/// only in move text.
pub trait Reference: Clone {
    /// Every legal move in canonical notation (any order).
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given in canonical notation (known to be legal).
    fn play(&mut self, mv: &str);
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
}

/// Perft of a reference engine.
pub fn reference_perft<R: Reference>(r: &R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = r.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = r.clone();
            next.play(m);
            reference_perft(&next, depth - 1)
        })
        .sum()
}

/// Plays one seeded random game in both engines side by side, checking at every position that
/// they have the same legal moves (as sorted text) and the same outcome. Returns the plies.
///
/// # Panics
/// On the first disagreement, naming the position and the moves only one engine has.
pub fn compare_with_reference<G: Game, R: Reference>(
    mut fast: G,
    mut reference: R,
    seed: u64,
    max_plies: u32,
) -> u32 {
    let mut rng = crate::rng(seed);
    let mut moves = Vec::new();
    let mut history = Vec::new();
    for ply in 0..=max_plies {
        fast.legal_moves(&mut moves);
        let mut a: Vec<String> = moves.iter().map(|m| fast.format_move(*m)).collect();
        let mut b = reference.legal_moves();
        a.sort();
        b.sort();
        if a != b {
            let only_fast: Vec<_> = a.iter().filter(|m| !b.contains(m)).collect();
            let only_ref: Vec<_> = b.iter().filter(|m| !a.contains(m)).collect();
            panic!(
                "seed {seed} after {:?} ({}): engines disagree; only fast: {only_fast:?}; only reference: {only_ref:?}",
                history,
                fast.position_text()
            );
        }
        assert_eq!(
            fast.outcome(),
            reference.outcome(),
            "seed {seed} after {history:?}: outcomes differ"
        );
        if moves.is_empty() || ply == max_plies {
            return ply;
        }
        let i = rng.random_range(0..moves.len());
        let text = fast.format_move(moves[i]);
        fast.play_unchecked(moves[i]);
        reference.play(&text);
        history.push(text);
    }
    max_plies
}
