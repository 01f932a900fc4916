//! The settings that shape the server's behaviour: what the operator chose with
//! [`crate::ServeArgs`], read once at start.

use std::time::Duration;

/// Server settings that shape behaviour.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Pause before each computer move (lets people watch computer games).
    pub computer_delay: Duration,
    /// Serve the web UI from this folder instead of the embedded copy.
    pub web_dir: Option<std::path::PathBuf>,
    /// How much computer seats and hints may think.
    pub computer: ComputerLimits,
    /// The outside engines computer seats may run: each a program and its arguments.
    pub engines: Vec<Vec<String>>,
    /// Games one address may create per minute (0: no limit).
    pub games_per_minute: u32,
    /// Hints one address may ask for per minute (0: no limit).
    pub hints_per_minute: u32,
    /// Take client addresses from `X-Forwarded-For` (behind a trusted proxy).
    pub trust_proxy: bool,
    /// Log-ins and sign-ups one address, and log-ins one account name, may try per minute
    /// (0: no limit).
    pub logins_per_minute: u32,
    /// The server is reached over TLS (through a proxy): session cookies are `Secure`.
    pub behind_tls: bool,
    /// Live streams and password hashing.
    pub budgets: Budgets,
    /// How long after its author left a challenge for a game played now lapses.
    pub challenge_lapse: Duration,
}

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
    /// Requests served at once (live streams apart); past it a request is refused at once.
    pub max_in_flight: usize,
    /// The latency admitted requests are kept under, by serving fewer at once.
    pub latency_target: Duration,
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
