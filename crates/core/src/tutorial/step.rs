//! A tutorial step as a game's crate writes it (see [`super`]).

use crate::Game;

/// One step of a game's tutorial, as the game's crate writes it.
#[derive(Debug)]
pub struct Step<G: Game> {
    /// A short title: "Seeing a friend".
    pub title: &'static str,
    /// What to do, in plain words, naming colours and squares.
    pub text: &'static str,
    /// The game options of the step as `key=value,…` (`""` for the defaults).
    pub options: &'static str,
    /// The starting position, in the game's position text.
    pub position: &'static str,
    /// The moves that succeed.
    pub goal: Goal<G>,
    /// A nudge towards the answer, without giving it away.
    pub hint: &'static str,
    /// The move "show me" plays: one of the goal moves.
    pub show: &'static str,
    /// What to say after a success.
    pub done: &'static str,
    /// What to say after a legal move outside the goal (unless a [`Mistake`] names it).
    pub wrong: &'static str,
    /// Words for particular wrong moves and refused clicks.
    pub mistakes: &'static [Mistake],
}

/// The moves that complete a step.
pub enum Goal<G: Game> {
    /// Exactly these moves (in any accepted spelling); each must be legal.
    Moves(&'static [&'static str]),
    /// Every legal move for which the check holds; it is given the position before the move.
    Check(fn(&G, G::Move) -> bool),
}

impl<G: Game> std::fmt::Debug for Goal<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Goal::Moves(m) => f.debug_tuple("Moves").field(m).finish(),
            Goal::Check(_) => f.write_str("Check(…)"),
        }
    }
}

/// Words for one particular wrong attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mistake {
    /// A legal move outside the goal, and what to say when it is played.
    Move(&'static str, &'static str),
    /// A cell whose click starts no legal move, and what to say instead of the game's usual
    /// refusal.
    Click(&'static str, &'static str),
}

impl Mistake {
    /// What to say.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Mistake::Move(_, w) | Mistake::Click(_, w) => w,
        }
    }
}
