//! Opprimo drawn and played by clicks: the 45 points with the lines between them and the 66
//! triangles, soldiers and Officers on the points, Kings on the triangles, stars and castles
//! as marks.
//!
//! A King is placed by clicking a castle triangle and moved by clicking its triangle and then
//! an adjacent one; a soldier steps or converts by clicking its point and then the point it
//! goes to. `pass` is a button.

use crate::board::{
    castle_set, coords, neighbour, point_at, triangle_name, Point, Side, Tri, N, NE, NW, POINTS,
    STARS, TRIANGLES, TRI_POINTS,
};
use crate::{Move, Opprimo, RED, YELLOW};
use boardlab_core::present::{
    file_label, legal_with_notation, rank_label, square, Board, Cell, Click, Fact, Interaction,
    Label, Layout, LegendItem, Line, Mark, MoveInput, MoveKind, Piece, PieceKind, Present, Refusal,
    Selection, Shape, Text,
};
use boardlab_core::Game;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Column spacing that makes the triangles equilateral with vertical sides of length 1.
const DX: f64 = 0.866_025_403_784_438_6;

/// Where the point in column `c`, half-row `r` is drawn.
fn xy(c: u8, r: u8) -> [f64; 2] {
    [0.5 + f64::from(c) * DX, 0.5 + f64::from(r) * 0.5]
}

fn point_xy(p: Point) -> [f64; 2] {
    let (c, r) = coords(p);
    xy(c, r)
}

fn point_text(p: Point) -> Text {
    let (c, r) = coords(p);
    square(usize::from(c), usize::from(r))
}

/// The name of triangle `t`, made once for all 66.
fn triangle_text(t: Tri) -> Text {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    let names = NAMES.get_or_init(|| (0..TRIANGLES as Tri).map(triangle_name).collect());
    Cow::Borrowed(names[usize::from(t)].as_str())
}

/// The points by column and then half-row (a2, a4, …, b1, b3, …): the order in which the
/// board lists lines and triangles.
fn points_by_column() -> impl Iterator<Item = Point> {
    (0..7).flat_map(|c| (0..13).filter_map(move |r| point_at(c, r)))
}

/// The triangles in drawing order: by the lower point of their vertical side taken column by
/// column, then left before right.
fn triangles_by_column() -> &'static [Tri] {
    static ORDER: OnceLock<Vec<Tri>> = OnceLock::new();
    ORDER.get_or_init(|| {
        points_by_column()
            .flat_map(|p| {
                (0..TRIANGLES as Tri).filter(move |&t| TRI_POINTS[usize::from(t)][0] == p)
            })
            .collect()
    })
}

const PLACE_HINT: &str = "Place your King: choose a marked triangle of your castle.";
const KING_HINT: &str =
    "Choose a soldier and then a point to step or jump to, or your King and then a triangle.";
const SOLDIER_HINT: &str = "Choose a soldier and then a point to step or jump to.";

/// A picture for the legend: `count` points or triangles side by side, one board unit apart,
/// each made by `cell` from its left edge; triangles get their sides drawn as lines.
fn sample(count: usize, cell: impl Fn(f64) -> Cell) -> Board {
    let cells: Vec<Cell> = (0..count).map(|i| cell(i as f64)).collect();
    let mut lines = Vec::new();
    for c in &cells {
        if let Some(p) = &c.polygon {
            for i in 0..p.len() {
                lines.push(Line {
                    from: p[i],
                    to: p[(i + 1) % p.len()],
                });
            }
        }
    }
    Board {
        layout: Layout::Points,
        width: count as f64,
        height: 1.0,
        cells,
        lines,
        labels: Vec::new(),
        facts: BTreeMap::new(),
    }
}

/// A point of a legend picture, in the middle of the unit from `left`.
fn sample_point(left: f64, marks: &[Mark], pieces: Vec<Piece>) -> Cell {
    Cell {
        name: Cow::Borrowed(""),
        shape: Shape::Point,
        x: left + 0.5,
        y: 0.5,
        polygon: None,
        shade: None,
        marks: marks.to_vec(),
        pieces,
    }
}

/// A triangle of a legend picture (a vertical side on the left, as on the board).
fn sample_triangle(left: f64, marks: &[Mark], pieces: Vec<Piece>) -> Cell {
    let polygon = vec![[left + 0.22, 0.06], [left + 0.22, 0.94], [left + 0.98, 0.5]];
    Cell {
        name: Cow::Borrowed(""),
        shape: Shape::Triangle,
        x: left + (0.22 + 0.22 + 0.98) / 3.0,
        y: 0.5,
        polygon: Some(polygon),
        shade: None,
        marks: marks.to_vec(),
        pieces,
    }
}

impl Present for Opprimo {
    fn legend() -> Vec<LegendItem> {
        let both = |kind: PieceKind| move |i: usize| vec![Piece::new(Side::BOTH[i].colour(), kind)];
        let soldier = both(PieceKind::Soldier);
        let officer = both(PieceKind::Officer);
        let king = both(PieceKind::King);
        let castle = |i: usize| [Mark::CastleYellow, Mark::CastleRed][i].clone();
        let star = |i: usize| [Mark::StarYellow, Mark::StarRed][i].clone();
        let unit = |x: f64| if x < 1.0 { 0 } else { 1 };
        vec![
            LegendItem {
                name: "Soldiers",
                text: "Yellow's and Red's soldiers stand on the points. A soldier steps forward \
                       along a line to an empty point, or jumps an enemy soldier next to it to \
                       the empty point beyond, and the jumped soldier changes colour.",
                sample: sample(2, |x| sample_point(x, &[], soldier(unit(x)))),
            },
            LegendItem {
                name: "Officers",
                text: "A soldier that moved onto one of its stars (the star on the piece): it \
                       may also step and jump backwards. Converted, it becomes a plain soldier.",
                sample: sample(2, |x| sample_point(x, &[], officer(unit(x)))),
            },
            LegendItem {
                name: "Kings",
                text: "Each King stands inside a triangle of its castle and moves to a \
                       neighbouring one. A King whose three corners all hold enemy soldiers is \
                       trapped: its side loses.",
                sample: sample(2, |x| {
                    let i = unit(x);
                    sample_triangle(x, &[castle(i)], king(i))
                }),
            },
            LegendItem {
                name: "Stars",
                text: "A yellow star is a point where Yellow's soldiers become Officers (at \
                       Red's end of the board); a red star is one of Red's, at Yellow's end.",
                sample: sample(2, |x| sample_point(x, &[star(unit(x))], Vec::new())),
            },
            LegendItem {
                name: "Castles",
                text: "The shaded triangles are the castles: Yellow's King stays in the yellow \
                       ones, Red's King in the red ones.",
                sample: sample(2, |x| sample_triangle(x, &[castle(unit(x))], Vec::new())),
            },
        ]
    }
    fn board(&self) -> Board {
        let mut cells: Vec<Cell> = Vec::with_capacity(POINTS + TRIANGLES);
        for p in 0..POINTS as Point {
            let [x, y] = point_xy(p);
            let bit = 1u64 << p;
            let mut marks = Vec::new();
            for (side, mark) in [(YELLOW, Mark::StarYellow), (RED, Mark::StarRed)] {
                if STARS[side.index()] & bit != 0 {
                    marks.push(mark);
                }
            }
            let mut pieces = Vec::new();
            for side in [YELLOW, RED] {
                if self.soldiers(side) & bit != 0 {
                    pieces.push(if self.officers() & bit != 0 {
                        Piece::new(side.colour(), PieceKind::Officer).label("O")
                    } else {
                        Piece::new(side.colour(), PieceKind::Soldier)
                    });
                }
            }
            cells.push(Cell {
                name: point_text(p),
                shape: Shape::Point,
                x,
                y,
                polygon: None,
                shade: None,
                marks,
                pieces,
            });
        }
        let mut lines = Vec::new();
        for p in points_by_column() {
            for d in [N, NW, NE] {
                if let Some(q) = neighbour(p, d, 1) {
                    lines.push(Line {
                        from: point_xy(p),
                        to: point_xy(q),
                    });
                }
            }
        }
        let castles = [YELLOW, RED].map(|side| castle_set(self.castle(), side));
        let kings = [YELLOW, RED].map(|side| self.king(side));
        for &t in triangles_by_column() {
            let polygon: Vec<[f64; 2]> = TRI_POINTS[usize::from(t)]
                .iter()
                .map(|&p| point_xy(p))
                .collect();
            let x = polygon.iter().map(|p| p[0]).sum::<f64>() / 3.0;
            let y = polygon.iter().map(|p| p[1]).sum::<f64>() / 3.0;
            let mut marks = Vec::new();
            for (side, mark) in [(YELLOW, Mark::CastleYellow), (RED, Mark::CastleRed)] {
                if castles[side.index()] >> t & 1 == 1 {
                    marks.push(mark);
                }
            }
            let pieces = [YELLOW, RED]
                .into_iter()
                .filter(|&side| kings[side.index()] == Some(t))
                .map(|side| Piece::new(side.colour(), PieceKind::King).label("K"))
                .collect();
            cells.push(Cell {
                name: triangle_text(t),
                shape: Shape::Triangle,
                x,
                y,
                polygon: Some(polygon),
                shade: None,
                marks,
                pieces,
            });
        }
        let mut labels = Vec::with_capacity(7 + 13);
        for c in 0..7u8 {
            labels.push(Label {
                text: file_label(usize::from(c)),
                x: xy(c, 0)[0],
                y: 0.0,
            });
        }
        for r in 0..13u8 {
            labels.push(Label {
                text: rank_label(usize::from(r)),
                x: 0.0,
                y: xy(0, r)[1],
            });
        }
        let mut facts = BTreeMap::new();
        facts.insert(Fact::Plies, format!("{} of {}", self.ply(), self.max_plies));
        Board {
            layout: Layout::Points,
            width: 1.0 + 6.0 * DX,
            height: 7.0,
            cells,
            lines,
            labels,
            facts,
        }
    }

    fn interaction(&self) -> Interaction {
        let moves = legal_with_notation(self);
        if moves.is_empty() {
            return Interaction::default();
        }
        let placing = moves.iter().any(|(m, _)| matches!(m, Move::Place(_)));
        let king_moves = moves.iter().any(|(m, _)| matches!(m, Move::King(..)));
        let clickable = moves.iter().any(|(m, _)| *m != Move::Pass);
        let prompt = if placing {
            PLACE_HINT
        } else if king_moves {
            KING_HINT
        } else if clickable {
            SOLDIER_HINT
        } else {
            ""
        };
        let mut inputs = Vec::with_capacity(moves.len());
        let mut selections: Vec<Selection> = Vec::new();
        for (mv, notation) in moves {
            let cells = self.touched(mv);
            let input = match mv {
                Move::Place(t) => {
                    let tri = triangle_text(t);
                    let label = format!("Place the King on {tri}");
                    MoveInput::clicks(notation, vec![vec![Click::on(tri)]], label)
                }
                Move::King(from, to) => {
                    let to = triangle_text(to);
                    let label = format!("King to {to}");
                    let path = vec![Click::on(triangle_text(from)), Click::on(to)];
                    MoveInput::clicks(notation, vec![path], label)
                }
                Move::Step(from, to) => {
                    let to = point_text(to);
                    let label = format!("Step to {to}");
                    let path = vec![Click::on(point_text(from)), Click::on(to)];
                    MoveInput::clicks(notation, vec![path], label)
                }
                Move::Convert(from, to) => {
                    let to = point_text(to);
                    let label = format!("Jump to {to}");
                    let path = vec![Click::on(point_text(from)), Click::on(to)];
                    MoveInput::clicks(notation, vec![path], label).kind(MoveKind::Capture)
                }
                Move::Pass => MoveInput::button(notation, "Pass (no other move)"),
            }
            .touching(cells);
            if let Some(first) = input.paths.first().and_then(|p| p.first()) {
                if !selections.iter().any(|s| s.click == *first) {
                    selections.push(selection(first.clone(), mv));
                }
            }
            inputs.push(input);
        }
        let refusal = if placing {
            "Place your King first: choose a highlighted triangle of your castle.".to_string()
        } else {
            "No legal move starts at {cell}.".to_string()
        };
        Interaction {
            prompt: prompt.to_string(),
            moves: inputs,
            selections,
            refusals: vec![Refusal {
                cells: Vec::new(),
                text: refusal,
            }],
            set_words: None,
        }
    }

    fn tutorial() -> &'static [boardlab_core::tutorial::Step<Self>] {
        crate::tutorial::TUTORIAL
    }

    fn touched(&self, mv: Move) -> Vec<Text> {
        match mv {
            Move::Place(t) => vec![triangle_text(t)],
            Move::King(from, to) => vec![triangle_text(from), triangle_text(to)],
            Move::Step(from, to) | Move::Convert(from, to) => {
                vec![point_text(from), point_text(to)]
            }
            Move::Pass => Vec::new(),
        }
    }
}

/// What the first click of `mv` selects: a King's triangle (a placement's too) or a soldier.
fn selection(click: Click, mv: Move) -> Selection {
    let cell = click.cell.clone();
    let text = match mv {
        Move::Place(_) | Move::King(..) => {
            format!("King on {cell}: choose a highlighted triangle of the castle.")
        }
        _ => format!(
            "Soldier on {cell}: choose a highlighted point to step there or jump (a jump converts \
             the soldier between)."
        ),
    };
    Selection {
        click,
        name: cell.into_owned(),
        text,
        zones: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::prelude::*;
    use boardlab_core::Colour;

    fn game(text: &str, castle: &str) -> Opprimo {
        let options = Opprimo::info()
            .options_from_pairs([("castle", castle)])
            .unwrap();
        Opprimo::from_position(&options, text).unwrap()
    }

    fn count(b: &Board, mark: &Mark) -> usize {
        b.cells.iter().filter(|c| c.marks.contains(mark)).count()
    }

    #[test]
    fn board_has_45_points_and_66_triangles() {
        let b = game("rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy d1e - r 1", "band").board();
        assert_eq!(
            b.cells.iter().filter(|c| c.shape == Shape::Point).count(),
            45
        );
        assert_eq!(
            b.cells
                .iter()
                .filter(|c| c.shape == Shape::Triangle)
                .count(),
            66
        );
        assert_eq!(b.lines.len(), 110);
        assert_eq!(
            (count(&b, &Mark::CastleYellow), count(&b, &Mark::CastleRed)),
            (12, 12)
        );
        let h = game("rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y", "hex").board();
        assert_eq!(
            (count(&h, &Mark::CastleYellow), count(&h, &Mark::CastleRed)),
            (6, 6)
        );
        let king = b.cell("d1e").unwrap();
        assert_eq!(king.pieces[0].kind, PieceKind::King);
        assert_eq!(king.pieces[0].colour, Colour::Yellow);
        let b1 = b.cell("b1").unwrap();
        assert_eq!(b1.pieces[0].colour, Colour::Yellow);
        assert!(b1.marks.contains(&Mark::StarRed));
        assert_eq!(b.facts[&Fact::Plies], "1 of 400");
        assert_eq!(h.facts[&Fact::Plies], "0 of 400");
    }

    #[test]
    fn points_come_rank_by_rank_and_triangles_column_by_column() {
        let b = Opprimo::new(&Opprimo::info().default_options(), 0)
            .unwrap()
            .board();
        let names: Vec<&str> = b.cells.iter().map(|c| c.name.as_ref()).collect();
        assert_eq!(&names[..5], ["b1", "d1", "f1", "a2", "c2"]);
        assert_eq!(names[44], "f13");
        // Column a holds no vertical side with a point to its left: a2b comes first.
        assert_eq!(&names[45..48], ["a2b", "a4b", "a6b"]);
        assert_eq!(names[110], "g10f");
        let t = b.cell("d1e").unwrap();
        assert_eq!(
            t.polygon.as_deref(),
            Some(&[xy(3, 0), xy(3, 2), xy(4, 1)][..])
        );
        assert_eq!(b.labels.len(), 20);
        assert_eq!(b.lines[0].from, xy(0, 1));
        assert_eq!(b.lines[0].to, xy(0, 3));
    }

    #[test]
    fn officers_carry_a_letter() {
        let b = game("3/4/3/4/3/4/3/4/3/4/3/4/Y1r - - y 5", "band").board();
        let b1 = b.cell("b1").unwrap();
        assert_eq!(
            b1.pieces,
            vec![Piece::new(Colour::Yellow, PieceKind::Officer).label("O")]
        );
        assert_eq!(b.cell("f1").unwrap().pieces[0].kind, PieceKind::Soldier);
        assert_eq!(b.cell("f1").unwrap().pieces[0].colour, Colour::Red);
    }

    #[test]
    fn placement_is_one_click_on_a_castle_triangle() {
        let g = Opprimo::new(&Opprimo::info().default_options(), 0).unwrap();
        let i = g.interaction();
        assert_eq!(i.prompt, PLACE_HINT);
        assert_eq!(i.moves.len(), 12);
        let m = &i.moves[0];
        assert_eq!(m.notation, "k@b1a");
        assert_eq!(m.paths, vec![vec![Click::on("b1a")]]);
        assert_eq!(m.label, "Place the King on b1a");
        assert_eq!(m.kind, MoveKind::Move);
        assert_eq!(m.cells, vec![Text::from("b1a")]);
        assert_eq!(i.selections.len(), 12);
        assert_eq!(
            i.selections[0].text,
            "King on b1a: choose a highlighted triangle of the castle."
        );
        assert_eq!(
            i.refusals,
            vec![Refusal {
                cells: Vec::new(),
                text: "Place your King first: choose a highlighted triangle of your castle.".into()
            }]
        );
    }

    #[test]
    fn soldiers_and_kings_are_two_clicks() {
        let mut g = Opprimo::new(&Opprimo::info().default_options(), 0).unwrap();
        for m in ["k@d1e", "k@d11e"] {
            g.play_text(m).unwrap();
        }
        let i = g.interaction();
        assert_eq!(i.prompt, KING_HINT);
        let step = i.moves.iter().find(|m| m.notation == "b3-b5").unwrap();
        assert_eq!(step.paths, vec![vec![Click::on("b3"), Click::on("b5")]]);
        assert_eq!(step.label, "Step to b5");
        assert_eq!(step.cells, vec![Text::from("b3"), Text::from("b5")]);
        let king = i
            .moves
            .iter()
            .find(|m| m.notation.starts_with('k'))
            .unwrap();
        assert_eq!(king.paths[0][0], Click::on("d1e"));
        assert_eq!(king.label, format!("King to {}", king.paths[0][1].cell));
        assert_eq!(king.cells.len(), 2);
        let b3 = i
            .selections
            .iter()
            .find(|s| s.click == Click::on("b3"))
            .unwrap();
        assert_eq!(b3.name, "b3");
        assert!(b3
            .text
            .starts_with("Soldier on b3: choose a highlighted point"));
        let d1e = i
            .selections
            .iter()
            .find(|s| s.click == Click::on("d1e"))
            .unwrap();
        assert!(d1e.text.starts_with("King on d1e:"));
        assert_eq!(i.refusals[0].text, "No legal move starts at {cell}.");
        assert!(i.refusals[0].cells.is_empty());
    }

    #[test]
    fn conversions_are_captures_and_pass_is_a_button() {
        let g = game("3/4/3/4/3/4/3/4/3/4/1r1/4/1y1 d1e d11e y 4", "band");
        let i = g.interaction();
        let jump = i.moves.iter().find(|m| m.notation == "d1xd5").unwrap();
        assert_eq!(jump.kind, MoveKind::Capture);
        assert_eq!(jump.label, "Jump to d5");
        assert_eq!(jump.paths, vec![vec![Click::on("d1"), Click::on("d5")]]);
        assert_eq!(g.touched(Move::Pass), Vec::<Text>::new());

        let stuck = game("3/4/3/4/3/4/3/4/3/4/3/4/3 - - y 0", "hex");
        // No soldier and every castle triangle open: placements; once placed with nothing to
        // move but the King, the King moves.
        assert_eq!(stuck.interaction().prompt, PLACE_HINT);
        let lone = game("3/4/3/4/3/4/3/4/3/4/3/4/3 d1e d11e y 2", "band");
        let i = lone.interaction();
        assert_eq!(i.prompt, KING_HINT);
    }

    #[test]
    fn only_pass_gives_no_prompt() {
        // Yellow has no soldier, and the one castle neighbour of its King's triangle a2b (b1a)
        // has all three points held by Red.
        let g = game("3/4/3/4/3/4/3/4/3/4/r2/r3/r2 a2b - y 2", "band");
        let i = g.interaction();
        assert_eq!(i.moves.len(), 1);
        assert_eq!(i.moves[0].notation, "pass");
        assert_eq!(i.prompt, "");
        assert!(i.moves[0].paths.is_empty());
        assert!(i.moves[0].cells.is_empty());
        assert_eq!(i.moves[0].label, "Pass (no other move)");
        assert!(i.selections.is_empty());
        assert_eq!(i.refusals[0].text, "No legal move starts at {cell}.");
    }

    #[test]
    fn a_finished_game_offers_nothing() {
        // Yellow's King on d1e, trapped by Red soldiers on d1, d3 and e2.
        let g = game("3/4/3/4/3/4/3/4/3/4/1r1/2r1/1r1 d1e d11e y 9", "band");
        assert!(g.outcome().is_some());
        assert_eq!(g.interaction(), Interaction::default());
    }
}
