//! Games and their event logs: what a game is made of, its log in order, and the lists of games.

use super::{Store, StoreError};
use crate::state::{Action, Event};
use boardlab_core::Seat;
use sqlx::Row;

/// A game's fixed facts as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    /// Non-default options as a JSON object.
    pub options: String,
    pub seed: u64,
    pub position: Option<String>,
    pub first_player: String,
    pub second_player: String,
    /// Token digests in hex.
    pub first_token: Option<String>,
    pub second_token: Option<String>,
    pub same_screen: bool,
    pub created_ms: i64,
    /// The accounts holding the seats when the game was read: `(id, name)`.
    pub accounts: [Option<(String, String)>; 2],
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The time control (`5+3`, `3d`), if the game has a clock.
    pub clock: Option<String>,
}

/// The summary kept beside a game for listings and sweeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub version: i64,
    /// `ongoing` or `finished`.
    pub status: &'static str,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: i64,
    pub to_move: Option<Seat>,
    pub computer_to_move: bool,
    pub updated_ms: i64,
    /// The ids of the accounts holding the seats.
    pub accounts: [Option<String>; 2],
    /// The winning seat of a finished game (`None` for a draw or a game going on).
    pub winner: Option<Seat>,
    /// When the side to move runs out of time (games with a clock).
    pub deadline_ms: Option<i64>,
}

/// One line of the recent-games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub id: String,
    pub game: String,
    pub first_player: String,
    pub second_player: String,
    pub created_ms: i64,
    pub version: i64,
    pub status: String,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: i64,
    pub to_move: Option<String>,
    pub updated_ms: i64,
    /// `first` or `second` when a seat won.
    pub winner: Option<String>,
    /// The names of the accounts holding the seats.
    pub accounts: [Option<String>; 2],
}

/// The account `(id, name)` in two columns of a row, if any.
fn account_of<R: Row>(row: &R, id: &str, name: &str) -> Result<Option<(String, String)>, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let id: Option<String> = row.try_get(id)?;
    let name: Option<String> = row.try_get(name)?;
    Ok(id.map(|i| (i, name.unwrap_or_default())))
}

/// The columns of a [`Listed`] game (`g`) with its seats' account names, to be followed by
/// a `WHERE` clause.
const LISTED: &str = "SELECT g.id, g.game, g.first_player, g.second_player, g.created_ms, \
    g.version, g.status, g.result, g.termination, g.move_count, g.to_move, g.updated_ms, \
    g.winner, a1.name AS first_name, a2.name AS second_name FROM games g \
    LEFT JOIN accounts a1 ON a1.id = g.first_account \
    LEFT JOIN accounts a2 ON a2.id = g.second_account";

/// A [`Listed`] game from a row of [`LISTED`].
fn listed<R: Row>(r: &R) -> Result<Listed, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(Listed {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        first_player: r.try_get("first_player")?,
        second_player: r.try_get("second_player")?,
        created_ms: r.try_get("created_ms")?,
        version: r.try_get("version")?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        termination: r.try_get("termination")?,
        move_count: r.try_get("move_count")?,
        to_move: r.try_get("to_move")?,
        updated_ms: r.try_get("updated_ms")?,
        winner: r.try_get("winner")?,
        accounts: [r.try_get("first_name")?, r.try_get("second_name")?],
    })
}

impl Store {
    /// A game's row and its whole log, or `None` for an unknown id.
    ///
    /// # Errors
    /// The database failed or holds something unreadable.
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<Event>)>, StoreError> {
        let sql_game = "SELECT g.id, g.game, g.options, g.seed, g.position, g.first_player, \
                        g.second_player, g.first_token, g.second_token, g.same_screen, \
                        g.created_ms, g.first_account, a1.name AS first_name, \
                        g.second_account, a2.name AS second_name, g.rated, g.clock \
                        FROM games g \
                        LEFT JOIN accounts a1 ON a1.id = g.first_account \
                        LEFT JOIN accounts a2 ON a2.id = g.second_account WHERE g.id = $1";
        let sql_events =
            "SELECT seq, seat, action, data, at_ms FROM events WHERE game_id = $1 ORDER BY seq";
        on_pool!(&self.pools, pool => {
            let Some(row) = sqlx::query(sql_game).bind(id).fetch_optional(pool).await? else {
                return Ok(None);
            };
            let game = GameRow {
                id: row.try_get("id")?,
                game: row.try_get("game")?,
                options: row.try_get("options")?,
                seed: row.try_get::<i64, _>("seed")? as u64,
                position: row.try_get("position")?,
                first_player: row.try_get("first_player")?,
                second_player: row.try_get("second_player")?,
                first_token: row.try_get("first_token")?,
                second_token: row.try_get("second_token")?,
                same_screen: row.try_get::<i32, _>("same_screen")? != 0,
                created_ms: row.try_get("created_ms")?,
                accounts: [
                    account_of(&row, "first_account", "first_name")?,
                    account_of(&row, "second_account", "second_name")?,
                ],
                rated: row.try_get::<i32, _>("rated")? != 0,
                clock: row.try_get("clock")?,
            };
            let rows = sqlx::query(sql_events).bind(id).fetch_all(pool).await?;
            let mut events = Vec::with_capacity(rows.len());
            for r in rows {
                let corrupt = |reason: String| StoreError::Corrupt { id: id.to_string(), reason };
                let seat: String = r.try_get("seat")?;
                let action: String = r.try_get("action")?;
                events.push(Event {
                    seq: r.try_get("seq")?,
                    seat: seat.parse().map_err(corrupt)?,
                    action: action.parse::<Action>().map_err(corrupt)?,
                    data: r.try_get("data")?,
                    at_ms: r.try_get("at_ms")?,
                });
            }
            Ok(Some((game, events)))
        })
    }

    /// The stored version of a game (`None` for an unknown id).
    ///
    /// # Errors
    /// The database failed.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        on_pool!(&self.pools, pool => {
            let row = sqlx::query("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?;
            Ok(match row { Some(r) => Some(r.try_get("version")?), None => None })
        })
    }

    /// The most recently created games, newest first, optionally only one status or game.
    ///
    /// # Errors
    /// The database failed.
    pub async fn recent(
        &self,
        limit: i64,
        status: Option<&str>,
        game: Option<&str>,
    ) -> Result<Vec<Listed>, StoreError> {
        let sql = format!(
            "{LISTED} WHERE ($1 = '' OR g.status = $1) AND ($2 = '' OR g.game = $2) \
             ORDER BY g.created_ms DESC, g.id LIMIT $3"
        );
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(&sql)
                .bind(status.unwrap_or(""))
                .bind(game.unwrap_or(""))
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter().map(listed).collect()
        })
    }

    /// Games going on with a clock, and when their side to move runs out of time; only
    /// those out of time by `before_ms` if given.
    ///
    /// # Errors
    /// The database failed.
    pub async fn deadlines(
        &self,
        before_ms: Option<i64>,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let sql = "SELECT id, deadline_ms FROM games WHERE deadline_ms IS NOT NULL \
                   AND deadline_ms < $1 ORDER BY deadline_ms LIMIT 100000";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql)
                .bind(before_ms.unwrap_or(i64::MAX))
                .fetch_all(pool)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push((r.try_get("id")?, r.try_get("deadline_ms")?));
            }
            Ok(out)
        })
    }

    /// Games where a computer seat is to move and nothing happened since `before_ms`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn waiting_for_computer(&self, before_ms: i64) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT id FROM games WHERE computer_to_move = 1 AND updated_ms < $1 \
                   ORDER BY updated_ms LIMIT 10000";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql).bind(before_ms).fetch_all(pool).await?;
            rows.iter().map(|r| r.try_get("id").map_err(StoreError::from)).collect()
        })
    }

    /// The games of an account (optionally of one game kind), most recently changed first,
    /// those where the account is to move before all others, then the other games going on.
    ///
    /// # Errors
    /// The database failed.
    pub async fn account_games(
        &self,
        account_id: &str,
        game: Option<&str>,
        limit: i64,
    ) -> Result<Vec<Listed>, StoreError> {
        let sql = format!(
            "{LISTED} WHERE (g.first_account = $1 OR g.second_account = $1) \
             AND ($2 = '' OR g.game = $2) \
             ORDER BY CASE WHEN (g.first_account = $1 AND g.to_move = 'first') \
             OR (g.second_account = $1 AND g.to_move = 'second') THEN 0 \
             WHEN g.status = 'ongoing' THEN 1 ELSE 2 END, g.updated_ms DESC, g.id LIMIT $3"
        );
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(&sql)
                .bind(account_id)
                .bind(game.unwrap_or(""))
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter().map(listed).collect()
        })
    }

    /// The seats' account ids and the seat to move of a game, for telling its players.
    ///
    /// # Errors
    /// The database failed.
    pub async fn seat_accounts(&self, id: &str) -> Result<Option<[Option<String>; 2]>, StoreError> {
        let sql = "SELECT first_account, second_account FROM games WHERE id = $1";
        on_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(id).fetch_optional(pool).await?;
            match row {
                Some(r) => Ok(Some([r.try_get("first_account")?, r.try_get("second_account")?])),
                None => Ok(None),
            }
        })
    }
}
