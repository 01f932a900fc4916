//! Clients bound to loopback addresses, timed requests, cookies, attack tasks, and the
//! victim's probes.

use anyhow::{Context, Result};
use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::{Client, RequestBuilder};
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Limit of every request, from sending it to the end of its answer.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The victim's (and account owners') address.
pub const VICTIM: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 200));

/// Most attacker addresses (127.0.0.2 up to 127.0.0.199).
pub const MAX_ATTACKERS: u8 = 198;

/// The game every case plays.
pub const GAME: &str = "sight-reduction";

/// Attacker address number `i` (from 0): 127.0.0.2, 127.0.0.3, …
#[must_use]
pub fn attacker(i: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + i.min(MAX_ATTACKERS - 1)))
}

/// A client whose connections come from `from`; every request opens a connection of its own
/// (as a new visitor does) and runs out after [`TIMEOUT`].
///
/// # Errors
/// The client cannot be built.
pub fn client(from: IpAddr) -> Result<Client> {
    builder(from)
        .timeout(TIMEOUT)
        .build()
        .context("cannot build an HTTP client")
}

/// As [`client`], without the overall limit, for streams kept open: its callers bound the
/// wait for the answer's head themselves.
///
/// # Errors
/// The client cannot be built.
pub fn stream_client(from: IpAddr) -> Result<Client> {
    builder(from).build().context("cannot build an HTTP client")
}

fn builder(from: IpAddr) -> reqwest::ClientBuilder {
    Client::builder()
        .local_address(from)
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(0)
        .connect_timeout(TIMEOUT)
}

/// A timed answer.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// `None`: no answer (refused connection, broken, or out of time).
    pub status: Option<u16>,
    /// From sending to the end of the answer (or the failure), in milliseconds.
    pub ms: f64,
    pub body: Vec<u8>,
    pub set_cookies: Vec<String>,
    /// What went wrong when there is no status.
    pub error: Option<String>,
}

impl Answer {
    /// The status as a counting key: `401`, …, or `failed`.
    #[must_use]
    pub fn key(&self) -> String {
        status_key(self.status)
    }

    #[must_use]
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// A status as a counting key; `failed` for none.
#[must_use]
pub fn status_key(status: Option<u16>) -> String {
    status.map_or_else(|| "failed".into(), |s| s.to_string())
}

/// Sends a request and reads its whole answer within [`TIMEOUT`].
pub async fn send(request: RequestBuilder) -> Answer {
    let t0 = Instant::now();
    let result = tokio::time::timeout(TIMEOUT, async {
        let r = request.send().await?;
        let status = r.status().as_u16();
        let cookies = r
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_string)
            .collect();
        let body = r.bytes().await?;
        Ok::<_, reqwest::Error>((status, cookies, body.to_vec()))
    })
    .await;
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    match result {
        Ok(Ok((status, set_cookies, body))) => Answer {
            status: Some(status),
            ms,
            body,
            set_cookies,
            error: None,
        },
        Ok(Err(e)) => Answer {
            ms,
            error: Some(if e.is_timeout() {
                "timed out".into()
            } else {
                e.to_string()
            }),
            ..Answer::default()
        },
        Err(_) => Answer {
            ms,
            error: Some("timed out".into()),
            ..Answer::default()
        },
    }
}

/// POSTs a JSON body (with `content-type: application/json`), with cookies when given.
pub async fn post(client: &Client, url: &str, body: &Value, cookies: Option<&str>) -> Answer {
    let mut r = client.post(url).json(body);
    if let Some(c) = cookies {
        r = r.header(COOKIE, c);
    }
    send(r).await
}

/// Cookies kept from `Set-Cookie` headers and sent back as a `Cookie` header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Jar(BTreeMap<String, String>);

/// A `Set-Cookie` value's name and value; the value is `None` when the cookie is cleared
/// (empty, or `Max-Age=0`).
#[must_use]
pub fn parse_set_cookie(header: &str) -> Option<(String, Option<String>)> {
    let mut parts = header.split(';');
    let (name, value) = parts.next()?.split_once('=')?;
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let cleared = value.trim().is_empty()
        || parts.any(|p| {
            p.split_once('=').is_some_and(|(k, v)| {
                k.trim().eq_ignore_ascii_case("max-age") && v.trim().starts_with(['0', '-'])
            })
        });
    Some((
        name.to_string(),
        (!cleared).then(|| value.trim().to_string()),
    ))
}

impl Jar {
    /// Takes in the cookies an answer set (or cleared).
    pub fn update(&mut self, set_cookies: &[String]) {
        for h in set_cookies {
            match parse_set_cookie(h) {
                Some((name, Some(value))) => {
                    self.0.insert(name, value);
                }
                Some((name, None)) => {
                    self.0.remove(&name);
                }
                None => {}
            }
        }
    }

    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// The names of the cookies kept.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }

    /// The `Cookie` header; `None` when empty.
    #[must_use]
    pub fn header(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| {
            self.0
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }
}

/// Answers counted by status (`200`, `429`, …, `failed`), shared by attack tasks.
#[derive(Debug, Default)]
pub struct Counts(Mutex<BTreeMap<String, u64>>);

impl Counts {
    pub fn add(&self, key: &str) {
        self.add_n(key, 1);
    }

    pub fn add_n(&self, key: &str, n: u64) {
        let mut m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *m.entry(key.to_string()).or_default() += n;
    }

    /// Every key with its count.
    #[must_use]
    pub fn entries(&self) -> Vec<(String, u64)> {
        let m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        m.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }

    #[must_use]
    pub fn total(&self) -> u64 {
        let m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        m.values().sum()
    }

    /// `200: 5, 429: 3` (or `none`).
    #[must_use]
    pub fn summary(&self) -> String {
        let m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if m.is_empty() {
            return "none".into();
        }
        m.iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Attack tasks, all aborted (their connections closed) by [`Crew::stop`].
#[derive(Clone, Debug, Default)]
pub struct Crew(Arc<Mutex<(bool, VecDeque<tokio::task::AbortHandle>)>>);

impl Crew {
    /// Runs `task`; at once aborted if the crew has stopped.
    pub fn spawn<F>(&self, task: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let handle = tokio::spawn(task).abort_handle();
        let mut inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if inner.0 {
            handle.abort();
            return;
        }
        // Forget finished tasks now and then, so a long attack keeps a short list.
        if inner.1.len() >= 4096 {
            inner.1.retain(|h| !h.is_finished());
        }
        inner.1.push_back(handle);
    }

    /// Aborts every task, and any spawned from now on.
    pub async fn stop(&self) {
        let handles = {
            let mut inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            inner.0 = true;
            std::mem::take(&mut inner.1)
        };
        for h in &handles {
            h.abort();
        }
        // Give the aborted tasks a moment to drop their connections.
        let until = Instant::now() + Duration::from_secs(5);
        while handles.iter().any(|h| !h.is_finished()) && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Up to `n` health checks one after another, each on a new connection, within
/// `budget`: their times in milliseconds (a failure counts with its time) and the failures.
pub async fn health_probe(client: &Client, base: &str, n: usize, budget: Duration) -> Probe {
    let until = Instant::now() + budget;
    let mut probe = Probe::default();
    for _ in 0..n {
        if Instant::now() >= until {
            break;
        }
        let a = send(client.get(format!("{base}/api/health"))).await;
        probe.record(&a, a.status == Some(200));
    }
    probe
}

/// What one kind of victim probe measured.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    pub ms: Vec<f64>,
    pub failed: usize,
    pub statuses: Vec<String>,
}

impl Probe {
    /// Adds an answer and whether it was what the victim wanted.
    pub fn record(&mut self, a: &Answer, ok: bool) {
        self.ms.push(a.ms);
        self.failed += usize::from(!ok);
        self.statuses
            .push(a.error.clone().unwrap_or_else(|| a.key()));
    }

    /// `3 probes, 1 failed; answers 201: 2, timed out: 1`.
    #[must_use]
    pub fn describe(&self) -> String {
        let answers = Counts::default();
        self.statuses.iter().for_each(|s| answers.add(s));
        format!(
            "{} probes, {} failed; answers {}",
            self.ms.len(),
            self.failed,
            answers.summary()
        )
    }
}

/// Moves played in a game state (or a creation answer holding one under `state`).
#[must_use]
pub fn move_count(v: &Value) -> Option<u64> {
    let state = v.get("state").unwrap_or(v);
    state
        .get("move_count")
        .and_then(Value::as_u64)
        .or_else(|| state.get("moves")?.as_array().map(|m| m.len() as u64))
}

/// Creates a game against a level-1 computer that moves first and times until its first
/// move shows (polling every 20 ms, at most 30 s); a failure counts with its time.
pub async fn first_move_probe(client: &Client, base: &str, probe: &mut Probe) {
    let t0 = Instant::now();
    let until = t0 + Duration::from_secs(30);
    let body = json!({"game": GAME, "seats": {"first": "computer:level:1", "second": "human"}});
    let created = post(client, &format!("{base}/api/games"), &body, None).await;
    let done = |mut a: Answer, ok: bool, probe: &mut Probe| {
        a.ms = t0.elapsed().as_secs_f64() * 1000.0;
        probe.record(&a, ok);
    };
    let (Some(201), Some(v)) = (created.status, created.json()) else {
        return done(created, false, probe);
    };
    let Some(id) = v.get("id").and_then(Value::as_str).map(str::to_string) else {
        return done(created, false, probe);
    };
    if move_count(&v).unwrap_or(0) >= 1 {
        return done(created, true, probe);
    }
    let url = format!("{base}/api/games/{id}");
    let mut last = created;
    for _ in 0..1500 {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            last.status = None;
            last.error = Some("no move within 30 s".into());
            return done(last, false, probe);
        }
        tokio::time::sleep(Duration::from_millis(20).min(left)).await;
        last = send(client.get(&url).timeout(left.max(Duration::from_millis(1)))).await;
        if last.status == Some(200) && last.json().and_then(|v| move_count(&v)).unwrap_or(0) >= 1 {
            return done(last, true, probe);
        }
    }
    last.status = None;
    last.error = Some("no move within 30 s".into());
    done(last, false, probe);
}

/// Creates a game against a level-1 computer where the human moves first and times one
/// hint for it (the creation is not timed).
pub async fn hint_probe(client: &Client, base: &str, probe: &mut Probe) {
    let body = json!({"game": GAME, "seats": {"first": "human", "second": "computer:level:1"}});
    let created = post(client, &format!("{base}/api/games"), &body, None).await;
    let id = created
        .json()
        .and_then(|v| v.get("id")?.as_str().map(str::to_string));
    let Some(id) = id.filter(|_| created.status == Some(201)) else {
        return probe.record(&created, false);
    };
    let a = send(client.get(format!("{base}/api/games/{id}/hint"))).await;
    probe.record(&a, a.status == Some(200));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_kept_replaced_and_cleared() {
        let mut jar = Jar::default();
        jar.update(&[
            "boardlab_session=abc; Path=/; HttpOnly; SameSite=Lax".into(),
            "boardlab_device=d1; Max-Age=31536000".into(),
        ]);
        assert_eq!(
            jar.header().as_deref(),
            Some("boardlab_device=d1; boardlab_session=abc")
        );
        jar.update(&["boardlab_session=xyz; Path=/".into()]);
        jar.update(&["boardlab_device=; Max-Age=0".into()]);
        assert_eq!(jar.header().as_deref(), Some("boardlab_session=xyz"));
        assert_eq!(parse_set_cookie("junk"), None);
    }

    #[test]
    fn moves_are_counted_in_states_and_creations() {
        assert_eq!(move_count(&json!({"moves": [1, 2]})), Some(2));
        assert_eq!(move_count(&json!({"state": {"moves": []}})), Some(0));
        assert_eq!(move_count(&json!({"move_count": 3})), Some(3));
        assert_eq!(move_count(&json!({})), None);
    }

    #[test]
    fn counts_summarise_by_status() {
        let c = Counts::default();
        assert_eq!(c.summary(), "none");
        c.add("429");
        c.add("200");
        c.add("429");
        assert_eq!(c.summary(), "200: 1, 429: 2");
        assert_eq!(c.total(), 3);
        assert_eq!(c.entries(), vec![("200".into(), 1), ("429".into(), 2)]);
        assert_eq!(status_key(None), "failed");
    }
}
