//! One game as the server keeps it: fixed facts ([`Meta`]), the append-only event log
//! ([`Event`]) and the state rebuilt from it by replaying every event through the rules
//! ([`Live`]). The same [`Live::apply`] checks a new action and replays a stored one, so
//! what was accepted once is accepted again after a restart.

use crate::player::Player;
use crate::token::{self, TokenHash};
use boardlab_core::{GameRecord, MoveError, NewGameError, Options, Outcome, Seat, SeatNames};
use boardlab_games::{AnyGame, GameKind};
use std::fmt;
use std::str::FromStr;

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

    fn check_and_apply(
        &mut self,
        meta: &Meta,
        seat: Seat,
        action: Action,
        data: &str,
    ) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
        let other = seat.other();
        match action {
            Action::Move => {
                if self.finished() {
                    return Err(over(self.ended_message()));
                }
                let to_move = self.game.to_move();
                if seat != to_move {
                    return Err(ActionError::Conflict {
                        code: "not_your_turn",
                        message: format!(
                            "it is not the {seat} seat's turn: the {to_move} seat is to move"
                        ),
                    });
                }
                let played = self.game.play_text(data).map_err(ActionError::Move)?;
                let text = played.notation;
                self.moves.push(Played {
                    text: text.clone(),
                    seat,
                    cells: played.touched,
                });
                if self.draw_offer == Some(other) || self.game.outcome().is_some() {
                    // Pending offers end with the game.
                    self.draw_offer = None;
                }
                self.undo_request = None;
                Ok(text)
            }
            Action::Resign => {
                if self.finished() {
                    return Err(over(self.ended_message()));
                }
                if solitaire {
                    return Err(conflict(
                        "a puzzle has no opponent to resign to; start a new one instead",
                    ));
                }
                self.ending = Some(Ending::Resigned(seat));
                self.draw_offer = None;
                self.undo_request = None;
                Ok(String::new())
            }
            Action::DrawOffer => {
                if self.finished() {
                    return Err(over(self.ended_message()));
                }
                if solitaire {
                    return Err(conflict("a puzzle cannot be drawn"));
                }
                if meta.player(other).is_computer() {
                    return Err(conflict("computer players do not accept draw offers"));
                }
                if self.draw_offer == Some(seat) {
                    return Err(conflict(format!(
                        "the {seat} seat has already offered a draw; wait for the answer"
                    )));
                }
                if meta.same_screen || self.draw_offer == Some(other) {
                    self.ending = Some(Ending::Agreed);
                    self.draw_offer = None;
                    self.undo_request = None;
                } else {
                    self.draw_offer = Some(seat);
                }
                Ok(String::new())
            }
            Action::DrawAccept => {
                if self.finished() {
                    return Err(over(self.ended_message()));
                }
                if self.draw_offer != Some(other) {
                    return Err(conflict(format!(
                        "the {other} seat has not offered a draw, so there is nothing to accept"
                    )));
                }
                self.ending = Some(Ending::Agreed);
                self.draw_offer = None;
                self.undo_request = None;
                Ok(String::new())
            }
            Action::DrawDecline => {
                if self.finished() {
                    return Err(over(self.ended_message()));
                }
                if self.draw_offer.is_none() {
                    return Err(conflict("no draw offer is pending"));
                }
                if self.draw_offer == Some(other) {
                    self.declined = Some(("draw", seat));
                }
                self.draw_offer = None;
                Ok(String::new())
            }
            Action::UndoRequest => {
                self.check_not_final(meta)?;
                let immediate = meta.same_screen || solitaire || meta.player(other).is_computer();
                let count = self.takeback_count(seat, meta.same_screen || solitaire);
                if count == 0 {
                    return Err(conflict(format!(
                        "nothing to take back: the {seat} seat has not moved"
                    )));
                }
                if immediate {
                    self.take_back(count)?;
                    self.undo_request = None;
                    self.draw_offer = None;
                } else {
                    match self.undo_request {
                        Some(s) if s == seat => {
                            return Err(conflict(format!(
                                "the {seat} seat has already asked to take back a move; wait \
                                 for the answer"
                            )))
                        }
                        Some(_) => {
                            return Err(conflict(format!(
                                "the {other} seat has asked to take back a move: accept or \
                                 decline that first"
                            )))
                        }
                        None => self.undo_request = Some(seat),
                    }
                }
                Ok(String::new())
            }
            Action::UndoAccept => {
                self.check_not_final(meta)?;
                if self.undo_request != Some(other) {
                    return Err(conflict(format!(
                        "the {other} seat has not asked to take back a move"
                    )));
                }
                let count = self.takeback_count(other, false);
                if count == 0 {
                    return Err(conflict(format!(
                        "nothing to take back: the {other} seat has not moved"
                    )));
                }
                self.take_back(count)?;
                self.undo_request = None;
                self.draw_offer = None;
                Ok(String::new())
            }
            Action::UndoDecline => {
                self.check_not_final(meta)?;
                if self.undo_request.is_none() {
                    return Err(conflict("no take-back request is pending"));
                }
                if self.undo_request == Some(other) {
                    self.declined = Some(("undo", seat));
                }
                self.undo_request = None;
                Ok(String::new())
            }
            Action::RematchOffer => {
                self.check_rematch(solitaire)?;
                if self.rematch_offer == Some(seat) {
                    return Err(conflict(format!(
                        "the {seat} seat has already offered a rematch; wait for the answer"
                    )));
                }
                if self.rematch_offer == Some(other) {
                    return Err(conflict(format!(
                        "the {other} seat offers a rematch already: accept it instead"
                    )));
                }
                let rated = self.rematch_rated_by(data)?;
                self.rematch_offer = Some(seat);
                self.rematch_rated = rated;
                Ok(data.to_string())
            }
            Action::RematchAccept => {
                self.check_rematch(solitaire)?;
                let at_once = meta.same_screen || meta.player(other).is_computer();
                if self.rematch_offer != Some(other) && !at_once {
                    return Err(conflict(format!(
                        "the {other} seat has not offered a rematch, so there is nothing to accept"
                    )));
                }
                if !crate::token::valid_game_id(data) {
                    return Err(conflict("a rematch names its new game's id"));
                }
                self.rematch_offer = None;
                self.rematch_rated = false;
                self.rematch = Some(data.to_string());
                Ok(data.to_string())
            }
            Action::RematchDecline => {
                if self.rematch_offer.is_none() {
                    return Err(conflict("no rematch offer is pending"));
                }
                if self.rematch_offer == Some(other) {
                    self.declined = Some(("rematch", seat));
                }
                self.rematch_offer = None;
                self.rematch_rated = false;
                Ok(String::new())
            }
            Action::Join => {
                if meta.same_screen || solitaire || meta.player(other).is_computer() {
                    return Err(conflict(
                        "only a game between two people on two screens has invite links",
                    ));
                }
                if self.joined[seat.index()].is_some() {
                    return Err(ActionError::Conflict {
                        code: "invite_used",
                        message: format!(
                            "this invite link has already been used: the {seat} seat is taken"
                        ),
                    });
                }
                let digest = token::hash_from_hex(data).ok_or_else(|| {
                    conflict("a join carries the new token's digest as 64 hex digits")
                })?;
                self.joined[seat.index()] = Some(digest);
                Ok(data.to_string())
            }
            Action::Flag => {
                if self.finished() {
                    return Err(over(self.ended_message()));
                }
                self.ending = Some(self.flag_ending(seat, data)?);
                self.draw_offer = None;
                self.undo_request = None;
                Ok(String::new())
            }
            Action::Claim => {
                if solitaire {
                    return Err(conflict("a puzzle has no seats to claim"));
                }
                let account = SeatAccount::from_data(data).map_err(conflict)?;
                let seats: &[Seat] = if meta.same_screen {
                    &Seat::BOTH
                } else {
                    std::slice::from_ref(&seat)
                };
                for s in seats {
                    if let Some(held) = &self.accounts[s.index()] {
                        if held.id != account.id {
                            return Err(ActionError::Conflict {
                                code: "claimed",
                                message: format!(
                                    "the {s} seat belongs to the account {}",
                                    held.name
                                ),
                            });
                        }
                    }
                }
                for s in seats {
                    self.accounts[s.index()] = Some(account.clone());
                }
                Ok(data.to_string())
            }
        }
    }

    /// Refuses a rematch before the game ends, in a puzzle, or after one was agreed.
    /// Refuses to change a game whose end is final: one ended by resignation, agreement,
    /// time or abort, and any finished game between two people on two screens (practice
    /// games, on one screen, against the computer or alone, may take back the last move).
    fn check_not_final(&self, meta: &Meta) -> Result<(), ActionError> {
        let practice = meta.same_screen
            || self.game.is_solitaire()
            || meta.players.iter().any(Player::is_computer);
        if self.ending.is_some() || (self.finished() && !practice) {
            return Err(over(self.ended_message()));
        }
        Ok(())
    }

    /// Whether a rematch offer with `data` is for a rated game (`rated`, between two
    /// accounts) or not (empty).
    fn rematch_rated_by(&self, data: &str) -> Result<bool, ActionError> {
        match data {
            "" => Ok(false),
            "rated" if self.accounts.iter().all(Option::is_some) => Ok(true),
            "rated" => Err(conflict(
                "a rated rematch needs both players signed in to their accounts",
            )),
            _ => Err(conflict("a rematch offer is rated or not")),
        }
    }

    /// How a flag of `seat` with `data` ends the game: lost on time, or, with
    /// [`FLAG_ABORT`], aborted (only when that seat never moved).
    fn flag_ending(&self, seat: Seat, data: &str) -> Result<Ending, ActionError> {
        let never_moved = !self.moves.iter().any(|m| m.seat == seat);
        match data {
            "" => Ok(Ending::Flagged(seat)),
            FLAG_ABORT if never_moved => Ok(Ending::Aborted(seat)),
            _ => Err(conflict(format!(
                "a game is aborted only when the {seat} seat has not moved"
            ))),
        }
    }

    /// What a flag of `seat` records: [`FLAG_ABORT`] when that seat never moved (the game is
    /// then aborted, not lost), else nothing.
    #[must_use]
    pub fn flag_data(&self, seat: Seat) -> &'static str {
        if self.moves.iter().any(|m| m.seat == seat) {
            ""
        } else {
            FLAG_ABORT
        }
    }

    fn check_rematch(&self, solitaire: bool) -> Result<(), ActionError> {
        if !self.finished() {
            return Err(conflict(
                "the game is not over: a rematch is offered once it has ended",
            ));
        }
        if solitaire {
            return Err(conflict(
                "a puzzle has no opponent for a rematch; start a new puzzle instead",
            ));
        }
        if let Some(id) = &self.rematch {
            return Err(ActionError::Conflict {
                code: "rematch_started",
                message: format!("the rematch has already started: game {id}"),
            });
        }
        Ok(())
    }

    /// How many moves a take-back by `seat` removes: its last move and every move after it
    /// (just the last move when one person plays both seats).
    fn takeback_count(&self, seat: Seat, last_only: bool) -> usize {
        if last_only {
            return usize::from(!self.moves.is_empty());
        }
        self.moves
            .iter()
            .rposition(|m| m.seat == seat)
            .map_or(0, |i| self.moves.len() - i)
    }

    fn take_back(&mut self, count: usize) -> Result<(), ActionError> {
        let keep = self.moves.len() - count;
        let mut game = AnyGame::clone(&self.start);
        for m in &self.moves[..keep] {
            game.play_text(&m.text)
                .map_err(|e| conflict(format!("cannot replay move '{}': {e}", m.text)))?;
        }
        self.game = game;
        self.moves.truncate(keep);
        Ok(())
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

    /// The result of a game `loser` lost other than by the rules: `what` they did, as
    /// `termination`.
    fn lost(&self, loser: Seat, what: &str, termination: &'static str) -> GameResult {
        let winner = loser.other();
        let colour = self.game.colour_of(winner);
        GameResult {
            winner: Some(winner),
            colour,
            draw: false,
            tag: colour.map_or_else(|| winner.name().to_string(), |c| c.name().into()),
            reason: match self.game.colour_of(loser) {
                Some(c) => format!("{c} {what}"),
                None => format!("the {loser} player {what}"),
            },
            termination,
            outcome: None,
        }
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
                    Some(c) => format!("aborted: {c} never made a first move"),
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

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<Seat>,
    pub colour: Option<boardlab_core::Colour>,
    pub draw: bool,
    /// The record's result tag: the winning colour, `draw`, `solved`, `score N`.
    pub tag: String,
    pub reason: String,
    /// `rules`, `resignation`, `agreement` or `time`.
    pub termination: &'static str,
    /// The rules' outcome when the rules ended the game.
    pub outcome: Option<Outcome>,
}

impl GameResult {
    /// The result of a game the rules ended with `outcome`.
    #[must_use]
    pub fn by_rules(outcome: Outcome) -> GameResult {
        GameResult {
            winner: outcome.winner(),
            colour: match outcome {
                Outcome::Win { colour, .. } => Some(colour),
                _ => None,
            },
            draw: matches!(outcome, Outcome::Draw { .. }),
            tag: outcome.tag(),
            reason: outcome.reason().to_string(),
            termination: "rules",
            outcome: Some(outcome),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Meta {
        Meta {
            id: "0".into(),
            kind: GameKind::named("sight-reduction").unwrap(),
            options: GameKind::named("sight-reduction")
                .unwrap()
                .info()
                .default_options(),
            seed: 4,
            position: None,
            players: [Player::Human, Player::Human],
            tokens: [None, None],
            same_screen: false,
            created_ms: 0,
            accounts: [None, None],
            rated: false,
            clock: None,
        }
    }

    /// Plays the game to its end, each mover offering a draw first (declining the other's
    /// offer before that); returns the log.
    fn log_with_an_offer_pending_at_the_end(meta: &Meta) -> (Live, Vec<Event>) {
        let mut live = Live::new(meta).unwrap();
        let mut events = Vec::new();
        let mut push = |live: &mut Live, seat, action, data: &str| {
            let data = live.apply(meta, seat, action, data, 0).unwrap();
            events.push(Event {
                seq: live.version,
                seat,
                action,
                data,
                at_ms: 0,
            });
        };
        while !live.finished() {
            let seat = live.game.to_move();
            if live.draw_offer == Some(seat.other()) {
                push(&mut live, seat, Action::DrawDecline, "");
            }
            push(&mut live, seat, Action::DrawOffer, "");
            let mv = live.game.legal_moves()[0].clone();
            push(&mut live, seat, Action::Move, &mv);
        }
        (live, events)
    }

    #[test]
    fn regression_21_an_offer_ends_with_the_game_and_cannot_be_answered_after() {
        let meta = meta();
        let (mut live, _) = log_with_an_offer_pending_at_the_end(&meta);
        assert_eq!(live.draw_offer, None);
        let last = live.moves.last().unwrap().seat;
        for (seat, action) in [
            (last.other(), Action::DrawDecline),
            (last.other(), Action::DrawAccept),
            (last, Action::DrawDecline),
        ] {
            let e = live.apply(&meta, seat, action, "", 0).unwrap_err();
            assert!(
                matches!(
                    e,
                    ActionError::Conflict {
                        code: "game_over",
                        ..
                    }
                ),
                "{e}"
            );
        }
    }

    #[test]
    fn a_declined_offer_is_told_until_the_next_action() {
        let meta = meta();
        let mut live = Live::new(&meta).unwrap();
        let first = Seat::First;
        live.apply(&meta, first, Action::DrawOffer, "", 0).unwrap();
        // Withdrawing one's own offer is no refusal.
        live.apply(&meta, first, Action::DrawDecline, "", 0)
            .unwrap();
        assert_eq!(live.declined, None);
        live.apply(&meta, first, Action::DrawOffer, "", 0).unwrap();
        live.apply(&meta, first.other(), Action::DrawDecline, "", 0)
            .unwrap();
        assert_eq!(live.declined, Some(("draw", first.other())));
        // A refused action changes nothing; the next applied one clears it.
        assert!(live
            .apply(&meta, first.other(), Action::DrawAccept, "", 0)
            .is_err());
        assert_eq!(live.declined, Some(("draw", first.other())));
        let mv = live.game.legal_moves()[0].clone();
        live.apply(&meta, first, Action::Move, &mv, 0).unwrap();
        assert_eq!(live.declined, None);
    }

    #[test]
    fn a_join_survives_a_reload_and_works_once() {
        let meta = meta();
        let mut live = Live::new(&meta).unwrap();
        let digest = token::to_hex(&token::hash("fresh"));
        let data = live
            .apply(&meta, Seat::Second, Action::Join, &digest, 0)
            .unwrap();
        let events = [Event {
            seq: 1,
            seat: Seat::Second,
            action: Action::Join,
            data,
            at_ms: 0,
        }];
        let replayed = Live::replay(&meta, &events).unwrap();
        assert_eq!(replayed.joined, [None, Some(token::hash("fresh"))]);
        let e = live
            .apply(&meta, Seat::Second, Action::Join, &digest, 0)
            .unwrap_err();
        assert!(
            matches!(
                e,
                ActionError::Conflict {
                    code: "invite_used",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn regression_21_logs_that_declined_an_offer_after_the_end_still_load() {
        let meta = meta();
        let (live, mut events) = log_with_an_offer_pending_at_the_end(&meta);
        // Written by an earlier server, which let the offer be declined after the end.
        events.push(Event {
            seq: live.version + 1,
            seat: live.moves.last().unwrap().seat.other(),
            action: Action::DrawDecline,
            data: String::new(),
            at_ms: 0,
        });
        let replayed = Live::replay(&meta, &events).unwrap();
        assert_eq!(replayed.version, live.version + 1);
        assert_eq!(replayed.moves, live.moves);
        assert!(replayed.finished());
    }
}
