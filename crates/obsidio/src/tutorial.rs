//! The Obsidio tutorial, on the small 7×7 board: dark and light placements, the anchor,
//! claiming a target, claiming two to win, and the swap.

use crate::geometry::Kind;
use crate::{Move, Obsidio};
use boardlab_core::tutorial::{Goal, Mistake, Step};
use boardlab_core::Outcome;
use boardlab_core::Rules;

/// One token on a dark square.
fn is_dark_placement(game: &Obsidio, mv: Move) -> bool {
    matches!(mv, Move::Place(sq) if game.geometry().kind(sq) == Kind::Dark)
}

fn is_light_pair(_: &Obsidio, mv: Move) -> bool {
    matches!(mv, Move::PlaceTwo(..))
}

fn wins(game: &Obsidio, mv: Move) -> bool {
    let mut next = game.clone();
    next.play_unchecked(mv);
    matches!(next.outcome(), Some(Outcome::Win { .. }))
}

const EMPTY_7: &str = "......./.+.+.+./......./.+.+.+./......./.+.+.+./....... b";

pub(crate) static TUTORIAL: &[Step<Obsidio>] = &[
    Step {
        title: "A dark square",
        text: "You play Black, and move first. The tiles with a ring are targets. The darker \
               squares touch targets only at their corners. Put one token on a dark square.",
        options: "size=7,pie=false",
        position: EMPTY_7,
        goal: Goal::Check(is_dark_placement),
        hint: "Dark squares are the ones whose corners touch four targets, like c3 or e5.",
        show: "c3",
        done: "Placed. That token is now the anchor: the next token must be placed in sight of \
               it, where possible.",
        wrong: "That placed tokens on light squares. This time put a single token on a dark \
                square.",
        mistakes: &[Mistake::Click(
            "d4",
            "d4 is a target: you claim it later, once four of your tokens surround it.",
        )],
    },
    Step {
        title: "Two light tokens",
        text: "Light squares touch a target along a side. On a light square you place two \
               tokens: the first one, then a second that sees the first along a line but does \
               not touch it. Place two tokens on light squares.",
        options: "size=7,pie=false",
        position: EMPTY_7,
        goal: Goal::Check(is_light_pair),
        hint: "Choose a light square such as b3, then one of the highlighted squares for the \
               second token.",
        show: "b3,f3",
        done: "Two tokens in one turn. The second one is now the anchor.",
        wrong: "That was a single token on a dark square. Start on a light square instead.",
        mistakes: &[],
    },
    Step {
        title: "The anchor",
        text: "You play White. Black's token on c3 is the anchor: your token must go on a \
               square that sees it along a rank, file or diagonal, with nothing in between. \
               Put one token on a dark square in sight of c3.",
        options: "size=7,pie=false",
        position: "......./.+.+.+./......./.+.+.+./..b..../.+.+.+./....... w anchor=c3",
        goal: Goal::Check(is_dark_placement),
        hint: "From a dark square, sight runs only along the rank and the file: try the c-file \
               or rank 3.",
        show: "e3",
        done: "Right: e3 sees c3 across the empty d3. Targets block sight, so dark squares see \
               only along their rank and file.",
        wrong: "That was a light placement. This time put a single token on a dark square.",
        mistakes: &[Mistake::Click(
            "e5",
            "e5 does not see the anchor on c3: the target d4 stands between them.",
        )],
    },
    Step {
        title: "Claim a target",
        text: "A target with at least four of your tokens among its eight neighbours can be \
               claimed: put a control token on it. Black to play: claim d4.",
        options: "size=7,pie=false",
        position: "w.....w/.+.+.+./..b.b../.+.+.+./..b.b../.+.+.+./w.....w b anchor=g1",
        goal: Goal::Moves(&["+d4"]),
        hint: "Choose d4, then press the button to confirm the claim.",
        show: "+d4",
        done: "d4 is yours for good. Claiming needs no line of sight.",
        wrong: "That placed a token. Claim d4 instead: choose it, then confirm.",
        mistakes: &[],
    },
    Step {
        title: "Two claims win",
        text: "On 7×7 whoever holds five of the nine targets wins. Black has three, and both \
               d4 and f4 are ready. Claim both in one turn.",
        options: "size=7,pie=false",
        position: "w.w..../.B.W.+./..b.b.b/.W.+.+./..b.b.b/.B.W.B./w...... b anchor=a1 \
                   claimer=w",
        goal: Goal::Check(wins),
        hint: "Choose d4 and f4, then confirm: several targets can be claimed in one turn.",
        show: "+d4+f4",
        done: "Five targets: Black wins.",
        wrong: "That is not yet five targets. Select both d4 and f4 before you confirm.",
        mistakes: &[],
    },
    Step {
        title: "The swap",
        text: "Black's first move can be strong, so on White's first turn you may swap: you \
               take over Black's token and play on as Black, and your opponent becomes White. \
               Swap.",
        options: "size=7",
        position: "......./.+.+.+./..b..../.+.+.+./......./.+.+.+./....... w anchor=c5 \
                   swap=offer",
        goal: Goal::Moves(&["swap"]),
        hint: "The swap is a button below the board.",
        show: "swap",
        done: "Swapped: the token on c5 is yours, and the other player moves next, as White.",
        wrong: "That played on as White. This time press the swap button instead.",
        mistakes: &[],
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::tutorial::{check, lessons};

    #[test]
    fn tutorial_steps_are_sound() {
        check::<Obsidio>();
    }

    #[test]
    fn computed_goals_are_the_expected_moves() {
        let l = lessons::<Obsidio>().unwrap();
        assert_eq!(l[4].goal, ["+f4+d4", "+d4+f4"]);
        assert!(l[2]
            .goal
            .iter()
            .all(|m| ["a3", "e3", "g3", "c1", "c5", "c7"].contains(&m.as_str())));
    }
}
