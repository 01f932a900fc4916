//! One game as the server keeps it: fixed facts ([`Meta`]), the append-only event log
//! ([`Event`]) and the state rebuilt from it by replaying every event through the rules
//! ([`Live`]). The same [`Live::apply`] checks a new action and replays a stored one, so
//! what was accepted once is accepted again after a restart.

use crate::player::Player;
use crate::token::{self, TokenHash};
use boardlab_core::{GameRecord, MoveError, NewGameError, Options, Seat, SeatNames};
use boardlab_games::{AnyGame, GameKind};
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

/// What does not change during a game.
#[derive(Clone, Debug)]
pub struct Meta {
    pub id: String,
    pub kind: GameKind,
    pub options: Options,
    pub seed: u64,
    /// Starting position text, when the game did not start from the normal set-up.
    pub position: Option<String>,
    pub players: [Player; 2],
    /// Digests of the seats' tokens (`None` for computer seats).
    pub tokens: [Option<TokenHash>; 2],
    /// One person plays both seats on one screen (one token holds both).
    pub same_screen: bool,
    /// Milliseconds since 1970.
    pub created_ms: i64,
    /// The accounts holding the seats when the game was read (later claims are events).
    pub accounts: [Option<SeatAccount>; 2],
    /// Whether the result counts for ratings (a rated challenge between two accounts).
    pub rated: bool,
    /// The time control, if the game has a clock.
    pub clock: Option<crate::clock::TimeControl>,
}

/// The account holding a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    pub id: String,
    pub name: String,
}

impl SeatAccount {
    /// The data of a claim event: `ID NAME` (names have no spaces).
    #[must_use]
    pub fn to_data(&self) -> String {
        format!("{} {}", self.id, self.name)
    }

    /// Reads a claim event's data.
    ///
    /// # Errors
    /// Data that is not `ID NAME`.
    pub fn from_data(data: &str) -> Result<SeatAccount, String> {
        match data.split_once(' ') {
            Some((id, name)) if !id.is_empty() && !name.is_empty() && !name.contains(' ') => {
                Ok(SeatAccount {
                    id: id.to_string(),
                    name: name.to_string(),
                })
            }
            _ => Err(format!(
                "a claim names its account as 'ID NAME', not '{data}'"
            )),
        }
    }
}

impl Meta {
    /// The seats `token` holds (none, one, or both in a same-screen game). Every stored
    /// digest is compared, in constant time, whatever the result.
    #[must_use]
    pub fn seats_of(&self, token: &str) -> Vec<Seat> {
        let digest = token::hash(token);
        let mut seats = Vec::new();
        for seat in Seat::BOTH {
            if let Some(stored) = &self.tokens[seat.index()] {
                let same: bool = subtle::ConstantTimeEq::ct_eq(&digest[..], &stored[..]).into();
                if same {
                    seats.push(seat);
                }
            }
        }
        seats
    }

    /// The player of `seat`.
    #[must_use]
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// The game at its start.
    ///
    /// # Errors
    /// Options or a position text the game cannot start from.
    pub fn start(&self) -> Result<AnyGame, NewGameError> {
        match &self.position {
            Some(p) => AnyGame::from_position(self.kind, &self.options, p),
            None => AnyGame::new(self.kind, &self.options, self.seed),
        }
    }
}

/// The kinds of events in a game's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A move (the data is its canonical notation).
    Move,
    Resign,
    /// Offer a draw; accepting a pending offer of the other seat, and any offer in a
    /// same-screen game, agrees the draw at once.
    DrawOffer,
    DrawAccept,
    /// Decline the other seat's offer, or withdraw one's own.
    DrawDecline,
    /// Ask to take back one's last move; immediate in same-screen games, puzzles and against
    /// the computer.
    UndoRequest,
    UndoAccept,
    /// Decline the other seat's request, or withdraw one's own.
    UndoDecline,
    /// An invite link is opened: the seat's token from the link is replaced by a fresh one
    /// (the data is the new token's digest in hex), so the link works once.
    Join,
    /// After the game: offer a new game with the seats (and so the colours) swapped.
    RematchOffer,
    /// Accept the other seat's offer (at once on one screen and against the computer): the
    /// data is the new game's id.
    RematchAccept,
    /// Decline the other seat's offer, or withdraw one's own.
    RematchDecline,
    /// A signed-in player holding the seat's token makes the seat their account's (both
    /// seats in a same-screen game); the data is the account as `ID NAME`.
    Claim,
    /// The server records that the seat to move ran out of time: it loses.
    Flag,
}

impl Action {
    pub const ALL: [Action; 14] = [
        Action::Move,
        Action::Resign,
        Action::DrawOffer,
        Action::DrawAccept,
        Action::DrawDecline,
        Action::UndoRequest,
        Action::UndoAccept,
        Action::UndoDecline,
        Action::Join,
        Action::RematchOffer,
        Action::RematchAccept,
        Action::RematchDecline,
        Action::Claim,
        Action::Flag,
    ];

    /// The name stored in the log and used by the API.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Action::Move => "move",
            Action::Resign => "resign",
            Action::DrawOffer => "draw-offer",
            Action::DrawAccept => "draw-accept",
            Action::DrawDecline => "draw-decline",
            Action::UndoRequest => "undo-request",
            Action::UndoAccept => "undo-accept",
            Action::UndoDecline => "undo-decline",
            Action::Join => "join",
            Action::RematchOffer => "rematch-offer",
            Action::RematchAccept => "rematch-accept",
            Action::RematchDecline => "rematch-decline",
            Action::Claim => "claim",
            Action::Flag => "flag",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::ALL
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| format!("unknown event kind '{s}'"))
    }
}

/// One entry of a game's log. `seq` counts from 1; after it the game's version is `seq`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub seq: i64,
    pub seat: Seat,
    pub action: Action,
    /// The move's canonical notation for [`Action::Move`], else empty.
    pub data: String,
    pub at_ms: i64,
}

/// How a game ended other than by its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This seat resigned.
    Resigned(Seat),
    /// Both seats agreed a draw.
    Agreed,
    /// This seat ran out of time.
    Flagged(Seat),
    /// This seat's time ran out before it made its first move: nobody wins and the game
    /// is not rated.
    Aborted(Seat),
}

/// A move in the game's move list with the seat that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub text: String,
    pub seat: Seat,
    /// The cells the move touched, for marking it.
    pub cells: Vec<boardlab_core::present::Text>,
}

/// Why an action was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Malformed or illegal move text (HTTP 400).
    Move(MoveError),
    /// The action does not fit the game's state (HTTP 409). `code` is `game_over`,
    /// `not_your_turn` or `not_allowed`.
    Conflict { code: &'static str, message: String },
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Move(e) => write!(f, "{e}"),
            ActionError::Conflict { message, .. } => f.write_str(message),
        }
    }
}

fn conflict(message: impl Into<String>) -> ActionError {
    ActionError::Conflict {
        code: "not_allowed",
        message: message.into(),
    }
}

fn over(message: String) -> ActionError {
    ActionError::Conflict {
        code: "game_over",
        message,
    }
}

/// The data of a flag that aborts the game (the seat whose time ran out never moved).
pub const FLAG_ABORT: &str = "abort";

/// The state of a game after its log.
#[derive(Clone, Debug)]
pub struct Live {
    /// The position before the first move (shared: a state is copied for every change).
    start: std::sync::Arc<AnyGame>,
    /// The current position.
    pub game: AnyGame,
    /// The moves played (after take-backs).
    pub moves: Vec<Played>,
    /// Number of events in the log.
    pub version: i64,
    pub ending: Option<Ending>,
    /// The seat whose draw offer is pending.
    pub draw_offer: Option<Seat>,
    /// The seat whose take-back request is pending.
    pub undo_request: Option<Seat>,
    /// The seat whose rematch offer is pending.
    pub rematch_offer: Option<Seat>,
    /// Whether the pending rematch offer is for a rated game.
    pub rematch_rated: bool,
    /// The id of the rematch, once agreed.
    pub rematch: Option<String>,
    /// The offer the other seat just declined (shown until the next action): `draw`, `undo`
    /// or `rematch`, and the seat that declined it.
    pub declined: Option<(&'static str, Seat)>,
    /// Time of the last event (or of creation), milliseconds since 1970.
    pub updated_ms: i64,
    /// For each seat whose invite link was used, the digest of the token given then; it
    /// replaces the token of the link.
    pub joined: [Option<TokenHash>; 2],
    /// The accounts holding the seats.
    pub accounts: [Option<SeatAccount>; 2],
    /// The clocks, if the game has a time control.
    pub clocks: Option<crate::clock::Clocks>,
}

impl Live {
    /// A game with an empty log.
    ///
    /// # Errors
    /// Options or a position the game cannot start from.
    pub fn new(meta: &Meta) -> Result<Live, NewGameError> {
        let start = meta.start()?;
        Ok(Live {
            game: start.clone(),
            start: std::sync::Arc::new(start),
            moves: Vec::new(),
            version: 0,
            ending: None,
            draw_offer: None,
            undo_request: None,
            rematch_offer: None,
            rematch_rated: false,
            rematch: None,
            declined: None,
            updated_ms: meta.created_ms,
            joined: [None, None],
            accounts: meta.accounts.clone(),
            clocks: meta
                .clock
                .map(|c| crate::clock::Clocks::new(c, meta.created_ms)),
        })
    }

    /// The position before the first move.
    #[must_use]
    pub fn start(&self) -> &AnyGame {
        &self.start
    }

    /// Replays a stored log.
    ///
    /// # Errors
    /// The first event the rules refuse, with its number.
    pub fn replay(meta: &Meta, events: &[Event]) -> Result<Live, String> {
        let mut live = Live::new(meta).map_err(|e| format!("cannot start game: {e}"))?;
        for e in events {
            if e.seq != live.version + 1 {
                return Err(format!(
                    "event {} found where event {} was expected",
                    e.seq,
                    live.version + 1
                ));
            }
            if e.action == Action::DrawDecline && live.finished() && live.draw_offer.is_none() {
                // Logs written before offers ended with the game may decline an offer after
                // the ending move; that answer changed nothing then and changes nothing now.
                live.version += 1;
                continue;
            }
            live.apply(meta, e.seat, e.action, &e.data, e.at_ms)
                .map_err(|err| format!("event {} ({} {}): {err}", e.seq, e.action, e.data))?;
        }
        Ok(live)
    }

    /// Refuses a new request that the game's rules do not allow although older logs may hold
    /// it: a draw offer in a game without draws (checked for new requests only, so that such
    /// logs still load).
    ///
    /// # Errors
    /// The refusal, as a conflict.
    pub fn admit(&self, action: Action) -> Result<(), ActionError> {
        let info = self.game.kind().info();
        if matches!(action, Action::DrawOffer | Action::DrawAccept) && !info.draws_possible {
            return Err(conflict(format!(
                "{} has no draws: every game ends with a winner",
                info.title
            )));
        }
        Ok(())
    }

    /// Whether the game has ended, by its rules or otherwise.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.ending.is_some() || self.game.outcome().is_some()
    }

    /// The seat to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Seat> {
        (!self.finished()).then(|| self.game.to_move())
    }

    /// The computer seat that must move now, if any.
    #[must_use]
    pub fn computer_to_move(&self, meta: &Meta) -> Option<Seat> {
        self.to_move().filter(|&s| meta.player(s).is_computer())
    }

    /// Checks `action` by `seat` and applies it; returns the data to store (a move's
    /// canonical notation). On error nothing changes.
    ///
    /// # Errors
    /// As [`ActionError`].
    pub fn apply(
        &mut self,
        meta: &Meta,
        seat: Seat,
        action: Action,
        data: &str,
        at_ms: i64,
    ) -> Result<String, ActionError> {
        let before = self.declined;
        let mover = self.to_move();
        self.check_clock(seat, action, at_ms)?;
        let stored = self.check_and_apply(meta, seat, action, data)?;
        if self.declined == before {
            // A declined offer is news until the next action.
            self.declined = None;
        }
        let after = self.to_move();
        if let Some(c) = &mut self.clocks {
            if let Some(m) = mover {
                let left = c.left_at(m.index(), true, at_ms);
                if action == Action::Move {
                    c.left_ms[m.index()] = c.control.after_move(left);
                } else if after != mover {
                    // The turn passed otherwise (a take-back, the end): the time used stays used.
                    c.left_ms[m.index()] = left;
                }
            }
            if action == Action::Move || after != mover {
                c.turn_started_ms = at_ms;
            }
        }
        self.version += 1;
        self.updated_ms = at_ms;
        Ok(stored)
    }

    /// Refuses a move made after the mover's time ran out, and a flag of a seat whose time
    /// has not.
    fn check_clock(&self, seat: Seat, action: Action, at_ms: i64) -> Result<(), ActionError> {
        let out = self.flag_due(at_ms);
        match action {
            Action::Move if out == Some(seat) => Err(over(format!(
                "the {seat} seat's time has run out: the game is lost on time"
            ))),
            Action::Flag if out != Some(seat) => {
                Err(conflict(format!("the {seat} seat has not run out of time")))
            }
            _ => Ok(()),
        }
    }

    /// The seat to move, if its time has run out at `now_ms`.
    #[must_use]
    pub fn flag_due(&self, now_ms: i64) -> Option<Seat> {
        let (c, seat) = (self.clocks.as_ref()?, self.to_move()?);
        (c.left_at(seat.index(), true, now_ms) <= 0).then_some(seat)
    }

    /// When the side to move runs out of time, if the game has a clock and is going on.
    #[must_use]
    pub fn deadline(&self) -> Option<i64> {
        let (c, seat) = (self.clocks.as_ref()?, self.to_move()?);
        Some(c.deadline(seat.index()))
    }

    fn ended_message(&self) -> String {
        match (self.ending, self.game.outcome()) {
            (Some(Ending::Resigned(s)), _) => format!("the game is over: the {s} seat resigned"),
            (Some(Ending::Agreed), _) => "the game is over: drawn by agreement".to_string(),
            (Some(Ending::Flagged(s)), _) => {
                format!("the game is over: the {s} seat ran out of time")
            }
            (Some(Ending::Aborted(s)), _) => {
                format!("the game was aborted: the {s} seat never made its first move")
            }
            (None, Some(o)) => format!("the game is over: {o}"),
            (None, None) => "the game is not over".to_string(),
        }
    }

    /// The position after the first `ply` moves.
    ///
    /// # Errors
    /// `ply` beyond the moves played.
    pub fn position_at(&self, ply: usize) -> Result<AnyGame, String> {
        if ply > self.moves.len() {
            return Err(format!(
                "ply {ply} is out of range; accepted: 0 to {}",
                self.moves.len()
            ));
        }
        let mut game = AnyGame::clone(&self.start);
        for m in &self.moves[..ply] {
            game.play_text(&m.text)
                .map_err(|e| format!("cannot replay move '{}': {e}", m.text))?;
        }
        Ok(game)
    }

    fn lost(&self, loser: Seat, what: &str, termination: &'static str) -> GameResult {
        GameResult::lost(&self.game, loser, what, termination)
    }

    /// The result as a game record writes it, with how the game ended.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        match self.ending {
            Some(Ending::Resigned(loser)) => Some(self.lost(loser, "resigned", "resignation")),
            Some(Ending::Flagged(loser)) => Some(self.lost(loser, "ran out of time", "time")),
            Some(Ending::Aborted(seat)) => Some(GameResult {
                winner: None,
                colour: None,
                draw: false,
                tag: "aborted".into(),
                reason: match self.game.colour_of(seat) {
                    Some(c) => format!("aborted: {} never made a first move", c.title()),
                    None => format!("aborted: the {seat} player never made a first move"),
                },
                termination: "aborted",
                outcome: None,
            }),
            Some(Ending::Agreed) => Some(GameResult {
                winner: None,
                colour: None,
                draw: true,
                tag: "draw".into(),
                reason: "drawn by agreement".into(),
                termination: "agreement",
                outcome: None,
            }),
            None => self.game.outcome().map(GameResult::by_rules),
        }
    }

    /// The game record: options, seed, seats, moves and result.
    #[must_use]
    pub fn record(&self, meta: &Meta) -> GameRecord {
        let result = self.result();
        GameRecord {
            game: meta.kind.name().to_string(),
            options: meta.options.to_map(),
            seed: meta.seed,
            position: meta.position.clone(),
            seats: SeatNames {
                first: meta.players[0].to_string(),
                second: meta.players[1].to_string(),
            },
            moves: self.moves.iter().map(|m| m.text.clone()).collect(),
            termination: result
                .as_ref()
                .filter(|r| r.termination != "rules")
                .map(|r| r.termination.to_string()),
            // An aborted game has no result: a record says "*".
            result: result.filter(|r| r.termination != "aborted").map(|r| r.tag),
            started: Some(crate::rfc3339(meta.created_ms)),
            finished: self.finished().then(|| crate::rfc3339(self.updated_ms)),
            notes: Vec::new(),
        }
    }
}

/// A game as it stands at one version: what the answer to the change that made it and every
/// live client told of it are written from, once.
#[derive(Debug)]
pub struct GameState {
    pub meta: Arc<Meta>,
    pub live: Arc<Live>,
    written: OnceLock<String>,
    message: OnceLock<Arc<str>>,
}

impl GameState {
    /// The game `meta` in the state `live`.
    #[must_use]
    pub fn new(meta: Arc<Meta>, live: Arc<Live>) -> GameState {
        GameState {
            meta,
            live,
            written: OnceLock::new(),
            message: OnceLock::new(),
        }
    }

    /// The state as `write` puts it, written on the first call.
    pub fn written(&self, write: impl FnOnce(&Meta, &Live) -> String) -> &str {
        self.written.get_or_init(|| write(&self.meta, &self.live))
    }

    /// The state as `write` puts it, taken whole when nobody else holds this state (no live
    /// client was told of it), else copied.
    pub fn into_written(self: Arc<Self>, write: impl FnOnce(&Meta, &Live) -> String) -> String {
        match Arc::try_unwrap(self) {
            Ok(state) => match state.written.into_inner() {
                Some(text) => text,
                None => write(&state.meta, &state.live),
            },
            Err(shared) => shared.written(write).to_string(),
        }
    }

    /// The live message carrying the state: `wrap` around what `write` puts, written on the
    /// first call.
    pub fn message(
        &self,
        write: impl FnOnce(&Meta, &Live) -> String,
        wrap: impl FnOnce(&str) -> String,
    ) -> Arc<str> {
        Arc::clone(
            self.message
                .get_or_init(|| Arc::from(wrap(self.written(write)))),
        )
    }
}

pub use boardlab_games::view::GameResult;

mod actions;
#[cfg(test)]
mod tests;
