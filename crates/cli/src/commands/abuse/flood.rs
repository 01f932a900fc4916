//! Cases that hold many connections open: `streams` (live lobby streams) and `analysis`
//! (engine analysis streams).

use super::net::{self, Counts, Crew, Probe};
use super::{max, rss_row, CaseReport, Ctx, Row, Target};
use anyhow::{bail, Result};
use reqwest::Client;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Attacker addresses of the `streams` case.
const STREAM_ADDRESSES: u8 = 2;
/// Streams each of them tries to open.
const STREAMS_PER_ADDRESS: u64 = 5_000;
/// Streams of one address waiting for their answer at once.
const OPENING_AT_ONCE: usize = 1_000;
/// Time to open them.
const OPEN_TIME: Duration = Duration::from_secs(8);
/// Longest any stream is held (the case stops them well before).
const HOLD_MAX: Duration = Duration::from_secs(600);
/// Health checks of the victim.
const HEALTH_PROBES: usize = 10;
/// Longest time for one probe series.
const PROBE_BUDGET: Duration = Duration::from_secs(90);

/// How the streams of the attack fared.
#[derive(Debug, Default)]
struct StreamTally {
    counts: Counts,
    /// Requests sent.
    started: AtomicU64,
    /// Requests answered or failed.
    settled: AtomicU64,
}

/// `streams`: two addresses open up to 5,000 `GET /api/lobby/live` streams each and keep
/// them open; the victim times `GET /api/health`.
pub async fn streams(ctx: &Ctx) -> Result<CaseReport> {
    let victim = net::client(net::VICTIM)?;
    ctx.rss.reset_peak();
    let idle = net::health_probe(&victim, &ctx.base, HEALTH_PROBES, PROBE_BUDGET).await;
    let idle_rss = ctx.rss.peak_mb();

    ctx.rss.reset_peak();
    let crew = Crew::default();
    let tally = Arc::new(StreamTally::default());
    let url: Arc<str> = format!("{}/api/lobby/live", ctx.base).into();
    let t0 = Instant::now();
    for a in 0..STREAM_ADDRESSES {
        let client = net::stream_client(net::attacker(a))?;
        crew.spawn(open_streams(
            client,
            Arc::clone(&url),
            crew.clone(),
            Arc::clone(&tally),
            t0 + OPEN_TIME,
        ));
    }
    let total = u64::from(STREAM_ADDRESSES) * STREAMS_PER_ADDRESS;
    while t0.elapsed() < OPEN_TIME && tally.settled.load(Ordering::Relaxed) < total {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let built = t0.elapsed().as_secs_f64();
    let (started, settled) = (
        tally.started.load(Ordering::Relaxed),
        tally.settled.load(Ordering::Relaxed),
    );
    let summary = tally.counts.summary();
    let attack = net::health_probe(&victim, &ctx.base, HEALTH_PROBES, PROBE_BUDGET).await;
    let attack_rss = ctx.rss.peak_mb();
    crew.stop().await;

    let rows = vec![
        Row::new(
            format!("GET /api/health, max of {HEALTH_PROBES} (ms)"),
            max(&idle.ms),
            max(&attack.ms),
            Target::Below(1000.0),
        ),
        rss_row(idle_rss, attack_rss, Target::Info),
    ];
    let notes = vec![
        format!(
            "attack: {started} of {total} streams sent from {STREAM_ADDRESSES} addresses in \
             {built:.1} s; answers before the probe: {summary}; {} still waiting",
            started - settled.min(started)
        ),
        format!(
            "answers by the end: {} (200: accepted, 429/503: refused, failed: refused \
             connection or no answer within 20 s)",
            tally.counts.summary()
        ),
        format!(
            "victim: idle {}; under attack {}",
            idle.describe(),
            attack.describe()
        ),
    ];
    Ok(CaseReport { rows, notes })
}

/// Opens the streams of one address, at most [`OPENING_AT_ONCE`] waiting at once, until
/// `deadline`.
async fn open_streams(
    client: Client,
    url: Arc<str>,
    crew: Crew,
    tally: Arc<StreamTally>,
    deadline: Instant,
) {
    let slots = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let deadline = tokio::time::Instant::from_std(deadline);
    for _ in 0..STREAMS_PER_ADDRESS {
        let Ok(Ok(permit)) =
            tokio::time::timeout_at(deadline, Arc::clone(&slots).acquire_owned()).await
        else {
            return;
        };
        tally.started.fetch_add(1, Ordering::Relaxed);
        let (client, url, tally) = (client.clone(), Arc::clone(&url), Arc::clone(&tally));
        crew.spawn(async move {
            let answer = tokio::time::timeout(net::TIMEOUT, client.get(&*url).send()).await;
            drop(permit);
            let key = match &answer {
                Ok(Ok(r)) => r.status().as_u16().to_string(),
                Ok(Err(_)) | Err(_) => "failed".into(),
            };
            tally.counts.add(&key);
            tally.settled.fetch_add(1, Ordering::Relaxed);
            if let Ok(Ok(mut r)) = answer {
                // Read what comes (until the case stops the crew).
                let _ = tokio::time::timeout(HOLD_MAX, async {
                    while let Ok(Some(_)) = r.chunk().await {}
                })
                .await;
            }
        });
    }
}

/// Attacker addresses of the `analysis` case.
const ANALYSIS_ADDRESSES: u8 = 3;
/// Streams each of them keeps open.
const ANALYSES_PER_ADDRESS: usize = 40;
/// Streams one worker opens at most, one after another.
const ANALYSES_PER_WORKER: usize = 500;
/// Pause of a worker after a refusal or failure.
const REFUSED_PAUSE: Duration = Duration::from_millis(500);
/// Time the analyses run before the victim probes.
const BUILD_UP: Duration = Duration::from_secs(2);

/// A position text of the game: from `POST /api/positions`, or else from a new game.
async fn position_text(client: &Client, base: &str) -> Result<String> {
    let text = |v: Option<Value>| v.and_then(|v| v.get("position")?.as_str().map(str::to_string));
    let a = net::post(
        client,
        &format!("{base}/api/positions"),
        &json!({"game": net::GAME}),
        None,
    )
    .await;
    if let Some(p) = text(a.json()).filter(|_| a.status == Some(200)) {
        return Ok(p);
    }
    let g = net::post(
        client,
        &format!("{base}/api/games"),
        &json!({"game": net::GAME, "seats": {"first": "human", "second": "human"}}),
        None,
    )
    .await;
    match text(g.json().and_then(|v| v.get("state").cloned())) {
        Some(p) if g.status == Some(201) => Ok(p),
        _ => bail!(
            "no position text: POST /api/positions answered {}, POST /api/games {}",
            a.key(),
            g.key()
        ),
    }
}

/// One analysis stream after another: counts the answers, reads each stream to its end.
async fn analysis_worker(client: Client, base: Arc<str>, position: Arc<str>, counts: Arc<Counts>) {
    let url = format!("{base}/api/analysis");
    for _ in 0..ANALYSES_PER_WORKER {
        let request = client
            .get(&url)
            .query(&[("game", net::GAME), ("position", &*position)]);
        match tokio::time::timeout(net::TIMEOUT, request.send()).await {
            Ok(Ok(mut r)) if r.status().as_u16() == 200 => {
                counts.add("200");
                let mut ended = false;
                // An analysis sends a handful of events; each comes within seconds.
                for _ in 0..1000 {
                    match tokio::time::timeout(net::TIMEOUT, r.chunk()).await {
                        Ok(Ok(Some(_))) => {}
                        Ok(Ok(None)) => {
                            ended = true;
                            break;
                        }
                        Ok(Err(_)) | Err(_) => break,
                    }
                }
                counts.add(if ended { "completed" } else { "broken" });
            }
            Ok(Ok(r)) => {
                counts.add(&r.status().as_u16().to_string());
                tokio::time::sleep(REFUSED_PAUSE).await;
            }
            Ok(Err(_)) | Err(_) => {
                counts.add("failed");
                tokio::time::sleep(REFUSED_PAUSE).await;
            }
        }
    }
}

/// The level-1 first-move probe three times and one hint.
async fn analysis_probe(victim: &Client, base: &str) -> (Probe, Probe) {
    let mut moves = Probe::default();
    let t0 = Instant::now();
    for _ in 0..3 {
        if t0.elapsed() >= PROBE_BUDGET {
            break;
        }
        net::first_move_probe(victim, base, &mut moves).await;
    }
    let mut hint = Probe::default();
    net::hint_probe(victim, base, &mut hint).await;
    (moves, hint)
}

/// `analysis`: three addresses keep 40 `GET /api/analysis` streams each busy; the victim
/// times a level-1 computer's first move and a hint.
pub async fn analysis(ctx: &Ctx) -> Result<CaseReport> {
    let victim = net::client(net::VICTIM)?;
    let position: Arc<str> = position_text(&victim, &ctx.base).await?.into();
    ctx.rss.reset_peak();
    let (idle_moves, idle_hint) = analysis_probe(&victim, &ctx.base).await;
    let idle_rss = ctx.rss.peak_mb();

    ctx.rss.reset_peak();
    let crew = Crew::default();
    let counts = Arc::new(Counts::default());
    let base: Arc<str> = ctx.base.as_str().into();
    for a in 0..ANALYSIS_ADDRESSES {
        let client = net::stream_client(net::attacker(a))?;
        for _ in 0..ANALYSES_PER_ADDRESS {
            crew.spawn(analysis_worker(
                client.clone(),
                Arc::clone(&base),
                Arc::clone(&position),
                Arc::clone(&counts),
            ));
        }
    }
    tokio::time::sleep(BUILD_UP).await;
    let (moves, hint) = analysis_probe(&victim, &ctx.base).await;
    let attack_rss = ctx.rss.peak_mb();
    crew.stop().await;

    let rows = vec![
        Row::new(
            "level-1 computer's first move, max of 3 (ms)",
            max(&idle_moves.ms),
            max(&moves.ms),
            Target::Below(1000.0),
        ),
        Row::new(
            "GET /api/games/{id}/hint (ms)",
            max(&idle_hint.ms),
            max(&hint.ms),
            Target::Info,
        ),
        rss_row(idle_rss, attack_rss, Target::Info),
    ];
    let notes = vec![
        format!(
            "attack: {} workers on {ANALYSIS_ADDRESSES} addresses; analysis answers: {}",
            u64::from(ANALYSIS_ADDRESSES) * ANALYSES_PER_ADDRESS as u64,
            counts.summary()
        ),
        format!(
            "victim moves: idle {}; under attack {}",
            idle_moves.describe(),
            moves.describe()
        ),
        format!(
            "victim hint status: idle {}; under attack {}",
            idle_hint.statuses.join(", "),
            hint.statuses.join(", ")
        ),
    ];
    Ok(CaseReport { rows, notes })
}
