//! Position text and the terminal diagram.
//!
//! Position text: `BOARD SIDE QUIET`, e.g. the opening
//! `s[psf]c[rs]kc[psf]s/vvvvvvvv/8/8/8/8/VVVVVVVV/S[PnF]C[Rn]KC[PnF]S w 0`.
//!
//! - BOARD: ranks 8 down to 1 separated by `/`, each rank files a→h. A square is a digit 1–8
//!   (that many squares with nothing on them), a single letter for a plain ground piece (or,
//!   on input, for one lone Fighter), or a group in brackets. Letters: K Commander, V Ved'rin,
//!   S Striker, C Cruiser, P Portal, R Ranger; upper case White, lower case Black.
//! - A group `[...]` holds, in order: an optional ground piece letter; for a Portal or Ranger
//!   its facing `n`, `e`, `s` or `w` (required); for a promoted Ved'rin `+`; then one `F` per
//!   White Fighter and one `f` per Black Fighter on the square (a Fighter on a Portal of its
//!   colour is landed, any other is flying). Examples: `[PnF]`, `[V+]`, `[Kf]`, `[FF]`.
//! - SIDE: `w` or `b`, the colour to move.
//! - QUIET: plies played in a row without any piece removed (optional on input, default 0).

use crate::board::{Board, Facing, Kind, Side, BLACK, WHITE};
use crate::tables::{Bits, Square};
use std::fmt::Write as _;

/// The army of each colour: most pieces of each kind (Commander exactly one).
const ARMY: [(Kind, u32); 6] = [
    (Kind::Commander, 1),
    (Kind::Vedrin, 8),
    (Kind::Striker, 2),
    (Kind::Cruiser, 2),
    (Kind::Portal, 2),
    (Kind::Ranger, 1),
];

/// Each army has two Fighters.
pub const FIGHTERS_PER_ARMY: u32 = 2;

fn colour_name(c: Side) -> &'static str {
    if c == WHITE {
        "White"
    } else {
        "Black"
    }
}

fn square_token(b: &Board, s: Square) -> Option<String> {
    let mut t = String::new();
    let ground = b.kind_at(s).zip(b.colour_at(s));
    if let Some((k, c)) = ground {
        let l = k.letter();
        t.push(if c == WHITE {
            l
        } else {
            l.to_ascii_lowercase()
        });
        if k.directional() {
            t.push(b.facing(s).letter());
        }
        if k == Kind::Vedrin && b.promoted >> s & 1 == 1 {
            t.push('+');
        }
    }
    for _ in 0..b.fighters(WHITE, s) {
        t.push('F');
    }
    for _ in 0..b.fighters(BLACK, s) {
        t.push('f');
    }
    match t.len() {
        0 => None,
        1 if ground.is_some() => Some(t),
        _ => Some(format!("[{t}]")),
    }
}

/// The board part of the position text.
#[must_use]
pub fn board_text(b: &Board) -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        let mut run = 0;
        for file in 0..8u8 {
            match square_token(b, rank * 8 + file) {
                None => run += 1,
                Some(tok) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push_str(&tok);
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The full position text.
#[must_use]
pub fn text(b: &Board, quiet: u32) -> String {
    format!(
        "{} {} {quiet}",
        board_text(b),
        if b.side == WHITE { 'w' } else { 'b' }
    )
}

/// Reads one square's contents (the text of a bracket group or a single letter) onto `b`.
fn read_square(b: &mut Board, s: Square, tok: &str, problems: &mut Vec<String>) {
    let name = crate::notation::square_name(s);
    let chars: Vec<char> = tok.chars().collect();
    let mut i = 0;
    if let Some(&ch) = chars.first() {
        if ch != 'F' && ch != 'f' {
            if let Some(k) = Kind::from_letter(ch) {
                let c = if ch.is_ascii_uppercase() {
                    WHITE
                } else {
                    BLACK
                };
                i = 1;
                let mut face = Facing::forward(c);
                let mut promoted = false;
                if k.directional() {
                    match chars.get(1).copied().and_then(Facing::from_letter) {
                        Some(f) => {
                            face = f;
                            i = 2;
                        }
                        None => problems.push(format!(
                            "{name}: a {} needs its facing after the letter: n, e, s or w (e.g. [{}n])",
                            k.name(),
                            ch
                        )),
                    }
                } else if k == Kind::Vedrin && chars.get(1) == Some(&'+') {
                    promoted = true;
                    i = 2;
                }
                b.put(c, k, s, face, promoted);
            } else {
                problems.push(format!(
                    "{name}: '{ch}' is not a piece; accepted: K V S C P R (White), k v s c p r (Black), F f (Fighters)"
                ));
                return;
            }
        }
    }
    for &ch in &chars[i..] {
        match ch {
            'F' | 'f' => {
                let c = if ch == 'F' { WHITE } else { BLACK };
                if b.fighters(c, s) >= 2 {
                    problems.push(format!(
                        "{name}: more than two {} Fighters (each army has two)",
                        colour_name(c)
                    ));
                } else {
                    b.add_fighters(c, s, 1);
                }
            }
            '+' => problems.push(format!("{name}: '+' (promoted) follows only a Ved'rin letter")),
            other => problems.push(format!(
                "{name}: '{other}' is not allowed here; after the ground piece (and its facing or '+') only F and f (Fighters) may follow"
            )),
        }
    }
}

fn read_board(b: &mut Board, text: &str, problems: &mut Vec<String>) {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        problems.push(format!(
            "the board has {} ranks separated by '/'; it needs 8 (rank 8 first)",
            ranks.len()
        ));
        return;
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        read_rank(b, 7 - i as u8, rank_text, problems);
    }
}

/// Reads one rank, files a→h.
fn read_rank(b: &mut Board, rank: u8, rank_text: &str, problems: &mut Vec<String>) {
    // Wide enough that no text can overflow it; anything past 8 is reported below.
    let mut file = 0usize;
    let mut chars = rank_text.chars();
    while let Some(ch) = chars.next() {
        let tok: String = match ch {
            '1'..='8' => {
                file += usize::from(ch as u8 - b'0');
                continue;
            }
            '[' => match read_group(&mut chars) {
                Some(inner) => {
                    if inner.is_empty() {
                        problems.push(format!("rank {}: empty group '[]'", rank + 1));
                    }
                    inner
                }
                None => {
                    problems.push(format!("rank {}: '[' without a closing ']'", rank + 1));
                    return;
                }
            },
            c if matches!(c.to_ascii_uppercase(), 'K' | 'V' | 'S' | 'C') => c.to_string(),
            'P' | 'p' | 'R' | 'r' => {
                problems.push(format!(
                    "rank {}: a Portal or Ranger is written in brackets with its facing, e.g. [{ch}n]",
                    rank + 1
                ));
                file += 1;
                continue;
            }
            // A lone Fighter may be written without brackets.
            'F' | 'f' => ch.to_string(),
            other => {
                problems.push(format!(
                    "rank {}: '{other}' is not a piece, a digit 1-8 or '['",
                    rank + 1
                ));
                return;
            }
        };
        if file < 8 {
            read_square(b, rank * 8 + file as u8, &tok, problems);
        }
        file += 1;
    }
    if file != 8 {
        problems.push(format!(
            "rank {} ('{rank_text}') covers {file} squares; each rank needs exactly 8",
            rank + 1
        ));
    }
}

/// The text of a bracket group up to its `]`, which it consumes; `None` when there is none.
fn read_group(chars: &mut std::str::Chars<'_>) -> Option<String> {
    let mut inner = String::new();
    for c in chars.by_ref() {
        if c == ']' {
            return Some(inner);
        }
        inner.push(c);
    }
    None
}

/// A position as written, not yet checked against the rules: any arrangement of pieces and
/// Fighters, the side to move and the quiet-ply count. `Assideum::from_setup`
/// ([`boardlab_core::Notation::from_setup`]) checks it and names every problem
/// ([`Setup::problems`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces, Fighters and side to move. Its `range` and `hash` play no part: the game
    /// takes the range from its options and computes the hash.
    pub board: Board,
    /// Plies played in a row without any piece removed.
    pub quiet: u32,
}

impl Setup {
    /// Reads `text` (syntax only), adding a line to `problems` for each thing wrong. The board
    /// gets the Ranger range `range`.
    pub(crate) fn read(text: &str, range: u8, problems: &mut Vec<String>) -> Setup {
        let mut setup = Setup {
            board: Board::empty(range),
            quiet: 0,
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() < 2 || words.len() > 3 {
            problems.push(format!(
                "expected BOARD SIDE [QUIET], e.g. {}",
                crate::START_POSITION
            ));
            return setup;
        }
        read_board(&mut setup.board, words[0], problems);
        match words[1] {
            "w" | "W" => setup.board.side = WHITE,
            "b" | "B" => setup.board.side = BLACK,
            other => problems.push(format!("'{other}' is not a side to move; accepted: w, b")),
        }
        if let Some(q) = words.get(2) {
            match q.parse::<u32>() {
                Ok(quiet) => setup.quiet = quiet,
                Err(_) => problems.push(format!(
                    "'{q}' is not a quiet-ply count (a whole number, plies without a removal)"
                )),
            }
        }
        setup
    }

    /// Everything that keeps this set-up from being a position of a game with the draw after
    /// `quiet_limit` quiet plies: bit sets that contradict each other, army sizes, one
    /// Commander each, Ved'rin placement, flying Fighters of both sides together, the side not
    /// to move in siege, a quiet-ply count past the limit. Empty when it is a valid position.
    #[must_use]
    pub fn problems(&self, quiet_limit: u32) -> Vec<String> {
        let b = &self.board;
        let mut problems = bit_problems(b);
        for c in [WHITE, BLACK] {
            army_problems(b, c, &mut problems);
        }
        for s in Bits(b.flying(WHITE) & b.flying(BLACK)) {
            problems.push(format!(
                "{}: flying Fighters of both colours on one square",
                crate::notation::square_name(s)
            ));
        }
        if problems.is_empty() && b.in_siege(b.side.other()) {
            problems.push(format!(
                "{} is not to move but its Commander is in siege",
                colour_name(b.side.other())
            ));
        }
        if self.quiet > quiet_limit {
            problems.push(format!(
                "the quiet-ply count {} is above quiet-plies={quiet_limit} (the game ends there)",
                self.quiet
            ));
        }
        problems
    }
}

/// Bit sets of the board that no position text gives: a square with two ground pieces or
/// colours, a mark (kind, facing, promotion, second Fighter) without what it marks.
fn bit_problems(b: &Board) -> Vec<String> {
    let mut problems = Vec::new();
    let (mut kinds, mut shared) = (0u64, b.colour[0] & b.colour[1]);
    for k in b.kind {
        shared |= kinds & k;
        kinds |= k;
    }
    let marks = [
        (shared, "two ground pieces on one square"),
        (
            b.occupied() ^ kinds,
            "a ground piece without both a kind and a colour",
        ),
        (
            b.promoted & !b.kind[Kind::Vedrin as usize],
            "a promotion mark without a Ved'rin",
        ),
        (
            (b.face[0] | b.face[1])
                & !(b.kind[Kind::Portal as usize] | b.kind[Kind::Ranger as usize]),
            "a facing without a Portal or Ranger",
        ),
        (
            (b.f2[0] & !b.f1[0]) | (b.f2[1] & !b.f1[1]),
            "a second Fighter without a first",
        ),
    ];
    for (set, what) in marks {
        for s in Bits(set) {
            problems.push(format!("{}: {what}", crate::notation::square_name(s)));
        }
    }
    problems
}

/// The checks of one colour's army: sizes, one Commander, Ved'rin placement.
fn army_problems(b: &Board, c: Side, problems: &mut Vec<String>) {
    for (k, most) in ARMY {
        let n = (b.colour[c.index()] & b.kind[k as usize]).count_ones();
        if k == Kind::Commander && n != 1 {
            problems.push(format!(
                "{} needs exactly one Commander, found {n}",
                colour_name(c)
            ));
        } else if n > most {
            problems.push(format!(
                "{} has {n} {}s; the army has {most}",
                colour_name(c),
                k.name()
            ));
        }
    }
    let fighters = b.f1[c.index()].count_ones() + b.f2[c.index()].count_ones();
    if fighters > FIGHTERS_PER_ARMY {
        problems.push(format!(
            "{} has {fighters} Fighters; the army has {FIGHTERS_PER_ARMY}",
            colour_name(c)
        ));
    }
    let plain_ved = b.colour[c.index()] & b.kind[Kind::Vedrin as usize] & !b.promoted;
    let (own_back, far) = if c == WHITE {
        (0xFFu64, 0xFFu64 << 56)
    } else {
        (0xFFu64 << 56, 0xFFu64)
    };
    for s in Bits(plain_ved & far) {
        problems.push(format!(
            "{}: an unpromoted {} Ved'rin on the far rank (it would be promoted: write [{}+])",
            crate::notation::square_name(s),
            colour_name(c),
            if c == WHITE { 'V' } else { 'v' }
        ));
    }
    for s in Bits(plain_ved & own_back) {
        problems.push(format!(
            "{}: an unpromoted {} Ved'rin on its own back rank (it only moves forward)",
            crate::notation::square_name(s),
            colour_name(c)
        ));
    }
}

fn arrow(f: Facing) -> char {
    ['^', '>', 'v', '<'][f as usize]
}

/// A diagram: one cell per square showing the ground piece (upper case White, lower case
/// Black) with its facing arrow or `+`, then landed Fighters, then `~` and flying Fighters.
#[must_use]
pub fn diagram(b: &Board) -> String {
    let mut cells = vec![String::new(); 64];
    for s in 0..64u8 {
        let cell = &mut cells[s as usize];
        let ground = b.kind_at(s).zip(b.colour_at(s));
        match ground {
            Some((k, c)) => {
                let l = k.letter();
                cell.push(if c == WHITE {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
                if k.directional() {
                    cell.push(arrow(b.facing(s)));
                } else if k == Kind::Vedrin && b.promoted >> s & 1 == 1 {
                    cell.push('+');
                }
            }
            None => cell.push('.'),
        }
        let mut flying = String::new();
        for (c, letter) in [(WHITE, 'F'), (BLACK, 'f')] {
            let n = b.fighters(c, s);
            let landed = matches!(ground, Some((Kind::Portal, pc)) if pc == c);
            for _ in 0..n {
                if landed {
                    cell.push(letter);
                } else {
                    flying.push(letter);
                }
            }
        }
        if !flying.is_empty() {
            cell.push('~');
            cell.push_str(&flying);
        }
    }
    let width = cells.iter().map(String::len).max().unwrap_or(1).max(2) + 1;
    let mut out = String::new();
    let header: String = (0..8)
        .map(|f| format!("{:<width$}", (b'a' + f) as char))
        .collect();
    let _ = writeln!(out, "    {}", header.trim_end());
    for rank in (0..8u8).rev() {
        let _ = write!(out, " {}  ", rank + 1);
        for file in 0..8u8 {
            let _ = write!(out, "{:<width$}", cells[(rank * 8 + file) as usize]);
        }
        let _ = writeln!(out, " {}", rank + 1);
    }
    let _ = writeln!(out, "    {}", header.trim_end());
    out.push_str(
        "K Commander, V Ved'rin (+ promoted), S Striker, C Cruiser, P Portal, R Ranger: upper case White, lower case Black.\n\
         ^ > v < facing; F f after a Portal: Fighters landed on it; ~F ~f: flying Fighters on that square.\n",
    );
    if b.in_siege(b.side) {
        let _ = writeln!(out, "{}'s Commander is in siege", colour_name(b.side));
    }
    out
}
