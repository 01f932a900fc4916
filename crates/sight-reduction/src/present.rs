//! How a Sight Reduction position is drawn and how its moves are entered by clicks: a
//! removal is one click on the piece, a pair removal or a swap two clicks (in either order),
//! a placement one click on the empty square; ending the arrangement and the two choices of
//! the fair set-up are buttons.

use crate::{Config, Move, Phase, SightReduction, Square, BLACK, WHITE};
use boardlab_core::present::{
    grid, legal_with_notation, square, Board, Click, Fact, Interaction, LegendItem, Mark,
    MoveInput, MoveKind, Piece, PieceKind, Refusal, Selection, Shade, Text,
};
use boardlab_core::tutorial::Step;
use boardlab_core::Rules;
use boardlab_core::{Colour, Present};

/// The name of a square as a cell name (`b3`), without allocating.
fn cell(sq: Square) -> Text {
    square(usize::from(sq % 4), usize::from(sq / 4))
}

/// The phase in words, as shown beside the board.
fn phase_words(phase: Phase) -> String {
    match phase {
        Phase::Place => "placement".to_string(),
        Phase::Arrange { swaps } => format!("arrangement ({swaps} of 2 swaps made)"),
        Phase::ChooseColour => "colour choice".to_string(),
        Phase::ChooseFirst => "choice of who removes first".to_string(),
        Phase::Remove => "removal".to_string(),
    }
}

/// What a solitaire game must end with, in words.
fn goal_words(cfg: &Config) -> String {
    match (cfg.pair, cfg.keep) {
        (true, _) => "Clear the board".to_string(),
        (false, Some((w, b))) => format!(
            "Leave one White piece on {} and one Black piece on {}",
            cell(w),
            cell(b)
        ),
        (false, None) => "Leave exactly one White and one Black piece".to_string(),
    }
}

/// Both orders of a two-click move.
fn either_order(a: Square, b: Square) -> Vec<Vec<Click>> {
    vec![
        vec![Click::on(cell(a)), Click::on(cell(b))],
        vec![Click::on(cell(b)), Click::on(cell(a))],
    ]
}

impl Present for SightReduction {
    fn legend() -> Vec<LegendItem> {
        let piece = |colour| vec![Piece::new(colour, PieceKind::Piece)];
        vec![
            LegendItem::squares(
                "Pieces",
                "White's and Black's pieces. On your turn you remove one of your own pieces \
                 that sees another of yours: the first piece along its rank or file, past \
                 empty squares only, is yours (in some variants also along a diagonal).",
                vec![
                    (Some(Shade::Dark), &[], piece(Colour::White)),
                    (Some(Shade::Light), &[], piece(Colour::Black)),
                ],
            ),
            LegendItem::squares(
                "Squares",
                "The dark and light squares only decorate the board: their colour plays no \
                 part in the rules.",
                vec![
                    (Some(Shade::Dark), &[], vec![]),
                    (Some(Shade::Light), &[], vec![]),
                ],
            ),
        ]
    }

    fn board(&self) -> Board {
        let mut b = grid(4, 8, true);
        for side in [WHITE, BLACK] {
            let mut x = self.pieces(side);
            while x != 0 {
                let sq = x.trailing_zeros() as usize;
                x &= x - 1;
                b.cells[sq]
                    .pieces
                    .push(Piece::new(side.colour(), PieceKind::Piece));
            }
        }
        b.facts.insert(Fact::Phase, phase_words(self.phase()));
        b.facts.insert(
            Fact::PiecesWhite,
            self.pieces(WHITE).count_ones().to_string(),
        );
        b.facts.insert(
            Fact::PiecesBlack,
            self.pieces(BLACK).count_ones().to_string(),
        );
        let cfg = self.config();
        if cfg.solitaire {
            b.facts.insert(Fact::Goal, goal_words(cfg));
            if let (Some((w, k)), false) = (cfg.keep, cfg.pair) {
                b.cells[usize::from(w)].mark(Mark::GoalWhite);
                b.cells[usize::from(k)].mark(Mark::GoalBlack);
            }
        }
        b
    }

    fn interaction(&self) -> Interaction {
        if self.outcome().is_some() {
            return Interaction::default();
        }
        let legal = legal_with_notation(self);
        // Squares a single click completes a move on, and squares that start a two-click move.
        let mut singles = 0u32;
        let mut doubles = 0u32;
        let (mut any_place, mut any_swap, mut any_pair, mut any_clicks) =
            (false, false, false, false);
        // First clicks in the order the moves offer them.
        let mut firsts: Vec<Square> = Vec::new();
        let first = |sq: Square, firsts: &mut Vec<Square>| {
            if !firsts.contains(&sq) {
                firsts.push(sq);
            }
        };
        let mut moves = Vec::with_capacity(legal.len());
        for (mv, notation) in legal {
            let touched = self.touched(mv);
            let input = match mv {
                Move::Remove(s) => {
                    singles |= 1 << s;
                    any_clicks = true;
                    first(s, &mut firsts);
                    MoveInput::clicks(
                        notation,
                        vec![vec![Click::on(cell(s))]],
                        format!("Remove {} alone", cell(s)),
                    )
                    .kind(MoveKind::Capture)
                }
                Move::Place(s) => {
                    singles |= 1 << s;
                    any_clicks = true;
                    any_place = true;
                    first(s, &mut firsts);
                    MoveInput::clicks(
                        notation,
                        vec![vec![Click::on(cell(s))]],
                        format!("Place on {}", cell(s)),
                    )
                }
                Move::Pair(a, b) | Move::Swap(a, b) => {
                    doubles |= (1 << a) | (1 << b);
                    any_clicks = true;
                    first(a, &mut firsts);
                    first(b, &mut firsts);
                    let label = if matches!(mv, Move::Pair(..)) {
                        any_pair = true;
                        format!("Remove {} and {}", cell(a), cell(b))
                    } else {
                        any_swap = true;
                        format!("Swap {} and {}", cell(a), cell(b))
                    };
                    MoveInput::clicks(notation, either_order(a, b), label)
                }
                Move::Done => MoveInput::button(notation, "Done arranging"),
                Move::ChooseColour(c) => MoveInput::button(notation, format!("Take {}", c.title())),
                Move::ChooseFirst(c) => {
                    MoveInput::button(notation, format!("{} removes first", c.title()))
                }
            };
            moves.push(input.touching(touched));
        }
        let prompt = if any_place {
            "Choose a marked square to place a piece."
        } else if any_swap {
            "Swap two pieces of different colours (choose one, then the other), or press Done arranging."
        } else if any_pair {
            "Choose a marked piece to remove it, or two that see each other to remove the pair."
        } else if any_clicks {
            "Choose a marked piece to remove it."
        } else {
            ""
        };
        let arranging = matches!(self.phase(), Phase::Arrange { .. });
        let selections = firsts
            .into_iter()
            .map(|sq| {
                let c = cell(sq);
                let text = if singles >> sq & 1 == 1 && doubles >> sq & 1 == 1 {
                    format!(
                        "{c} selected: choose {c} again to remove it alone, or a highlighted \
                         partner to remove the pair."
                    )
                } else if arranging {
                    format!("{c} selected: choose a piece of the other colour to swap them.")
                } else {
                    format!("{c} selected: choose a highlighted piece to complete the pair.")
                };
                Selection {
                    click: Click::on(c.clone()),
                    name: c.into_owned(),
                    text,
                    zones: None,
                }
            })
            .collect();
        let refusal = match self.phase() {
            Phase::Place => "{cell}: no piece may be placed there now.",
            Phase::Arrange { .. } => "{cell}: pick two pieces of different colours to swap.",
            _ => "{cell} cannot be removed now: remove one of your own pieces that sees a friendly piece.",
        };
        Interaction {
            prompt: prompt.to_string(),
            moves,
            selections,
            refusals: vec![Refusal {
                cells: Vec::new(),
                text: refusal.to_string(),
            }],
            set_words: None,
        }
    }

    fn touched(&self, mv: Move) -> Vec<Text> {
        match mv {
            Move::Remove(s) | Move::Place(s) => vec![cell(s)],
            Move::Pair(a, b) | Move::Swap(a, b) => vec![cell(a), cell(b)],
            Move::Done | Move::ChooseColour(_) | Move::ChooseFirst(_) => Vec::new(),
        }
    }

    fn tutorial() -> &'static [Step<Self>] {
        crate::tutorial::TUTORIAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Options;

    fn options(pairs: &[(&'static str, &'static str)]) -> Options {
        SightReduction::info()
            .options_from_pairs(pairs.iter().copied())
            .unwrap()
    }

    fn at(text: &str, pairs: &[(&'static str, &'static str)]) -> SightReduction {
        SightReduction::from_position(&options(pairs), text).unwrap()
    }

    fn input<'a>(i: &'a Interaction, notation: &str) -> &'a MoveInput {
        i.moves
            .iter()
            .find(|m| m.notation == notation)
            .unwrap_or_else(|| panic!("no move {notation}"))
    }

    fn selection<'a>(i: &'a Interaction, cell: &str) -> &'a Selection {
        i.selections
            .iter()
            .find(|s| s.click.cell == cell)
            .unwrap_or_else(|| panic!("no selection {cell}"))
    }

    fn path(cells: &[&str]) -> Vec<Click> {
        cells.iter().map(|c| Click::on(c.to_string())).collect()
    }

    #[test]
    fn board_shows_pieces_and_phase() {
        let g = at("1B2/BBWB/BW2/BWBW/2W1/BWWW/WWBW/BBBW w", &[]);
        let b = g.board();
        assert_eq!(b.cells.len(), 32);
        assert_eq!(b.cell("b8").unwrap().pieces[0].colour, Colour::Black);
        assert!(b.cell("a8").unwrap().pieces.is_empty());
        assert_eq!(b.cell("d1").unwrap().pieces[0].colour, Colour::White);
        assert_eq!(b.cell("a1").unwrap().shade, Some(Shade::Dark));
        assert_eq!(b.facts[&Fact::Phase], "removal");
        assert_eq!(b.facts[&Fact::PiecesWhite], "12");
        assert_eq!(b.facts[&Fact::PiecesBlack], "12");
        let g = at(
            "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW - arrange 1",
            &[("setup", "fair")],
        );
        assert_eq!(
            g.board().facts[&Fact::Phase],
            "arrangement (1 of 2 swaps made)"
        );
    }

    #[test]
    fn set_up_phases_are_named() {
        let full = "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW";
        let fair = [("setup", "fair")];
        let phase = |g: &SightReduction| g.board().facts[&Fact::Phase].clone();
        assert_eq!(
            phase(&at(&format!("{full} - color"), &fair)),
            "colour choice"
        );
        assert_eq!(
            phase(&at(&format!("{full} - first b"), &fair)),
            "choice of who removes first"
        );
        assert_eq!(phase(&at(&format!("{full} w remove"), &fair)), "removal");
        let g = SightReduction::new(&options(&[("setup", "deterministic")]), 1).unwrap();
        let b = g.board();
        assert_eq!(b.facts[&Fact::Phase], "placement");
        assert_eq!(b.facts[&Fact::PiecesWhite], "0");
        assert_eq!(b.facts[&Fact::PiecesBlack], "0");
    }

    #[test]
    fn removals_are_one_click_and_pairs_two_in_either_order() {
        let g = at("4/4/4/4/4/4/W3/WW1B w", &[("removal", "pair")]);
        let i = g.interaction();
        assert_eq!(
            i.prompt,
            "Choose a marked piece to remove it, or two that see each other to remove the pair."
        );
        let notations: Vec<&str> = i.moves.iter().map(|m| m.notation.as_str()).collect();
        assert_eq!(notations, ["a1", "b1", "a2", "a1+b1", "a1+a2"]);
        let a1 = input(&i, "a1");
        assert_eq!(a1.paths, vec![path(&["a1"])]);
        assert_eq!(a1.label, "Remove a1 alone");
        assert_eq!(a1.kind, MoveKind::Capture);
        assert_eq!(a1.cells, vec!["a1"]);
        let pair = input(&i, "a1+a2");
        assert_eq!(pair.paths, vec![path(&["a1", "a2"]), path(&["a2", "a1"])]);
        assert_eq!(pair.label, "Remove a1 and a2");
        assert_eq!(pair.kind, MoveKind::Move);
        assert_eq!(pair.group, None);
        assert_eq!(pair.cells, vec!["a1", "a2"]);
        assert_eq!(g.touched(Move::Pair(0, 4)), vec!["a1", "a2"]);
        let names: Vec<&str> = i.selections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a1", "b1", "a2"]);
        assert_eq!(
            selection(&i, "b1").text,
            "b1 selected: choose b1 again to remove it alone, or a highlighted partner to remove the pair."
        );
        assert_eq!(
            i.refusals,
            vec![Refusal {
                cells: Vec::new(),
                text: "{cell} cannot be removed now: remove one of your own pieces that sees a friendly piece.".into(),
            }]
        );
    }

    #[test]
    fn single_removal_prompt_and_game_over() {
        let g = at("4/4/4/4/4/4/4/WW1B w", &[]);
        let i = g.interaction();
        assert_eq!(i.prompt, "Choose a marked piece to remove it.");
        assert_eq!(i.moves.len(), 2);
        assert_eq!(
            selection(&i, "a1").text,
            "a1 selected: choose a highlighted piece to complete the pair."
        );
        let over = at("4/4/4/4/4/4/4/W2B w", &[]);
        assert!(over.outcome().is_some());
        assert_eq!(over.interaction(), Interaction::default());
    }

    #[test]
    fn fair_set_up_swaps_and_buttons() {
        let full = "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW";
        let fair = [("setup", "fair")];
        let g = at(&format!("{full} - arrange 0"), &fair);
        let i = g.interaction();
        assert_eq!(
            i.prompt,
            "Swap two pieces of different colours (choose one, then the other), or press Done arranging."
        );
        let swap = input(&i, "swap a1 b1");
        assert_eq!(swap.paths, vec![path(&["a1", "b1"]), path(&["b1", "a1"])]);
        assert_eq!(swap.label, "Swap a1 and b1");
        assert_eq!(swap.cells, vec!["a1", "b1"]);
        let done = input(&i, "done");
        assert!(done.paths.is_empty());
        assert_eq!(done.label, "Done arranging");
        assert!(done.cells.is_empty());
        assert_eq!(
            selection(&i, "c5").text,
            "c5 selected: choose a piece of the other colour to swap them."
        );
        assert_eq!(i.selections.len(), 32);
        assert_eq!(
            i.refusals[0].text,
            "{cell}: pick two pieces of different colours to swap."
        );

        let i = at(&format!("{full} - arrange 2"), &fair).interaction();
        assert_eq!(i.prompt, "");
        assert_eq!(i.moves.len(), 1);
        assert!(i.selections.is_empty());

        let i = at(&format!("{full} - color"), &fair).interaction();
        let labels: Vec<&str> = i.moves.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(labels, ["Take White", "Take Black"]);
        assert_eq!(i.prompt, "");

        let i = at(&format!("{full} - first w"), &fair).interaction();
        let labels: Vec<&str> = i.moves.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(labels, ["White removes first", "Black removes first"]);
        assert!(i
            .moves
            .iter()
            .all(|m| m.paths.is_empty() && m.kind == MoveKind::Move));
    }

    #[test]
    fn placements_are_one_click() {
        let g = SightReduction::new(&options(&[("setup", "deterministic")]), 1).unwrap();
        let i = g.interaction();
        assert_eq!(i.prompt, "Choose a marked square to place a piece.");
        assert_eq!(i.moves.len(), 32);
        let place = input(&i, "@b2");
        assert_eq!(place.paths, vec![path(&["b2"])]);
        assert_eq!(place.label, "Place on b2");
        assert_eq!(place.kind, MoveKind::Move);
        assert_eq!(place.cells, vec!["b2"]);
        assert_eq!(
            selection(&i, "b2").text,
            "b2 selected: choose a highlighted piece to complete the pair."
        );
        assert_eq!(
            i.refusals[0].text,
            "{cell}: no piece may be placed there now."
        );
    }
}
