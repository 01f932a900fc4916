//! A plain reference engine for Opprimo, written directly from RULINGS.md: a grid indexed by
//! (column, half-row), triangles found by looping over the grid, moves as text, and the
//! repetition history kept as whole positions compared field by field. It shares nothing with
//! the fast engine (no bit sets, no tables, no hashes).

#![allow(dead_code)]

use boardlab_core::testkit::Reference;
use boardlab_core::{Colour, Outcome, Seat};

pub const YELLOW: usize = 0;
pub const RED: usize = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub colour: usize,
    pub officer: bool,
}

/// A triangle: the lower point of its vertical edge (column, half-row), and the column of its
/// third point.
pub type Triangle = (i32, i32, i32);

/// What makes a position for the repetition rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// grid[column][half-row]
    pub grid: [[Option<Piece>; 13]; 7],
    pub kings: [Option<Triangle>; 2],
    pub to_move: usize,
}

#[derive(Clone, Debug)]
pub struct Ref {
    pub pos: Position,
    pub hex: bool,
    pub max_plies: u32,
    pub ply: u32,
    /// Every position so far, the initial one first and the current one last.
    pub history: Vec<Position>,
}

pub fn exists(c: i32, r: i32) -> bool {
    (0..7).contains(&c) && (0..13).contains(&r) && (c + r) % 2 == 1
}

pub fn name(c: i32, r: i32) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

fn parse_name(s: &str) -> (i32, i32) {
    let b = s.as_bytes();
    let c = i32::from(b[0] - b'a');
    let r: i32 = s[1..].parse().unwrap();
    (c, r - 1)
}

pub fn all_triangles() -> Vec<Triangle> {
    let mut out = Vec::new();
    for c in 0..7 {
        for r in 0..13 {
            for apex in [c - 1, c + 1] {
                if exists(c, r) && exists(c, r + 2) && exists(apex, r + 1) {
                    out.push((c, r, apex));
                }
            }
        }
    }
    out
}

pub fn corners(t: Triangle) -> [(i32, i32); 3] {
    let (c, r, apex) = t;
    [(c, r), (c, r + 2), (apex, r + 1)]
}

pub fn tri_name(t: Triangle) -> String {
    format!("{}{}", name(t.0, t.1), (b'a' + t.2 as u8) as char)
}

fn parse_tri(s: &str) -> Triangle {
    let (c, r) = parse_name(&s[..s.len() - 1]);
    (c, r, i32::from(s.as_bytes()[s.len() - 1] - b'a'))
}

fn shares_side(a: Triangle, b: Triangle) -> bool {
    let common = corners(a).iter().filter(|p| corners(b).contains(p)).count();
    a != b && common == 2
}

impl Ref {
    /// The start of a game with `castle=hex` when `hex`, and `max-plies=max_plies`.
    pub fn new(hex: bool, max_plies: u32) -> Ref {
        let mut grid = [[None; 13]; 7];
        for (c, r) in [
            (1, 0),
            (3, 0),
            (5, 0),
            (0, 1),
            (2, 1),
            (4, 1),
            (6, 1),
            (1, 2),
            (3, 2),
            (5, 2),
        ] {
            grid[c][r] = Some(Piece {
                colour: YELLOW,
                officer: false,
            });
            grid[c][12 - r] = Some(Piece {
                colour: RED,
                officer: false,
            });
        }
        let pos = Position {
            grid,
            kings: [None, None],
            to_move: YELLOW,
        };
        Ref {
            history: vec![pos.clone()],
            pos,
            hex,
            max_plies,
            ply: 0,
        }
    }

    /// Reads the position text documented in `docs/rules/opprimo.md` (ranks 13 to 1, each
    /// from file a to g; Kings; colour to move; plies played). The text must be valid.
    pub fn from_text(text: &str, hex: bool, max_plies: u32) -> Ref {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut grid = [[None; 13]; 7];
        for (i, rank) in fields[0].split('/').enumerate() {
            let r = 12 - i as i32;
            let mut cols = (0..7).filter(|&c| exists(c, r));
            for ch in rank.chars() {
                if let Some(n) = ch.to_digit(10) {
                    for _ in 0..n {
                        cols.next();
                    }
                    continue;
                }
                let c = cols.next().unwrap();
                grid[c as usize][r as usize] = Some(Piece {
                    colour: if ch.eq_ignore_ascii_case(&'y') {
                        YELLOW
                    } else {
                        RED
                    },
                    officer: ch.is_ascii_uppercase(),
                });
            }
        }
        let king = |f: &str| (f != "-").then(|| parse_tri(f));
        let pos = Position {
            grid,
            kings: [king(fields[1]), king(fields[2])],
            to_move: if fields[3] == "y" { YELLOW } else { RED },
        };
        Ref {
            history: vec![pos.clone()],
            pos,
            hex,
            max_plies,
            ply: fields[4].parse().unwrap(),
        }
    }

    fn at(&self, c: i32, r: i32) -> Option<Piece> {
        if exists(c, r) {
            self.pos.grid[c as usize][r as usize]
        } else {
            None
        }
    }

    fn in_castle(&self, side: usize, t: Triangle) -> bool {
        let pts = corners(t);
        if self.hex {
            let centre = if side == YELLOW { (3, 2) } else { (3, 10) };
            pts.contains(&centre)
        } else {
            // Ranks are numbered from 1: half-row r is rank r + 1.
            let ranks: Vec<i32> = pts.iter().map(|&(_, r)| r + 1).collect();
            if side == YELLOW {
                ranks.iter().all(|&rank| rank <= 4)
            } else {
                ranks.iter().all(|&rank| rank >= 10)
            }
        }
    }

    /// All three points hold soldiers of the colour other than `side`.
    fn is_trap_for(&self, side: usize, t: Triangle) -> bool {
        corners(t)
            .iter()
            .all(|&(c, r)| matches!(self.at(c, r), Some(p) if p.colour != side))
    }

    fn king_trapped(&self, side: usize) -> bool {
        match self.pos.kings[side] {
            Some(t) => self.is_trap_for(side, t),
            None => false,
        }
    }

    fn directions(side: usize, officer: bool) -> Vec<(i32, i32)> {
        let up = vec![(0, 2), (-1, 1), (1, 1)];
        let down = vec![(0, -2), (-1, -1), (1, -1)];
        match (officer, side) {
            (true, _) => up.into_iter().chain(down).collect(),
            (false, YELLOW) => up,
            _ => down,
        }
    }

    fn is_star(side: usize, c: i32, r: i32) -> bool {
        let far = if side == YELLOW { 12 } else { 0 };
        r == far && [1, 3, 5].contains(&c)
    }

    fn occurrences(&self) -> usize {
        self.history.iter().filter(|p| **p == self.pos).count()
    }
}

impl Reference for Ref {
    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let me = self.pos.to_move;
        let mut out = Vec::new();
        match self.pos.kings[me] {
            None => {
                for t in all_triangles() {
                    if self.in_castle(me, t) && !self.is_trap_for(me, t) {
                        out.push(format!("k@{}", tri_name(t)));
                    }
                }
            }
            Some(king) => {
                for c in 0..7 {
                    for r in 0..13 {
                        let Some(p) = self.at(c, r) else { continue };
                        if p.colour != me {
                            continue;
                        }
                        for (dc, dr) in Ref::directions(me, p.officer) {
                            let (c1, r1) = (c + dc, r + dr);
                            let (c2, r2) = (c + 2 * dc, r + 2 * dr);
                            if exists(c1, r1) && self.at(c1, r1).is_none() {
                                out.push(format!("{}-{}", name(c, r), name(c1, r1)));
                            }
                            if exists(c2, r2)
                                && self.at(c2, r2).is_none()
                                && matches!(self.at(c1, r1), Some(q) if q.colour != me)
                            {
                                out.push(format!("{}x{}", name(c, r), name(c2, r2)));
                            }
                        }
                    }
                }
                for t in all_triangles() {
                    if shares_side(king, t) && self.in_castle(me, t) && !self.is_trap_for(me, t) {
                        out.push(format!("k{}-{}", tri_name(king), tri_name(t)));
                    }
                }
            }
        }
        if out.is_empty() {
            out.push("pass".into());
        }
        out
    }

    fn play(&mut self, mv: &str) {
        let me = self.pos.to_move;
        if mv == "pass" {
        } else if let Some(t) = mv.strip_prefix("k@") {
            self.pos.kings[me] = Some(parse_tri(t));
        } else if let Some(rest) = mv.strip_prefix('k') {
            let (_, to) = rest.split_once('-').unwrap();
            self.pos.kings[me] = Some(parse_tri(to));
        } else {
            let jump = mv.contains('x');
            let (a, b) = mv.split_once(if jump { 'x' } else { '-' }).unwrap();
            let ((c0, r0), (c1, r1)) = (parse_name(a), parse_name(b));
            let mut piece = self.pos.grid[c0 as usize][r0 as usize].take().unwrap();
            assert_eq!(piece.colour, me);
            if Ref::is_star(me, c1, r1) {
                piece.officer = true;
            }
            self.pos.grid[c1 as usize][r1 as usize] = Some(piece);
            if jump {
                let (cm, rm) = ((c0 + c1) / 2, (r0 + r1) / 2);
                let cell = &mut self.pos.grid[cm as usize][rm as usize];
                assert!(matches!(cell, Some(p) if p.colour != me));
                *cell = Some(Piece {
                    colour: me,
                    officer: false,
                });
            }
        }
        self.pos.to_move = 1 - me;
        self.ply += 1;
        self.history.push(self.pos.clone());
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in [YELLOW, RED] {
            if self.king_trapped(side) {
                let winner = 1 - side;
                return Some(Outcome::Win {
                    seat: if winner == YELLOW {
                        Seat::First
                    } else {
                        Seat::Second
                    },
                    colour: if winner == YELLOW {
                        Colour::Yellow
                    } else {
                        Colour::Red
                    },
                    reason: "the enemy King is trapped",
                });
            }
        }
        if self.occurrences() >= 3 {
            return Some(Outcome::Draw {
                reason: "the same position for the third time",
            });
        }
        if self.ply >= self.max_plies {
            return Some(Outcome::Draw {
                reason: "max-plies reached",
            });
        }
        None
    }
}
