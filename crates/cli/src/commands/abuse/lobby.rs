//! `lobby`: a signed-in attacker starts as many games against a level-10 computer as it can;
//! the victim times a level-1 computer's first move.

use super::accounts::signed_in;
use super::net::{self, Counts, Probe};
use super::{max, rss_row, CaseReport, Ctx, Row, Target};
use anyhow::Result;
use reqwest::Client;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Time the attacker posts.
const POST_TIME: Duration = Duration::from_secs(3);
/// Most posts.
const MAX_POSTS: usize = 1_000;
/// Posts in flight at once.
const POSTERS: usize = 8;
/// First-move probes of the victim.
const PROBES: usize = 3;
/// Longest time for one probe series.
const PROBE_BUDGET: Duration = Duration::from_secs(90);

/// Posts challenges against the computer until the time or the count runs out.
async fn post_challenges(
    client: Client,
    url: Arc<str>,
    cookie: Arc<str>,
    counts: Arc<Counts>,
    posted: Arc<AtomicUsize>,
    until: Instant,
) {
    let body = json!({"game": net::GAME, "opponent": "computer:level:10", "seat": "second"});
    while Instant::now() < until && posted.fetch_add(1, Ordering::Relaxed) < MAX_POSTS {
        let a = net::post(&client, &url, &body, Some(&cookie)).await;
        counts.add(&a.key());
    }
}

async fn first_moves(victim: &Client, base: &str) -> Probe {
    let mut probe = Probe::default();
    let t0 = Instant::now();
    for _ in 0..PROBES {
        if t0.elapsed() >= PROBE_BUDGET {
            break;
        }
        net::first_move_probe(victim, base, &mut probe).await;
    }
    probe
}

/// `lobby`: see the module.
pub async fn lobby(ctx: &Ctx) -> Result<CaseReport> {
    let victim = net::client(net::VICTIM)?;
    let attacker = net::client(net::attacker(0))?;
    let jar = signed_in(
        &attacker,
        &ctx.base,
        "lobby_attacker",
        "attacker password 1",
    )
    .await?;
    let cookie: Arc<str> = jar.header().unwrap_or_default().into();

    ctx.rss.reset_peak();
    let idle = first_moves(&victim, &ctx.base).await;
    let idle_rss = ctx.rss.peak_mb();

    ctx.rss.reset_peak();
    let counts = Arc::new(Counts::default());
    let posted = Arc::new(AtomicUsize::new(0));
    let url: Arc<str> = format!("{}/api/lobby", ctx.base).into();
    let t0 = Instant::now();
    let posters: Vec<_> = (0..POSTERS)
        .map(|_| {
            tokio::spawn(post_challenges(
                attacker.clone(),
                Arc::clone(&url),
                Arc::clone(&cookie),
                Arc::clone(&counts),
                Arc::clone(&posted),
                t0 + POST_TIME,
            ))
        })
        .collect();
    // The build-up: the posting itself (each post ends within 20 s).
    for p in posters {
        let _ = p.await;
    }
    let built = t0.elapsed().as_secs_f64();
    let attack = first_moves(&victim, &ctx.base).await;
    let attack_rss = ctx.rss.peak_mb();

    let rows = vec![
        Row::new(
            format!("level-1 computer's first move, max of {PROBES} (ms)"),
            max(&idle.ms),
            max(&attack.ms),
            Target::Below(2000.0),
        ),
        rss_row(idle_rss, attack_rss, Target::Info),
    ];
    let notes = vec![
        format!(
            "attack: {} games against computer:level:10 asked for in {built:.1} s: {} \
             (201: started, 429: refused)",
            counts.total(),
            counts.summary()
        ),
        format!(
            "victim: idle {}; under attack {}",
            idle.describe(),
            attack.describe()
        ),
    ];
    Ok(CaseReport { rows, notes })
}
