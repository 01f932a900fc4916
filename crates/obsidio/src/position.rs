//! The position text: `BOARD SIDE supply=… anchor=… swap=… passes=… claimer=… last=…`.
//!
//! - `BOARD`: the ranks from the top (rank n) down to rank 1, separated by `/`, each with one
//!   character per square from file a: `.` empty dark or light square, `+` unclaimed target,
//!   `b`/`w` a Black/White influence token, `B`/`W` a target claimed by Black/White (the
//!   square decides which: letters are read in either case).
//! - `SIDE`: the colour to move, `b` or `w`.
//! - `supply=B/W`: tokens left to Black and White, or `supply=-` when unlimited. It must
//!   equal the `tokens` option less the colour's tokens on the board.
//! - `anchor=SQUARE` or `anchor=-` (no anchor: placements are free).
//! - `swap=start|offer|swapped|closed`: no move played yet; the second seat's first turn
//!   (it may swap with `pie=true`); the seats have swapped colours; no swap (any more).
//! - `passes=0|1|2`: passes in a row.
//! - `claimer=b|w|-`: the colour whose move most recently contained a claim.
//! - `last=MOVE/MOVE`: Black's and White's last placement or claim, `-` for none (markers
//!   for display only).
//!
//! Every `key=value` item may be left out on input: `supply` then follows from the board,
//! `anchor` is `-`, `swap` is `start` on an empty board and `closed` otherwise, `passes` is
//! 0, `claimer` is `-` (it must be given once a target is claimed), `last` is `-/-`.

use crate::geometry::{Bits, Geometry, Kind, Square, NO_SQUARE};
use crate::{colour, side_letter, Config, Move, Obsidio, Side, SwapState, BLACK, UNLIMITED, WHITE};
use boardlab_core::{Audit, Notation};
use std::fmt::Write as _;

/// Writes the position text of `game`.
pub(crate) fn format(game: &Obsidio) -> String {
    let g = game.geometry();
    let n = g.n;
    let mut s = String::new();
    for r in (0..n).rev() {
        if r != n - 1 {
            s.push('/');
        }
        for f in 0..n {
            let sq = r * n + f;
            let bit = 1u128 << sq;
            let c = match g.kind(sq) {
                Kind::Target => {
                    let t = g.target_index[sq as usize];
                    if game.claimed[BLACK.index()] >> t & 1 == 1 {
                        'B'
                    } else if game.claimed[WHITE.index()] >> t & 1 == 1 {
                        'W'
                    } else {
                        '+'
                    }
                }
                _ if game.tokens[BLACK.index()] & bit != 0 => 'b',
                _ if game.tokens[WHITE.index()] & bit != 0 => 'w',
                _ => '.',
            };
            s.push(c);
        }
    }
    let _ = write!(s, " {}", side_letter(game.side));
    if game.cfg.tokens == UNLIMITED {
        s.push_str(" supply=-");
    } else {
        let _ = write!(
            s,
            " supply={}/{}",
            game.supply[BLACK.index()],
            game.supply[WHITE.index()]
        );
    }
    let anchor = if game.anchor == NO_SQUARE {
        "-".to_string()
    } else {
        g.name(game.anchor)
    };
    let last =
        |side: Side| game.last[side.index()].map_or("-".to_string(), |m| game.format_move(m));
    let _ = write!(
        s,
        " anchor={anchor} swap={} passes={} claimer={} last={}/{}",
        game.swap.word(),
        game.passes,
        game.claimer.map_or('-', side_letter),
        last(BLACK),
        last(WHITE)
    );
    s
}

fn parse_side(word: &str) -> Option<Side> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(BLACK),
        "w" | "white" => Some(WHITE),
        _ => None,
    }
}

/// A position as written, not yet checked against the options and the rules. Squares and
/// targets are numbered as on the board of the options' size ([`Geometry`]).
/// `Obsidio::from_setup` ([`boardlab_core::Notation::from_setup`]) checks it and names every
/// problem ([`Setup::problems`]). The supply is not part of it: it follows from the `tokens`
/// option and the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The influence tokens of each colour ([`Side::index`]), one bit per square.
    pub tokens: [u128; 2],
    /// The targets each colour has claimed, one bit per target index.
    pub claimed: [u32; 2],
    /// The colour to move.
    pub side: Side,
    /// The last token placed, if any.
    pub anchor: Option<Square>,
    /// Where the pie rule stands.
    pub swap: SwapState,
    /// Passes in a row: 0, 1 or 2.
    pub passes: u8,
    /// The colour whose move most recently contained a claim.
    pub claimer: Option<Side>,
    /// Each colour's last placement or claim (markers for display).
    pub last: [Option<Move>; 2],
}

/// Where in the text a problem lies. The reading and the rules' checks each find problems in
/// text order; where the text can be read only in part, both lists are merged in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    /// The board, the colour to move and the shape of the items.
    Head,
    Supply,
    Anchor,
    Swap,
    /// Passes, claimer and last moves.
    Tail,
}

type Problems = Vec<(Part, String)>;

impl Setup {
    /// An empty board, Black to move, nothing played.
    fn empty() -> Setup {
        Setup {
            tokens: [0; 2],
            claimed: [0; 2],
            side: BLACK,
            anchor: None,
            swap: SwapState::Start,
            passes: 0,
            claimer: None,
            last: [None; 2],
        }
    }

    /// Tokens on the board by colour, claimed targets included.
    fn placed(&self) -> [u32; 2] {
        [BLACK, WHITE].map(|side| {
            self.tokens[side.index()].count_ones() + self.claimed[side.index()].count_ones()
        })
    }

    /// Whether square `sq` holds a token or a claimed target.
    fn holds(&self, g: &Geometry, sq: Square) -> bool {
        let t = g.target_index[usize::from(sq)];
        (self.tokens[0] | self.tokens[1]) & (1 << sq) != 0
            || t != NO_SQUARE && (self.claimed[0] | self.claimed[1]) >> t & 1 == 1
    }

    /// Reads a position text under the options of `start` (a fresh game). Besides the syntax,
    /// the items must agree with the board: the supply, the claimer and the last moves. When
    /// the text can be read only in part, the problems also hold what the rules' checks find
    /// in the rest, all in text order.
    pub(crate) fn read(start: &Obsidio, text: &str) -> Result<Setup, Vec<String>> {
        let n = start.geometry().n;
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() < 2 {
            return Err(vec![format!(
                "expected the board ({n} ranks of {n} squares separated by '/', rank {n} first), \
                 a space and the colour to move (b or w), then optional items such as \
                 supply=51/51 anchor=c3 swap=closed passes=0 claimer=- last=c3/b3,f3"
            )]);
        }
        let mut r = Reader {
            game: start,
            setup: Setup::empty(),
            problems: Vec::new(),
        };
        r.board(words[0]);
        match parse_side(words[1]) {
            Some(side) => r.setup.side = side,
            None => r.problem(
                Part::Head,
                format!("'{}' is not a colour to move; accepted: b, w", words[1]),
            ),
        }
        let items = Items::read(&words[2..], &mut r.problems);
        r.supply(items.supply.as_deref());
        r.anchor(items.anchor.as_deref());
        r.swap(items.swap.as_deref());
        r.passes(items.passes.as_deref());
        r.claimer(items.claimer.as_deref());
        r.last(items.last.as_deref());
        if r.problems.is_empty() {
            return Ok(r.setup);
        }
        rule_problems(start, &r.setup, &mut r.problems);
        r.problems.sort_by_key(|(part, _)| *part);
        Err(r.problems.into_iter().map(|(_, p)| p).collect())
    }

    /// Everything that keeps this set-up from being a game under `cfg`: bit sets off the
    /// board or contradicting each other, a claimer or last move the board does not bear
    /// out, more tokens than the option allows, an empty anchor, a swap state that cannot
    /// be reached. Empty when it is a game.
    #[must_use]
    pub fn problems(&self, cfg: &Config) -> Vec<String> {
        let game = Obsidio::start(*cfg);
        let mut problems = invariant_problems(&game, self);
        let mut rules = Vec::new();
        rule_problems(&game, self, &mut rules);
        problems.extend(rules.into_iter().map(|(_, p)| p));
        problems
    }

    /// The game of a set-up without problems, from a fresh game with the options.
    pub(crate) fn build(&self, mut game: Obsidio) -> Obsidio {
        let limit = game.cfg.tokens;
        let placed = self.placed();
        game.tokens = self.tokens;
        game.claimed = self.claimed;
        game.side = self.side;
        if limit != UNLIMITED {
            game.supply = placed.map(|p| limit - p as u16);
        }
        game.anchor = self.anchor.unwrap_or(NO_SQUARE);
        game.swap = self.swap;
        game.passes = self.passes;
        game.claimer = self.claimer;
        game.last = self.last;
        game.refresh_derived();
        game.hash = game.hash_from_scratch();
        game
    }
}

/// The rules' checks that a text read in part can still break (so they run on what could
/// be read): no more tokens than the option allows, an anchor on a token, a swap state
/// that the board and the side to move allow.
fn rule_problems(game: &Obsidio, s: &Setup, problems: &mut Problems) {
    let g = game.geometry();
    let limit = game.cfg.tokens;
    let placed = s.placed();
    if limit != UNLIMITED {
        for side in [BLACK, WHITE] {
            if placed[side.index()] > u32::from(limit) {
                problems.push((
                    Part::Supply,
                    format!(
                        "{} has {} tokens on the board but only {limit} in all (tokens option)",
                        colour(side),
                        placed[side.index()]
                    ),
                ));
            }
        }
    }
    if let Some(sq) = s.anchor.filter(|&sq| sq < g.cells && !s.holds(g, sq)) {
        problems.push((
            Part::Anchor,
            format!(
                "anchor={0}: the anchor is the last token placed, but {0} is empty",
                g.name(sq)
            ),
        ));
    }
    let empty_board = placed == [0, 0];
    let swap = match s.swap {
        SwapState::Start if !empty_board || s.side != BLACK => {
            "swap=start is the position before the first move: an empty board, Black to move"
                .to_string()
        }
        SwapState::Offer
            if s.side != WHITE || placed[WHITE.index()] != 0 || placed[BLACK.index()] == 0 =>
        {
            "swap=offer is White's first turn: Black's first tokens on the board, no White \
             token, White to move"
                .to_string()
        }
        SwapState::Swapped if !game.cfg.pie => "swap=swapped needs the pie rule (pie=true)".into(),
        SwapState::Swapped | SwapState::Closed if empty_board => format!(
            "swap={}: no move has been played on an empty board; write swap=start",
            s.swap.word()
        ),
        _ => return,
    };
    problems.push((Part::Swap, swap));
}

/// What a text read in full always satisfies but a set-up built in code may not: tokens on
/// the board's placement squares, claims of its targets, no square or target held by both
/// colours, an anchor on the board, at most two passes, a claimer and last moves that the
/// board bears out.
fn invariant_problems(game: &Obsidio, s: &Setup) -> Vec<String> {
    let g = game.geometry();
    let names = |set: u128| Bits::of(set).map(|sq| g.name(sq)).collect::<Vec<_>>();
    let all_targets = u32::MAX.checked_shr(32 - u32::from(g.targets)).unwrap_or(0);
    let mut problems = Vec::new();
    let stray = (s.tokens[0] | s.tokens[1]) & !g.placement;
    if stray != 0 {
        problems.push(format!(
            "tokens on {}: tokens go on the dark and light squares of the {1}×{1} board",
            names(stray).join(", "),
            g.n
        ));
    }
    let both = s.tokens[0] & s.tokens[1] & g.placement;
    if both != 0 {
        problems.push(format!(
            "{} hold tokens of both colours",
            names(both).join(", ")
        ));
    }
    if (s.claimed[0] | s.claimed[1]) & !all_targets != 0 {
        problems.push(format!(
            "claims of targets the {0}×{0} board does not have",
            g.n
        ));
    }
    if s.claimed[0] & s.claimed[1] != 0 {
        problems.push("targets claimed by both colours".into());
    }
    if let Some(sq) = s.anchor.filter(|&sq| sq >= g.cells) {
        problems.push(format!("anchor: square number {sq} is not on the board"));
    }
    if s.passes > 2 {
        problems.push(format!("passes={}: accepted: 0, 1, 2", s.passes));
    }
    match s.claimer {
        None if s.claimed[0] | s.claimed[1] != 0 => problems
            .push("targets are claimed: give the last claimer, claimer=b or claimer=w".into()),
        Some(side) if s.claimed[side.index()] == 0 => problems.push(format!(
            "claimer={}: {} has claimed no target",
            side_letter(side),
            colour(side)
        )),
        _ => {}
    }
    for side in [BLACK, WHITE] {
        if let Some(mv) = s.last[side.index()].filter(|&mv| !owns_move(g, s, side, mv)) {
            let shown = if on_board(g, mv) {
                format!("'{}'", game.format_move(mv))
            } else {
                format!("{mv:?}")
            };
            problems.push(format!(
                "{}'s last move {shown} is not a placement or claim of its own tokens",
                colour(side)
            ));
        }
    }
    problems
}

/// Whether every square and target of `mv` is on the board of `g`.
fn on_board(g: &Geometry, mv: Move) -> bool {
    match mv {
        Move::Place(a) => a < g.cells,
        Move::PlaceTwo(a, b) => a < g.cells && b < g.cells,
        Move::Claim { targets, last } => {
            last < g.targets && targets.checked_shr(u32::from(g.targets)) == Some(0)
        }
        Move::Swap | Move::Pass => true,
    }
}

/// Whether `mv` is a placement or claim with `side`'s tokens on every square of it.
fn owns_move(g: &Geometry, s: &Setup, side: Side, mv: Move) -> bool {
    let tokens = s.tokens[side.index()];
    let claimed = s.claimed[side.index()];
    on_board(g, mv)
        && match mv {
            Move::Place(a) => tokens & (1 << a) != 0,
            Move::PlaceTwo(a, b) => tokens & (1 << a) != 0 && tokens & (1 << b) != 0,
            Move::Claim { targets, last } => {
                claimed & targets == targets && targets >> last & 1 == 1
            }
            Move::Swap | Move::Pass => false,
        }
}

/// The `key=value` items as written (values in lower case).
#[derive(Default)]
struct Items {
    supply: Option<String>,
    anchor: Option<String>,
    swap: Option<String>,
    passes: Option<String>,
    claimer: Option<String>,
    last: Option<String>,
}

impl Items {
    fn read(words: &[&str], problems: &mut Problems) -> Items {
        let mut items = Items::default();
        let mut seen: Vec<String> = Vec::new();
        for item in words {
            let Some((key, value)) = item.split_once('=') else {
                problems.push((Part::Head, format!("'{item}' is not a key=value item")));
                continue;
            };
            let key = key.to_ascii_lowercase();
            if seen.contains(&key) {
                problems.push((Part::Head, format!("'{key}' is given twice")));
                continue;
            }
            seen.push(key.clone());
            let slot = match key.as_str() {
                "supply" => &mut items.supply,
                "anchor" => &mut items.anchor,
                "swap" => &mut items.swap,
                "passes" => &mut items.passes,
                "claimer" => &mut items.claimer,
                "last" => &mut items.last,
                _ => {
                    problems.push((
                        Part::Head,
                        format!(
                            "unknown item '{key}'; accepted: supply, anchor, swap, passes, \
                             claimer, last"
                        ),
                    ));
                    continue;
                }
            };
            *slot = Some(value.to_ascii_lowercase());
        }
        items
    }
}

/// Reads the parts of a position text into a set-up, noting each problem with its part.
struct Reader<'a> {
    /// A fresh game with the options: the board's geometry, the `tokens` option and the move
    /// syntax.
    game: &'a Obsidio,
    setup: Setup,
    problems: Problems,
}

impl Reader<'_> {
    fn problem(&mut self, part: Part, problem: String) {
        self.problems.push((part, problem));
    }

    fn board(&mut self, text: &str) {
        let g = self.game.geometry();
        let n = g.n;
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != n as usize {
            self.problem(
                Part::Head,
                format!(
                    "the board has {} ranks separated by '/'; the {n}×{n} board needs {n} \
                     (rank {n} first)",
                    ranks.len()
                ),
            );
            return;
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let r = n - 1 - i as u8;
            let cells: Vec<char> = rank_text.chars().collect();
            if cells.len() != n as usize {
                self.problem(
                    Part::Head,
                    format!(
                        "rank {} ('{rank_text}') has {} squares; each rank needs {n}",
                        r + 1,
                        cells.len()
                    ),
                );
                continue;
            }
            for (f, &c) in cells.iter().enumerate() {
                self.square(r * n + f as u8, c);
            }
        }
    }

    fn square(&mut self, sq: Square, c: char) {
        let g = self.game.geometry();
        let target = g.kind(sq) == Kind::Target;
        let side = match c {
            'b' | 'B' => BLACK,
            'w' | 'W' => WHITE,
            '.' if !target => return,
            '+' if target => return,
            '.' | '+' => {
                let (what, write) = if target {
                    ("a target", '+')
                } else {
                    ("not a target", '.')
                };
                return self.problem(
                    Part::Head,
                    format!("{} is {what}: write it '{write}'", g.name(sq)),
                );
            }
            other => {
                return self.problem(
                    Part::Head,
                    format!("{}: '{other}' is not one of . + b w B W", g.name(sq)),
                )
            }
        };
        if target {
            self.setup.claimed[side.index()] |= 1 << g.target_index[sq as usize];
        } else {
            self.setup.tokens[side.index()] |= 1 << sq;
        }
    }

    /// The supply follows from the option and the board; a supply written must agree.
    fn supply(&mut self, text: Option<&str>) {
        let limit = self.game.cfg.tokens;
        let Some(text) = text else { return };
        if limit == UNLIMITED {
            if text != "-" {
                self.problem(
                    Part::Supply,
                    format!(
                        "supply={text}: the supply is unlimited with these options; write \
                         supply=-"
                    ),
                );
            }
            return;
        }
        let placed = self.setup.placed();
        if placed.iter().any(|&p| p > u32::from(limit)) {
            // The rules' check names the colour over the limit.
            return;
        }
        let supply = placed.map(|p| limit - p as u16);
        let parsed = text
            .split_once('/')
            .and_then(|(b, w)| Some([b.parse::<u16>().ok()?, w.parse::<u16>().ok()?]));
        if parsed != Some(supply) {
            self.problem(
                Part::Supply,
                format!(
                    "supply={text}: with tokens={limit} and the tokens on the board the supply \
                     is supply={}/{}",
                    supply[BLACK.index()],
                    supply[WHITE.index()]
                ),
            );
        }
    }

    fn anchor(&mut self, text: Option<&str>) {
        let Some(text) = text.filter(|t| *t != "-") else {
            return;
        };
        let g = self.game.geometry();
        match g.parse_square(text) {
            Some(sq) => self.setup.anchor = Some(sq),
            None => self.problem(
                Part::Anchor,
                format!(
                    "anchor={text}: not a square of the {0}×{0} board, nor '-'",
                    g.n
                ),
            ),
        }
    }

    fn swap(&mut self, text: Option<&str>) {
        let empty_board = self.setup.placed() == [0, 0];
        self.setup.swap = match text {
            None if empty_board => SwapState::Start,
            None | Some("closed") => SwapState::Closed,
            Some("start") => SwapState::Start,
            Some("offer") => SwapState::Offer,
            Some("swapped") => SwapState::Swapped,
            Some(other) => {
                self.problem(
                    Part::Swap,
                    format!("swap={other}: accepted: start, offer, swapped, closed"),
                );
                SwapState::Closed
            }
        };
    }

    fn passes(&mut self, text: Option<&str>) {
        match text {
            None | Some("0") => {}
            Some("1") => self.setup.passes = 1,
            Some("2") => self.setup.passes = 2,
            Some(other) => self.problem(Part::Tail, format!("passes={other}: accepted: 0, 1, 2")),
        }
    }

    /// The claimer must be given once a target is claimed, and must have claimed one.
    fn claimer(&mut self, text: Option<&str>) {
        let claimed = self.setup.claimed;
        let problem = match text {
            None | Some("-") if claimed[0] | claimed[1] != 0 => {
                "targets are claimed: give the last claimer, claimer=b or claimer=w".to_string()
            }
            None | Some("-") => return,
            Some(word) => match parse_side(word) {
                Some(side) if claimed[side.index()] != 0 => {
                    self.setup.claimer = Some(side);
                    return;
                }
                Some(side) => format!("claimer={word}: {} has claimed no target", colour(side)),
                None => format!("claimer={word}: accepted: b, w, -"),
            },
        };
        self.problem(Part::Tail, problem);
    }

    /// Each last move must be a placement or claim with the colour's tokens on its squares.
    fn last(&mut self, text: Option<&str>) {
        let Some(text) = text else { return };
        let Some((b, w)) = text.split_once('/') else {
            return self.problem(
                Part::Tail,
                format!(
                    "last={text}: write Black's then White's last move separated by '/', '-' \
                     for none, e.g. last=c3/b3,f3"
                ),
            );
        };
        let g = self.game.geometry();
        for (side, mv_text) in [(BLACK, b), (WHITE, w)] {
            if mv_text == "-" {
                continue;
            }
            let problem = match self.game.parse_move(mv_text) {
                Ok(mv @ (Move::Place(_) | Move::PlaceTwo(..) | Move::Claim { .. })) => {
                    if owns_move(g, &self.setup, side, mv) {
                        self.setup.last[side.index()] = Some(mv);
                        continue;
                    }
                    format!(
                        "last={text}: {} tokens are not on every square of '{mv_text}'",
                        colour(side)
                    )
                }
                Ok(_) => format!("last={text}: '{mv_text}' puts no token on the board; use '-'"),
                Err(e) => format!("last={text}: {e}"),
            };
            self.problem(Part::Tail, problem);
        }
    }
}
