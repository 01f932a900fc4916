//! Numbers and arrays for learning programs: a fixed action space per game (an integer id
//! for every move) and the position as a stack of planes.
//!
//! Each game implements [`Encoding`] in its own crate, next to its rules; the Python binding
//! and any learner use that one definition. `docs/python.md` lists every game's ids and planes.
//!
//! # Action ids
//! For a game's options there is a fixed number of ids, [`Encoding::action_count`]. In every
//! position each legal move has exactly one id below that number, and different legal moves
//! have different ids. An id names a move *in a position*: it is written in the frame of the
//! side to move (games whose armies face each other, Opprimo and assideum, mirror the board
//! for the second colour, so that the mover always plays "up the board"), and parts of a move
//! that the position determines (whether a step captures, which piece stands on a square) are
//! not part of the id.
//!
//! # Planes
//! [`Encoding::write_planes`] writes `channels × height × width` numbers in 0..=1, row-major,
//! channel first, from a chosen seat's point of view: "own" planes are that seat's pieces, and
//! the board is mirrored in the same way as the action ids when that seat plays the second
//! colour. Row 0 is the rank nearest to the viewer (rank 1 unmirrored).

pub use crate::game::DynEncoding;
use crate::game::{Game, IllegalMove, MoveError};
use crate::player::Seat;

/// A game's action ids and planes. See the [module documentation](self).
pub trait Encoding: Game {
    /// The number of action ids for this game's options; the same in every position of a game.
    fn action_count(&self) -> u32;

    /// The id of `mv`, a legal move of this position.
    ///
    /// For a move that is not legal here the id may be meaningless (but below
    /// [`Encoding::action_count`] and never a panic).
    fn action_of(&self, mv: Self::Move) -> u32;

    /// The move that `action` names in this position, if it names one. The move may still be
    /// illegal ([`Game::play`] checks); `None` for ids that name no move here (out of range,
    /// or a kind of move the position rules out by its shape).
    fn move_of(&self, action: u32) -> Option<Self::Move>;

    /// The shape of the planes: `[channels, height, width]`.
    fn planes_shape(&self) -> [usize; 3];

    /// Writes the planes from `view`'s point of view into `out`, which holds exactly
    /// `channels × height × width` numbers (every one is written).
    ///
    /// # Panics
    /// If `out` has another length.
    fn write_planes(&self, view: Seat, out: &mut [f32]);

    /// The ids of the legal moves, in the game's move order.
    fn legal_actions(&self, out: &mut Vec<u32>) {
        let mut moves = Vec::with_capacity(out.capacity().max(32));
        self.legal_moves(&mut moves);
        out.clear();
        out.extend(moves.into_iter().map(|m| self.action_of(m)));
    }

    /// The planes from the side to move's point of view, as a new vector.
    fn planes(&self) -> Vec<f32> {
        let [c, h, w] = self.planes_shape();
        let mut out = vec![0.0; c * h * w];
        self.write_planes(self.to_move(), &mut out);
        out
    }
}

/// The legal move `id` names in `g`, or why there is none.
fn legal_move_of<G: Encoding>(g: &G, id: u32) -> Result<G::Move, String> {
    let count = g.action_count();
    if id >= count {
        return Err(format!(
            "action {id} is out of range: {} has actions 0..{count}",
            G::info().name
        ));
    }
    if let Some(o) = g.outcome() {
        return Err(format!("action {id}: the game is over ({o})"));
    }
    match g.move_of(id) {
        Some(mv) if g.is_legal(mv) => Ok(mv),
        Some(mv) => Err(format!(
            "action {id} ({}) is not legal here: {}",
            g.format_move(mv),
            g.why_illegal(mv)
        )),
        None => Err(format!("action {id} names no move in this position")),
    }
}

impl<G: Encoding> DynEncoding for G {
    fn action_count(&self) -> u32 {
        Encoding::action_count(self)
    }

    fn legal_actions(&self) -> Vec<u32> {
        let mut out = Vec::new();
        Encoding::legal_actions(self, &mut out);
        out
    }

    fn action_of_text(&self, text: &str) -> Result<u32, MoveError> {
        let mv = self.parse_move(text)?;
        if !self.is_legal(mv) {
            return Err(IllegalMove {
                text: self.format_move(mv),
                reason: self.why_illegal(mv),
            }
            .into());
        }
        Ok(self.action_of(mv))
    }

    fn move_of_action(&self, action: u32) -> Result<String, String> {
        legal_move_of(self, action).map(|m| self.format_move(m))
    }

    fn play_action(&mut self, action: u32) -> Result<String, String> {
        let mv = legal_move_of(self, action)?;
        let text = self.format_move(mv);
        self.play_unchecked(mv);
        Ok(text)
    }

    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        Encoding::legal_actions(self, out);
    }

    fn play_listed_action(&mut self, action: u32) -> bool {
        match self.move_of(action) {
            Some(mv) => {
                self.play_unchecked(mv);
                true
            }
            None => false,
        }
    }

    fn planes_shape(&self) -> [usize; 3] {
        Encoding::planes_shape(self)
    }

    fn write_planes(&self, view: Seat, out: &mut [f32]) {
        Encoding::write_planes(self, view, out);
    }
}

/// Index of a square's plane cell: `channel`, `row`, `col` in a `[c, h, w]` stack.
#[inline]
#[must_use]
pub fn cell(shape: [usize; 3], channel: usize, row: usize, col: usize) -> usize {
    (channel * shape[1] + row) * shape[2] + col
}

/// Fills one whole channel of a `[c, h, w]` stack with `value`.
pub fn fill_channel(out: &mut [f32], shape: [usize; 3], channel: usize, value: f32) {
    let n = shape[1] * shape[2];
    out[channel * n..(channel + 1) * n].fill(value);
}

/// The index of the unordered pair `{a, b}` (`a < b < n`) among all such pairs, ordered by
/// `a` then `b`: 0 for {0, 1}, …, `n(n−1)/2 − 1` for {n−2, n−1}.
#[inline]
#[must_use]
pub fn pair_index(a: u32, b: u32, n: u32) -> u32 {
    debug_assert!(a < b && b < n);
    a * (2 * n - a - 1) / 2 + (b - a - 1)
}

/// The pair `(a, b)` with [`pair_index`] `i`, or `None` when `i ≥ n(n−1)/2`.
#[must_use]
pub fn pair_of_index(i: u32, n: u32) -> Option<(u32, u32)> {
    let mut rest = i;
    for a in 0..n.saturating_sub(1) {
        let row = n - a - 1;
        if rest < row {
            return Some((a, a + 1 + rest));
        }
        rest -= row;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_indices_count_every_pair_once() {
        let n = 32;
        let mut i = 0;
        for a in 0..n {
            for b in a + 1..n {
                assert_eq!(pair_index(a, b, n), i);
                assert_eq!(pair_of_index(i, n), Some((a, b)));
                i += 1;
            }
        }
        assert_eq!(i, n * (n - 1) / 2);
        assert_eq!(pair_of_index(i, n), None);
    }
}
