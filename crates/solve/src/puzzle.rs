//! Puzzle generation.
//!
//! - Solitaire puzzles ([`generate`]): random set-ups that can be solved, graded by how many
//!   of the legal first moves lead to dead ends (positions from which the goal can no longer
//!   be reached).
//! - "Win from here" puzzles ([`generate_wins`]): two-player positions that the side to move
//!   wins with perfect play, graded the same way by how many first moves throw the win away.

use crate::solitaire::{solve_position, SolitaireGoal};
use crate::{RuleSet, Solver, SolverConfig};
use boardlab_core::rand::Rng;
use boardlab_core::{Game, Options, Wdl};
use boardlab_core::{Notation, Rules as _};
use boardlab_sight_reduction::{SightReduction, BLACK, WHITE};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How hard a puzzle is: the share of first moves that lead to dead ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Fewer than a quarter of the first moves are dead ends.
    Easy,
    /// From a quarter up to (not including) a half.
    Medium,
    /// Half of the first moves or more are dead ends.
    Hard,
}

impl Difficulty {
    /// The grade of a puzzle with `dead` dead-end first moves out of `moves`.
    #[must_use]
    pub fn grade(dead: u32, moves: u32) -> Difficulty {
        if 4 * dead < moves {
            Difficulty::Easy
        } else if 2 * dead < moves {
            Difficulty::Medium
        } else {
            Difficulty::Hard
        }
    }

    /// The name: `easy`, `medium` or `hard`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "easy" => Ok(Difficulty::Easy),
            "medium" => Ok(Difficulty::Medium),
            "hard" => Ok(Difficulty::Hard),
            _ => Err(format!(
                "unknown difficulty '{s}'; accepted: easy, medium, hard"
            )),
        }
    }
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Puzzle {
    /// The game seed of the set-up (`setup=random`) it comes from.
    pub seed: u64,
    /// Removals played from that set-up to reach the puzzle.
    pub plies: u32,
    /// The position text of the puzzle.
    pub position: String,
    /// A solution, in move notation.
    pub solution: Vec<String>,
    /// Legal first moves.
    pub first_moves: u32,
    /// First moves after which the puzzle can no longer be solved.
    pub dead_ends: u32,
    /// The grade.
    pub difficulty: Difficulty,
}

/// Grades one solitaire set-up: `None` when it cannot be solved, or when a search needed
/// more than `config.node_limit` positions (the set-up is then skipped, not guessed).
#[must_use]
pub fn grade(game: &SightReduction, config: SolverConfig) -> Option<Puzzle> {
    let goal = SolitaireGoal::of(game);
    let (w, b, side) = (game.pieces(WHITE), game.pieces(BLACK), game.side_to_move());
    let whole = solve_position(goal, w, b, side, config);
    if !whole.solved {
        return None;
    }
    let mut moves = Vec::new();
    let rules: RuleSet = goal.rules;
    let me = if side == WHITE { w } else { b };
    let opp = if side == WHITE { b } else { w };
    rules.moves(me, opp, &mut moves);
    let mut dead = 0;
    for &m in &moves {
        let (w2, b2) = if side == WHITE {
            (w & !m, b)
        } else {
            (w, b & !m)
        };
        let r = solve_position(goal, w2, b2, side.other(), config);
        if !r.exhaustive {
            return None;
        }
        if !r.solved {
            dead += 1;
        }
    }
    let n = moves.len() as u32;
    Some(Puzzle {
        seed: 0,
        plies: 0,
        position: game.position_text(),
        solution: whole.moves.iter().map(|&m| game.format_move(m)).collect(),
        first_moves: n,
        dead_ends: dead,
        difficulty: Difficulty::grade(dead, n),
    })
}

/// The game seed of the `i`-th candidate set-up for a run with `seed`.
#[must_use]
pub fn candidate_seed(seed: u64, i: u64) -> u64 {
    boardlab_core::zobrist::splitmix64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).1
}

/// The range of removals played into a set-up before it becomes a puzzle, by difficulty
/// asked: with fewer pieces left, more first moves are dead ends.
fn plies_range(difficulty: Option<Difficulty>) -> (u64, u64) {
    match difficulty {
        Some(Difficulty::Easy) => (4, 16),
        Some(Difficulty::Medium) => (14, 22),
        Some(Difficulty::Hard) => (18, 24),
        None => (8, 24),
    }
}

/// Checks that `options` make solitaire games with a random set-up.
fn check_solitaire_options(options: &Options) -> Result<(), String> {
    if options.get("mode") != "solitaire" {
        return Err("puzzles are solitaire games: use mode=solitaire".into());
    }
    if options.get("setup") != "random" {
        return Err("puzzles start from random set-ups: use setup=random".into());
    }
    Ok(())
}

/// The solitaire puzzle made from the random set-up with game seed `s` (of `difficulty` when
/// given): when the set-up can be solved, the first moves of the solution found are played (a
/// number drawn from `s`, more for harder puzzles) so that choices matter, and the position
/// reached becomes the puzzle, graded by [`grade`]. `None` when the set-up cannot be solved,
/// a search needs more than `config.node_limit` positions, or the grade is not the one asked.
///
/// # Errors
/// Options that do not make a solitaire game with a random set-up.
pub fn solitaire_candidate(
    options: &Options,
    s: u64,
    difficulty: Option<Difficulty>,
    config: SolverConfig,
) -> Result<Option<Puzzle>, String> {
    check_solitaire_options(options)?;
    let (lo, hi) = plies_range(difficulty);
    let mut game = SightReduction::new(options, s).map_err(|e| e.to_string())?;
    let whole = crate::solitaire::solve(&game, config).map_err(|e| e.to_string())?;
    if !whole.solved {
        return Ok(None);
    }
    let plies = lo + (boardlab_core::zobrist::splitmix64(s).1 % (hi - lo + 1));
    let plies = plies.min(whole.moves.len().saturating_sub(1) as u64);
    for &m in &whole.moves[..plies as usize] {
        game.play_unchecked(m);
    }
    Ok(grade(&game, config).and_then(|mut p| {
        p.seed = s;
        p.plies = plies as u32;
        difficulty.is_none_or(|d| d == p.difficulty).then_some(p)
    }))
}

/// Generates `count` puzzles (of `difficulty` when given) with `options` (which must have
/// `mode=solitaire`; the other options choose the variant).
///
/// Candidate `i` is [`solitaire_candidate`] with game seed [`candidate_seed`]`(seed, i)`.
/// Gives up after `max_tries` candidates; calls `progress(found, tried)` after each.
///
/// # Errors
/// Options that do not make a solitaire game with a random set-up.
pub fn generate(
    options: &Options,
    count: usize,
    seed: u64,
    difficulty: Option<Difficulty>,
    max_tries: u64,
    config: SolverConfig,
    mut progress: impl FnMut(usize, u64),
) -> Result<Vec<Puzzle>, String> {
    check_solitaire_options(options)?;
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < count && i < max_tries {
        let s = candidate_seed(seed, i);
        i += 1;
        if let Some(p) = solitaire_candidate(options, s, difficulty, config)? {
            out.push(p);
        }
        progress(out.len(), i);
    }
    Ok(out)
}

/// A generated "win from here" puzzle: a two-player position whose side to move wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinPuzzle {
    /// The game seed of the random set-up it comes from.
    pub seed: u64,
    /// Random removals played from that set-up to reach the puzzle.
    pub plies: u32,
    /// The position text.
    pub position: String,
    /// The first moves that keep the win, in the engine's order.
    pub winning: Vec<String>,
    /// Legal first moves.
    pub first_moves: u32,
    /// First moves that throw the win away.
    pub dead_ends: u32,
    /// Plies to the end with perfect play (the winner as fast as possible, the loser holding
    /// out as long as possible).
    pub length: u32,
    /// The grade, by the share of first moves that throw the win away.
    pub difficulty: Difficulty,
}

/// The pieces left in a "win from here" puzzle: few enough that the solver answers every
/// move at once.
pub const WIN_PIECES: std::ops::RangeInclusive<u32> = 12..=16;

/// Grades a two-player removal-phase position as a "win from here" puzzle: `None` unless the
/// side to move wins with perfect play in at least 3 plies (so that the player moves at least
/// twice) and some first move throws the win away.
#[must_use]
pub fn grade_win(game: &SightReduction, solver: &mut Solver) -> Option<WinPuzzle> {
    let seat = game.to_move();
    let value = solver.solve_game_distance(game).ok()?;
    let length = value.plies?;
    if value.result_for(seat) != Wdl::Win || length < 3 {
        return None;
    }
    let moves = solver.game_move_values(game, false).ok()?;
    let winning: Vec<String> = moves
        .iter()
        .filter(|(_, v)| v.result_for(seat) == Wdl::Win)
        .map(|&(m, _)| game.format_move(m))
        .collect();
    let n = moves.len() as u32;
    let dead = n - winning.len() as u32;
    (dead > 0).then(|| WinPuzzle {
        seed: 0,
        plies: 0,
        position: game.position_text(),
        winning,
        first_moves: n,
        dead_ends: dead,
        length,
        difficulty: Difficulty::grade(dead, n),
    })
}

/// Checks that `options` make two-player games with a random set-up.
fn check_match_options(options: &Options) -> Result<(), String> {
    if options.get("mode") != "match" {
        return Err("\"win from here\" puzzles are two-player games: use mode=match".into());
    }
    if options.get("setup") != "random" {
        return Err("puzzles start from random set-ups: use setup=random".into());
    }
    Ok(())
}

/// The "win from here" puzzle made from the random set-up with game seed `s` (of
/// `difficulty` when given): random removals drawn from `s` are played until a number of
/// pieces drawn from [`WIN_PIECES`] is left, and the position reached is kept when
/// [`grade_win`] accepts it.
///
/// # Errors
/// Options that do not make a two-player game with a random set-up.
pub fn win_candidate(
    options: &Options,
    s: u64,
    difficulty: Option<Difficulty>,
    solver: &mut Solver,
) -> Result<Option<WinPuzzle>, String> {
    check_match_options(options)?;
    let mut game = SightReduction::new(options, s).map_err(|e| e.to_string())?;
    let mut rng = boardlab_core::rng(s);
    let target = rng.random_range(WIN_PIECES);
    let mut buf = Vec::new();
    let mut plies = 0;
    while game.occupied().count_ones() > target {
        let Some(m) = game.random_move(&mut rng, &mut buf) else {
            break;
        };
        game.play_unchecked(m);
        plies += 1;
    }
    if game.outcome().is_some() {
        return Ok(None);
    }
    Ok(grade_win(&game, solver).and_then(|mut p| {
        p.seed = s;
        p.plies = plies;
        difficulty.is_none_or(|d| d == p.difficulty).then_some(p)
    }))
}

/// Generates `count` "win from here" puzzles (of `difficulty` when given) with `options` (a
/// two-player game with a random set-up): candidate `i` is [`win_candidate`] with game seed
/// [`candidate_seed`]`(seed, i)`. Gives up after `max_tries` candidates; calls
/// `progress(found, tried)` after each.
///
/// # Errors
/// Options that do not make a two-player game with a random set-up.
pub fn generate_wins(
    options: &Options,
    count: usize,
    seed: u64,
    difficulty: Option<Difficulty>,
    max_tries: u64,
    mut progress: impl FnMut(usize, u64),
) -> Result<Vec<WinPuzzle>, String> {
    check_match_options(options)?;
    let mut solver = Solver::new(SolverConfig {
        table_bytes: 16 << 20,
        node_limit: u64::MAX,
    });
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < count && i < max_tries {
        let s = candidate_seed(seed, i);
        i += 1;
        if let Some(p) = win_candidate(options, s, difficulty, &mut solver)? {
            out.push(p);
        }
        progress(out.len(), i);
    }
    Ok(out)
}
