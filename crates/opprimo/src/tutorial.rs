//! The Opprimo tutorial: placing the King, stepping, converting, promoting, the Officer's
//! backward moves, trapping a King and keeping one's own King out of a trap.

use crate::{Move, Opprimo};
use boardlab_core::tutorial::{Goal, Mistake, Step};
use boardlab_core::Outcome;
use boardlab_core::Rules;

fn after(game: &Opprimo, mv: Move) -> Opprimo {
    let mut next = game.clone();
    next.play_unchecked(mv);
    next
}

fn is_conversion(_: &Opprimo, mv: Move) -> bool {
    matches!(mv, Move::Convert(..))
}

/// The move makes one of the mover's soldiers an Officer.
fn promotes(game: &Opprimo, mv: Move) -> bool {
    let side = game.side_to_move();
    let officers = |g: &Opprimo| (g.officers() & g.soldiers(side)).count_ones();
    officers(&after(game, mv)) > officers(game)
}

/// The move traps the opponent's King.
fn traps(game: &Opprimo, mv: Move) -> bool {
    matches!(after(game, mv).outcome(), Some(Outcome::Win { .. }))
}

/// After the move, no answer of the opponent traps the mover's King.
fn keeps_king_free(game: &Opprimo, mv: Move) -> bool {
    let next = after(game, mv);
    let mut answers = Vec::new();
    next.legal_moves(&mut answers);
    !answers.into_iter().any(|a| traps(&next, a))
}

pub(crate) static TUTORIAL: &[Step<Opprimo>] = &[
    Step {
        title: "Place your King",
        text: "You play Yellow, at the bottom. Before the first soldier moves, each player puts \
               the King on a triangle of its castle: the shaded band of triangles behind your \
               soldiers. Choose a triangle of your castle.",
        options: "",
        position: "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 0",
        goal: Goal::Check(|_, mv| matches!(mv, Move::Place(_))),
        hint: "The castle is the shaded band of triangles on the four lowest ranks.",
        show: "k@d1e",
        done: "Your King is in place. A King is caught when enemy soldiers stand on all three \
               corners of its triangle.",
        wrong: "",
        mistakes: &[
            Mistake::Click(
                "d5c",
                "d5c lies outside your castle: the King may only stand on the shaded triangles \
                 of the four lowest ranks.",
            ),
            Mistake::Click(
                "d3",
                "Soldiers wait until both Kings are placed: choose a shaded triangle for your \
                 King first.",
            ),
        ],
    },
    Step {
        title: "March forward",
        text: "Soldiers step one point along a line, and only forward: straight up, or up to \
               the left or right. Move the soldier on d3 forward.",
        options: "",
        position: "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy d1e d11e y 2",
        goal: Goal::Moves(&["d3-d5", "d3-c4", "d3-e4"]),
        hint: "Choose d3, then one of the highlighted points above it.",
        show: "d3-d5",
        done: "Good. In a game, Red would answer next; soldiers never step back unless they \
               become Officers.",
        wrong: "That moved another piece. This time, move the soldier on d3.",
        mistakes: &[Mistake::Click(
            "d1",
            "d1 is boxed in: the points ahead of it hold your own soldiers.",
        )],
    },
    Step {
        title: "Convert",
        text: "A soldier may jump over an enemy soldier right in front of it, along one of its \
               forward lines, to the empty point beyond. The jumped soldier changes colour and \
               joins you. Win over Red's soldier on c6.",
        options: "",
        position: "3/4/r2/4/3/4/3/1r2/y2/4/2y/4/3 d1e d11e y 20",
        goal: Goal::Check(is_conversion),
        hint: "Your soldier on b5 has c6 up and to its right, and d7 beyond it is empty.",
        show: "b5xd7",
        done: "c6 is yours now. Nothing is ever taken off the board in Opprimo: soldiers only \
               change sides.",
        wrong: "That is a plain step. Jump over the Red soldier on c6 instead.",
        mistakes: &[],
    },
    Step {
        title: "Become an Officer",
        text: "A soldier that reaches one of the three far points (b13, d13 or f13, marked with \
               stars) becomes an Officer. Promote your soldier on d11.",
        options: "",
        position: "3/4/1y1/4/3/r3/3/4/3/4/y2/4/3 d1e b11c y 30",
        goal: Goal::Check(promotes),
        hint: "Step straight up from d11.",
        show: "d11-d13",
        done: "An Officer! It may now step and jump backwards as well as forwards.",
        wrong: "That soldier is still a plain one: step onto a star to promote it.",
        mistakes: &[],
    },
    Step {
        title: "The Officer turns back",
        text: "Your Officer on d13 may also move and jump backwards. Win over Red's soldier on \
               c12 by jumping down over it.",
        options: "",
        position: "1Y1/1r2/3/4/3/r3/3/4/3/4/y2/4/3 d1e f11g y 40",
        goal: Goal::Moves(&["d13xb11"]),
        hint: "From d13, c12 lies down and to the left, and b11 beyond it is empty.",
        show: "d13xb11",
        done: "Jumped backwards and converted. Officers are your most flexible pieces.",
        wrong: "That does not win over c12. Choose your Officer on d13, then b11.",
        mistakes: &[],
    },
    Step {
        title: "Trap the King",
        text: "You win when your soldiers stand on all three corners of the enemy King's \
               triangle. Red's King sits on the triangle d11, d13, e12, and you hold two of \
               its corners. Take the third.",
        options: "",
        position: "1Y1/2y1/3/4/1y1/r3/3/4/3/4/y2/4/3 d1e d11e y 50",
        goal: Goal::Check(traps),
        hint: "Which of your soldiers can step onto d11?",
        show: "d9-d11",
        done: "Trapped! Yellow wins.",
        wrong: "The Red King is still free: fill the last corner, d11.",
        mistakes: &[Mistake::Move(
            "d13-d11",
            "The Officer reaches d11, but it leaves d13 empty: all three corners must be \
             yours at once.",
        )],
    },
    Step {
        title: "Keep your King safe",
        text: "Red holds two corners of your King's triangle (d3 and e2), and the Red soldier \
               on c2 can step onto the third, d1, next turn. Make a move that keeps your King \
               out of the trap.",
        options: "",
        position: "3/4/3/4/3/4/3/4/2y/y3/1r1/1rr1/3 d1e f11g y 60",
        goal: Goal::Check(keeps_king_free),
        hint: "Your King moves to a neighbouring triangle of its castle. Which neighbour has a \
               corner Red cannot reach?",
        show: "kd1e-e2d",
        done: "Safe: no Red soldier can reach e4 next turn, so the King cannot be trapped \
               there.",
        wrong: "Red now steps onto d1 and traps your King. Deal with the threat first.",
        mistakes: &[Mistake::Move(
            "kd1e-d1c",
            "d1c has Red on two corners too, and Red's e2 can step down onto d1: trapped.",
        )],
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::tutorial::{check, lessons};

    #[test]
    fn tutorial_steps_are_sound() {
        check::<Opprimo>();
    }

    #[test]
    fn computed_goals_are_the_expected_moves() {
        let l = lessons::<Opprimo>().unwrap();
        assert_eq!(l[2].goal, ["b5xd7"]);
        assert_eq!(l[3].goal, ["d11-d13"]);
        assert_eq!(l[5].goal, ["d9-d11"]);
        assert_eq!(l[6].goal, ["kd1e-e2d"]);
    }
}
