//! What one client may take from the server: connections and how long they may dawdle,
//! live streams open at once, game creations and hints per minute per address, and the time
//! and threads a computer seat may use. Every limit is an operator setting of
//! [`crate::ServeArgs`]; `docs/api.md` lists them.

use crate::error::ApiError;
use axum::http::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Connection limits of the HTTP listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections served at once; more wait in the operating system's queue.
    pub max_connections: usize,
    /// Connections one address may hold at once (0: no limit).
    pub per_address: u32,
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
    /// The most of those threads the analysis board may hold at once.
    pub analysis_threads: usize,
}

impl Default for ComputerLimits {
    fn default() -> Self {
        let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        ComputerLimits {
            max_time: Duration::from_secs(10),
            threads,
            analysis_threads: (threads / 2).max(1),
        }
    }
}

/// How many live streams clients may hold, and how hard passwords are worked on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Live streams open at once, all clients together.
    pub max_streams: usize,
    /// Live streams one address may hold (0: no limit).
    pub streams_per_address: u32,
    /// How long a live stream stays open before the server closes it.
    pub stream_max_age: Duration,
    /// Analysis-board streams one address may hold.
    pub analysis_streams_per_address: u32,
    /// Passwords hashed at once.
    pub hash_threads: usize,
    /// Log-ins and sign-ups that may wait for a hashing thread.
    pub hash_queue: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Budgets {
            max_streams: 7500,
            streams_per_address: 16,
            stream_max_age: Duration::from_secs(1800),
            analysis_streams_per_address: 2,
            hash_threads: cores,
            hash_queue: 16,
        }
    }
}

/// Things held open (connections, live streams), counted per client address and in all.
#[derive(Debug)]
pub struct Gauge {
    /// What is counted, for messages: "connections", "live streams".
    what: &'static str,
    total_max: usize,
    per_address: u32,
    state: Mutex<GaugeState>,
}

#[derive(Debug, Default)]
struct GaugeState {
    total: usize,
    by_address: HashMap<IpAddr, u32>,
}

/// One thing held open; counted until dropped.
#[derive(Debug)]
pub struct Held {
    gauge: Arc<Gauge>,
    addr: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut s = self.gauge.lock();
        s.total = s.total.saturating_sub(1);
        if let Some(n) = s.by_address.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                s.by_address.remove(&self.addr);
            }
        }
    }
}

/// Seconds a client refused a stream or a connection is told to wait.
pub const HELD_RETRY_SECONDS: u64 = 10;

impl Gauge {
    /// At most `total_max` things at once (`usize::MAX`: no limit), and `per_address` from
    /// one address (0: no limit).
    #[must_use]
    pub fn new(what: &'static str, total_max: usize, per_address: u32) -> Arc<Gauge> {
        Arc::new(Gauge {
            what,
            total_max: total_max.max(1),
            per_address,
            state: Mutex::new(GaugeState::default()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GaugeState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts one more thing held by `addr`.
    ///
    /// # Errors
    /// 429 when `addr` holds its share already, 503 when the server holds all it may.
    pub fn open(self: &Arc<Self>, addr: IpAddr) -> Result<Held, ApiError> {
        let mut s = self.lock();
        let mine = s.by_address.get(&addr).copied().unwrap_or(0);
        if self.per_address > 0 && mine >= self.per_address {
            return Err(ApiError {
                code: "too_many_open",
                ..ApiError::too_many(self.what, "this address", HELD_RETRY_SECONDS)
            }
            .with_message(format!(
                "this address holds {mine} {} open already, the most it may; close one first",
                self.what
            )));
        }
        if s.total >= self.total_max {
            return Err(ApiError::busy(
                "busy",
                format!(
                    "the server holds as many {} as it can; try again shortly",
                    self.what
                ),
                HELD_RETRY_SECONDS,
            ));
        }
        s.total += 1;
        *s.by_address.entry(addr).or_default() += 1;
        Ok(Held {
            gauge: Arc::clone(self),
            addr,
        })
    }

    /// How many things are held in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.lock().total
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
        let whom = "this address";
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
    fn a_gauge_refuses_past_an_address_share_and_past_the_total() {
        let g = Gauge::new("live streams", 3, 2);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        let a1 = g.open(a).unwrap();
        let _a2 = g.open(a).unwrap();
        let e = g.open(a).unwrap_err();
        assert_eq!((e.status.as_u16(), e.retry_after), (429, Some(10)));
        let _b1 = g.open(b).unwrap();
        let e = g.open(b).unwrap_err();
        assert_eq!((e.status.as_u16(), e.code), (503, "busy"));
        drop(a1);
        assert_eq!(g.total(), 2);
        let _b2 = g.open(b).unwrap();
    }

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
