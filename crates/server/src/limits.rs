//! What one client may take from the server: things held open (connections, live streams)
//! per address and in all, and requests per minute per address. Every limit is an operator
//! setting of [`crate::ServeArgs`] ([`crate::settings`]); `docs/api.md` lists them.

use crate::error::ApiError;
use axum::http::HeaderMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};

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
