//! The server under test: a child process, its address, and its resident memory.

use anyhow::{bail, Context, Result};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How long the server may take to print its address.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Lines of the server's standard error kept to explain a failed start.
const STDERR_LINES: usize = 30;

/// Time between two memory samples.
const RSS_INTERVAL: Duration = Duration::from_millis(50);

/// A running server process; killed when dropped.
#[derive(Debug)]
pub struct ServerProcess {
    child: Child,
    pub pid: u32,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub rss: Arc<Rss>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

/// The `http://127.0.0.1:PORT` a line of the server's output names, if any.
#[must_use]
pub fn parse_base(line: &str) -> Option<String> {
    const PREFIX: &str = "http://127.0.0.1:";
    let at = line.find(PREFIX)?;
    let digits: String = line[at + PREFIX.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let port: u16 = digits.parse().ok().filter(|p| *p != 0)?;
    Some(format!("http://127.0.0.1:{port}"))
}

/// Reads `stream` to its end line by line (lossy UTF-8), calling `each` on every line.
fn read_lines(stream: impl Read, mut each: impl FnMut(String)) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => each(String::from_utf8_lossy(&buf).trim_end().to_string()),
        }
    }
}

impl ServerProcess {
    /// Starts `BIN serve --addr 127.0.0.1:0 --database DATABASE EXTRA…` and waits for the
    /// address it prints; its output is drained from then on.
    ///
    /// # Errors
    /// The program does not start, ends, or prints no address within a minute.
    pub fn start(bin: &Path, database: &str, extra: &[String]) -> Result<ServerProcess> {
        let mut child = Command::new(bin)
            .arg("serve")
            .args(["--addr", "127.0.0.1:0", "--database", database])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", bin.display()))?;
        let stdout = child.stdout.take().context("no standard output")?;
        let stderr = child.stderr.take().context("no standard error")?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            read_lines(stderr, |line| {
                let mut t = tail
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            });
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            read_lines(stdout, |line| {
                if let Some(base) = parse_base(&line) {
                    if let Some(tx) = tx.take() {
                        let _ = tx.send(base);
                    }
                }
            });
        });
        let pid = child.id();
        let rss = Rss::start(pid);
        let mut server = ServerProcess {
            child,
            pid,
            base: String::new(),
            rss,
            stderr_tail,
        };
        match rx.recv_timeout(START_TIMEOUT) {
            Ok(base) => {
                server.base = base;
                Ok(server)
            }
            Err(_) => {
                // Its output closed or the minute passed: let it end (and the standard error
                // reader catch its last lines) before saying why.
                let mut ended = server.ended();
                for _ in 0..20 {
                    if ended.is_some() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                    ended = server.ended();
                }
                let tail = server.stderr_text();
                bail!(
                    "{} serve printed no http://127.0.0.1:PORT address{}{}",
                    bin.display(),
                    ended.map_or(" within a minute".into(), |e| format!(" and ended ({e})")),
                    if tail.is_empty() {
                        String::new()
                    } else {
                        format!("; its last output:\n{tail}")
                    }
                )
            }
        }
    }

    /// How the process ended, if it has.
    pub fn ended(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(format!("cannot tell: {e}")),
        }
    }

    fn stderr_text(&self) -> String {
        let t = self
            .stderr_tail
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        t.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.rss.stop.store(true, Ordering::Relaxed);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The resident memory of a process, sampled every 50 ms on a thread of its own.
#[derive(Debug, Default)]
pub struct Rss {
    /// Last sample, in KiB.
    current: AtomicU64,
    /// Largest sample since the last reset, in KiB.
    peak: AtomicU64,
    /// Whether any sample was read (not on systems without `/proc`).
    seen: AtomicBool,
    stop: AtomicBool,
    /// `/proc/PID/status`.
    path: String,
}

/// The `VmRSS` of a `/proc/PID/status` text, in KiB.
#[must_use]
pub fn parse_vmrss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line["VmRSS:".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl Rss {
    fn start(pid: u32) -> Arc<Rss> {
        let rss = Arc::new(Rss {
            path: format!("/proc/{pid}/status"),
            ..Rss::default()
        });
        let r = Arc::clone(&rss);
        std::thread::spawn(move || {
            while !r.stop.load(Ordering::Relaxed) {
                r.sample();
                std::thread::sleep(RSS_INTERVAL);
            }
        });
        rss
    }

    /// Reads the process's memory now.
    fn sample(&self) {
        if let Some(kb) = std::fs::read_to_string(&self.path)
            .ok()
            .as_deref()
            .and_then(parse_vmrss)
        {
            self.current.store(kb, Ordering::Relaxed);
            self.peak.fetch_max(kb, Ordering::Relaxed);
            self.seen.store(true, Ordering::Relaxed);
        }
    }

    /// Starts a new peak from a sample taken now.
    pub fn reset_peak(&self) {
        self.sample();
        self.peak
            .store(self.current.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// The peak since the last reset (with a sample taken now), in MB (MiB); `None` without
    /// samples.
    pub fn peak_mb(&self) -> Option<f64> {
        self.sample();
        self.seen
            .load(Ordering::Relaxed)
            .then(|| self.peak.load(Ordering::Relaxed) as f64 / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_line_gives_the_base() {
        assert_eq!(
            parse_base("boardlab server listening on http://127.0.0.1:41234 (database: x)"),
            Some("http://127.0.0.1:41234".into())
        );
        assert_eq!(parse_base("open http://127.0.0.1:0/"), None);
        assert_eq!(parse_base("nothing here"), None);
    }

    #[test]
    fn vmrss_is_read_in_kib() {
        let status = "Name:\tboardlab\nVmPeak:\t  99 kB\nVmRSS:\t   20480 kB\nThreads:\t4\n";
        assert_eq!(parse_vmrss(status), Some(20480));
        assert_eq!(parse_vmrss("Name: x\n"), None);
    }
}
