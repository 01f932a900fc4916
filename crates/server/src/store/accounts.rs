//! Accounts and their sessions.

use super::{Store, StoreError};
use sqlx::Row;

/// The key an account name is unique by: its lower-case form.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: String,
    pub name: String,
    /// The password's Argon2id hash (PHC string).
    pub password: String,
}

impl Store {
    /// Stores a new account; `false` when its name (in any case) is taken.
    ///
    /// # Errors
    /// The database failed.
    pub async fn create_account(
        &self,
        a: &AccountRow,
        created_ms: i64,
    ) -> Result<bool, StoreError> {
        let sql = "INSERT INTO accounts (id, name, name_key, password, created_ms) \
                   VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING";
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query(sql)
                .bind(&a.id)
                .bind(&a.name)
                .bind(name_key(&a.name))
                .bind(&a.password)
                .bind(created_ms)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The account of a name (in any case), if there is one.
    ///
    /// # Errors
    /// The database failed.
    pub async fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        let sql = "SELECT id, name, password FROM accounts WHERE name_key = $1";
        on_pool!(&self.pools, pool => {
            let Some(r) = sqlx::query(sql).bind(name_key(name)).fetch_optional(pool).await? else {
                return Ok(None);
            };
            Ok(Some(AccountRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                password: r.try_get("password")?,
            }))
        })
    }

    /// Stores a session (by its secret's digest) for an account.
    ///
    /// # Errors
    /// The database failed.
    pub async fn create_session(
        &self,
        digest: &str,
        account_id: &str,
        created_ms: i64,
    ) -> Result<(), StoreError> {
        let sql = "INSERT INTO sessions (id, account_id, created_ms) VALUES ($1, $2, $3)";
        on_write_pool!(&self.pools, pool => {
            sqlx::query(sql).bind(digest).bind(account_id).bind(created_ms).execute(pool).await?;
            Ok(())
        })
    }

    /// The account `(id, name)` of a session made at or after `since_ms`, if it exists.
    ///
    /// # Errors
    /// The database failed.
    pub async fn session(
        &self,
        digest: &str,
        since_ms: i64,
    ) -> Result<Option<(String, String)>, StoreError> {
        let sql = "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id \
                   WHERE s.id = $1 AND s.created_ms >= $2";
        on_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(digest).bind(since_ms).fetch_optional(pool).await?;
            match row {
                Some(r) => Ok(Some((r.try_get("id")?, r.try_get("name")?))),
                None => Ok(None),
            }
        })
    }

    /// Ends one session.
    ///
    /// # Errors
    /// The database failed.
    pub async fn delete_session(&self, digest: &str) -> Result<(), StoreError> {
        on_write_pool!(&self.pools, pool => {
            sqlx::query("DELETE FROM sessions WHERE id = $1").bind(digest).execute(pool).await?;
            Ok(())
        })
    }

    /// Ends every session of an account, and sessions of any account older than
    /// `expired_before_ms`; returns how many of the account's ended.
    ///
    /// # Errors
    /// The database failed.
    pub async fn delete_sessions(
        &self,
        account_id: &str,
        expired_before_ms: i64,
    ) -> Result<u64, StoreError> {
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(account_id)
                .execute(pool)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE created_ms < $1")
                .bind(expired_before_ms)
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    /// An account's name by its id.
    ///
    /// # Errors
    /// The database failed.
    pub async fn account_name(&self, id: &str) -> Result<Option<String>, StoreError> {
        on_pool!(&self.pools, pool => {
            let row = sqlx::query("SELECT name FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?;
            match row {
                Some(r) => Ok(Some(r.try_get("name")?)),
                None => Ok(None),
            }
        })
    }
}
