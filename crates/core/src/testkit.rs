//! The conformance kit every game's tests run (feature `testkit`).
//!
//! # The engine suite
//!
//! A game's `tests/engine.rs` is one call of [`engine_suite!`](crate::engine_suite), which
//! expands to a module `suite` with one `#[test]` per part of the [`Suite`], so that a failure
//! names its part and the parts run in parallel; each part also spreads its games and positions
//! over the available cores:
//!
//! - `conformance`: [`conformance`] checks over seeded random games for each option set;
//! - `perft_file`: the counts of the game's perft reference file (`tests/perft/*.txt`, read by
//!   [`read_cases`]), which must hold the expected number of counts;
//! - `reference_perft_file`: the same counts from the plain [`Reference`] engine;
//! - `reference_playouts`: the fast engine against the reference engine over seeded random games
//!   ([`compare_with_reference`]);
//! - `reference_perft`: perft in both engines from positions reached by seeded random play;
//! - `golden_playthroughs`: seeded games written out ply by ply and compared with the files in
//!   the game's `tests/golden/` (see below).
//!
//! Perft counts above `BOARDLAB_PERFT_MAX_NODES` nodes (default 5 000 000) are skipped.
//!
//! # Golden playthroughs
//!
//! For each option set of [`Suite::golden`], a few seeded random games are written as text, one
//! file per option set (`tests/golden/<options>.txt`, named after the options' canonical text):
//! for every ply the position text, the legal moves in the game's order and the move played,
//! then how the game ended or where it was stopped. Any change to move generation, move order,
//! notation or position text therefore shows up as a readable diff of these files. The moves are
//! drawn with [`crate::rng`] as `next_u64() % number of legal moves`, so the files depend on the
//! rules alone, not on how `rand` maps numbers into ranges.
//!
//! A missing file, a file that differs (the failure names the first differing game and ply and
//! shows both lines) or a file in `tests/golden/` that belongs to no option set fails the test.
//! After an intended change, run the tests with `BOARDLAB_BLESS=1`:
//!
//! ```text
//! BOARDLAB_BLESS=1 cargo test -p boardlab-opprimo --test engine golden
//! ```
//!
//! which rewrites the files (and deletes those that belong to no option set) instead of
//! comparing, then review the diff before committing it. Without that variable the tests never
//! write a file.
//!
//! # The conformance checks
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
//! [`check_setups`] and [`rejected_problems`] check a game's two reading steps (set-up, then
//! the rules' checks) against `from_position` and against play.

mod setups;

pub use setups::{check_case_setups, check_setups, rejected_problems};

use crate::game::Audit;
use crate::game::Game;
use crate::options::Options;
use crate::perft::{check_cases, perft, read_cases};
use crate::player::Outcome;
use crate::record::GameRecord;
use rand::{Rng, RngCore};
use std::collections::HashSet;
use std::fmt::{Debug, Write as _};
use std::ops::Range;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Runs the conformance checks: `games` seeded random games for each option set, at most
/// `max_plies` moves each.
///
/// # Panics
/// On the first violation, with a message naming the game, options, seed and position.
pub fn conformance<G: Game + Audit>(option_sets: &[Options], games: u64, max_plies: u32) {
    for options in option_sets {
        conformance_seeds::<G>(options, 0..games, max_plies);
    }
}

/// Runs the conformance checks for the games of one option set with the given seeds, at most
/// `max_plies` moves each.
///
/// # Panics
/// On the first violation, with a message naming the game, options, seed and position.
pub fn conformance_seeds<G: Game + Audit>(options: &Options, seeds: Range<u64>, max_plies: u32) {
    let mut pool: Vec<G::Move> = Vec::new();
    for seed in seeds {
        let a = checked_playout::<G>(options, seed, max_plies, &mut pool);
        let b = checked_playout::<G>(options, seed, max_plies, &mut Vec::new());
        assert_eq!(
            a, b,
            "{options:?} seed {seed}: the same seed gave different games"
        );
    }
}

fn checked_playout<G: Game + Audit>(
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

/// Checks a game's [`Encoding`](crate::encoding::Encoding) in every position of `seeds`
/// random games of `options` (at most `max_plies` moves each): the action count never
/// changes, every legal move has an id below it, no two legal moves share an id, each id
/// names its move again ([`Encoding::move_of`](crate::encoding::Encoding::move_of)), random
/// ids never name another legal move, and the planes have their shape, hold numbers in
/// 0..=1 for both seats' views and are written in full. Returns the positions checked.
///
/// # Panics
/// On the first violation, with a message naming the options, seed and position.
pub fn check_encoding<G: crate::encoding::Encoding>(
    options: &Options,
    seeds: Range<u64>,
    max_plies: u32,
) -> usize {
    let mut positions = 0;
    for seed in seeds {
        let mut game = G::new(options, seed).expect("the options make a game");
        let count = game.action_count();
        let mut rng = crate::rng(seed ^ 0xE4C0);
        let mut moves = Vec::new();
        for _ in 0..=max_plies {
            let ctx = format!(
                "{options:?} seed {seed} ply {} position {}",
                game.ply(),
                game.position_text()
            );
            check_encoding_at(&game, count, &mut rng, &ctx);
            positions += 1;
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("a generated move plays");
        }
    }
    positions
}

fn check_encoding_at<G: crate::encoding::Encoding>(
    game: &G,
    count: u32,
    rng: &mut crate::Rng,
    ctx: &str,
) {
    assert_eq!(
        game.action_count(),
        count,
        "{ctx}: the action count changed"
    );
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut seen = HashSet::new();
    let mut ids = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let id = game.action_of(mv);
        let text = game.format_move(mv);
        assert!(id < count, "{ctx}: {text} has id {id}, not below {count}");
        assert!(
            seen.insert(id),
            "{ctx}: {text} shares id {id} with another move"
        );
        assert_eq!(
            game.move_of(id),
            Some(mv),
            "{ctx}: id {id} of {text} names another move"
        );
        ids.push(id);
    }
    let mut listed = Vec::new();
    game.legal_actions(&mut listed);
    assert_eq!(
        listed, ids,
        "{ctx}: legal_actions differs from the legal moves' ids"
    );
    let probes = (0..64).map(|_| rng.random_range(0..count)).chain([
        count,
        count.saturating_add(1),
        u32::MAX,
    ]);
    for id in probes {
        if let Some(mv) = game.move_of(id) {
            if game.is_legal(mv) {
                assert_eq!(
                    game.action_of(mv),
                    id,
                    "{ctx}: id {id} names the legal move {}, whose id differs",
                    game.format_move(mv)
                );
            }
        }
    }
    let [c, h, w] = game.planes_shape();
    assert!(c * h * w > 0, "{ctx}: empty planes");
    for view in [crate::Seat::First, crate::Seat::Second] {
        let mut out = vec![f32::NAN; c * h * w];
        game.write_planes(view, &mut out);
        for (i, &x) in out.iter().enumerate() {
            assert!(
                (0.0..=1.0).contains(&x),
                "{ctx}: plane value {x} at {i} (view {view:?}) is not in 0..=1 or was not written"
            );
        }
    }
}

/// Checks one position; `pool` collects moves seen in other positions to test rejection.
///
/// # Panics
/// On the first violation.
pub fn check_position<G: Game + Audit>(game: &G, pool: &mut Vec<G::Move>, ctx: &str) {
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

/// Seeded games under one option set: one game per seed, at most `plies` moves each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runs {
    /// Options as `key=value,…` (`default` for none).
    pub options: String,
    pub seeds: Range<u64>,
    pub plies: u32,
}

impl Runs {
    /// The games of seeds `seeds` under `options`, at most `plies` moves each.
    #[must_use]
    pub fn new(options: impl Into<String>, seeds: Range<u64>, plies: u32) -> Runs {
        Runs {
            options: options.into(),
            seeds,
            plies,
        }
    }

    /// The same seeds and plies under each of several option sets.
    #[must_use]
    pub fn each<S: AsRef<str>>(option_sets: &[S], seeds: Range<u64>, plies: u32) -> Vec<Runs> {
        option_sets
            .iter()
            .map(|o| Runs::new(o.as_ref(), seeds.clone(), plies))
            .collect()
    }
}

/// Perft in the fast and the reference engine from positions reached by seeded random play: for
/// each seed, a new game with that seed, a number of random moves drawn from `plies` (with
/// [`crate::rng`] of the seed), then perft `depth` in both engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRuns {
    /// Options as `key=value,…` (`default` for none).
    pub options: String,
    pub seeds: Range<u64>,
    /// How many random moves lead to the position (not empty; `0..1` for the start position).
    pub plies: Range<u32>,
    pub depth: u32,
}

impl PerftRuns {
    /// Perft `depth` after a number of random moves drawn from `plies`, for each seed.
    #[must_use]
    pub fn new(
        options: impl Into<String>,
        seeds: Range<u64>,
        plies: Range<u32>,
        depth: u32,
    ) -> PerftRuns {
        PerftRuns {
            options: options.into(),
            seeds,
            plies,
            depth,
        }
    }

    /// The same runs under each of several option sets.
    #[must_use]
    pub fn each<S: AsRef<str>>(
        option_sets: &[S],
        seeds: Range<u64>,
        plies: Range<u32>,
        depth: u32,
    ) -> Vec<PerftRuns> {
        option_sets
            .iter()
            .map(|o| PerftRuns::new(o.as_ref(), seeds.clone(), plies.clone(), depth))
            .collect()
    }
}

/// Everything a game's engine tests run, from the game's own data: see the
/// [module documentation](self) and [`engine_suite!`](crate::engine_suite).
#[derive(Debug)]
pub struct Suite<G: Game, R: Reference> {
    /// The games the conformance checks play.
    pub conformance: Vec<Runs>,
    /// The text of the perft reference file (`include_str!("perft/reference.txt")`).
    pub perft: &'static str,
    /// How many counts (`perft` lines) the perft file holds, so that a damaged file is noticed.
    pub perft_counts: usize,
    /// The reference engine in the same state as a game just made by [`Game::new`] or read from
    /// a position text by [`Notation::from_position`](crate::game::Notation::from_position).
    pub reference: fn(&G) -> R,
    /// The games the fast and the reference engine play side by side.
    pub reference_playouts: Vec<Runs>,
    /// The positions where both engines count perft.
    pub reference_perft: Vec<PerftRuns>,
    /// The golden playthroughs: one file per option set.
    pub golden: Vec<Runs>,
}

/// Counts above this many nodes are skipped (`BOARDLAB_PERFT_MAX_NODES`, default 5 000 000).
#[must_use]
pub fn perft_node_limit() -> u64 {
    std::env::var("BOARDLAB_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000)
}

/// Whether `BOARDLAB_BLESS` asks for the golden files to be rewritten (set, not empty, not `0`).
#[must_use]
pub fn bless() -> bool {
    std::env::var_os("BOARDLAB_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

fn parse_options<G: Game>(text: &str) -> Options {
    G::info()
        .parse_options(text)
        .unwrap_or_else(|e| panic!("options '{text}': {e}"))
}

fn new_game<G: Game>(options: &Options, seed: u64) -> G {
    G::new(options, seed).unwrap_or_else(|e| panic!("{options:?} seed {seed}: {e}"))
}

impl<G: Game + Audit, R: Reference> Suite<G, R> {
    /// The conformance checks over [`Suite::conformance`].
    ///
    /// # Panics
    /// On the first violation.
    pub fn check_conformance(&self) {
        in_parallel(&self.conformance, |run| {
            conformance_seeds::<G>(
                &parse_options::<G>(&run.options),
                run.seeds.clone(),
                run.plies,
            );
        });
    }

    /// Every count of the perft file within the node limit, after checking that the file holds
    /// [`Suite::perft_counts`] counts.
    ///
    /// # Panics
    /// On a wrong count or a file with another number of counts.
    pub fn check_perft_file(&self) {
        let cases = read_cases(self.perft).unwrap_or_else(|e| panic!("perft file: {e}"));
        let counts: usize = cases.iter().map(|c| c.counts.len()).sum();
        assert_eq!(
            counts,
            self.perft_counts,
            "the perft file holds {counts} counts in {} cases, expected {}",
            cases.len(),
            self.perft_counts
        );
        check_cases::<G>(self.perft, perft_node_limit());
    }

    /// The counts of the perft file from the reference engine: each case is set up in the fast
    /// engine (options and position), the reference engine is made from it with
    /// [`Suite::reference`] and plays the case's moves.
    ///
    /// # Panics
    /// On a wrong count, or a move of the file the reference engine does not list.
    pub fn check_reference_perft_file(&self) {
        let limit = perft_node_limit();
        let cases = read_cases(self.perft).unwrap_or_else(|e| panic!("perft file: {e}"));
        in_parallel(&cases, |case| {
            let options = parse_options::<G>(&case.options);
            let mut game: G = crate::game::setup(&options, 0, case.position.as_deref(), &[])
                .unwrap_or_else(|e| panic!("case {}: {e}", case.name));
            let mut r = (self.reference)(&game);
            for m in &case.moves {
                let mv = game
                    .parse_move(m)
                    .unwrap_or_else(|e| panic!("case {}: {e}", case.name));
                let text = game.format_move(mv);
                game.play(mv)
                    .unwrap_or_else(|e| panic!("case {}: {e}", case.name));
                assert!(
                    r.legal_moves().contains(&text),
                    "case {}: the reference engine does not list {text}",
                    case.name
                );
                r.play(&text);
            }
            for &(depth, expected) in &case.counts {
                if expected > limit {
                    continue;
                }
                assert_eq!(
                    reference_perft(&r, depth),
                    expected,
                    "reference perft({depth}) of case '{}'",
                    case.name
                );
            }
        });
    }

    /// The fast and the reference engine side by side over the games of
    /// [`Suite::reference_playouts`] ([`compare_with_reference`]).
    ///
    /// # Panics
    /// On the first disagreement.
    pub fn check_reference_playouts(&self) {
        in_parallel(
            &seeded(&self.reference_playouts, |r| &r.seeds),
            |&(run, seed)| {
                let game: G = new_game(&parse_options::<G>(&run.options), seed);
                let r = (self.reference)(&game);
                compare_with_reference(game, r, seed, run.plies);
            },
        );
    }

    /// Perft in both engines from the positions of [`Suite::reference_perft`].
    ///
    /// # Panics
    /// On the first position where the counts differ, naming the moves that lead to it.
    pub fn check_reference_perft(&self) {
        in_parallel(
            &seeded(&self.reference_perft, |r| &r.seeds),
            |&(run, seed)| {
                let options = parse_options::<G>(&run.options);
                let mut game: G = new_game(&options, seed);
                let mut r = (self.reference)(&game);
                let mut rng = crate::rng(seed);
                let mut moves = Vec::new();
                let mut played = Vec::new();
                for _ in 0..rng.random_range(run.plies.clone()) {
                    game.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    let text = game.format_move(mv);
                    game.play_unchecked(mv);
                    r.play(&text);
                    played.push(text);
                }
                assert_eq!(
                    perft(&game, run.depth),
                    reference_perft(&r, run.depth),
                    "perft({}) with {options:?} seed {seed} after {played:?} ({})",
                    run.depth,
                    game.position_text()
                );
            },
        );
    }

    /// Compares the golden playthroughs of [`Suite::golden`] with the files in `dir`, or
    /// rewrites them when [`bless`] is set. `rerun` is the command that rewrites them, for the
    /// failure message.
    ///
    /// # Panics
    /// On a missing, differing or unexpected file (without `BOARDLAB_BLESS`), or a file that
    /// cannot be written (with it).
    pub fn check_golden(&self, dir: &Path, rerun: &str) {
        let mut expected_files = Vec::new();
        let mut problems = Vec::new();
        let bless = bless();
        for run in &self.golden {
            let options = parse_options::<G>(&run.options);
            let path = dir.join(golden_file_name(&options));
            assert!(
                !expected_files.contains(&path),
                "golden option sets: {options} is given twice"
            );
            let text = golden_text::<G>(&options, run.seeds.clone(), run.plies);
            let old = std::fs::read_to_string(&path).ok();
            if bless {
                if old.as_deref() != Some(text.as_str()) {
                    std::fs::create_dir_all(dir)
                        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
                    std::fs::write(&path, &text)
                        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                    eprintln!("wrote {}", path.display());
                }
            } else {
                match old {
                    None => problems.push(format!("{} is missing", path.display())),
                    Some(old) => {
                        if let Some(diff) = first_difference(&old.replace("\r\n", "\n"), &text) {
                            problems.push(format!("{} differs: {diff}", path.display()));
                        }
                    }
                }
            }
            expected_files.push(path);
        }
        for path in golden_files(dir) {
            if expected_files.contains(&path) {
                continue;
            }
            if bless {
                std::fs::remove_file(&path)
                    .unwrap_or_else(|e| panic!("cannot delete {}: {e}", path.display()));
                eprintln!("deleted {}", path.display());
            } else {
                problems.push(format!(
                    "{} belongs to no golden option set",
                    path.display()
                ));
            }
        }
        assert!(
            problems.is_empty(),
            "golden playthroughs of {}:\n{}\n\nIf the change is intended, rewrite the files with\n    {rerun}\nand review their diff.",
            G::info().name,
            problems.join("\n\n")
        );
    }
}

/// Each run with each of its seeds.
fn seeded<T>(runs: &[T], seeds: impl Fn(&T) -> &Range<u64>) -> Vec<(&T, u64)> {
    runs.iter()
        .flat_map(|run| seeds(run).clone().map(move |seed| (run, seed)))
        .collect()
}

/// Runs `check` on every item, spread over the available cores (the checks of the suite are
/// independent games and positions). A failure stops the remaining items and is passed on, after
/// the failing item is printed.
fn in_parallel<T: Sync + Debug>(items: &[T], check: impl Fn(&T) + Sync) {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(items.len());
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || -> std::thread::Result<()> {
        while !failed.load(Ordering::Relaxed) {
            let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            if let Err(panic) = std::panic::catch_unwind(AssertUnwindSafe(|| check(item))) {
                eprintln!("the failing check: {item:?}");
                failed.store(true, Ordering::Relaxed);
                return Err(panic);
            }
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        for worker in workers {
            if let Err(panic) = worker.join().expect("a check thread ends") {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// The seed of the move choices of golden playthroughs is the game's seed mixed with this.
const GOLDEN_SALT: u64 = 0x0060_1DE4;

/// The file name of the golden playthroughs under `options`: their canonical text, with any
/// character that does not belong in a file name replaced by `_`.
fn golden_file_name(options: &Options) -> String {
    let name: String = options
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "=,.+-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{name}.txt")
}

/// The `.txt` files in `dir` (none when it does not exist), sorted.
fn golden_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

/// The golden playthroughs of the games `seeds` under `options`, at most `plies` moves each.
///
/// # Panics
/// When a game cannot be made, or a move text contains `; ` or a line break (the separators of
/// the file).
#[must_use]
pub fn golden_text<G: Game>(options: &Options, seeds: Range<u64>, plies: u32) -> String {
    let info = G::info();
    let mut lines = vec![
        format!(
            "# Golden playthroughs of {} with options {options}:",
            info.name
        ),
        format!("# seeded random games of at most {plies} plies; for every ply the position, the"),
        "# legal moves in order and the move played. BOARDLAB_BLESS=1 rewrites this file (see"
            .to_string(),
        "# crates/core/src/testkit.rs).".to_string(),
    ];
    let mut moves = Vec::new();
    for seed in seeds {
        let mut game: G = new_game(options, seed);
        let mut rng = crate::rng(seed ^ GOLDEN_SALT);
        lines.push(String::new());
        lines.push(format!("game seed {seed}"));
        for n in 0..=plies {
            lines.push(String::new());
            lines.push(format!("ply {}", game.ply()));
            if info.has_position_text {
                lines.push(format!("position {}", game.position_text()));
            } else {
                lines.push("position".to_string());
                lines.extend(game.diagram().lines().map(|l| format!("  {l}")));
            }
            game.legal_moves(&mut moves);
            let texts: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
            for t in &texts {
                assert!(
                    !t.contains("; ") && !t.contains('\n'),
                    "golden playthroughs: move text '{t}' contains a separator"
                );
            }
            lines.push(format!("legal {}: {}", texts.len(), texts.join("; ")));
            if moves.is_empty() {
                lines.push(match game.outcome() {
                    Some(outcome) => format!("end: {outcome}"),
                    None => "end: no legal move and no outcome".to_string(),
                });
                break;
            }
            if n == plies {
                lines.push(format!("stopped after {plies} plies"));
                break;
            }
            let i = usize::try_from(rng.next_u64() % moves.len() as u64).expect("an index");
            lines.push(format!("play {}", texts[i]));
            game.play(moves[i])
                .unwrap_or_else(|e| panic!("{options:?} seed {seed}: {e}"));
        }
    }
    lines.push(String::new());
    lines.join("\n")
}

/// Where `actual` first differs from `expected`, as a readable report: the game and ply, the
/// two lines, and for lists of legal moves which moves only one side has.
fn first_difference(expected: &str, actual: &str) -> Option<String> {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let i = (0..old.len().max(new.len())).find(|&i| old.get(i) != new.get(i))?;
    let mut game = None;
    let mut ply = None;
    for line in new[..i.min(new.len())].iter().rev() {
        if ply.is_none() {
            ply = line.strip_prefix("ply ");
        }
        if let Some(g) = line.strip_prefix("game ") {
            game = Some(g);
            break;
        }
    }
    let place = match (game, ply) {
        (Some(g), Some(p)) => format!("game {g}, ply {p}"),
        (Some(g), None) => format!("game {g}"),
        _ => "the heading".to_string(),
    };
    let show = |line: Option<&&str>| match line {
        Some(l) if l.chars().count() > 400 => {
            format!("{}…", l.chars().take(400).collect::<String>())
        }
        Some(l) => (*l).to_string(),
        None => "(end of file)".to_string(),
    };
    let mut report = format!(
        "first difference at {place} (line {}):\n  expected: {}\n  actual:   {}",
        i + 1,
        show(old.get(i)),
        show(new.get(i))
    );
    if let (Some(a), Some(b)) = (old.get(i), new.get(i)) {
        if let (Some(a), Some(b)) = (legal_list(a), legal_list(b)) {
            let only_expected: Vec<&str> = a.iter().filter(|m| !b.contains(m)).copied().collect();
            let only_actual: Vec<&str> = b.iter().filter(|m| !a.contains(m)).copied().collect();
            if only_expected.is_empty() && only_actual.is_empty() {
                report.push_str("\n  the same moves in another order");
            } else {
                let _ = write!(
                    report,
                    "\n  only expected: {only_expected:?}\n  only actual:   {only_actual:?}"
                );
            }
        }
    }
    Some(report)
}

/// The moves of a `legal N: a; b; …` line.
fn legal_list(line: &str) -> Option<Vec<&str>> {
    let (_, list) = line.strip_prefix("legal ")?.split_once(':')?;
    let list = list.trim_start();
    Some(if list.is_empty() {
        Vec::new()
    } else {
        list.split("; ").collect()
    })
}

/// Expands, in a game's `tests/engine.rs`, to the engine suite of the game: a module
/// `suite` with the tests `conformance`, `perft_file`, `reference_perft_file`,
/// `reference_playouts`, `reference_perft` and `golden_playthroughs` (see the
/// [`testkit`](crate::testkit) module). The fields after `game` are those of
/// [`Suite`](crate::testkit::Suite); they may use anything the calling file defines or imports.
///
/// ```text
/// mod common;
///
/// use boardlab_core::testkit::{PerftRuns, Runs};
/// use boardlab_core::Game;
/// use boardlab_obsidio::Obsidio;
///
/// boardlab_core::engine_suite! {
///     game: Obsidio,
///     conformance: Runs::each(&["size=7", "size=9,pie=false"], 0..3, 300),
///     perft: include_str!("perft/reference.txt"),
///     perft_counts: 19,
///     reference: |game: &Obsidio| common::Ref::new(game.options()),
///     reference_playouts: Runs::each(&["size=7", "size=9,pie=false"], 0..20, 400),
///     reference_perft: PerftRuns::each(&["size=7", "size=9"], 0..4, 4..16, 2),
///     golden: Runs::each(&["size=7", "size=9"], 0..3, 60),
/// }
/// ```
///
/// The golden files live in the calling crate's `tests/golden/`.
#[macro_export]
macro_rules! engine_suite {
    (game: $game:ty, $($field:ident: $value:expr),+ $(,)?) => {
        // Tests start in name order: a game's own tests in modules named before `suite` (such
        // as `playouts`) start first, so that their long single-threaded checks overlap the
        // suite's, which use every core.
        mod suite {
            #[allow(unused_imports)]
            use super::*;

            fn data() -> $crate::testkit::Suite<$game, impl $crate::testkit::Reference> {
                $crate::testkit::Suite { $($field: $value),+ }
            }

            #[test]
            fn conformance() {
                data().check_conformance();
            }

            #[test]
            fn perft_file() {
                data().check_perft_file();
            }

            #[test]
            fn reference_perft_file() {
                data().check_reference_perft_file();
            }

            #[test]
            fn reference_playouts() {
                data().check_reference_playouts();
            }

            #[test]
            fn reference_perft() {
                data().check_reference_perft();
            }

            #[test]
            fn golden_playthroughs() {
                let test = module_path!().split("::").next().unwrap_or("engine");
                data().check_golden(
                    ::std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden")),
                    &format!(
                        "BOARDLAB_BLESS=1 cargo test -p {} --test {test} golden",
                        env!("CARGO_PKG_NAME")
                    ),
                );
            }
        }
    };
}
