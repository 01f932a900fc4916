//! The actions on a game: each checked against the game's state and the rules of the table
//! (turns, offers and their answers, take-backs, rematches, invite links, clocks, claims),
//! then applied.

use super::{
    conflict, over, Action, ActionError, Ending, Live, Meta, Played, SeatAccount, FLAG_ABORT,
};
use crate::player::Player;
use crate::token;
use boardlab_core::Seat;
use boardlab_games::AnyGame;

impl Live {
    pub(super) fn check_and_apply(
        &mut self,
        meta: &Meta,
        seat: Seat,
        action: Action,
        data: &str,
    ) -> Result<String, ActionError> {
        match action {
            Action::Move => self.play_move(seat, data),
            Action::Resign => self.resign(seat),
            Action::DrawOffer | Action::DrawAccept | Action::DrawDecline => {
                self.draw(meta, seat, action)
            }
            Action::UndoRequest | Action::UndoAccept | Action::UndoDecline => {
                self.undo(meta, seat, action)
            }
            Action::RematchOffer | Action::RematchAccept | Action::RematchDecline => {
                self.rematch_step(meta, seat, action, data)
            }
            Action::Join => self.join(meta, seat, data),
            Action::Flag => self.flag(seat, data),
            Action::Claim => self.claim(meta, seat, data),
        }
    }

    /// A move by `seat`; its notation.
    fn play_move(&mut self, seat: Seat, data: &str) -> Result<String, ActionError> {
        let other = seat.other();
        if self.finished() {
            return Err(over(self.ended_message()));
        }
        let to_move = self.game.to_move();
        if seat != to_move {
            return Err(ActionError::Conflict {
                code: "not_your_turn",
                message: format!("it is not the {seat} seat's turn: the {to_move} seat is to move"),
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

    /// `seat` resigns.
    fn resign(&mut self, seat: Seat) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
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

    /// A draw offered, accepted or declined by `seat`.
    fn draw(&mut self, meta: &Meta, seat: Seat, action: Action) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
        let other = seat.other();
        match action {
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
            _ => unreachable!("{action} is not a draw"),
        }
    }

    /// A take-back asked for, accepted or declined by `seat`.
    fn undo(&mut self, meta: &Meta, seat: Seat, action: Action) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
        let other = seat.other();
        match action {
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
            _ => unreachable!("{action} is not a take-back"),
        }
    }

    /// A rematch offered, accepted (`data`: the new game's id) or declined by `seat`.
    fn rematch_step(
        &mut self,
        meta: &Meta,
        seat: Seat,
        action: Action,
        data: &str,
    ) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
        let other = seat.other();
        match action {
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
            _ => unreachable!("{action} is not an answer to a rematch"),
        }
    }

    /// `seat` joins by its invite link (`data`: the new token's digest).
    fn join(&mut self, meta: &Meta, seat: Seat, data: &str) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
        let other = seat.other();
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
        let digest = token::hash_from_hex(data)
            .ok_or_else(|| conflict("a join carries the new token's digest as 64 hex digits"))?;
        self.joined[seat.index()] = Some(digest);
        Ok(data.to_string())
    }

    /// `seat` ran out of time (`data`: how it ends).
    fn flag(&mut self, seat: Seat, data: &str) -> Result<String, ActionError> {
        if self.finished() {
            return Err(over(self.ended_message()));
        }
        self.ending = Some(self.flag_ending(seat, data)?);
        self.draw_offer = None;
        self.undo_request = None;
        Ok(String::new())
    }

    /// `seat` (both, on one screen) becomes the account in `data`'s.
    fn claim(&mut self, meta: &Meta, seat: Seat, data: &str) -> Result<String, ActionError> {
        let solitaire = self.game.is_solitaire();
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
                        message: format!("the {s} seat belongs to the account {}", held.name),
                    });
                }
            }
        }
        for s in seats {
            self.accounts[s.index()] = Some(account.clone());
        }
        Ok(data.to_string())
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
}
