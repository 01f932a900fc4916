//! Cases on accounts: `logins` (a burst of wrong log-ins: what it costs the server in
//! memory and time) and `lockout` (slow guessing of one account's password from many
//! addresses: can its owner still log in?).

use super::net::{self, Answer, Counts, Jar, Probe};
use super::{quantile, rss_row, CaseReport, Ctx, Row, Target};
use anyhow::{bail, Result};
use reqwest::Client;
use serde_json::json;
use std::time::{Duration, Instant};

/// Attacker addresses of the `logins` case.
const LOGIN_ADDRESSES: u8 = 20;
/// Log-ins each of them sends at once.
const LOGINS_PER_ADDRESS: usize = 10;
/// Log-ins of the idle baseline.
const IDLE_LOGINS: usize = 3;

/// Attacker addresses of the `lockout` case.
const GUESSERS: u8 = 10;
/// Time between two guesses of one attacker address: 10 a minute, within the default
/// per-address allowance.
const GUESS_PACE: Duration = Duration::from_secs(6);
/// Time between two log-ins of the owner.
const OWNER_PACE: Duration = Duration::from_secs(5);
/// Time the guessing runs before the owner's first try.
const BUILD_UP: Duration = Duration::from_secs(1);
/// The owner's tries of the idle baseline (after the set-up's log-in).
const IDLE_TRIES: usize = 3;

/// `POST /api/account/login`.
async fn login(
    client: &Client,
    base: &str,
    name: &str,
    password: &str,
    cookies: Option<&str>,
) -> Answer {
    net::post(
        client,
        &format!("{base}/api/account/login"),
        &json!({"name": name, "password": password}),
        cookies,
    )
    .await
}

/// Signs up `name` (or, when the name is taken, as in a database kept from an earlier run,
/// logs in) and answers the cookies set, holding `boardlab_session`.
///
/// # Errors
/// Neither a sign-up (201) nor a log-in (200) with a session cookie.
pub async fn signed_in(client: &Client, base: &str, name: &str, password: &str) -> Result<Jar> {
    let mut a = net::post(
        client,
        &format!("{base}/api/account/signup"),
        &json!({"name": name, "password": password}),
        None,
    )
    .await;
    let mut what = "signing up";
    if a.status == Some(409) {
        a = login(client, base, name, password, None).await;
        what = "logging in (the name is taken)";
    }
    let mut jar = Jar::default();
    jar.update(&a.set_cookies);
    if !matches!(a.status, Some(200 | 201)) || !jar.has("boardlab_session") {
        bail!(
            "{what} as '{name}' answered {}{}; a boardlab_session cookie was expected",
            a.key(),
            a.error.map(|e| format!(" ({e})")).unwrap_or_default()
        );
    }
    Ok(jar)
}

/// `logins`: 200 wrong log-ins for one account at once from 20 addresses.
pub async fn logins(ctx: &Ctx) -> Result<CaseReport> {
    const NAME: &str = "owner1";
    let owner = net::client(net::VICTIM)?;
    signed_in(&owner, &ctx.base, NAME, "correct horse battery").await?;

    // A name nobody has takes as long to refuse and leaves the owner's allowance alone.
    ctx.rss.reset_peak();
    let mut idle = Probe::default();
    for i in 0..IDLE_LOGINS {
        let a = login(&owner, &ctx.base, "idle_probe", &format!("wrong {i}"), None).await;
        idle.record(&a, a.status == Some(401));
    }
    let idle_rss = ctx.rss.peak_mb();

    ctx.rss.reset_peak();
    let mut tasks = Vec::new();
    for a in 0..LOGIN_ADDRESSES {
        let client = net::client(net::attacker(a))?;
        for k in 0..LOGINS_PER_ADDRESS {
            let (client, base) = (client.clone(), ctx.base.clone());
            tasks.push(tokio::spawn(async move {
                // A name of its own each (one name's allowance would stop them before any
                // password is hashed): every log-in asks for a hash.
                let name = format!("visitor{a}x{k}");
                login(&client, &base, &name, "a wrong guess", None).await
            }));
        }
    }
    let counts = Counts::default();
    let mut ms = Vec::new();
    for t in tasks {
        // Each log-in ends within 20 s.
        let a = t.await.unwrap_or_default();
        counts.add(&a.key());
        ms.push(a.ms);
    }
    let attack_rss = ctx.rss.peak_mb();

    let rows = vec![
        rss_row(idle_rss, attack_rss, Target::Below(600.0)),
        Row::new(
            "wrong log-in latency, p50 (ms)",
            quantile(&idle.ms, 0.5),
            quantile(&ms, 0.5),
            Target::Info,
        ),
    ];
    let notes = vec![
        format!(
            "attack: {} wrong log-ins at once, each for another name, from {LOGIN_ADDRESSES} \
             addresses: {} (401: judged wrong, 429/503: refused); p99 {:.0} ms",
            ms.len(),
            counts.summary(),
            quantile(&ms, 0.99).unwrap_or(0.0)
        ),
        format!(
            "idle: {IDLE_LOGINS} wrong log-ins for a name nobody has: {}",
            idle.describe()
        ),
    ];
    Ok(CaseReport { rows, notes })
}

/// One try of the owner with the correct password, sending back every cookie kept.
async fn owner_try(client: &Client, base: &str, jar: &mut Jar, tries: &mut Probe) {
    let a = login(
        client,
        base,
        LOCKOUT_NAME,
        LOCKOUT_PASSWORD,
        jar.header().as_deref(),
    )
    .await;
    jar.update(&a.set_cookies);
    tries.record(&a, a.status == Some(200));
}

const LOCKOUT_NAME: &str = "owner2";
const LOCKOUT_PASSWORD: &str = "owner two's long password";

/// One attacker address guessing at its pace until `until`.
async fn guesser(client: Client, base: String, a: u8, t0: Instant, until: Instant) -> Counts {
    let counts = Counts::default();
    let most = 1 + (until - t0).as_secs() / GUESS_PACE.as_secs();
    for k in 0..most {
        let at = t0 + GUESS_PACE * u32::try_from(k).unwrap_or(u32::MAX);
        if at >= until {
            break;
        }
        tokio::time::sleep_until(at.into()).await;
        let password = format!("guess {a}-{k}");
        counts.add(
            &login(&client, &base, LOCKOUT_NAME, &password, None)
                .await
                .key(),
        );
    }
    counts
}

/// The share of tries answered 200, in percent.
fn success_percent(tries: &Probe) -> Option<f64> {
    let n = tries.ms.len();
    (n > 0).then(|| (n - tries.failed) as f64 * 100.0 / n as f64)
}

/// `lockout`: ten addresses guess the owner's password at a pace each address is allowed;
/// meanwhile the owner logs in with the right one every 5 s.
pub async fn lockout(ctx: &Ctx) -> Result<CaseReport> {
    let owner = net::client(net::VICTIM)?;
    let mut jar = signed_in(&owner, &ctx.base, LOCKOUT_NAME, LOCKOUT_PASSWORD).await?;
    let mut first = Probe::default();
    owner_try(&owner, &ctx.base, &mut jar, &mut first).await;
    if first.failed > 0 {
        bail!(
            "the owner's first log-in answered {} (200 expected)",
            first.statuses.join(", ")
        );
    }

    ctx.rss.reset_peak();
    let mut idle = Probe::default();
    for _ in 0..IDLE_TRIES {
        tokio::time::sleep(Duration::from_secs(1)).await;
        owner_try(&owner, &ctx.base, &mut jar, &mut idle).await;
    }
    let idle_rss = ctx.rss.peak_mb();

    ctx.rss.reset_peak();
    let t0 = Instant::now();
    let until = t0 + Duration::from_secs(ctx.lockout_seconds);
    let mut guessers = Vec::new();
    for a in 0..GUESSERS {
        let client = net::client(net::attacker(a))?;
        guessers.push(tokio::spawn(guesser(
            client,
            ctx.base.clone(),
            a,
            t0,
            until,
        )));
    }
    let mut tries = Probe::default();
    let most = 1 + ctx.lockout_seconds / OWNER_PACE.as_secs();
    for k in 0..most {
        let at = t0 + BUILD_UP + OWNER_PACE * u32::try_from(k).unwrap_or(u32::MAX);
        if at >= until {
            break;
        }
        tokio::time::sleep_until(at.into()).await;
        owner_try(&owner, &ctx.base, &mut jar, &mut tries).await;
    }
    let guesses = Counts::default();
    for g in guessers {
        if let Ok(c) = g.await {
            for (k, n) in c.entries() {
                guesses.add_n(&k, n);
            }
        }
    }
    let attack_rss = ctx.rss.peak_mb();
    Ok(lockout_report(
        ctx, &jar, &idle, &tries, &guesses, idle_rss, attack_rss,
    ))
}

fn lockout_report(
    ctx: &Ctx,
    jar: &Jar,
    idle: &Probe,
    tries: &Probe,
    guesses: &Counts,
    idle_rss: Option<f64>,
    attack_rss: Option<f64>,
) -> CaseReport {
    let by_status = |p: &Probe| {
        let c = Counts::default();
        p.statuses.iter().for_each(|s| c.add(s));
        c.summary()
    };
    let rows = vec![
        Row::new(
            "owner's correct log-ins answered 200 (%)",
            success_percent(idle),
            success_percent(tries),
            Target::AtLeast(100.0),
        ),
        rss_row(idle_rss, attack_rss, Target::Info),
    ];
    let notes = vec![
        format!(
            "owner under attack: {} of {} correct log-ins answered 200 ({}); p50 {:.0} ms; \
             idle: {} of {} ({})",
            tries.ms.len() - tries.failed,
            tries.ms.len(),
            by_status(tries),
            quantile(&tries.ms, 0.5).unwrap_or(0.0),
            idle.ms.len() - idle.failed,
            idle.ms.len(),
            by_status(idle)
        ),
        format!(
            "attack: {GUESSERS} addresses guessing one password every {} s each for {} s: {} \
             (401: judged wrong, 429: refused); cookies sent back by the owner: {}",
            GUESS_PACE.as_secs(),
            ctx.lockout_seconds,
            guesses.summary(),
            jar.names().join(", ")
        ),
    ];
    CaseReport { rows, notes }
}
