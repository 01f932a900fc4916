//! Sight Reduction's action ids and planes (see `boardlab_core::encoding`).
//!
//! # Action ids (1061)
//! | ids | move |
//! |---|---|
//! | 0–31 | remove the piece on square s (`b2`): id s, squares a1 = 0, b1 = 1, …, d8 = 31 |
//! | 32–527 | remove the pair {a, b} (`b2+b5`): 32 + the pair's index among the 496 pairs a < b, ordered by a then b |
//! | 528–1023 | fair set-up, `swap a b`: 528 + the pair's index |
//! | 1024 | `done` |
//! | 1025, 1026 | `color white`, `color black` |
//! | 1027, 1028 | `first white`, `first black` |
//! | 1029–1060 | deterministic set-up, place on square s (`@b2`): 1029 + s |
//!
//! The board is the same for both colours, so nothing is mirrored.
//!
//! # Planes (12 × 8 × 4)
//! Rows are ranks 1–8, columns files a–d. "Own" is the colour the viewing seat plays; while
//! the fair set-up has not yet given out the colours, White's pieces stand in the own plane.
//!
//! | channel | meaning |
//! |---|---|
//! | 0 | own pieces |
//! | 1 | the other colour's pieces |
//! | 2 | all ones when the viewer plays White |
//! | 3 | all ones while colours are not given out (fair set-up) |
//! | 4 | all ones when the viewer is to move |
//! | 5, 6, 7 | fair arrangement with 0, 1, 2 swaps made |
//! | 8 | fair set-up: the second seat chooses its colour |
//! | 9 | fair set-up: the arranger chooses who removes first |
//! | 10 | deterministic set-up: placing pieces |
//! | 11 | removal phase |

use crate::{Move, Phase, SightReduction, BLACK, WHITE};
use boardlab_core::encoding::{cell, fill_channel, pair_index, pair_of_index, Encoding};
use boardlab_core::Rules;
use boardlab_core::{Colour, Game, Seat};

const PAIRS: u32 = 32 * 31 / 2;
const PAIR: u32 = 32;
const SWAP: u32 = PAIR + PAIRS;
const DONE: u32 = SWAP + PAIRS;
const COLOUR: u32 = DONE + 1;
const FIRST: u32 = COLOUR + 2;
const PLACE: u32 = FIRST + 2;
/// The number of action ids.
pub const ACTIONS: u32 = PLACE + 32;

const SHAPE: [usize; 3] = [12, 8, 4];

fn colour_index(c: Colour) -> u32 {
    u32::from(c == Colour::Black)
}

fn colour_at(i: u32) -> Colour {
    if i == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}

fn pair(base: u32, a: u8, b: u8) -> u32 {
    let (a, b) = (u32::from(a.min(b)), u32::from(a.max(b)));
    if a == b {
        return base;
    }
    base + pair_index(a, b, 32)
}

impl Encoding for SightReduction {
    fn action_count(&self) -> u32 {
        ACTIONS
    }

    fn action_of(&self, mv: Move) -> u32 {
        match mv {
            Move::Remove(s) => u32::from(s % 32),
            Move::Pair(a, b) => pair(PAIR, a % 32, b % 32),
            Move::Swap(a, b) => pair(SWAP, a % 32, b % 32),
            Move::Done => DONE,
            Move::ChooseColour(c) => COLOUR + colour_index(c),
            Move::ChooseFirst(c) => FIRST + colour_index(c),
            Move::Place(s) => PLACE + u32::from(s % 32),
        }
    }

    fn move_of(&self, action: u32) -> Option<Move> {
        let sq = |i: u32| u8::try_from(i).ok();
        Some(match action {
            a if a < PAIR => Move::Remove(sq(a)?),
            a if a < SWAP => {
                let (x, y) = pair_of_index(a - PAIR, 32)?;
                Move::Pair(sq(x)?, sq(y)?)
            }
            a if a < DONE => {
                let (x, y) = pair_of_index(a - SWAP, 32)?;
                Move::Swap(sq(x)?, sq(y)?)
            }
            DONE => Move::Done,
            a if a < FIRST => Move::ChooseColour(colour_at(a - COLOUR)),
            a if a < PLACE => Move::ChooseFirst(colour_at(a - FIRST)),
            a if a < ACTIONS => Move::Place(sq(a - PLACE)?),
            _ => return None,
        })
    }

    fn planes_shape(&self) -> [usize; 3] {
        SHAPE
    }

    fn write_planes(&self, view: Seat, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            SHAPE.iter().product::<usize>(),
            "plane buffer size"
        );
        out.fill(0.0);
        let own_colour = self.colour_of(view);
        let own = if own_colour == Some(Colour::Black) {
            BLACK
        } else {
            WHITE
        };
        for (channel, side) in [(0, own), (1, own.other())] {
            let mut bits = self.board[side.index()];
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out[cell(SHAPE, channel, s / 4, s % 4)] = 1.0;
            }
        }
        let flag = |out: &mut [f32], channel: usize, on: bool| {
            if on {
                fill_channel(out, SHAPE, channel, 1.0);
            }
        };
        flag(out, 2, own_colour == Some(Colour::White));
        flag(out, 3, own_colour.is_none());
        flag(out, 4, self.outcome().is_none() && self.to_move() == view);
        let phase = match self.phase {
            Phase::Arrange { swaps } => 5 + usize::from(swaps.min(2)),
            Phase::ChooseColour => 8,
            Phase::ChooseFirst => 9,
            Phase::Place => 10,
            Phase::Remove => 11,
        };
        flag(out, phase, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Options;

    fn options(text: &str) -> Options {
        SightReduction::info().parse_options(text).unwrap()
    }

    #[test]
    fn every_legal_move_has_its_own_id_in_every_option_set() {
        for text in [
            "",
            "removal=pair",
            "removal=pair,sight=any,enemy-sight=true",
            "setup=fair",
            "setup=fair,removal=pair",
            "setup=deterministic",
            "setup=deterministic,removal=pair,first=black",
            "mode=solitaire,removal=pair",
        ] {
            let n =
                boardlab_core::testkit::check_encoding::<SightReduction>(&options(text), 0..12, 80);
            assert!(n > 100, "{text}: only {n} positions");
        }
    }

    #[test]
    fn ids_follow_the_documented_table() {
        let g = SightReduction::new(&options(""), 0).unwrap();
        assert_eq!(g.action_of(Move::Remove(5)), 5);
        assert_eq!(g.action_of(Move::Pair(0, 1)), 32);
        assert_eq!(g.action_of(Move::Pair(30, 31)), 527);
        assert_eq!(g.action_of(Move::Swap(0, 1)), 528);
        assert_eq!(g.action_of(Move::Done), 1024);
        assert_eq!(g.action_of(Move::ChooseColour(Colour::Black)), 1026);
        assert_eq!(g.action_of(Move::ChooseFirst(Colour::White)), 1027);
        assert_eq!(g.action_of(Move::Place(31)), 1060);
        assert_eq!(g.action_count(), 1061);
        assert_eq!(g.move_of(1061), None);
    }

    #[test]
    fn planes_show_own_and_other_pieces_from_each_seat() {
        let g = SightReduction::from_position(
            &options(""),
            "WWBB/BBWW/WWBB/BBWW/WWBB/BBWW/WWBB/1BWW w",
        )
        .unwrap();
        let [c, h, w] = g.planes_shape();
        let mut first = vec![0.0; c * h * w];
        let mut second = first.clone();
        g.write_planes(Seat::First, &mut first);
        g.write_planes(Seat::Second, &mut second);
        let sum = |v: &[f32], ch: usize| v[ch * 32..(ch + 1) * 32].iter().sum::<f32>();
        // White (first seat) has 16 pieces, Black 15 (a1 is empty).
        assert_eq!((sum(&first, 0), sum(&first, 1)), (16.0, 15.0));
        assert_eq!((sum(&second, 0), sum(&second, 1)), (15.0, 16.0));
        // a1 empty, b1 Black: row 0, column 1.
        assert_eq!(first[cell(SHAPE, 1, 0, 1)], 1.0);
        assert_eq!(second[cell(SHAPE, 0, 0, 1)], 1.0);
        assert_eq!(
            first[cell(SHAPE, 0, 0, 0)] + first[cell(SHAPE, 1, 0, 0)],
            0.0
        );
        assert_eq!((sum(&first, 2), sum(&second, 2)), (32.0, 0.0));
        assert_eq!((sum(&first, 4), sum(&second, 4)), (32.0, 0.0));
        assert_eq!(sum(&first, 11), 32.0);
    }
}
