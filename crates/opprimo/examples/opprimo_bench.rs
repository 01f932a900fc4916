//! Speed of the Opprimo engine on one thread: random playouts from the start (playouts/s,
//! plies/s, as `boardlab bench` measures them: `Game::restart` then `Rules::playout` with a
//! `SmallRng`) and perft (nodes/s), for each castle option. Rates are given per second of wall
//! time and, where Linux reports it, per second of this thread's CPU time (steadier on a busy
//! machine).
//!
//! `cargo run -p boardlab-opprimo --release --example opprimo_bench [SECONDS]`

use boardlab_core::perft::perft;
use boardlab_core::rand::{rngs::SmallRng, SeedableRng};
use boardlab_core::Game;
use boardlab_core::Rules;
use boardlab_opprimo::Opprimo;
use std::time::{Duration, Instant};

/// CPU time of this thread in seconds (Linux), if available.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, Option<f64>) {
    let (t, c) = (Instant::now(), cpu_seconds());
    let out = f();
    let cpu = c.and_then(|c0| cpu_seconds().map(|c1| c1 - c0));
    (out, t.elapsed().as_secs_f64(), cpu)
}

fn rate(n: f64, wall: f64, cpu: Option<f64>) -> String {
    match cpu {
        Some(c) => format!("{:.3e}/s wall, {:.3e}/s CPU", n / wall, n / c),
        None => format!("{:.3e}/s wall", n / wall),
    }
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    for castle in ["band", "hex"] {
        let options = Opprimo::info()
            .parse_options(&format!("castle={castle}"))
            .expect("valid options");
        let start = Opprimo::new(&options, 0).expect("a game");
        let mut rng = SmallRng::seed_from_u64(1);
        let limit = Duration::from_secs_f64(secs);
        let ((games, plies), wall, cpu) = timed(|| {
            let t = Instant::now();
            let (mut games, mut plies) = (0u64, 0u64);
            while t.elapsed() < limit {
                for _ in 0..256 {
                    let mut g = start.restart(&mut rng);
                    plies += u64::from(g.playout(&mut rng));
                    games += 1;
                }
            }
            (games, plies)
        });
        println!(
            "castle={castle}: {games} playouts ({:.1} plies each): playouts {}; plies {}",
            plies as f64 / games as f64,
            rate(games as f64, wall, cpu),
            rate(plies as f64, wall, cpu)
        );
        let depth = 6;
        let (nodes, wall, cpu) = timed(|| perft(&start, depth));
        println!(
            "castle={castle}: perft({depth}) = {nodes} in {wall:.2} s: nodes {}",
            rate(nodes as f64, wall, cpu)
        );
    }
}
