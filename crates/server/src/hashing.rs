//! Password hashing with a budget. Argon2id with OWASP's parameters (the `argon2` crate's
//! defaults: 19 MiB, 2 passes, 1 lane) takes about 19 MiB and tens of milliseconds per
//! password, so it runs on a few threads of its own (`--hash-threads`, one per core by
//! default), with a short queue before them (`--hash-queue`). A log-in or sign-up that finds
//! the queue full is answered 503 with `Retry-After` at once: however many arrive together,
//! hashing never holds more than its threads' memory, and each thread reuses its own.

use argon2::password_hash::{rand_core::OsRng, PasswordHash, SaltString};
use argon2::{Argon2, PasswordHasher as _, PasswordVerifier as _};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};

type Job = Box<dyn FnOnce() + Send>;

/// Seconds a client refused for a full queue is told to wait.
pub const RETRY_SECONDS: u64 = 2;

/// Why a password could not be worked on now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// The queue is full: ask again after [`RETRY_SECONDS`].
    #[error("the server is checking many passwords at the moment; try again shortly")]
    Busy,
    /// The hashing threads are gone (the server is stopping).
    #[error("passwords cannot be checked at the moment")]
    Unavailable,
    /// The hasher failed (it does not for passwords of accepted lengths).
    #[error("the password could not be hashed")]
    Failed,
}

/// The hashing threads and their queue.
#[derive(Debug)]
pub struct Hasher {
    jobs: SyncSender<Job>,
}

impl Hasher {
    /// `threads` hashing threads (at least one) and room for `queue` more jobs waiting.
    #[must_use]
    pub fn new(threads: usize, queue: usize) -> Hasher {
        // The channel holds the waiting jobs; each thread holds the one it works on.
        let (jobs, rx) = sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("password-hash-{i}"))
                .spawn(move || work(&rx));
            if let Err(e) = spawned {
                tracing::error!("cannot start a password-hashing thread: {e}");
            }
        }
        Hasher { jobs }
    }

    /// Queues `f` for a hashing thread; its answer comes on the receiver.
    ///
    /// # Errors
    /// [`HashError::Busy`] when the queue is full.
    fn submit<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, HashError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(f());
        });
        match self.jobs.try_send(job) {
            Ok(()) => Ok(rx),
            Err(TrySendError::Full(_)) => Err(HashError::Busy),
            Err(TrySendError::Disconnected(_)) => Err(HashError::Unavailable),
        }
    }

    /// Runs `f` on a hashing thread.
    ///
    /// # Errors
    /// [`HashError::Busy`] when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        self.submit(f)?.await.map_err(|_| HashError::Unavailable)
    }

    /// The Argon2id hash of `password`, on a hashing thread.
    ///
    /// # Errors
    /// [`HashError::Busy`] when the queue is full.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        self.run(move || hash_password(&password))
            .await?
            .map_err(|_| HashError::Failed)
    }

    /// Whether `password` matches `stored` (or, for `None`, a decoy that takes as long), on a
    /// hashing thread.
    ///
    /// # Errors
    /// [`HashError::Busy`] when the queue is full.
    pub async fn verify(
        &self,
        password: String,
        stored: Option<String>,
    ) -> Result<bool, HashError> {
        self.run(move || match stored {
            Some(stored) => verify_password(&password, &stored),
            None => {
                let _ = verify_password(&password, decoy_hash());
                false
            }
        })
        .await
    }
}

fn work(rx: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let rx = rx.lock().unwrap_or_else(PoisonError::into_inner);
            rx.recv()
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// The Argon2id hash of a password, as a PHC string (with its own random salt).
///
/// # Errors
/// The hasher failed (it does not for passwords of accepted lengths).
pub fn hash_password(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` is the one `stored` (a PHC string) was made from. The comparison
/// takes the same time however much of the password was right.
#[must_use]
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash to check unknown names against, so a log-in for a name nobody has takes as long
/// as one with a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("not a password of anyone").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let h = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct hors", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(h.starts_with("$argon2id$"));
        assert_ne!(hash_password("correct horse").unwrap(), h);
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once() {
        let hasher = Hasher::new(1, 1);
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel::<()>();
        // One job occupies the thread, one waits; a third is refused.
        let busy = hasher
            .submit(move || {
                let _ = started_tx.send(());
                let _ = hold_rx.recv();
            })
            .unwrap();
        started_rx.await.unwrap();
        let waiting = hasher.submit(|| 2).unwrap();
        let refused = hasher.submit(|| 3).unwrap_err();
        assert_eq!(refused, HashError::Busy);
        hold_tx.send(()).unwrap();
        busy.await.unwrap();
        assert_eq!(waiting.await.unwrap(), 2);
    }
}
