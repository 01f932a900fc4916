//! Admission: the requests served at once are capped, and one past the cap is refused at once
//! (503 with `Retry-After`) before any work is done for it. An overloaded server so keeps
//! serving what it admitted at full speed, instead of slowing every request down until clients
//! time out. Live streams (WebSockets, server-sent events) are not counted here: they have
//! budgets of their own ([`crate::limits::Gauge`]).
//!
//! The cap adapts to how fast requests are served. It starts at a floor and moves between that
//! floor and `--max-in-flight`, in windows of [`WINDOW`]: a window in which more than one
//! request in ten took longer than the latency target lowers it by a quarter (more than one in
//! two, by half); a window served in time in which the requests at once came near the cap
//! raises it by an eighth (doubles it until the first slow window). Past the point where the
//! machine is saturated, more requests at once only make each one slower (Little's law), so
//! the cap settles where the machine is busy and what it admits is answered in time. Requests
//! that wait for a search on purpose (hints) hold a slot but do not count towards the latency.
//!
//! A refused request is told when to come back (`Retry-After`). Refusals cost the server and
//! its clients work too, so the wait grows while refusals outnumber a quarter of the requests
//! served (each client refused then comes back later, and fewer come back at once) and falls
//! back to one second once they do not, up to [`MAX_RETRY_AFTER`]; within a window, each
//! cap's worth of refusals adds a second, so that a sudden burst is spread out at once.

use crate::error::ApiError;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the cap is reconsidered.
pub const WINDOW: Duration = Duration::from_millis(100);

/// Requests a window needs before its latency says anything.
const MIN_SAMPLES: u32 = 16;

/// The longest wait a refused request is told, in seconds.
pub const MAX_RETRY_AFTER: u64 = 10;

/// The lowest cap per core, whatever the latency: so many requests at once are always served
/// (a burst after a quiet spell, or a slow machine whose every answer takes longer than the
/// target), and the cap never goes below what keeps a core busy, nor above `--max-in-flight`.
const FLOOR_PER_CORE: usize = 64;

/// The requests being served, at most a cap that adapts to their latency.
#[derive(Debug)]
pub struct Admission {
    in_flight: AtomicUsize,
    cap: AtomicUsize,
    /// Requests refused in the current window.
    refused: AtomicUsize,
    /// The wait a refused request is told now, in seconds.
    retry_after: AtomicU64,
    floor: usize,
    max: usize,
    target: Duration,
    window: Mutex<Window>,
}

/// How the cap moves after a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No window has been slow yet: the cap doubles while it binds.
    Start,
    /// The cap grows by an eighth while it binds.
    Steady,
}

/// What the current window saw.
#[derive(Debug)]
struct Window {
    started: Instant,
    served: u32,
    slow: u32,
    /// Most requests in flight at once.
    peak: usize,
    phase: Phase,
}

impl Window {
    fn new(started: Instant, phase: Phase) -> Window {
        Window {
            started,
            served: 0,
            slow: 0,
            peak: 0,
            phase,
        }
    }
}

impl Admission {
    /// At most `max` requests served at once, fewer while their latency passes `target`.
    #[must_use]
    pub fn new(max: usize, target: Duration) -> Arc<Admission> {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Admission::with_floor(max, target, FLOOR_PER_CORE * cores)
    }

    /// As [`Admission::new`], never under `floor` requests at once.
    fn with_floor(max: usize, target: Duration, floor: usize) -> Arc<Admission> {
        let max = max.max(1);
        let floor = floor.clamp(1, max);
        Arc::new(Admission {
            in_flight: AtomicUsize::new(0),
            cap: AtomicUsize::new(floor),
            refused: AtomicUsize::new(0),
            retry_after: AtomicU64::new(1),
            floor,
            max,
            target,
            window: Mutex::new(Window::new(Instant::now(), Phase::Start)),
        })
    }

    /// The cap now.
    #[must_use]
    pub fn cap(&self) -> usize {
        self.cap.load(Ordering::Relaxed)
    }

    /// The wait a refused request is told now, in seconds: the wait of the last window, and
    /// a second more for each cap's worth of requests refused before it in this one (a burst
    /// is spread out at once rather than told to come back together).
    #[must_use]
    pub fn retry_after(&self) -> u64 {
        let burst = self.refused.load(Ordering::Relaxed).saturating_sub(1) / self.cap().max(1);
        (self.retry_after.load(Ordering::Relaxed) + burst as u64).min(MAX_RETRY_AFTER)
    }

    /// A slot, or `None` (the refusal counted) when the requests in flight are at the cap.
    fn enter(self: &Arc<Admission>) -> Option<Slot> {
        let now = self.in_flight.fetch_add(1, Ordering::AcqRel) + 1;
        let slot = Slot {
            admission: Arc::clone(self),
            at_once: now,
        };
        if now > self.cap() {
            self.refused.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Some(slot)
    }

    /// Counts a request served in `took` with `at_once` requests in flight, and at the end of
    /// a window moves the cap.
    fn served(&self, took: Duration, at_once: usize) {
        self.served_at(Instant::now(), took, at_once);
    }

    /// [`Admission::served`] at `now`.
    fn served_at(&self, now: Instant, took: Duration, at_once: usize) {
        let mut w = self
            .window
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        w.served += 1;
        w.slow += u32::from(took > self.target);
        w.peak = w.peak.max(at_once);
        if now.saturating_duration_since(w.started) < WINDOW || w.served < MIN_SAMPLES {
            return;
        }
        let cap = self.cap();
        let mut phase = w.phase;
        let next = if w.slow * 2 > w.served {
            phase = Phase::Steady;
            (cap / 2).max(self.floor)
        } else if w.slow * 10 > w.served {
            phase = Phase::Steady;
            (cap - cap / 4).max(self.floor)
        } else if w.peak * 8 >= cap * 7 {
            let more = match phase {
                Phase::Start => cap,
                Phase::Steady => cap / 8,
            };
            (cap + more.max(1)).min(self.max)
        } else {
            cap
        };
        self.cap.store(next, Ordering::Relaxed);
        let refused = self.refused.swap(0, Ordering::Relaxed);
        let told = self.retry_after.load(Ordering::Relaxed);
        self.retry_after
            .store(next_retry_after(told, refused, w.served), Ordering::Relaxed);
        *w = Window::new(now, phase);
    }
}

/// The wait to tell refused requests after a window that served `served` and refused
/// `refused`, the wait told during it having been `told` seconds. The clients refused come
/// back about `told` later, so the refusals scale with it: the wait moves (halfway, to damp
/// it) to the one at which the refusals would be a quarter of the requests served.
fn next_retry_after(told: u64, refused: usize, served: u32) -> u64 {
    let budget = (served as usize / 4).max(1);
    let wanted = (told as usize * refused).div_ceil(budget) as u64;
    (told + wanted).div_ceil(2).clamp(1, MAX_RETRY_AFTER)
}

/// A request's place among those in flight; given back when dropped (also when the client
/// hangs up and the request is abandoned).
struct Slot {
    admission: Arc<Admission>,
    at_once: usize,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.admission.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Whether `path` is a live stream's (held open, so not counted as a request in flight).
fn is_stream(path: &str) -> bool {
    path.ends_with("/live") || path.ends_with("/events") || path == "/api/analysis"
}

/// Whether `path` waits for a search on purpose (its time says nothing of the load).
fn waits_for_search(path: &str) -> bool {
    path.ends_with("/hint")
}

/// Serves `req` if the requests in flight are under the cap, else refuses it at once.
pub async fn admit(State(admission): State<Arc<Admission>>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if is_stream(path) {
        return next.run(req).await;
    }
    let timed = !waits_for_search(path);
    let Some(slot) = admission.enter() else {
        return ApiError::busy(
            "overloaded",
            "the server is serving as many requests as it can; try again in a moment",
            admission.retry_after(),
        )
        .into_response();
    };
    let started = Instant::now();
    let answer = next.run(req).await;
    if timed {
        admission.served(started.elapsed(), slot.at_once);
    }
    drop(slot);
    answer
}

#[cfg(test)]
mod tests {
    use super::{
        is_stream, next_retry_after, waits_for_search, Admission, MAX_RETRY_AFTER, MIN_SAMPLES,
        WINDOW,
    };
    use std::time::Duration;

    #[test]
    fn live_streams_are_not_counted_as_requests() {
        assert!(is_stream("/api/games/abc/live"));
        assert!(is_stream("/api/games/abc/events"));
        assert!(is_stream("/api/account/live"));
        assert!(is_stream("/api/lobby/live"));
        assert!(is_stream("/api/analysis"));
        assert!(!is_stream("/api/games/abc/moves"));
        assert!(!is_stream("/api/games"));
        assert!(waits_for_search("/api/games/abc/hint"));
        assert!(!waits_for_search("/api/games/abc/moves"));
    }

    /// Serves `n` requests of `took` each with `at_once` in flight, then one more a window
    /// later (which ends the window).
    fn window(a: &Admission, n: u32, took: Duration, at_once: usize) {
        samples(a, n, took, at_once);
        let now = a.window.lock().unwrap().started;
        a.served_at(now + WINDOW, took, at_once);
    }

    /// Serves `n` requests of `took` each with `at_once` in flight, within the window.
    fn samples(a: &Admission, n: u32, took: Duration, at_once: usize) {
        let now = a.window.lock().unwrap().started;
        for _ in 0..n {
            a.served_at(now, took, at_once);
        }
    }

    #[test]
    fn the_cap_falls_while_requests_are_slow_and_rises_while_they_are_in_time() {
        let a = Admission::with_floor(1000, Duration::from_millis(50), 32);
        let floor = a.floor;
        assert_eq!(a.cap(), floor);
        // In time but far from the cap: it stays.
        window(&a, MIN_SAMPLES, Duration::from_millis(1), floor / 2);
        assert_eq!(a.cap(), floor);
        // At first, in time and at the cap: it doubles, up to the maximum.
        window(&a, MIN_SAMPLES, Duration::from_millis(1), floor);
        assert_eq!(a.cap(), floor * 2);
        for _ in 0..10 {
            let cap = a.cap();
            window(&a, MIN_SAMPLES, Duration::from_millis(1), cap);
        }
        assert_eq!(a.cap(), 1000);
        // Some slow answers: down by a quarter; most slow: by half; never under the floor.
        samples(&a, MIN_SAMPLES, Duration::from_millis(1), 1000);
        window(&a, 3, Duration::from_millis(200), 1000);
        assert_eq!(a.cap(), 750);
        window(&a, MIN_SAMPLES, Duration::from_millis(200), 1000);
        assert_eq!(a.cap(), 375);
        for _ in 0..40 {
            window(&a, MIN_SAMPLES, Duration::from_millis(200), 1000);
        }
        assert_eq!(a.cap(), floor);
        // After a slow window, in time and at the cap: up by an eighth, up to the maximum.
        window(&a, MIN_SAMPLES, Duration::from_millis(1), floor);
        assert_eq!(a.cap(), floor + floor / 8);
        for _ in 0..80 {
            let cap = a.cap();
            window(&a, MIN_SAMPLES, Duration::from_millis(1), cap);
        }
        assert_eq!(a.cap(), 1000);
        // A few slow answers among many in time do not lower it.
        samples(&a, MIN_SAMPLES * 2, Duration::from_millis(1), 10);
        window(&a, 2, Duration::from_millis(500), 10);
        assert_eq!(a.cap(), 1000);
    }

    #[test]
    fn the_wait_told_grows_while_refusals_outnumber_a_quarter_of_the_served() {
        // Few refusals: one second.
        assert_eq!(next_retry_after(1, 0, 400), 1);
        assert_eq!(next_retry_after(1, 100, 400), 1);
        // Twice the budget of refusals: halfway to twice the wait.
        assert_eq!(next_retry_after(2, 200, 400), 3);
        // Far more: up to the longest wait, and back down once they stop.
        let mut told = 1;
        for _ in 0..10 {
            told = next_retry_after(told, 5000, 400);
        }
        assert_eq!(told, MAX_RETRY_AFTER);
        for _ in 0..10 {
            told = next_retry_after(told, 0, 400);
        }
        assert_eq!(told, 1);
    }

    #[test]
    fn past_the_cap_a_request_is_refused_and_its_slot_given_back() {
        let a = Admission::new(2, Duration::from_millis(50));
        let one = a.enter().expect("first");
        let two = a.enter().expect("second");
        assert!(a.enter().is_none());
        assert_eq!(a.refused.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert_eq!(a.retry_after(), 1);
        // A burst: a second more for each cap's worth refused in the window.
        for _ in 0..5 {
            assert!(a.enter().is_none());
        }
        assert_eq!(a.retry_after(), 1 + (6 - 1) / 2);
        drop(one);
        let three = a.enter().expect("room again");
        drop((two, three));
        assert_eq!(a.in_flight.load(std::sync::atomic::Ordering::Relaxed), 0);
    }
}
