//! The [`Game`] trait every boardlab game implements, and its error types.

use crate::options::{OptionError, OptionSpec, Options};
use crate::player::{Colour, Outcome, Seat};
use rand::Rng;
use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;
use thiserror::Error;

/// Static facts about a game, for interfaces and for algorithms that must know what kind of
/// game they face (minimax needs two players, zero sum, perfect information).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GameInfo {
    /// Name used on command lines, in records and in the API: `sight-reduction`.
    pub name: &'static str,
    /// Display title: `Sight Reduction`.
    pub title: &'static str,
    /// One sentence about the game.
    pub summary: &'static str,
    /// The colour of the first seat and of the second seat at the start (a swap or a colour
    /// choice may change that later: ask [`Game::colour_of`]).
    pub colours: [Colour; 2],
    /// Every option with allowed values, default and description.
    pub options: &'static [OptionSpec],
    /// Two players, one wins exactly when the other loses (draws allowed), perfect information.
    /// Solitaire modes are the exception and say so with [`Game::is_solitaire`].
    pub two_player_zero_sum: bool,
    /// Whether the game can end in a draw under some options.
    pub draws_possible: bool,
    /// A short example of a move and of each kind of move text, for help messages.
    pub move_examples: &'static str,
    /// Moves written as several words, as `"swap:2"` (the word `swap` and 2 more words), so
    /// that a space-separated move list can be split (see [`split_moves`]).
    pub multi_word_moves: &'static [&'static str],
    /// Whether the game defines a position text ([`Notation::from_position`]).
    pub has_position_text: bool,
    /// The options of the game's one-person mode, if it has one: the option that makes a game
    /// one played alone ([`Game::is_solitaire`]), listed first, and those that apply only then. A game
    /// between two players (a challenge, say) leaves them at their defaults.
    pub solitaire_options: &'static [&'static str],
}

impl GameInfo {
    /// Whether `text` names this game: its name in any case, with `_` or spaces for its
    /// dashes, or without them (`Sight_Reduction`, `sightreduction`).
    #[must_use]
    pub fn is_named(&self, text: &str) -> bool {
        let norm = text.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        self.name == norm || self.name.replace('-', "") == norm
    }

    /// The default options.
    #[must_use]
    pub fn default_options(&'static self) -> Options {
        Options::defaults(self.name, self.options)
    }

    /// Parses options as `key=value,…`.
    ///
    /// # Errors
    /// An unknown option or value, naming what is accepted.
    pub fn parse_options(&'static self, text: &str) -> Result<Options, OptionError> {
        Options::parse(self.name, self.options, text)
    }

    /// Options from `(key, value)` pairs.
    ///
    /// # Errors
    /// An unknown option or value, naming what is accepted.
    pub fn options_from_pairs<K: AsRef<str>, V: AsRef<str>>(
        &'static self,
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Options, OptionError> {
        Options::from_pairs(self.name, self.options, pairs)
    }
}

/// Move text that is not a move of this game at all (syntax). See also [`IllegalMove`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed move '{text}': {reason}; moves look like {examples}")]
pub struct ParseMoveError {
    pub text: String,
    pub reason: String,
    pub examples: &'static str,
}

impl ParseMoveError {
    /// A parse error for `G`'s move syntax.
    #[must_use]
    pub fn new<G: Game>(text: &str, reason: impl Into<String>) -> Self {
        ParseMoveError {
            text: text.to_string(),
            reason: reason.into(),
            examples: G::info().move_examples,
        }
    }
}

/// A well-formed move that the rules do not allow in this position. The position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal move '{text}': {reason}")]
pub struct IllegalMove {
    pub text: String,
    pub reason: String,
}

/// Either kind of bad move text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// A position text that does not describe a valid position. Lists every problem found.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid position '{text}': {}", problems.join("; "))]
pub struct PositionError {
    pub text: String,
    pub problems: Vec<String>,
}

impl PositionError {
    /// An error with one problem.
    #[must_use]
    pub fn new(text: &str, problem: impl Into<String>) -> Self {
        PositionError {
            text: text.to_string(),
            problems: vec![problem.into()],
        }
    }
}

/// Why a game could not be created.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NewGameError {
    #[error(transparent)]
    Options(#[from] OptionError),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("{0}")]
    Unsupported(String),
}

/// Why [`Notation::from_setup`] refused a set-up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Rejection {
    /// Options that make no game, whatever the set-up.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// A combination of options and set-up the game cannot play.
    #[error("{0}")]
    Unsupported(String),
    /// Every problem the rules find in the set-up, one line each.
    #[error("invalid set-up: {}", .0.join("; "))]
    Problems(Vec<String>),
}

impl Rejection {
    /// The error [`Notation::from_position`] gives when the set-up read from `text` is
    /// refused: the problems as a [`PositionError`] on that text, other reasons unchanged.
    #[must_use]
    pub fn into_error(self, text: &str) -> NewGameError {
        match self {
            Rejection::Options(e) => NewGameError::Options(e),
            Rejection::Unsupported(why) => NewGameError::Unsupported(why),
            Rejection::Problems(problems) => NewGameError::Position(PositionError {
                text: text.to_string(),
                problems,
            }),
        }
    }
}

impl From<NewGameError> for Rejection {
    fn from(e: NewGameError) -> Self {
        match e {
            NewGameError::Options(e) => Rejection::Options(e),
            NewGameError::Unsupported(why) => Rejection::Unsupported(why),
            NewGameError::Position(p) => Rejection::Problems(p.problems),
        }
    }
}

/// A set-up that [`Notation::from_setup`] refused, given back unchanged with the reason, so
/// that it can be corrected and checked again.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct Rejected<S> {
    /// The set-up as it was handed in.
    pub setup: S,
    /// Why it makes no game.
    pub reason: Rejection,
}

impl<S> Rejected<S> {
    /// Refuses `setup` for `reason` (a [`Rejection`], an [`OptionError`] or a
    /// [`NewGameError`]).
    #[must_use]
    pub fn new(setup: S, reason: impl Into<Rejection>) -> Self {
        Rejected {
            setup,
            reason: reason.into(),
        }
    }

    /// Passes `setup` on when `problems` is empty; otherwise refuses it, listing them.
    ///
    /// # Errors
    /// The set-up with [`Rejection::Problems`] when there is any problem.
    pub fn unless_problems(setup: S, problems: Vec<String>) -> Result<S, Self> {
        if problems.is_empty() {
            Ok(setup)
        } else {
            Err(Rejected::new(setup, Rejection::Problems(problems)))
        }
    }
}

/// The rules of a game: who moves, which moves are legal, where a move leads and when the game
/// is over. Everything a search needs, and nothing about text.
///
/// # Move order
/// [`Rules::legal_moves`] lists moves in a fixed order that each game documents; seeded runs
/// (random playouts, bots with a seed) are therefore reproducible.
///
/// Five methods are required; [`Rules::is_legal`], [`Rules::random_move`] and
/// [`Rules::playout`] are provided and may be overridden for speed.
pub trait Rules: Clone + PartialEq + Debug + Send + Sync + Sized + 'static {
    /// One whole turn. Two moves are equal exactly when their canonical notations are.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The seat whose turn it is. In a finished game, the seat that would move next.
    fn to_move(&self) -> Seat;

    /// Clears `moves` and fills it with every legal move, in the game's documented order.
    /// A finished game has none.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv` without checking it.
    ///
    /// For search code that only plays moves from [`Rules::legal_moves`]. An illegal move may
    /// leave the game in a state the rules cannot reach; it never causes undefined behaviour.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// The result once the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit hash of the position (Zobrist, kept up to date by `play_unchecked`).
    fn hash(&self) -> u64;

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// A uniformly random legal move (`None` when the game is over). `buf` is scratch space.
    fn random_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    /// Plays uniformly random moves to the end; returns the number of moves played.
    fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let mut buf = Vec::new();
        let mut n = 0;
        while let Some(mv) = self.random_move(rng, &mut buf) {
            self.play_unchecked(mv);
            n += 1;
        }
        n
    }
}

/// A game's notation: moves and positions as text, and a text diagram.
///
/// A position text is read in two steps, as a chess library reads a FEN: [`Notation::read_setup`]
/// turns the text into a [`Notation::Setup`] (syntax), then [`Notation::from_setup`] checks
/// that set-up against the options and the rules and builds the game, or gives the set-up back
/// in a [`Rejected`]. [`Notation::from_position`] does both.
pub trait Notation: Rules {
    /// A position as read from text and not yet checked: the pieces, the side to move and
    /// whatever else the text holds, in plain public fields, so that a set-up can also be
    /// built or edited in code before [`Notation::from_setup`] checks it.
    type Setup: Clone + Debug;

    /// Reads move text (case-insensitive). Checks syntax only: a legal-looking but illegal
    /// move parses; [`Game::play`] rejects it.
    ///
    /// # Errors
    /// Text that is not a move of this game in any position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// The canonical (lower-case) notation of `mv`.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a position text into a set-up (where the game defines one). Checks what the text
    /// says, not whether the rules allow it: that is [`Notation::from_setup`]'s part.
    ///
    /// # Errors
    /// Options the text cannot be read under (reading may depend on them, as a board size
    /// does), or a [`PositionError`] naming every problem found. When the text cannot be read,
    /// a game may add what its rules' checks find in the parts that could be, so that one
    /// message lists everything to correct.
    fn read_setup(options: &Options, text: &str) -> Result<Self::Setup, NewGameError>;

    /// The game in the position `setup` describes, once the options and the rules allow it.
    ///
    /// # Errors
    /// The set-up, unchanged, with the reason: bad options, a combination the game cannot
    /// play, or every problem the rules find in it.
    fn from_setup(options: &Options, setup: Self::Setup) -> Result<Self, Rejected<Self::Setup>>;

    /// The game starting from a position text (where the game defines one): the text read by
    /// [`Notation::read_setup`], then checked by [`Notation::from_setup`].
    ///
    /// # Errors
    /// Every problem found in the text, or options that do not go with it.
    fn from_position(options: &Options, text: &str) -> Result<Self, NewGameError> {
        let setup = Self::read_setup(options, text)?;
        Self::from_setup(options, setup).map_err(|rejected| rejected.reason.into_error(text))
    }

    /// The position text of the current position; `from_position` reads it back.
    fn position_text(&self) -> String;

    /// A text diagram of the board with coordinates.
    fn diagram(&self) -> String;
}

/// What tests hold a game's fast paths to: values the game keeps up to date incrementally,
/// computed again from scratch. Not for play.
pub trait Audit: Rules {
    /// The hash computed from scratch; tests check it agrees with [`Rules::hash`].
    fn hash_from_scratch(&self) -> u64;
}

/// One game: its [`Rules`] and [`Notation`], plus its options, colours and how far it has
/// gone. A value is a position plus everything the rules need to continue from it (history for
/// repetition, supplies, anchor…). Cloning is cheap enough for search.
///
/// Five methods are required; playing checked moves and move text is provided.
pub trait Game: Rules + Notation {
    /// Static facts and the option schema.
    fn info() -> &'static GameInfo;

    /// A new game from its options and a seed (used only by random set-ups; the same seed
    /// always gives the same game).
    ///
    /// # Errors
    /// A combination of option values the game cannot play.
    fn new(options: &Options, seed: u64) -> Result<Self, NewGameError>;

    /// The options the game was created with, canonically spelled. Games keep their
    /// configuration as plain typed values (cloning a game touches no shared data, so search
    /// threads that clone positions do not contend) and rebuild the options from it.
    fn options(&self) -> Options;

    /// The colour `seat` plays, or `None` while colours are not yet assigned (a colour choice
    /// during set-up).
    fn colour_of(&self, seat: Seat) -> Option<Colour>;

    /// Number of moves played since the start of the game or position.
    fn ply(&self) -> u32;

    /// The colour that moves now. Differs from `colour_of(to_move())` only in solitaire modes,
    /// where one person moves for both colours.
    fn colour_to_move(&self) -> Option<Colour> {
        self.colour_of(self.to_move())
    }

    /// Whether one person plays both sides (a puzzle): then outcomes are [`Outcome::Puzzle`].
    fn is_solitaire(&self) -> bool {
        false
    }

    /// The game's action ids and planes (a capability: `None` for a game without an
    /// [`Encoding`](crate::Encoding); a game with one answers `Some(self)`).
    fn encoding(&self) -> Option<&dyn DynEncoding> {
        None
    }

    /// [`Game::encoding`], to play by action ids.
    fn encoding_mut(&mut self) -> Option<&mut dyn DynEncoding> {
        None
    }

    /// Why `mv` is illegal here, for error messages. Games may override for better messages.
    fn why_illegal(&self, mv: Self::Move) -> String {
        let _ = mv;
        if let Some(outcome) = self.outcome() {
            return format!("the game is over ({outcome})");
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let shown: Vec<String> = moves
            .iter()
            .take(12)
            .map(|m| self.format_move(*m))
            .collect();
        let more = if moves.len() > shown.len() {
            format!(", … ({} in all)", moves.len())
        } else {
            String::new()
        };
        format!(
            "not a legal move in this position; legal moves: {}{more}",
            shown.join(", ")
        )
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// An illegal move, leaving the game unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMove {
                text: self.format_move(mv),
                reason: self.why_illegal(mv),
            })
        }
    }

    /// Parses and plays move text; returns the move played.
    ///
    /// # Errors
    /// Malformed or illegal text, leaving the game unchanged.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// A new game with the same options and a set-up drawn from `rng` (for games whose set-up
    /// is random; others start over). Benchmarks and studies call it once per game, so games
    /// may override it to skip option parsing.
    #[must_use]
    fn restart<R: Rng + ?Sized>(&self, rng: &mut R) -> Self {
        Self::new(&self.options(), rng.random()).unwrap_or_else(|_| self.clone())
    }
}

/// [`Encoding`](crate::Encoding) as an object, for code that holds games of any kind (the Python binding, the
/// learning environments): ids and planes of the position at hand, moves as text. Every
/// `Encoding` is one (`crate::encoding`); a game offers it through [`Game::encoding`].
pub trait DynEncoding {
    /// See [`Encoding::action_count`](crate::Encoding::action_count).
    fn action_count(&self) -> u32;

    /// The ids of the legal moves, in the game's move order.
    fn legal_actions(&self) -> Vec<u32>;

    /// The id of the move `text`, which must be legal here.
    ///
    /// # Errors
    /// Malformed text or an illegal move, in the game's words.
    fn action_of_text(&self, text: &str) -> Result<u32, MoveError>;

    /// The legal move that `action` names here, in notation.
    ///
    /// # Errors
    /// An id out of range, a finished game, an id that names no move here or names an
    /// illegal one, said in words.
    fn move_of_action(&self, action: u32) -> Result<String, String>;

    /// Plays the legal move that `action` names; returns its notation. Nothing changes on an
    /// error (see [`DynEncoding::move_of_action`]).
    ///
    /// # Errors
    /// As [`DynEncoding::move_of_action`].
    fn play_action(&mut self, action: u32) -> Result<String, String>;

    /// [`DynEncoding::legal_actions`] into `out` (cleared first), without a new vector: for
    /// environments that step many games.
    fn legal_actions_into(&self, out: &mut Vec<u32>);

    /// Plays the move that `action` names, where `action` is one of the ids that
    /// [`DynEncoding::legal_actions_into`] gave for this very position (the caller keeps that
    /// list and checks against it): no legality check and no notation, for environments that
    /// step many games. Returns false, changing nothing, for an id that names no move.
    fn play_listed_action(&mut self, action: u32) -> bool;

    /// See [`Encoding::planes_shape`](crate::Encoding::planes_shape).
    fn planes_shape(&self) -> [usize; 3];

    /// See [`Encoding::write_planes`](crate::Encoding::write_planes).
    fn write_planes(&self, view: Seat, out: &mut [f32]);
}

/// Creates a game from options text and an optional position, then plays `moves` (separated
/// by white space, or by `;` where moves themselves contain spaces). The common front end of
/// the CLI and the server.
///
/// # Errors
/// Bad options, position or move text, naming the first bad move and its number.
pub fn setup<G: Game>(
    options: &Options,
    seed: u64,
    position: Option<&str>,
    moves: &[String],
) -> Result<G, SetupError> {
    let mut game = match position {
        Some(p) => G::from_position(options, p)?,
        None => G::new(options, seed)?,
    };
    for (i, m) in moves.iter().enumerate() {
        game.play_text(m).map_err(|error| SetupError::Move {
            number: i + 1,
            error,
        })?;
    }
    Ok(game)
}

/// Why [`setup`] failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error(transparent)]
    Game(#[from] NewGameError),
    #[error("move {number}: {error}")]
    Move { number: usize, error: MoveError },
}

/// Splits a move list as typed by a user: `;` separates moves when present (moves may then
/// contain spaces, as `swap a1 c3`), otherwise white space does, except that a game's
/// multi-word moves ([`GameInfo::multi_word_moves`]) are kept together.
#[must_use]
pub fn split_moves(text: &str, multi_word: &[&str]) -> Vec<String> {
    if text.contains(';') {
        return text
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let take = multi_word
            .iter()
            .find_map(|spec| {
                let (head, n) = spec.split_once(':')?;
                let n: usize = n.parse().ok()?;
                w.eq_ignore_ascii_case(head).then_some(n)
            })
            .unwrap_or(0);
        let end = (i + 1 + take).min(words.len());
        out.push(words[i..end].join(" "));
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_moves;

    #[test]
    fn split_moves_keeps_multi_word_moves() {
        let kw = ["swap:2", "color:1", "first:1"];
        assert_eq!(
            split_moves("swap a1 c3 done color white first black b2 c3+c4", &kw),
            [
                "swap a1 c3",
                "done",
                "color white",
                "first black",
                "b2",
                "c3+c4"
            ]
        );
        assert_eq!(split_moves("swap a1 c3; done", &[]), ["swap a1 c3", "done"]);
        assert_eq!(split_moves("  ", &kw), Vec::<String>::new());
    }
}
