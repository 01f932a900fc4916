//! What the store keeps so that budgets hold across servers sharing the database: failed
//! log-ins per account name and per known device, the known devices themselves, and when
//! each challenge's author was last seen.

use super::{Store, StoreError};
use sqlx::Row;

/// Devices remembered per account (the oldest are forgotten first).
const DEVICES_PER_ACCOUNT: i64 = 50;

impl Store {
    /// Failed log-ins counted for `key` in the minute starting at `window_ms`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn login_failures(&self, key: &str, window_ms: i64) -> Result<i64, StoreError> {
        let sql = "SELECT count FROM login_failures WHERE key = $1 AND window_ms = $2";
        on_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(key).bind(window_ms).fetch_optional(pool).await?;
            Ok(match row {
                Some(r) => r.try_get("count")?,
                None => 0,
            })
        })
    }

    /// Counts one more failed log-in for `key` in the minute starting at `window_ms`; the
    /// count after it.
    ///
    /// # Errors
    /// The database failed.
    pub async fn count_login_failure(&self, key: &str, window_ms: i64) -> Result<i64, StoreError> {
        let sql = "INSERT INTO login_failures (key, window_ms, count) VALUES ($1, $2, 1) \
                   ON CONFLICT (key) DO UPDATE SET \
                   count = CASE WHEN login_failures.window_ms = $2 \
                   THEN login_failures.count + 1 ELSE 1 END, window_ms = $2 \
                   RETURNING count";
        on_write_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(key).bind(window_ms).fetch_one(pool).await?;
            Ok(row.try_get("count")?)
        })
    }

    /// Forgets failed log-ins counted before `before_ms`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn purge_login_failures(&self, before_ms: i64) -> Result<u64, StoreError> {
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query("DELETE FROM login_failures WHERE window_ms < $1")
                .bind(before_ms)
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    /// Remembers a device (the digest of its cookie's secret) as one that signed in to
    /// `account_id`, forgetting the account's oldest devices past the most kept.
    ///
    /// # Errors
    /// The database failed.
    pub async fn add_device(
        &self,
        digest: &str,
        account_id: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let insert = "INSERT INTO known_devices (digest, account_id, created_ms) \
                      VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING";
        let trim = "DELETE FROM known_devices WHERE account_id = $1 AND digest NOT IN \
                    (SELECT digest FROM known_devices WHERE account_id = $1 \
                    ORDER BY created_ms DESC, digest LIMIT $2)";
        on_write_pool!(&self.pools, pool => {
            sqlx::query(insert).bind(digest).bind(account_id).bind(at_ms).execute(pool).await?;
            sqlx::query(trim).bind(account_id).bind(DEVICES_PER_ACCOUNT).execute(pool).await?;
            Ok(())
        })
    }

    /// The account a known device signed in to, if the device is known.
    ///
    /// # Errors
    /// The database failed.
    pub async fn device_account(&self, digest: &str) -> Result<Option<String>, StoreError> {
        let sql = "SELECT account_id FROM known_devices WHERE digest = $1";
        on_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(digest).fetch_optional(pool).await?;
            match row {
                Some(r) => Ok(Some(r.try_get("account_id")?)),
                None => Ok(None),
            }
        })
    }

    /// Notes that the author `account_id` is still here: their challenges stay open.
    ///
    /// # Errors
    /// The database failed.
    pub async fn author_seen(&self, account_id: &str, at_ms: i64) -> Result<(), StoreError> {
        let sql = "UPDATE challenges SET seen_ms = $2 WHERE account_id = $1 AND seen_ms < $2";
        on_write_pool!(&self.pools, pool => {
            sqlx::query(sql).bind(account_id).bind(at_ms).execute(pool).await?;
            Ok(())
        })
    }
}
