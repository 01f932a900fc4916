//! `boardlab loadtest --abuse`: abuse cases against a real server process.
//!
//! Each case starts the server binary as a child process (`BIN serve --addr 127.0.0.1:0
//! --database sqlite://TMP/abuse.db [--server-arg …]`) on a fresh database, so one case's
//! attack cannot leave the next one a worn-out server. A victim on its own loopback address
//! (127.0.0.200) first measures what it gets from the idle server (the baseline); then the
//! attack starts from other loopback addresses (127.0.0.2, 127.0.0.3, …), so per-address
//! limits see them as different clients, builds up, and the victim measures again while it
//! runs. The server's resident memory is sampled from `/proc/PID/status` every 50 ms.
//!
//! Every request has a 20 s limit (a request that runs out counts as a failure, with its
//! time), and every loop is bounded in count and in time. The figures are the point: a FAIL
//! against a target is reported, not an error; only a case that cannot be set up (no server,
//! no account) makes the command end with an error, after the other cases ran.

#[path = "abuse/accounts.rs"]
mod accounts;
#[path = "abuse/flood.rs"]
mod flood;
#[path = "abuse/lobby.rs"]
mod lobby;
#[path = "abuse/net.rs"]
mod net;
#[path = "abuse/server.rs"]
pub(super) mod server;

use super::loadtest::Args;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Longest lockout attack, in seconds.
pub const MAX_LOCKOUT_SECONDS: u64 = 600;

/// The abuse cases, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Streams,
    Logins,
    Lobby,
    Analysis,
    Lockout,
}

impl Case {
    pub const ALL: [Case; 5] = [
        Case::Streams,
        Case::Logins,
        Case::Lobby,
        Case::Analysis,
        Case::Lockout,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Case::Streams => "streams",
            Case::Logins => "logins",
            Case::Lobby => "lobby",
            Case::Analysis => "analysis",
            Case::Lockout => "lockout",
        }
    }
}

impl std::str::FromStr for Case {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Case> {
        match Case::ALL.iter().find(|c| c.name() == s) {
            Some(c) => Ok(*c),
            None => bail!(
                "unknown abuse case '{s}'; accepted: {}",
                Case::ALL.map(Case::name).join(", ")
            ),
        }
    }
}

/// What a figure must meet under attack.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Less than this.
    Below(f64),
    /// At least this.
    AtLeast(f64),
    /// Reported, not judged.
    Info,
}

/// One measured figure of a case: idle and under attack.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What the victim measured, with its unit.
    pub measure: String,
    pub idle: Option<f64>,
    pub attack: Option<f64>,
    pub target: Target,
}

impl Row {
    fn new(measure: impl Into<String>, idle: Option<f64>, attack: Option<f64>, t: Target) -> Row {
        Row {
            measure: measure.into(),
            idle,
            attack,
            target: t,
        }
    }

    /// PASS or FAIL of the under-attack figure against the target.
    #[must_use]
    pub fn verdict(&self) -> &'static str {
        match (self.target, self.attack) {
            (Target::Info, _) => "-",
            (_, None) => "n/a",
            (Target::Below(t), Some(v)) if v < t => "PASS",
            (Target::AtLeast(t), Some(v)) if v >= t => "PASS",
            _ => "FAIL",
        }
    }
}

/// What one case measured: its figures and what else it saw (answers by status, counts).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseReport {
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

/// What every case gets: the server it attacks.
#[derive(Debug)]
pub struct Ctx {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub rss: Arc<server::Rss>,
    pub lockout_seconds: u64,
}

/// The server's peak resident memory, idle and under attack, as a row.
fn rss_row(idle: Option<f64>, attack: Option<f64>, target: Target) -> Row {
    Row::new("server peak RSS (MB)", idle, attack, target)
}

/// The settings of an abuse run, checked.
#[derive(Clone, Debug)]
struct Settings {
    cases: Vec<Case>,
    bin: PathBuf,
    server_args: Vec<String>,
    database: Option<String>,
    lockout_seconds: u64,
}

fn settings(args: &Args) -> Result<Settings> {
    if args.addr.is_some() {
        bail!("--abuse starts its own server for each case; leave out --addr");
    }
    let mut cases = Vec::new();
    for name in &args.cases {
        let case: Case = name.parse()?;
        if !cases.contains(&case) {
            cases.push(case);
        }
    }
    if cases.is_empty() {
        cases = Case::ALL.to_vec();
    }
    if !(1..=MAX_LOCKOUT_SECONDS).contains(&args.lockout_seconds) {
        bail!(
            "--lockout-seconds {} is out of range; accepted: 1 to {MAX_LOCKOUT_SECONDS}",
            args.lockout_seconds
        );
    }
    let bin = match &args.bin {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("cannot tell which program this is; pass --bin")?,
    };
    if !bin.is_file() {
        bail!("--bin {}: no such program", bin.display());
    }
    Ok(Settings {
        cases,
        bin,
        server_args: args.server_args.clone(),
        database: args.database.clone(),
        lockout_seconds: args.lockout_seconds,
    })
}

/// Runs the abuse cases and prints the table (`boardlab loadtest --abuse`).
///
/// # Errors
/// Bad settings, or a case that could not be set up (after every case ran and the table was
/// printed). A figure that misses its target is not an error.
pub fn run(args: &Args) -> Result<()> {
    let settings = settings(args)?;
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) if n < 12_000 => eprintln!(
            "abuse: warning: this process may open only {n} files; the streams case needs \
             about 10,100 (raise `ulimit -n`)"
        ),
        Ok(_) => {}
        Err(e) => eprintln!("abuse: warning: cannot raise the open-file limit: {e}"),
    }
    let dir = std::env::temp_dir().join(format!(
        "boardlab-abuse-{}-{}",
        std::process::id(),
        boardlab_server::now_ms()
    ));
    let mut results = Vec::new();
    for &case in &settings.cases {
        eprintln!("abuse: case {} …", case.name());
        let r = run_case(&settings, case, &dir.join(case.name()));
        if let Err(e) = &r {
            eprintln!("abuse: case {} could not run: {e:#}", case.name());
        }
        results.push((case, r.map_err(|e| format!("{e:#}"))));
    }
    let _ = std::fs::remove_dir_all(&dir);
    outln!("{}", render(&settings, &results))?;
    let failed: Vec<&str> = results
        .iter()
        .filter(|(_, r)| r.is_err())
        .map(|(c, _)| c.name())
        .collect();
    if !failed.is_empty() {
        bail!("could not set up: {}", failed.join(", "));
    }
    Ok(())
}

/// Starts a server, runs one case against it, stops it.
fn run_case(settings: &Settings, case: Case, dir: &Path) -> Result<CaseReport> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let database = settings
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("abuse.db").display()));
    let mut server = server::ServerProcess::start(&settings.bin, &database, &settings.server_args)?;
    eprintln!("abuse: server {} at {}", server.pid, server.base);
    let ctx = Ctx {
        base: server.base.clone(),
        rss: Arc::clone(&server.rss),
        lockout_seconds: settings.lockout_seconds,
    };
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    // A runtime per case: whatever an attack left running ends with it.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .thread_name("abuse-client")
        .enable_all()
        .build()?;
    let report = rt.block_on(async {
        match case {
            Case::Streams => flood::streams(&ctx).await,
            Case::Logins => accounts::logins(&ctx).await,
            Case::Lobby => lobby::lobby(&ctx).await,
            Case::Analysis => flood::analysis(&ctx).await,
            Case::Lockout => accounts::lockout(&ctx).await,
        }
    });
    rt.shutdown_timeout(Duration::from_secs(2));
    let mut report = report?;
    if let Some(ended) = server.ended() {
        report
            .notes
            .push(format!("the server process ended during the case: {ended}"));
    }
    Ok(report)
}

/// The figure as printed: `n/a`, whole numbers from 100 up, else one decimal.
#[must_use]
pub fn figure(v: Option<f64>) -> String {
    match v {
        None => "n/a".into(),
        Some(v) if v.abs() >= 100.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
    }
}

fn target_text(t: Target) -> String {
    match t {
        Target::Below(x) => format!("< {}", figure(Some(x))),
        Target::AtLeast(x) => format!(">= {}", figure(Some(x))),
        Target::Info => "-".into(),
    }
}

/// Lines of cells, columns padded to their widest cell (the last column is not padded).
#[must_use]
pub fn render_table(lines: &[Vec<String>]) -> String {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .filter_map(|l| l.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in lines {
        let mut text = String::new();
        for (c, cell) in line.iter().enumerate() {
            if c + 1 == line.len() {
                text.push_str(cell);
            } else {
                let pad = widths[c] - cell.chars().count();
                text.push_str(cell);
                text.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// The results as a table with notes below it.
fn render(settings: &Settings, results: &[(Case, Result<CaseReport, String>)]) -> String {
    let mut lines = vec![[
        "case",
        "victim measured",
        "idle",
        "under attack",
        "target",
        "result",
    ]
    .map(String::from)
    .to_vec()];
    let mut notes = Vec::new();
    for (case, result) in results {
        match result {
            Ok(report) => {
                for row in &report.rows {
                    lines.push(vec![
                        case.name().into(),
                        row.measure.clone(),
                        figure(row.idle),
                        figure(row.attack),
                        target_text(row.target),
                        row.verdict().into(),
                    ]);
                }
                notes.extend(report.notes.iter().map(|n| format!("{}: {n}", case.name())));
            }
            Err(e) => {
                lines.push(vec![
                    case.name().into(),
                    "(not run)".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "ERROR".into(),
                ]);
                notes.push(format!("{}: setup failed: {e}", case.name()));
            }
        }
    }
    let mut out = format!(
        "abuse cases against {} serve{}\n\n",
        settings.bin.display(),
        settings
            .server_args
            .iter()
            .map(|a| format!(" {a}"))
            .collect::<String>()
    );
    out.push_str(&render_table(&lines));
    if !notes.is_empty() {
        out.push_str("\nnotes:\n");
        for n in notes {
            out.push_str(&format!("  {n}\n"));
        }
    }
    out.trim_end().to_string()
}

/// The `p` quantile (0 to 1) of sorted values, nearest rank; `None` for none.
#[must_use]
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() as f64 - 1.0) * p.clamp(0.0, 1.0)).round() as usize;
    Some(sorted[i.min(sorted.len() - 1)])
}

/// The largest value; `None` for none.
#[must_use]
pub fn max(values: &[f64]) -> Option<f64> {
    values.iter().copied().reduce(f64::max)
}

/// The `p` quantile of values in any order.
#[must_use]
pub fn quantile(values: &[f64], p: f64) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    percentile(&v, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        assert_eq!(percentile(&[], 0.5), None);
        assert_eq!(percentile(&[7.0], 0.99), Some(7.0));
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        assert_eq!(percentile(&v, 0.5), Some(3.0));
        assert_eq!(percentile(&v, 1.0), Some(5.0));
        assert_eq!(quantile(&[5.0, 1.0, 4.0, 2.0, 3.0], 0.5), Some(3.0));
        assert_eq!(max(&[2.0, 9.5, 1.0]), Some(9.5));
        assert_eq!(max(&[]), None);
    }

    #[test]
    fn verdicts_judge_the_figure_under_attack() {
        let row = |attack, target| Row::new("x", Some(1.0), attack, target);
        assert_eq!(row(Some(999.0), Target::Below(1000.0)).verdict(), "PASS");
        assert_eq!(row(Some(1000.0), Target::Below(1000.0)).verdict(), "FAIL");
        assert_eq!(row(Some(100.0), Target::AtLeast(100.0)).verdict(), "PASS");
        assert_eq!(row(Some(50.0), Target::AtLeast(100.0)).verdict(), "FAIL");
        assert_eq!(row(None, Target::Below(1.0)).verdict(), "n/a");
        assert_eq!(row(Some(5.0), Target::Info).verdict(), "-");
    }

    #[test]
    fn tables_pad_columns_and_figures_round() {
        let lines = vec![
            vec!["case".into(), "idle".into(), "result".into()],
            vec!["streams".into(), "3.2".into(), "PASS".into()],
        ];
        assert_eq!(
            render_table(&lines),
            "case     idle  result\nstreams  3.2   PASS\n"
        );
        assert_eq!(figure(None), "n/a");
        assert_eq!(figure(Some(12.34)), "12.3");
        assert_eq!(figure(Some(1234.56)), "1235");
        assert_eq!(target_text(Target::Below(1000.0)), "< 1000");
        assert_eq!(target_text(Target::AtLeast(100.0)), ">= 100");
    }

    #[test]
    fn case_names_parse() {
        for c in Case::ALL {
            assert_eq!(c.name().parse::<Case>().unwrap(), c);
        }
        assert!("nope".parse::<Case>().is_err());
    }
}
