//! Test harness: real servers on loopback, on a temporary SQLite file and, when
//! `BOARDLAB_TEST_POSTGRES_URL` is set, on PostgreSQL.

#![allow(dead_code)]

use boardlab_server::{ServeArgs, Server};
use serde_json::{json, Value};
use std::time::Duration;

/// The PostgreSQL URL of the test database, if the environment provides one. Without one a
/// test says loudly that its PostgreSQL part is skipped; under CI (`CI` set) it fails instead,
/// so CI can never pass without testing PostgreSQL.
pub fn postgres_url() -> Option<String> {
    let url = std::env::var("BOARDLAB_TEST_POSTGRES_URL")
        .ok()
        .filter(|s| !s.trim().is_empty());
    if url.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "BOARDLAB_TEST_POSTGRES_URL is not set, and under CI the PostgreSQL tests must run"
        );
        eprintln!(
            "NOTICE: BOARDLAB_TEST_POSTGRES_URL is not set: the PostgreSQL part of this test is \
             SKIPPED (.ci/run sets it up)"
        );
    }
    url
}

/// A server binary running as a process of its own (so it can be killed and restarted).
pub struct ServerProcess {
    pub child: std::process::Child,
    pub base: String,
    pub port: u16,
}

impl ServerProcess {
    /// Starts `boardlab-server` on `database` with extra flags, on a free loopback port (or
    /// the `port` given, to restart a server where its clients expect it).
    pub fn start(database: &str, port: Option<u16>, extra: &[&str]) -> ServerProcess {
        Self::start_with(database, port, extra, None)
    }

    /// As [`ServerProcess::start`], with the process's open-file limit lowered to `files`.
    pub fn start_with(
        database: &str,
        port: Option<u16>,
        extra: &[&str],
        files: Option<u32>,
    ) -> ServerProcess {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        let addr = format!("127.0.0.1:{}", port.unwrap_or(0));
        let bin = env!("CARGO_BIN_EXE_boardlab-server");
        let mut args = vec!["--addr", addr.as_str(), "--database", database];
        args.extend_from_slice(extra);
        let mut command = match files {
            Some(n) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("ulimit -n {n} && exec \"$0\" \"$@\""))
                    .arg(bin)
                    .args(&args);
                c
            }
            None => {
                let mut c = Command::new(bin);
                c.args(&args);
                c
            }
        };
        let mut child = command
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server binary starts");
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let first = lines
            .next()
            .expect("the server prints its address")
            .expect("readable");
        let base = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in '{first}'"))
            .to_string();
        let port = base.rsplit(':').next().unwrap().parse().unwrap();
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        ServerProcess { child, base, port }
    }

    /// Kills the process without warning (SIGKILL) and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A server running in this process on its own task.
pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    pub database: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _dir: Option<tempfile::TempDir>,
}

impl TestServer {
    /// A server on a fresh SQLite file.
    pub async fn sqlite() -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = format!("sqlite://{}", dir.path().join("test.db").display());
        let mut s = TestServer::on(&db).await;
        s._dir = Some(dir);
        s
    }

    /// A server on `database`.
    pub async fn on(database: &str) -> TestServer {
        TestServer::with(ServeArgs {
            addr: "127.0.0.1:0".into(),
            database: database.into(),
            ..ServeArgs::default()
        })
        .await
    }

    /// A server with these settings.
    pub async fn with(args: ServeArgs) -> TestServer {
        let database = args.database.clone();
        let server = Server::bind(&args).await.expect("server starts");
        let addr = server.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async {
            let _ = rx.await;
        }));
        TestServer {
            base: format!("http://{addr}"),
            client: client(),
            database,
            stop: Some(tx),
            task: Some(task),
            _dir: None,
        }
    }

    /// Every backend the environment offers: SQLite, and PostgreSQL when configured.
    pub async fn all() -> Vec<TestServer> {
        let mut v = vec![TestServer::sqlite().await];
        if let Some(url) = postgres_url() {
            v.push(TestServer::on(&url).await);
        }
        v
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            t.await.expect("server task").expect("server ran");
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET; returns status and JSON (Null when the body is not JSON).
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .client
            .get(self.url(path))
            .send()
            .await
            .expect("request");
        let status = r.status().as_u16();
        let text = r.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// POST a JSON value.
    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_raw(path, &body.to_string()).await
    }

    /// POST raw text as JSON.
    pub async fn post_raw(&self, path: &str, body: &str) -> (u16, Value) {
        let r = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        let status = r.status().as_u16();
        let text = r.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Creates a game; returns id, the tokens object and the state.
    pub async fn create(&self, body: Value) -> (String, Value, Value) {
        let (status, v) = self.post("/api/games", &body).await;
        assert_eq!(status, 201, "create {body}: {v}");
        (
            v["id"].as_str().unwrap().to_string(),
            v["tokens"].clone(),
            v["state"].clone(),
        )
    }

    pub async fn state(&self, id: &str) -> Value {
        let (status, v) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Plays a move; returns status and answer.
    pub async fn play(
        &self,
        id: &str,
        mv: &str,
        token: &str,
        version: Option<i64>,
    ) -> (u16, Value) {
        let mut body = json!({ "move": mv, "token": token });
        if let Some(v) = version {
            body["version"] = json!(v);
        }
        self.post(&format!("/api/games/{id}/moves"), &body).await
    }

    /// Polls the game until `done` holds (at most `secs` seconds).
    pub async fn wait_for(&self, id: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state(id).await;
            if done(&s) {
                return s;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out waiting; last state: {s}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client")
}

/// The legal moves of a state.
pub fn legal(state: &Value) -> Vec<String> {
    state["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

pub fn version(state: &Value) -> i64 {
    state["version"].as_i64().unwrap()
}

/// A player's browser: a session cookie, sent with every request once set.
pub struct Browser<'a> {
    pub s: &'a TestServer,
    pub cookie: Option<String>,
    /// Extra headers (an Origin, a forwarded address).
    pub headers: Vec<(&'static str, String)>,
}

impl<'a> Browser<'a> {
    pub fn new(s: &'a TestServer) -> Browser<'a> {
        Browser {
            s,
            cookie: None,
            headers: Vec::new(),
        }
    }

    pub fn with(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_string()));
        self
    }

    pub async fn send(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let (status, v, cookie) = self.send_raw(method, path, body).await;
        if let Some(c) = cookie {
            self.cookie = Some(c).filter(|c| !c.is_empty());
        }
        (status, v)
    }

    /// Status, body, and the session cookie's new value if the answer set one.
    pub async fn send_raw(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value, Option<String>) {
        let mut req = match method {
            "GET" => self.s.client.get(self.s.url(path)),
            _ => self.s.client.post(self.s.url(path)),
        };
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        if let Some(c) = &self.cookie {
            req = req.header("cookie", format!("boardlab_session={c}"));
        }
        for (k, v) in &self.headers {
            req = req.header(*k, v);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let set = r
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|v| v.strip_prefix("boardlab_session="))
            .map(|v| v.split(';').next().unwrap_or("").to_string());
        let text = r.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::Null),
            set,
        )
    }

    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send("GET", path, None).await
    }

    pub async fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        self.send("POST", path, Some(body)).await
    }

    pub async fn signup(&mut self, name: &str) -> (u16, Value) {
        self.post(
            "/api/account/signup",
            &json!({ "name": name, "password": "a good password" }),
        )
        .await
    }

    pub async fn login(&mut self, name: &str, password: &str) -> (u16, Value) {
        self.post(
            "/api/account/login",
            &json!({ "name": name, "password": password }),
        )
        .await
    }

    pub async fn me(&mut self) -> Value {
        let (c, v) = self.get("/api/account").await;
        assert_eq!(c, 200, "{v}");
        v["account"].clone()
    }
}

/// A unique name for this run (the PostgreSQL database is shared between runs).
pub fn unique(prefix: &str) -> String {
    format!("{prefix}{:08x}", rand::random::<u32>())
}

/// The next event of a server-sent event stream: `(event, data)`.
pub async fn next_event(stream: &mut reqwest::Response, buf: &mut String) -> (String, String) {
    loop {
        if let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let mut event = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(e) = line.strip_prefix("event:") {
                    event = e.trim().to_string();
                } else if let Some(d) = line.strip_prefix("data:") {
                    data.push_str(d.trim());
                }
            }
            if !event.is_empty() {
                return (event, data);
            }
            continue;
        }
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.chunk())
            .await
            .expect("an event within 10 s")
            .unwrap()
            .expect("the stream goes on");
        buf.push_str(&String::from_utf8_lossy(&chunk));
    }
}

/// Opens the account's live stream on `s` and reads its greeting.
pub async fn account_stream(s: &TestServer, cookie: &str) -> (reqwest::Response, String) {
    let r = s
        .client
        .get(s.url("/api/account/live"))
        .header("cookie", format!("boardlab_session={cookie}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let mut stream = r;
    let mut buf = String::new();
    assert_eq!(next_event(&mut stream, &mut buf).await.0, "hello");
    (stream, buf)
}
