//! The Sight Reduction tutorial: seeing, blocking, leaving the opponent without a removal,
//! looking one move ahead, the puzzle mode and the three variants, each on a small position.
//! Where a goal is "the moves that win" or "the moves that keep the puzzle solvable", it is
//! computed here by an exhaustive search, which the tutorial's positions keep tiny.

use crate::{Move, SightReduction};
use boardlab_core::tutorial::{Goal, Mistake, Step};
use boardlab_core::Outcome;
use boardlab_core::Rules;

/// Whether the side to move wins with best play (exhaustive: for the tutorial's small
/// positions only).
fn wins(game: &SightReduction) -> bool {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        let mut next = game.clone();
        next.play_unchecked(m);
        !wins(&next)
    })
}

/// Whether a solitaire position can still be solved (exhaustive, as [`wins`]).
fn solvable(game: &SightReduction) -> bool {
    if let Some(outcome) = game.outcome() {
        return matches!(outcome, Outcome::Puzzle { solved: true, .. });
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        let mut next = game.clone();
        next.play_unchecked(m);
        solvable(&next)
    })
}

fn after(game: &SightReduction, mv: Move) -> SightReduction {
    let mut next = game.clone();
    next.play_unchecked(mv);
    next
}

/// The move leaves the opponent without a removal.
fn wins_at_once(game: &SightReduction, mv: Move) -> bool {
    after(game, mv).outcome().is_some()
}

/// After the move the opponent loses whatever it does.
fn wins_with_best_play(game: &SightReduction, mv: Move) -> bool {
    !wins(&after(game, mv))
}

fn keeps_solvable(game: &SightReduction, mv: Move) -> bool {
    solvable(&after(game, mv))
}

fn is_pair(_: &SightReduction, mv: Move) -> bool {
    matches!(mv, Move::Pair(..))
}

pub(crate) static TUTORIAL: &[Step<SightReduction>] = &[
    Step {
        title: "Seeing a friend",
        text: "You play White. A piece looks along its rank and its file, past empty squares, \
               up to the first piece it meets. You may remove one of your own pieces only when \
               it sees another White piece. Remove a White piece.",
        options: "",
        position: "4/1W2/1B2/4/3W/W2B/4/WB2 w",
        goal: Goal::Moves(&["a1", "a3"]),
        hint: "Look up and down the a-file: only an empty square lies between a1 and a3.",
        show: "a3",
        done: "Right: a1 and a3 see each other across the empty square a2, so either of them \
               could go. In a game, Black would remove next.",
        wrong: "",
        mistakes: &[
            Mistake::Click(
                "b7",
                "b7 looks down onto Black's b6 and sees only empty squares along its rank: it \
                 sees no White piece, so it must stay.",
            ),
            Mistake::Click(
                "d4",
                "d4 sees Black's d3 below it and nothing else: no White piece in sight, so it \
                 must stay.",
            ),
        ],
    },
    Step {
        title: "Sight stops at the first piece",
        text: "A piece in between blocks the view, whatever its colour, and corners do not \
               count. White to remove: find the one pair of White pieces that really see each \
               other.",
        options: "",
        position: "4/4/4/1W2/3W/WBW1/4/1B1W w",
        goal: Goal::Moves(&["d1", "d4"]),
        hint: "Check the d-file from top to bottom.",
        show: "d4",
        done: "Yes: d1 and d4 see each other up the empty d-file. a3 and c3 were cut off by \
               Black's b3.",
        wrong: "",
        mistakes: &[
            Mistake::Click(
                "a3",
                "a3 looks along its rank and meets Black's b3 first: c3 is hidden behind it.",
            ),
            Mistake::Click(
                "c3",
                "c3 meets Black's b3 along its rank, and d4 only touches it at a corner: \
                 diagonals do not count.",
            ),
            Mistake::Click(
                "b5",
                "b5 looks down the b-file and meets Black's b3 first, not a friend.",
            ),
        ],
    },
    Step {
        title: "Leave Black stuck",
        text: "The player who cannot remove a piece loses. Black has no removal now, because \
               your pieces stand in the way. Remove a White piece that keeps it that way, and \
               you win.",
        options: "",
        position: "1B2/B3/4/WW2/4/B1WW/4/1B2 w",
        goal: Goal::Check(wins_at_once),
        hint: "Which of your pieces block a line between two Black pieces? Leave those where \
               they are.",
        show: "c3",
        done: "White wins: Black's pieces still see only White pieces, so Black has no \
               removal.",
        wrong: "That opens a line between two Black pieces, and Black can remove again.",
        mistakes: &[
            Mistake::Move(
                "a5",
                "With a5 gone, Black's a7 and a3 see each other down the a-file, and Black can \
                 remove one of them.",
            ),
            Mistake::Move(
                "b5",
                "With b5 gone, Black's b8 and b1 see each other down the b-file, and Black can \
                 remove one of them.",
            ),
        ],
    },
    Step {
        title: "Look one move ahead",
        text: "White to remove. Only one of your three removals wins against any answer from \
               Black: think about what each one leaves for both sides.",
        options: "",
        position: "4/4/4/W3/BBW1/4/1WWB/1B2 w",
        goal: Goal::Check(wins_with_best_play),
        hint: "Keep b2 and c2 side by side: as long as they see each other, you have a removal \
               in hand.",
        show: "c4",
        done: "Well played: whichever piece Black removes next, White makes the last removal.",
        wrong: "Black can now answer so that you run out of removals first. Try another piece.",
        mistakes: &[],
    },
    Step {
        title: "Puzzle mode",
        text: "In a puzzle you remove for both colours in turn, White first. It is solved when \
               exactly one White and one Black piece are left. Make White's removal that keeps \
               the puzzle solvable.",
        options: "mode=solitaire",
        position: "4/4/4/4/4/2B1/1WBW/3W w",
        goal: Goal::Check(keeps_solvable),
        hint: "Once Black's c2 goes, b2 and d2 will see each other across the empty square.",
        show: "d1",
        done: "Right: keep d2, so that b2 and d2 can still meet when c2 leaves.",
        wrong: "Now two White pieces can never see each other again, so too many will be left.",
        mistakes: &[],
    },
    Step {
        title: "Two at once",
        text: "In the pair variant a turn may take away two of your pieces that see each other. \
               Remove a2 and d2 together: choose one, then the other.",
        options: "removal=pair",
        position: "4/4/4/4/B2B/4/W2W/1W2 w",
        goal: Goal::Check(is_pair),
        hint: "a2 and d2 see each other along rank 2. Choose a2, then d2.",
        show: "a2+d2",
        done: "Both gone in one turn. A lone piece can still be removed too, when it sees a \
               friend.",
        wrong: "That removed only one piece. Choose a2, then d2, to take both.",
        mistakes: &[Mistake::Click(
            "b1",
            "b1 sees no White piece along its rank or file, so it cannot go alone or in a pair.",
        )],
    },
    Step {
        title: "Diagonals",
        text: "In the diagonal variant a piece also sees along both diagonals. Remove the White \
               piece that may go only thanks to a diagonal.",
        options: "sight=any",
        position: "4/4/4/WBB1/2W1/B1W1/1B2/4 w",
        goal: Goal::Moves(&["a5"]),
        hint: "Follow the diagonal down and to the right from a5.",
        show: "a5",
        done: "Right: a5 saw c3 along the diagonal, across the empty b4.",
        wrong: "That piece sees a friend along its file, so it could go even without diagonals.",
        mistakes: &[],
    },
    Step {
        title: "Friend and foe",
        text: "In the challenging variant a piece you remove must see a friend and, in any of \
               the eight directions, an enemy piece too. Remove a White piece.",
        options: "enemy-sight=true",
        position: "W3/W3/4/4/4/4/1B1B/WW2 w",
        goal: Goal::Moves(&["a1", "b1"]),
        hint: "Only the pieces near the bottom of the board see a Black piece.",
        show: "b1",
        done: "Yes: a1 and b1 see each other along rank 1, and both see Black's b2: b1 looks \
               straight up at it, a1 along the diagonal. So either of them could go.",
        wrong: "",
        mistakes: &[
            Mistake::Click(
                "a8",
                "a8 sees a friend, but no Black piece in any direction, so in this variant it \
                 must stay.",
            ),
            Mistake::Click(
                "a7",
                "a7 sees friends above and below, but no Black piece in any direction, so in \
                 this variant it must stay.",
            ),
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::tutorial::{check, lesson, lessons};

    #[test]
    fn tutorial_steps_are_sound() {
        check::<SightReduction>();
    }

    /// A sound step to break one field at a time.
    fn base() -> Step<SightReduction> {
        Step {
            title: "t",
            text: "Remove a White piece.",
            options: "",
            position: "4/1W2/1B2/4/3W/W2B/4/WB2 w",
            goal: Goal::Moves(&["a3"]),
            hint: "h",
            show: "a3",
            done: "d",
            wrong: "Not that one.",
            mistakes: &[],
        }
    }

    fn problem(step: &Step<SightReduction>) -> String {
        lesson(1, step).unwrap_err().to_string()
    }

    #[test]
    fn unsound_steps_are_refused_naming_the_problem() {
        let _ = lesson(1, &base()).unwrap();
        let e = problem(&Step {
            goal: Goal::Moves(&["b7"]),
            show: "b7",
            ..base()
        });
        assert!(e.contains("goal move 'b7' is not legal"), "{e}");
        let e = problem(&Step {
            show: "a1",
            ..base()
        });
        assert!(
            e.contains("the show-me move 'a1' does not reach the goal"),
            "{e}"
        );
        let e = problem(&Step {
            goal: Goal::Check(|_, _| false),
            ..base()
        });
        assert!(e.contains("no legal move reaches the goal"), "{e}");
        let e = problem(&Step {
            goal: Goal::Moves(&["a1", "a3"]),
            wrong: "",
            ..base()
        });
        assert!(e.contains("nothing can go wrong"), "{e}");
        let e = problem(&Step {
            wrong: "",
            ..base()
        });
        assert!(e.contains("no words say why"), "{e}");
        let e = problem(&Step {
            text: "Your seat moves first.",
            ..base()
        });
        assert!(e.contains("engine's word 'seat'"), "{e}");
        let e = problem(&Step {
            hint: "Set sight=any first.",
            ..base()
        });
        assert!(e.contains("engine's word 'sight=any'"), "{e}");
        let e = problem(&Step {
            mistakes: &[Mistake::Click("a1", "no")],
            ..base()
        });
        assert!(e.contains("'a1' starts a legal move"), "{e}");
        let e = problem(&Step {
            mistakes: &[Mistake::Move("a3", "no")],
            ..base()
        });
        assert!(e.contains("mistake 'a3' reaches the goal"), "{e}");
        let e = problem(&Step {
            mistakes: &[Mistake::Move("b7", "no")],
            ..base()
        });
        assert!(e.contains("mistake 'b7' is not a legal move"), "{e}");
        let e = problem(&Step {
            position: "4/4/4/4/4/4/4/W2B w",
            ..base()
        });
        assert!(e.contains("already over"), "{e}");
        let e = problem(&Step {
            position: "4/4 w",
            ..base()
        });
        assert!(e.contains("position:"), "{e}");
        let e = problem(&Step {
            options: "sight=sideways",
            ..base()
        });
        assert!(e.contains("options:"), "{e}");
        // The words of a refused move: the mistake's own, else the step's.
        let l = lesson(
            1,
            &Step {
                mistakes: &[Mistake::Move("a1", "Keep a1.")],
                goal: Goal::Moves(&["a3"]),
                ..base()
            },
        )
        .unwrap();
        assert_eq!(l.refusal("a3"), None);
        assert_eq!(l.refusal("a1"), Some("Keep a1."));
    }

    #[test]
    fn goals_computed_by_search_are_the_expected_moves() {
        let l = lessons::<SightReduction>().unwrap();
        assert_eq!(l[2].goal, ["c3", "d3"]);
        assert_eq!(l[3].goal, ["c4"]);
        assert_eq!(l[4].goal, ["d1"]);
        assert_eq!(l[5].goal, ["a2+d2"]);
        assert_eq!(l[2].refusal("a5").unwrap(), TUTORIAL[2].mistakes[0].words());
        assert_eq!(l[3].refusal("b2"), Some(TUTORIAL[3].wrong));
    }
}
