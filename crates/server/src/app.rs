//! The application: the services of one server, wired together, with the budgets each client
//! draws on. Every change to a game goes through the games service
//! ([`crate::services::games`]); the application tells the other services of it (clocks,
//! computer players, ratings) through [`Followers`].

use crate::limits::{Gauge, PerAddress};
use crate::services::accounts::Accounts;
use crate::services::clocks::Timekeeper;
use crate::services::computer::{Computer, ComputerSettings};
use crate::services::games::{Followers, Games};
use crate::services::lobby::Lobby;
use crate::services::notify::Notifier;
use crate::services::ratings::Ratings;
use crate::services::reviews::Reviews;
use crate::settings::Settings;
use crate::store::Store;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};

/// The shared server state: its services and the budgets of its clients.
pub struct App {
    pub store: Arc<Store>,
    pub settings: Settings,
    /// The games: the cache and every change.
    pub games: Arc<Games>,
    /// The clocks of the games.
    pub clocks: Arc<Timekeeper>,
    /// Computer players, hints and puzzles, and the search threads they share.
    pub computer: Arc<Computer>,
    /// Live channels of games, players and the lobby; presence.
    pub notifier: Arc<Notifier>,
    /// Rated results counted into ratings.
    pub ratings: Arc<Ratings>,
    /// Reviews of games and records.
    pub reviews: Arc<Reviews>,
    /// Open challenges.
    pub lobby: Arc<Lobby>,
    /// Game creations per client address.
    pub create_limit: PerAddress,
    /// Hints per client address.
    pub hint_limit: PerAddress,
    /// Analysis-board evaluations per client address.
    pub analysis_limit: PerAddress,
    /// Log-ins and sign-ups per client address.
    pub login_limit: PerAddress,
    /// Live streams (WebSockets and server-sent events) held open, per address and in all.
    pub streams: Arc<Gauge>,
    /// Analysis-board streams held open per address.
    pub analysis_streams: Arc<Gauge>,
    /// Accounts and sessions.
    pub accounts: Arc<Accounts>,
    /// Tells live connections the server is stopping.
    pub shutdown: tokio::sync::watch::Sender<bool>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "App({:?})", self.store)
    }
}

impl App {
    /// The state around `store`.
    #[must_use]
    pub fn new(store: Arc<Store>, settings: Settings) -> Arc<App> {
        let (shutdown, _) = tokio::sync::watch::channel(false);
        Arc::new_cyclic(|me: &Weak<App>| {
            let notifier = Arc::new(Notifier::new(Arc::clone(&store)));
            let followers: Weak<dyn Followers> = me.clone();
            let games = Arc::new(Games::new(
                Arc::clone(&store),
                Arc::clone(&notifier),
                followers,
            ));
            let clocks = Arc::new(Timekeeper::new(Arc::clone(&store), Arc::clone(&games)));
            let computer = Arc::new(Computer::new(
                Arc::clone(&store),
                Arc::clone(&games),
                ComputerSettings {
                    delay: settings.computer_delay,
                    limits: settings.computer,
                    engines: settings.engines.clone(),
                },
            ));
            let reviews = Arc::new(Reviews::new(
                Arc::clone(&store),
                Arc::clone(&games),
                Arc::clone(&notifier),
                Arc::clone(&computer.searches),
                shutdown.subscribe(),
            ));
            let lobby = Arc::new(Lobby::new(
                Arc::clone(&store),
                Arc::clone(&games),
                Arc::clone(&computer),
                Arc::clone(&notifier),
                settings.challenge_lapse,
            ));
            App {
                lobby,
                create_limit: PerAddress::new(
                    "new games",
                    settings.games_per_minute,
                    settings.games_per_minute,
                ),
                hint_limit: PerAddress::new(
                    "hints",
                    settings.hints_per_minute,
                    settings.hints_per_minute.min(10),
                ),
                // The analysis board asks again at every move it shows: four times the hints.
                analysis_limit: PerAddress::new(
                    "analyses",
                    settings.hints_per_minute.saturating_mul(4),
                    settings.hints_per_minute.saturating_mul(4).min(40),
                ),
                login_limit: PerAddress::new(
                    "log-ins",
                    settings.logins_per_minute,
                    settings.logins_per_minute,
                ),
                streams: Gauge::new(
                    "live streams",
                    settings.budgets.max_streams,
                    settings.budgets.streams_per_address,
                ),
                analysis_streams: Gauge::new(
                    "analysis streams",
                    usize::MAX,
                    settings.budgets.analysis_streams_per_address,
                ),
                accounts: Arc::new(Accounts::new(
                    Arc::clone(&store),
                    crate::hashing::Hasher::new(
                        settings.budgets.hash_threads,
                        settings.budgets.hash_queue,
                    ),
                    settings.logins_per_minute,
                )),
                ratings: Arc::new(Ratings::new(Arc::clone(&store))),
                games,
                clocks,
                computer,
                notifier,
                reviews,
                store,
                settings,
                shutdown,
            }
        })
    }

    /// Forgets the rate-limit state of clients that have been quiet (run now and then).
    pub fn forget_idle_clients(&self) {
        self.create_limit.forget_idle();
        self.hint_limit.forget_idle();
        self.analysis_limit.forget_idle();
        self.login_limit.forget_idle();
    }

    /// Stops the computer players and reviews, and tells live connections to close.
    pub fn begin_shutdown(&self) {
        self.computer.stop_all();
        self.reviews.stop_all();
        let _ = self.shutdown.send(true);
    }
}

impl Followers for App {
    fn clock_changed(&self, id: &str, deadline_ms: Option<i64>) {
        self.clocks.schedule_flag(id, deadline_ms);
    }

    fn rated_game_ended(&self) {
        let ratings = Arc::clone(&self.ratings);
        tokio::spawn(async move { ratings.rate_pending().await });
    }

    fn before_action<'a>(&'a self, id: &'a str) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            self.clocks.flag_if_due(id).await;
        })
    }

    fn turn_changed(&self, id: &str, computer_to_move: bool) {
        self.computer.stop_thinking(id);
        if computer_to_move {
            self.computer.schedule(id);
        }
    }
}
