//! Sessions: the session cookie, the signed-in player it names, and the same-site check of
//! every request that changes something in a player's name.

use crate::app::App;
use crate::error::ApiError;
use crate::services::accounts::SESSION_DAYS;
use crate::services::games::Actor;
use crate::state::SeatAccount;
use crate::token;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use std::sync::Arc;

/// The session cookie's name.
pub const COOKIE: &str = "boardlab_session";

/// The known-device cookie.
pub const DEVICE_COOKIE: &str = "boardlab_device";

/// How long a browser stays known without signing in again.
const DEVICE_DAYS: i64 = 365;

/// A signed-in player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    /// The account's id (never shown: players are known by name).
    pub id: String,
    pub name: String,
    /// The digest of the session's secret, in hex.
    pub(crate) digest: String,
}

impl SignedIn {
    /// The account, as a seat holds it.
    #[must_use]
    pub fn account(&self) -> SeatAccount {
        SeatAccount {
            id: self.id.clone(),
            name: self.name.clone(),
        }
    }
}

/// The player a request's session cookie names, if any (a missing, unknown or expired
/// session is no one). A request that changes something and carries the cookie is refused
/// with 403 unless it comes from this site.
#[derive(Clone, Debug)]
pub struct Session(pub Option<SignedIn>);

impl Session {
    /// The signed-in player, or 401.
    ///
    /// # Errors
    /// 401 when nobody is signed in.
    pub fn required(self) -> Result<SignedIn, ApiError> {
        self.0.ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "signed_out",
                "sign in first: this needs an account",
            )
        })
    }

    /// The account id, if signed in.
    #[must_use]
    pub fn account(&self) -> Option<String> {
        self.0.as_ref().map(|s| s.id.clone())
    }

    /// The actor of a request with this session and `token`.
    #[must_use]
    pub fn actor(&self, token: Option<String>) -> Actor {
        Actor::Person {
            token,
            account: self.account(),
        }
    }
}

/// The session secret a request's cookies carry.
pub fn cookie_secret(headers: &HeaderMap) -> Option<String> {
    token::secret_cookie(headers, COOKIE)
}

/// Whether a request comes from a page of this site, as far as its headers tell: its
/// `Origin` names this scheme (`https` when `tls`, else `http`) and host, or it has no
/// `Origin` and `Sec-Fetch-Site` does not say another site sent it (programs other than
/// browsers send neither).
#[must_use]
pub fn same_site(headers: &HeaderMap, tls: bool) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if let Some(origin) = headers.get(header::ORIGIN) {
        let Ok(origin) = origin.to_str() else {
            return false;
        };
        let scheme = if tls { "https" } else { "http" };
        return match (origin.split_once("://"), host) {
            (Some((s, o)), Some(h)) => s.eq_ignore_ascii_case(scheme) && o.eq_ignore_ascii_case(h),
            _ => false,
        };
    }
    !headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.eq_ignore_ascii_case("cross-site") || v.eq_ignore_ascii_case("same-site")
        })
}

pub fn cross_site() -> ApiError {
    ApiError::forbidden(
        "cross-site request refused: changes with a session come only from this site's own pages",
    )
}

impl FromRequestParts<Arc<App>> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Some(secret) = cookie_secret(&parts.headers) else {
            return Ok(Session(None));
        };
        let changes = !matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        if changes && !same_site(&parts.headers, secure(app, &parts.headers)) {
            return Err(cross_site());
        }
        let found = app.accounts.session(&secret).await?;
        Ok(Session(found.map(|s| SignedIn {
            id: s.account.id,
            name: s.account.name,
            digest: s.digest,
        })))
    }
}

/// The `Set-Cookie` value of a session (or, with `None`, one that removes it).
pub fn session_cookie(secret: Option<&str>, secure: bool) -> HeaderValue {
    let mut c = cookie::Cookie::build((COOKIE, secret.unwrap_or("").to_string()))
        .path("/")
        .http_only(true)
        .same_site(cookie::SameSite::Lax)
        .secure(secure);
    c = match secret {
        Some(_) => c.max_age(cookie::time::Duration::days(SESSION_DAYS)),
        None => c.max_age(cookie::time::Duration::ZERO),
    };
    HeaderValue::from_str(&c.build().to_string()).expect("a cookie is a header value")
}

/// The secret of the known-device cookie a request carries.
#[must_use]
pub fn device_secret(headers: &HeaderMap) -> Option<String> {
    token::secret_cookie(headers, DEVICE_COOKIE)
}

/// The `Set-Cookie` value that makes this browser a known device of an account.
#[must_use]
pub fn device_cookie(secret: &str, secure: bool) -> Option<HeaderValue> {
    let c = cookie::Cookie::build((DEVICE_COOKIE, secret.to_string()))
        .path("/api/account")
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .secure(secure)
        .max_age(cookie::time::Duration::days(DEVICE_DAYS));
    HeaderValue::from_str(&c.build().to_string()).ok()
}

/// Whether cookies get `Secure`: the operator said the server is behind TLS, or a trusted
/// proxy says this request came over it.
pub fn secure(app: &App, headers: &HeaderMap) -> bool {
    app.settings.behind_tls
        || (app.settings.trust_proxy
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.eq_ignore_ascii_case("https")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_requests_from_this_site_count_as_same_site() {
        let h = |pairs: &[(&'static str, &'static str)]| {
            let mut m = HeaderMap::new();
            for (k, v) in pairs {
                m.insert(*k, HeaderValue::from_static(v));
            }
            m
        };
        assert!(same_site(&h(&[("host", "a.example:8080")]), false));
        assert!(same_site(
            &h(&[
                ("host", "a.example:8080"),
                ("origin", "http://a.example:8080")
            ]),
            false
        ));
        assert!(!same_site(
            &h(&[
                ("host", "a.example:8080"),
                ("origin", "https://evil.example")
            ]),
            false
        ));
        assert!(!same_site(
            &h(&[("host", "a.example"), ("origin", "null")]),
            false
        ));
        assert!(!same_site(
            &h(&[("host", "a.example"), ("sec-fetch-site", "cross-site")]),
            false
        ));
        assert!(same_site(
            &h(&[("host", "a.example"), ("sec-fetch-site", "same-origin")]),
            false
        ));
        // The scheme counts: a page served over plain HTTP is another origin.
        let tls_page = h(&[("host", "a.example"), ("origin", "https://a.example")]);
        assert!(same_site(&tls_page, true));
        assert!(!same_site(&tls_page, false));
        let plain_page = h(&[("host", "a.example"), ("origin", "http://a.example")]);
        assert!(!same_site(&plain_page, true));
    }

    #[test]
    fn session_cookies_are_http_only_and_lax() {
        let c = session_cookie(Some("ab"), false);
        let c = c.to_str().unwrap();
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax"), "{c}");
        assert!(!c.contains("Secure"), "{c}");
        let s = session_cookie(Some("ab"), true);
        assert!(s.to_str().unwrap().contains("Secure"));
        let gone = session_cookie(None, false);
        assert!(gone.to_str().unwrap().contains("Max-Age=0"));
    }
}
