//! What a game shows a player: the position as a drawable board, and how each legal move is
//! entered by clicks or taps. Each game implements [`Present`] from its own typed state, so the
//! server, the CLI, a binding or a browser draw and play any game without knowing its rules or
//! reading its notation.
//!
//! Coordinates: `x` grows to the right and `y` upwards as the first seat sees the board (rank 1
//! at the bottom); every cell lies within `0..width` × `0..height`.
//!
//! Every word an interface reads to choose how to draw (layouts, shapes, shades, marks, piece
//! kinds and facings, click layers, move kinds, fact names) is a variant of an enum of
//! [`vocabulary`]; text is only what is shown as it is (names, labels, prompts, facts' values).

pub mod vocabulary;

pub use vocabulary::{
    Facing, Fact, FactInfo, Layer, Layout, Mark, MoveKind, PieceKind, Shade, Shape,
};

use crate::{Colour, Game};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Text that is usually static (cell names, labels): no allocation per answer.
pub type Text = Cow<'static, str>;

/// A game that can be drawn and played by clicks.
pub trait Present: Game {
    /// The position, drawn: cells, pieces, marks, labels and facts.
    fn board(&self) -> Board;

    /// How each legal move is entered (in the order of [`Rules::legal_moves`](crate::Rules::legal_moves)) and what to tell
    /// the player about it. Empty when the game is over.
    fn interaction(&self) -> Interaction;

    /// The cells `mv`, a legal move of this position, touches, for marking it once played.
    /// Empty for a move that touches none (a pass, a swap) and in games whose board marks the
    /// last moves itself.
    fn touched(&self, mv: Self::Move) -> Vec<Text>;

    /// The cells to mark where `mv`, a legal move of this position, is suggested (a hint, a
    /// review's or an analysis's best move): by default those it touches. A game whose board
    /// marks the last moves itself names them here all the same.
    fn suggested(&self, mv: Self::Move) -> Vec<Text> {
        self.touched(mv)
    }

    /// The game's tutorial: short lessons on real positions, in order (see
    /// [`crate::tutorial`]). A game without one has none.
    fn tutorial() -> &'static [crate::tutorial::step::Step<Self>] {
        &[]
    }

    /// What the pieces and marks of this game's boards mean, each with a small picture drawn
    /// like any board: the legend beside the board. Empty for a game that has none.
    #[must_use]
    fn legend() -> Vec<LegendItem>
    where
        Self: Sized,
    {
        Vec::new()
    }
}

/// A move just played, as the generic layers see it: its canonical notation and the cells it
/// touched (for marking it on the board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// The move's canonical notation.
    pub notation: String,
    /// The cells it touched ([`Present::touched`]).
    pub touched: Vec<Text>,
}

/// One entry of a game's legend: a name, what it means, and a picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegendItem {
    /// What is shown, in a word or two: `Portal`, `Anchor`.
    pub name: &'static str,
    /// What it means, for players.
    pub text: &'static str,
    /// The picture: a small board of a cell or two, drawn like any board (no coordinates).
    pub sample: Board,
}

impl LegendItem {
    /// An entry with a picture of one square cell of `shade` (or none) holding `pieces`, with
    /// `marks`.
    #[must_use]
    pub fn square(
        name: &'static str,
        text: &'static str,
        shade: Option<Shade>,
        marks: &[Mark],
        pieces: Vec<Piece>,
    ) -> LegendItem {
        LegendItem::squares(name, text, vec![(shade, marks, pieces)])
    }

    /// An entry with a picture of a row of square cells, each `(shade, marks, pieces)`.
    #[must_use]
    pub fn squares(
        name: &'static str,
        text: &'static str,
        cells: Vec<(Option<Shade>, &[Mark], Vec<Piece>)>,
    ) -> LegendItem {
        let mut sample = grid(cells.len(), 1, false);
        sample.labels.clear();
        for (cell, (shade, marks, pieces)) in sample.cells.iter_mut().zip(cells) {
            cell.shade = shade;
            cell.marks = marks.to_vec();
            cell.pieces = pieces;
        }
        LegendItem { name, text, sample }
    }
}

/// A drawable board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Board {
    /// Square cells, or points joined by lines, with triangles.
    pub layout: Layout,
    /// The extent of the coordinates to the right.
    pub width: f64,
    /// The extent of the coordinates upwards.
    pub height: f64,
    /// Every cell.
    pub cells: Vec<Cell>,
    /// Lines to draw between points (point boards).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
    /// Coordinate labels along the edges.
    pub labels: Vec<Label>,
    /// Facts to show beside the board (supplies, phase, counters), by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub facts: BTreeMap<Fact, String>,
}

impl Board {
    /// The cell named `name`.
    pub fn cell_mut(&mut self, name: &str) -> Option<&mut Cell> {
        self.cells.iter_mut().find(|c| c.name == name)
    }

    /// The cell named `name`.
    #[must_use]
    pub fn cell(&self, name: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| c.name == name)
    }
}

/// One cell: a square, a point or a triangle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// The name used in move notation (`b3`, `d1e`).
    pub name: Text,
    /// A square, a point or a triangle.
    pub shape: Shape,
    /// The centre's `x`.
    pub x: f64,
    /// The centre's `y`.
    pub y: f64,
    /// Corners, for triangles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polygon: Option<Vec<[f64; 2]>>,
    /// Background, for square cells that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shade: Option<Shade>,
    /// Display marks: the anchor, last moves, castles, stars, flight zones, a siege.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Mark>,
    /// What stands on the cell, bottom first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<Piece>,
}

impl Cell {
    /// Adds `mark` unless the cell has it already.
    pub fn mark(&mut self, mark: Mark) {
        if !self.marks.contains(&mark) {
            self.marks.push(mark);
        }
    }
}

/// A piece, token or marker on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// Whose it is.
    pub colour: Colour,
    /// What it is.
    pub kind: PieceKind,
    /// A short letter to print on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<&'static str>,
    /// Where it faces, for pieces that face a way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
    /// Fighters: in the air rather than landed on a Portal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flying: Option<bool>,
    /// A piece that reached the far rank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted: Option<bool>,
}

impl Piece {
    /// A plain piece of `colour`.
    #[must_use]
    pub fn new(colour: Colour, kind: PieceKind) -> Piece {
        Piece {
            colour,
            kind,
            label: None,
            facing: None,
            flying: None,
            promoted: None,
        }
    }

    /// The same piece with a letter printed on it.
    #[must_use]
    pub fn label(mut self, label: &'static str) -> Piece {
        self.label = Some(label);
        self
    }
}

/// A line between two coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Line {
    /// One end, `[x, y]`.
    pub from: [f64; 2],
    /// The other end, `[x, y]`.
    pub to: [f64; 2],
}

/// A coordinate label (`a`, `1`) at a position just outside the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    /// What it says.
    pub text: Text,
    /// Where it is centred.
    pub x: f64,
    /// Where it is centred.
    pub y: f64,
}

/// How the legal moves of a position are entered, and what to tell the player.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Interaction {
    /// What to do now, before anything is selected.
    pub prompt: String,
    /// One entry per legal move, in the order of the legal moves.
    pub moves: Vec<MoveInput>,
    /// What a first click selects: its name in a chooser and the line shown while it is
    /// selected.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub selections: Vec<Selection>,
    /// What to say about a click that starts no move: the first entry naming the cell (or
    /// naming none) applies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refusals: Vec<Refusal>,
    /// The words for moves chosen as a set of cells, where a game has such moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_words: Option<SetWords>,
}

/// The words for moves made by choosing a set of cells and confirming (Obsidio's claims). In
/// each, `{last}` stands for the cell chosen last and `{cells}` for all of them, joined by
/// commas.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetWords {
    /// The line while one cell is chosen.
    pub one: String,
    /// The line while several cells are chosen.
    pub many: String,
    /// The move about to be confirmed, one cell chosen.
    pub pending_one: String,
    /// The move about to be confirmed, several cells chosen.
    pub pending_many: String,
    /// The chosen cells make no move.
    pub invalid: String,
    /// The confirm button.
    pub confirm: String,
}

/// One click or tap: a cell, and on cells that hold two layers of pieces, which one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Click {
    /// The cell clicked.
    pub cell: Text,
    /// The layer clicked (a Fighter rather than the piece beneath); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer: Option<Layer>,
}

impl Click {
    /// A click on `cell`.
    pub fn on(cell: impl Into<Text>) -> Click {
        Click {
            cell: cell.into(),
            layer: None,
        }
    }

    /// A click on the `layer` pieces of `cell`.
    pub fn layer(cell: impl Into<Text>, layer: Layer) -> Click {
        Click {
            cell: cell.into(),
            layer: Some(layer),
        }
    }
}

/// How one legal move is entered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveInput {
    /// The move's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The click sequences that make the move (one, or two where the order does not matter).
    /// Empty for a move made by a button or by choosing a set of cells.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<Vec<Click>>,
    /// Cells chosen as a set and then confirmed, in the order the move names them (Obsidio's
    /// claims: the last one claimed becomes the anchor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<Vec<Text>>,
    /// What the move does, in words: the label of its button or its line in a chooser.
    pub label: String,
    /// The heading of the chooser row, where several moves share the same clicks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// How to mark the last cell as a target.
    pub kind: MoveKind,
    /// The facing the move leaves a piece with, drawn as an arrow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
    /// The cells the move touches, which mark it where it is suggested (a hint).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<Text>,
}

impl MoveInput {
    /// A move made by the clicks of `paths`.
    #[must_use]
    pub fn clicks(notation: String, paths: Vec<Vec<Click>>, label: impl Into<String>) -> Self {
        MoveInput {
            notation,
            paths,
            set: None,
            label: label.into(),
            group: None,
            kind: MoveKind::Move,
            facing: None,
            cells: Vec::new(),
        }
    }

    /// A move made by a button labelled `label`.
    #[must_use]
    pub fn button(notation: String, label: impl Into<String>) -> Self {
        Self::clicks(notation, Vec::new(), label)
    }

    /// The same, marked as `kind`.
    #[must_use]
    pub fn kind(mut self, kind: MoveKind) -> Self {
        self.kind = kind;
        self
    }

    /// The same, in chooser row `group`.
    #[must_use]
    pub fn group(mut self, group: impl Into<String>) -> Self {
        self.group = Some(group.into());
        self
    }

    /// The same, touching `cells`.
    #[must_use]
    pub fn touching(mut self, cells: Vec<Text>) -> Self {
        self.cells = cells;
        self
    }
}

/// What a first click selects.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Selection {
    /// The first click.
    pub click: Click,
    /// Its name where a chooser asks which piece of a cell is meant ("the Fighter").
    pub name: String,
    /// The line shown while it is selected.
    pub text: String,
    /// Flight zones to show while it is selected (assideum's Portals and Fighters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zones: Option<Zones>,
}

/// Which flight zones to show: all of `colour`'s, or one Portal's own zone with the rest of
/// its side's drawn fainter. Cells carry the marks [`Mark::ZoneWhite`] or [`Mark::ZoneBlack`]
/// and [`Mark::ZoneOf`] the Portal's cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Zones {
    /// Whose zones.
    pub colour: Colour,
    /// The cell of the Portal whose own zone is shown; absent for all of `colour`'s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub portal: Option<Text>,
}

/// What to say about a click that starts no move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refusal {
    /// The cells it applies to; empty for every cell.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<Text>,
    /// The message; `{cell}` stands for the cell's name.
    pub text: String,
}

/// Every legal move of `game` with its notation: the helper most [`Present::interaction`]s
/// start from.
pub fn legal_with_notation<G: Game>(game: &G) -> Vec<(G::Move, String)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| (m, game.format_move(m)))
        .collect()
}

fn file_letter(f: usize) -> char {
    (b'a' + u8::try_from(f).unwrap_or(0)) as char
}

/// Names of squares (`b3`), files (`b`) and ranks (`3`) up to 26 × 26, made once.
struct Names {
    squares: Vec<&'static str>,
    files: Vec<&'static str>,
    ranks: Vec<&'static str>,
}

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        Names {
            squares: (0..26 * 26)
                .map(|i| leak(format!("{}{}", file_letter(i % 26), i / 26 + 1)))
                .collect(),
            files: (0..26).map(|f| leak(file_letter(f).to_string())).collect(),
            ranks: (0..26).map(|r| leak((r + 1).to_string())).collect(),
        }
    })
}

/// The name of zero-based (file, rank), `b3` for (1, 2), without allocating up to 26 × 26.
#[must_use]
pub fn square(file: usize, rank: usize) -> Text {
    if file < 26 && rank < 26 {
        Cow::Borrowed(names().squares[rank * 26 + file])
    } else {
        Cow::Owned(format!("{}{}", file_letter(file), rank + 1))
    }
}

/// The label of a file: `a`, `b`, …
#[must_use]
pub fn file_label(file: usize) -> Text {
    names().files.get(file).map_or_else(
        || Cow::Owned(file_letter(file).to_string()),
        |s| Cow::Borrowed(*s),
    )
}

/// The label of a rank: `1`, `2`, …
#[must_use]
pub fn rank_label(rank: usize) -> Text {
    names()
        .ranks
        .get(rank)
        .map_or_else(|| Cow::Owned((rank + 1).to_string()), |s| Cow::Borrowed(*s))
}

/// A grid of `files` × `ranks` empty squares, rank by rank from `a1`; `a1` is dark when
/// `checkered`. Files are labelled below the board and ranks to its left.
#[must_use]
pub fn grid(files: usize, ranks: usize, checkered: bool) -> Board {
    let mut cells = Vec::with_capacity(files * ranks);
    for r in 0..ranks {
        for f in 0..files {
            cells.push(Cell {
                name: square(f, r),
                shape: Shape::Square,
                x: f as f64 + 0.5,
                y: r as f64 + 0.5,
                polygon: None,
                shade: checkered.then_some(if (f + r) % 2 == 0 {
                    Shade::Dark
                } else {
                    Shade::Light
                }),
                marks: Vec::new(),
                pieces: Vec::new(),
            });
        }
    }
    let mut labels = Vec::with_capacity(files + ranks);
    for f in 0..files {
        labels.push(Label {
            text: file_label(f),
            x: f as f64 + 0.5,
            y: -0.4,
        });
    }
    for r in 0..ranks {
        labels.push(Label {
            text: rank_label(r),
            x: -0.4,
            y: r as f64 + 0.5,
        });
    }
    Board {
        layout: Layout::Grid,
        width: files as f64,
        height: ranks as f64,
        cells,
        lines: Vec::new(),
        labels,
        facts: BTreeMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_names_cells_rank_by_rank() {
        let b = grid(4, 8, true);
        assert_eq!(b.cells.len(), 32);
        assert_eq!(b.cells[0].name, "a1");
        assert_eq!(b.cells[5].name, "b2");
        assert_eq!(b.cell("a1").unwrap().shade, Some(Shade::Dark));
        assert_eq!(b.cell("b1").unwrap().shade, Some(Shade::Light));
        assert_eq!(b.labels.len(), 12);
        assert_eq!(square(1, 2), "b3");
        assert_eq!(rank_label(12), "13");
    }
}
