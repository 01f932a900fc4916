//! The Obsidio board as drawn, and how moves are entered by clicks.
//!
//! The board: n × n squares shaded dark, light or target; influence tokens on dark and light
//! squares, control tokens on claimed targets; the anchor and each colour's last placement or
//! claim as marks; facts for each colour's supply and claimed targets and for the passes in a
//! row.
//!
//! Moves: a dark placement is one click, a light placement two (the first token, then the
//! second); a claim is a set of targets chosen one by one and confirmed (the target chosen
//! last is claimed last and becomes the anchor); swap and pass are buttons. The board marks
//! the last moves itself, so no move names cells it touches once played; a move suggested (a
//! hint, the best move of a review or an analysis) is marked on the squares it names.

use crate::geometry::{Bits, Kind, Square};
use crate::{Move, Obsidio, Side, BLACK, UNLIMITED, WHITE};
use boardlab_core::present::{
    self, Board, Click, Fact, LegendItem, Mark, MoveInput, PieceKind, Refusal, Selection, SetWords,
    Shade, Text,
};
use boardlab_core::Rules;
use boardlab_core::{Colour, Present};

impl Obsidio {
    /// The name of `sq` as a cell name.
    fn cell_name(&self, sq: Square) -> Text {
        let n = self.geometry().n;
        present::square(usize::from(sq % n), usize::from(sq / n))
    }

    /// The squares of the targets of a claim, in the order the claim names them: the others
    /// in square order, then the one claimed last.
    fn claim_squares(&self, targets: u32, last: u8) -> impl Iterator<Item = Square> + '_ {
        let g = self.geometry();
        let others = targets & !1u32.checked_shl(u32::from(last)).unwrap_or(0);
        Bits::of(u128::from(others))
            .chain(std::iter::once(last))
            .map(move |t| g.target_square[usize::from(t)])
    }

    /// The squares of a placement or claim, in the order its notation names them.
    fn move_cells(&self, mv: Move) -> Vec<Square> {
        match mv {
            Move::Place(a) => vec![a],
            Move::PlaceTwo(a, b) => vec![a, b],
            Move::Claim { targets, last } => self.claim_squares(targets, last).collect(),
            Move::Swap | Move::Pass => Vec::new(),
        }
    }
}

/// The line shown while a first token is selected.
fn first_token_hint(cell: &str) -> String {
    format!("First token on {cell}: choose a highlighted square for the second token.")
}

impl Present for Obsidio {
    fn legend() -> Vec<LegendItem> {
        let token = |colour| vec![present::Piece::new(colour, PieceKind::Token)];
        let control = |colour| vec![present::Piece::new(colour, PieceKind::Control)];
        let (dark, light, target) = (Some(Shade::Dark), Some(Shade::Light), Some(Shade::Target));
        let (black, white) = (Colour::Black, Colour::White);
        vec![
            LegendItem::square(
                "Dark square",
                "Takes one token in a turn. It looks along its rank and file.",
                dark,
                &[],
                vec![],
            ),
            LegendItem::square(
                "Light square",
                "Takes two tokens in one turn: the second on another light square that sees \
                 the first and is not next to it.",
                light,
                &[],
                vec![],
            ),
            LegendItem::square(
                "Target",
                "Claim it when four or more of your tokens stand on the eight squares around \
                 it. Whoever holds more than half of the targets wins.",
                target,
                &[],
                vec![],
            ),
            LegendItem::squares(
                "Tokens",
                "Black's and White's tokens, placed around the targets.",
                vec![(light, &[], token(black)), (dark, &[], token(white))],
            ),
            LegendItem::squares(
                "Claimed targets",
                "A target claimed by Black and one claimed by White.",
                vec![(target, &[], control(black)), (target, &[], control(white))],
            ),
            LegendItem::square(
                "Anchor",
                "The last token put on the board, by either player. A new token must go on a \
                 square that sees it, when a free square of that kind (dark, or light) does.",
                dark,
                &[Mark::Anchor],
                token(white),
            ),
            LegendItem::squares(
                "Last moves",
                "Where each player moved last; the tab in the corner shows whose move it was, \
                 and the later one is brighter.",
                vec![
                    (light, &[Mark::LastBlack], token(black)),
                    (dark, &[Mark::LastWhite], token(white)),
                ],
            ),
        ]
    }

    fn board(&self) -> Board {
        let g = self.geometry();
        let n = usize::from(g.n);
        let mut b = present::grid(n, n, false);
        for sq in 0..g.cells {
            let cell = &mut b.cells[usize::from(sq)];
            let kind = g.kind(sq);
            cell.shade = Some(match kind {
                Kind::Target => Shade::Target,
                Kind::Dark => Shade::Dark,
                Kind::Light => Shade::Light,
            });
            for side in [BLACK, WHITE] {
                let on = if kind == Kind::Target {
                    self.claimed(side) >> g.target_index[usize::from(sq)] & 1 == 1
                } else {
                    self.tokens(side) >> sq & 1 == 1
                };
                if on {
                    let piece = if kind == Kind::Target {
                        PieceKind::Control
                    } else {
                        PieceKind::Token
                    };
                    cell.pieces.push(present::Piece::new(side.colour(), piece));
                }
            }
        }
        if let Some(anchor) = self.anchor() {
            b.cells[usize::from(anchor)].mark(Mark::Anchor);
        }
        for (side, mark) in [(BLACK, Mark::LastBlack), (WHITE, Mark::LastWhite)] {
            if let Some(mv) = self.last_move(side) {
                for sq in self.move_cells(mv) {
                    b.cells[usize::from(sq)].mark(mark.clone());
                }
            }
        }
        let supply = |side: Side| {
            if self.config().tokens == UNLIMITED {
                "unlimited".to_string()
            } else {
                self.supply(side).to_string()
            }
        };
        b.facts.insert(Fact::SupplyBlack, supply(BLACK));
        b.facts.insert(Fact::SupplyWhite, supply(WHITE));
        b.facts.insert(Fact::Passes, self.passes().to_string());
        b.facts.insert(
            Fact::TargetsBlack,
            self.claimed(BLACK).count_ones().to_string(),
        );
        b.facts.insert(
            Fact::TargetsWhite,
            self.claimed(WHITE).count_ones().to_string(),
        );
        b
    }

    fn interaction(&self) -> present::Interaction {
        let mut out = present::Interaction::default();
        if self.outcome().is_some() {
            return out;
        }
        let (mut place, mut claim) = (false, false);
        for (mv, notation) in present::legal_with_notation(self) {
            let input = match mv {
                Move::Place(a) => {
                    place = true;
                    let a = self.cell_name(a);
                    let label = format!("Place {a}");
                    MoveInput::clicks(notation, vec![vec![Click::on(a.clone())]], label)
                        .touching(vec![a])
                }
                Move::PlaceTwo(a, b) => {
                    place = true;
                    let (a, b) = (self.cell_name(a), self.cell_name(b));
                    let label = format!("Place {a} and {b}");
                    let cells = vec![a.clone(), b.clone()];
                    MoveInput::clicks(notation, vec![vec![Click::on(a), Click::on(b)]], label)
                        .touching(cells)
                }
                Move::Claim { targets, last } => {
                    claim = true;
                    let cells: Vec<Text> = self
                        .claim_squares(targets, last)
                        .map(|sq| self.cell_name(sq))
                        .collect();
                    let label = format!("Claim {}", cells.join(", "));
                    MoveInput {
                        set: Some(cells.clone()),
                        ..MoveInput::button(notation, label).touching(cells)
                    }
                }
                Move::Swap => MoveInput::button(notation, "Swap colours (pie rule)"),
                Move::Pass => MoveInput::button(notation, "Pass"),
            };
            if let Some(first) = input.paths.first().and_then(|p| p.first()) {
                if !out.selections.iter().any(|s| s.click == *first) {
                    out.selections.push(Selection {
                        click: first.clone(),
                        name: first.cell.to_string(),
                        text: first_token_hint(&first.cell),
                        zones: None,
                    });
                }
            }
            out.moves.push(input);
        }
        out.prompt = match (place, claim) {
            (true, true) => "Choose a marked square to place a token, or a target to claim it.",
            (false, true) => "Choose a target to claim it.",
            (true, false) => {
                "Choose a marked square to place a token (on a light square, then a second one)."
            }
            (false, false) => "",
        }
        .to_string();
        out.refusals = self.refusals();
        if claim {
            out.set_words = Some(SetWords {
                one: "Claim {last}: confirm, or select more targets to claim together (the one \
                      selected last is claimed last and becomes the anchor)."
                    .to_string(),
                many: "Claim {cells}; {last} is claimed last and becomes the anchor. Choose a \
                       target again to drop it."
                    .to_string(),
                pending_one: "Claim {cells}".to_string(),
                pending_many: "Claim {cells} ({last} last: it becomes the anchor)".to_string(),
                invalid: "These targets cannot be claimed together in this order".to_string(),
                confirm: "Claim".to_string(),
            });
        }
        out
    }

    fn tutorial() -> &'static [boardlab_core::tutorial::Step<Self>] {
        crate::tutorial::TUTORIAL
    }

    fn touched(&self, _mv: Move) -> Vec<Text> {
        Vec::new()
    }

    fn suggested(&self, mv: Move) -> Vec<Text> {
        self.move_cells(mv)
            .into_iter()
            .map(|sq| self.cell_name(sq))
            .collect()
    }
}

impl Obsidio {
    /// What to say about a click that starts no move: a target (claimed or not) cannot be
    /// claimed, a square with a token is taken, any other square does not see the anchor.
    fn refusals(&self) -> Vec<Refusal> {
        let g = self.geometry();
        let tokens = self.tokens(BLACK) | self.tokens(WHITE);
        let mut out = vec![Refusal {
            // Targets are numbered in square order.
            cells: g.target_square[..usize::from(g.targets)]
                .iter()
                .map(|&sq| self.cell_name(sq))
                .collect(),
            text: "{cell} cannot be claimed: a claim needs four of your tokens around an \
                   unclaimed target."
                .to_string(),
        }];
        // An entry naming no cell would apply to every cell: none while no token is placed.
        if tokens != 0 {
            out.push(Refusal {
                cells: Bits::of(tokens).map(|sq| self.cell_name(sq)).collect(),
                text: "{cell} is taken.".to_string(),
            });
        }
        out.push(Refusal {
            cells: Vec::new(),
            text: "{cell} is not a legal placement now: it must see the anchor when any square \
                   of its kind does."
                .to_string(),
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Options;

    fn options(text: &str) -> Options {
        Obsidio::info().parse_options(text).unwrap()
    }

    fn game(opts: &str) -> Obsidio {
        Obsidio::new(&options(opts), 0).unwrap()
    }

    fn at(text: &str, opts: &str) -> Obsidio {
        Obsidio::from_position(&options(opts), text).unwrap()
    }

    fn play(g: &mut Obsidio, moves: &[&str]) {
        for m in moves {
            g.play_text(m).unwrap();
        }
    }

    fn marks(b: &Board, name: &str) -> Vec<Mark> {
        b.cell(name).unwrap().marks.clone()
    }

    fn input<'a>(i: &'a present::Interaction, notation: &str) -> &'a MoveInput {
        i.moves.iter().find(|m| m.notation == notation).unwrap()
    }

    #[test]
    fn the_start_board_has_shades_and_facts() {
        let b = game("").board();
        assert_eq!(b.cells.len(), 81);
        assert_eq!((b.width, b.height), (9.0, 9.0));
        assert_eq!(b.cells[0].name, "a1");
        assert_eq!(b.cell("a1").unwrap().shade, Some(Shade::Dark));
        assert_eq!(b.cell("b1").unwrap().shade, Some(Shade::Light));
        assert_eq!(b.cell("b2").unwrap().shade, Some(Shade::Target));
        assert_eq!(b.cell("h8").unwrap().shade, Some(Shade::Target));
        assert_eq!(b.cell("i9").unwrap().shade, Some(Shade::Dark));
        assert!(b
            .cells
            .iter()
            .all(|c| c.pieces.is_empty() && c.marks.is_empty()));
        assert_eq!(b.facts[&Fact::SupplyBlack], "51");
        assert_eq!(b.facts[&Fact::SupplyWhite], "51");
        assert_eq!(b.facts[&Fact::Passes], "0");
        assert_eq!(b.facts[&Fact::TargetsBlack], "0");
        assert_eq!(b.facts[&Fact::TargetsWhite], "0");
        let b7 = game("size=7").board();
        assert_eq!(b7.cells.len(), 49);
        assert_eq!(b7.facts[&Fact::SupplyBlack], "unlimited");
        assert_eq!(b7.facts[&Fact::SupplyWhite], "unlimited");
        assert_eq!(game("size=11").board().labels.len(), 22);
    }

    #[test]
    fn tokens_anchor_and_last_moves_are_drawn() {
        let mut g = game("");
        // Black a light pair, White a dark square, Black a single dark square.
        play(&mut g, &["b3,f3", "e3", "e1"]);
        let b = g.board();
        let black_token = present::Piece::new(Colour::Black, PieceKind::Token);
        assert_eq!(b.cell("b3").unwrap().pieces, vec![black_token.clone()]);
        assert_eq!(b.cell("f3").unwrap().pieces, vec![black_token]);
        assert_eq!(
            b.cell("e3").unwrap().pieces,
            vec![present::Piece::new(Colour::White, PieceKind::Token)]
        );
        assert_eq!(marks(&b, "e1"), [Mark::Anchor, Mark::LastBlack]);
        assert_eq!(marks(&b, "e3"), [Mark::LastWhite]);
        // Black's earlier pair is no longer its last move.
        assert!(marks(&b, "b3").is_empty());
        assert_eq!(b.facts[&Fact::SupplyBlack], "48");
        assert_eq!(b.facts[&Fact::SupplyWhite], "50");
    }

    #[test]
    fn claims_are_controls_and_last_claims_are_marked_in_order() {
        // Black has four tokens around b2 and four around d2 (c2 counts for both).
        let g = at(
            "......./.+.+.+./......./.+.+.+./.b.b.../b+b+b+./.b.b... b anchor=c2",
            "size=7",
        );
        assert_eq!(g.claimable(BLACK).count_ones(), 2);
        let mut g2 = g.clone();
        play(&mut g2, &["+d2+b2"]);
        let b = g2.board();
        assert_eq!(
            b.cell("b2").unwrap().pieces,
            vec![present::Piece::new(Colour::Black, PieceKind::Control)]
        );
        assert_eq!(marks(&b, "d2"), [Mark::LastBlack]);
        assert_eq!(marks(&b, "b2"), [Mark::Anchor, Mark::LastBlack]);
        assert_eq!(b.facts[&Fact::TargetsBlack], "2");
        assert_eq!(b.facts[&Fact::TargetsWhite], "0");
        // The claim's set names the targets in notation order, the last one last.
        let i = g.interaction();
        let both = input(&i, "+d2+b2");
        assert_eq!(both.set.as_deref(), Some(&["d2".into(), "b2".into()][..]));
        assert_eq!(both.label, "Claim d2, b2");
        assert!(both.paths.is_empty());
        assert_eq!(both.kind, present::MoveKind::Move);
        // A claim suggested (a hint, a review's best move) is marked on its targets.
        assert_eq!(both.cells, vec![Text::from("d2"), Text::from("b2")]);
        let claim = g.parse_move("+d2+b2").unwrap();
        assert_eq!(g.suggested(claim), both.cells);
        assert!(i.set_words.is_some());
        assert_eq!(
            i.prompt,
            "Choose a marked square to place a token, or a target to claim it."
        );
    }

    #[test]
    fn placements_are_clicks_and_swap_is_a_button() {
        let mut g = game("");
        let i = g.interaction();
        assert_eq!(
            i.prompt,
            "Choose a marked square to place a token (on a light square, then a second one)."
        );
        assert!(i.set_words.is_none());
        let dark = input(&i, "c3");
        assert_eq!(dark.paths, vec![vec![Click::on("c3")]]);
        assert_eq!(dark.label, "Place c3");
        let pair = input(&i, "b3,f3");
        assert_eq!(pair.paths, vec![vec![Click::on("b3"), Click::on("f3")]]);
        assert_eq!(pair.label, "Place b3 and f3");
        assert!(pair.group.is_none());
        // The cells that mark it as a hint.
        assert_eq!(dark.cells, vec![Text::from("c3")]);
        assert_eq!(pair.cells, vec![Text::from("b3"), Text::from("f3")]);
        // Suggested, a placement is marked on its squares, though once played it is marked by
        // the board's own marks of the last moves.
        for m in [dark, pair] {
            let mv = g.parse_move(&m.notation).unwrap();
            assert_eq!(g.suggested(mv), m.cells);
            assert!(g.touched(mv).is_empty());
        }
        let sel = i
            .selections
            .iter()
            .find(|s| s.click == Click::on("b3"))
            .unwrap();
        assert_eq!(sel.name, "b3");
        assert_eq!(
            sel.text,
            "First token on b3: choose a highlighted square for the second token."
        );
        // One selection per first click, in the order of the moves.
        assert_eq!(i.selections[0].click, Click::on("a1"));
        let firsts: std::collections::BTreeSet<_> =
            i.selections.iter().map(|s| s.click.cell.clone()).collect();
        assert_eq!(firsts.len(), i.selections.len());
        play(&mut g, &["e5"]);
        let i = g.interaction();
        let swap = input(&i, "swap");
        assert_eq!(swap.label, "Swap colours (pie rule)");
        assert!(swap.paths.is_empty() && swap.set.is_none());
        assert_eq!(g.touched(Move::Swap), Vec::<Text>::new());
        assert_eq!(i.moves.len(), {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.len()
        });
    }

    #[test]
    fn refusals_name_targets_then_tokens_then_the_rest() {
        let mut g = game("size=7");
        // No token yet: no "taken" entry (one naming no cell would apply to every cell).
        let r = g.interaction().refusals;
        assert_eq!(r.len(), 2);
        assert!(r[1].cells.is_empty() && r[1].text.contains("must see the anchor"));
        play(&mut g, &["c3"]);
        let r = g.interaction().refusals;
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].cells.len(), 9);
        assert_eq!(r[0].cells[0], "b2");
        assert!(r[0].text.starts_with("{cell} cannot be claimed"));
        assert_eq!(r[1].cells, vec![Text::from("c3")]);
        assert_eq!(r[1].text, "{cell} is taken.");
        assert!(r[2].cells.is_empty());
        assert!(r[2].text.contains("must see the anchor"));
    }

    #[test]
    fn a_pass_is_a_button_and_the_prompt_is_empty() {
        // Both colours out of tokens: only a pass is left.
        let g = at(
            "......./.+.+.+./......./.+.+.+./......./.+.+.+./b.w.... b supply=0/0 anchor=c1",
            "size=7,tokens=1",
        );
        let i = g.interaction();
        assert_eq!(i.moves.len(), 1);
        assert_eq!(i.moves[0].notation, "pass");
        assert_eq!(i.moves[0].label, "Pass");
        assert!(i.moves[0].cells.is_empty());
        assert!(g.suggested(Move::Pass).is_empty());
        assert_eq!(i.prompt, "");
        assert!(i.selections.is_empty());
        assert_eq!(g.board().facts[&Fact::SupplyBlack], "0");
    }

    #[test]
    fn a_finished_game_has_no_interaction() {
        let mut g = at(
            "......./.+.+.+./......./.+.+.+./......./.+.+.+./b.w.... b supply=0/0 anchor=c1",
            "size=7,tokens=1",
        );
        play(&mut g, &["pass", "pass"]);
        assert!(g.outcome().is_some());
        assert_eq!(g.interaction(), present::Interaction::default());
        assert_eq!(g.board().facts[&Fact::Passes], "2");
    }
}
