//! A plain reference engine for Sight Reduction, written directly from RULINGS.md with a
//! grid of cells and explicit walks along lines: no bit tricks, no shared code with the fast
//! engine beyond the option names.

#![allow(dead_code)]

use boardlab_core::testkit::Reference;
use boardlab_core::{Colour, Outcome, Seat};
#[allow(unused_imports)] // which of the traits a test binary uses varies
use boardlab_core::{Notation, Rules};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    White,
    Black,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Arrange(u32),
    Colour,
    First,
    Place,
    Remove,
}

#[derive(Clone, Debug)]
pub struct Ref {
    /// grid[rank][file]
    pub grid: [[Cell; 4]; 8],
    pub stage: Stage,
    pub to_move: Cell,
    /// Colour of the first seat, once known.
    pub first_seat: Option<Cell>,
    pub sight_any: bool,
    pub enemy_sight: bool,
    pub pair: bool,
    pub first: Cell,
    pub solitaire: bool,
    pub keep: Option<((usize, usize), (usize, usize))>,
}

const ALL: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

fn name(f: usize, r: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn other(c: Cell) -> Cell {
    match c {
        Cell::White => Cell::Black,
        Cell::Black => Cell::White,
        Cell::Empty => Cell::Empty,
    }
}

fn colour_word(c: Cell) -> &'static str {
    if c == Cell::White {
        "white"
    } else {
        "black"
    }
}

impl Ref {
    /// From RULINGS.md position text (removal phase) and option text.
    pub fn new(board: &str, to_move: char, options: &str) -> Ref {
        let mut r = Ref {
            grid: [[Cell::Empty; 4]; 8],
            stage: Stage::Remove,
            to_move: if to_move == 'w' {
                Cell::White
            } else {
                Cell::Black
            },
            first_seat: None,
            sight_any: options.contains("sight=any"),
            enemy_sight: options.contains("enemy-sight=true"),
            pair: options.contains("removal=pair"),
            first: if options.contains("first=black") {
                Cell::Black
            } else {
                Cell::White
            },
            solitaire: options.contains("mode=solitaire"),
            keep: None,
        };
        for (i, rank) in board.split('/').enumerate() {
            let r8 = 7 - i;
            let mut f = 0;
            for ch in rank.chars() {
                match ch {
                    'W' => {
                        r.grid[r8][f] = Cell::White;
                        f += 1;
                    }
                    'B' => {
                        r.grid[r8][f] = Cell::Black;
                        f += 1;
                    }
                    d => f += d.to_digit(10).unwrap() as usize,
                }
            }
        }
        r.first_seat = Some(r.to_move);
        if options.contains("setup=fair") {
            r.stage = Stage::Arrange(0);
            r.first_seat = None;
        }
        if options.contains("setup=deterministic") {
            r.stage = Stage::Place;
            r.to_move = r.first;
            r.first_seat = Some(r.first);
        }
        r
    }

    fn at(&self, f: i32, r: i32) -> Option<Cell> {
        if (0..4).contains(&f) && (0..8).contains(&r) {
            Some(self.grid[r as usize][f as usize])
        } else {
            None
        }
    }

    /// The first piece met from (f, r) walking in (df, dr), with its square.
    fn first_met(&self, f: usize, r: usize, df: i32, dr: i32) -> Option<(Cell, usize, usize)> {
        let (mut x, mut y) = (f as i32 + df, r as i32 + dr);
        while let Some(c) = self.at(x, y) {
            if c != Cell::Empty {
                return Some((c, x as usize, y as usize));
            }
            x += df;
            y += dr;
        }
        None
    }

    fn friend_dirs(&self) -> &'static [(i32, i32)] {
        if self.sight_any {
            &ALL
        } else {
            &ALL[..4]
        }
    }

    fn sees(&self, f: usize, r: usize, want: Cell, dirs: &[(i32, i32)]) -> bool {
        dirs.iter()
            .any(|&(df, dr)| matches!(self.first_met(f, r, df, dr), Some((c, _, _)) if c == want))
    }

    fn can_remove(&self, f: usize, r: usize) -> bool {
        let me = self.grid[r][f];
        self.sees(f, r, me, self.friend_dirs())
            && (!self.enemy_sight || self.sees(f, r, other(me), &ALL))
    }

    fn removals(&self) -> Vec<String> {
        let me = self.to_move;
        let mut out = Vec::new();
        for r in 0..8 {
            for f in 0..4 {
                if self.grid[r][f] == me && self.can_remove(f, r) {
                    out.push(name(f, r));
                }
            }
        }
        if self.pair {
            for r in 0..8 {
                for f in 0..4 {
                    if self.grid[r][f] != me {
                        continue;
                    }
                    for &(df, dr) in self.friend_dirs() {
                        if let Some((c, x, y)) = self.first_met(f, r, df, dr) {
                            let (a, b) = ((r, f), (y, x));
                            if c == me && a < b {
                                let ok = !self.enemy_sight
                                    || (self.sees(f, r, other(me), &ALL)
                                        && self.sees(x, y, other(me), &ALL));
                                if ok {
                                    out.push(format!("{}+{}", name(f, r), name(x, y)));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn count(&self, c: Cell) -> usize {
        self.grid.iter().flatten().filter(|&&x| x == c).count()
    }

    fn seat_of(&self, c: Cell) -> Seat {
        if self.first_seat == Some(c) {
            Seat::First
        } else {
            Seat::Second
        }
    }
}

fn parse_sq(s: &str) -> (usize, usize) {
    let b = s.as_bytes();
    ((b[0] - b'a') as usize, s[1..].parse::<usize>().unwrap() - 1)
}

impl Reference for Ref {
    fn legal_moves(&self) -> Vec<String> {
        match self.stage {
            Stage::Remove => self.removals(),
            Stage::Arrange(n) => {
                let mut out = Vec::new();
                if n < 2 {
                    let cells: Vec<(usize, usize)> =
                        (0..8).flat_map(|r| (0..4).map(move |f| (r, f))).collect();
                    for (i, &(r1, f1)) in cells.iter().enumerate() {
                        for &(r2, f2) in &cells[i + 1..] {
                            if self.grid[r1][f1] != self.grid[r2][f2] {
                                out.push(format!("swap {} {}", name(f1, r1), name(f2, r2)));
                            }
                        }
                    }
                }
                out.push("done".into());
                out
            }
            Stage::Colour => vec!["color white".into(), "color black".into()],
            Stage::First => vec!["first white".into(), "first black".into()],
            Stage::Place => {
                let me = self.to_move;
                let mut any = Vec::new();
                let mut near = Vec::new();
                for r in 0..8 {
                    for f in 0..4 {
                        if self.grid[r][f] != Cell::Empty {
                            continue;
                        }
                        any.push(name(f, r));
                        let touches = ALL.iter().any(|&(df, dr)| {
                            self.at(f as i32 + df, r as i32 + dr) == Some(other(me))
                        });
                        if touches {
                            near.push(name(f, r));
                        }
                    }
                }
                let list = if self.count(me) == 0 || near.is_empty() {
                    any
                } else {
                    near
                };
                list.into_iter().map(|s| format!("@{s}")).collect()
            }
        }
    }

    fn play(&mut self, mv: &str) {
        let words: Vec<&str> = mv.split(' ').collect();
        match words.as_slice() {
            ["swap", a, b] => {
                let (a, b) = (parse_sq(a), parse_sq(b));
                let t = self.grid[a.1][a.0];
                self.grid[a.1][a.0] = self.grid[b.1][b.0];
                self.grid[b.1][b.0] = t;
                if let Stage::Arrange(n) = self.stage {
                    self.stage = Stage::Arrange(n + 1);
                }
            }
            ["done"] => self.stage = Stage::Colour,
            ["color", c] => {
                let second = if *c == "white" {
                    Cell::White
                } else {
                    Cell::Black
                };
                self.first_seat = Some(other(second));
                self.stage = Stage::First;
            }
            ["first", c] => {
                self.to_move = if *c == "white" {
                    Cell::White
                } else {
                    Cell::Black
                };
                self.stage = Stage::Remove;
            }
            [m] if m.starts_with('@') => {
                let (f, r) = parse_sq(&m[1..]);
                self.grid[r][f] = self.to_move;
                self.to_move = other(self.to_move);
                if self.count(Cell::Empty) == 0 {
                    self.stage = Stage::Remove;
                }
            }
            [m] => {
                for sq in m.split('+') {
                    let (f, r) = parse_sq(sq);
                    assert_eq!(self.grid[r][f], self.to_move);
                    self.grid[r][f] = Cell::Empty;
                }
                self.to_move = other(self.to_move);
            }
            _ => panic!("reference cannot play '{mv}'"),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.stage != Stage::Remove || !self.removals().is_empty() {
            return None;
        }
        if self.solitaire {
            let (w, b) = (self.count(Cell::White), self.count(Cell::Black));
            let solved = if self.pair {
                w + b == 0
            } else {
                w == 1
                    && b == 1
                    && self.keep.is_none_or(|((wf, wr), (bf, br))| {
                        self.grid[wr][wf] == Cell::White && self.grid[br][bf] == Cell::Black
                    })
            };
            return Some(Outcome::Puzzle {
                score: (w + b) as u32,
                solved,
                reason: "no legal removal",
            });
        }
        let winner = other(self.to_move);
        Some(Outcome::Win {
            seat: self.seat_of(winner),
            colour: if winner == Cell::White {
                Colour::White
            } else {
                Colour::Black
            },
            reason: "the opponent has no legal removal",
        })
    }
}

/// The reference engine in the same state as a fast-engine game that has just started.
pub fn reference_for(game: &boardlab_sight_reduction::SightReduction) -> Ref {
    use boardlab_core::Game;
    let text = game.position_text();
    let mut words = text.split(' ');
    let board = words.next().unwrap();
    let side = words.next().unwrap().chars().next().unwrap();
    let opts = game.options().to_string();
    let mut r = Ref::new(board, if side == '-' { 'w' } else { side }, &opts);
    if let Some(k) = game.options().get("keep").split_once(',') {
        r.keep = Some((parse_sq(k.0), parse_sq(k.1)));
    }
    r
}

pub fn words(c: Cell) -> &'static str {
    colour_word(c)
}
