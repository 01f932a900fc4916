//! Who may try a password, and how often. Guessing is limited per account name, in the
//! database (so the limit holds across servers): `--logins-per-minute` failed log-ins a
//! minute. A stranger's wrong guesses must not keep the owner out, so a browser that has
//! signed in to an account gets a known-device cookie (OWASP's "device cookies"): its
//! attempts draw on an allowance of that device alone, never on the account's. An attacker
//! without the password and without the owner's browser can use up only the allowance of
//! unknown devices.

use crate::app::App;
use crate::error::ApiError;
use crate::store::name_key;
use crate::{now_ms, token};
use axum::http::{HeaderMap, HeaderValue};

/// The known-device cookie.
pub const DEVICE_COOKIE: &str = "boardlab_device";

/// How long a browser stays known without signing in again.
const DEVICE_DAYS: i64 = 365;

/// Failed log-ins are counted per minute.
const WINDOW_MS: i64 = 60_000;

/// The allowance one log-in attempt draws on.
#[derive(Debug)]
pub(crate) struct Attempt {
    key: String,
    window_ms: i64,
}

/// The secret of the known-device cookie a request carries.
fn device_secret(headers: &HeaderMap) -> Option<String> {
    token::secret_cookie(headers, DEVICE_COOKIE)
}

/// The digest of the request's known-device cookie when that device signed in to
/// `account_id` before.
async fn known_device(
    app: &App,
    headers: &HeaderMap,
    account_id: Option<&str>,
) -> Result<Option<String>, ApiError> {
    let (Some(secret), Some(account_id)) = (device_secret(headers), account_id) else {
        return Ok(None);
    };
    let digest = token::to_hex(&token::hash(&secret));
    let owner = app
        .store
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
    app: &App,
    headers: &HeaderMap,
    name: &str,
    account_id: Option<&str>,
) -> Result<Attempt, ApiError> {
    let now = now_ms();
    let window_ms = now - now.rem_euclid(WINDOW_MS);
    let (key, whom) = match known_device(app, headers, account_id).await? {
        Some(digest) => (format!("device {digest}"), "this device"),
        None => (format!("account {}", name_key(name)), "this account"),
    };
    let limit = i64::from(app.settings.logins_per_minute);
    if limit > 0 {
        let failed = app
            .store
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
pub(crate) async fn failed(app: &App, attempt: &Attempt) {
    if app.settings.logins_per_minute == 0 {
        return;
    }
    if let Err(e) = app
        .store
        .count_login_failure(&attempt.key, attempt.window_ms)
        .await
    {
        tracing::warn!("cannot count a failed log-in: {e}");
    }
}

/// After a sign-in to `account_id`: the `Set-Cookie` value that makes this browser a known
/// device of the account, unless it is one already.
///
/// # Errors
/// The database failed.
pub(crate) async fn remember_device(
    app: &App,
    headers: &HeaderMap,
    account_id: &str,
    secure: bool,
) -> Result<Option<HeaderValue>, ApiError> {
    if known_device(app, headers, Some(account_id))
        .await?
        .is_some()
    {
        return Ok(None);
    }
    let secret = token::new_token();
    let digest = token::to_hex(&token::hash(&secret));
    app.store
        .add_device(&digest, account_id, now_ms())
        .await
        .map_err(ApiError::storage)?;
    let c = cookie::Cookie::build((DEVICE_COOKIE, secret))
        .path("/api/account")
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .secure(secure)
        .max_age(cookie::time::Duration::days(DEVICE_DAYS));
    Ok(HeaderValue::from_str(&c.build().to_string()).ok())
}
