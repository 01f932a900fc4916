//! Who acts in a game, and which seat an action is for.

//! The games service: the cache of live games and every change to a game. A change is checked
//! against the state rebuilt from the game's log, committed, and only then shown and told to
//! the game's watchers; on PostgreSQL each change is checked against the stored version, so
//! servers sharing a database stay in step.

use crate::error::ApiError;
use crate::state::{Action, Live, Meta};
use boardlab_core::Seat;

/// Who acts.
#[derive(Clone, Debug)]
pub enum Actor {
    /// A person holding a seat token, signed in to an account (by its id), both or neither.
    Person {
        token: Option<String>,
        account: Option<String>,
    },
    /// The computer playing `seat`.
    Computer(Seat),
    /// The server's clock, flagging `seat`.
    Clock(Seat),
}

impl Actor {
    /// A person known by a token only.
    #[must_use]
    pub fn token(token: Option<String>) -> Actor {
        Actor::Person {
            token,
            account: None,
        }
    }
}

/// The seat `actor` acts for with `action`, or why it may not.
pub(super) fn resolve_seat(
    meta: &Meta,
    live: &Live,
    actor: &Actor,
    action: Action,
) -> Result<Seat, ApiError> {
    let (token, account) = match actor {
        Actor::Computer(seat) | Actor::Clock(seat) => return Ok(*seat),
        Actor::Person {
            token: None,
            account: None,
        } => {
            return Err(ApiError::forbidden(
                "missing token: send the seat's token as \"token\", or sign in",
            ))
        }
        Actor::Person { token, account } => (token, account),
    };
    let mut seats = Vec::new();
    if let Some(t) = token {
        // A seat whose invite link was used answers to the token given at the join; the
        // link's token only reaches it to be told that it was used.
        seats = meta.seats_of(t);
        if action != Action::Join {
            seats.retain(|s| live.joined[s.index()].is_none());
        }
        for seat in Seat::BOTH {
            if let Some(digest) = &live.joined[seat.index()] {
                if crate::token::matches(t, digest) && !seats.contains(&seat) {
                    seats.push(seat);
                }
            }
        }
    }
    if let Some(account) = account {
        // A signed-in player holds the seats of their account (claims need the token).
        if action != Action::Claim {
            for seat in Seat::BOTH {
                let theirs = live.accounts[seat.index()]
                    .as_ref()
                    .is_some_and(|a| &a.id == account);
                if theirs && !seats.contains(&seat) {
                    seats.push(seat);
                }
            }
        }
    }
    match seats.as_slice() {
        [] if token.is_none() => Err(ApiError::forbidden(
            "no seat of this game belongs to your account",
        )),
        [] => Err(ApiError::forbidden(
            "wrong token: it holds no seat of this game",
        )),
        [seat] => {
            if action == Action::Move && !live.finished() && live.game.to_move() != *seat {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!(
                        "it is not the {seat} seat's turn: the {} seat is to move",
                        live.game.to_move()
                    ),
                ));
            }
            Ok(*seat)
        }
        _ => Ok(live.game.to_move()),
    }
}
