//! The lobby: open challenges, to everyone or to one named player, and games against the
//! computer started at once from the same form. A challenge is taken once (the store deletes
//! it as it is taken) and its game then made for both players, their accounts holding the
//! seats. Every server sharing the database hears of each change ([`Notifier::lobby_changed`]).

use crate::error::ApiError;
use crate::player::Player;
use crate::services::computer::Computer;
use crate::services::games::{Games, NewGame};
use crate::services::notify::Notifier;
use crate::state::SeatAccount;
use crate::store::{ChallengeRow, Store};
use crate::{now_ms, token};
use boardlab_core::{Options, Seat};
use boardlab_games::GameKind;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// How long a challenge stays open, in hours.
pub const CHALLENGE_HOURS: i64 = 24;

/// A challenge for a game played now (real time or untimed) lapses when its author has had
/// no page of the app open for `--challenge-lapse` (90 s by default); correspondence
/// challenges wait the whole [`CHALLENGE_HOURS`]. An author with a page open is noted as
/// here three times in that time.
pub const DEFAULT_LAPSE_SECONDS: u64 = 90;

/// Most challenges one account may have open at once.
pub const MAX_OPEN: i64 = 20;

const HOUR_MS: i64 = 60 * 60 * 1000;

/// The oldest time a challenge may have been made at and still be open.
#[must_use]
pub fn open_since() -> i64 {
    now_ms() - CHALLENGE_HOURS * HOUR_MS
}

/// A challenge as its author asks for it.
#[derive(Debug)]
pub struct Challenge {
    pub kind: GameKind,
    pub options: Options,
    pub clock: Option<crate::clock::TimeControl>,
    /// Whether the game is played alone with these options.
    pub alone: bool,
    /// `first`, `second` or `random`.
    pub seat: String,
    pub rated: bool,
    /// A player's name (to them alone), `computer` or `computer:SPEC` (a game at once), or
    /// `None` (anyone).
    pub opponent: Option<String>,
}

/// What a challenge made.
#[derive(Debug, PartialEq, Eq)]
pub enum Posted {
    /// An open challenge, by id.
    Challenge(String),
    /// A game against the computer, started at once, by id.
    Game(String),
}

/// The lobby of the servers sharing one database.
#[derive(Debug)]
pub struct Lobby {
    store: Arc<Store>,
    games: Arc<Games>,
    computer: Arc<Computer>,
    notifier: Arc<Notifier>,
    /// How long after its author left a challenge for a game played now lapses.
    lapse: Duration,
}

impl Lobby {
    /// The lobby kept in `store`, making its games in `games`.
    #[must_use]
    pub fn new(
        store: Arc<Store>,
        games: Arc<Games>,
        computer: Arc<Computer>,
        notifier: Arc<Notifier>,
        lapse: Duration,
    ) -> Lobby {
        Lobby {
            store,
            games,
            computer,
            notifier,
            lapse,
        }
    }

    /// The oldest time an author of a challenge for a game played now may have been seen for
    /// it to be open.
    #[must_use]
    pub fn present_since(&self) -> i64 {
        now_ms() - i64::try_from(self.lapse.as_millis()).unwrap_or(i64::MAX)
    }

    /// How often a player with a page of the app open is noted as here.
    #[must_use]
    pub fn seen_every(&self) -> Duration {
        (self.lapse / 3).max(Duration::from_millis(200))
    }

    /// The open challenges `viewer` (an account id) may see.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn challenges(&self, viewer: Option<&str>) -> Result<Vec<ChallengeRow>, ApiError> {
        self.store
            .challenges(viewer, (open_since(), self.present_since()))
            .await
            .map_err(ApiError::storage)
    }

    /// Posts `challenge` for `me`, or starts its game against the computer at once for the
    /// client `owner`.
    ///
    /// # Errors
    /// 400 a game played alone, an unknown seat, a rated game against the computer, a
    /// computer player this server does not run, an unknown opponent or oneself; 409 too many
    /// challenges open; storage failures.
    pub async fn post(
        &self,
        me: &SeatAccount,
        challenge: Challenge,
        owner: &str,
    ) -> Result<Posted, ApiError> {
        if challenge.alone {
            return Err(ApiError::bad_request(
                "with these options the game is a puzzle played alone: there is no one to challenge",
            ));
        }
        let seat = challenge.seat.as_str();
        if !["first", "second", "random"].contains(&seat) {
            return Err(ApiError::bad_request(format!(
                "unknown seat '{seat}'; accepted: first, second, random"
            )));
        }
        let opponent = challenge.opponent.as_deref().map(str::trim);
        if let Some(spec) = opponent.filter(|o| o.to_ascii_lowercase().starts_with("computer")) {
            if challenge.rated {
                return Err(ApiError::bad_request(
                    "games against the computer are not rated",
                ));
            }
            let computer = Player::parse(spec).map_err(ApiError::bad_request)?;
            self.computer
                .admits(challenge.kind, &computer)
                .map_err(|e| ApiError::bad_request(format!("opponent: {e}")))?;
            return self.play_computer(me, challenge, computer, owner).await;
        }
        let opponent_id = match opponent {
            None | Some("") => None,
            Some(name) => Some(self.opponent(me, name).await?),
        };
        let row = ChallengeRow {
            id: token::new_token()[..16].to_string(),
            account_id: me.id.clone(),
            name: me.name.clone(),
            game: challenge.kind.name().to_string(),
            options: serde_json::to_string(&challenge.options.to_map())
                .expect("options serialise as JSON"),
            seat: seat.to_string(),
            rated: challenge.rated,
            opponent_id,
            opponent_name: None,
            created_ms: now_ms(),
            rating: None,
            clock: challenge.clock.map(|c| c.to_string()),
        };
        let made = self
            .store
            .create_challenge(&row, MAX_OPEN)
            .await
            .map_err(ApiError::storage)?;
        if !made {
            return Err(ApiError::conflict(
                "too_many_challenges",
                format!("you have {MAX_OPEN} challenges open already; cancel one first"),
            ));
        }
        self.notifier.lobby_changed().await;
        if let Some(opponent) = &row.opponent_id {
            // The player challenged hears of it wherever they are in the app.
            let news = serde_json::json!({
                "challenge": row.id, "from": me.name, "title": challenge.kind.info().title,
            });
            self.notifier
                .tell_account(opponent, &news.to_string())
                .await;
        }
        Ok(Posted::Challenge(row.id))
    }

    /// The account id of the player named `name`, whom `me` challenges.
    async fn opponent(&self, me: &SeatAccount, name: &str) -> Result<String, ApiError> {
        let found = self
            .store
            .account_by_name(name)
            .await
            .map_err(ApiError::storage)?
            .ok_or_else(|| {
                ApiError::bad_request(format!("no player named '{}'", crate::error::shorten(name)))
            })?;
        if found.id == me.id {
            return Err(ApiError::bad_request("you cannot challenge yourself"));
        }
        Ok(found.id)
    }

    /// A game against `computer` started at once from the lobby's form, `me` in the
    /// challenge's seat by their account.
    async fn play_computer(
        &self,
        me: &SeatAccount,
        challenge: Challenge,
        computer: Player,
        owner: &str,
    ) -> Result<Posted, ApiError> {
        let mine = pick_seat(&challenge.seat);
        let mut players = [Player::Human, Player::Human];
        players[mine.other().index()] = computer;
        let mut accounts = [None, None];
        accounts[mine.index()] = Some(me.clone());
        let new = NewGame {
            kind: challenge.kind,
            options: challenge.options,
            seed: rand::random(),
            position: None,
            players,
            same_screen: false,
            token_hashes: Some([None, None]),
            accounts,
            rated: false,
            clock: challenge.clock,
        };
        let (id, _, _) = self.games.create(new, owner).await?;
        Ok(Posted::Game(id))
    }

    /// Takes challenge `id` for `me` and starts its game for both players; the game's id. A
    /// challenge can be taken once.
    ///
    /// # Errors
    /// 404 a challenge no longer open; storage failures.
    pub async fn accept(
        self: &Arc<Self>,
        id: &str,
        me: SeatAccount,
        owner: &str,
    ) -> Result<String, ApiError> {
        let gone = || {
            ApiError::not_found(
                "this challenge is no longer open: it was accepted, withdrawn or expired",
            )
        };
        if !token::valid_game_id(id) {
            return Err(gone());
        }
        let Some(c) = self
            .store
            .take_challenge(id, &me.id, (open_since(), self.present_since()))
            .await
            .map_err(ApiError::storage)?
        else {
            return Err(gone());
        };
        // The challenge is taken: its game is made in a task of its own, so a client that hangs
        // up now cannot leave a challenge deleted and no game made.
        let lobby = Arc::clone(self);
        let owner = owner.to_string();
        tokio::spawn(async move { lobby.start(c, &me, &owner).await })
            .await
            .map_err(|e| ApiError::internal(e.to_string()))?
    }

    /// Starts the game of a challenge just taken by `me`; its id.
    async fn start(
        &self,
        c: ChallengeRow,
        me: &SeatAccount,
        owner: &str,
    ) -> Result<String, ApiError> {
        self.notifier.lobby_changed().await;
        let kind: GameKind = c
            .game
            .parse()
            .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
        let pairs: BTreeMap<String, String> =
            serde_json::from_str(&c.options).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let options = kind
            .info()
            .options_from_pairs(&pairs)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let author_name = self
            .store
            .account_name(&c.account_id)
            .await
            .map_err(ApiError::storage)?
            .unwrap_or_default();
        let theirs = pick_seat(&c.seat);
        let mut accounts = [None, None];
        accounts[theirs.index()] = Some(SeatAccount {
            id: c.account_id.clone(),
            name: author_name,
        });
        accounts[theirs.other().index()] = Some(me.clone());
        let clock = c
            .clock
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(ApiError::bad_request)?;
        let new = NewGame {
            kind,
            options,
            seed: rand::random(),
            position: None,
            players: [Player::Human, Player::Human],
            same_screen: false,
            token_hashes: Some([None, None]),
            accounts,
            rated: c.rated,
            clock,
        };
        let (game, _, _) = self.games.create(new, owner).await?;
        self.notifier.tell_started(&c.account_id, &game).await;
        Ok(game)
    }

    /// Withdraws challenge `id` of the account `account`.
    ///
    /// # Errors
    /// 404 no such open challenge of theirs; storage failures.
    pub async fn cancel(&self, id: &str, account: &str) -> Result<(), ApiError> {
        let done = token::valid_game_id(id)
            && self
                .store
                .cancel_challenge(id, account)
                .await
                .map_err(ApiError::storage)?;
        if !done {
            return Err(ApiError::not_found(
                "you have no open challenge with that id",
            ));
        }
        self.notifier.lobby_changed().await;
        Ok(())
    }

    /// Notes, now and now and then while the guard lives, that the player `account` has a
    /// page of the app open: their challenges stay open.
    #[must_use]
    pub fn keep_seen(&self, account: String) -> SeenGuard {
        let store = Arc::clone(&self.store);
        let every = self.seen_every();
        SeenGuard(tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                if let Err(e) = store.author_seen(&account, now_ms()).await {
                    tracing::warn!("cannot note that a player is here: {e}");
                }
            }
        }))
    }
}

/// The seat `first`, `second`, or one drawn at random.
fn pick_seat(seat: &str) -> Seat {
    match seat {
        "first" => Seat::First,
        "second" => Seat::Second,
        _ => {
            if rand::random::<bool>() {
                Seat::First
            } else {
                Seat::Second
            }
        }
    }
}

/// Keeps noting that a player is here until dropped.
#[derive(Debug)]
pub struct SeenGuard(tokio::task::JoinHandle<()>);

impl Drop for SeenGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}
