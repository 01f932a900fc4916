//! Board descriptions that a client can draw without knowing the rules: cells (squares,
//! points, triangles) with coordinates, what stands on them, display marks, and the lines of
//! point boards. One function per game reads the game's position text (the documented
//! interchange format of each game; see `docs/rules/`).
//!
//! Coordinates: `x` grows to the right and `y` upwards as the first seat sees the board (rank 1
//! at the bottom); every cell lies within `0..width` × `0..height`.

use boardlab_core::Game;
use boardlab_games::AnyGame;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Text that is usually static (square names, marks, labels): no allocation per answer.
pub type Text = Cow<'static, str>;

/// A drawable board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Board {
    /// `grid` (square cells) or `points` (points joined by lines, with triangles).
    pub layout: &'static str,
    pub width: f64,
    pub height: f64,
    pub cells: Vec<Cell>,
    /// Lines to draw between points (point boards).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
    /// Coordinate labels along the edges.
    pub labels: Vec<Label>,
    /// Facts to show beside the board (supplies, phase, counters), by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub facts: BTreeMap<&'static str, String>,
}

/// One cell: a square, a point or a triangle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// The name used in move notation (`b3`, `d1e`).
    pub name: Text,
    /// `square`, `point` or `triangle`.
    pub shape: &'static str,
    /// Centre.
    pub x: f64,
    pub y: f64,
    /// Corners, for triangles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polygon: Option<Vec<[f64; 2]>>,
    /// Background: `dark`, `light`, `target`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shade: Option<&'static str>,
    /// Display marks such as `anchor`, `last-black`, `castle-yellow`, `star-red`,
    /// `zone-white`, `zone-of-b1`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Text>,
    /// What stands on the cell, bottom first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<Piece>,
}

/// A piece, token or marker on a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    pub colour: &'static str,
    /// What it is: `piece`, `token`, `control`, `soldier`, `officer`, `king`, `commander`,
    /// `vedrin`, `striker`, `cruiser`, `portal`, `ranger`, `fighter`.
    pub kind: &'static str,
    /// A short letter to print on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<&'static str>,
    /// Where it faces: `n`, `e`, `s`, `w` (towards rank 8 is `n`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<&'static str>,
    /// Fighters: in the air rather than landed on a Portal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flying: Option<bool>,
    /// Ved'rin that reached the far rank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted: Option<bool>,
}

impl Piece {
    fn new(colour: &'static str, kind: &'static str) -> Piece {
        Piece {
            colour,
            kind,
            label: None,
            facing: None,
            flying: None,
            promoted: None,
        }
    }

    fn label(mut self, label: &'static str) -> Piece {
        self.label = Some(label);
        self
    }
}

/// A line between two coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Line {
    pub from: [f64; 2],
    pub to: [f64; 2],
}

/// A coordinate label (`a`, `1`) at a position just outside the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    pub text: Text,
    pub x: f64,
    pub y: f64,
}

/// The board of `game`, or `None` if its position text cannot be read (a bug: every game's
/// reader is tested against its engine).
#[must_use]
pub fn describe(game: &AnyGame) -> Option<Board> {
    let text = game.position_text();
    let options: BTreeMap<String, String> = game
        .options()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut board = describe_text(game.kind().name(), &text, &options).ok()?;
    if let AnyGame::Assideum(g) = game {
        if let Some(colour) = g.colour_to_move().filter(|_| g.in_siege()) {
            mark_siege(&mut board, colour.name());
        }
    }
    Some(board)
}

/// Marks `siege` on the cell of `colour`'s Commander (assideum: the side to move is in
/// siege).
fn mark_siege(board: &mut Board, colour: &str) {
    let commander = board.cells.iter_mut().find(|c| {
        c.pieces
            .iter()
            .any(|p| p.kind == "commander" && p.colour == colour)
    });
    if let Some(cell) = commander {
        cell.marks.push(Cow::Borrowed("siege"));
    }
}

/// The board described by `text`, a position text of the game named `game` played with
/// `options` (every option's value, by name).
///
/// # Errors
/// A game without a board reader, or text the reader does not understand.
pub fn describe_text(
    game: &str,
    text: &str,
    options: &BTreeMap<String, String>,
) -> Result<Board, String> {
    match game {
        "sight-reduction" => sight_reduction(text),
        "obsidio" => obsidio(text),
        "opprimo" => opprimo(text, options.get("castle").map_or("band", String::as_str)),
        "assideum" => assideum(text),
        other => Err(format!("no board description for game '{other}'")),
    }
}

/// The games [`describe_text`] knows.
pub const GAMES: [&str; 4] = ["sight-reduction", "obsidio", "opprimo", "assideum"];

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

fn square_name(f: usize, r: usize) -> Text {
    if f < 26 && r < 26 {
        Cow::Borrowed(names().squares[r * 26 + f])
    } else {
        Cow::Owned(format!("{}{}", file_letter(f), r + 1))
    }
}

fn file_label(f: usize) -> Text {
    names().files.get(f).map_or_else(
        || Cow::Owned(file_letter(f).to_string()),
        |s| Cow::Borrowed(*s),
    )
}

fn rank_label(r: usize) -> Text {
    names()
        .ranks
        .get(r)
        .map_or_else(|| Cow::Owned((r + 1).to_string()), |s| Cow::Borrowed(*s))
}

/// A grid of `files` × `ranks` empty squares, `a1` dark when `checkered`.
fn grid(files: usize, ranks: usize, checkered: bool) -> Board {
    let mut cells = Vec::with_capacity(files * ranks);
    for r in 0..ranks {
        for f in 0..files {
            cells.push(Cell {
                name: square_name(f, r),
                shape: "square",
                x: f as f64 + 0.5,
                y: r as f64 + 0.5,
                polygon: None,
                shade: checkered.then_some(if (f + r) % 2 == 0 { "dark" } else { "light" }),
                marks: Vec::new(),
                pieces: Vec::new(),
            });
        }
    }
    let mut labels = Vec::new();
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
        layout: "grid",
        width: files as f64,
        height: ranks as f64,
        cells,
        lines: Vec::new(),
        labels,
        facts: BTreeMap::new(),
    }
}

/// Splits `a/b/c` board text into ranks, top rank first, checking the count.
fn ranks(board: &str, expected: Option<usize>) -> Result<Vec<&str>, String> {
    let ranks: Vec<&str> = board.split('/').collect();
    match expected {
        Some(n) if ranks.len() != n => Err(format!(
            "expected {n} ranks separated by '/', found {}",
            ranks.len()
        )),
        _ => Ok(ranks),
    }
}

/// Sight Reduction: 4 × 8 squares, White and Black pieces.
fn sight_reduction(text: &str) -> Result<Board, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let board = words.first().ok_or("empty position text")?;
    let mut b = grid(4, 8, true);
    for (i, rank_text) in ranks(board, Some(8))?.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0;
        for c in rank_text.chars() {
            match c {
                '1'..='4' => f += c as usize - '0' as usize,
                'W' | 'w' | 'B' | 'b' => {
                    if f >= 4 {
                        return Err(format!("rank {} is longer than 4 squares", r + 1));
                    }
                    let colour = if c.eq_ignore_ascii_case(&'w') {
                        "white"
                    } else {
                        "black"
                    };
                    b.cells[r * 4 + f].pieces.push(Piece::new(colour, "piece"));
                    f += 1;
                }
                other => return Err(format!("unexpected '{other}' in the board")),
            }
        }
        if f != 4 {
            return Err(format!("rank {} does not have 4 squares", r + 1));
        }
    }
    let rest: Vec<String> = words.iter().skip(2).map(|w| w.to_lowercase()).collect();
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    let phase = match rest
        .iter()
        .copied()
        .filter(|w| *w != "second")
        .collect::<Vec<_>>()[..]
    {
        ["place"] => "placement".to_string(),
        ["arrange", n] => format!("arrangement ({n} of 2 swaps made)"),
        ["color"] => "colour choice".to_string(),
        ["first", _] => "choice of who removes first".to_string(),
        _ => "removal".to_string(),
    };
    b.facts.insert("phase", phase);
    for colour in ["white", "black"] {
        let n = b
            .cells
            .iter()
            .flat_map(|c| &c.pieces)
            .filter(|p| p.colour == colour)
            .count();
        b.facts.insert(
            if colour == "white" {
                "pieces-white"
            } else {
                "pieces-black"
            },
            n.to_string(),
        );
    }
    Ok(b)
}

/// Obsidio: n × n squares (targets where file and rank are both odd, counted from 0),
/// influence tokens, claimed targets, the anchor and each colour's last move.
fn obsidio(text: &str) -> Result<Board, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let board = words.first().ok_or("empty position text")?;
    let rank_texts = ranks(board, None)?;
    let n = rank_texts.len();
    if !(3..=26).contains(&n) {
        return Err(format!("unexpected board size {n}"));
    }
    let mut b = grid(n, n, false);
    for (i, rank_text) in rank_texts.iter().enumerate() {
        let r = n - 1 - i;
        let chars: Vec<char> = rank_text.chars().collect();
        if chars.len() != n {
            return Err(format!("rank {} does not have {n} squares", r + 1));
        }
        for (f, &c) in chars.iter().enumerate() {
            let cell = &mut b.cells[r * n + f];
            let target = f % 2 == 1 && r % 2 == 1;
            cell.shade = Some(if target {
                "target"
            } else if (f + r) % 2 == 0 {
                "dark"
            } else {
                "light"
            });
            let colour = match c.to_ascii_lowercase() {
                '.' | '+' => None,
                'b' => Some("black"),
                'w' => Some("white"),
                other => return Err(format!("unexpected '{other}' in the board")),
            };
            if let Some(colour) = colour {
                let kind = if target { "control" } else { "token" };
                cell.pieces.push(Piece::new(colour, kind));
            }
        }
    }
    let mark = |b: &mut Board, name: &str, m: &'static str| {
        if let Some(cell) = b.cells.iter_mut().find(|c| c.name == name) {
            if !cell.marks.iter().any(|x| x == m) {
                cell.marks.push(Cow::Borrowed(m));
            }
        }
    };
    for w in words.iter().skip(2) {
        let Some((key, value)) = w.split_once('=') else {
            continue;
        };
        match key {
            "anchor" if value != "-" => mark(&mut b, value, "anchor"),
            "last" => {
                for (colour_mark, mv) in ["last-black", "last-white"].iter().zip(value.split('/')) {
                    for sq in mv.split([',', '+']).filter(|s| !s.is_empty() && *s != "-") {
                        mark(&mut b, sq, colour_mark);
                    }
                }
            }
            "supply" => {
                let (black, white) = value.split_once('/').unwrap_or(("unlimited", "unlimited"));
                b.facts.insert("supply-black", black.to_string());
                b.facts.insert("supply-white", white.to_string());
            }
            "passes" => {
                b.facts.insert("passes", value.to_string());
            }
            _ => {}
        }
    }
    for colour in ["black", "white"] {
        let n = b
            .cells
            .iter()
            .flat_map(|c| &c.pieces)
            .filter(|p| p.colour == colour && p.kind == "control")
            .count();
        b.facts.insert(
            if colour == "black" {
                "targets-black"
            } else {
                "targets-white"
            },
            n.to_string(),
        );
    }
    Ok(b)
}

/// Opprimo geometry: column spacing for equilateral triangles with vertical edges of length 1.
const OPP_DX: f64 = 0.866_025_403_784_438_6;

fn opprimo_xy(c: usize, r: usize) -> [f64; 2] {
    [0.5 + c as f64 * OPP_DX, 0.5 + r as f64 * 0.5]
}

fn opprimo_point_exists(c: i64, r: i64) -> bool {
    (0..7).contains(&c) && (0..13).contains(&r) && (c + r) % 2 == 1
}

/// Opprimo: 45 points on files a–g and half-ranks 1–13, the lines between them, and the 66
/// triangles (castles, stars and Kings).
fn opprimo(text: &str, castle: &str) -> Result<Board, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 4 {
        return Err("expected board, Kings and colour to move".into());
    }
    let mut cells: Vec<Cell> = Vec::new();
    let mut index: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for r in 0..13 {
        for c in 0..7 {
            if opprimo_point_exists(c as i64, r as i64) {
                let [x, y] = opprimo_xy(c, r);
                index.insert((c, r), cells.len());
                cells.push(Cell {
                    name: square_name(c, r),
                    shape: "point",
                    x,
                    y,
                    polygon: None,
                    shade: None,
                    marks: Vec::new(),
                    pieces: Vec::new(),
                });
            }
        }
    }
    // Stars: the three farthest points of each side.
    for (c, r, m) in [
        (1, 12, "star-yellow"),
        (3, 12, "star-yellow"),
        (5, 12, "star-yellow"),
        (1, 0, "star-red"),
        (3, 0, "star-red"),
        (5, 0, "star-red"),
    ] {
        cells[index[&(c, r)]].marks.push(Cow::Borrowed(m));
    }
    // Soldiers.
    let rank_texts = ranks(words[0], Some(13))?;
    for (i, rank_text) in rank_texts.iter().enumerate() {
        let r = 12 - i;
        let files: Vec<usize> = (0..7).filter(|c| (c + r) % 2 == 1).collect();
        let mut k = 0;
        for ch in rank_text.chars() {
            match ch {
                '1'..='9' => k += ch as usize - '0' as usize,
                '.' => k += 1,
                'y' | 'Y' | 'r' | 'R' => {
                    let &c = files
                        .get(k)
                        .ok_or_else(|| format!("rank {} has too many points", r + 1))?;
                    let colour = if ch.eq_ignore_ascii_case(&'y') {
                        "yellow"
                    } else {
                        "red"
                    };
                    let piece = if ch.is_ascii_uppercase() {
                        Piece::new(colour, "officer").label("O")
                    } else {
                        Piece::new(colour, "soldier")
                    };
                    cells[index[&(c, r)]].pieces.push(piece);
                    k += 1;
                }
                other => return Err(format!("unexpected '{other}' in the board")),
            }
        }
        if k != files.len() {
            return Err(format!(
                "rank {} does not have {} points",
                r + 1,
                files.len()
            ));
        }
    }
    // Lines: vertical and diagonal.
    let mut lines = Vec::new();
    for &(c, r) in index.keys() {
        let (ci, ri) = (c as i64, r as i64);
        for (dc, dr) in [(0, 2), (-1, 1), (1, 1)] {
            if opprimo_point_exists(ci + dc, ri + dr) {
                lines.push(Line {
                    from: opprimo_xy(c, r),
                    to: opprimo_xy((ci + dc) as usize, (ri + dr) as usize),
                });
            }
        }
    }
    // Triangles: {(c,r), (c,r+2), (c±1,r+1)}.
    let kings: Vec<Option<String>> = words[1..3]
        .iter()
        .map(|w| (*w != "-").then(|| w.to_ascii_lowercase()))
        .collect();
    let mut triangles = Vec::new();
    for &(c, r) in index.keys() {
        let (ci, ri) = (c as i64, r as i64);
        if !opprimo_point_exists(ci, ri + 2) {
            continue;
        }
        for dc in [-1i64, 1] {
            if !opprimo_point_exists(ci + dc, ri + 1) {
                continue;
            }
            let apex = ((ci + dc) as usize, r + 1);
            let corners = [(c, r), (c, r + 2), apex];
            let name: Text = Cow::Owned(format!("{}{}", square_name(c, r), file_letter(apex.0)));
            let (yellow, red) = if castle == "hex" {
                (corners.contains(&(3, 2)), corners.contains(&(3, 10)))
            } else {
                (
                    corners.iter().all(|p| p.1 <= 3),
                    corners.iter().all(|p| p.1 >= 9),
                )
            };
            let mut marks = Vec::new();
            if yellow {
                marks.push(Cow::Borrowed("castle-yellow"));
            }
            if red {
                marks.push(Cow::Borrowed("castle-red"));
            }
            let polygon: Vec<[f64; 2]> =
                corners.iter().map(|&(cc, rr)| opprimo_xy(cc, rr)).collect();
            let x = polygon.iter().map(|p| p[0]).sum::<f64>() / 3.0;
            let y = polygon.iter().map(|p| p[1]).sum::<f64>() / 3.0;
            let mut pieces = Vec::new();
            for (side, colour) in ["yellow", "red"].iter().enumerate() {
                if kings[side].as_deref() == Some(name.as_ref()) {
                    pieces.push(Piece::new(colour, "king").label("K"));
                }
            }
            triangles.push(Cell {
                name,
                shape: "triangle",
                x,
                y,
                polygon: Some(polygon),
                shade: None,
                marks,
                pieces,
            });
        }
    }
    for (side, colour) in ["yellow", "red"].iter().enumerate() {
        if let Some(k) = &kings[side] {
            if !triangles.iter().any(|t| t.name == k.as_str()) {
                return Err(format!("{colour}'s King triangle '{k}' is not a triangle"));
            }
        }
    }
    cells.extend(triangles);
    let mut labels = Vec::new();
    for c in 0..7 {
        labels.push(Label {
            text: file_label(c),
            x: opprimo_xy(c, 0)[0],
            y: 0.0,
        });
    }
    for r in 0..13 {
        labels.push(Label {
            text: rank_label(r),
            x: 0.0,
            y: opprimo_xy(0, r)[1],
        });
    }
    let mut facts = BTreeMap::new();
    if let Some(p) = words.get(4) {
        facts.insert("plies", (*p).to_string());
    }
    Ok(Board {
        layout: "points",
        width: 1.0 + 6.0 * OPP_DX,
        height: 7.0,
        cells,
        lines,
        labels,
        facts,
    })
}

/// assideum: 8 × 8 squares; ground pieces with facings, Fighters landed or flying, and each
/// side's flight zones as marks.
fn assideum(text: &str) -> Result<Board, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let board = words.first().ok_or("empty position text")?;
    let mut b = grid(8, 8, true);
    // (file, rank, colour, facing) of each Portal, for the flight zones.
    let mut portals: Vec<(i64, i64, &'static str, char)> = Vec::new();
    for (i, rank_text) in ranks(board, Some(8))?.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0usize;
        let mut chars = rank_text.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                f += d as usize;
                continue;
            }
            let group: String = if c == '[' {
                let mut g = String::new();
                loop {
                    match chars.next() {
                        Some(']') => break,
                        Some(x) => g.push(x),
                        None => return Err("unclosed '[' in the board".into()),
                    }
                }
                g
            } else {
                c.to_string()
            };
            if f >= 8 {
                return Err(format!("rank {} is longer than 8 squares", r + 1));
            }
            let mut pieces = Vec::new();
            let mut ground_colour = None;
            let mut ground_portal = false;
            let mut gchars = group.chars().peekable();
            if let Some(&g) = gchars.peek() {
                if !matches!(g, 'F' | 'f') {
                    gchars.next();
                    let colour = if g.is_ascii_uppercase() {
                        "white"
                    } else {
                        "black"
                    };
                    let (kind, label) = match g.to_ascii_uppercase() {
                        'K' => ("commander", "K"),
                        'V' => ("vedrin", "V"),
                        'S' => ("striker", "S"),
                        'C' => ("cruiser", "C"),
                        'P' => ("portal", "P"),
                        'R' => ("ranger", "R"),
                        other => return Err(format!("unexpected piece letter '{other}'")),
                    };
                    let mut piece = Piece::new(colour, kind).label(label);
                    if matches!(kind, "portal" | "ranger") {
                        let facing = gchars.next().ok_or("a Portal or Ranger needs a facing")?;
                        piece.facing = Some(match facing {
                            'n' | 'N' => "n",
                            'e' | 'E' => "e",
                            's' | 'S' => "s",
                            'w' | 'W' => "w",
                            other => return Err(format!("unexpected facing '{other}'")),
                        });
                        if kind == "portal" {
                            portals.push((f as i64, r as i64, colour, facing.to_ascii_lowercase()));
                        }
                    }
                    if gchars.peek() == Some(&'+') {
                        gchars.next();
                        piece.promoted = Some(true);
                    }
                    ground_colour = Some(colour);
                    ground_portal = kind == "portal";
                    pieces.push(piece);
                }
            }
            for g in gchars {
                let colour = match g {
                    'F' => "white",
                    'f' => "black",
                    other => return Err(format!("unexpected '{other}' in a square group")),
                };
                let landed = ground_portal && ground_colour == Some(colour);
                let mut piece = Piece::new(colour, "fighter").label("F");
                piece.flying = Some(!landed);
                pieces.push(piece);
            }
            b.cells[r * 8 + f].pieces = pieces;
            f += 1;
        }
        if f != 8 {
            return Err(format!("rank {} does not have 8 squares", r + 1));
        }
    }
    for (pf, pr, colour, facing) in portals {
        let mark: Text = Cow::Borrowed(if colour == "white" {
            "zone-white"
        } else {
            "zone-black"
        });
        let own: Text = Cow::Owned(format!("zone-of-{}", square_name(pf as usize, pr as usize)));
        // Side offsets -1..=1, depth -1..=3 along the facing.
        let (df, dr): (i64, i64) = match facing {
            'n' => (0, 1),
            'e' => (1, 0),
            's' => (0, -1),
            _ => (-1, 0),
        };
        for depth in -1..=3 {
            for side in -1..=1 {
                let f = pf + df * depth + dr.abs() * side;
                let r = pr + dr * depth + df.abs() * side;
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    let cell = &mut b.cells[(r * 8 + f) as usize];
                    if !cell.marks.contains(&mark) {
                        cell.marks.push(mark.clone());
                    }
                    cell.marks.push(own.clone());
                }
            }
        }
    }
    if let Some(q) = words.get(2) {
        b.facts.insert("quiet-plies", (*q).to_string());
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> BTreeMap<String, String> {
        BTreeMap::new()
    }

    #[test]
    fn sight_reduction_board_reads_pieces_and_phase() {
        let b = describe_text(
            "sight-reduction",
            "1B2/BBWB/BW2/BWBW/2W1/BWWW/WWBW/BBBW w",
            &none(),
        )
        .unwrap();
        assert_eq!(b.cells.len(), 32);
        let at = |n: &str| b.cells.iter().find(|c| c.name == n).unwrap();
        assert_eq!(at("b8").pieces[0].colour, "black");
        assert!(at("a8").pieces.is_empty());
        assert_eq!(at("d1").pieces[0].colour, "white");
        assert_eq!(at("a1").shade, Some("dark"));
        assert_eq!(b.facts["phase"], "removal");
        let b = describe_text(
            "sight-reduction",
            "WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW - arrange 1",
            &none(),
        )
        .unwrap();
        assert_eq!(b.facts["phase"], "arrangement (1 of 2 swaps made)");
        assert!(describe_text("sight-reduction", "WBWB/BWBW w", &none()).is_err());
        assert!(describe_text("chess", "x", &none()).is_err());
    }

    #[test]
    fn opprimo_board_has_45_points_and_66_triangles() {
        let b = describe_text(
            "opprimo",
            "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy d1e - r 1",
            &none(),
        )
        .unwrap();
        assert_eq!(b.cells.iter().filter(|c| c.shape == "point").count(), 45);
        assert_eq!(b.cells.iter().filter(|c| c.shape == "triangle").count(), 66);
        let count = |b: &Board, mark: &str| {
            b.cells
                .iter()
                .filter(|c| c.marks.iter().any(|m| m == mark))
                .count()
        };
        assert_eq!(
            (count(&b, "castle-yellow"), count(&b, "castle-red")),
            (12, 12)
        );
        let hex: BTreeMap<String, String> = [("castle".to_string(), "hex".to_string())].into();
        let h = describe_text(
            "opprimo",
            "rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y",
            &hex,
        )
        .unwrap();
        assert_eq!(
            (count(&h, "castle-yellow"), count(&h, "castle-red")),
            (6, 6)
        );
        let king = b.cells.iter().find(|c| c.name == "d1e").unwrap();
        assert_eq!(king.pieces[0].kind, "king");
        let b1 = b.cells.iter().find(|c| c.name == "b1").unwrap();
        assert_eq!(b1.pieces[0].colour, "yellow");
        assert!(b1.marks.iter().any(|m| m == "star-red"));
    }

    #[test]
    fn assideum_board_reads_groups_and_zones() {
        let b = describe_text(
            "assideum",
            "s[psf]c[rs]kc[psf]s/vvvvvvvv/8/8/8/8/VVVVVVVV/S[PnF]C[Rn]KC[PnF]S w 0",
            &none(),
        )
        .unwrap();
        let at = |n: &str| b.cells.iter().find(|c| c.name == n).unwrap();
        let b1 = at("b1");
        assert_eq!(b1.pieces[0].kind, "portal");
        assert_eq!(b1.pieces[0].facing, Some("n"));
        assert_eq!(b1.pieces[1].kind, "fighter");
        assert_eq!(b1.pieces[1].flying, Some(false));
        assert!(at("c4").marks.iter().any(|m| m == "zone-white"));
        assert!(!at("c5").marks.iter().any(|m| m == "zone-white"));
        assert!(at("a5").marks.iter().any(|m| m == "zone-black"));
        assert!(at("c4").marks.iter().any(|m| m == "zone-of-b1"));
        assert!(!at("c4").marks.iter().any(|m| m == "zone-of-g1"));
        assert!(at("f2").marks.iter().any(|m| m == "zone-of-g1"));
        assert_eq!(at("e8").pieces[0].kind, "commander");
    }

    #[test]
    fn assideum_commander_in_siege_is_marked() {
        let kind = boardlab_games::GameKind::Assideum;
        let sieged = |text: &str| {
            let game = AnyGame::from_position(kind, &kind.info().default_options(), text).unwrap();
            let b = describe(&game).unwrap();
            b.cells
                .iter()
                .filter(|c| c.marks.iter().any(|m| m == "siege"))
                .map(|c| c.name.to_string())
                .collect::<Vec<_>>()
        };
        // A black Striker on e5 can attack the white Commander on e1 next turn.
        assert_eq!(sieged("4k3/8/8/4s3/8/8/8/4K3 w 0"), ["e1"]);
        // On d5 it cannot.
        assert!(sieged("4k3/8/8/3s4/8/8/8/4K3 w 0").is_empty());
    }
}
