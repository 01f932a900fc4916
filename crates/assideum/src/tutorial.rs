//! The assideum tutorial: Ved'rin, sliding pieces, spinning a Portal, Fighters, Ranger fire,
//! and siege — giving it, escaping it, and winning with it.

use crate::{Assideum, Kind, Move};
use boardlab_core::tutorial::{Goal, Mistake, Step};
use boardlab_core::Outcome;
use boardlab_core::Rules;

fn after(game: &Assideum, mv: Move) -> Assideum {
    let mut next = game.clone();
    next.play_unchecked(mv);
    next
}

/// A Ved'rin moves.
fn moves_vedrin(game: &Assideum, mv: Move) -> bool {
    matches!(mv, Move::Ground { from, .. } if game.board().kind_at(from) == Some(Kind::Vedrin))
}

/// After the move the opponent's Commander is in siege.
fn gives_siege(game: &Assideum, mv: Move) -> bool {
    after(game, mv).in_siege()
}

/// After the move the mover's Commander is out of siege (true of every legal move).
fn ends_siege(game: &Assideum, mv: Move) -> bool {
    !after(game, mv).board().in_siege(game.board().side)
}

fn wins(game: &Assideum, mv: Move) -> bool {
    matches!(after(game, mv).outcome(), Some(Outcome::Win { .. }))
}

pub(crate) static TUTORIAL: &[Step<Assideum>] = &[
    Step {
        title: "Ved'rin",
        text: "You play White, at the bottom. The Ved'rin (V) on your second rank step one \
               square forward, straight or diagonally. Move a Ved'rin.",
        options: "",
        position: "s[psf]c[rs]kc[psf]s/vvvvvvvv/8/8/8/8/VVVVVVVV/S[PnF]C[Rn]KC[PnF]S w 0",
        goal: Goal::Check(moves_vedrin),
        hint: "Choose any piece marked V, then a highlighted square in front of it.",
        show: "e2-e3",
        done: "Good. A Ved'rin that reaches the far rank is promoted and then moves like the \
               Commander.",
        wrong: "That moved another piece. Choose one of the Ved'rin on rank 2.",
        mistakes: &[Mistake::Click(
            "e1",
            "Your Commander (the crown) is boxed in by its own army for now.",
        )],
    },
    Step {
        title: "Long moves",
        text: "A Striker (S) slides any distance along a rank or file, a Cruiser (C) also \
               along diagonals. A piece that moves onto an enemy piece removes it. Take Black's \
               Striker on g5 with your Cruiser.",
        options: "",
        position: "4k3/8/8/6s1/8/8/8/2C1K3 w 0",
        goal: Goal::Moves(&["c1xg5"]),
        hint: "Follow the diagonal up and to the right from c1.",
        show: "c1xg5",
        done: "Removed: the Cruiser swept along the diagonal and took the Striker's square.",
        wrong: "The Striker is still there. Move the Cruiser on c1 to g5.",
        mistakes: &[],
    },
    Step {
        title: "Spin a Portal",
        text: "A Portal (P) faces one side of the board, shown by its arrow. As a whole turn it \
               may spin to face another side. Turn your Portal on d4 to face east, to the \
               right.",
        options: "",
        position: "4k3/8/8/8/3[Pn]4/8/8/4K3 w 0",
        goal: Goal::Moves(&["d4>e"]),
        hint: "Choose the Portal twice, then pick the facing to the right.",
        show: "d4>e",
        done: "The Portal faces east. Its flight zone — the squares its Fighters may use — \
               turned with it.",
        wrong: "That is not the spin to the east. Choose the Portal twice, then pick east.",
        mistakes: &[],
    },
    Step {
        title: "Fighters",
        text: "A Fighter flies in straight lines within the flight zone of its Portals: one \
               row behind to three rows ahead, one column to each side. Fly your Fighter from \
               d2 to attack the Black Ved'rin on d5.",
        options: "",
        position: "4k3/8/8/3v4/8/8/3[PnF]4/4K3 w 0",
        goal: Goal::Moves(&["fd2xd5"]),
        hint: "Choose the Fighter's plane on d2, then d5, and choose to attack.",
        show: "fd2xd5",
        done: "The Ved'rin is removed, and the Fighter now flies over d5.",
        wrong: "That does not remove the Ved'rin on d5. Fly the Fighter there and attack.",
        mistakes: &[Mistake::Move(
            "fd2-d5",
            "The Fighter flew to d5 but only shares the square: choose to attack as it lands.",
        )],
    },
    Step {
        title: "Ranger fire",
        text: "A Ranger (R) can fire, as its whole turn, at the first piece up to three squares \
               ahead in the direction it faces. Fire at Black's Cruiser on d3.",
        options: "",
        position: "4k3/8/8/8/8/3c4/8/3[Rn]K3 w 0",
        goal: Goal::Moves(&["rd1*d3g"]),
        hint: "Choose the Ranger, then the Cruiser two squares ahead of it.",
        show: "rd1*d3g",
        done: "Hit from a distance: the Ranger stays on d1.",
        wrong: "The Cruiser is still there. Use the Ranger on d1 to fire at d3.",
        mistakes: &[],
    },
    Step {
        title: "Siege",
        text: "A Commander is in siege when the enemy could take it on the next turn, like \
               check in chess. Put Black's Commander on e8 in siege.",
        options: "",
        position: "4k3/8/8/8/8/8/8/S1K5 w 0",
        goal: Goal::Check(gives_siege),
        hint: "Your Striker on a1 can reach the top rank.",
        show: "a1-a8",
        done: "Siege: the Striker on a8 attacks along rank 8. Black must now end the siege.",
        wrong: "Black's Commander is not attacked yet. Bring your Striker into its line.",
        mistakes: &[],
    },
    Step {
        title: "Escape a siege",
        text: "Black's Striker on e8 attacks your Commander down the e-file: you are in siege. \
               Only moves that end the siege are allowed. Make one.",
        options: "",
        position: "4s3/V6k/8/8/8/2C5/8/4K3 w 0",
        goal: Goal::Check(ends_siege),
        hint: "Step the Commander off the e-file, or put the Cruiser in the Striker's way.",
        show: "c3-e3",
        done: "The Striker's line is blocked, and your Commander is safe.",
        wrong: "",
        mistakes: &[Mistake::Click(
            "a7",
            "The Ved'rin on a7 cannot help: while your Commander is in siege, only moves that \
             end the siege are allowed.",
        )],
    },
    Step {
        title: "Win",
        text: "A siege with no way out wins the game. Black's Commander on h8 is hemmed in by \
               its own Ved'rin. Find the winning move.",
        options: "",
        position: "7k/6vv/8/8/8/8/8/S3K3 w 0",
        goal: Goal::Check(wins),
        hint: "The top rank is open from a1's file all the way to h8.",
        show: "a1-a8",
        done: "Black's Commander cannot escape the siege: White wins.",
        wrong: "Black can still get out of that. Look for a siege with no escape.",
        mistakes: &[],
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::tutorial::{check, lessons};

    #[test]
    fn tutorial_steps_are_sound() {
        check::<Assideum>();
    }

    #[test]
    fn computed_goals_are_the_expected_moves() {
        let l = lessons::<Assideum>().unwrap();
        assert_eq!(l[5].goal, ["a1-a8"]);
        assert_eq!(l[7].goal, ["a1-a8"]);
        assert_eq!(l[0].goal.len(), 22);
    }
}
