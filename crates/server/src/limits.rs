//! What one client may take from the server: connections and how long they may dawdle,
//! game creations and hints per minute per address, and the time and threads a computer seat
//! may use. Every limit is an operator setting of [`crate::ServeArgs`]; `docs/api.md` lists
//! them.

use crate::error::ApiError;
use axum::http::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::time::Duration;

/// Connection limits of the HTTP listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections served at once; more wait in the operating system's queue.
    pub max_connections: usize,
    /// Time a client has to send a request's headers, and the longest a kept-alive
    /// connection may sit idle between requests.
    pub header_timeout: Duration,
    /// Time a client has to send a request's body.
    pub body_timeout: Duration,
}

/// File descriptors kept back from connections for the database, logs and the rest.
const RESERVED_FILES: u64 = 64;

impl ConnectionLimits {
    /// Raises the process's open-file limit as far as the system allows and lowers
    /// `max_connections` to what it leaves room for. Returns a warning when it had to.
    pub fn fit_to_open_file_limit(&mut self) -> Option<String> {
        let files = rlimit::increase_nofile_limit(u64::MAX).ok()?;
        let room = usize::try_from(files.saturating_sub(RESERVED_FILES))
            .unwrap_or(usize::MAX)
            .max(1);
        (self.max_connections > room).then(|| {
            let asked = self.max_connections;
            self.max_connections = room;
            format!(
                "--max-connections {asked} is more than the open-file limit ({files}) leaves \
                 room for; serving at most {room} connections at once"
            )
        })
    }
}

/// How much a computer seat may think on this server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputerLimits {
    /// Longest time per move a computer seat may ask for.
    pub max_time: Duration,
    /// Search threads of all computer players and hints together; also the most one seat
    /// may use.
    pub threads: usize,
}

impl Default for ComputerLimits {
    fn default() -> Self {
        ComputerLimits {
            max_time: Duration::from_secs(10),
            threads: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
        }
    }
}

/// A per-address allowance: so many requests a minute, with a burst.
pub type PerAddress = Allowance<IpAddr>;

/// A per-key allowance (per address, per account name): so many requests a minute, with a
/// burst.
#[derive(Debug)]
pub struct Allowance<K: std::hash::Hash + Eq + Clone> {
    what: &'static str,
    /// Who is limited, for the message: "this address", "this account".
    whom: &'static str,
    limiter: Option<DefaultKeyedRateLimiter<K>>,
}

impl<K: std::hash::Hash + Eq + Clone> Allowance<K> {
    /// `per_minute` requests a minute from one address, at most `burst` at once; 0 turns the
    /// limit off.
    #[must_use]
    pub fn new(what: &'static str, per_minute: u32, burst: u32) -> Self {
        Self::of(what, "this address", per_minute, burst)
    }

    /// As [`Allowance::new`], for keys that are not addresses (`whom` names them).
    #[must_use]
    pub fn of(what: &'static str, whom: &'static str, per_minute: u32, burst: u32) -> Self {
        let limiter = NonZeroU32::new(per_minute).map(|n| {
            let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
            DefaultKeyedRateLimiter::keyed(Quota::per_minute(n).allow_burst(burst))
        });
        Allowance {
            what,
            whom,
            limiter,
        }
    }

    /// Takes one request from `key`'s allowance.
    ///
    /// # Errors
    /// 429 with the seconds to wait when the allowance is spent.
    pub fn check(&self, key: K) -> Result<(), ApiError> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::too_many(self.what, self.whom, wait.as_secs_f64().ceil() as u64)
        })
    }

    /// Forgets addresses whose allowance is full again (keeps memory bounded).
    pub fn forget_idle(&self) {
        if let Some(l) = &self.limiter {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// The address a request comes from: the peer, or, when the operator said the server sits
/// behind a proxy it trusts, the last address that proxy added to `X-Forwarded-For`.
#[must_use]
pub fn client_addr(peer: Option<SocketAddr>, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    let peer_ip = peer.map_or(IpAddr::from([0, 0, 0, 0]), |p| p.ip());
    if !trust_proxy {
        return peer_ip;
    }
    // Only the last entry is the proxy's own; earlier ones are whatever the client sent.
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|a| a.trim().parse::<IpAddr>().ok())
        .unwrap_or(peer_ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_burst_and_others_are_not() {
        let limit = PerAddress::new("games", 60, 3);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..3 {
            limit.check(a).unwrap();
        }
        let e = limit.check(a).unwrap_err();
        assert_eq!(e.status.as_u16(), 429);
        assert_eq!(e.retry_after, Some(1));
        limit.check(b).unwrap();
        let off = PerAddress::new("games", 0, 0);
        for _ in 0..1000 {
            off.check(a).unwrap();
        }
    }

    #[test]
    fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "1.2.3.4, 5.6.7.8".parse().unwrap());
        let peer = Some(SocketAddr::from(([127, 0, 0, 1], 9)));
        assert_eq!(client_addr(peer, &h, false), IpAddr::from([127, 0, 0, 1]));
        assert_eq!(client_addr(peer, &h, true), IpAddr::from([5, 6, 7, 8]));
        assert_eq!(
            client_addr(peer, &HeaderMap::new(), true),
            IpAddr::from([127, 0, 0, 1])
        );
    }
}
