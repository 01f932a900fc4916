//! Values in words for people: "about even", "White is better", "Black wins in 13 moves with
//! best play". A move is one player's turn (a ply), as in records and the move list.

use crate::search::Value;
use boardlab_core::{Colour, Proven, Seat, Wdl};

/// How a side stands, by its expected score `p` (0..1): the thresholds of the words.
const EVEN: f64 = 0.08;
const SLIGHTLY: f64 = 0.25;
const BETTER: f64 = 0.40;

/// The value in words. `colours[0]` and `colours[1]` are the colours the first and second
/// seat play (`None` before they are chosen: the seats are then named as players).
/// `solitaire`: one person plays, the value estimates the puzzle's score.
#[must_use]
pub fn value_words(value: Value, colours: [Option<Colour>; 2], solitaire: bool) -> String {
    let name = |seat: Seat| player_name(colours, seat);
    if solitaire {
        if let Some(p) = value.proven {
            return if p.for_seat(value.seat).result == Wdl::Win {
                "the puzzle can be solved from here".to_string()
            } else {
                "the puzzle can no longer be solved".to_string()
            };
        }
        if value.score >= 0.999 {
            return "the computer solves the puzzle from here".to_string();
        }
        // The score of an unsolved puzzle is 1/2 / (1 + pieces left); see `outcome_scores`.
        let left = (0.5 / value.score.max(1e-6) - 1.0).round().max(1.0);
        return format!("the computer expects about {left:.0} pieces to be left");
    }
    if let Some(p) = value.proven {
        return match p.result {
            Wdl::Draw => proven_words(p, colours),
            _ => format!("{} with best play", proven_words(p, colours)),
        };
    }
    let lead = value.score - 0.5;
    let (side, by) = if lead >= 0.0 {
        (value.seat, lead)
    } else {
        (value.seat.other(), -lead)
    };
    if by < EVEN {
        "about even".to_string()
    } else if by < SLIGHTLY {
        format!("{} is slightly better", name(side))
    } else if by < BETTER {
        format!("{} is better", name(side))
    } else {
        format!("{} is winning", name(side))
    }
}

/// The name of the player of `seat`: its colour ("White"), or "The first player" before
/// colours are chosen.
#[must_use]
pub fn player_name(colours: [Option<Colour>; 2], seat: Seat) -> String {
    match colours[seat.index()] {
        Some(c) => capitalised(c.name()),
        None => match seat {
            Seat::First => "The first player".to_string(),
            Seat::Second => "The second player".to_string(),
        },
    }
}

/// A proven result in words, naming the winner: "White wins in 13 moves" (a move is one
/// player's turn), "White wins", "Black has won", "a draw with best play".
#[must_use]
pub fn proven_words(p: Proven, colours: [Option<Colour>; 2]) -> String {
    if p.result == Wdl::Draw {
        return "a draw with best play".to_string();
    }
    let winner = if p.result == Wdl::Win {
        p.seat
    } else {
        p.seat.other()
    };
    let winner = player_name(colours, winner);
    match p.plies {
        Some(0) => format!("{winner} has won"),
        Some(1) => format!("{winner} wins in 1 move"),
        Some(n) => format!("{winner} wins in {n} moves"),
        None => format!("{winner} wins"),
    }
}

pub(crate) fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WB: [Option<Colour>; 2] = [Some(Colour::White), Some(Colour::Black)];

    #[test]
    fn estimates_name_the_better_colour() {
        let v = |seat, score| value_words(Value::estimate(seat, score), WB, false);
        assert_eq!(v(Seat::First, 0.5), "about even");
        assert_eq!(v(Seat::Second, 0.45), "about even");
        assert_eq!(v(Seat::First, 0.65), "White is slightly better");
        assert_eq!(v(Seat::Second, 0.35), "White is slightly better");
        assert_eq!(v(Seat::Second, 0.8), "Black is better");
        assert_eq!(v(Seat::First, 0.02), "Black is winning");
        assert_eq!(
            value_words(Value::estimate(Seat::First, 0.95), [None, None], false),
            "The first player is winning"
        );
    }

    #[test]
    fn proven_results_name_the_winner_and_the_moves() {
        let p = |seat, result, plies| {
            Value::proven(Proven {
                seat,
                result,
                plies,
            })
        };
        assert_eq!(
            value_words(p(Seat::First, Wdl::Loss, Some(26)), WB, false),
            "Black wins in 26 moves with best play"
        );
        assert_eq!(
            value_words(p(Seat::Second, Wdl::Win, Some(1)), WB, false),
            "Black wins in 1 move with best play"
        );
        assert_eq!(
            value_words(p(Seat::First, Wdl::Win, None), WB, false),
            "White wins with best play"
        );
        assert_eq!(
            value_words(p(Seat::First, Wdl::Draw, Some(4)), WB, false),
            "a draw with best play"
        );
    }

    #[test]
    fn puzzles_speak_of_pieces_left() {
        let v = |score| value_words(Value::estimate(Seat::First, score), WB, true);
        assert_eq!(v(0.048), "the computer expects about 9 pieces to be left");
        assert_eq!(v(1.0), "the computer solves the puzzle from here");
    }
}
