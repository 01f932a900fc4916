//! The search pool: computer players, hints, puzzles and the analysis board share the server's
//! search threads (`--computer-threads`), one slot a thread, and are scheduled fairly between
//! clients.
//!
//! - A free slot goes first to computer players and hints, then to the analysis board, which
//!   never holds more than its share (`--analysis-threads`).
//! - Within a class, the client holding the fewest slots goes first, and among equals the
//!   one served longest ago (then the oldest request), so a client with a thousand games
//!   waiting takes turns with a client with one.
//! - A search that holds more than its client's share while another client waits is told to
//!   stop: it answers at once with the best it found so far. A search that holds as much as
//!   the waiting client plus one more slot is stopped at once; one that holds just more is
//!   stopped after [`QUANTUM`]. Analysis yields to any waiting computer player or hint at once.
//!
//! So no client waits for another client's searches longer than a quantum, whatever their
//! number or length.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How long a search may keep more than its client's share while another client waits.
pub const QUANTUM: Duration = Duration::from_millis(500);

/// What a search is for, in the order free slots are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A computer seat's move (players are waiting for it).
    Computer,
    /// A hint, a puzzle or a review step someone asked for.
    Hint,
    /// The analysis board (bounded to its share of the slots).
    Analysis,
}

/// The shared search slots.
#[derive(Debug)]
pub struct SearchPool {
    slots: usize,
    analysis_max: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    free: usize,
    analysis: usize,
    next: u64,
    running: Vec<Running>,
    waiting: Vec<Waiter>,
    /// When each client was last given slots (a count of grants).
    served: HashMap<Arc<str>, u64>,
    grants: u64,
}

/// Clients remembered as served before those with nothing running or waiting are forgotten.
const SERVED_LIMIT: usize = 10_000;

#[derive(Debug)]
struct Running {
    id: u64,
    key: Arc<str>,
    class: Class,
    slots: usize,
    since: Instant,
    stop: Arc<AtomicBool>,
}

#[derive(Debug)]
struct Waiter {
    id: u64,
    key: Arc<str>,
    class: Class,
    want: usize,
    stop: Arc<AtomicBool>,
    tx: oneshot::Sender<Grant>,
}

#[derive(Debug)]
struct Grant {
    id: u64,
    slots: usize,
}

/// Slots held by one search; given back when dropped.
#[derive(Debug)]
pub struct Permit {
    pool: Arc<SearchPool>,
    id: u64,
    slots: usize,
}

impl Permit {
    /// The slots (search threads) granted: at least one, at most what was asked.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.slots
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.pool.release(self.id);
    }
}

/// Removes a request from the queue when its waiting is given up (the client went away), or
/// gives back the slots granted to it when it was given up before it could take them.
struct Queued<'a> {
    pool: &'a SearchPool,
    id: u64,
    taken: bool,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        if self.taken {
            return;
        }
        let was_waiting = {
            let mut s = self.pool.lock();
            let before = s.waiting.len();
            s.waiting.retain(|w| w.id != self.id);
            s.waiting.len() != before
        };
        if !was_waiting {
            self.pool.release(self.id);
        }
    }
}

impl SearchPool {
    /// A pool of `slots` search threads, of which the analysis board may hold
    /// `analysis_max` (at least one).
    #[must_use]
    pub fn new(slots: usize, analysis_max: usize) -> Arc<SearchPool> {
        let slots = slots.max(1);
        Arc::new(SearchPool {
            slots,
            analysis_max: analysis_max.clamp(1, slots),
            state: Mutex::new(State {
                free: slots,
                ..State::default()
            }),
        })
    }

    /// The number of slots.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The most slots the analysis board may hold.
    #[must_use]
    pub fn analysis_max(&self) -> usize {
        self.analysis_max
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for up to `want` slots (at least one) for a search of `class` by client `key`.
    /// Setting `stop` is how the pool asks the search to end early when another client's
    /// turn has come; the search must then finish promptly (with the best it has).
    pub async fn acquire(
        self: &Arc<Self>,
        key: &str,
        class: Class,
        want: usize,
        stop: Arc<AtomicBool>,
    ) -> Permit {
        let (tx, mut rx) = oneshot::channel();
        let id = {
            let mut s = self.lock();
            s.next += 1;
            let id = s.next;
            s.waiting.push(Waiter {
                id,
                key: Arc::from(key),
                class,
                want: want.clamp(1, self.slots),
                stop,
                tx,
            });
            self.dispatch(&mut s);
            self.preempt(&mut s, Instant::now());
            id
        };
        let mut queued = Queued {
            pool: self,
            id,
            taken: false,
        };
        loop {
            match tokio::time::timeout(QUANTUM / 2, &mut rx).await {
                Ok(Ok(grant)) => {
                    queued.taken = true;
                    return Permit {
                        pool: Arc::clone(self),
                        id: grant.id,
                        slots: grant.slots,
                    };
                }
                Ok(Err(_)) => {
                    // The pool never drops a waiter's sender without granting; wait on.
                    tokio::time::sleep(QUANTUM).await;
                }
                Err(_) => {
                    let mut s = self.lock();
                    self.preempt(&mut s, Instant::now());
                }
            }
        }
    }

    fn release(&self, id: u64) {
        let mut s = self.lock();
        if let Some(i) = s.running.iter().position(|r| r.id == id) {
            let r = s.running.swap_remove(i);
            s.free += r.slots;
            if r.class == Class::Analysis {
                s.analysis -= r.slots;
            }
        }
        self.dispatch(&mut s);
    }

    /// Slots a client holds now.
    fn held(s: &State, key: &str) -> usize {
        s.running
            .iter()
            .filter(|r| &*r.key == key)
            .map(|r| r.slots)
            .sum()
    }

    /// The order waiting requests are served in: class, slots the client holds, how long
    /// since it was last served, age.
    fn rank(s: &State, w: &Waiter) -> (Class, usize, u64, u64) {
        let served = s.served.get(&w.key).copied().unwrap_or(0);
        (w.class, Self::held(s, &w.key), served, w.id)
    }

    fn eligible(&self, s: &State, w: &Waiter) -> bool {
        w.class != Class::Analysis || s.analysis < self.analysis_max
    }

    /// Gives free slots to waiting searches, most deserving first.
    fn dispatch(&self, s: &mut State) {
        while s.free > 0 {
            let best = s
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| self.eligible(s, w))
                .min_by_key(|(_, w)| Self::rank(s, w))
                .map(|(i, _)| i);
            let Some(i) = best else {
                return;
            };
            let w = s.waiting.remove(i);
            let mut slots = w.want.min(s.free);
            if w.class == Class::Analysis {
                slots = slots.min(self.analysis_max - s.analysis);
            }
            let grant = Grant { id: w.id, slots };
            if w.tx.send(grant).is_err() {
                continue;
            }
            s.free -= slots;
            if w.class == Class::Analysis {
                s.analysis += slots;
            }
            s.grants += 1;
            if s.served.len() >= SERVED_LIMIT {
                let State {
                    served,
                    running,
                    waiting,
                    ..
                } = &mut *s;
                served.retain(|k, _| {
                    running.iter().any(|r| r.key == *k) || waiting.iter().any(|w| w.key == *k)
                });
            }
            let at = s.grants;
            s.served.insert(Arc::clone(&w.key), at);
            s.running.push(Running {
                id: w.id,
                key: w.key,
                class: w.class,
                slots,
                since: Instant::now(),
                stop: w.stop,
            });
        }
    }

    /// Asks searches holding more than their share to stop, for the most deserving waiter.
    fn preempt(&self, s: &mut State, now: Instant) {
        let Some(w) = s
            .waiting
            .iter()
            .filter(|w| self.eligible(s, w))
            .min_by_key(|w| Self::rank(s, w))
        else {
            return;
        };
        if s.free > 0 {
            return;
        }
        let mine = Self::held(s, &w.key);
        // Analysis gives way to computer players and hints at once.
        let victim = if w.class == Class::Analysis {
            None
        } else {
            s.running
                .iter()
                .filter(|r| r.class == Class::Analysis && !r.stop.load(Ordering::Relaxed))
                .max_by_key(|r| r.slots)
        };
        let victim = victim.or_else(|| {
            let mut held: HashMap<&str, usize> = HashMap::new();
            for r in &s.running {
                *held.entry(&r.key).or_default() += r.slots;
            }
            s.running
                .iter()
                .filter(|r| !r.stop.load(Ordering::Relaxed) && *r.key != *w.key)
                .filter(|r| {
                    let theirs = held[&*r.key];
                    theirs > mine + 1 || (theirs > mine && now - r.since >= QUANTUM)
                })
                .max_by_key(|r| (held[&*r.key], r.slots, now - r.since))
        });
        if let Some(r) = victim {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flag() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    #[tokio::test]
    async fn a_waiting_client_goes_before_a_client_already_served() {
        let pool = SearchPool::new(1, 1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let first = pool.acquire("a", Class::Computer, 1, flag()).await;
        // Client a queues ten more searches, then client b one.
        let search = |key: &'static str| {
            let (p, order) = (Arc::clone(&pool), Arc::clone(&order));
            tokio::spawn(async move {
                let permit = p.acquire(key, Class::Computer, 1, flag()).await;
                order.lock().unwrap().push(key);
                tokio::time::sleep(Duration::from_millis(1)).await;
                drop(permit);
            })
        };
        let mut tasks: Vec<_> = (0..10).map(|_| search("a")).collect();
        tokio::time::sleep(Duration::from_millis(10)).await;
        tasks.push(search("b"));
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        // b went first: it did not wait behind a's ten searches.
        let order = order.lock().unwrap().clone();
        assert_eq!(order[0], "b", "{order:?}");
        assert_eq!(order.len(), 11);
    }

    #[tokio::test]
    async fn a_client_holding_every_slot_is_asked_to_stop_for_another() {
        let pool = SearchPool::new(2, 1);
        let stop = flag();
        let hog = pool
            .acquire("a", Class::Computer, 2, Arc::clone(&stop))
            .await;
        assert_eq!(hog.slots(), 2);
        let p = Arc::clone(&pool);
        let b = tokio::spawn(async move { p.acquire("b", Class::Computer, 1, flag()).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(stop.load(Ordering::Relaxed), "the hog is asked to stop");
        drop(hog);
        assert_eq!(b.await.unwrap().slots(), 1);
    }

    #[tokio::test]
    async fn analysis_keeps_to_its_share_and_gives_way_to_computer_players() {
        let pool = SearchPool::new(2, 1);
        let stop = flag();
        let a1 = pool
            .acquire("x", Class::Analysis, 2, Arc::clone(&stop))
            .await;
        assert_eq!(a1.slots(), 1, "analysis holds at most its share");
        // A second analysis waits although a slot is free.
        let p = Arc::clone(&pool);
        let a2 = tokio::spawn(async move { p.acquire("y", Class::Analysis, 1, flag()).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!a2.is_finished());
        // A computer player gets the free slot at once.
        let c1 = pool.acquire("z", Class::Computer, 1, flag()).await;
        // Another computer player makes the analysis stop.
        let p = Arc::clone(&pool);
        let c2 = tokio::spawn(async move { p.acquire("w", Class::Computer, 1, flag()).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(stop.load(Ordering::Relaxed));
        drop(a1);
        let c2 = c2.await.unwrap();
        drop((c1, c2));
        a2.await.unwrap();
    }

    #[tokio::test]
    async fn a_request_given_up_leaves_the_queue() {
        let pool = SearchPool::new(1, 1);
        let held = pool.acquire("a", Class::Computer, 1, flag()).await;
        let p = Arc::clone(&pool);
        let gone = tokio::spawn(async move { p.acquire("b", Class::Hint, 1, flag()).await });
        tokio::time::sleep(Duration::from_millis(10)).await;
        gone.abort();
        let _ = gone.await;
        assert!(pool.lock().waiting.is_empty());
        drop(held);
        let again = pool.acquire("c", Class::Hint, 1, flag()).await;
        assert_eq!(again.slots(), 1);
    }
}
