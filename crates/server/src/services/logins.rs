//! Who may try a password, and how often. Guessing is limited per account name, in the
//! database (so the limit holds across servers): `--logins-per-minute` failed log-ins a
//! minute. A stranger's wrong guesses must not keep the owner out, so a browser that has
//! signed in to an account gets a known-device cookie (OWASP's "device cookies"): its
//! attempts draw on an allowance of that device alone, never on the account's. An attacker
//! without the password and without the owner's browser can use up only the allowance of
//! unknown devices.

use crate::error::ApiError;
use crate::store::{name_key, Store};
use crate::{now_ms, token};

/// Failed log-ins are counted per minute.
const WINDOW_MS: i64 = 60_000;

/// The allowance one log-in attempt draws on.
#[derive(Debug)]
pub(crate) struct Attempt {
    key: String,
    window_ms: i64,
}

/// The digest of the known device whose secret is `device` when that device signed in to
/// `account_id` before.
async fn known_device(
    store: &Store,
    device: Option<&str>,
    account_id: Option<&str>,
) -> Result<Option<String>, ApiError> {
    let (Some(secret), Some(account_id)) = (device, account_id) else {
        return Ok(None);
    };
    let digest = token::to_hex(&token::hash(secret));
    let owner = store
        .device_account(&digest)
        .await
        .map_err(ApiError::storage)?;
    Ok((owner.as_deref() == Some(account_id)).then_some(digest))
}

/// Admits a log-in attempt for `name` (whose account, if any, is `account_id`): from a
/// device known to that account it draws on the device's allowance, else on the account
/// name's.
///
/// # Errors
/// 429 with `Retry-After` when that allowance of failed log-ins is spent this minute.
pub(crate) async fn admit(
    store: &Store,
    per_minute: u32,
    (device, name, account_id): (Option<&str>, &str, Option<&str>),
) -> Result<Attempt, ApiError> {
    let now = now_ms();
    let window_ms = now - now.rem_euclid(WINDOW_MS);
    let (key, whom) = match known_device(store, device, account_id).await? {
        Some(digest) => (format!("device {digest}"), "this device"),
        None => (format!("account {}", name_key(name)), "this account"),
    };
    let limit = i64::from(per_minute);
    if limit > 0 {
        let failed = store
            .login_failures(&key, window_ms)
            .await
            .map_err(ApiError::storage)?;
        if failed >= limit {
            let wait = (window_ms + WINDOW_MS - now + 999) / 1000;
            return Err(ApiError::too_many(
                "failed log-ins",
                whom,
                u64::try_from(wait).unwrap_or(60),
            ));
        }
    }
    Ok(Attempt { key, window_ms })
}

/// Counts a failed log-in against its allowance.
pub(crate) async fn failed(store: &Store, per_minute: u32, attempt: &Attempt) {
    if per_minute == 0 {
        return;
    }
    if let Err(e) = store
        .count_login_failure(&attempt.key, attempt.window_ms)
        .await
    {
        tracing::warn!("cannot count a failed log-in: {e}");
    }
}

/// After a sign-in to `account_id` from the device whose secret is `device`: the secret of
/// a new known device of the account, unless that device is one already.
///
/// # Errors
/// The database failed.
pub(crate) async fn remember_device(
    store: &Store,
    device: Option<&str>,
    account_id: &str,
) -> Result<Option<String>, ApiError> {
    if known_device(store, device, Some(account_id))
        .await?
        .is_some()
    {
        return Ok(None);
    }
    let secret = token::new_token();
    let digest = token::to_hex(&token::hash(&secret));
    store
        .add_device(&digest, account_id, now_ms())
        .await
        .map_err(ApiError::storage)?;
    Ok(Some(secret))
}
