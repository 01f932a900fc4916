//! Accounts and sessions (optional: anonymous play needs none). A player signs up with a name
//! and a password, and is then known by a session:
//!
//! - Passwords are hashed with Argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes)
//!   on a few threads of their own ([`crate::hashing`]), and never logged, stored or
//!   returned as written.
//! - A session is a 128-bit secret; the database keeps only its SHA-256 digest. Every log-in
//!   makes a new session, so a session id planted before the log-in is worth nothing after it
//!   (no session fixation).
//! - Failed log-ins are limited per account name across servers, except from the account's
//!   known devices ([`crate::services::logins`]).
//! - A player's games are read from their side: their seat, their opponent, their result.

use crate::error::ApiError;
use crate::hashing::Hasher;
use crate::services::logins;
use crate::state::SeatAccount;
use crate::store::{name_key, AccountRow, Listed, RatingRow, Store};
use crate::{now_ms, token};
use axum::http::StatusCode;
use boardlab_core::Seat;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The shortest and longest account names.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;

/// The shortest and longest passwords, in characters.
pub const PASSWORD_LENGTH: std::ops::RangeInclusive<usize> = 8..=128;

/// How long a session lasts, in days.
pub const SESSION_DAYS: i64 = 30;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Most games a player page reads to count records.
const PLAYER_GAMES: i64 = 1000;

/// Checks a new account's name.
///
/// # Errors
/// What is wrong with it.
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !NAME_LENGTH.contains(&n) {
        return Err(format!(
            "a name has {} to {} characters",
            NAME_LENGTH.start(),
            NAME_LENGTH.end()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("a name has only letters a–z, digits, '_' and '-'".into());
    }
    Ok(())
}

/// Checks a new password's length.
///
/// # Errors
/// What is wrong with it.
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if !PASSWORD_LENGTH.contains(&n) {
        return Err(format!(
            "a password has {} to {} characters",
            PASSWORD_LENGTH.start(),
            PASSWORD_LENGTH.end()
        ));
    }
    Ok(())
}

/// A new session: its secret, and the secret of a new known device when the browser was not
/// one of the account's yet.
#[derive(Debug)]
pub struct NewSession {
    pub secret: String,
    pub device: Option<String>,
}

/// A signed-in player, found by their session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOf {
    pub account: SeatAccount,
    /// The digest of the session's secret, in hex.
    pub digest: String,
}

/// One game from one player's side.
#[derive(Debug)]
pub struct PlayerGame {
    pub game: Listed,
    /// The player's seat (`None`: both, on one screen).
    pub seat: Option<Seat>,
    /// The other seat's account name, if it has one.
    pub opponent: Option<String>,
    /// The other seat's player (`human` or `computer:SPEC`).
    pub opponent_player: String,
    /// Whether it is this player's move.
    pub your_turn: bool,
    /// `won`, `lost`, `drawn`, `finished` or `ongoing`.
    pub outcome: &'static str,
}

/// One point of a rating's history: when (ms), rating, deviation.
pub type RatingPoint = (i64, f64, f64);

/// Finished games against one opponent, or in all: won, lost, drawn.
pub type Record = [u32; 3];

/// A player's page: their games, records and ratings.
#[derive(Debug)]
pub struct Profile {
    pub name: String,
    /// Each rating with its history: when, rating, deviation.
    pub ratings: Vec<(RatingRow, Vec<RatingPoint>)>,
    pub record: Record,
    /// Per named opponent.
    pub head_to_head: BTreeMap<String, Record>,
    /// The games asked for.
    pub games: Vec<PlayerGame>,
}

/// Which games of a player to read.
#[derive(Debug, Default)]
pub struct GamesWanted<'a> {
    /// One game's name, or all.
    pub game: Option<&'static str>,
    /// `won`, `lost`, `drawn` or `ongoing`, or all.
    pub result: Option<&'a str>,
    pub limit: i64,
}

/// The accounts kept in the store.
#[derive(Debug)]
pub struct Accounts {
    store: Arc<Store>,
    /// The password-hashing threads.
    pub hasher: Hasher,
    /// Failed log-ins one account name (or known device) may have per minute (0: no limit).
    logins_per_minute: u32,
}

impl Accounts {
    /// The accounts of `store`, hashing with `hasher`.
    #[must_use]
    pub fn new(store: Arc<Store>, hasher: Hasher, logins_per_minute: u32) -> Accounts {
        Accounts {
            store,
            hasher,
            logins_per_minute,
        }
    }

    /// A new account named `name` with `password`.
    ///
    /// # Errors
    /// 400 a name or password out of bounds, 409 a name taken, 503 the hashing queue full;
    /// storage failures.
    pub async fn sign_up(&self, name: String, password: String) -> Result<SeatAccount, ApiError> {
        check_name(&name).map_err(ApiError::bad_request)?;
        check_password(&password).map_err(ApiError::bad_request)?;
        let hash = self
            .hasher
            .hash(password)
            .await
            .map_err(ApiError::from_hashing)?;
        let account = AccountRow {
            id: token::new_token()[..16].to_string(),
            name,
            password: hash,
        };
        let made = self
            .store
            .create_account(&account, now_ms())
            .await
            .map_err(ApiError::storage)?;
        if !made {
            return Err(ApiError::conflict(
                "name_taken",
                format!("the name '{}' is taken; choose another", account.name),
            ));
        }
        Ok(SeatAccount {
            id: account.id,
            name: account.name,
        })
    }

    /// The account of `name` when `password` is right, tried from the device whose secret
    /// is `device`.
    ///
    /// # Errors
    /// 401 wrong name or password, 429 the allowance of failed log-ins spent, 503 the
    /// hashing queue full; storage failures.
    pub async fn log_in(
        &self,
        name: &str,
        password: String,
        device: Option<&str>,
    ) -> Result<SeatAccount, ApiError> {
        if name.len() > 64 || password.len() > 4 * PASSWORD_LENGTH.end() {
            return Err(wrong_login());
        }
        let found = self
            .store
            .account_by_name(name)
            .await
            .map_err(ApiError::storage)?;
        let attempt = logins::admit(
            &self.store,
            self.logins_per_minute,
            (device, name, found.as_ref().map(|a| a.id.as_str())),
        )
        .await?;
        let stored = found.as_ref().map(|a| a.password.clone());
        let right = self
            .hasher
            .verify(password, stored)
            .await
            .map_err(ApiError::from_hashing)?;
        let Some(account) = found.filter(|_| right) else {
            logins::failed(&self.store, self.logins_per_minute, &attempt).await;
            return Err(wrong_login());
        };
        Ok(SeatAccount {
            id: account.id,
            name: account.name,
        })
    }

    /// Opens a session for `account`, signing in from the device whose secret is `device`.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn open_session(
        &self,
        account: &SeatAccount,
        device: Option<&str>,
    ) -> Result<NewSession, ApiError> {
        let secret = token::new_token();
        let digest = token::to_hex(&token::hash(&secret));
        self.store
            .create_session(&digest, &account.id, now_ms())
            .await
            .map_err(ApiError::storage)?;
        let device = logins::remember_device(&self.store, device, &account.id).await?;
        Ok(NewSession { secret, device })
    }

    /// The player signed in by the session whose secret is `secret`, if it is still open.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn session(&self, secret: &str) -> Result<Option<SessionOf>, ApiError> {
        let digest = token::to_hex(&token::hash(secret));
        let found = self
            .store
            .session(&digest, now_ms() - SESSION_DAYS * DAY_MS)
            .await
            .map_err(ApiError::storage)?;
        Ok(found.map(|(id, name)| SessionOf {
            account: SeatAccount { id, name },
            digest,
        }))
    }

    /// Ends the session whose secret is `secret`, if there is one (a failure is ignored: the
    /// session then ends with its time).
    pub async fn forget_session(&self, secret: &str) {
        let _ = self
            .store
            .delete_session(&token::to_hex(&token::hash(secret)))
            .await;
    }

    /// Ends the session whose digest is `digest`.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn end_session(&self, digest: &str) -> Result<(), ApiError> {
        self.store
            .delete_session(digest)
            .await
            .map_err(ApiError::storage)
    }

    /// Ends every session of `account`; how many there were.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn end_sessions(&self, account: &str) -> Result<u64, ApiError> {
        self.store
            .delete_sessions(account, now_ms() - SESSION_DAYS * DAY_MS)
            .await
            .map_err(ApiError::storage)
    }

    /// `account`'s games as `wanted`: those where it is their move first, then the others
    /// going on, then finished ones, most recently changed first.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn games(
        &self,
        account: &SeatAccount,
        wanted: &GamesWanted<'_>,
    ) -> Result<Vec<PlayerGame>, ApiError> {
        let rows = self
            .store
            .account_games(&account.id, wanted.game, wanted.limit)
            .await
            .map_err(ApiError::storage)?;
        Ok(rows
            .into_iter()
            .map(|l| player_game(l, &account.name))
            .filter(|g| wanted.result.is_none_or(|r| r == g.outcome))
            .collect())
    }

    /// The page of the player named `name`: the games `wanted`, their record in all and
    /// against each named opponent, and their ratings.
    ///
    /// # Errors
    /// 404 no such player; storage failures.
    pub async fn profile(&self, name: &str, wanted: &GamesWanted<'_>) -> Result<Profile, ApiError> {
        let unknown =
            || ApiError::not_found(format!("no player named '{}'", crate::error::shorten(name)));
        if check_name(name).is_err() {
            return Err(unknown());
        }
        let account = self
            .store
            .account_by_name(name)
            .await
            .map_err(ApiError::storage)?
            .ok_or_else(unknown)?;
        let all = self
            .games(
                &SeatAccount {
                    id: account.id.clone(),
                    name: account.name.clone(),
                },
                &GamesWanted {
                    game: wanted.game,
                    result: None,
                    limit: PLAYER_GAMES,
                },
            )
            .await?;
        // Head to head: finished games against each named opponent.
        let mut head_to_head: BTreeMap<String, Record> = BTreeMap::new();
        let mut record = [0u32; 3];
        for g in &all {
            let i = match g.outcome {
                "won" => 0,
                "lost" => 1,
                "drawn" => 2,
                _ => continue,
            };
            record[i] += 1;
            if let Some(o) = &g.opponent {
                head_to_head.entry(o.clone()).or_default()[i] += 1;
            }
        }
        let games = all
            .into_iter()
            .filter(|g| wanted.result.is_none_or(|r| r == g.outcome))
            .take(usize::try_from(wanted.limit).unwrap_or(50))
            .collect();
        Ok(Profile {
            ratings: self.ratings_with_history(&account.id).await?,
            name: account.name,
            record,
            head_to_head,
            games,
        })
    }

    /// Each rating of `account` with its history (one point per rated game).
    async fn ratings_with_history(
        &self,
        account: &str,
    ) -> Result<Vec<(RatingRow, Vec<RatingPoint>)>, ApiError> {
        let mut out = Vec::new();
        for r in self
            .store
            .ratings_of(account)
            .await
            .map_err(ApiError::storage)?
        {
            let history = self
                .store
                .rating_history(account, &r.game)
                .await
                .map_err(ApiError::storage)?;
            out.push((r, history));
        }
        Ok(out)
    }
}

fn wrong_login() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "wrong_login",
        "wrong name or password",
    )
}

/// Game `l` from the side of the player named `name`.
fn player_game(l: Listed, name: &str) -> PlayerGame {
    let key = name_key(name);
    let holds = |i: usize| l.accounts[i].as_deref().is_some_and(|n| name_key(n) == key);
    let seat = match (holds(0), holds(1)) {
        (true, false) => Some(Seat::First),
        (false, true) => Some(Seat::Second),
        _ => None,
    };
    let opponent = seat.and_then(|s| l.accounts[s.other().index()].clone());
    let opponent_player = match seat {
        Some(Seat::First) => l.second_player.clone(),
        Some(Seat::Second) => l.first_player.clone(),
        None => "human".to_string(),
    };
    let your_turn = l
        .to_move
        .as_deref()
        .is_some_and(|t| seat.is_none_or(|s| s.name() == t));
    let outcome = if l.status != "finished" {
        "ongoing"
    } else {
        match (&l.winner, seat) {
            (Some(w), Some(s)) if w == s.name() => "won",
            (Some(_), Some(_)) => "lost",
            _ if l.result.as_deref() == Some("draw") => "drawn",
            _ => "finished",
        }
    };
    PlayerGame {
        game: l,
        seat,
        opponent,
        opponent_player,
        your_turn,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords_are_checked() {
        assert!(check_name("ada_99").is_ok());
        assert!(check_name("ab").is_err());
        assert!(check_name("a b c").is_err());
        assert!(check_name("ünïcode").is_err());
        assert!(check_name(&"x".repeat(21)).is_err());
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
    }
}
