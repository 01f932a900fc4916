//! The Sight Reduction puzzles the web app offers, made on request, and the judge of each move
//! played in them.
//!
//! Two kinds, each in three grades ([`Difficulty`]):
//! - **solitaire** ("clear the board"): one person removes for both colours, White first,
//!   until exactly one White and one Black piece are left. Made by
//!   [`puzzle::solitaire_candidate`].
//! - **win** ("win from here"): a two-player position the colour to move wins with perfect
//!   play; the player must keep the win with every removal against the computer's best
//!   defence (the removal that holds out longest) until the opponent has no removal left.
//!   Made by [`puzzle::win_candidate`].
//!
//! A puzzle is named by kind, grade and number ([`PuzzleId`], `clear-easy-12`): the number is
//! the seed of the generator's run, so the same name always gives the same puzzle. Making one
//! takes milliseconds to a few seconds ([`make`] is bounded by [`MAX_TRIES`] candidates, each
//! bounded by the solver's node limit, and by a deadline); judging a move takes milliseconds,
//! since a "win from here" puzzle has at most 16 pieces and the solitaire judge stops after
//! [`SOLITAIRE_NODES`] positions.
//!
//! [`puzzle::solitaire_candidate`]: crate::puzzle::solitaire_candidate
//! [`puzzle::win_candidate`]: crate::puzzle::win_candidate

use crate::puzzle::{candidate_seed, solitaire_candidate, win_candidate, Difficulty};
use crate::solitaire::{solve_position, SolitaireGoal};
use crate::{Position, RuleSet, Solver, SolverConfig};
use boardlab_core::{Game, MoveError, Outcome, Wdl};
use boardlab_core::{Notation, Rules as _};
use boardlab_sight_reduction::{SightReduction, BLACK, WHITE};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;
use web_time::Instant;

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleKind {
    /// Remove for both colours until one White and one Black piece are left.
    Solitaire,
    /// Win against the computer's best defence.
    Win,
}

impl PuzzleKind {
    /// Both kinds, in the order offered.
    pub const ALL: [PuzzleKind; 2] = [PuzzleKind::Solitaire, PuzzleKind::Win];

    /// The word in puzzle names: `clear` or `win`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            PuzzleKind::Solitaire => "clear",
            PuzzleKind::Win => "win",
        }
    }

    /// The title for people.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            PuzzleKind::Solitaire => "Clear the board",
            PuzzleKind::Win => "Win from here",
        }
    }

    /// What the player does, in plain words.
    #[must_use]
    pub fn goal(self) -> &'static str {
        match self {
            PuzzleKind::Solitaire => {
                "Remove pieces for both colours in turn, each removal following the usual rule, \
                 until exactly one White and one Black piece are left."
            }
            PuzzleKind::Win => {
                "Win against the computer: every removal must keep the win, whatever the \
                 computer answers, until your opponent has no removal left."
            }
        }
    }
}

/// The grades, in the order offered.
pub const DIFFICULTIES: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

/// The highest puzzle number.
pub const MAX_NUMBER: u64 = 1_000_000;

/// A puzzle's name: kind, grade and number, written `clear-easy-12` or `win-hard-3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PuzzleId {
    pub kind: PuzzleKind,
    pub difficulty: Difficulty,
    /// 1 to [`MAX_NUMBER`].
    pub number: u64,
}

impl fmt::Display for PuzzleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}",
            self.kind.word(),
            self.difficulty,
            self.number
        )
    }
}

/// A name that is not a puzzle's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "no puzzle '{0}': puzzles are named KIND-GRADE-NUMBER, KIND clear or win, GRADE easy, \
     medium or hard, NUMBER 1 to 1000000 (for example clear-easy-1)"
)]
pub struct BadPuzzleId(pub String);

impl FromStr for PuzzleId {
    type Err = BadPuzzleId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadPuzzleId(s.chars().take(40).collect());
        let mut parts = s.split('-');
        let (Some(kind), Some(grade), Some(number), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let kind = PuzzleKind::ALL
            .into_iter()
            .find(|k| k.word() == kind)
            .ok_or_else(bad)?;
        let difficulty = grade.parse().map_err(|_| bad())?;
        if number.is_empty()
            || number.starts_with('0')
            || !number.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let number: u64 = number.parse().map_err(|_| bad())?;
        if !(1..=MAX_NUMBER).contains(&number) {
            return Err(bad());
        }
        Ok(PuzzleId {
            kind,
            difficulty,
            number,
        })
    }
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleEntry {
    /// `clear-easy-12`, …
    pub id: String,
    pub kind: PuzzleKind,
    /// The kind's word in ids: `clear` or `win`.
    pub word: &'static str,
    pub difficulty: Difficulty,
    pub number: u64,
    /// `Clear the board` or `Win from here`.
    pub title: &'static str,
    /// What the player does, in plain words.
    pub goal: &'static str,
    /// The game options that differ from the defaults.
    pub options: BTreeMap<String, String>,
    /// The starting position.
    pub position: String,
    /// Solitaire: a solution. Win: every first move that keeps the win.
    pub solution: Vec<String>,
    /// Legal first moves.
    pub first_moves: u32,
    /// First moves after which the puzzle can no longer be solved (won).
    pub dead_ends: u32,
    /// The game seed of the random set-up the puzzle comes from.
    pub seed: u64,
}

impl PuzzleEntry {
    /// The game at the puzzle's start.
    ///
    /// # Panics
    /// An entry not made by [`make`] whose position does not read back.
    #[must_use]
    pub fn game(&self) -> SightReduction {
        let options = SightReduction::info()
            .options_from_pairs(&self.options)
            .unwrap_or_else(|e| panic!("puzzle {}: {e}", self.id));
        SightReduction::from_position(&options, &self.position)
            .unwrap_or_else(|e| panic!("puzzle {}: {e}", self.id))
    }
}

/// How many candidate set-ups [`make`] tries at most.
pub const MAX_TRIES: u64 = 2_000;

/// The most positions one search of the solitaire generator visits (a set-up needing more
/// is skipped): small, so that one set-up takes milliseconds and a puzzle rarely more than a
/// second.
pub const MAKE_NODES: u64 = 200_000;

/// Why a puzzle could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MakeError {
    #[error("no puzzle {0}: the generator found none within {MAX_TRIES} set-ups")]
    NotFound(String),
    #[error("puzzle {0} took too long to make; try again later")]
    OutOfTime(String),
}

/// Makes puzzle `id`: the first candidate of the generator's run with seed `id.number` that
/// has the grade asked. Gives up after [`MAX_TRIES`] candidates, or once `deadline` has
/// passed (looked at between candidates).
///
/// # Errors
/// No such puzzle within the tries, or the deadline passed.
pub fn make(id: PuzzleId, deadline: Option<Instant>) -> Result<PuzzleEntry, MakeError> {
    let info = SightReduction::info();
    let name = id.to_string();
    let mut solver = (id.kind == PuzzleKind::Win).then(|| {
        Solver::new(SolverConfig {
            table_bytes: 8 << 20,
            node_limit: u64::MAX,
        })
    });
    let options = match id.kind {
        PuzzleKind::Solitaire => info
            .parse_options("mode=solitaire")
            .expect("solitaire options"),
        PuzzleKind::Win => info.default_options(),
    };
    let config = SolverConfig {
        table_bytes: 8 << 20,
        node_limit: MAKE_NODES,
    };
    for i in 0..MAX_TRIES {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(MakeError::OutOfTime(name));
        }
        let s = candidate_seed(id.number, i);
        let found = match &mut solver {
            None => solitaire_candidate(&options, s, Some(id.difficulty), config)
                .expect("solitaire options")
                .map(|p| (p.position, p.solution, p.first_moves, p.dead_ends)),
            Some(solver) => win_candidate(&options, s, Some(id.difficulty), solver)
                .expect("match options")
                .map(|p| (p.position, p.winning, p.first_moves, p.dead_ends)),
        };
        if let Some((position, solution, first_moves, dead_ends)) = found {
            return Ok(PuzzleEntry {
                id: name,
                kind: id.kind,
                word: id.kind.word(),
                difficulty: id.difficulty,
                number: id.number,
                title: id.kind.title(),
                goal: id.kind.goal(),
                options: options.to_map(),
                position,
                solution,
                first_moves,
                dead_ends,
                seed: s,
            });
        }
    }
    Err(MakeError::NotFound(name))
}

/// What the judge says about the last move of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleVerdict {
    /// The puzzle can still be solved (won), or is solved.
    Good,
    /// The move throws the solution (the win) away.
    Mistake,
    /// The solver could not decide within its budget (solitaire only).
    Unknown,
}

/// The judge's answer about the last move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub verdict: PuzzleVerdict,
    /// Whether the move completes the puzzle.
    pub solved: bool,
    /// Win puzzles: the computer's answer, the removal that holds out longest (`None` when
    /// the game is over or the move is a mistake).
    pub reply: Option<String>,
    /// A sentence for the player.
    pub text: String,
}

/// A line of moves the judge cannot take.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JudgeError {
    #[error("no move to judge: send the moves played so far, the player's last")]
    Empty,
    #[error("move {number}: {error}")]
    Move { number: usize, error: MoveError },
    #[error("move {number} '{text}': the puzzle is already over")]
    Over { number: usize, text: String },
    #[error(
        "move {number} is the computer's: in a \"win from here\" puzzle the player makes moves \
         1, 3, 5, … and the line must end with one of them"
    )]
    NotPlayersMove { number: usize },
    #[error(
        "the line ends with the player's move: in a \"win from here\" puzzle a hint is asked \
         after the computer's answer (an even number of moves)"
    )]
    NotPlayersTurn,
}

/// The most positions the solitaire solver visits to judge one move or give one hint.
pub const SOLITAIRE_NODES: u64 = 4_000_000;

fn colour_name(white: bool) -> &'static str {
    if white {
        "White"
    } else {
        "Black"
    }
}

/// `moves` played from the start of `entry`.
fn replay(entry: &PuzzleEntry, moves: &[String]) -> Result<SightReduction, JudgeError> {
    let mut game = entry.game();
    for (i, text) in moves.iter().enumerate() {
        if game.outcome().is_some() {
            return Err(JudgeError::Over {
                number: i + 1,
                text: text.chars().take(40).collect(),
            });
        }
        game.play_text(text).map_err(|error| JudgeError::Move {
            number: i + 1,
            error,
        })?;
    }
    Ok(game)
}

fn solitaire_config() -> SolverConfig {
    SolverConfig {
        table_bytes: 8 << 20,
        node_limit: SOLITAIRE_NODES,
    }
}

fn win_solver() -> Solver {
    // A puzzle has at most 16 pieces: the solver answers at once, with no budget.
    Solver::new(SolverConfig {
        table_bytes: 4 << 20,
        node_limit: u64::MAX,
    })
}

/// Judges the last of `moves`, played from the start of `entry` (for a win puzzle, the
/// player's and the computer's moves in turn, the player's last).
///
/// # Errors
/// An empty line, a malformed or illegal move, a move after the end, or a win puzzle's line
/// that ends with the computer's move.
pub fn judge(entry: &PuzzleEntry, moves: &[String]) -> Result<Judgement, JudgeError> {
    if moves.is_empty() {
        return Err(JudgeError::Empty);
    }
    if entry.kind == PuzzleKind::Win && moves.len() % 2 == 0 {
        return Err(JudgeError::NotPlayersMove {
            number: moves.len(),
        });
    }
    let player_white = entry.game().side_to_move() == WHITE;
    let game = replay(entry, moves)?;
    Ok(match entry.kind {
        PuzzleKind::Solitaire => judge_solitaire(&game),
        PuzzleKind::Win => judge_win(&game, player_white),
    })
}

fn judge_solitaire(game: &SightReduction) -> Judgement {
    let judgement = |verdict, solved, text: String| Judgement {
        verdict,
        solved,
        reply: None,
        text,
    };
    if let Some(Outcome::Puzzle { solved, score, .. }) = game.outcome() {
        return if solved {
            judgement(
                PuzzleVerdict::Good,
                true,
                "Solved: one White and one Black piece are left.".into(),
            )
        } else {
            judgement(
                PuzzleVerdict::Mistake,
                false,
                format!("That ends the puzzle with {score} pieces left: try another removal."),
            )
        };
    }
    let r = solve_position(
        SolitaireGoal::of(game),
        game.pieces(WHITE),
        game.pieces(BLACK),
        game.side_to_move(),
        solitaire_config(),
    );
    if r.solved {
        judgement(PuzzleVerdict::Good, false, "Still solvable.".into())
    } else if r.exhaustive {
        judgement(
            PuzzleVerdict::Mistake,
            false,
            "From there the puzzle can no longer be solved: try another removal.".into(),
        )
    } else {
        judgement(PuzzleVerdict::Unknown, false, String::new())
    }
}

fn judge_win(game: &SightReduction, player_white: bool) -> Judgement {
    let (me, them) = (colour_name(player_white), colour_name(!player_white));
    if game.outcome().is_some() {
        return Judgement {
            verdict: PuzzleVerdict::Good,
            solved: true,
            reply: None,
            text: format!("{me} wins: {them} has no removal left."),
        };
    }
    let mut solver = win_solver();
    let rules = RuleSet::of(game.config());
    let pos = Position::of(game).expect("a removal-phase position");
    if solver.solve(rules, pos).result_for(pos.seat) == Wdl::Win {
        return Judgement {
            verdict: PuzzleVerdict::Mistake,
            solved: false,
            reply: None,
            text: format!("That lets {them} win: try another removal."),
        };
    }
    let (reply, _) = solver
        .best_move(rules, pos, true)
        .expect("a position that is not over has a move");
    Judgement {
        verdict: PuzzleVerdict::Good,
        solved: false,
        reply: Some(game.format_move(reply)),
        text: format!("Good: {me} keeps the win."),
    }
}

/// A suggested move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleHint {
    /// A move that keeps the puzzle solvable (won), if one was found.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// A sentence for the player.
    pub text: String,
}

/// A move that keeps the puzzle solvable (won) after `moves`: for a solitaire the next move of
/// a solution, for a win puzzle the fastest win. None when the puzzle can no longer be solved
/// (won) from there, or the solitaire solver could not tell within its budget.
///
/// # Errors
/// A malformed or illegal move, a finished puzzle, or a win puzzle's line that ends with the
/// player's move.
pub fn hint(entry: &PuzzleEntry, moves: &[String]) -> Result<PuzzleHint, JudgeError> {
    if entry.kind == PuzzleKind::Win && moves.len() % 2 == 1 {
        return Err(JudgeError::NotPlayersTurn);
    }
    let game = replay(entry, moves)?;
    if game.outcome().is_some() {
        return Err(JudgeError::Over {
            number: moves.len(),
            text: moves.last().cloned().unwrap_or_default(),
        });
    }
    let lost = "From here the puzzle can no longer be solved: take back a move or start again.";
    let found = |m: String| PuzzleHint {
        text: format!("Try {m}."),
        mv: Some(m),
    };
    let none = |text: &str| PuzzleHint {
        mv: None,
        text: text.to_string(),
    };
    Ok(match entry.kind {
        PuzzleKind::Solitaire => {
            let r = solve_position(
                SolitaireGoal::of(&game),
                game.pieces(WHITE),
                game.pieces(BLACK),
                game.side_to_move(),
                solitaire_config(),
            );
            match r.moves.first() {
                Some(&m) if r.solved => found(game.format_move(m)),
                _ if r.exhaustive => none(lost),
                _ => none("No hint this time: the position is too large to work out quickly."),
            }
        }
        PuzzleKind::Win => {
            let mut solver = win_solver();
            let rules = RuleSet::of(game.config());
            let pos = Position::of(&game).expect("a removal-phase position");
            match solver.best_move(rules, pos, true) {
                Some((m, v)) if v.result_for(pos.seat) == Wdl::Win => found(game.format_move(m)),
                _ => none(lost),
            }
        }
    })
}
